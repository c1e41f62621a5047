"""Games: set up, list, read, join, start, settings."""

import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from projections.game import GameState
from projections.schedule import utc_offset_for
from projections.views import PublicGame, public_game
from schema.api import (
    Done,
    GameList,
    GameSummary,
    NewGame,
    SettingsPatch,
)
from schema.commands import (
    ChangeSettings,
    CreateGame,
    GameCommand,
    JoinGame,
    StartGame,
)
from schema.game_events import Settings, game_codec
from server.accounts import Identity
from server.api import documented, json_response, read_body
from server.decide.acting import existing
from server.handlers import Executed
from server.identity import required_caller
from server.services import Services, services
from server.throttle import client_address

router = APIRouter(prefix="/v1", tags=["games"])
GameId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


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
    phase: Literal["joining", "running", "paused", "finished"] | None = None,
    after: Annotated[str, Query(max_length=64, pattern=r"^[A-Za-z0-9_-]*$")] = "",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> Response:
    rows = await services(request).pool.fetch(
        "SELECT game_id, name, phase, turn, players, position FROM read_games "
        "WHERE phase <> 'killed' AND ($1::text IS NULL OR phase = $1) AND game_id > $2 "
        "ORDER BY game_id LIMIT $3",
        phase,
        after,
        limit + 1,
    )
    games = [GameSummary(*row) for row in rows[:limit]]
    return json_response(GameList(games, games[-1].id if len(rows) > limit else None))


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
        responses={200: Done}, errors=(401, 403, 404, 409, 410), summary="Join in the join phase"
    ),
)
async def join_game(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    found = services(request)
    return done(await run(found, game, JoinGame(**act(who, found), name=who.name[:32])))


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
