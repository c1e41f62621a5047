"""Skor's turn clock (docs/skor.md, "The turn clock"; §7.4 P43): the option `turn_time`
(rules/kit/clock.py), and what the server does for a player whose turn's time ran out. In
phase `purge` it removes the player's first piece in canonical order, otherwise it ends the
turn (and when a Dictatorship's purge roll then says 1, removes that piece: one timeout,
one turn); the third timeout in a row of one player forfeits the game instead, to the opponent.
A move of the player starts the count again."""

from collections.abc import Mapping

from rules.skor.actions import AnyAction, End, Remove
from rules.skor.game import piece_order
from rules.skor.state import State

FORFEIT_AFTER = 3
# A timed-out turn takes an `end`, and a purge's removal when its roll says 1.
MOST_ACTIONS = 2
OPTION = "turn_time"


def forfeits(timeouts: Mapping[str, int], player: str) -> bool:
    """Whether this timeout of `player` is its third in a row."""
    return timeouts.get(player, 0) + 1 >= FORFEIT_AFTER


def action_for(game: State, player: str) -> AnyAction:
    """What the server does for `player`, whose turn's time ran out and does not forfeit."""
    if game.turn.phase != "purge":
        return End()
    first = min((p for p in game.pieces if p.player == player), key=piece_order)
    return Remove(at=first.at, kind=first.kind)
