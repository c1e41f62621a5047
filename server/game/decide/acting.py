"""Who is acting, and may they: the checks every command shares."""

from datetime import datetime

from projections.game import GameState, Player
from rules.game import Draws
from schema import errors as codes
from schema.commands import Actor, Command
from schema.refusals import (
    GameGone,
    NotAllowed,
    NotFound,
    OrdersLocked,
    WrongPhase,
)
from server.game.times import moment


def existing(state: GameState) -> GameState:
    if state.phase == "new":
        raise NotFound(codes.GAME_NOT_FOUND, "no such game")
    if state.phase == "killed":
        raise GameGone("this game was killed by an admin")
    return state


def require_admin(state: GameState, actor: Actor) -> None:
    existing(state)
    if not state.is_admin(actor):
        raise NotAllowed(codes.ADMIN_ONLY, "only an admin of this game can do that")


def require_phase(state: GameState, *phases: str) -> None:
    existing(state)
    if state.phase not in phases:
        wanted = " or ".join(phases)
        raise WrongPhase(f"the game is {state.phase}; this needs it {wanted}")


def acting_player(state: GameState, actor: Actor, as_player: str | None = None) -> Player:
    """The player an actor acts for. In a sandbox, its admin may act for anyone."""
    existing(state)
    if as_player is not None:
        player = state.players.get(as_player)
        if player is None:
            raise NotFound(codes.PLAYER_NOT_FOUND, f"no such player: {as_player}")
        if actor.account in player.accounts:
            return player
        if not (state.settings.sandbox and state.is_admin(actor)):
            raise NotAllowed(
                codes.NOT_YOUR_PLAYER, "only a sandbox's admin may act for another player"
            )
        return player
    player = state.player_of(actor.account)
    if player is None:
        raise NotAllowed(codes.NOT_A_PLAYER, "you are not a player in this game")
    return player


def active_player(state: GameState, command: Command, as_player: str | None = None) -> Player:
    """The player the command's actor acts for, who must still give orders."""
    player = acting_player(state, command.actor, as_player)
    if player.status == "resigned":
        raise NotAllowed(
            codes.PLAYER_RESIGNED, f"{player.name} has resigned and gives no more orders"
        )
    if player.status != "active":
        raise NotAllowed(
            codes.PLAYER_ELIMINATED, f"{player.name} is out of the game and gives no more orders"
        )
    if player.banned:
        raise NotAllowed(codes.BANNED, f"{player.name} is banned from this game")
    return player


def require_unlocked(state: GameState, now: datetime) -> None:
    window = state.window(now)
    if window.state == "due":
        raise OrdersLocked(
            "orders are locked: the turn is due and resolves any moment now; they open "
            "again a few minutes after it",
            None,
        )
    if window.state == "locked":
        assert window.opens_at is not None  # a lock window ends
        when = moment(window.opens_at, now, state.settings.utc_offset)
        raise OrdersLocked(
            f"orders are locked around the resolution; they open again at {when}",
            window.opens_at,
        )


def draws(state: GameState, secret: bytes | None = None) -> Draws:
    """The game's randomness now: from its secret (or the one it is being given), at the
    generation its rewinds make."""
    return Draws(secret if secret is not None else state.randomness, state.rewinds)
