"""server/pictures/shapes.py paints a game's picture (rules/kit/picture.py) into a PNG of
exactly the size it states: fills, lines with their arrowheads, faded lines, words."""

import io

import pytest
from PIL import Image

from rules.kit.picture import MAX_SIDE, Line, Picture, Polygon, Shape, Text, regular
from server.pictures.shapes import render_picture

RED, BLUE, SEA = (215, 38, 61), (31, 95, 191), (168, 208, 220)


def _painted(picture: Picture) -> Image.Image:
    image = Image.open(io.BytesIO(render_picture(picture)))
    image.load()
    assert (image.format, image.mode, image.size) == ("PNG", "RGB", (picture.width, picture.height))
    return image


def _at(image: Image.Image, x: int, y: int) -> tuple[int, ...]:
    found = image.getpixel((x, y))
    assert isinstance(found, tuple)
    return found


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 12) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))


def test_shapes_are_painted_where_the_picture_says() -> None:
    shapes: list[Shape] = [
        Polygon(regular((50, 50), 30, 6), "#d7263d", "#000000", 2),
        Line([(100, 20), (180, 20)], "#1f5fbf", 6, head=True),
        Line([(100, 80), (180, 80)], "#1f5fbf", 6, opacity=0.5),
        Line([(20, 92), (90, 92)], "#1f5fbf", 4, outline="#000000"),
        Text((150, 60), "7", 14),
    ]
    image = _painted(Picture(200, 100, "#a8d0dc", shapes))
    assert _close(_at(image, 50, 50), RED)
    assert _close(_at(image, 5, 95), SEA)
    assert _close(_at(image, 120, 20), BLUE)
    # The arrowhead is wider than the line, just before its point.
    assert _close(_at(image, 164, 25), BLUE)
    assert _close(_at(image, 120, 25), SEA)
    half = tuple((b + s) // 2 for b, s in zip(BLUE, SEA, strict=True))
    assert _close(_at(image, 120, 80), half)
    assert any(_at(image, x, y) != SEA for x in range(140, 160) for y in range(45, 62))
    # An outlined line: its colour within, its edge beside it.
    assert _close(_at(image, 50, 92), BLUE)
    assert _close(_at(image, 50, 89), (0, 0, 0), 40)
    assert _close(_at(image, 50, 86), SEA)


@pytest.mark.parametrize("size", [(0, 10), (10, MAX_SIDE + 1)])
def test_a_picture_out_of_bounds_is_refused(size: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="pixels a side"):
        render_picture(Picture(size[0], size[1], "#ffffff", []))
