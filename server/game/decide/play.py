"""What players do during a turn: orders and join-forces requests (the room's checks around
Skirmish Society's own: projections/skirmish/orders.py), their look, messages."""

from datetime import datetime

from projections.game import GameState
from projections.skirmish.orders import join_forces, signed, submit
from schema import errors as codes
from schema.bounds import COLORS, MAX_MESSAGE, PATTERNS, check_name, check_range, check_text
from schema.commands import Broadcast, ChangeLook, RequestJoinForces, SetNotifications, SubmitOrders
from schema.game_events import (
    GameEvent,
    MessageBroadcast,
    NotificationsChanged,
    PlayerLookChanged,
)
from schema.refusals import Conflict, NotAllowed, QuotaExceeded, WrongTurn
from server.game.decide.acting import acting_player, active_player, require_phase, require_unlocked


def submit_orders(state: GameState, command: SubmitOrders) -> list[GameEvent]:
    require_phase(state, "running", "paused")
    player = active_player(state, command, command.as_player)
    if command.turn is not None and command.turn != state.turn:
        raise WrongTurn(f"the game is at turn {state.turn}, not {command.turn}")
    require_unlocked(state, command.now)
    try:
        submitted = signed(
            submit(state.skirmish, seat=player.id, text=command.text),
            game_id=state.game_id,
            account=command.actor.account,
            nonce=command.nonce,
        )
    except QuotaExceeded as refusal:
        # The quota resets when the turn resolves: the room's clock says when that is.
        if refusal.retry_after is None:
            refusal.retry_after = _until_resolution(state, command.now)
        raise
    return [submitted]


def _until_resolution(state: GameState, now: datetime) -> int | None:
    """Seconds until the turn resolves (at least 1), or None while none is scheduled."""
    resolves_at = state.next_resolution_at()
    return None if resolves_at is None else max(1, int((resolves_at - now).total_seconds()))


def request_join_forces(state: GameState, command: RequestJoinForces) -> list[GameEvent]:
    require_phase(state, "running", "paused")
    player = active_player(state, command)
    require_unlocked(state, command.now)
    return [
        join_forces(
            state.skirmish,
            seat=player.id,
            partner=command.with_player,
        )
    ]


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
