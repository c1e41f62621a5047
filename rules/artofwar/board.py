"""An Art of War map: territories with a population, and undirected borders between them."""

import re
from typing import Any

import msgspec

MAX_TERRITORIES = 1000
MAX_POPULATION = 11  # so that a starting territory has 12 - population >= 1 units (P2)
# Words of the order text (§3.6) that a name may not contain, or orders could not be read.
ORDER_WORDS = frozenset({"to", "hold", "h", "place"})
_BAD_CHARACTERS = re.compile(r"[,>\n\r]")


class MapError(ValueError):
    """A map that cannot be played: the message says why."""


class Territory(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    population: int
    # Drawing hints only; the rules never read them.
    x: float | None = None
    y: float | None = None
    outline: list[tuple[float, float]] | None = None


class MapFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    territories: list[Territory]
    edges: list[tuple[str, str]]
    name: str = ""
    description: str = ""


class Board(msgspec.Struct, frozen=True):
    """A checked map with what the rules ask of it precomputed."""

    name: str
    territories: dict[str, Territory]
    neighbours: dict[str, frozenset[str]]
    # Lower-cased id or name -> id: how order text names a territory.
    names: dict[str, str]
    description: str = ""

    @property
    def ids(self) -> list[str]:
        """Every id in code-point order, the order every list of the rules follows."""
        return sorted(self.territories)

    def population(self, territory: str) -> int:
        return self.territories[territory].population


def board_from_file(map_file: MapFile) -> Board:
    """Check a map and precompute its neighbours; MapError names the first fault."""
    territories = map_file.territories
    if not territories:
        raise MapError("a map needs at least one territory")
    if len(territories) > MAX_TERRITORIES:
        raise MapError(f"at most {MAX_TERRITORIES} territories")
    by_id: dict[str, Territory] = {}
    names: dict[str, str] = {}
    for territory in territories:
        _check_territory(territory)
        for label in {territory.id.lower(), territory.name.lower()}:
            if names.get(label, territory.id) != territory.id:
                raise MapError(f"two territories are called {label!r}")
            names[label] = territory.id
        by_id[territory.id] = territory
    neighbours: dict[str, set[str]] = {territory: set() for territory in by_id}
    for a, b in map_file.edges:
        for end in (a, b):
            if end not in by_id:
                raise MapError(f"a border names no territory: {end!r}")
        if a == b:
            raise MapError(f"a territory cannot border itself: {a}")
        neighbours[a].add(b)
        neighbours[b].add(a)
    return Board(
        name=map_file.name,
        territories=by_id,
        neighbours={t: frozenset(n) for t, n in neighbours.items()},
        names=names,
        description=map_file.description,
    )


def map_file_of(board: Board) -> MapFile:
    """The board as a map file, drawing hints and all, territories and borders in code-point
    order: what a page draws it from."""
    edges = sorted({(a, b) for a, near in board.neighbours.items() for b in near if a < b})
    territories = [board.territories[t] for t in board.ids]
    return MapFile(territories, edges, name=board.name, description=board.description)


def board_from_object(data: dict[str, Any]) -> Board:
    """An inline map of a request, as decoded JSON."""
    try:
        return board_from_file(msgspec.convert(data, MapFile))
    except msgspec.ValidationError as error:
        raise MapError(f"malformed map: {error}") from error


def _check_territory(territory: Territory) -> None:
    if not 1 <= territory.population <= MAX_POPULATION:
        raise MapError(f"the population of {territory.id} must be 1 to {MAX_POPULATION}")
    for label in (territory.id, territory.name):
        words = label.lower().split()
        if not words or len(label) > 100:
            raise MapError(f"a territory id or name must have 1 to 100 characters: {label!r}")
        if _BAD_CHARACTERS.search(label):
            raise MapError(f"a territory id or name may not contain ',' or '>': {label!r}")
        for word in words:
            if word in ORDER_WORDS or word.isdigit():
                raise MapError(f"a territory id or name may not contain the word {word!r}")
