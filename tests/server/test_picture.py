"""The server's map drawing (server/pictures/) against palette.json, which the web page
reads too: every look the rules allow has a colour and a pattern, every shape there can be
painted, and the bits of SVG geometry it reads come out as SVG draws them."""

import math

from PIL import Image, ImageChops

from schema.bounds import COLORS, PATTERNS
from server.pictures.canvas import Canvas, dashed
from server.pictures.geometry import path, scale, subpaths
from server.pictures.palette import Shades, palette, rgb


def test_every_colour_and_pattern_a_player_may_choose_is_in_the_palette() -> None:
    data = palette()
    assert len(data["colors"]) == COLORS + 1
    assert data["colors"][0] is None
    assert all(c["hex"].startswith("#") for c in data["colors"][1:])
    assert len(data["patterns"]) == len(data["pattern_names"]) == PATTERNS + 1
    # White keeps its own shades; the others are mixed, as palette.js mixes them.
    assert Shades(19).light == (255, 255, 255)
    red = Shades(1)
    assert red.light == (235, 147, 158)
    assert red.ink == red.base == rgb("#d7263d")


def test_every_pattern_paints_its_tile() -> None:
    """Each pattern but plain leaves its ink on the tile, and no two look the same."""
    tiles = []
    for shapes in palette()["patterns"][1:]:
        tile = Image.new("RGBA", (48, 48), (255, 255, 255, 255))
        Canvas(tile, scale(3)).shapes(shapes, paint={"ink": (0, 0, 0)})
        tiles.append(tile.convert("RGB"))
    blank = Image.new("RGB", (48, 48), (255, 255, 255))
    assert ImageChops.difference(tiles[0], blank).getbbox() is None
    for k, tile in enumerate(tiles[1:], start=2):
        assert ImageChops.difference(tile, blank).getbbox() is not None, k
    assert len({tile.tobytes() for tile in tiles}) == len(tiles)


def test_the_icons_shapes_are_all_drawable() -> None:
    for icon in palette()["icons"].values():
        for shape in icon["shapes"]:
            assert subpaths(shape), shape


def test_an_arc_is_drawn_on_its_circle() -> None:
    # The barracks' door: a half circle of radius 1.3 over (10, 12.6).
    (door,) = path("M8.7,16 v-3.4 a1.3,1.3 0 0 1 2.6,0 V16 Z")
    arc = door.points[2:-1]
    assert door.closed
    assert len(arc) >= 4
    for x, y in arc:
        assert math.isclose(math.hypot(x - 10, y - 12.6), 1.3, abs_tol=1e-6)
        assert y <= 12.6 + 1e-6  # sweep 1 from left to right: over the top


def test_dashes_follow_the_dash_array_and_its_offset() -> None:
    line = [(0.0, 0.0), (10.0, 0.0)]
    assert dashed(line, [2, 4], 0) == [[(0.0, 0.0), (2.0, 0.0)], [(6.0, 0.0), (8.0, 0.0)]]
    # Offset 1: the first dash is 1 long, then a gap of 4.
    assert dashed(line, [2, 4], 1) == [[(0.0, 0.0), (1.0, 0.0)], [(5.0, 0.0), (7.0, 0.0)]]
    assert dashed(line, [3], 0) == [[(0.0, 0.0), (3.0, 0.0)], [(6.0, 0.0), (9.0, 0.0)]]
