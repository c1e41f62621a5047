"""Generated Art of War maps (P1, P2): the server's seeded generator's territories and
borders (its barracks and homes have no meaning here, its overseas links are borders), and
a population of 1 to 6 for each territory, drawn from the same seed."""

from rules.artofwar.board import Board, MapFile, Territory, board_from_file
from rules.artofwar.options import MAX_PLAYERS, MIN_PLAYERS
from rules.kit.prng import derived
from rules.skirmish.mapgen import MIN_PLAYERS as SMALLEST_GENERATED
from rules.skirmish.mapgen import generate as generate_shape

MAX_GENERATED_POPULATION = 6


def generate(players: int, seed: int) -> Board:
    """A map for `players` players, about six territories each; the same arguments always
    give the same map. ValueError when `players` is out of range."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a generated map is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    # The shape generator seats at least three; two players share a map for three.
    shape = generate_shape(max(players, SMALLEST_GENERATED), "normal", seed)
    rng = derived((seed & (1 << 64) - 1).to_bytes(8, "big"), "art-of-war", "populations")
    territories = [
        Territory(
            id=t.id,
            name=t.name,
            population=rng.between(1, MAX_GENERATED_POPULATION),
            x=t.x,
            y=t.y,
            outline=list(t.outline),
        )
        for t in shape.territories
    ]
    edges = list(shape.edges) + list(shape.overseas)
    return board_from_file(MapFile(territories, edges, name=f"generated-{seed:016x}"))
