"""The Art of War's picture (docs/art-of-war.md, "The map picture"): every territory in its
owner's colour (independents grey) with its units, the last turn's orders as arrows with the
units they sent, and a legend of the players' stances. A map with outlines (a generated one)
is drawn as them; a built-in map as a hexagon at each territory's place.

It is drawn from the state between turns, which holds no pending order: those are the
room's, sealed until the turn runs."""

import math
from collections.abc import Mapping

from rules.artofwar.board import Board, Territory
from rules.artofwar.play import Play, play_board
from rules.artofwar.records import ArtOfWarOrderReport
from rules.kit.picture import (
    INK,
    WHITE,
    Line,
    Look,
    Picture,
    Point,
    Polygon,
    Shape,
    Text,
    colors,
    legend_row,
    regular,
    shortened,
)

WIDTH = 1000  # pixels, at most, as the map's height
HEIGHT = 680
NARROWEST = 640  # for the legend's words
MARGIN = 40
SEA = "#a8d0dc"
INDEPENDENT = "#c8c8c8"
BORDER = "#5d5244"
LINK = "#5d5244"
ROW = 24  # a legend row, in pixels
LARGEST_HEXAGON = 34
# Orders that moved nothing are not drawn; those that ran but failed are faded.
_NOT_DRAWN = frozenset({"invalid", "replaced", "not_run"})
_SUCCEEDED = frozenset({"transferred", "conquered"})


class _Frame:
    """Where the map's drawing units land in the picture's pixels."""

    def __init__(self, board: Board) -> None:
        territories = list(board.territories.values())
        points = [p for t in territories for p in _outline(t) or [_centre(t)]]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        self.left, self.top = min(xs), min(ys)
        width, height = max(xs) - self.left or 1.0, max(ys) - self.top or 1.0
        self.scale = min((WIDTH - 2 * MARGIN) / width, (HEIGHT - 2 * MARGIN) / height)
        self.width = max(NARROWEST, math.ceil(width * self.scale) + 2 * MARGIN)
        self.height = math.ceil(height * self.scale) + 2 * MARGIN
        centres = [self.at(_centre(t)) for t in territories]
        nearest = min(
            (math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1 :]),
            default=2 * LARGEST_HEXAGON / 0.45,
        )
        self.radius = min(LARGEST_HEXAGON, 0.45 * nearest)

    def at(self, point: Point) -> Point:
        return (
            MARGIN + (point[0] - self.left) * self.scale,
            MARGIN + (point[1] - self.top) * self.scale,
        )


def _centre(t: Territory) -> Point:
    return (t.x or 0.0, t.y or 0.0)


def _outline(t: Territory) -> list[Point] | None:
    return list(t.outline) if t.outline and len(t.outline) >= 3 else None


def picture(play: Play, looks: Mapping[str, Look]) -> Picture:
    board = play_board(play)
    frame = _Frame(board)
    position = play.position
    color = colors(looks, INDEPENDENT)
    shapes: list[Shape] = []
    shapes += _borders(board, frame)
    for t in board.territories.values():
        outline = _outline(t)
        points = (
            [frame.at(p) for p in outline]
            if outline
            else regular(frame.at(_centre(t)), frame.radius, 6)
        )
        shapes.append(Polygon(points, color(position.owners.get(t.id)), BORDER, 1.5))
    for order in play.last_orders:
        shapes += _arrow(order, board, frame, color(order.player))
    for t in board.territories.values():
        x, y = frame.at(_centre(t))
        shapes.append(Text((x, y - 3), t.id, 12))
        shapes.append(Text((x, y + 13), str(position.units.get(t.id, 0)), 15))
    height = frame.height + ROW * (len(play.seats) + 3)
    shapes += _legend(play, looks, frame)
    return Picture(frame.width, height, SEA, shapes)


def _route(frame: _Frame, a: Territory, b: Territory) -> list[tuple[Point, Point]]:
    """From a's centre to b's: straight, or for a border across more than half the map
    (Alaska to Kamchatka) out at one side and in at the other, as round the globe."""
    p, q = frame.at(_centre(a)), frame.at(_centre(b))
    if abs(p[0] - q[0]) <= frame.width / 2:
        return [(p, q)]
    out, into = (0.0, float(frame.width)) if p[0] < q[0] else (float(frame.width), 0.0)
    return [(p, (out, p[1])), ((into, q[1]), q)]


def _borders(board: Board, frame: _Frame) -> list[Shape]:
    """Each border as a line between the territories' centres (dashed round the globe)."""
    lines: list[Shape] = []
    for a, neighbours in sorted(board.neighbours.items()):
        for b in sorted(n for n in neighbours if n > a):
            route = _route(frame, board.territories[a], board.territories[b])
            for p, q in route:
                lines.append(Line([p, q], LINK, 2.0, dashed=len(route) > 1))
    return lines


def _arrow(order: ArtOfWarOrderReport, board: Board, frame: _Frame, color: str) -> list[Shape]:
    """A transfer or an attack: from its territory to its target, with the units sent."""
    if order.kind not in ("transfer", "attack") or order.result in _NOT_DRAWN:
        return []
    source, target = (
        board.territories.get(order.source or ""),
        board.territories.get(order.target or ""),
    )
    if source is None or target is None:
        return []
    route = _route(frame, source, target)
    last, cut = len(route) - 1, frame.radius * 0.55
    opacity = 1.0 if order.result in _SUCCEEDED else 0.45
    shapes: list[Shape] = []
    for k, (p, q) in enumerate(route):
        start, end = shortened(p, q, cut if k == 0 else 0, cut if k == last else 0)
        shapes.append(Line([start, end], color, 4.0, k == last, opacity=opacity, outline=INK))
    start, end = route[0]
    middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2 + 5)
    return [*shapes, Text(middle, str(order.sent or 0), 14, color=INK)]


def _legend(play: Play, looks: Mapping[str, Look], frame: _Frame) -> list[Shape]:
    position, top = play.position, frame.height
    shapes: list[Shape] = [Polygon(_box(top, frame.width, ROW * (len(play.seats) + 3)), WHITE)]
    heading = f"Turn {position.turn}"
    if play.ending is not None:
        heading += f": ended by {play.ending.by}"
    shapes.append(Text((MARGIN, top + ROW), heading, 15, anchor="start"))
    y = top + 2 * ROW
    for seat in play.seats:
        look = looks.get(seat, Look(seat, INDEPENDENT))
        player = position.players[seat]
        held = [t for t, owner in position.owners.items() if owner == seat]
        units = sum(position.units.get(t, 0) for t in held)
        status = "eliminated" if player.status == "eliminated" else player.stance.describe()
        if seat in play.resigned:
            status += ", resigned"
        lands = f"{len(held)} territor{'y' if len(held) == 1 else 'ies'}"
        words = f"{look.name} ({seat}): {status}; {lands}, {units} units"
        shapes += legend_row((MARGIN, y), look.color, words)
        y += ROW
    shapes += legend_row((MARGIN, y), INDEPENDENT, "independent")
    return shapes


def _box(top: float, width: float, height: float) -> list[Point]:
    return [(0.0, top), (width, top), (width, top + height), (0.0, top + height)]
