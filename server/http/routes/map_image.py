"""A game's map as a PNG image, for chat bots and link previews: the picture of the game's
page, drawn by the server (server/pictures/); for a game run by its definition, the picture
the game describes (rules/game.py, `Pictured`). Anyone may read it, as the game itself: it
shows only the public board and the orders of a resolved turn. Drawing is a heavy read
(server/http/heavy.py); a picture is kept by what it shows."""

import hashlib
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import msgspec
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from projections.game import GameState
from projections.owned import own_events
from rules.game import Pictured
from rules.kit.picture import Look, Picture
from rules.skirmish.maps import builtin_names
from schema import errors as codes
from schema.errors import Refusal
from server.game.application import past_turn, readable, start_of_turn
from server.http.api import documented
from server.http.heavy import caller
from server.http.lru import Lru
from server.http.routes.games import GameId
from server.pictures.draw import render_png
from server.pictures.outlines import drawable, drawable_builtin
from server.pictures.palette import Shades, palette
from server.pictures.scene import Scene
from server.pictures.shapes import render_picture
from server.services import services

router = APIRouter(prefix="/v1/games/{game}", tags=["history"])
Shown = TypeVar("Shown", Scene, Picture)

# Pictures by what they show (a rewind or a new turn shows something else): a picture
# costs most of a second to draw, and a chat channel asks for the same one many times. Some
# 100-300 kB each.
_pictures: Lru[str, bytes] = Lru(64)
# Sorted: a board read back from the read models (jsonb before migration 0016) may have its
# keys in another order, and is the same board.
_encode = msgspec.json.Encoder(order="sorted").encode


_PNG: dict[str, Any] = {
    "description": "The map, as a PNG image",
    "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}},
}


def _documented() -> dict[str, Any]:
    arguments = documented(errors=(404, 409, 429), summary="The map as a PNG image")
    arguments["responses"][200] = _PNG
    arguments["responses"][304] = {"description": "Not modified (If-None-Match)"}
    return arguments


def draw(scene: Scene) -> bytes:
    """The picture, in a worker process of server/http/heavy.py (each holds some 40 MB while it
    draws)."""
    game_map = scene.map
    if not all(len(t.outline) >= 3 for t in game_map.territories):
        # As the page does: a built-in map's outlines are the server's (GET /v1/maps/...).
        builtin = game_map.name in builtin_names()
        game_map = drawable_builtin(game_map.name) if builtin else drawable(game_map)
    return render_png(msgspec.structs.replace(scene, map=game_map))


async def _turn_scene(
    request: Request, game: GameState, turn: int, now: Scene, position: int
) -> Scene:
    """The board at the start of `turn`, with the orders of the turn before (none before
    the game's first turn), as GET /turns/{n} reads them (exact as of `position`)."""
    found, game_id = services(request), game.game_id
    start = await past_turn(found, game_id, turn, position=position)
    before = None
    if turn > game.first_turn:
        before = await past_turn(found, game_id, turn - 1, position=position)
    resolution = None if before is None else before.resolution
    return msgspec.structs.replace(
        now,
        board=start.start_board,
        orders=resolution.orders if resolution else [],
        dead=resolution.dead if resolution else [],
        effect=resolution.effect if resolution else None,
    )


@router.get("/map.png", **_documented())
async def get_map_png(
    request: Request,
    game: GameId,
    turn: Annotated[int | None, Query(ge=1, le=1_000_000)] = None,
) -> Response:
    loaded = await readable(services(request), game)
    state = loaded.state
    if own_events(state.definition) is None:
        return await _game_picture(request, state, turn)
    skirmish = state.skirmish
    if skirmish.map is None:
        raise Refusal(codes.MAP_NOT_DRAWN, "the map is drawn when the game starts")
    last = skirmish.last_turn
    scene = Scene(
        map=skirmish.map,
        board=skirmish.board,
        looks={p.id: (p.color, p.pattern) for p in state.players.values()},
        orders=last.orders if last else [],
        dead=last.dead if last else [],
        effect=last.effect if last else None,
    )
    if turn is not None:
        scene = await _turn_scene(request, state, turn, scene, loaded.position)
    # The picture's name: what it shows, and the palette it is drawn with.
    digest = hashlib.sha256(_encode(scene) + _encode(palette())).hexdigest()[:32]
    return await _png(request, digest, draw, scene)


async def _game_picture(request: Request, state: GameState, turn: int | None) -> Response:
    """The picture a game run by its definition describes, now or at the start of `turn`,
    each seat in its player's colour."""
    # Any definition may draw itself; the protocol's picture is an optional part of it.
    definition: object = state.definition
    if not isinstance(definition, Pictured):
        raise Refusal(codes.MAP_NOT_DRAWN, f"{state.game} draws no picture")
    if turn is not None:
        state = await start_of_turn(services(request), state, turn)
    looks = {
        p.id: Look(p.name, "#{:02x}{:02x}{:02x}".format(*Shades(p.color).base))
        for p in state.players.values()
    }
    picture = None if state.play is None else definition.picture(state.play, looks)
    if picture is None:
        raise Refusal(codes.MAP_NOT_DRAWN, "the board is drawn once the game has one")
    digest = hashlib.sha256(_encode(picture)).hexdigest()[:32]
    return await _png(request, digest, render_picture, picture)


async def _png(
    request: Request, digest: str, painter: Callable[[Shown], bytes], shown: Shown
) -> Response:
    """The picture named `digest`: not modified, kept, or painted by a worker."""
    headers = {"ETag": f'"{digest}"', "Cache-Control": "public, no-cache"}
    if request.headers.get("if-none-match") == headers["ETag"]:
        return Response(status_code=304, headers=headers)
    png = _pictures.get(digest)
    if png is None:
        heavy = services(request).heavy
        async with heavy.admitted("map", caller(request)) as worker:
            # Another caller's call may have drawn it while this one waited.
            png = _pictures.get(digest)
            if png is None:
                png = await worker.run(painter, shown)
                _pictures.put(digest, png)
    return Response(png, media_type="image/png", headers=headers)
