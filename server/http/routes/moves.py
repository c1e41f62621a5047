"""A move in a game run by its definition (rules/game.py): every game but Skirmish Society,
whose players send orders instead (routes/play.py)."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from schema.api import Done, MoveBody
from schema.commands import MakeMove
from server.game.application import done
from server.http.api import documented, json_response, read_body
from server.http.identity import required_caller
from server.http.routes.games import GameId
from server.services import services

router = APIRouter(prefix="/v1/games/{game}", tags=["play"])


@router.post(
    "/moves",
    **documented(
        body=MoveBody,
        responses={200: Done},
        errors=(401, 403, 404, 409, 422),
        summary="Make a move: played at once, or kept secret until every seat waited for moved",
    ),
)
async def make_move(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    body = await read_body(request, MoveBody)
    found = services(request)
    command = MakeMove(
        actor=who.actor,
        now=found.clock.now(),
        move=body.move,
        turn=body.turn,
        as_player=body.player,
    )
    return json_response(done(await found.games.act(game, command)))
