"""Outlines for maps that have none, so that every map can be drawn (the web pages).

Generated maps come with their Voronoi outlines. The built-in maps do not: `rulebook` has
only x/y layout hints, and `diplomacy-land` (written from the `diplomacy` package, and
checked against it byte for byte) has no coordinates at all; its sites come from a table
below, and any other map without coordinates gets a spring layout of its graph.

From the sites, the territories are the Voronoi cells of rules.kit.geometry, fitted to the map's
adjacency: the frame is lined with sea sites; a border between two territories that are not
adjacent gets a sea site in its middle (the sea that separates them); two adjacent
territories whose cells do not touch are moved a little towards each other. A few rounds of
that give a drawing whose borders are the map's edges, or nearly so; whatever is left over
is only a drawing matter, never a rule (the rules read `edges` and `overseas`).

Pure and deterministic: only +, -, *, / and sqrt (all correctly rounded), in a fixed order,
as in rules.kit.geometry, so the same map gives the same outlines bit for bit anywhere.
"""

from collections.abc import Sequence
from functools import cache
from math import sqrt

import msgspec

from rules.kit.geometry import Point, centroid, distance2, shared_borders, voronoi_cells
from rules.skirmish.board import GameMap
from rules.skirmish.maps import builtin_map

SPACING = 100.0  # drawing units between neighbouring territories, as on generated maps
_SHORTEST_BORDER = 0.15 * SPACING
_MARGIN = SPACING  # from the outermost sites to the frame, which is sea
_RING_STEP = 0.5 * SPACING  # between the sea sites that line the frame
_ROUNDS = 40
_STEP = 0.08  # of their distance, that two adjacent territories move towards each other
_CROWDED = 0.3 * SPACING  # no sea site closer than this to another site

# Where the land provinces of the standard Diplomacy map lie, roughly (west to east, north
# to south); the map file itself has no coordinates.
DIPLOMACY_LAND_SITES: dict[str, Point] = {
    "CLY": (200, 205), "EDI": (245, 210), "LVP": (205, 270), "YOR": (250, 285),
    "WAL": (190, 335), "LON": (250, 340), "NWY": (520, 60), "SWE": (490, 185),
    "FIN": (600, 175), "STP": (730, 150), "DEN": (450, 265), "BRE": (175, 430),
    "PIC": (270, 400), "PAR": (245, 470), "BUR": (325, 470), "GAS": (205, 545),
    "MAR": (305, 565), "BEL": (325, 375), "HOL": (380, 335), "RUH": (385, 405),
    "KIE": (445, 340), "BER": (510, 330), "MUN": (435, 455), "SIL": (545, 395),
    "PRU": (590, 325), "LVN": (665, 265), "MOS": (800, 300), "WAR": (625, 400),
    "UKR": (730, 420), "SEV": (840, 460), "BOH": (520, 450), "GAL": (645, 465),
    "VIE": (555, 500), "BUD": (630, 525), "TYR": (475, 505), "TRI": (545, 565),
    "PIE": (380, 545), "VEN": (455, 565), "TUS": (440, 620), "ROM": (480, 660),
    "APU": (550, 660), "NAP": (570, 720), "SPA": (150, 630), "POR": (60, 630),
    "NAF": (170, 790), "TUN": (370, 790), "SER": (615, 595), "ALB": (590, 650),
    "GRE": (625, 710), "BUL": (680, 625), "RUM": (705, 545), "CON": (760, 665),
    "ANK": (850, 650), "ARM": (960, 650), "SMY": (800, 725), "SYR": (930, 760),
}  # fmt: skip
KNOWN_SITES = {"diplomacy-land": DIPLOMACY_LAND_SITES}


@cache
def drawable_builtin(name: str) -> GameMap:
    """A built-in map with outlines (MapError if there is no such map)."""
    return drawable(builtin_map(name))


def drawable(game_map: GameMap) -> GameMap:
    """The map with an outline for every territory, in the drawing units of generated maps,
    and x/y where its label goes. A map that has outlines already is returned as it is."""
    territories = game_map.territories
    if all(len(t.outline) >= 3 for t in territories):
        return game_map
    ids = [t.id for t in territories]
    index = {tid: k for k, tid in enumerate(ids)}
    edges = sorted({(min(index[a], index[b]), max(index[a], index[b])) for a, b in game_map.edges})
    sites = _normalised(_sites(game_map, edges), edges)
    outlines = _fitted_outlines(sites, edges)
    drawn = []
    for territory, outline in zip(territories, outlines, strict=True):
        x, y = centroid(outline)
        drawn.append(
            msgspec.structs.replace(territory, x=round(x, 2), y=round(y, 2), outline=outline)
        )
    return msgspec.structs.replace(game_map, territories=tuple(drawn))


def _sites(game_map: GameMap, edges: list[tuple[int, int]]) -> list[Point]:
    territories = game_map.territories
    given = [(float(t.x), float(t.y)) for t in territories]
    if any(point != (0.0, 0.0) for point in given) and len(set(given)) == len(given):
        return given
    known = KNOWN_SITES.get(game_map.name, {})
    if all(t.id in known for t in territories):
        return [known[t.id] for t in territories]
    return _spring_layout(len(territories), edges)


