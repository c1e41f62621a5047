"""Draws by agreement (§7.2, P41), a feature of the server, not of the engine: a player
offers a draw in their turn; the other accepts it (the game ends `{"winner": null, "by":
"agreement"}`) or declines it in their own turn, and the offer lapses when the offerer's
next turn starts. As over a chessboard, an offer goes with one's own turn and is answered in
the other's, so neither player is asked anything while the other is thinking."""

import re
from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from rules.game import MoveRefused
from rules.skor.state import Ending, State

Answer = Literal["offer", "accept", "decline"]
_TEXT = re.compile(r"\s*(offer|accept|decline)\s+draw\s*", re.I)


class DrawOffer(msgspec.Struct, frozen=True):
    """A standing offer: who made it, in which of the game's turns."""

    by: str
    turn: int


class DrawOffered(msgspec.Struct, frozen=True, tag="skor_draw_offered.v1"):
    player: str


class DrawAccepted(msgspec.Struct, frozen=True, tag="skor_draw_accepted.v1"):
    """The game ends drawn by agreement."""

    player: str


class DrawDeclined(msgspec.Struct, frozen=True, tag="skor_draw_declined.v1"):
    player: str


DrawEvent = DrawOffered | DrawAccepted | DrawDeclined


def draw_move(move: Any) -> Answer | None:
    """What a move says of a draw (`offer draw`, `accept draw`, `decline draw`, or
    `{"draw": "offer"}`, ...), None for a move that is no such thing."""
    if isinstance(move, str):
        found = _TEXT.fullmatch(move)
        return None if found is None else _ANSWERS[found[1].lower()]
    if isinstance(move, dict) and "draw" in move:
        answer = _ANSWERS.get(move["draw"]) if isinstance(move["draw"], str) else None
        if set(move) != {"draw"} or answer is None:
            raise MoveRefused('a draw move is {"draw": "offer"}, "accept" or "decline"')
        return answer
    return None


_ANSWERS: dict[str, Answer] = {"offer": "offer", "accept": "accept", "decline": "decline"}


def standing(offer: DrawOffer | None, game: State) -> DrawOffer | None:
    """The offer if it still stands: until the offerer's next turn starts."""
    if offer is None or (game.turn.player == offer.by and game.turn.number > offer.turn):
        return None
    return offer


def answered(offer: DrawOffer | None, seat: str, answer: Answer) -> DrawEvent:
    """The event of `seat`'s draw move in its turn, with `offer` the one standing."""
    if answer == "offer":
        if offer is not None:
            mine = offer.by == seat
            raise MoveRefused(
                "your offer of a draw stands"
                if mine
                else "your opponent offered a draw: accept or decline it"
            )
        return DrawOffered(seat)
    if offer is None or offer.by == seat:
        raise MoveRefused(f"there is no offer of a draw to {answer}")
    return DrawAccepted(seat) if answer == "accept" else DrawDeclined(seat)


def drawn(game: State) -> State:
    """The game ended by agreement (§8's ending)."""
    return replace(game, ending=Ending(winner=None, by="agreement"))
