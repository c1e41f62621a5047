"""The little of SVG's geometry that the map uses: affine transforms, and paths, polylines,
polygons, rects (with rx) and circles as lists of points. Curves and arcs become short
segments (the picture is drawn several times larger than it is shown, so they look round)."""

import math
import re
from typing import NamedTuple

from server.pictures.palette import Shape

Point = tuple[float, float]


class Subpath(NamedTuple):
    points: list[Point]
    closed: bool


class Affine(NamedTuple):
    """x' = a x + c y + e, y' = b x + d y + f, as SVG's matrix(a b c d e f)."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    def apply(self, point: Point) -> Point:
        x, y = point
        return self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f

    def then(self, inner: "Affine") -> "Affine":
        """This transform applied after `inner` (SVG's `outer inner` in a transform list)."""
        return Affine(
            self.a * inner.a + self.c * inner.b,
            self.b * inner.a + self.d * inner.b,
            self.a * inner.c + self.c * inner.d,
            self.b * inner.c + self.d * inner.d,
            self.a * inner.e + self.c * inner.f + self.e,
            self.b * inner.e + self.d * inner.f + self.f,
        )

    @property
    def scale(self) -> float:
        """How much lengths grow (for a stroke's width)."""
        return math.sqrt(abs(self.a * self.d - self.b * self.c))


IDENTITY = Affine()


def translate(x: float, y: float = 0.0) -> Affine:
    return Affine(e=x, f=y)


def scale(x: float, y: float | None = None) -> Affine:
    return Affine(a=x, d=x if y is None else y)


def rotate(degrees: float) -> Affine:
    cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return Affine(cos, sin, -sin, cos)


_FUNCTION = re.compile(r"(translate|scale|rotate)\(([^)]*)\)")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_TOKEN = re.compile(rf"[MmLlHhVvQqTtAaZz]|{_NUMBER}")


def parse_transform(text: str) -> Affine:
    """translate(), scale() and rotate(), as in palette.json."""
    found = IDENTITY
    for name, arguments in _FUNCTION.findall(text):
        values = [float(v) for v in re.findall(_NUMBER, arguments)]
        if name == "translate":
            step = translate(*values)
        elif name == "scale":
            step = scale(*values)
        else:
            step = rotate(*values)
        found = found.then(step)
    return found


def _quadratic(start: Point, control: Point, end: Point, steps: int = 10) -> list[Point]:
    points = []
    for k in range(1, steps + 1):
        t = k / steps
        u = 1 - t
        points.append(
            (
                u * u * start[0] + 2 * u * t * control[0] + t * t * end[0],
                u * u * start[1] + 2 * u * t * control[1] + t * t * end[1],
            )
        )
    return points


def _arc(
    start: Point, radii: Point, rotation: float, large: bool, sweep: bool, end: Point
) -> list[Point]:
    """An elliptical arc by its end points (SVG's A), as points after `start`."""
    (x1, y1), (x2, y2) = start, end
    rx, ry = abs(radii[0]), abs(radii[1])
    if rx == 0 or ry == 0 or start == end:
        return [end]
    cos, sin = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    xp, yp = cos * dx + sin * dy, -sin * dx + cos * dy
    grow = xp * xp / (rx * rx) + yp * yp / (ry * ry)
    if grow > 1:
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    numerator = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    denominator = rx * rx * yp * yp + ry * ry * xp * xp
    factor = math.sqrt(max(0.0, numerator / denominator))
    if large == sweep:
        factor = -factor
    cxp, cyp = factor * rx * yp / ry, -factor * ry * xp / rx
    cx = cos * cxp - sin * cyp + (x1 + x2) / 2
    cy = sin * cxp + cos * cyp + (y1 + y2) / 2
    first = math.atan2((yp - cyp) / ry, (xp - cxp) / rx)
    delta = math.atan2((-yp - cyp) / ry, (-xp - cxp) / rx) - first
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    steps = max(4, int(abs(delta) / (math.pi / 12)))
    points = []
    for k in range(1, steps + 1):
        angle = first + delta * k / steps
        ex, ey = rx * math.cos(angle), ry * math.sin(angle)
        points.append((cx + cos * ex - sin * ey, cy + sin * ex + cos * ey))
    return points


def path(d: str) -> list[Subpath]:
    """An SVG path's subpaths: M L H V Q T A Z, absolute and relative."""
    tokens = _TOKEN.findall(d)
    found: list[Subpath] = []
    points: list[Point] = []
    here: Point = (0.0, 0.0)
    start = here
    control: Point | None = None  # the last Q's control point, for T
    command = ""
    index = 0

    def take(count: int) -> list[float]:
        nonlocal index
        values = [float(t) for t in tokens[index : index + count]]
        index += count
        return values

    while index < len(tokens):
        if tokens[index].isalpha():
            command = tokens[index]
            index += 1
        relative = command.islower()
        letter = command.upper()
        ox, oy = here if relative else (0.0, 0.0)
        if letter == "Z":
            if points:
                found.append(Subpath(points, True))
            points, here, control = [], start, None
            continue
        if letter == "M":
            if len(points) > 1:
                found.append(Subpath(points, False))
            x, y = take(2)
            here = start = (ox + x, oy + y)
            points = [here]
            command = "l" if relative else "L"  # pairs after a moveto are linetos
            control = None
            continue
        if not points:
            points = [here]
        if letter == "L":
            x, y = take(2)
            new = [(ox + x, oy + y)]
        elif letter == "H":
            new = [((ox if relative else 0.0) + take(1)[0], here[1])]
        elif letter == "V":
            new = [(here[0], (oy if relative else 0.0) + take(1)[0])]
        elif letter in "QT":
            if letter == "Q":
                cx, cy = take(2)
                quadratic_control = (ox + cx, oy + cy)
            else:
                quadratic_control = (
                    (2 * here[0] - control[0], 2 * here[1] - control[1]) if control else here
                )
            x, y = take(2)
            new = _quadratic(here, quadratic_control, (ox + x, oy + y))
            points.extend(new)
            here, control = new[-1], quadratic_control
            continue
        else:  # A
            rx, ry, rotation, large, sweep, x, y = take(7)
            new = _arc(here, (rx, ry), rotation, large != 0, sweep != 0, (ox + x, oy + y))
        points.extend(new)
        here, control = new[-1], None
    if len(points) > 1:
        found.append(Subpath(points, False))
    return found


def _numbers(text: str) -> list[float]:
    return [float(v) for v in re.findall(_NUMBER, text)]


def _ellipse(cx: float, cy: float, rx: float, ry: float, steps: int = 48) -> list[Point]:
    return [
        (cx + rx * math.cos(2 * math.pi * k / steps), cy + ry * math.sin(2 * math.pi * k / steps))
        for k in range(steps)
    ]


def _rect(shape: Shape) -> list[Point]:
    x, y = float(shape.get("x", 0)), float(shape.get("y", 0))
    width, height = float(shape["width"]), float(shape["height"])
    r = min(float(shape.get("rx", 0)), width / 2, height / 2)
    if r <= 0:
        return [(x, y), (x + width, y), (x + width, y + height), (x, y + height)]
    corners = (
        (x + width - r, y + r, -90),
        (x + width - r, y + height - r, 0),
        (x + r, y + height - r, 90),
        (x + r, y + r, 180),
    )
    points = []
    for cx, cy, first in corners:
        for k in range(7):
            angle = math.radians(first + 15 * k)
            points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return points


def subpaths(shape: Shape) -> list[Subpath]:
    """A shape's outline, in its own coordinates."""
    tag = shape["tag"]
    if tag == "path":
        return path(shape["d"])
    if tag in ("polyline", "polygon"):
        values = _numbers(shape["points"])
        points = list(zip(values[0::2], values[1::2], strict=True))
        return [Subpath(points, tag == "polygon")]
    if tag == "circle":
        r = float(shape["r"])
        return [Subpath(_ellipse(float(shape["cx"]), float(shape["cy"]), r, r), True)]
    if tag == "rect":
        return [Subpath(_rect(shape), True)]
    raise ValueError(f"palette.json: no drawing for <{tag}>")
