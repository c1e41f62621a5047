"""Maps to draw: every game's built-in ones (Skirmish Society's with outlines filled in, each
other game's whole, as its definition gives them: `Mapped`, rules/game.py), generated ones for
the sandbox, and the voting effects' descriptions. Stateless; nothing is stored."""

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from rules.house import Mapped
from rules.registry import DEFAULT_GAME, definitions
from rules.skirmish.board import GameMap, MapError
from rules.skirmish.effects import DESCRIPTIONS
from rules.skirmish.mapgen import MapGenerationError, generate
from rules.skirmish.maps import builtin_names
from schema import errors as codes
from schema.errors import Refusal
from schema.maps import (
    EffectInfo,
    EffectList,
    GenerateBody,
    MapList,
    MapSummary,
    PlayerCounts,
)
from server.http.api import ByGame, documented, json_response, read_body
from server.pictures.outlines import drawable_builtin

router = APIRouter(prefix="/v1", tags=["maps"])


def _mapped() -> dict[str, Mapped]:
    """Each game that has built-in maps, by name (its newest version): the default game's
    first, as GET /v1/maps listed its maps before any other game had some."""
    games = sorted(definitions().items(), key=lambda named: named[0] != DEFAULT_GAME)
    return {name: game for name, game in games if isinstance(game, Mapped)}


def _whole_maps() -> tuple[Any, ...]:
    return tuple(game.map_type for game in _mapped().values())


@router.get(
    "/maps", **documented(responses={200: MapList}, summary="The built-in maps of every game")
)
async def list_maps() -> Response:
    summaries = [
        MapSummary(
            listed.name,
            listed.description,
            listed.territories,
            listed.homes,
            None if listed.players is None else PlayerCounts(*listed.players),
            game,
        )
        for game, mapped in _mapped().items()
        for listed in mapped.builtin_maps()
    ]
    return json_response(MapList(summaries))


@router.get(
    "/maps/{name}",
    **documented(
        # Skirmish Society's map, as it always was, or another game's, whose `game` says so.
        responses={200: ByGame(_whole_maps)},
        errors=(404,),
        summary="A built-in map of any game, whole, to draw it",
    ),
)
async def get_map(name: Annotated[str, Path(max_length=64)]) -> Response:
    if name not in builtin_names():
        for game in _mapped().values():
            whole = game.builtin_map(name)
            if whole is not None:
                return json_response(whole)
        raise Refusal(codes.MAP_NOT_FOUND, f"no built-in map {name!r}")
    try:
        # The first call fits the outlines (a fraction of a second); later ones are cached.
        drawn = await asyncio.to_thread(drawable_builtin, name)
    except MapError as error:  # pragma: no cover - built-in maps are checked by the tests
        raise Refusal(codes.MAP_NOT_FOUND, str(error)) from error
    return json_response(drawn)


@router.post(
    "/maps/generate",
    **documented(
        body=GenerateBody,
        responses={200: GameMap},
        summary="Generate a map (as a game would from its seed), with outlines and homes",
    ),
)
async def generate_map(request: Request) -> Response:
    body = await read_body(request, GenerateBody)
    try:
        generated = await asyncio.to_thread(generate, body.players, body.type, body.seed)
    except MapGenerationError as error:
        raise Refusal(codes.MAP_UNUSABLE, str(error)) from error
    return json_response(generated)


@router.get(
    "/effects",
    **documented(responses={200: EffectList}, summary="The voting effects and what they do"),
)
async def list_effects() -> Response:
    return json_response(
        EffectList([EffectInfo(effect.value, text) for effect, text in DESCRIPTIONS.items()])
    )
