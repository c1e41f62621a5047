"""Replay of a game run by its definition (rules/game.py): each step (its setup, a move, a
wait resolved or timed out, a seat leaving) asked of the definition again, from the state
before it, with the same move and the same draws, and its events compared with those
recorded. Pure."""

from typing import Any

from projections.game import GameState
from projections.playing import by_seat, recorded, step_values
from rules.game import Draws, MoveRefused, Private, Sealed
from schema.game_events import PlayRecorded, PlayStarted
from schema.verification import FieldChange


def replay_step(state: GameState, step: PlayStarted | PlayRecorded) -> list[FieldChange]:
    """What differs between the events recorded for `step` and those the game's rules make
    of it now; refusing the move now is a difference too."""
    try:
        now = recorded(_events_now(state, step))
    except MoveRefused as error:
        return [FieldChange("refused", None, str(error))]
    before = step.setup if isinstance(step, PlayStarted) else step_values(step)
    return [] if before == now else [FieldChange("events", before, now)]


def _events_now(state: GameState, step: PlayStarted | PlayRecorded) -> list[Any]:
    definition = state.definition
    if isinstance(step, PlayStarted):
        assert step.secret is not None
        draws = Draws(bytes.fromhex(step.secret), state.rewinds)
        return definition.setup(state.options, tuple(state.players), draws)
    draws = Draws(state.randomness, step.generation)
    if step.kind in ("move", "act"):
        assert step.player_id is not None
        decision = definition.move(state.play, step.player_id, step.move, draws)
        if isinstance(decision, Private):
            return decision.events
        return [] if isinstance(decision, Sealed) else decision
    if step.kind == "resolution" or (step.kind == "timeout" and step.player_id is None):
        return definition.resolve(state.play, by_seat(state.sealed), draws)
    assert step.player_id is not None
    if step.kind == "timeout":
        return definition.time_out(state.play, step.player_id, draws)
    return definition.leave(state.play, step.player_id)
