"""A game's picture as plain shapes (rules/game.py, `Pictured`): what to draw, in pixels, for
the server to rasterise (server/pictures/shapes.py) as GET /v1/games/{game}/map.png. Pure
data, so that a game says what its board looks like without knowing how it is painted.

Colours are "#rrggbb". The seats' own colours and names are the room's (a player picks a
colour when joining): the game is given them as `Look`s and paints with them."""

import math
from collections.abc import Callable, Mapping
from typing import Literal

import msgspec

Point = tuple[float, float]
Color = str
# The largest side a picture may state, in pixels.
MAX_SIDE = 2048
WHITE: Color = "#ffffff"
INK: Color = "#232323"


class Look(msgspec.Struct, frozen=True):
    """How a seat is shown: its player's name and colour."""

    name: str
    color: Color


def colors(looks: Mapping[str, Look], otherwise: Color) -> Callable[[str | None], Color]:
    """A seat's colour, from its look; `otherwise` for no seat or one without a look."""

    def color(seat: str | None) -> Color:
        look = looks.get(seat) if seat is not None else None
        return look.color if look is not None else otherwise

    return color


class Polygon(msgspec.Struct, frozen=True, tag="polygon"):
    points: list[Point]
    fill: Color | None = None
    stroke: Color | None = None
    width: float = 1.0


class Line(msgspec.Struct, frozen=True, tag="line"):
    """A polyline; with `head`, an arrow pointing at its last point."""

    points: list[Point]
    color: Color
    width: float = 1.0
    head: bool = False
    dashed: bool = False
    # Edged in this colour, the arrowhead too, to stand out on any ground.
    outline: Color | None = None
    # 0 (invisible) to 1: a faded line under others, as an order that failed.
    opacity: float = 1.0


class Text(msgspec.Struct, frozen=True, tag="text"):
    """Words with a white halo, on the baseline at `at`: centred on it or starting there."""

    at: Point
    text: str
    size: float = 14.0
    color: Color = INK
    bold: bool = True
    anchor: Literal["middle", "start"] = "middle"


Shape = Polygon | Line | Text


class Picture(msgspec.Struct, frozen=True):
    """`width` by `height` pixels of `background`, with `shapes` painted in order."""

    width: int
    height: int
    background: Color
    shapes: list[Shape]


def regular(centre: Point, radius: float, corners: int, turn: float = 0.0) -> list[Point]:
    """A regular polygon about `centre`; its first corner `turn` radians from the +x axis
    (6 corners and turn 0: a flat-topped hexagon)."""
    x, y = centre
    return [
        (
            x + radius * math.cos(turn + 2 * math.pi * k / corners),
            y + radius * math.sin(turn + 2 * math.pi * k / corners),
        )
        for k in range(corners)
    ]


def shortened(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point]:
    """The segment from a to b with `start` cut off its beginning and `end` off its end."""
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def legend_row(
    at: Point, swatch: Color | None, words: str, size: float = 14.0
) -> list[Polygon | Text]:
    """One row of a legend: a square of `swatch` (if any), then the words."""
    x, y = at
    shapes: list[Polygon | Text] = []
    if swatch is not None:
        square = [(x, y - size), (x + size, y - size), (x + size, y), (x, y)]
        shapes.append(Polygon(square, fill=swatch, stroke=INK))
    shapes.append(Text((x + size * 1.5, y - 1), words, size * 0.9, anchor="start"))
    return shapes
