"""GET /v1/games/{game}/map.png over a real server: a PNG of the board now or at the start
of a turn, the players' armies in their colours, cached by what it shows, and the same
errors as the game's other reads. (tests/browser/test_map_image.py compares it with the
page's drawing.)"""

import io
from typing import Any

import msgspec
from PIL import Image

from rules.skirmish.board import GameMap
from server.pictures.palette import Shades
from server.pictures.scene import frame
from tests.api.game import ScriptedGame
from tests.api.support import Json, Server

LONGEST_SIDE = 1024


async def _png(server: Server, path: str, **headers: str) -> tuple[Image.Image, Any]:
    response = await server.api.client.get(path, headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    image.load()
    return image, response


async def _drawn_map(server: Server, state: Json) -> GameMap:
    found = state["map"]
    if not all(len(t.get("outline", ())) >= 3 for t in found["territories"]):
        found = await server.api.call("GET", f"/v1/maps/{found['name']}")
    return msgspec.convert(found, GameMap)


def _pixel_at(image: Image.Image, game_map: GameMap, point: tuple[float, float]) -> tuple[int, ...]:
    box = frame(game_map)
    unit = image.width / box.width
    x, y = (point[0] - box.left) * unit, (point[1] - box.top) * unit
    found = image.getpixel((round(x), round(y)))
    assert isinstance(found, tuple)
    return found


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def _armies_drawn(image: Image.Image, game_map: GameMap, state: Json, board: Json) -> None:
    """Every army in its owner's colour, on the pawn's body; no pawn on unclaimed land."""
    colours = {p["id"]: Shades(p["color"]).base for p in state["players"]}
    for t in game_map.territories:
        body = _pixel_at(image, game_map, (t.x, t.y + 10 + 6))
        owner = board["armies"].get(t.id)
        if owner is not None:
            assert _close(body, colours[owner]), (t.id, body, colours[owner])
        elif t.id not in board["control"]:
            assert not any(_close(body, c, 40) for c in colours.values()), (t.id, body)


async def test_the_map_of_a_scripted_game_now_and_at_each_turn(server: Server) -> None:
    game = ScriptedGame(server)
    await game.create()
    base = f"/v1/games/{game.game_id}/map.png"
    refused = await server.api.call("GET", base, expect=409)
    assert refused["error"]["code"] == "map_not_drawn"
    await game.join_and_start()
    for turn in (1, 2):
        await game.submit(turn)
        await game.resolve()
    state: Json = msgspec.json.decode(msgspec.json.encode(await game.state()))
    assert state["turn"] == 3
    game_map = await _drawn_map(server, state)

    now, response = await _png(server, base)
    assert now.format == "PNG"
    assert now.mode == "RGB"
    assert max(now.size) <= LONGEST_SIDE
    box = frame(game_map)
    assert abs(now.width / now.height - box.width / box.height) < 0.01
    assert response.headers["cache-control"] == "public, no-cache"
    _armies_drawn(now, game_map, state, state["board"])

    # Asked again with its ETag: not modified.
    etag = response.headers["etag"]
    again = await server.api.client.get(base, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.headers["etag"] == etag

    # The start of turn 3 is the board now, with the orders of turn 2: the same picture.
    _, third = await _png(server, f"{base}?turn=3")
    assert third.headers["etag"] == etag
    assert third.content == response.content
    for turn in (1, 2):
        picture, answer = await _png(server, f"{base}?turn={turn}")
        assert answer.headers["etag"] != etag
        assert picture.size == now.size
        start = await server.api.call("GET", f"/v1/games/{game.game_id}/turns/{turn}")
        _armies_drawn(picture, game_map, state, start["start_board"])

    missing = await server.api.call("GET", f"{base}?turn=4", expect=404)
    assert missing["error"]["code"] == "turn_not_found"
    await server.api.call("GET", f"{base}?turn=0", expect=422)
    await server.api.call("GET", "/v1/games/no-such-game/map.png", expect=404)
    await game.api.admin(game.game_id, game.admin, "kill")
    await server.api.call("GET", base, expect=410)


async def test_the_map_of_a_fork_at_each_of_its_turns_as_its_turns_answer(server: Server) -> None:
    """A fork's turns begin at its source's turn n: map.png answers for each turn of its own
    as /turns/{n} does, its first one included (no orders drawn: none of its own came
    before), and turns before it are not found."""
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    await game.submit(1)
    await game.resolve()
    path = f"/v1/games/{game.game_id}/fork"
    fork = await server.api.call("POST", path, game.admin, {"turn": 2}, expect=201)
    base = f"/v1/games/{fork['id']}/map.png"
    await server.api.call("GET", f"/v1/games/{fork['id']}/turns/2")
    first, answer = await _png(server, f"{base}?turn=2")
    _, now = await _png(server, base)
    assert answer.headers["etag"] == now.headers["etag"]
    _armies_drawn(first, await _drawn_map(server, fork), fork, fork["board"])
    for turn in (1, 3):
        await server.api.call("GET", f"/v1/games/{fork['id']}/turns/{turn}", expect=404)
        missing = await server.api.call("GET", f"{base}?turn={turn}", expect=404)
        assert missing["error"]["code"] == "turn_not_found"
