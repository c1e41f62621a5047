"""Generated maps for 3 to 20 players, deterministic from a seed (rules.md, "Generated maps").

How a map is made:
1. Sites (rules.kit.maplayout): three per home in a tight cluster around anchors spread over
   the frame, a separator between each two neighbouring anchors, filling in the gaps.
   Their Voronoi cells are the territories; cells sharing a border are adjacent.
2. A few filling cells on the frame, mostly near the corners, become sea, so that the
   coast is not a plain rectangle.
3. Overseas links join coastal cells on opposite sides of the frame, never two homes.
4. Two barracks per home; the extra barracks as far as possible from every other one.
5. Syllable names and two-letter ids (rules.skirmish.mapnames).
An attempt whose homes touch or fall apart (rare) is thrown away for the next one.
"""

from typing import Literal

from rules.kit.geometry import (
    BOTTOM,
    FRAME_SIDES,
    LEFT,
    RIGHT,
    TOP,
    Cell,
    centroid,
    distance2,
    voronoi_cells,
)
from rules.kit.mapgraph import Home, homes_hold, is_connected, spread_barracks
from rules.kit.maplayout import SPACING, layout
from rules.kit.prng import SeededRandom
from rules.skirmish.board import GameMap, Territory
from rules.skirmish.mapnames import territory_ids, territory_names

MapType = Literal["normal", "spacious"]
MIN_PLAYERS, MAX_PLAYERS = 3, 20

_TERRITORIES_PER_PLAYER: dict[str, int] = {"normal": 6, "spacious": 9}
_SHORTEST_BORDER = 0.15 * SPACING
_SEA_SHARE = 1 / 12
_ATTEMPTS = 20


class MapGenerationError(ValueError):
    """A map that cannot be generated with the arguments given; the message says why."""


def barracks_count(players: int, map_type: MapType) -> int:
    """About 2.5 barracks per player on normal maps (halves rounded up), 3 on spacious."""
    return (5 * players + 1) // 2 if map_type == "normal" else 3 * players


