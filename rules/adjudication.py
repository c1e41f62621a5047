"""The stateless what-if of every game (docs/adjudicate.md): a request names its game by
`"ruleset"`, and one without it is Skirmish Society's, as requests were before the others."""

from collections.abc import Callable, Mapping

import msgspec

from rules.artofwar import contract as art_of_war
from rules.kit.requests import RequestError, decoded
from rules.skirmish import contract as skirmish_society
from rules.skor import contract as skor

# Game name -> its contract, bytes in and out. A game with a contract is one line here.
CONTRACTS: Mapping[str, Callable[[bytes | str], bytes]] = {
    "skirmish-society": skirmish_society.adjudicate_json,
    "skor": skor.adjudicate_json,
    "art-of-war": art_of_war.adjudicate_json,
}
DEFAULT_RULESET = "skirmish-society"

__all__ = ["CONTRACTS", "RequestError", "adjudicate_json"]


class _Named(msgspec.Struct, frozen=True):
    ruleset: str = DEFAULT_RULESET


_named = msgspec.json.Decoder(_Named)


def adjudicate_json(data: bytes | str) -> bytes:
    """The answer of the game the request names."""
    ruleset = decoded(_named, data).ruleset
    contract = CONTRACTS.get(ruleset)
    if contract is None:
        known = ", ".join(sorted(CONTRACTS))
        raise RequestError(f"no ruleset named {ruleset!r} here; the rulesets are: {known}")
    return contract(data)
