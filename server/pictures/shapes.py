"""A game's own picture (rules/kit/picture.py: plain polygons, lines and words, in pixels)
painted into a PNG with the canvas Skirmish Society's map is painted with, smoothed the same
way: drawn larger, then scaled down."""

import io
import math

from PIL import Image

from rules.kit.picture import MAX_SIDE, Line, Picture, Point, Polygon, Text
from server.pictures.canvas import Canvas
from server.pictures.draw import SUPERSAMPLE
from server.pictures.geometry import Subpath, scale
from server.pictures.palette import rgb

_DASH = [6.0, 5.0]
_EDGE = 1.5  # an outlined line's edge, in pixels


def _head(line: Line) -> tuple[list[Point], list[Point]]:
    """The line stopped short of its end, and the arrowhead's triangle over that end."""
    *rest, before, end = line.points
    length = math.hypot(end[0] - before[0], end[1] - before[1]) or 1.0
    ux, uy = (end[0] - before[0]) / length, (end[1] - before[1]) / length
    long, half = 3 * line.width + 4, 1.6 * line.width + 2
    base = (end[0] - ux * long, end[1] - uy * long)
    triangle = [
        end,
        (base[0] - uy * half, base[1] + ux * half),
        (base[0] + uy * half, base[1] - ux * half),
    ]
    return [*rest, before, base], triangle


def _line(canvas: Canvas, line: Line) -> None:
    if len(line.points) < 2:
        return
    points, head = _head(line) if line.head else (line.points, None)
    color, cap, dash = (
        rgb(line.color),
        "butt" if line.dashed else "round",
        _DASH if line.dashed else None,
    )
    outline = [Subpath(points, False)]
    with canvas.group(line.opacity):
        if line.outline is not None:
            edge = rgb(line.outline)
            canvas.stroke(outline, edge, line.width + 2 * _EDGE, cap=cap, dash=dash)
        canvas.stroke(outline, color, line.width, cap=cap, dash=dash)
        if head is not None:
            canvas.fill([Subpath(head, True)], color)
            if line.outline is not None:
                canvas.stroke([Subpath(head, True)], rgb(line.outline), _EDGE)


def render_picture(picture: Picture) -> bytes:
    """The picture as a PNG of exactly its width and height."""
    width, height = picture.width, picture.height
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"a picture is 1 to {MAX_SIDE} pixels a side, not {width} by {height}")
    size = (width * SUPERSAMPLE, height * SUPERSAMPLE)
    canvas = Canvas(Image.new("RGBA", size, (*rgb(picture.background), 255)), scale(SUPERSAMPLE))
    for shape in picture.shapes:
        match shape:
            case Polygon(points=points, fill=fill, stroke=stroke, width=stroke_width):
                outline = [Subpath(list(points), True)]
                if fill is not None:
                    canvas.fill(outline, rgb(fill))
                if stroke is not None:
                    canvas.stroke(outline, rgb(stroke), stroke_width)
            case Line():
                _line(canvas, shape)
            case Text(at=at, text=words, size=size_, color=color, bold=bold, anchor=anchor):
                canvas.text(
                    at,
                    words,
                    size_,
                    rgb(color),
                    bold=bold,
                    anchor="ms" if anchor == "middle" else "ls",
                )
    out = io.BytesIO()
    canvas.image.reduce(SUPERSAMPLE).convert("RGB").save(out, format="PNG", compress_level=6)
    return out.getvalue()
