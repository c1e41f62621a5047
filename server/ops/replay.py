"""Regression replay: every resolved turn of a game re-adjudicated by the engine as it is now,
and compared, field by field, with what the game recorded then; every step of a game run by
its definition asked of it again (server/ops/replay_steps.py).

Pure: a game's events in, the turns whose outcome would differ out. The re-adjudication is the
definition's resolution (projections/skirmish/definition.py, around the function the room's
command calls) of the state the game was in just before the turn, so whatever the rules or the
building of the engine's input now do differently shows here. `skirmish replay`
(server/ops/replay_store.py) reads the games from the store; tests/replay replays a recorded
corpus in CI.
"""

from collections.abc import Iterable

import msgspec

from projections.evolve import fold
from projections.game import GameState
from projections.owned import Stamp
from projections.skirmish.definition import SKIRMISH_SOCIETY_GAME
from rules.game import Draws
from schema.errors import Refusal
from schema.game_events import GameEvent, PlayRecorded, PlayStarted, TurnResolved
from schema.verification import FieldChange, TurnDifference
from server.game.decide.acting import require_phase
from server.ops.replay_steps import replay_step

_FIELDS = TurnResolved.__struct_fields__
_to_builtins = msgspec.to_builtins


def readjudicate(state: GameState, recorded: TurnResolved) -> TurnResolved:
    """The `TurnResolved` the game's definition makes now in `state` (the game just before
    the turn), stamped with the recorded time."""
    require_phase(state, "running")
    game = SKIRMISH_SOCIETY_GAME
    (resolved,) = game.resolve(state.skirmish, {}, Draws(state.randomness))
    stamped = game.stamped(resolved, Stamp(at=recorded.at, game_id=state.game_id))
    assert isinstance(stamped, TurnResolved)
    return stamped


def compare(recorded: TurnResolved, now: TurnResolved) -> list[FieldChange]:
    """The fields that differ; a mapping field by its differing keys."""
    changes: list[FieldChange] = []
    for name in _FIELDS:
        old, new = _to_builtins(getattr(recorded, name)), _to_builtins(getattr(now, name))
        if old == new:
            continue
        if isinstance(old, dict) and isinstance(new, dict):
            changes.extend(_mapping_changes(name, old, new))
        else:
            changes.append(FieldChange(name, old, new))
    return changes


def _mapping_changes(
    name: str, old: dict[str, object], new: dict[str, object]
) -> list[FieldChange]:
    return [
        FieldChange(f"{name}.{key}", old.get(key), new.get(key))
        for key in sorted(old.keys() | new.keys())
        if old.get(key) != new.get(key)
    ]


def replay_game(game_id: str, events: Iterable[GameEvent]) -> tuple[int, list[TurnDifference]]:
    """Fold the game's events in order, re-adjudicating each resolved turn from the state
    before it: how many turns were replayed, and those that differ."""
    state = GameState()
    replayed = 0
    differences: list[TurnDifference] = []
    for version, event in enumerate(events, start=1):
        try:
            if isinstance(event, TurnResolved):
                replayed += 1
                difference = _replay_turn(game_id, state, event)
                if difference is not None:
                    differences.append(difference)
            elif isinstance(event, PlayStarted | PlayRecorded):
                replayed += 1
                changes = replay_step(state, event)
                if changes:
                    differences.append(TurnDifference(game_id, _turn_of(event, state), changes))
            state = fold(state, ((version, event),))
        # Events changed by hand (a die, a move) may break any rule of the fold from there
        # on: the replay stops at the event, the differences found before it kept.
        except Exception as error:
            reason = f"event {version} cannot be replayed: {type(error).__name__}: {error}"
            differences.append(TurnDifference(game_id, _turn_of(event, state), [], error=reason))
            break
    return replayed, differences


def _turn_of(event: GameEvent, state: GameState) -> int:
    """The turn an event records (0: the setup), else the turn the game was in."""
    if isinstance(event, PlayRecorded | TurnResolved):
        return event.turn
    return 0 if isinstance(event, PlayStarted) else state.turn


def _replay_turn(game_id: str, state: GameState, recorded: TurnResolved) -> TurnDifference | None:
    try:
        now = readjudicate(state, recorded)
    except Refusal as error:
        return TurnDifference(game_id, recorded.turn, [], error=error.message)
    changes = compare(recorded, now)
    return TurnDifference(game_id, recorded.turn, changes) if changes else None


def describe(difference: TurnDifference) -> str:
    """The difference as a readable diff: a header, then `- recorded` / `+ now` per field."""
    lines = [f"game {difference.game_id}, turn {difference.turn}:"]
    if difference.error is not None:
        lines.append(f"  cannot be resolved now: {difference.error}")
    encode = msgspec.json.encode
    for change in difference.changes:
        lines.append(f"  {change.field}:")
        lines.append(f"    - {encode(change.recorded).decode()}")
        lines.append(f"    + {encode(change.now).decode()}")
    return "\n".join(lines)
