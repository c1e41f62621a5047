"""A game's admins: the list."""

from projections.game import GameState
from schema import errors as codes
from schema.commands import AddAdmin, RemoveAdmin
from schema.game_events import AdminAdded, AdminRemoved, GameEvent
from schema.refusals import Conflict, InvalidCommand
from server.game.decide.acting import require_admin

MAX_ADMINS = 20


def add_admin(state: GameState, command: AddAdmin) -> list[GameEvent]:
    require_admin(state, command.actor)
    if not command.accounts:
        raise InvalidCommand(codes.NO_ACCOUNT_NAMED, "name the account to make an admin")
    new = [a for a in dict.fromkeys(command.accounts) if a not in state.admins]
    if not new:
        raise Conflict(codes.ALREADY_ADMIN, "already an admin of this game")
    if len(state.admins) + len(new) > MAX_ADMINS:
        raise Conflict(codes.TOO_MANY_ADMINS, f"a game has at most {MAX_ADMINS} admins")
    return [AdminAdded(account_id=account) for account in new]


def remove_admin(state: GameState, command: RemoveAdmin) -> list[GameEvent]:
    require_admin(state, command.actor)
    gone = [a for a in dict.fromkeys(command.accounts) if a in state.admins]
    if not gone:
        raise Conflict(codes.NOT_ADMIN, "not an admin of this game")
    if len(gone) == len(state.admins):
        raise Conflict(
            codes.LAST_ADMIN,
            "a game keeps at least one admin: add another before removing this one",
        )
    return [AdminRemoved(account_id=account) for account in gone]
