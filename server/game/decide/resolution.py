"""Planning a rewind: the last resolution undone (every game's turn is resolved by
`playing.close_wait`)."""

import msgspec
from msgspec.structs import replace

from projections.game import GameState
from projections.owned import own_events
from rules.kit.prng import commitment
from schema import errors as codes
from schema.bounds import MAX_REASON, check_text
from schema.commands import RewindTurn
from schema.game_events import TurnRewound
from schema.refusals import Conflict
from server.game.decide.acting import require_admin, require_phase


class RewindPlan(msgspec.Struct, frozen=True):
    """Undo the resolution of `rewound.turn`: truncate the stream after `after_version`,
    then append `rewound` in its place."""

    after_version: int
    rewound: TurnRewound


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
        rewinds=0 if own_events(state.definition) is not None else state.rewinds + 1,
    )
    if state.phase == "finished" and state.secret is not None:
        # The end revealed the secret; the game goes on, and its draws must stay unknown.
        rewound = replace(
            rewound, secret=command.secret.hex(), commitment=commitment(command.secret)
        )
    return RewindPlan(after_version=state.resolved_versions[-1] - 1, rewound=rewound)
