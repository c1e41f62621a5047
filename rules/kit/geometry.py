"""Voronoi cells of points in a rectangle, by half-plane clipping, for drawing generated maps.

Only +, -, * and / in a fixed order are used: they are correctly rounded everywhere (unlike
sin, cos or pow, which libm may round differently, and unlike sum(), compensated since
Python 3.12), so the same sites give the same cells bit for bit on any platform.
"""

from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]

# Borders of a cell are labelled by the site across them, or by a negative frame side.
LEFT, TOP, RIGHT, BOTTOM = -1, -2, -3, -4
FRAME_SIDES = (LEFT, TOP, RIGHT, BOTTOM)

# A vertex of a raw cell: where it is, and the label of the border that starts there.
_Corner = tuple[float, float, int]


def distance2(a: Point, b: Point) -> float:
    """The squared distance; spelled with products because `**` goes through libm's pow."""
    dx, dy = a[0] - b[0], a[1] - b[1]
    return dx * dx + dy * dy


@dataclass(frozen=True, slots=True)
class Cell:
    outline: tuple[Point, ...]
    neighbours: tuple[int, ...]
    frame_sides: tuple[int, ...]


class _SiteGrid:
    """Sites bucketed by position, so that a cell is clipped by its near sites only."""

    def __init__(self, sites: Sequence[Point], bucket: float) -> None:
        self.bucket = bucket
        self.buckets: dict[tuple[int, int], list[int]] = {}
        for index, (x, y) in enumerate(sites):
            self.buckets.setdefault((int(x // bucket), int(y // bucket)), []).append(index)
        self.max_ring = max(max(abs(a), abs(b)) for a, b in self.buckets) + 1

    def ring(self, x: float, y: float, radius: int) -> list[int]:
        bx, by = int(x // self.bucket), int(y // self.bucket)
        found: list[int] = []
        for dy in range(-radius, radius + 1):
            step = 1 if abs(dy) == radius else 2 * radius
            for dx in range(-radius, radius + 1, step):
                found.extend(self.buckets.get((bx + dx, by + dy), ()))
        return found


def _clip(poly: list[_Corner], p: Point, q: Point, label: int) -> list[_Corner]:
    """The part of a convex polygon closer to p than to q; the new border is labelled."""
    nx, ny = q[0] - p[0], q[1] - p[1]
    limit = (nx * (p[0] + q[0]) + ny * (p[1] + q[1])) / 2
    sides = [nx * x + ny * y - limit for x, y, _ in poly]
    if max(sides) <= 0:
        return poly
    clipped: list[_Corner] = []
    count = len(poly)
    for k in range(count):
        x1, y1, border = poly[k]
        x2, y2, _ = poly[(k + 1) % count]
        d1, d2 = sides[k], sides[(k + 1) % count]
        if d1 <= 0:
            clipped.append(poly[k])
            if d2 > 0:
                t = d1 / (d1 - d2)
                clipped.append((x1 + (x2 - x1) * t, y1 + (y2 - y1) * t, label))
        elif d2 <= 0:
            t = d1 / (d1 - d2)
            clipped.append((x1 + (x2 - x1) * t, y1 + (y2 - y1) * t, border))
    return clipped


def _reach(poly: list[_Corner], site: Point) -> float:
    x0, y0 = site
    return max((x - x0) * (x - x0) + (y - y0) * (y - y0) for x, y, _ in poly)


def _raw_cells(
    sites: Sequence[Point], width: float, height: float, spacing: float
) -> list[list[_Corner]]:
    grid = _SiteGrid(sites, spacing)
    cells: list[list[_Corner]] = []
    for index, site in enumerate(sites):
        x0, y0 = site
        poly: list[_Corner] = [(0.0, 0.0, TOP), (width, 0.0, RIGHT), (width, height, BOTTOM)]
        poly.append((0.0, height, LEFT))
        # A site farther than twice the cell's farthest vertex cannot cut the cell.
        reach = _reach(poly, site)
        radius = 0
        while radius <= grid.max_ring:
            near = [(distance2(sites[j], site), j) for j in grid.ring(x0, y0, radius)]
            near.sort()
            for gap, j in near:
                if gap > 4 * reach:
                    break
                if j != index:
                    clipped = _clip(poly, site, sites[j], j)
                    if clipped is not poly:
                        poly, reach = clipped, _reach(clipped, site)
            # Sites beyond this ring are at least `radius` buckets away.
            if radius * spacing * radius * spacing > 4 * reach:
                break
            radius += 1
        cells.append(poly)
    return cells


def centroid(points: Sequence[Point]) -> Point:
    area2 = cx = cy = 0.0
    count = len(points)
    for k in range(count):
        x1, y1 = points[k]
        x2, y2 = points[(k + 1) % count]
        cross = x1 * y2 - x2 * y1
        area2 += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if area2 == 0:
        return points[0]
    return cx / (3 * area2), cy / (3 * area2)


def cell_centroids(
    sites: Sequence[Point], width: float, height: float, spacing: float
) -> list[Point]:
    """The centroid of each site's cell: moving sites there (a Lloyd step) evens out sizes."""
    return [
        centroid([(x, y) for x, y, _ in poly]) for poly in _raw_cells(sites, width, height, spacing)
    ]


def shared_borders(
    sites: Sequence[Point], width: float, height: float, spacing: float
) -> dict[tuple[int, int], tuple[Point, Point]]:
    """The border segment between each pair of neighbouring cells, keyed (lower, higher)."""
    borders: dict[tuple[int, int], tuple[Point, Point]] = {}
    for index, poly in enumerate(_raw_cells(sites, width, height, spacing)):
        for k, (x, y, border) in enumerate(poly):
            if border > index:
                x2, y2, _ = poly[(k + 1) % len(poly)]
                borders[index, border] = ((x, y), (x2, y2))
    return borders


def _vertex_key(index: int, poly: list[_Corner], k: int) -> tuple[int, int, int]:
    """A vertex named by the three sites or frame sides that meet there, the same in every
    cell that has it, so that neighbours draw their common border with identical points."""
    a, b, c = sorted((index, poly[k - 1][2], poly[k][2]))
    return a, b, c


class _Merger:
    """Union-find over vertex keys, to fold a border too short to matter into a point."""

    def __init__(self) -> None:
        self.parent: dict[tuple[int, int, int], tuple[int, int, int]] = {}

    def find(self, key: tuple[int, int, int]) -> tuple[int, int, int]:
        root = key
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        return root

    def union(self, a: tuple[int, int, int], b: tuple[int, int, int]) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _fold_short_borders(
    raw: list[list[_Corner]],
    keyed: list[list[tuple[int, int, int]]],
    where: dict[tuple[int, int, int], Point],
    shortest_border: float,
) -> dict[tuple[int, int, int], Point]:
    """Every vertex's final, rounded place, with the ends of each short border moved to
    one point. Each cell folds its own short borders: near-degenerate sites can make two
    cells disagree on which vertices their border joins."""
    merger = _Merger()
    for poly, keys in zip(raw, keyed, strict=True):
        for k, (_, _, border) in enumerate(poly):
            start, end = keys[k], keys[(k + 1) % len(keys)]
            if (
                border >= 0
                and distance2(where[start], where[end]) < shortest_border * shortest_border
            ):
                merger.union(start, end)
    groups: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
    for key in sorted(merger.parent):
        groups.setdefault(merger.find(key), []).append(key)
    placed = {key: (round(x, 2), round(y, 2)) for key, (x, y) in where.items()}
    for members in groups.values():
        # A point on the frame stays there, so that the coast keeps its straight edges.
        on_frame = [placed[key] for key in members if key[0] < 0]
        spot = on_frame[0] if on_frame else _rounded_mean([where[key] for key in members])
        for key in members:
            placed[key] = spot
    return placed


def _rounded_mean(points: list[Point]) -> Point:
    # A plain loop, not sum(): Python 3.12 made sum() of floats compensated, which would
    # move points between Python versions.
    x = y = 0.0
    for px, py in points:
        x += px
        y += py
    return round(x / len(points), 2), round(y / len(points), 2)


def _area2(ring: Sequence[tuple[Point, int]]) -> float:
    area2 = 0.0
    for (a, _), (b, _) in zip(ring, [*ring[1:], ring[0]], strict=True):
        area2 += a[0] * b[1] - b[0] * a[1]
    return area2


def _simplified(ring: list[tuple[Point, int]]) -> list[tuple[Point, int]]:
    """A ring of (vertex, label of the border starting there) without zero-length borders
    and without the slivers that folding can pinch off when a point comes back twice."""
    while True:
        ring = [
            corner for k, corner in enumerate(ring) if corner[0] != ring[(k + 1) % len(ring)][0]
        ]
        first_seen: dict[Point, int] = {}
        repeat = None
        for k, (point, _) in enumerate(ring):
            if point in first_seen:
                repeat = first_seen[point], k
                break
            first_seen[point] = k
        if repeat is None:
            return ring
        i, j = repeat
        loop, rest = ring[i:j], ring[j:] + ring[:i]
        ring = rest if abs(_area2(loop)) <= abs(_area2(rest)) else loop


def voronoi_cells(
    sites: Sequence[Point], width: float, height: float, spacing: float, shortest_border: float
) -> list[Cell]:
    """Cells clipped to [0, width] x [0, height], outlines rounded to 2 decimals.

    Two cells are neighbours when they share a border at least `shortest_border` long;
    shorter borders are folded into a point, so that the drawing never shows a border
    that the rules ignore.
    """
    raw = _raw_cells(sites, width, height, spacing)
    keyed: list[list[tuple[int, int, int]]] = []
    where: dict[tuple[int, int, int], Point] = {}
    for index, poly in enumerate(raw):
        keys = [_vertex_key(index, poly, k) for k in range(len(poly))]
        for key, (x, y, _) in zip(keys, poly, strict=True):
            where.setdefault(key, (x, y))
        keyed.append(keys)

    placed = _fold_short_borders(raw, keyed, where, shortest_border)
    borders: list[set[int]] = [set() for _ in sites]
    cells_points: list[tuple[Point, ...]] = []
    frames: list[tuple[int, ...]] = []
    for index, (poly, keys) in enumerate(zip(raw, keyed, strict=True)):
        corners = zip(keys, poly, strict=True)
        ring = _simplified([(placed[key], border) for key, (_, _, border) in corners])
        borders[index].update(border for _, border in ring if border >= 0)
        frames.append(tuple(sorted({border for _, border in ring if border < 0}, reverse=True)))
        cells_points.append(tuple(point for point, _ in ring))
    return [
        Cell(
            outline=cells_points[index],
            # Both sides must see the border; a one-sided sliver is a rounding artefact.
            neighbours=tuple(sorted(j for j in borders[index] if index in borders[j])),
            frame_sides=frames[index],
        )
        for index in range(len(sites))
    ]
