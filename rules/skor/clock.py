"""Skor's turn clock (docs/skor.md, "Turn clock"; §7.4 P43): the option `turn_time`, and
what the server does for a player whose turn's time ran out. In phase `purge` it removes the
player's first piece in canonical order, otherwise it ends the turn; the third timeout in a
row of one player forfeits the game instead, to the opponent. A move of the player starts
the count again."""

from collections.abc import Mapping
from typing import Any

import msgspec

from rules.game import OptionsRefused
from rules.kit.clock import BOUNDS, Seconds, with_clock
from rules.skor.actions import AnyAction, End, Remove
from rules.skor.game import piece_order
from rules.skor.state import State

FORFEIT_AFTER = 3
OPTION = "turn_time"


class _Clock(msgspec.Struct, frozen=True):
    turn_time: Seconds | None = None


def turn_time(options: Mapping[str, Any]) -> int | None:
    """The turn's time the options give (a day when not given; None: no clock)."""
    try:
        clock = msgspec.convert({OPTION: with_clock(options, OPTION)[OPTION]}, _Clock)
    except msgspec.ValidationError as error:
        raise OptionsRefused(f"turn_time is {BOUNDS}: {error}") from error
    return clock.turn_time


def without_clock(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options the engine plays by: all but the clock, which is the server's."""
    return {name: value for name, value in options.items() if name != OPTION}


def forfeits(timeouts: Mapping[str, int], player: str) -> bool:
    """Whether this timeout of `player` is its third in a row."""
    return timeouts.get(player, 0) + 1 >= FORFEIT_AFTER


def action_for(game: State, player: str) -> AnyAction:
    """What the server does for `player`, whose turn's time ran out and does not forfeit."""
    if game.turn.phase != "purge":
        return End()
    first = min((p for p in game.pieces if p.player == player), key=piece_order)
    return Remove(at=first.at, kind=first.kind)
