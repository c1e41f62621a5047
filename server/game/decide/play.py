"""What players do besides their moves (server/game/decide/playing.py): their look, their
notices, messages."""

from projections.game import GameState
from schema import errors as codes
from schema.bounds import COLORS, MAX_MESSAGE, PATTERNS, check_name, check_range, check_text
from schema.commands import Broadcast, ChangeLook, SetNotifications
from schema.game_events import (
    GameEvent,
    MessageBroadcast,
    NotificationsChanged,
    PlayerLookChanged,
)
from schema.refusals import Conflict, NotAllowed
from server.game.decide.acting import acting_player, require_phase


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
