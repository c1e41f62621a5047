"""The engine as a game room calls it: a pure setup from the secret's setup stream, turns
resolved from each turn's seed, the state carried over by `next_state` and stored as
msgspec; random games on a small map nearly always run to an ending (by the rules' own
checks), and the same secret plays the same game."""

import msgspec

from rules.artofwar.board import Board
from rules.artofwar.diplomacy import Ending
from rules.artofwar.draws import Draws, map_seed, setup_stream, turn_seed
from rules.artofwar.maps import builtin_board
from rules.artofwar.options import Options
from rules.artofwar.records import TurnResult
from rules.artofwar.resolve import next_state, resolve
from rules.artofwar.setup import setup
from rules.artofwar.state import State
from rules.kit.prng import SeededRandom, derived

SECRET = b"a game's committed secret"


def test_the_turn_seed_is_the_seed_of_the_turn_stream_and_new_for_every_rewind() -> None:
    seed = turn_seed(SECRET, 3)
    stream = derived(SECRET, "art-of-war", "turn", 3, 0)
    replayed = SeededRandom(seed)
    assert [replayed.unit() for _ in range(3)] == [stream.unit() for _ in range(3)]
    seeds = {turn_seed(SECRET, turn, generation) for turn in (1, 2) for generation in (0, 1)}
    assert len(seeds) == 4
    assert setup_stream(SECRET).next_u64() == derived(SECRET, "art-of-war", "setup").next_u64()
    assert map_seed(SECRET) == derived(SECRET, "art-of-war", "map").seed


def random_orders(board: Board, state: State, rng: SeededRandom) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for territory, player in state.owners.items():
        units = state.units.get(territory, 0)
        if units and rng.below(3):
            target = rng.choice(sorted(board.neighbours[territory]))
            orders.setdefault(player, []).append(f"{territory} {rng.between(1, units)} to {target}")
    for player, pool in state.pending_builds.items():
        mine = sorted(t for t, owner in state.owners.items() if owner == player)
        if pool and mine:
            orders.setdefault(player, []).insert(0, f"place {pool} {rng.choice(mine)}")
    return orders


def play(secret: bytes, options: Options, turns: int) -> tuple[list[TurnResult], State]:
    board = builtin_board("aow-mini")
    state = setup(board, ["red", "blue", "green"], options, setup_stream(secret))
    rng = SeededRandom(len(secret))
    results = []
    for _ in range(turns):
        stream = SeededRandom(turn_seed(secret, state.turn))
        orders = random_orders(board, state, rng)
        result = resolve(board, options.placement, state, orders, Draws(stream=stream))
        results.append(result)
        state = next_state(state, result)
        # The state a room would store comes back whole.
        assert msgspec.json.decode(msgspec.json.encode(state), type=State) == state
        if result.ending is not None:
            break
    return results, state


def test_random_games_run_to_an_ending() -> None:
    endings: list[Ending] = []
    for n in range(40):
        options = Options(
            initial="fill" if n % 2 else "one", placement="free" if n % 3 else "automatic"
        )
        results, state = play(f"secret {n}".encode(), options, 300)
        ending = results[-1].ending
        if ending is None:
            # Random play can stall (two big stacks that never meet): rare, and allowed.
            assert len(results) == 300
            continue
        endings.append(ending)
        assert state.turn == len(results) + 1
        (winner,) = ending.winners
        assert 3 * sum(o == winner for o in state.owners.values()) > 2 * 9 or state.active() == [
            winner
        ]
    assert len(endings) >= 35
    assert {e.by for e in endings} <= {"conquest", "last_survivor"}


def test_the_same_secret_plays_the_same_game() -> None:
    options = Options(initial="fill", placement="free")
    assert play(b"again", options, 30) == play(b"again", options, 30)
    assert play(b"again", options, 30) != play(b"other", options, 30)
