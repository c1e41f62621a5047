"""Resolving a turn of Skirmish Society through its definition (`resolve`, its events
stamped, each followed by the players' results: `OwnEvents`), and planning a rewind."""

import msgspec
from msgspec.structs import replace

from projections.game import GameState
from projections.owned import OwnEvents, Stamp, owns_events
from projections.skirmish.resolution import not_ready
from rules.kit.prng import commitment
from schema import errors as codes
from schema.bounds import MAX_REASON, check_text
from schema.commands import ResolveTurn, RewindTurn
from schema.game_events import GameEvent, TurnRewound
from schema.refusals import Conflict, WrongTurn
from server.game.decide.acting import require_admin, require_phase
from server.game.decide.playing import draws


class RewindPlan(msgspec.Struct, frozen=True):
    """Undo the resolution of `rewound.turn`: truncate the stream after `after_version`,
    then append `rewound` in its place."""

    after_version: int
    rewound: TurnRewound


def resolve_turn(state: GameState, command: ResolveTurn) -> list[GameEvent]:
    # The scheduler resolves as the operator; otherwise only an admin may resolve now.
    require_admin(state, command.actor)
    if command.turn is not None and command.turn != state.turn:
        when = "already resolved" if command.turn < state.turn else "not reached yet"
        raise WrongTurn(f"turn {command.turn} is {when}; the game is at turn {state.turn}")
    require_phase(state, "running")
    play = state.skirmish
    # The operator (and so the clock) resolves at once; a sandbox's admin plays every seat.
    if not (command.actor.operator or state.settings.sandbox):
        missing = not_ready(play)
        if missing is not None:
            raise Conflict(codes.ORDERS_MISSING, missing)
    definition = state.definition
    assert isinstance(definition, OwnEvents), f"{state.game}'s waits are closed by close_wait"
    made = state.definition.resolve(play, {}, draws(state))
    stamp = Stamp(command.now, state.game_id)
    wanting = [player.id for player in state.players.values() if player.wants_notices]
    events: list[GameEvent] = []
    for event in made:
        resolved = definition.stamped(event, stamp)
        events += [resolved, *definition.results(play, resolved, wanting)]
    return events


def plan_rewind(state: GameState, command: RewindTurn) -> RewindPlan:
    require_admin(state, command.actor)
    require_phase(state, "running", "paused", "finished")
    if not state.resolved_versions:
        raise Conflict(codes.NOTHING_TO_REWIND, "there is no resolution to undo")
    reason = command.reason
    if reason is not None:
        reason = check_text("the reason", reason, MAX_REASON)
    # rules.md: a rewind is public, with who did it and why.
    rewound = TurnRewound(
        turn=state.turn - 1,
        at=command.now,
        by=command.actor.account,
        reason=reason,
        # The generation of a game run by its definition (rules/game.py); Skirmish Society's
        # draws do not depend on rewinds.
        rewinds=0 if owns_events(state.definition) else state.rewinds + 1,
    )
    if state.phase == "finished" and state.secret is not None:
        # The end revealed the secret; the game goes on, and its draws must stay unknown.
        rewound = replace(
            rewound, secret=command.secret.hex(), commitment=commitment(command.secret)
        )
    return RewindPlan(after_version=state.resolved_versions[-1] - 1, rewound=rewound)
