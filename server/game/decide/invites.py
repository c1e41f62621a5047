"""A real fork's invitations (docs/rules.md, "Forks"): the holders of its source's active
seats claim their seat or decline it, and the fork waits until its admin starts it; a seat
nobody claimed by then plays as resigned. Nobody is seated without asking."""

from projections.game import GameState
from schema import errors as codes
from schema.commands import Actor, ClaimSeat, DeclineSeat, StartGame
from schema.game_events import ForkStarted, GameEvent, SeatClaimed, SeatDeclined
from schema.refusals import Conflict, NotAllowed
from server.game.decide.acting import require_phase


def _require_claims(state: GameState) -> None:
    require_phase(state, "joining")
    if not state.awaiting_claims:
        raise NotAllowed(
            codes.NOT_INVITED, "this game invites nobody: only a real fork does, before its start"
        )


def _not_invited(state: GameState, actor: Actor) -> NotAllowed:
    if actor.account in state.banned_accounts:
        return NotAllowed(codes.BANNED, "you are banned from this game")
    return NotAllowed(
        codes.NOT_INVITED,
        "you are invited to no seat of this fork: it invites the players of its source's "
        "active seats, until they decline",
    )


def claim_seat(state: GameState, command: ClaimSeat) -> list[GameEvent]:
    _require_claims(state)
    account = command.actor.account
    if state.player_of(account) is not None:
        raise Conflict(codes.ALREADY_CLAIMED, "you have claimed your seat in this fork already")
    seat = state.invitation_of(account)
    if seat is None:
        raise _not_invited(state, command.actor)
    return [SeatClaimed(player_id=seat, account_id=account)]


def decline_seat(state: GameState, command: DeclineSeat) -> list[GameEvent]:
    """An invitation declined, or a claimed seat given back; either way for good."""
    _require_claims(state)
    account = command.actor.account
    held = state.player_of(account)
    seat = held.id if held is not None else state.invitation_of(account)
    if seat is None:
        raise _not_invited(state, command.actor)
    return [SeatDeclined(player_id=seat, account_id=account)]


def start_fork(state: GameState, command: StartGame) -> list[GameEvent]:
    """The fork's turn begins now (the admin checked by the caller); its seats nobody
    claimed play as resigned. Its secret was drawn when it was forked."""
    unclaimed = [p.id for p in state.players.values() if p.status == "active" and not p.accounts]
    return [ForkStarted(at=command.now, unclaimed=unclaimed)]
