"""Painting with Pillow as SVG paints: fills, strokes (width, round or square caps, dashes),
opacity for one shape or for a group (which fades as a whole, as SVG's group opacity does),
pattern fills from a tile, and text with a white halo.

Shapes come in drawing units and go through a transform to pixels. Each paint is a mask
over the shape's bounding box only, composited onto the picture, so that the cost follows
what is drawn rather than the picture's size."""

import itertools
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from server.pictures.geometry import IDENTITY, Affine, Point, Subpath, parse_transform, subpaths
from server.pictures.palette import RGB, Shape, rgb

Box = tuple[int, int, int, int]  # left, top, right, bottom, in pixels
# Paints onto a picture whose top left corner is at the given pixel; True: it is opaque.
Operation = Callable[[Image.Image, tuple[int, int], bool], None]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def font(size: float, bold: bool) -> Font:
    """DejaVu Sans, as the page asks for, if the system has it; else Pillow's own font."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size)


def _bounds(lines: list[list[Point]], margin: float) -> Box:
    xs = [x for line in lines for x, _ in line]
    ys = [y for line in lines for _, y in line]
    return (
        math.floor(min(xs) - margin),
        math.floor(min(ys) - margin),
        math.ceil(max(xs) + margin) + 1,
        math.ceil(max(ys) + margin) + 1,
    )


def _area(points: list[Point]) -> float:
    return abs(
        sum(
            x0 * y1 - x1 * y0
            for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True)
        )
    )


def dashed(line: list[Point], pattern: list[float], offset: float) -> list[list[Point]]:
    """The dashes of a polyline, as SVG's stroke-dasharray and stroke-dashoffset cut it."""
    if len(pattern) % 2:
        pattern = pattern * 2
    total = sum(pattern)
    if total <= 0:
        return [line]
    index, left = 0, pattern[0]
    skip = offset % total
    while skip >= left:
        skip -= left
        index = (index + 1) % len(pattern)
        left = pattern[index]
    left -= skip
    dashes: list[list[Point]] = []
    current: list[Point] | None = [line[0]] if index % 2 == 0 else None
    for (x0, y0), (x1, y1) in itertools.pairwise(line):
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while length - done > left:
            done += left
            point = (x0 + (x1 - x0) * done / length, y0 + (y1 - y0) * done / length)
            if current is not None:
                current.append(point)
                dashes.append(current)
                current = None
            else:
                current = [point]
            index = (index + 1) % len(pattern)
            left = pattern[index]
        left -= length - done
        if current is not None:
            current.append((x1, y1))
    if current is not None and len(current) > 1:
        dashes.append(current)
    return dashes


def _extend(line: list[Point], by: float) -> list[Point]:
    """The polyline lengthened by `by` at both ends (square caps)."""

    def out(end: Point, before: Point) -> Point:
        dx, dy = end[0] - before[0], end[1] - before[1]
        length = math.hypot(dx, dy) or 1.0
        return end[0] + dx / length * by, end[1] + dy / length * by

    return [out(line[0], line[1]), *line[1:-1], out(line[-1], line[-2])]


