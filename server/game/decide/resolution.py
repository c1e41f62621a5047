"""Resolving a turn into one `TurnResolved` event, and planning a rewind."""

import msgspec
from msgspec.structs import replace

from projections.game import GameState
from rules.kit.prng import commitment
from rules.skirmish.effects import parse_effect
from rules.skirmish.turn import TurnInput
from schema import errors as codes
from schema.bounds import MAX_REASON
from schema.commands import ResolveTurn, RewindTurn
from schema.game_events import GameEvent, RecordedPosition, TurnResolved, TurnRewound
from server.game.decide.acting import check_text, require_admin, require_phase
from server.game.decide.errors import Conflict, WrongTurn
from server.game.decide.notices import results_notices
from server.game.decide.play import position_of
from server.game.decide.votes import outcome, vote_for


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
    _require_everyones_orders(state, command)
    skirmish = state.skirmish
    assert skirmish.map is not None
    vote_outcome = outcome(state)
    same_day = state.settings.voting_mode == "same_day"
    effect = vote_outcome.winner if same_day and vote_outcome is not None else skirmish.effect
    players = state.players
    resolved = state.rules.resolve(
        TurnInput(
            game_map=skirmish.map,
            position=position_of(state),
            vp={pid: skirmish.vp_of(pid) for pid in players},
            orders={
                pid: [s.text for s in submissions]
                for pid, submissions in skirmish.submissions.items()
                if players[pid].status == "active" and not players[pid].banned
            },
            effect=parse_effect(effect) if effect else None,
            vp_target=state.settings.vp_target,
            resigned=frozenset(pid for pid, p in players.items() if p.status == "resigned"),
            joins=_mutual_requests(state),
        )
    )
    position = resolved.position
    turn_resolved = TurnResolved(
        turn=state.turn,
        at=command.now,
        effect=effect,
        orders=resolved.orders,
        board=RecordedPosition(
            armies=position.armies, control=position.control, farms=sorted(position.farms)
        ),
        dead=resolved.dead,
        vp=resolved.vp,
        vp_gained=resolved.vp_gained,
        eliminated=resolved.eliminated,
        winner=resolved.winner,
        joined=resolved.joined,
        vote_outcome=vote_outcome,
        next_vote=(
            vote_for(state, state.turn + 1, state.randomness) if resolved.winner is None else None
        ),
        next_effect=vote_outcome.winner if vote_outcome is not None and not same_day else None,
    )
    return [turn_resolved, *results_notices(state, turn_resolved)]


def _require_everyones_orders(state: GameState, command: ResolveTurn) -> None:
    """rules.md: an admin's early resolution of a real game waits until every active player
    has sent orders (an empty submission says ready), or an admin who plays could resolve,
    read the others' orders, rewind and change theirs. The operator (and so the clock)
    resolves at once; a sandbox's admin plays every seat. Says how many are missing, never
    who: who has sent orders is nobody's business before the resolution."""
    if command.actor.operator or state.settings.sandbox:
        return
    active = [p.id for p in state.players.values() if _in_play(state, p.id)]
    missing = sum(1 for player in active if player not in state.skirmish.submissions)
    if missing:
        verb = "has" if missing == 1 else "have"
        raise Conflict(
            codes.ORDERS_MISSING,
            f"{missing} of the {len(active)} active players {verb} not sent orders for turn "
            f"{state.turn}: an admin resolves early only once everyone's orders are in (an "
            "empty submission says ready); the clock resolves the turn on time",
        )


def _mutual_requests(state: GameState) -> tuple[tuple[str, str], ...]:
    """Pairs who asked for each other this turn, in the order they joined the game."""
    requests = state.skirmish.join_requests
    order = {pid: i for i, pid in enumerate(state.players)}
    pairs = {
        tuple(sorted((a, b), key=order.__getitem__))
        for a, b in requests.items()
        if requests.get(b) == a and _in_play(state, a) and _in_play(state, b)
    }
    return tuple(sorted((a, b) for a, b in pairs))


def _in_play(state: GameState, player_id: str) -> bool:
    """Still in the game and not banned: gives orders, and may join forces."""
    player = state.players[player_id]
    return player.status == "active" and not player.banned


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
        rewinds=0 if state.definition is None else state.rewinds + 1,
    )
    if state.phase == "finished" and state.secret is not None:
        # The end revealed the secret; the game goes on, and its draws must stay unknown.
        rewound = replace(
            rewound, secret=command.secret.hex(), commitment=commitment(command.secret)
        )
    return RewindPlan(after_version=state.resolved_versions[-1] - 1, rewound=rewound)
