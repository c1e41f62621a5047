"""An admin's actions on a game, POST /v1/games/{game}/admin/{action}: one route each, so
that /openapi.json says exactly what each takes (an unknown action is a 404)."""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from schema.api import BanBody, Done, RewindBody
from schema.commands import (
    BanPlayer,
    KillGame,
    PauseGame,
    ResolveTurn,
    RewindTurn,
    UnbanPlayer,
    UnpauseGame,
)
from server.game.application import done
from server.http.acting import writer_and_body, writer_of
from server.http.api import documented, json_response
from server.http.routes.games import GameId

router = APIRouter(prefix="/v1/games/{game}/admin", tags=["admin"])
_ERRORS = (401, 403, 404, 409)


def _documented(summary: str, body: Any = None, *, body_required: bool = True) -> dict[str, Any]:
    return documented(
        body=body,
        body_required=body_required,
        responses={200: Done},
        errors=_ERRORS,
        summary=f"{summary} (admin)",
    )


@router.post("/pause", **_documented("Pause the game: no resolution until it is unpaused"))
async def pause(request: Request, game: GameId) -> Response:
    writer = await writer_of(request)
    return await writer.done(game, PauseGame(actor=writer.actor, now=writer.now()))


@router.post("/unpause", **_documented("Unpause the game"))
async def unpause(request: Request, game: GameId) -> Response:
    writer = await writer_of(request)
    return await writer.done(game, UnpauseGame(actor=writer.actor, now=writer.now()))


@router.post("/resolve", **_documented("Resolve the current turn now"))
async def resolve(request: Request, game: GameId) -> Response:
    writer = await writer_of(request)
    return await writer.done(game, ResolveTurn(actor=writer.actor, now=writer.now()))


@router.post("/kill", **_documented("Kill the game for good"))
async def kill(request: Request, game: GameId) -> Response:
    writer = await writer_of(request)
    return await writer.done(game, KillGame(actor=writer.actor, now=writer.now()))


@router.post(
    "/rewind",
    **_documented(
        "Undo the last resolution; its events go to the archive", RewindBody, body_required=False
    ),
)
async def rewind(request: Request, game: GameId) -> Response:
    writer, body = await writer_and_body(request, RewindBody, required=False)
    found = writer.found
    command = RewindTurn(
        actor=writer.actor, now=writer.now(), reason=body.reason, secret=found.entropy()
    )
    return json_response(done(await found.games.rewind(game, command)))


@router.post("/ban", **_documented("Ban a player: what they sent this turn is void", BanBody))
async def ban(request: Request, game: GameId) -> Response:
    writer, body = await writer_and_body(request, BanBody)
    command = BanPlayer(actor=writer.actor, now=writer.now(), player_id=body.player)
    return await writer.done(game, command)


@router.post("/unban", **_documented("Lift a player's ban", BanBody))
async def unban(request: Request, game: GameId) -> Response:
    writer, body = await writer_and_body(request, BanBody)
    command = UnbanPlayer(actor=writer.actor, now=writer.now(), player_id=body.player)
    return await writer.done(game, command)