def generate(players: int, map_type: MapType, seed: int) -> GameMap:
    """A map for `players` players; the same arguments always give the same map."""
    if map_type not in _TERRITORIES_PER_PLAYER:
        raise MapGenerationError(f"unknown map type {map_type!r}: use 'normal' or 'spacious'")
    if isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MapGenerationError(
            f"a generated map is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    master = SeededRandom(seed)
    for _ in range(_ATTEMPTS):
        game_map = _attempt(players, map_type, seed, master.fork())
        if game_map is not None:
            return game_map
    raise MapGenerationError(f"no map for {players} players came out of seed {seed}")


def _attempt(players: int, map_type: MapType, seed: int, rng: SeededRandom) -> GameMap | None:
    count = _TERRITORIES_PER_PLAYER[map_type] * players
    sea = max(1, round(count * _SEA_SHARE))
    plan = layout(players, count + sea, rng.fork())
    if len(set(plan.sites)) < len(plan.sites):
        return None  # two sites on one spot (clamped into a corner) would share one cell
    cells = voronoi_cells(plan.sites, plan.width, plan.height, SPACING, _SHORTEST_BORDER)
    land = _carve_coast(cells, plan.width, plan.height, sea, plan.first_filler, rng.fork())
    renumber = {cell: index for index, cell in enumerate(land)}
    land_cells = [cells[c] for c in land]
    adjacency = [
        tuple(renumber[n] for n in cell.neighbours if n in renumber) for cell in land_cells
    ]
    homes = [(renumber[a], renumber[b], renumber[c]) for a, b, c in plan.homes]
    # Sites too close together can fold a cell away or cut the land; so can homes touch.
    if any(len(cell.outline) < 3 for cell in land_cells) or not homes_hold(adjacency, homes):
        return None
    if not is_connected(adjacency, range(len(land))):
        return None
    # Anchors come row by row; shuffled, the first player is not always top left.
    homes = rng.fork().shuffled(homes)
    home_of = {t: player for player, home in enumerate(homes) for t in home}
    overseas = _overseas_links(land_cells, adjacency, home_of, 2 + players // 5, rng.fork())
    linked = [list(near) for near in adjacency]
    for a, b in overseas:
        linked[a].append(b)
        linked[b].append(a)
    full = [tuple(sorted(near)) for near in linked]
    barracks_rng = rng.fork()
    barracks = [t for home in homes for t in _home_barracks(home, barracks_rng)]
    extra = barracks_count(players, map_type) - len(barracks)
    barracks += spread_barracks(full, sorted(home_of), barracks, extra, barracks_rng)
    return _assemble(
        players, map_type, seed, land_cells, adjacency, overseas, homes, set(barracks), rng.fork()
    )


def _carve_coast(
    cells: list[Cell], width: float, height: float, sea: int, first_filler: int, rng: SeededRandom
) -> list[int]:
    """The cells that stay land once `sea` filling cells on the frame, mostly near the
    corners, are gone."""
    land = list(range(len(cells)))
    adjacency = [cell.neighbours for cell in cells]

    def remoteness(index: int) -> float:
        """Squared distance from the middle, the frame's half-sizes counting as 1."""
        x, y = centroid(cells[index].outline)
        return distance2((2 * x / width, 2 * y / height), (1.0, 1.0)) + rng.uniform(0, 0.8)

    coastal = sorted(
        (c for c in range(first_filler, len(cells)) if cells[c].frame_sides),
        key=lambda c: (-remoteness(c), c),
    )
    for cell in coastal:
        if sea == 0:
            break
        rest = [c for c in land if c != cell]
        # Keep every side of the frame on the map, with room for an overseas link.
        sides_kept = all(
            sum(side in cells[c].frame_sides for c in rest) >= 2 for side in FRAME_SIDES
        )
        if sides_kept and is_connected(adjacency, rest):
            land = rest
            sea -= 1
    return land


def _overseas_links(
    cells: list[Cell],
    adjacency: list[tuple[int, ...]],
    home_of: dict[int, int],
    count: int,
    rng: SeededRandom,
) -> list[tuple[int, int]]:
    """Links across the sea between cells on opposite sides of the frame, at most one per
    cell, at spread-out places along the sides, never doubling a land border nor joining
    two homes."""
    centres = [centroid(cell.outline) for cell in cells]
    linked: set[int] = set()
    links: list[tuple[int, int]] = []
    across = [(LEFT, RIGHT, 1), (TOP, BOTTOM, 0)]
    if rng.below(2):
        across.reverse()
    for number in range(count):
        near_side, far_side, axis = across[number % 2]
        # Stratified along the side, so that links of one kind do not bunch up.
        per_kind = (count - number % 2 + 1) // 2
        slot = (number // 2 + rng.uniform(0.2, 0.8)) / per_kind
        along = [centre[axis] for centre in centres]
        span = max(along) - min(along)
        target = min(along) + slot * span

        near_cells, far_cells = (
            sorted(
                (c for c in range(len(cells)) if side in cells[c].frame_sides),
                key=lambda c: (abs(along[c] - target), c),
            )
            for side in (near_side, far_side)
        )
        pair = next(
            (
                (a, b)
                for a in near_cells
                for b in far_cells
                if a not in linked
                and b not in linked
                and b not in adjacency[a]
                and (a not in home_of or b not in home_of)
            ),
            None,
        )
        if pair is not None:
            links.append(pair)
            linked.update(pair)
    return links


def _home_barracks(home: Home, rng: SeededRandom) -> list[int]:
    """Two of the three home territories, chosen by the seed."""
    skipped = rng.below(3)
    return [t for position, t in enumerate(home) if position != skipped]


def _assemble(
    players: int,
    map_type: MapType,
    seed: int,
    cells: list[Cell],
    adjacency: list[tuple[int, ...]],
    overseas: list[tuple[int, int]],
    homes: list[Home],
    barracks: set[int],
    rng: SeededRandom,
) -> GameMap:
    names = territory_names(len(cells), rng)
    ids = territory_ids(names)
    territories = []
    for index, cell in enumerate(cells):
        x, y = centroid(cell.outline)
        territories.append(
            Territory(
                id=ids[index],
                name=names[index],
                barracks=index in barracks,
                x=round(x, 2),
                y=round(y, 2),
                outline=cell.outline,
            )
        )
    territories.sort(key=lambda t: t.id)

    def pair(a: int, b: int) -> tuple[str, str]:
        first, second = sorted((ids[a], ids[b]))
        return first, second

    edges = sorted({pair(a, b) for a, near in enumerate(adjacency) for b in near if a < b})
    return GameMap(
        name=f"generated-{map_type}-{players}p-s{seed}",
        description=(
            f"Generated {map_type} map for {players} players from seed {seed}: "
            f"{len(cells)} territories, {len(barracks)} barracks, "
            f"{len(overseas)} overseas links."
        ),
        territories=tuple(territories),
        edges=tuple(edges),
        overseas=tuple(sorted(pair(a, b) for a, b in overseas)),
        homes=tuple(tuple(sorted(ids[t] for t in home)) for home in homes),
    )
