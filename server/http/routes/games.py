"""Games: set up, list, read, join, start, settings."""

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from projections.views import public_game
from schema.api import (
    Done,
    GameList,
    Joined,
    NewGame,
    SettingsPatch,
)
from schema.commands import (
    ChangeSettings,
    JoinGame,
    StartGame,
)
from schema.game_events import PlayerJoined
from schema.views import PublicGame
from server.accounts.throttle import client_address
from server.game.application import done, readable, set_up
from server.http.acting import writer_and_body, writer_of
from server.http.api import documented, json_response
from server.http.identity import caller
from server.live.feed import viewer_of
from server.services import services

router = APIRouter(prefix="/v1", tags=["games"])
GameId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


@router.post(
    "/games",
    status_code=201,
    **documented(
        body=NewGame,
        responses={201: PublicGame},
        errors=(401,),
        summary="Set up a game; the caller becomes its admin",
    ),
)
async def create_game(request: Request) -> Response:
    writer, body = await writer_and_body(request, NewGame)
    found = writer.found
    outcome = await set_up(found, writer.who, body, client_address(request))
    return json_response(
        public_game(outcome.state, outcome.position, found.clock.now(), found.clock_kind), 201
    )


@router.get("/games", **documented(responses={200: GameList}, summary="List games"))
async def list_games(
    request: Request,
    phase: Literal["joining", "running", "paused", "finished"] | None = None,
    after: Annotated[str, Query(max_length=64, pattern=r"^[A-Za-z0-9_-]*$")] = "",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> Response:
    page = await services(request).read_models.games(phase, after, limit)
    return json_response(GameList(page.items, page.next))


@router.get(
    "/games/{game}",
    **documented(
        responses={200: PublicGame},
        errors=(401, 404),
        summary="A game's public state; with a token, as the caller's seats see it",
    ),
)
async def get_game(request: Request, game: GameId) -> Response:
    found = services(request)
    loaded = await readable(found, game)
    who = await caller(request)
    seats = None if who is None else viewer_of(loaded.state, who).players
    return json_response(
        public_game(loaded.state, loaded.position, found.clock.now(), found.clock_kind, seats)
    )


@router.post(
    "/games/{game}/join",
    **documented(
        responses={200: Joined},
        errors=(401, 403, 404, 409),
        summary="Join in the join phase; answers the caller's player id",
    ),
)
async def join_game(request: Request, game: GameId) -> Response:
    writer = await writer_of(request)
    command = JoinGame(actor=writer.actor, now=writer.now(), name=writer.who.name[:32])
    outcome = await writer.act(game, command)
    (joined,) = (e for e in outcome.events if isinstance(e, PlayerJoined))
    appended = done(outcome)
    return json_response(Joined(appended.events, appended.position, player=joined.player_id))


@router.post(
    "/games/{game}/start",
    **documented(
        responses={200: Done}, errors=(401, 403, 404, 409), summary="Start the game (admin)"
    ),
)
async def start_game(request: Request, game: GameId) -> Response:
    writer = await writer_of(request)
    command = StartGame(actor=writer.actor, now=writer.now(), secret=writer.found.entropy())
    return await writer.done(game, command)


@router.patch(
    "/games/{game}/settings",
    **documented(
        body=SettingsPatch,
        responses={200: Done},
        errors=(401, 403, 404, 409),
        summary="Change settings (admin)",
    ),
)
async def change_settings(request: Request, game: GameId) -> Response:
    writer, body = await writer_and_body(request, SettingsPatch)
    command = ChangeSettings(
        actor=writer.actor,
        now=writer.now(),
        fast_mode=body.fast_mode,
        resolution_hour=body.resolution_hour,
        current_hour=body.current_hour,
        broadcasting=body.broadcasting,
        vp_target=body.vp_target,
    )
    return await writer.done(game, command)