class Canvas:
    """An RGBA picture; `transform` takes drawing units to its pixels."""

    def __init__(self, image: Image.Image, transform: Affine) -> None:
        self.image = image
        self.transform = transform
        self._group: list[tuple[Box, Operation]] | None = None

    def _run(self, box: Box, operation: Operation) -> None:
        if self._group is not None:
            self._group.append((box, operation))
        else:
            operation(self.image, (0, 0), True)

    @contextmanager
    def group(self, opacity: float) -> Iterator[None]:
        """What is drawn inside fades as one picture, as an SVG <g opacity>."""
        if opacity >= 1:
            yield
            return
        self._group = []
        try:
            yield
            drawn = self._group
        finally:
            self._group = None
        if not drawn:
            return
        left, top = min(b[0] for b, _ in drawn), min(b[1] for b, _ in drawn)
        right, bottom = max(b[2] for b, _ in drawn), max(b[3] for b, _ in drawn)
        layer = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
        for _, operation in drawn:
            operation(layer, (left, top), False)
        layer.putalpha(layer.getchannel("A").point(lambda a: round(a * opacity)))
        self._composite(self.image, layer, left, top)

    @staticmethod
    def _composite(target: Image.Image, layer: Image.Image, left: int, top: int) -> None:
        right, bottom = left + layer.width, top + layer.height
        crop = (
            max(0, -left),
            max(0, -top),
            layer.width - max(0, right - target.width),
            layer.height - max(0, bottom - target.height),
        )
        if crop[0] < crop[2] and crop[1] < crop[3]:
            target.alpha_composite(layer, (left + crop[0], top + crop[1]), crop)

    def _masked(
        self,
        box: Box,
        paint: RGB | Image.Image,
        opacity: float,
        draw: Callable[[ImageDraw.ImageDraw, Point], None],
    ) -> None:
        def operation(target: Image.Image, origin: tuple[int, int], opaque: bool) -> None:
            left, top = box[0] - origin[0], box[1] - origin[1]
            size = (box[2] - box[0], box[3] - box[1])
            mask = Image.new("L", size, 0)
            draw(ImageDraw.Draw(mask), (-box[0], -box[1]))
            if opacity < 1:
                mask = mask.point(lambda a: round(a * opacity))
            if opaque:
                # Onto an opaque picture, pasting through the mask is compositing, and faster.
                if isinstance(paint, Image.Image):
                    target.paste(paint, (left, top), mask)
                else:
                    target.paste((*paint, 255), (left, top, left + size[0], top + size[1]), mask)
                return
            layer = (
                paint.copy() if isinstance(paint, Image.Image) else Image.new("RGBA", size, paint)
            )
            layer.putalpha(mask)
            self._composite(target, layer, left, top)

        self._run(box, operation)

    def _pixels(self, outline: list[Subpath], transform: Affine) -> list[Subpath]:
        full = self.transform.then(transform)
        return [Subpath([full.apply(p) for p in s.points], s.closed) for s in outline]

    def fill(
        self, outline: list[Subpath], color: RGB, opacity: float = 1.0, transform: Affine = IDENTITY
    ) -> None:
        shapes = [s.points for s in self._pixels(outline, transform) if _area(s.points) > 1e-6]
        if not shapes:
            return

        def draw(pen: ImageDraw.ImageDraw, shift: Point) -> None:
            for points in shapes:
                pen.polygon([(x + shift[0], y + shift[1]) for x, y in points], fill=255)

        self._masked(_bounds(shapes, 1), color, opacity, draw)

    def fill_tiled(self, outline: list[Subpath], tile: Image.Image, origin: Point) -> None:
        """Fill with `tile` repeated from `origin` (pixels), as an SVG <pattern> in user
        space."""
        shapes = [s.points for s in self._pixels(outline, IDENTITY)]
        box = _bounds(shapes, 1)
        size = tile.width
        region = Image.new("RGBA", (box[2] - box[0], box[3] - box[1]))
        first_x = (round(origin[0]) - box[0]) % size - size
        first_y = (round(origin[1]) - box[1]) % size - size
        for y in range(first_y, region.height, size):
            for x in range(first_x, region.width, size):
                region.paste(tile, (x, y))

        def draw(pen: ImageDraw.ImageDraw, shift: Point) -> None:
            for points in shapes:
                pen.polygon([(x + shift[0], y + shift[1]) for x, y in points], fill=255)

        self._masked(box, region, 1.0, draw)

    def stroke(
        self,
        outline: list[Subpath],
        color: RGB,
        width: float,
        *,
        cap: str = "butt",
        dash: list[float] | None = None,
        offset: float = 0.0,
        opacity: float = 1.0,
        transform: Affine = IDENTITY,
    ) -> None:
        full = self.transform.then(transform)
        pixels = width * full.scale
        lines: list[list[Point]] = []
        for subpath in self._pixels(outline, transform):
            points = subpath.points + subpath.points[:1] if subpath.closed else subpath.points
            if dash:
                lines += dashed(points, [v * full.scale for v in dash], offset * full.scale)
            elif len(points) > 1:
                lines.append(points)
        if not lines:
            return
        if cap == "square":
            lines = [_extend(line, pixels / 2) for line in lines]
        ends = cap == "round" or any(s.closed for s in outline)
        thick = max(1, round(pixels))

        def draw(pen: ImageDraw.ImageDraw, shift: Point) -> None:
            r = pixels / 2
            for line in lines:
                moved = [(x + shift[0], y + shift[1]) for x, y in line]
                pen.line(moved, fill=255, width=thick, joint="curve")
                if ends and r > 0.5:
                    for x, y in (moved[0], moved[-1]):
                        pen.ellipse((x - r, y - r, x + r, y + r), fill=255)

        self._masked(_bounds(lines, pixels + 2), color, opacity, draw)

    def shape(
        self, shape: Shape, transform: Affine = IDENTITY, paint: dict[str, RGB] | None = None
    ) -> None:
        """One SVG element of palette.json, its colour names taken from `paint`."""
        colors = paint or {}

        def color(value: str) -> RGB | None:
            if value == "none":
                return None
            return colors[value] if value in colors else rgb(value)

        outline = subpaths(shape)
        opacity = float(shape.get("opacity", 1))
        fill = color(shape.get("fill", "#000"))
        if fill is not None:
            self.fill(outline, fill, opacity, transform)
        stroke = color(shape.get("stroke", "none"))
        if stroke is not None:
            dash = shape.get("stroke-dasharray")
            self.stroke(
                outline,
                stroke,
                float(shape.get("stroke-width", 1)),
                cap=shape.get("stroke-linecap", "butt"),
                dash=[float(v) for v in dash.split()] if dash else None,
                opacity=opacity,
                transform=transform,
            )

    def shapes(
        self,
        shapes: list[Shape],
        transform: str | Affine = IDENTITY,
        paint: dict[str, RGB] | None = None,
    ) -> None:
        moved = parse_transform(transform) if isinstance(transform, str) else transform
        for one in shapes:
            self.shape(one, moved, paint)

    def text(
        self,
        at: Point,
        words: str,
        size: float,
        color: RGB,
        *,
        bold: bool = True,
        halo: float = 3.5,
        anchor: str = "ms",
    ) -> None:
        """On the baseline at `at`'s y, centred on its x as SVG's text-anchor="middle" (or,
        with anchor "ls", starting there)."""
        x, y = self.transform.apply(at)
        scale = self.transform.scale
        pen = ImageDraw.Draw(self.image)
        pen.text(
            (x, y),
            words,
            fill=(*color, 255),
            font=font(size * scale, bold),
            anchor=anchor,
            stroke_width=round(halo / 2 * scale),
            stroke_fill=(255, 255, 255, 255),
        )
