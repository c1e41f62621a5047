"""Art of War turns for `python -m benchmarks rules`: 20 players on a generated map of about
120 territories, every territory ordered, as `adjudicate_json` bodies."""

import json

import msgspec

from rules.artofwar.contract import ArtOfWarRequest, adjudicate_json
from rules.artofwar.mapgen import generate
from rules.artofwar.options import Options
from rules.artofwar.setup import setup
from rules.kit.prng import SeededRandom

PLAYERS = 20


def art_of_war_requests(count: int, seed: int) -> tuple[int, int, list[bytes]]:
    """The map's territory count, the units on it, and `count` bodies of one turn each: a
    `fill` start, then each owned territory moves 1 to all of its units to a random
    neighbour (about three in four) or holds, drawn from a fresh turn seed per body."""
    board = generate(PLAYERS, seed)
    seats = [f"player{i}" for i in range(1, PLAYERS + 1)]
    rng = SeededRandom(seed)
    state = setup(board, seats, Options(initial="fill"), rng.fork())
    inline = {
        "territories": [
            {"id": t.id, "name": t.name, "population": t.population}
            for t in board.territories.values()
        ],
        "edges": sorted({tuple(sorted((a, b))) for a in board.ids for b in board.neighbours[a]}),
    }
    bodies = []
    for _ in range(count):
        orders: dict[str, list[str]] = {}
        for territory, player in state.owners.items():
            units = state.units.get(territory, 0)
            if units and rng.below(4):
                target = rng.choice(sorted(board.neighbours[territory]))
                line = f"{territory} {rng.between(1, units)} to {target}"
                orders.setdefault(player, []).append(line)
        request = {
            "ruleset": "art-of-war",
            "map": inline,
            "players": {p: {} for p in seats},
            "owners": state.owners,
            "units": state.units,
            "orders": orders,
            "seed": f"{rng.next_u64():016x}",
        }
        bodies.append(json.dumps(request).encode())
    return len(board.territories), sum(state.units.values()), bodies


def floor_inputs(bodies: list[bytes]) -> list[tuple[bytes, int, int, object]]:
    """For each body: itself, its turn seed, how many draws its turn makes, and its response
    as plain objects; what `floor` works from."""
    result = []
    for body in bodies:
        response = msgspec.json.decode(adjudicate_json(body))
        seed = int(json.loads(body)["seed"], 16)
        result.append((body, seed, len(response["draws"]), response))
    return result


def floor(inputs: tuple[bytes, int, int, object]) -> None:
    """What any engine keeping the contract must spend on a turn, the rules aside: decoding
    the request, making the turn's draws (§4.9: one per fighting unit) and encoding the
    response, whose every draw is reported."""
    body, seed, draws, response = inputs
    msgspec.json.decode(body, type=ArtOfWarRequest)
    SeededRandom(seed).units(draws)
    msgspec.json.encode(response)
