"""Games: set up, list, read, join, start, settings, and the admin actions."""

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from projections import queries
from projections.views import PublicGame, public_game
from schema.api import (
    AdminAction,
    AdminBody,
    Done,
    GameList,
    Joined,
    NewGame,
    SettingsPatch,
)
from schema.commands import (
    BanPlayer,
    ChangeSettings,
    GameCommand,
    JoinGame,
    KillGame,
    PauseGame,
    ResolveTurn,
    RewindTurn,
    StartGame,
    UnbanPlayer,
    UnpauseGame,
)
from schema.game_events import PlayerJoined
from server.api import documented, json_response, read_body
from server.application import done, readable, set_up
from server.errors import ApiError
from server.identity import required_caller
from server.services import services
from server.throttle import client_address

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
    who = await required_caller(request)
    body = await read_body(request, NewGame)
    found = services(request)
    executed = await set_up(found, who, body, client_address(request))
    return json_response(public_game(executed.state, executed.position, found.clock.now()), 201)


@router.get("/games", **documented(responses={200: GameList}, summary="List games"))
async def list_games(
    request: Request,
    phase: Annotated[str | None, Query(pattern="^(joining|running|paused|finished)$")] = None,
    after: Annotated[str, Query(max_length=64, pattern=r"^[A-Za-z0-9_-]*$")] = "",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> Response:
    page = await queries.games(services(request).pool, phase, after, limit)
    return json_response(GameList(page.items, page.next))


@router.get(
    "/games/{game}",
    **documented(responses={200: PublicGame}, errors=(404, 410), summary="A game's public state"),
)
async def get_game(request: Request, game: GameId) -> Response:
    found = services(request)
    loaded = await readable(found, game)
    return json_response(public_game(loaded.state, loaded.position, found.clock.now()))


@router.post(
    "/games/{game}/join",
    **documented(
        responses={200: Joined},
        errors=(401, 403, 404, 409, 410),
        summary="Join in the join phase; answers the caller's player id",
    ),
)
async def join_game(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    found = services(request)
    command = JoinGame(actor=who.actor, now=found.clock.now(), name=who.name[:32])
    executed = await found.games.execute(game, command)
    (joined,) = (e for e in executed.events if isinstance(e, PlayerJoined))
    appended = done(executed)
    return json_response(Joined(appended.events, appended.position, player=joined.player_id))


@router.post(
    "/games/{game}/start",
    **documented(
        responses={200: Done}, errors=(401, 403, 404, 409, 410), summary="Start the game (admin)"
    ),
)
async def start_game(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    found = services(request)
    command = StartGame(actor=who.actor, now=found.clock.now(), secret=found.entropy())
    return json_response(done(await found.games.execute(game, command)))


@router.patch(
    "/games/{game}/settings",
    **documented(
        body=SettingsPatch,
        responses={200: Done},
        errors=(401, 403, 404, 409, 410),
        summary="Change settings (admin)",
    ),
)
async def change_settings(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    body = await read_body(request, SettingsPatch)
    found = services(request)
    command = ChangeSettings(
        actor=who.actor,
        now=found.clock.now(),
        fast_mode=body.fast_mode,
        resolution_hour=body.resolution_hour,
        current_hour=body.current_hour,
        broadcasting=body.broadcasting,
        vp_target=body.vp_target,
    )
    return json_response(done(await found.games.execute(game, command)))


@router.post(
    "/games/{game}/admin/{action}",
    **documented(
        body=AdminBody,
        body_required=False,
        responses={200: Done},
        errors=(401, 403, 404, 409, 410),
        summary="pause, unpause, resolve, rewind, ban, unban or kill (admin)",
    ),
)
async def admin_action(request: Request, game: GameId, action: AdminAction) -> Response:
    who = await required_caller(request)
    body = AdminBody()
    if action in ("ban", "unban", "rewind") or await request.body():
        body = await read_body(request, AdminBody)
    found = services(request)
    actor, now = who.actor, found.clock.now()
    if action == "rewind":
        reason = body.reason or "admin rewind"
        rewind = RewindTurn(actor=actor, now=now, reason=reason, secret=found.entropy())
        return json_response(done(await found.games.rewind(game, rewind)))
    if action in ("ban", "unban"):
        if body.player is None:
            raise ApiError(422, "invalid", f'{action} needs {{"player": <player id>}}')
        player_command: GameCommand = (
            BanPlayer(actor=actor, now=now, player_id=body.player)
            if action == "ban"
            else UnbanPlayer(actor=actor, now=now, player_id=body.player)
        )
        return json_response(done(await found.games.execute(game, player_command)))
    simple: dict[str, GameCommand] = {
        "pause": PauseGame(actor=actor, now=now),
        "unpause": UnpauseGame(actor=actor, now=now),
        "resolve": ResolveTurn(actor=actor, now=now),
        "kill": KillGame(actor=actor, now=now),
    }
    return json_response(done(await found.games.execute(game, simple[action])))
