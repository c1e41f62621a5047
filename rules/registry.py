"""Every game the server plays, by name and version (godip's `variants.Variants`): the server
finds a game's rules only here. A game keeps every version it was ever played under, so an
old game replays under the rules it was played by; its first event names both."""

from collections.abc import Mapping

from rules.skirmish.ruleset import SKIRMISH_SOCIETY, SkirmishSociety

# Name -> versions, the newest last. A new game is one line here.
GAMES: Mapping[str, tuple[SkirmishSociety, ...]] = {SKIRMISH_SOCIETY.name: (SKIRMISH_SOCIETY,)}

# What a game whose first event names no game plays: every game from before the registry.
DEFAULT_GAME = SKIRMISH_SOCIETY.name


class UnknownGame(LookupError):
    """No such game, or no such version of it, on this server."""


def newest(name: str) -> SkirmishSociety:
    """The version a new game of `name` is played under."""
    versions = GAMES.get(name)
    if versions is None:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"no game named {name!r} here; the games are: {known}")
    return versions[-1]


def game_rules(name: str, version: int) -> SkirmishSociety:
    """The rules of `name` as they were at `version`."""
    for rules in GAMES.get(name, ()):
        if rules.version == version:
            return rules
    raise UnknownGame(f"this server does not know version {version} of {name!r}")
