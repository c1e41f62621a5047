"""Finding the player a command names: `p2`, `Fiona`, `@fiona`, `@FictitiousFiona`. Pure."""

import re
from collections.abc import Iterable

from projections.game import Player
from schema import errors as codes
from server.game.decide.errors import InvalidCommand, NotFound

# A Discord user mention, as a bot may pass it on: <@123> or <@!123>.
_MENTION = re.compile(r"<@!?(\d{1,30})>")


def mentioned_user(reference: str) -> str | None:
    """The Discord user id of a mention, or None when the reference is a name or an id."""
    match = _MENTION.fullmatch(reference.strip())
    return match.group(1) if match else None


def _squeezed(text: str) -> str:
    return "".join(text.split()).lower()


def find_player(players: Iterable[Player], reference: str) -> Player:
    """The player `reference` names: its id, its name, or @name, case-insensitive; spaces in
    a name may be left out, as in a Discord mention (@FictitiousFiona)."""
    everyone = list(players)
    key = reference.strip().removeprefix("@").strip()
    if not key:
        raise InvalidCommand(codes.PLAYER_UNNAMED, "name a player: @name or a player id")
    lowered = key.lower()
    for matches in (
        [p for p in everyone if p.id.lower() == lowered],
        [p for p in everyone if p.name.lower() == lowered],
        [p for p in everyone if _squeezed(p.name) == _squeezed(key)],
    ):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            names = ", ".join(f"{p.name} ({p.id})" for p in matches)
            raise InvalidCommand(
                codes.PLAYER_AMBIGUOUS, f"{key} could be any of {names}: use the player id"
            )
    known = ", ".join(p.name for p in everyone) or "nobody yet"
    raise NotFound(
        codes.PLAYER_NOT_FOUND, f"no player called {key[:40]} in this game (players: {known})"
    )
