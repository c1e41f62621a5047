"""Skor's 40-hex board (docs/skor.md, "Board"): flat-topped hexes in axial coordinates, two
territories of 19 hexes named T0…T18 around their Cities, and the connecting hexes X1, X2."""

from collections.abc import Mapping

Coord = tuple[int, int]

# dir(k) for the sides k = 1…6, clockwise from the top; index k - 1.
DIRECTIONS: tuple[Coord, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def direction(k: int) -> Coord:
    """dir(k) for any integer k (k and k + 6 are the same side)."""
    return DIRECTIONS[(k - 1) % 6]


def _add(a: Coord, b: Coord) -> Coord:
    return a[0] + b[0], a[1] + b[1]


def _offset(index: int) -> Coord:
    """Where Ti lies from its territory's centre."""
    if index == 0:
        return 0, 0
    if index <= 6:
        return direction(index)
    k, edge = divmod(index - 7, 2)
    if edge:
        return _add(direction(k + 1), direction(k + 2))
    first = direction(k + 1)
    return 2 * first[0], 2 * first[1]


OFFSETS: tuple[Coord, ...] = tuple(_offset(i) for i in range(19))
CENTRES: Mapping[str, Coord] = {"A": (0, 0), "B": (6, -3)}
CONNECTING: Mapping[str, Coord] = {"X1": (3, -2), "X2": (3, -1)}
# The local side of each territory that faces the other one.
FACING: Mapping[str, int] = {"A": 2, "B": 5}


def _canonical() -> dict[str, Coord]:
    names: dict[str, Coord] = {}
    for i in range(19):
        names[f"A{i}"] = _add(CENTRES["A"], OFFSETS[i])
    names.update(CONNECTING)
    for i in range(19):
        names[f"B{i}"] = _add(CENTRES["B"], OFFSETS[i])
    return names


# Every hex, in the canonical order A0…A18, X1, X2, B0…B18.
COORDS: Mapping[str, Coord] = _canonical()
HEXES: tuple[str, ...] = tuple(COORDS)
ORDER: Mapping[str, int] = {name: i for i, name in enumerate(HEXES)}
_BY_COORD: Mapping[Coord, str] = {coord: name for name, coord in COORDS.items()}
NEIGHBOURS: Mapping[str, tuple[str, ...]] = {
    name: tuple(_BY_COORD[_add(coord, d)] for d in DIRECTIONS if _add(coord, d) in _BY_COORD)
    for name, coord in COORDS.items()
}


def distance(a: str, b: str) -> int:
    """Steps between two hexes, ignoring what stands on the board."""
    (q1, r1), (q2, r2) = COORDS[a], COORDS[b]
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def territory_of(name: str) -> str | None:
    """ "A", "B", or None for X1 and X2."""
    return None if name in CONNECTING else name[0]


def rotated(index: int, steps: int) -> int:
    """The name index of Ti after turning its territory `steps` times clockwise."""
    if index == 0:
        return 0
    if index <= 6:
        return (index - 1 + steps) % 6 + 1
    return 7 + (index - 7 + 2 * steps) % 12


def local_destination(first: int, second: int) -> int:
    """The local index of the hex a terrain roll (first, second) names; 0 is the City."""
    target = _add(direction(first), direction(second))
    return OFFSETS.index(target)
