"""GET /v1/games/{game}/map.png of games run by their definitions, over a real server: the
Art of War's territories in their owners' colours (independents grey) with the last turn's
orders, never a pending one; Skor's board with both Cities in their players' colours; each
picture as its game describes it (rules/kit/picture.py), changing when a turn runs or an
action is played."""

import io
import math
from typing import Any

import msgspec
from PIL import Image

from rules.artofwar.maps import builtin_board
from rules.artofwar.picture import INDEPENDENT
from rules.artofwar.picture import picture as art_of_war_picture
from rules.artofwar.play import Play as ArtOfWarPlay
from rules.kit.picture import Look, Picture, Polygon
from rules.skor.picture import RADIUS, centre
from server.pictures.palette import Shades
from tests.api.support import Account, Api, Json, Server, joined_game, make_move, public_game

MINI = builtin_board("aow-mini")
Pixel = tuple[int, ...]


async def _png(api: Api, game_id: str, query: str = "") -> tuple[Image.Image, bytes, str]:
    response = await api.client.get(f"/v1/games/{game_id}/map.png{query}")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    image.load()
    assert (image.format, image.mode) == ("PNG", "RGB")
    return image, response.content, response.headers["etag"]


def _close(a: Pixel, b: Pixel, tolerance: int = 30) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def _colors(view: Json) -> dict[str, Pixel]:
    return {p["id"]: Shades(p["color"]).base for p in view["players"]}


def _looks(view: Json) -> dict[str, Look]:
    return {
        p["id"]: Look(p["name"], "#{:02x}{:02x}{:02x}".format(*Shades(p["color"]).base))
        for p in view["players"]
    }


def _hexagons(picture: Picture) -> dict[int, Polygon]:
    """The territories' hexagons, in the order of the map's territories."""
    polygons = [s for s in picture.shapes if isinstance(s, Polygon) and len(s.points) == 6]
    return dict(enumerate(polygons[: len(MINI.territories)]))


def _inside(image: Image.Image, hexagon: Polygon) -> list[Pixel]:
    """Pixels two thirds of the way from the hexagon's centre to each of its corners."""
    cx = sum(x for x, _ in hexagon.points) / 6
    cy = sum(y for _, y in hexagon.points) / 6
    found = []
    for x, y in hexagon.points:
        pixel = image.getpixel((round(cx + (x - cx) * 2 / 3), round(cy + (y - cy) * 2 / 3)))
        assert isinstance(pixel, tuple)
        found.append(pixel)
    return found


def _owners_drawn(image: Image.Image, picture: Picture, view: Json) -> None:
    """Each territory mostly in its owner's colour, an independent one grey."""
    owners, colors = view["play"]["position"]["owners"], _colors(view)
    grey = tuple(int(INDEPENDENT[i : i + 2], 16) for i in (1, 3, 5))
    for k, territory in enumerate(MINI.territories.values()):
        owner = owners.get(territory.id)
        expected = colors[owner] if owner is not None else grey
        shown = _inside(image, _hexagons(picture)[k])
        assert sum(_close(p, expected) for p in shown) >= 4, (territory.id, owner, shown)


async def _art_of_war(api: Api) -> tuple[str, list[Account]]:
    accounts = [await api.account(f"general{n}") for n in range(1, 4)]
    body = {"name": "War", "game": "art-of-war", "options": {"map": "aow-mini"}}
    game_id = await joined_game(api, body, accounts)
    return game_id, accounts


def _attacks(play: Json, seat: str) -> list[str]:
    """All but one unit of each of the seat's territories to its first neighbour."""
    owners, units = play["position"]["owners"], play["position"]["units"]
    return [
        f"{t} {units[t] - 1} to {sorted(MINI.neighbours[t])[0]}"
        for t, owner in sorted(owners.items())
        if owner == seat and units.get(t, 0) > 1
    ]


def _along(start: tuple[float, float], end: tuple[float, float], share: float) -> tuple[int, int]:
    return round(start[0] + (end[0] - start[0]) * share), round(
        start[1] + (end[1] - start[1]) * share
    )