def _normalised(sites: list[Point], edges: list[tuple[int, int]]) -> list[Point]:
    """Scaled so that the median edge is SPACING long, and moved inside the margin."""
    lengths = sorted(distance2(sites[a], sites[b]) for a, b in edges)
    median = sqrt(lengths[len(lengths) // 2]) if lengths else 1.0
    scale = SPACING / median if median > 0 else 1.0
    left = min(x for x, _ in sites)
    top = min(y for _, y in sites)
    return [((x - left) * scale + _MARGIN, (y - top) * scale + _MARGIN) for x, y in sites]


def _frame(sites: Sequence[Point]) -> tuple[float, float]:
    return max(x for x, _ in sites) + _MARGIN, max(y for _, y in sites) + _MARGIN


def _ring(width: float, height: float) -> list[Point]:
    """Sea sites along the frame, corners included."""
    ring: list[Point] = []
    for length, place in (
        (width, lambda t: (t, 0.0)),
        (height, lambda t: (width, t)),
        (width, lambda t: (width - t, height)),
        (height, lambda t: (0.0, height - t)),
    ):
        steps = max(1, int(length / _RING_STEP + 0.5))
        ring.extend(place(length * k / steps) for k in range(steps))
    return ring


def _fitted_outlines(land: list[Point], edges: list[tuple[int, int]]) -> list[tuple[Point, ...]]:
    count = len(land)
    land = list(land)
    width, height = _frame(land)
    sea = _ring(width, height)
    ring_size = len(sea)
    wanted = set(edges)
    best: tuple[int, list[tuple[Point, ...]]] | None = None
    for _ in range(_ROUNDS):
        sites = land + sea
        cells = voronoi_cells(sites, width, height, SPACING, _SHORTEST_BORDER)
        found = {(i, j) for i in range(count) for j in cells[i].neighbours if i < j < count}
        false = sorted(found - wanted)
        missing = sorted(wanted - found)
        misfit = len(false) + len(missing)
        if best is None or misfit < best[0]:
            best = misfit, [cells[i].outline for i in range(count)]
        if misfit == 0:
            break
        borders = shared_borders(sites, width, height, SPACING)
        for i, j in false:
            start, end = borders.get((i, j), (land[i], land[j]))
            middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
            if min(distance2(middle, s) for s in land + sea) > _CROWDED * _CROWDED:
                sea.append(middle)
            else:
                _move(land, i, j, -_STEP)
        for i, j in missing:
            _move(land, i, j, _STEP)
            # A sea site between two neighbours is in the way: the sea is elsewhere.
            middle = ((land[i][0] + land[j][0]) / 2, (land[i][1] + land[j][1]) / 2)
            reach = distance2(land[i], land[j]) / 9
            sea = [s for k, s in enumerate(sea) if k < ring_size or distance2(s, middle) > reach]
    assert best is not None
    return best[1]


def _move(land: list[Point], i: int, j: int, share: float) -> None:
    """Move i and j towards each other (share > 0) or apart, each by share of the gap."""
    (xi, yi), (xj, yj) = land[i], land[j]
    dx, dy = (xj - xi) * share, (yj - yi) * share
    land[i] = (xi + dx, yi + dy)
    land[j] = (xj - dx, yj - dy)


def _spring_layout(count: int, edges: list[tuple[int, int]]) -> list[Point]:
    """A force-directed layout of the graph (Fruchterman-Reingold), from a grid in
    breadth-first order, for maps that come without any coordinates."""
    neighbours: list[list[int]] = [[] for _ in range(count)]
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    order: list[int] = []
    seen = [False] * count
    for start in range(count):
        if seen[start]:
            continue
        seen[start] = True
        queue = [start]
        while queue:
            here = queue.pop(0)
            order.append(here)
            for there in sorted(neighbours[here]):
                if not seen[there]:
                    seen[there] = True
                    queue.append(there)
    side = 1
    while side * side < count:
        side += 1
    points: list[Point] = [(0.0, 0.0)] * count
    for rank, node in enumerate(order):
        row, column = divmod(rank, side)
        points[node] = (column + 0.5 * (row % 2), float(row))
    ideal = 1.0
    temperature = side / 4
    for _ in range(200):
        moves = [(0.0, 0.0)] * count
        for a in range(count):
            fx = fy = 0.0
            ax, ay = points[a]
            for b in range(count):
                if a != b:
                    dx, dy = ax - points[b][0], ay - points[b][1]
                    d2 = dx * dx + dy * dy or 1e-9
                    fx += dx * ideal * ideal / d2
                    fy += dy * ideal * ideal / d2
            for b in neighbours[a]:
                dx, dy = ax - points[b][0], ay - points[b][1]
                d = sqrt(dx * dx + dy * dy)
                fx -= dx * d / ideal
                fy -= dy * d / ideal
            moves[a] = (fx, fy)
        for a, (fx, fy) in enumerate(moves):
            length = sqrt(fx * fx + fy * fy)
            if length > 0:
                step = min(length, temperature) / length
                points[a] = (points[a][0] + fx * step, points[a][1] + fy * step)
        temperature *= 0.98
    return points
