"""Maps to draw: every game's built-in ones (Skirmish Society's with outlines filled in, the
Art of War's whole), generated ones for the sandbox, and the voting effects' descriptions.
Stateless; nothing is stored."""

import asyncio
from typing import Annotated

import msgspec
from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from rules.artofwar.board import map_file_of
from rules.artofwar.definition import ART_OF_WAR
from rules.artofwar.maps import builtin_board
from rules.artofwar.maps import builtin_names as art_of_war_maps
from rules.skirmish.board import GameMap, MapError
from rules.skirmish.effects import DESCRIPTIONS
from rules.skirmish.mapgen import MapGenerationError, generate
from rules.skirmish.maps import builtin_map, builtin_names
from rules.skirmish.ruleset import SKIRMISH_SOCIETY
from schema import errors as codes
from schema.errors import Refusal
from schema.maps import (
    ArtOfWarMap,
    EffectInfo,
    EffectList,
    GenerateBody,
    MapList,
    MapSummary,
    PlayerCounts,
)
from server.http.api import documented, json_response, read_body
from server.pictures.outlines import drawable_builtin

router = APIRouter(prefix="/v1", tags=["maps"])


@router.get(
    "/maps", **documented(responses={200: MapList}, summary="The built-in maps of every game")
)
async def list_maps() -> Response:
    summaries = []
    for name in builtin_names():
        game_map = builtin_map(name)
        counts = SKIRMISH_SOCIETY.player_counts(name)
        players = PlayerCounts(*counts) if counts is not None else None
        summaries.append(
            MapSummary(
                name, game_map.description, len(game_map.territories), len(game_map.homes), players
            )
        )
    for name in art_of_war_maps():
        board = builtin_board(name)
        summaries.append(
            MapSummary(name, board.description, len(board.territories), 0, None, ART_OF_WAR.name)
        )
    return json_response(MapList(summaries))


@router.get(
    "/maps/{name}",
    **documented(
        # Skirmish Society's map, as it always was, or another game's, whose `game` says so.
        responses={200: (GameMap, ArtOfWarMap)},
        errors=(404,),
        summary="A built-in map of any game, whole, to draw it",
    ),
)
async def get_map(name: Annotated[str, Path(max_length=64)]) -> Response:
    if name not in builtin_names():
        if name not in art_of_war_maps():
            raise Refusal(codes.MAP_NOT_FOUND, f"no built-in map {name!r}")
        whole = msgspec.structs.asdict(map_file_of(builtin_board(name)))
        return json_response(ArtOfWarMap(**whole, game="art-of-war"))
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
