"""Where the sites (future territories) of a generated map go.

Homes come first, as tight clusters of three sites around anchors spread over the frame.
A separator site sits on each border between two anchors' regions, where the two homes
come closest, so that no two homes touch. The remaining sites fill the largest gaps and
are then evened out.

A uniform scatter would not do: on a map where every cell has about six neighbours, homes
of three that never touch need about seven territories per player, and a normal map has
six. Small home cells and larger separators make the room.
"""

from dataclasses import dataclass
from math import sqrt

from rules.kit.geometry import Point, cell_centroids, distance2, shared_borders
from rules.kit.prng import SeededRandom

SPACING = 100.0  # average distance between neighbouring sites, in drawing units
_ROW_HEIGHT = sqrt(3) / 2  # rows of a hexagonal grid, as a share of the spacing
_HOME_RADIUS = 0.42 * SPACING  # of a home's three sites from its anchor
_SEPARATOR_JITTER = 0.08 * SPACING
_FILL_JITTER = 0.3  # of the local spacing
_ANCHOR_JITTER = 0.12  # of the distance between anchors
_ANCHOR_RELAXATION = 2  # Lloyd steps that even out the distances between homes
_HOME_RADIUS_SHARE = 0.22  # at most, of the distance to the nearest other anchor


@dataclass(frozen=True, slots=True)
class Layout:
    sites: list[Point]
    width: float
    height: float
    # Indices into sites, one triple per player.
    homes: list[tuple[int, int, int]]
    # Sites from this index on are filling, free to become sea.
    first_filler: int


def _staggered(
    count: int, width: float, height: float, jitter: float, rng: SeededRandom
) -> list[Point]:
    """`count` points in offset rows, like a hexagonal grid, each moved at random by up to
    `jitter` of the local spacing."""
    rows = max(1, round(sqrt(count * height / (width * _ROW_HEIGHT))))
    rows = min(rows, count)
    per_row = [count // rows] * rows
    for row in rng.sample(range(rows), count % rows):
        per_row[row] += 1
    row_height = height / rows
    points: list[Point] = []
    for row, in_row in enumerate(per_row):
        step = width / in_row
        stagger = 0.25 if row % 2 else -0.25
        for column in range(in_row):
            x = (column + 0.5 + stagger + rng.uniform(-jitter, jitter)) * step
            y = (row + 0.5 + rng.uniform(-jitter, jitter)) * row_height
            points.append((min(max(x, 1.0), width - 1.0), min(max(y, 1.0), height - 1.0)))
    return points


def _unit_vector(rng: SeededRandom) -> Point:
    # Rejection sampling instead of sin/cos, whose last bit may differ between platforms.
    while True:
        x, y = rng.uniform(-1, 1), rng.uniform(-1, 1)
        length = sqrt(x * x + y * y)
        if 0.1 < length <= 1:
            return x / length, y / length


def _home_sites(
    anchor: Point, radius: float, width: float, height: float, rng: SeededRandom
) -> list[Point]:
    """Three sites in a small triangle, turned at random, around the anchor."""
    dx, dy = _unit_vector(rng)
    sites: list[Point] = []
    for _ in range(3):
        x, y = anchor[0] + radius * dx, anchor[1] + radius * dy
        sites.append((min(max(x, 1.0), width - 1.0), min(max(y, 1.0), height - 1.0)))
        # A third of a turn: cos 120 degrees = -1/2, sin 120 degrees = sqrt(3)/2.
        dx, dy = -0.5 * dx - _ROW_HEIGHT * dy, _ROW_HEIGHT * dx - 0.5 * dy
    return sites


def _midpoint(a: Point, b: Point) -> Point:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def _nearest_on_segment(point: Point, segment: tuple[Point, Point]) -> Point:
    """Where two homes come closest is where their anchors' midpoint falls on the border."""
    (x1, y1), (x2, y2) = segment
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return x1, y1
    t = ((point[0] - x1) * dx + (point[1] - y1) * dy) / length2
    t = min(max(t, 0.0), 1.0)
    return x1 + t * dx, y1 + t * dy


def _farthest_first(fixed: list[Point], pool: list[Point], count: int) -> list[Point]:
    """`count` pool points, each the one farthest from every site chosen so far."""
    gap = [min(distance2(point, site) for site in fixed) for point in pool]
    chosen: list[Point] = []
    for _ in range(count):
        best = max(range(len(pool)), key=lambda k: (gap[k], -k))
        bx, by = pool[best]
        chosen.append((bx, by))
        # Spelled out rather than calling distance2: this loop is the layout's hot spot.
        gap = [
            min(g, (x - bx) * (x - bx) + (y - by) * (y - by))
            for g, (x, y) in zip(gap, pool, strict=True)
        ]
    return chosen


def layout(players: int, total: int, rng: SeededRandom) -> Layout:
    """`total` sites, `players` homes among them, in a frame of about `total` cells' area."""
    aspect = rng.uniform(1.2, 1.6)
    height = SPACING * sqrt(_ROW_HEIGHT * total / aspect)
    width = aspect * height
    anchors = _staggered(players, width, height, _ANCHOR_JITTER, rng)
    for _ in range(_ANCHOR_RELAXATION):
        anchors = cell_centroids(anchors, width, height, width)
    sites: list[Point] = []
    homes: list[tuple[int, int, int]] = []
    for index, anchor in enumerate(anchors):
        # Separators stay nearer to the border between two homes than their sites only
        # while the sites keep close to their anchor compared to the next anchor.
        nearest = sqrt(
            min(distance2(anchor, other) for k, other in enumerate(anchors) if k != index)
        )
        radius = min(_HOME_RADIUS, _HOME_RADIUS_SHARE * nearest)
        homes.append((len(sites), len(sites) + 1, len(sites) + 2))
        sites.extend(_home_sites(anchor, radius, width, height, rng))
    borders = shared_borders(anchors, width, height, width)
    for (a, b), border in sorted(borders.items()):
        x, y = _nearest_on_segment(_midpoint(anchors[a], anchors[b]), border)
        x += rng.uniform(-_SEPARATOR_JITTER, _SEPARATOR_JITTER)
        y += rng.uniform(-_SEPARATOR_JITTER, _SEPARATOR_JITTER)
        sites.append((min(max(x, 1.0), width - 1.0), min(max(y, 1.0), height - 1.0)))
    first_filler = len(sites)
    pool = _staggered(total, width, height, _FILL_JITTER, rng)
    sites += _farthest_first(sites, pool, total - len(sites))
    # One Lloyd step for the filling only: homes and separators must stay where they are.
    centroids = cell_centroids(sites, width, height, SPACING)
    sites[first_filler:] = centroids[first_filler:]
    return Layout(sites, width, height, homes, first_filler)
