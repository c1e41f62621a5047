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
from server.http.acting import writer_and_body, writer_of
from server.http.api import documented, json_response
from server.http.routes.games import GameId

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
    writer, body = await writer_and_body(request, ForkBody)
    found = writer.found
    outcome = await fork(found, writer.who, game, body, client_address(request))
    return json_response(
        public_game(outcome.state, outcome.position, found.clock.now(), found.clock_kind), 201
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
    writer = await writer_of(request)
    outcome = await writer.act(game, ClaimSeat(actor=writer.actor, now=writer.now()))
    (claimed,) = (e for e in outcome.events if isinstance(e, SeatClaimed))
    appended = done(outcome)
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
    writer = await writer_of(request)
    return await writer.done(game, DeclineSeat(actor=writer.actor, now=writer.now()))
