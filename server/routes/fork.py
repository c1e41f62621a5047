"""Forks: a new game from another's turn."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from projections.views import public_game
from schema.api import ForkBody
from schema.views import PublicGame
from server.api import documented, json_response, read_body
from server.application import fork
from server.identity import required_caller
from server.routes.games import GameId
from server.services import services
from server.throttle import client_address

router = APIRouter(prefix="/v1", tags=["games"])


@router.post(
    "/games/{game}/fork",
    status_code=201,
    **documented(
        body=ForkBody,
        responses={201: PublicGame},
        errors=(401, 403, 404, 409, 410),
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
