"""Forks: a new game from another's turn; a real fork's invitations, claimed or declined
(its admin starts it with POST /games/{game}/start)."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from projections.views import public_game
from schema.api import Done, ForkBody, Joined
from schema.commands import ClaimSeat, DeclineSeat
from schema.game_events import SeatClaimed
from schema.views import PublicGame
from server.accounts.throttle import client_address
from server.game.application import done, fork
from server.http.api import documented, json_response, read_body
from server.http.identity import required_caller
from server.http.routes.games import GameId
from server.services import services

router = APIRouter(prefix="/v1", tags=["games"])


@router.post(
    "/games/{game}/fork",
    status_code=201,
    **documented(
        body=ForkBody,
        responses={201: PublicGame},
        errors=(401, 403, 404, 409),
        summary="Fork the game at the start of a turn (admin; anyone once it is finished)",
    ),
)
async def fork_game(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    body = await read_body(request, ForkBody)
    found = services(request)
    executed = await fork(found, who, game, body, client_address(request))
    return json_response(
        public_game(executed.state, executed.position, found.clock.now(), found.clock_kind), 201
    )


@router.post(
    "/games/{game}/claim",
    **documented(
        responses={200: Joined},
        errors=(401, 403, 404, 409),
        summary="Claim the seat a real fork invites the caller to, before it starts",
    ),
)
async def claim_seat(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    found = services(request)
    executed = await found.games.act(game, ClaimSeat(actor=who.actor, now=found.clock.now()))
    (claimed,) = (e for e in executed.events if isinstance(e, SeatClaimed))
    appended = done(executed)
    return json_response(Joined(appended.events, appended.position, player=claimed.player_id))


@router.post(
    "/games/{game}/decline",
    **documented(
        responses={200: Done},
        errors=(401, 403, 404, 409),
        summary="Decline a real fork's invitation, or give back the seat claimed, before it starts",
    ),
)
async def decline_seat(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    found = services(request)
    command = DeclineSeat(actor=who.actor, now=found.clock.now())
    return json_response(done(await found.games.act(game, command)))
