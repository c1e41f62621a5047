"""A move in a game (rules/game.py), in the game's own form: Skirmish Society's too, whose
players send the same moves as orders, votes and join-forces requests (routes/play.py)."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from schema.api import Done, MoveBody
from schema.commands import MakeMove
from server.http.acting import writer_and_body
from server.http.api import documented
from server.http.routes.games import GameId

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
    writer, body = await writer_and_body(request, MoveBody)
    command = MakeMove(
        actor=writer.actor,
        now=writer.now(),
        move=body.move,
        turn=body.turn,
        as_player=body.player,
        nonce=writer.found.nonces(),
    )
    return await writer.done(game, command)
