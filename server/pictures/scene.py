"""What a map picture shows, and where things go on it: render.js's `view`, and its
geometry (the frame, armies' anchors, and the routes of orders, overseas ones around the
edge of the map), in drawing units."""

import math
from typing import NamedTuple

import msgspec

from rules.skirmish.board import GameMap, Territory
from rules.skirmish.turn import Death, OrderReport
from schema.game_events import RecordedPosition
from server.pictures.geometry import Point
from server.pictures.palette import RGB, Shades, layout

Segment = tuple[Point, Point]
_UNKNOWN_LOOK = (17, 1)  # as render.js's lookOf() for a player it does not know


class Scene(msgspec.Struct, frozen=True):
    """The map (with outlines), a board, the players' looks (player -> [colour, pattern]),
    and the orders and deaths of the turn that led to the board, if any, with the effect
    that was in force for them."""

    map: GameMap
    board: RecordedPosition
    looks: dict[str, tuple[int, int]]
    orders: list[OrderReport]
    dead: list[Death]
    effect: str | None


class Frame(NamedTuple):
    left: float
    top: float
    width: float
    height: float


def frame(game_map: GameMap) -> Frame:
    """The drawn part of the plane, as render.js's geometry(map).box."""
    points = [p for t in game_map.territories for p in (t.outline or ((t.x, t.y),))]
    pad = layout("pad")
    left, top = min(x for x, _ in points) - pad, min(y for _, y in points) - pad
    right, bottom = max(x for x, _ in points) + pad, max(y for _, y in points) + pad
    return Frame(left, top, right - left, bottom - top)


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


class Plan:
    """The scene's geometry, as render.js's geometry(), anchor(), wrapEnds() and route()."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.box = frame(scene.map)
        self.territories = {t.id: t for t in scene.map.territories}
        land = {_pair(a, b) for a, b in scene.map.edges}
        # Over the sea only: drawn around the edge of the map, not across it.
        self.overseas = {_pair(a, b) for a, b in scene.map.overseas} - land

    def look(self, player: str) -> tuple[int, int]:
        return self.scene.looks.get(player, _UNKNOWN_LOOK)

    def color(self, player: str) -> RGB:
        return Shades(self.look(player)[0]).base

    def controller(self, territory: str) -> str | None:
        board = self.scene.board
        return board.control.get(territory, board.armies.get(territory))

    def anchor(self, t: Territory) -> Point:
        """Where the army stands."""
        return t.x, t.y + layout("army_drop")

    def wrap_ends(self, a: Territory, b: Territory) -> Segment:
        """Where a line from a to b over the sea leaves the map and where it comes back."""
        (ax, ay), (bx, by) = self.anchor(a), self.anchor(b)
        box, inset = self.box, layout("pad") / 3
        if abs(ax - bx) >= abs(ay - by):
            left, right = box.left + inset, box.left + box.width - inset
            return ((left, ay), (right, by)) if ax <= bx else ((right, ay), (left, by))
        top, bottom = box.top + inset, box.top + box.height - inset
        return ((ax, top), (bx, bottom)) if ay <= by else ((ax, bottom), (bx, top))

    def is_overseas(self, a: str, b: str) -> bool:
        return _pair(a, b) in self.overseas

    def route(self, start: str | None, end: str | None) -> list[Segment] | None:
        """A line from territory to territory: one segment, or two around the edge."""
        a = self.territories.get(start or "")
        b = self.territories.get(end or "")
        if a is None or b is None:
            return None
        if self.is_overseas(a.id, b.id):
            out, back = self.wrap_ends(a, b)
            return [(self.anchor(a), out), (back, self.anchor(b))]
        return [(self.anchor(a), self.anchor(b))]


def shorten(segment: Segment, start: float, end: float) -> Segment:
    (px, py), (qx, qy) = segment
    length = math.hypot(qx - px, qy - py) or 1.0
    ux, uy = (qx - px) / length, (qy - py) / length
    return (px + ux * start, py + uy * start), (qx - ux * end, qy - uy * end)


def icon_x(t: Territory) -> float:
    """Where a territory's barracks or farm icon goes: right of its label."""
    return t.x + 5.5 * len(t.id) + 6
