"""The stateless what-if of every game (docs/adjudicate.md): a request names its game by
`"ruleset"`, and one without it is Skirmish Society's, as requests were before the others.
Every other game's is its definition's (`WhatIf`, rules/game.py), found in the registry."""

from collections.abc import Callable

import msgspec

from rules.house import WhatIf
from rules.kit.requests import RequestError, decoded
from rules.registry import definitions
from rules.skirmish import contract as skirmish_society

DEFAULT_RULESET = "skirmish-society"

__all__ = ["RequestError", "adjudicate_json", "contracts", "what_ifs"]


def what_ifs() -> dict[str, WhatIf]:
    """Each game run by its definition that has a what-if, by name (the newest version's)."""
    return {name: game for name, game in definitions().items() if isinstance(game, WhatIf)}


def contracts() -> dict[str, Callable[[bytes | str], bytes]]:
    """Every game's what-if by name, bytes in and out: Skirmish Society's, then the others'."""
    found: dict[str, Callable[[bytes | str], bytes]] = {
        DEFAULT_RULESET: skirmish_society.adjudicate_json
    }
    return found | {name: game.what_if for name, game in what_ifs().items()}


class _Named(msgspec.Struct, frozen=True):
    ruleset: str = DEFAULT_RULESET


_named = msgspec.json.Decoder(_Named)


def adjudicate_json(data: bytes | str) -> bytes:
    """The answer of the game the request names."""
    ruleset = decoded(_named, data).ruleset
    known = contracts()
    contract = known.get(ruleset)
    if contract is None:
        names = ", ".join(sorted(known))
        raise RequestError(f"no ruleset named {ruleset!r} here; the rulesets are: {names}")
    return contract(data)
