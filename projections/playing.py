"""How the room's events of a game run by its definition (rules/game.py) move the game's own
state, kept in `GameState.play`. Pure: the definition folds its own events.

A turn of such a game is one step: a move played, or a sealed wait resolved. The game ends
when its definition says how it ended."""

from collections.abc import Iterable, Mapping
from datetime import datetime
from functools import lru_cache
from typing import Any

import msgspec
from msgspec.structs import replace

from projections.game import GameState
from rules.game import Game
from schema.game_events import PlayRecorded, PlayStarted


def game_events(definition: Game[Any, Any], recorded: Iterable[dict[str, Any]]) -> list[Any]:
    """The game's own events as recorded (tagged JSON objects)."""
    return [msgspec.convert(event, definition.event_type) for event in recorded]


def recorded(events: Iterable[Any]) -> list[dict[str, Any]]:
    """The game's own events as the room records them: JSON values, as they read back."""
    return [_as_json(msgspec.json.encode(event)) for event in events]


_as_json = msgspec.json.Decoder(dict[str, Any]).decode


def recorded_step(events: list[Any]) -> msgspec.Raw:
    """A step's own events as PlayRecorded keeps them: their JSON, the bytes `recorded`'s
    values encode to."""
    return msgspec.Raw(_encode(events))


def step_events(definition: Game[Any, Any], step: PlayRecorded) -> list[Any]:
    """A step's own events as the game's types, read from their JSON: the room folds a step
    it has just made from what the store keeps of it, as a replay does."""
    return _decoder(definition.event_type).decode(step.events)


def step_values(step: PlayRecorded) -> list[dict[str, Any]]:
    """A step's own events as JSON values (tagged objects), as `recorded` makes them."""
    return _as_values(step.events)


_encode = msgspec.json.Encoder().encode
_as_values = msgspec.json.Decoder(list[dict[str, Any]]).decode


# One for each game's events: few, the games registered (rules/registry.py).
@lru_cache(maxsize=64)
def _decoder(event_type: Any) -> msgspec.json.Decoder[list[Any]]:
    return msgspec.json.Decoder(list[event_type])


def folded_play(definition: Game[Any, Any], play: Any, events: Iterable[Any]) -> Any:
    for event in events:
        play = definition.evolve(play, event)
    return play


def began(state: GameState, at: datetime, secret: str | None, commitment: str | None) -> GameState:
    """The room's part of a game's start, whichever records it: running from turn 1, its
    first wait begun, its secret committed to."""
    return replace(
        state, phase="running", turn=1, wait_began_at=at, secret=secret, commitment=commitment
    )


def started_play(state: GameState, event: PlayStarted) -> GameState:
    definition = state.definition
    play = folded_play(definition, None, game_events(definition, event.setup))
    return replace(began(state, event.at, event.secret, event.commitment), play=play)


def stepped(state: GameState, event: PlayRecorded) -> GameState:
    definition = state.definition
    play = _played(definition, state.play, event)
    over = definition.ending(play) is not None
    began, reminded, resumed = state.wait_began_at, state.wait_reminded, state.resumed_at
    if event.at is not None and newly_waited(definition, event, state.play, play):
        # A wait begun afresh: all its time, no unpause in it, its reminder yet to come.
        began, reminded, resumed = event.at, False, None
    phase = "finished" if over else state.phase
    clock = {"wait_began_at": began, "wait_reminded": reminded, "resumed_at": resumed}
    if event.kind in ("act", "leave"):
        return replace(state, play=play, phase=phase, **clock)
    return replace(
        state, play=play, turn=event.turn + 1, sealed={}, phase=phase, resolved_at=event.at, **clock
    )


def _played(definition: Game[Any, Any], play: Any, step: PlayRecorded) -> Any:
    """The game's own state after a step. The last is remembered with the state and step it
    came from: the decider folds a step to find whom it leaves to move (`told`), then the room
    folds the same step on the same game's state again to keep it (a sealed move folded
    before it changes the room's state, not the game's), and a big step's events (an Art of
    War turn's, some 90 kB) cost more to read and evolve than the rest of its command. All
    three are immutable and the fold a function of them alone: the same objects, the same
    state after."""
    global _last_played
    last = _last_played
    if last is not None and last[0] is definition and last[1] is play and last[2] is step:
        return last[3]
    after = folded_play(definition, play, step_events(definition, step))
    _last_played = (definition, play, step, after)
    return after


_last_played: tuple[Game[Any, Any], Any, PlayRecorded, Any] | None = None


def newly_waited(
    definition: Game[Any, Any], step: PlayRecorded, before: Any, after: Any
) -> frozenset[str]:
    """The seats a step leaves newly to move, whose wait it begins, timed afresh: every seat
    of the next wait after a sealed wait resolved or a wait timed out, or a seat waited for
    that was not (a turn passed). A seat leaving the wait, or another action of a seat whose
    turn goes on, begins none: the wait's clock runs on."""
    now = definition.to_move(after).seats
    if step.kind in ("resolution", "timeout"):
        return now
    return now - definition.to_move(before).seats


def sealed_with(state: GameState, seat: str, move: Any) -> dict[str, Any]:
    """The wait's sealed moves once `seat` sealed `move`, joined to its earlier one as the
    game says (`seal`): the room's decider and its fold alike, so that a replay resolves
    what the room resolved."""
    joined = state.definition.seal(state.sealed.get(seat), move)
    return {**state.sealed, seat: joined}


def by_seat(moves: Mapping[str, Any]) -> dict[str, Any]:
    """Sealed moves as a resolution takes them, in seat order: the same order when the room
    resolves and when a replay resolves again."""
    return {seat: moves[seat] for seat in sorted(moves)}
