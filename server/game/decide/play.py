"""What players do during a turn: orders, join-forces requests, their look, messages."""

from collections import Counter

from projections.game import GameState
from rules.skirmish.joining import join_forces_problem
from rules.skirmish.orders import describe
from rules.skirmish.position import Position
from rules.skirmish.validate import CheckedOrder
from schema import errors as codes
from schema.bounds import COLORS, MAX_MESSAGE, MAX_ORDER_TEXT, PATTERNS
from schema.commands import Broadcast, ChangeLook, RequestJoinForces, SetNotifications, SubmitOrders
from schema.game_events import (
    GameEvent,
    JoinForcesRequested,
    MessageBroadcast,
    NotificationsChanged,
    OrdersSubmitted,
    PlayerLookChanged,
    RecordedOrder,
)
from schema.receipts import receipt
from server.game.decide.acting import (
    acting_player,
    active_player,
    check_name,
    check_range,
    check_text,
    require_phase,
    require_unlocked,
)
from server.game.decide.errors import Conflict, NotAllowed, NotFound, QuotaExceeded, WrongTurn

# rules.md, "Resubmissions are bounded": per player (each seat of a sandbox) and turn.
MAX_SUBMISSIONS = 100
MAX_ORDER_LINES = 1000
_JOIN_FORCES_CODES = {
    "itself": codes.JOIN_FORCES_WITH_ITSELF,
    "joined_before": codes.JOINED_FORCES_BEFORE,
    "too_large": codes.JOIN_FORCES_TOO_LARGE,
    "not_behind": codes.JOIN_FORCES_NOT_BEHIND,
}


def position_of(state: GameState) -> Position:
    board = state.skirmish.board
    return Position(armies=board.armies, control=board.control, farms=frozenset(board.farms))


def submit_orders(state: GameState, command: SubmitOrders) -> list[GameEvent]:
    require_phase(state, "running", "paused")
    player = active_player(state, command, command.as_player)
    if command.turn is not None and command.turn != state.turn:
        raise WrongTurn(f"the game is at turn {state.turn}, not {command.turn}")
    require_unlocked(state, command.now)
    text = check_text("the orders", command.text, MAX_ORDER_TEXT)
    skirmish = state.skirmish
    sent = skirmish.submissions.get(player.id, ())
    if len(sent) >= MAX_SUBMISSIONS:
        raise _quota(state, command, f"{MAX_SUBMISSIONS} submissions")
    assert skirmish.map is not None
    # In same-day voting the effect is not known yet: orders are checked without one now,
    # and checked again under the effect when the turn resolves.
    effect = skirmish.effect if state.settings.voting_mode == "normal" else None
    checked = state.rules.check_submission(
        skirmish.map, position_of(state), player.id, text, effect
    )
    if sum(len(s.checked) for s in sent) + len(checked) > MAX_ORDER_LINES:
        raise _quota(state, command, f"{MAX_ORDER_LINES} order lines")
    return [
        OrdersSubmitted(
            player_id=player.id,
            turn=state.turn,
            text=text,
            account_id=command.actor.account,
            checked=[_recorded(c) for c in checked],
            receipt=receipt(state.game_id, state.turn, player.id, text, command.nonce),
            nonce=command.nonce.hex(),
        )
    ]


def _quota(state: GameState, command: SubmitOrders, bound: str) -> QuotaExceeded:
    """The refusal past a quota; orders already in stay, and the quota resets when the turn
    resolves, which is when to come back."""
    resolves_at = state.next_resolution_at()
    wait = None if resolves_at is None else max(1, int((resolves_at - command.now).total_seconds()))
    return QuotaExceeded(
        f"a player may send at most {bound} in a turn; your orders so far stand, the newest "
        "valid one for each army; the quota resets when the turn resolves",
        retry_after=wait,
    )


def _recorded(checked: CheckedOrder) -> RecordedOrder:
    if checked.order is None:
        return RecordedOrder(checked.text, None, None, valid=False, reason=checked.reason)
    unit, kind, target, supported_from = describe(checked.order)
    return RecordedOrder(
        checked.text,
        unit,
        kind,
        valid=checked.reason is None,
        target=target,
        supported_from=supported_from,
        reason=checked.reason,
    )


def request_join_forces(state: GameState, command: RequestJoinForces) -> list[GameEvent]:
    require_phase(state, "running", "paused")
    player = active_player(state, command)
    require_unlocked(state, command.now)
    other = state.players.get(command.with_player)
    if other is None or other.status != "active":
        raise NotFound(codes.PLAYER_NOT_FOUND, f"no such player in the game: {command.with_player}")
    if other.banned:
        raise NotAllowed(
            codes.JOIN_FORCES_PARTNER_BANNED,
            f"{other.name} is banned from this game and cannot join forces",
        )
    in_game = [p for p in state.players.values() if p.status == "active"]
    skirmish = state.skirmish
    counts = Counter(skirmish.board.control.values())
    problem = join_forces_problem(
        player.id,
        other.id,
        territories={p.id: counts[p.id] for p in in_game},
        vp={p.id: skirmish.vp_of(p.id) for p in in_game},
        joined_before={p.id for p in in_game if p.id in skirmish.joined_forces},
        names={p.id: p.name for p in in_game},
    )
    if problem is not None:
        raise Conflict(_JOIN_FORCES_CODES[problem.kind], problem.reason)
    return [JoinForcesRequested(player_id=player.id, with_player=other.id, turn=state.turn)]


def change_look(state: GameState, command: ChangeLook) -> list[GameEvent]:
    player = acting_player(state, command.actor, command.as_player)
    if player.status == "eliminated":
        raise NotAllowed(codes.PLAYER_ELIMINATED, f"{player.name} is out of the game")
    name = player.name if command.name is None else check_name("the name", command.name)
    color = player.color if command.color is None else command.color
    pattern = player.pattern if command.pattern is None else command.pattern
    check_range("color", color, 1, COLORS)
    check_range("pattern", pattern, 1, PATTERNS)
    if any(p.name.lower() == name.lower() and p.id != player.id for p in state.players.values()):
        raise Conflict(codes.NAME_TAKEN, f"the name {name!r} is taken in this game")
    if (name, color, pattern) == (player.name, player.color, player.pattern):
        return []
    return [PlayerLookChanged(player_id=player.id, name=name, color=color, pattern=pattern)]


def set_notifications(state: GameState, command: SetNotifications) -> list[GameEvent]:
    player = acting_player(state, command.actor)
    if player.notifications == command.enabled:
        return []
    return [NotificationsChanged(player_id=player.id, enabled=command.enabled)]


def broadcast(state: GameState, command: Broadcast) -> list[GameEvent]:
    require_phase(state, "joining", "running", "paused")
    acting_player(state, command.actor)
    if not state.settings.broadcasting:
        raise NotAllowed(codes.BROADCASTING_OFF, "an admin has switched broadcasting off")
    message = check_text("the message", command.message, MAX_MESSAGE)
    return [MessageBroadcast(message=message)]
