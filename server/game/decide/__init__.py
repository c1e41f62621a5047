"""The decider: `decide(state, command) -> events`, pure. A refusal raises a Refusal.

Rewinding is the one command that does more than append: `plan_rewind` says where to
truncate, and the shell truncates, then appends `TurnRewound`.
"""

from projections.game import GameState
from schema.commands import (
    AddAdmin,
    BanPlayer,
    Broadcast,
    CastVote,
    ChangeLook,
    ChangeSettings,
    ClaimSeat,
    CreateGame,
    DeclineSeat,
    ForkGame,
    GameCommand,
    JoinGame,
    KillGame,
    MakeMove,
    PauseGame,
    RemindPlayers,
    RemoveAdmin,
    RequestJoinForces,
    Resign,
    ResolveTurn,
    RewindTurn,
    SetNotifications,
    StartGame,
    SubmitOrders,
    UnbanPlayer,
    UnpauseGame,
)
from schema.errors import Refusal
from schema.game_events import GameEvent
from server.game.decide import (
    admins,
    fork,
    invites,
    lifecycle,
    notices,
    play,
    playing,
)
from server.game.decide.resolution import RewindPlan, plan_rewind

__all__ = ["Refusal", "RewindPlan", "decide", "plan_rewind"]


def decide(state: GameState, command: GameCommand) -> list[GameEvent]:
    match command:
        # Each case is an isinstance test, in order: the commands of every turn first.
        case SubmitOrders() | CastVote() | RequestJoinForces():
            return playing.make_move(state, command.as_move())
        case MakeMove():
            return playing.make_move(state, command)
        case ResolveTurn():
            return playing.close_wait(state, command)
        case RemindPlayers():
            return notices.remind_players(state, command)
        case CreateGame():
            return lifecycle.create_game(state, command)
        case JoinGame():
            return lifecycle.join_game(state, command)
        case StartGame():
            return lifecycle.start_game(state, command)
        case Resign():
            return lifecycle.resign(state, command)
        case BanPlayer():
            return lifecycle.ban_player(state, command)
        case UnbanPlayer():
            return lifecycle.unban_player(state, command)
        case PauseGame():
            return lifecycle.pause_game(state, command)
        case UnpauseGame():
            return lifecycle.unpause_game(state, command)
        case KillGame():
            return lifecycle.kill_game(state, command)
        case ChangeSettings():
            return lifecycle.change_settings(state, command)
        case ChangeLook():
            return play.change_look(state, command)
        case SetNotifications():
            return play.set_notifications(state, command)
        case Broadcast():
            return play.broadcast(state, command)
        case AddAdmin():
            return admins.add_admin(state, command)
        case RemoveAdmin():
            return admins.remove_admin(state, command)
        case ForkGame():
            return fork.fork_game(state, command)
        case ClaimSeat():
            return invites.claim_seat(state, command)
        case DeclineSeat():
            return invites.decline_seat(state, command)
        case RewindTurn():
            raise TypeError("a rewind is planned with plan_rewind, not decided")
