"""Phase 6: a territory bordered only by its owner's builds its population, any other 1."""

from rules.artofwar.board import Board
from rules.artofwar.records import Build


def builds(board: Board, owners: dict[str, str]) -> list[Build]:
    """What every player-owned territory builds, on ownership after phase 5 (P19): an
    independent neighbour unprotects, no neighbours protects, independents never build."""
    done = []
    for territory in sorted(owners):
        owner = owners[territory]
        protected = set(map(owners.get, board.neighbours[territory])) <= {owner}
        units = board.population(territory) if protected else 1
        done.append(Build(territory, owner, protected, units))
    return done
