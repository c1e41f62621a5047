"""Every game the server plays, by name and version (godip's `variants.Variants`): the server
finds a game's rules only here. A game keeps every version it was ever played under, so an
old game replays under the rules it was played by; its first event names both.

Every game is a definition (rules/game.py). Skirmish Society's lives in projections/skirmish/
(its events are the room's own), which this module may not import: it registers itself,
built in, when imported, and projections.game imports it, so that every process that folds
a game has it. A game from outside the project is registered by the server at its start
(SKIRMISH_GAMES, server/plugins.py), in every process that may meet it."""

from typing import Any

from rules.artofwar.definition import ART_OF_WAR, ART_OF_WAR_VERSION_1
from rules.game import Game
from rules.skor.definition import SKOR

# Name -> versions, the oldest first. A new game is one line here.
_GAMES: dict[str, tuple[Game[Any, Any], ...]] = {
    ART_OF_WAR.name: (ART_OF_WAR_VERSION_1, ART_OF_WAR),
    SKOR.name: (SKOR,),
}
_BUILT_IN = set(_GAMES)
# (name, version) -> rules: every state asks its game's rules, many times a step.
_BY_VERSION = {(g.name, g.version): g for versions in _GAMES.values() for g in versions}

# What a game whose first event names no game plays: every game from before the registry,
# Skirmish Society (registered by projections/skirmish/).
DEFAULT_GAME = "skirmish-society"


class UnknownGame(LookupError):
    """No such game, or no such version of it, on this server."""


def register(game: Game[Any, Any], built_in: bool = False) -> None:
    """Add a version of a game (a newer one becomes the one new games play); registering
    the same value again changes nothing. A game `built_in` (the project's own, registered
    from outside rules/) cannot be unregistered."""
    versions = _GAMES.get(game.name, ())
    if game in versions:
        return
    if any(known.version >= game.version for known in versions):
        raise ValueError(f"{game.name!r} already has a version {game.version} or newer")
    _GAMES[game.name] = (*versions, game)
    _BY_VERSION[game.name, game.version] = game
    if built_in:
        _BUILT_IN.add(game.name)


def unregister(name: str) -> None:
    """Forget a game registered from outside the project (tests' own games)."""
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is built in")
    for game in _GAMES.pop(name, ()):
        del _BY_VERSION[name, game.version]


def names() -> list[str]:
    return sorted(_GAMES)


def definitions() -> dict[str, Game[Any, Any]]:
    """Every game by name: the newest version, which the house asks what it has of the
    definition's optional parts (its maps, its what-if, ...)."""
    return {name: versions[-1] for name, versions in sorted(_GAMES.items())}


def newest(name: str) -> Game[Any, Any]:
    """The version a new game of `name` is played under."""
    versions = _GAMES.get(name)
    if versions is None:
        raise UnknownGame(f"no game named {name!r} here; the games are: {', '.join(names())}")
    return versions[-1]


def game_rules(name: str, version: int) -> Game[Any, Any]:
    """The rules of `name` as they were at `version`."""
    rules = _BY_VERSION.get((name, version))
    if rules is not None:
        return rules
    raise UnknownGame(f"this server does not know version {version} of {name!r}")
