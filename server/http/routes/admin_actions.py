"""An admin's actions on a game, POST /v1/games/{game}/admin/{action}: one route each, so
that /openapi.json says exactly what each takes (an unknown action is a 404)."""

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from schema.api import BanBody, Done, RewindBody
from schema.commands import (
    BanPlayer,
    GameCommand,
    KillGame,
    PauseGame,
    ResolveTurn,
    RewindTurn,
    UnbanPlayer,
    UnpauseGame,
)
from server.game.application import done
from server.http.api import documented, json_response, read_body
from server.http.identity import required_caller
from server.http.routes.games import GameId
from server.services import services

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


async def _act(request: Request, game: str, command: Callable[..., GameCommand]) -> Response:
    """Run the command that `command` makes from the fields every command carries."""
    who = await required_caller(request)
    found = services(request)
    executed = await found.games.act(game, command(actor=who.actor, now=found.clock.now()))
    return json_response(done(executed))


@router.post("/pause", **_documented("Pause the game: no resolution until it is unpaused"))
async def pause(request: Request, game: GameId) -> Response:
    return await _act(request, game, PauseGame)


@router.post("/unpause", **_documented("Unpause the game"))
async def unpause(request: Request, game: GameId) -> Response:
    return await _act(request, game, UnpauseGame)


@router.post("/resolve", **_documented("Resolve the current turn now"))
async def resolve(request: Request, game: GameId) -> Response:
    return await _act(request, game, ResolveTurn)


@router.post("/kill", **_documented("Kill the game for good"))
async def kill(request: Request, game: GameId) -> Response:
    return await _act(request, game, KillGame)


@router.post(
    "/rewind",
    **_documented(
        "Undo the last resolution; its events go to the archive", RewindBody, body_required=False
    ),
)
async def rewind(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    body = await read_body(request, RewindBody, required=False)
    found = services(request)
    command = RewindTurn(
        actor=who.actor, now=found.clock.now(), reason=body.reason, secret=found.entropy()
    )
    return json_response(done(await found.games.rewind(game, command)))


@router.post("/ban", **_documented("Ban a player: what they sent this turn is void", BanBody))
async def ban(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    body = await read_body(request, BanBody)
    found = services(request)
    command = BanPlayer(actor=who.actor, now=found.clock.now(), player_id=body.player)
    return json_response(done(await found.games.act(game, command)))


@router.post("/unban", **_documented("Lift a player's ban", BanBody))
async def unban(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    body = await read_body(request, BanBody)
    found = services(request)
    command = UnbanPlayer(actor=who.actor, now=found.clock.now(), player_id=body.player)
    return json_response(done(await found.games.act(game, command)))
