"""What GameService makes of a queue of commands, pure: each decided on the state the ones
before it left, their events as the store takes them, the snapshot a resolution leaves, and
a kept state moved on by the events read after it."""

import uuid

from eventstore.records import NewEvent, NewSnapshot, RecordedEvent
from projections.evolve import fold
from projections.game import SNAPSHOT_NAME, GameState, encode_snapshot
from projections.states import Loaded
from schema.commands import GameCommand
from schema.errors import Refusal
from schema.game_events import GameEvent, PlayRecorded, TurnResolved, game_codec
from server.game.decide import decide

Decided = list[GameEvent] | Refusal


def decide_in_turn(
    state: GameState, commands: list[GameCommand]
) -> tuple[list[Decided], GameState]:
    """Each command decided on the state the ones before it left, as if they had run one
    after another; a refused one leaves it as it was."""
    decided: list[Decided] = []
    for command in commands:
        try:
            events = decide(state, command)
        except Refusal as refused:
            decided.append(refused)
            continue
        state = fold(state, enumerate(events, start=state.version + 1))
        decided.append(events)
    return decided, state


def new_events(
    commands: list[GameCommand],
    correlations: list[uuid.UUID],
    decided: list[Decided],
) -> list[NewEvent]:
    return [
        game_codec.new_event(
            e, occurred_at=command.now, actor=command.actor.account, correlation_id=c
        )
        for command, c, events in zip(commands, correlations, decided, strict=True)
        if isinstance(events, list)
        for e in events
    ]


def snapshot_of(decided: list[Decided], state: GameState) -> NewSnapshot | None:
    """Each resolution leaves a snapshot, written with its events in one round trip: a
    Skirmish turn's, or a sealed wait of a game run by its definition resolved (an Art of War
    turn, whose events are large: a game loaded afresh folds from the last one)."""
    if any(_resolves(e) for d in decided if isinstance(d, list) for e in d):
        return NewSnapshot(SNAPSHOT_NAME, encode_snapshot(state))
    return None


def _resolves(event: GameEvent) -> bool:
    if isinstance(event, PlayRecorded):
        return event.kind == "resolution" or (event.kind == "timeout" and event.player_id is None)
    return isinstance(event, TurnResolved)


def continues(version: int, events: list[RecordedEvent]) -> bool:
    """True when `events` follow on from `version` one by one; a rewind elsewhere breaks
    the sequence, and the state must be loaded afresh."""
    return all(e.version == version + i for i, e in enumerate(events, start=1))


def folded(loaded: Loaded, events: list[RecordedEvent]) -> Loaded:
    if not events:
        return loaded
    state = fold(loaded.state, ((e.version, game_codec.decode_recorded(e)) for e in events))
    return Loaded(state, events[-1].position)
