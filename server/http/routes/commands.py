"""The Discord commands as text: `POST /v1/games/{game}/commands`, and `POST /v1/commands`
for those that need no game (setup, help, the words)."""

import random
import secrets

from fastapi import APIRouter, Request
from fastapi.responses import Response

from schema.api import CommandBody, CommandReply
from server.accounts.throttle import client_address
from server.commands.context import Context
from server.commands.dispatch import respond
from server.http.acting import writer_and_body
from server.http.api import documented, json_response
from server.http.identity import acting_user_name
from server.http.routes.games import GameId

router = APIRouter(prefix="/v1", tags=["commands"])


async def _answer(request: Request, game: str | None) -> Response:
    writer, body = await writer_and_body(request, CommandBody)
    context = Context(
        writer.found,
        writer.who,
        game,
        client_address(request),
        current_name=acting_user_name(request) if writer.who.client_id else None,
        # Hints and quotes only: nothing of the game's state is random here.
        rng=random.Random(secrets.randbits(64)),
    )
    return json_response(await respond(context, body.text))


@router.post(
    "/games/{game}/commands",
    **documented(
        body=CommandBody,
        responses={200: CommandReply},
        errors=(401,),
        summary="A Discord command as text; the game's refusals are replies with ok false",
        refusals_as_replies=True,
    ),
)
async def game_command(request: Request, game: GameId) -> Response:
    return await _answer(request, game)


@router.post(
    "/commands",
    **documented(
        body=CommandBody,
        responses={200: CommandReply},
        errors=(401,),
        summary="The commands that need no game: /setup, /advanced_setup, /help",
    ),
)
async def command(request: Request) -> Response:
    return await _answer(request, None)
