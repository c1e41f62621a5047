"""Games: set up, list, read, join, start, settings, and the admin actions."""

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from projections import queries
from projections.game import GameState
from projections.schedule import utc_offset_for
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
    CreateGame,
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
from schema.game_events import PlayerJoined, Settings, game_codec
from server.accounts import Identity
from server.api import documented, json_response, read_body
from server.decide.acting import existing
from server.errors import ApiError
from server.handlers import Executed
from server.identity import required_caller
from server.services import Services, services
from server.throttle import client_address

router = APIRouter(prefix="/v1", tags=["games"])
GameId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
_MAX_SEED = 2**63 - 1


def act(who: Identity, found: Services) -> dict[str, Any]:
    """The fields every command carries: who acts, when, and as what."""
    return {
        "actor": who.account_id,
        "now": found.clock.now(),
        "operator": who.operator,
        "vouched_by": who.vouched_by,
    }


async def run(found: Services, game: str, command: GameCommand) -> Executed:
    return await found.games.execute(game, command)


def done(executed: Executed) -> Response:
    return json_response(Done([game_codec.type_of(e) for e in executed.events], executed.position))


async def readable(found: Services, game: str) -> tuple[GameState, int]:
    """A game's state for reading; 404 if there is none, 410 if it was killed."""
    loaded = await found.games.load(game)
    existing(loaded.state)
    return loaded.state, loaded.position


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


async def set_up(found: Services, who: Identity, body: NewGame, address: str) -> Executed:
    """A new game with the options of `body`; `who`, calling from `address`, becomes its
    admin."""
    now = found.clock.now()
    if body.seed is not None and not 0 <= body.seed <= _MAX_SEED:
        raise ApiError(422, "invalid", f"seed must be between 0 and {_MAX_SEED}")
    if body.current_hour is not None and not 0 <= body.current_hour <= 23:
        raise ApiError(422, "invalid", "current_hour must be between 0 and 23")
    found.throttle.game_created(who, address)
    settings = Settings(
        name=body.name,
        vp_target=body.vp_target,
        map_type=body.map_type,
        map=body.map,
        fast_mode=body.fast_mode,
        resolution_hour=body.resolution_hour,
        utc_offset=0 if body.current_hour is None else utc_offset_for(body.current_hour, now),
        votes=body.votes,
        vote_start_turn=body.vote_start_turn,
        voting_mode=body.voting_mode,
        hints=body.hints,
        sandbox=body.sandbox,
        broadcasting=body.broadcasting,
    )
    game_id = secrets.token_hex(6)
    seed = body.seed if body.seed is not None else secrets.randbits(63)
    return await run(
        found,
        game_id,
        CreateGame(
            **act(who, found),
            game_id=game_id,
            settings=settings,
            seed=seed,
            client_id=who.client_id,
        ),
    )


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
    state, position = await readable(found, game)
    return json_response(public_game(state, position, found.clock.now()))


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
    executed = await run(found, game, JoinGame(**act(who, found), name=who.name[:32]))
    (joined,) = (e for e in executed.events if isinstance(e, PlayerJoined))
    types = [game_codec.type_of(e) for e in executed.events]
    return json_response(Joined(types, executed.position, player=joined.player_id))


@router.post(
    "/games/{game}/start",
    **documented(
        responses={200: Done}, errors=(401, 403, 404, 409, 410), summary="Start the game (admin)"
    ),
)
async def start_game(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    found = services(request)
    return done(await run(found, game, StartGame(**act(who, found), secret=found.entropy())))


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
        **act(who, found),
        fast_mode=body.fast_mode,
        resolution_hour=body.resolution_hour,
        current_hour=body.current_hour,
        broadcasting=body.broadcasting,
        vp_target=body.vp_target,
    )
    return done(await run(found, game, command))


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
    common = act(who, found)
    if action == "rewind":
        reason = body.reason or "admin rewind"
        rewind = RewindTurn(**common, reason=reason, secret=found.entropy())
        return done(await found.games.rewind(game, rewind))
    if action in ("ban", "unban"):
        if body.player is None:
            raise ApiError(422, "invalid", f'{action} needs {{"player": <player id>}}')
        player_command: GameCommand = (
            BanPlayer(**common, player_id=body.player)
            if action == "ban"
            else UnbanPlayer(**common, player_id=body.player)
        )
        return done(await run(found, game, player_command))
    simple: dict[str, GameCommand] = {
        "pause": PauseGame(**common),
        "unpause": UnpauseGame(**common),
        "resolve": ResolveTurn(**common),
        "kill": KillGame(**common),
    }
    return done(await run(found, game, simple[action]))
