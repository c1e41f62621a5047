"""Finding the player a command or a move names: `p2`, `Fiona`, `@fiona`, `@FictitiousFiona`.
Players know each other by name; seats are the room's."""

from collections.abc import Iterable
from typing import Any

from projections.game import GameState, Player
from rules.game import Addressed, Game, Move
from schema import errors as codes
from schema.refusals import InvalidCommand, NotFound


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


def with_seat(state: GameState, definition: Game[Any, Any], move: Move) -> Move:
    """`move` addressed to the seat of the player it names, for a game whose moves name one
    (rules/game.py, `Addressed`): as the game takes it and the room records it. A name that
    is nobody's is the move's fault, not a missing resource: a 422, as the game's own
    refusals are; one that could be several players' a 422 `player_ambiguous`."""
    if not isinstance(definition, Addressed):
        return move
    named = definition.addressee(move)
    if named is None:
        return move
    try:
        seat = find_player(state.players.values(), named).id
    except NotFound as error:
        raise InvalidCommand(codes.MOVE_REFUSED, str(error)) from error
    return definition.addressed_to(move, seat)
