"""Games from outside the project: `SKIRMISH_GAMES="package.module:NAME,..."` names each
definition (rules/game.py) by the module that holds it and its name there. The server
registers them at its start, and its heavy-read workers as they start, beside the built-in
games (rules/registry.py); a built-in game is one line in the registry instead."""

import importlib
from collections.abc import Iterable

from rules.registry import register


class GameNotFound(ValueError):
    """A name of SKIRMISH_GAMES that names no game; the message says which and why."""


def register_games(names: Iterable[str]) -> None:
    for name in names:
        module_name, _, attribute = name.partition(":")
        try:
            game = getattr(importlib.import_module(module_name), attribute)
        except (ImportError, AttributeError, ValueError) as error:
            raise GameNotFound(f"SKIRMISH_GAMES: cannot load {name!r}: {error}") from error
        register(game)


def parse_games(value: str) -> tuple[str, ...]:
    """SKIRMISH_GAMES's names; each must be `module:NAME`."""
    names = tuple(part.strip() for part in value.split(",") if part.strip())
    for name in names:
        module_name, colon, attribute = name.partition(":")
        if not (module_name and colon and attribute.isidentifier()):
            raise GameNotFound(f"SKIRMISH_GAMES: {name!r} is not module:NAME")
    return names