async def test_the_art_of_war_pictures_owners_and_the_last_turn_never_a_pending_one(
    server: Server,
) -> None:
    api = server.api
    game_id, accounts = await _art_of_war(api)
    refused = await api.call("GET", f"/v1/games/{game_id}/map.png", expect=409)
    assert refused["error"]["code"] == "map_not_drawn"
    await api.start(game_id, accounts[0])

    view = await public_game(api, game_id)
    play = msgspec.convert(view["play"], ArtOfWarPlay)
    described = art_of_war_picture(play, _looks(view))
    image, before, etag = await _png(api, game_id)
    assert image.size == (described.width, described.height)
    _owners_drawn(image, described, view)
    assert not play.last_orders

    # Sealed orders are the room's until the turn runs: the picture does not change.
    for seat, who in zip(("p1", "p2"), accounts, strict=False):
        await make_move(api, game_id, who, _attacks(view["play"], seat))
    _, pending, pending_etag = await _png(api, game_id)
    assert (pending, pending_etag) == (before, etag)

    await make_move(api, game_id, accounts[2], _attacks(view["play"], "p3"))
    after_view = await public_game(api, game_id)
    assert after_view["turn"] == 2
    after, _, after_etag = await _png(api, game_id)
    assert after_etag != etag
    played = msgspec.convert(after_view["play"], ArtOfWarPlay)
    described = art_of_war_picture(played, _looks(after_view))
    assert after.size == (described.width, described.height)
    _owners_drawn(after, described, after_view)

    # The turn's orders as arrows in their player's colour, from territory to target.
    colors = _colors(after_view)
    moved = [o for o in played.last_orders if o.result in ("transferred", "conquered")]
    assert moved
    hexagons = _hexagons(described)
    ids = list(MINI.territories)
    for order in moved:
        assert order.source is not None
        assert order.target is not None
        a, b = hexagons[ids.index(order.source)], hexagons[ids.index(order.target)]
        start = (sum(x for x, _ in a.points) / 6, sum(y for _, y in a.points) / 6)
        end = (sum(x for x, _ in b.points) / 6, sum(y for _, y in b.points) / 6)
        on_it = [_pixel(after, _along(start, end, share)) for share in (0.3, 0.35, 0.4)]
        assert any(_close(p, colors[order.player], 40) for p in on_it), (order, on_it)

    # The start of turn 1 is the picture before it ran; turns not reached are not found.
    _, first, first_etag = await _png(api, game_id, "?turn=1")
    assert (first, first_etag) == (before, etag)
    _, now, _ = await _png(api, game_id, "?turn=2")
    assert now == await (await api.client.get(f"/v1/games/{game_id}/map.png")).aread()
    missing = await api.call("GET", f"/v1/games/{game_id}/map.png?turn=3", expect=404)
    assert missing["error"]["code"] == "turn_not_found"


async def _skor_started(api: Api) -> tuple[str, dict[str, Account]]:
    one, two = await api.account("one"), await api.account("two")
    body = {"name": "Skor", "game": "skor", "options": {"round_limit": 3}}
    game_id = await joined_game(api, body, (one, two))
    await api.start(game_id, one)
    return game_id, {"p1": one, "p2": two}


def _pixel(image: Image.Image, at: tuple[float, float]) -> Pixel:
    found = image.getpixel((round(at[0]), round(at[1])))
    assert isinstance(found, tuple)
    return found


async def test_skor_pictures_its_board_with_each_city_in_its_players_colour(
    server: Server,
) -> None:
    api = server.api
    game_id, seat = await _skor_started(api)
    # The board is made by both players' choices: no picture before.
    refused = await api.call("GET", f"/v1/games/{game_id}/map.png", expect=409)
    assert refused["error"]["code"] == "map_not_drawn"
    first, second = (await public_game(api, game_id))["play"]["setup"]["players"]
    await make_move(api, game_id, seat[first], {"culture": "feudal", "side": 1})
    await make_move(api, game_id, seat[second], {"culture": "feudal", "side": 4})

    view = await public_game(api, game_id)
    game: dict[str, Any] = view["play"]["game"]
    image, _, etag = await _png(api, game_id)
    width = max(centre(name)[0] for name in ("A17", "B11")) + RADIUS
    assert image.width >= math.ceil(width)
    colors = _colors(view)
    for name, structure in game["structures"].items():
        if structure["kind"] == "city":
            x, y = centre(name)
            shown = _pixel(image, (x - RADIUS * 0.78, y - 2))
            assert _close(shown, colors[structure["by"]]), (name, shown)
    # X1 and X2 belong to nobody: in no player's colour.
    shown = _pixel(image, centre("X1"))
    assert not any(_close(shown, c, 40) for c in colors.values())

    # An action changes the picture (whose turn, the dice); the old turn stays readable.
    await make_move(api, game_id, seat[first], "end")
    _, _, after = await _png(api, game_id)
    assert after != etag
    _, _, then = await _png(api, game_id, "?turn=2")
    assert then == etag
