"""The Art of War's maps: the built-in ones are whole and playable, generated ones are the
same for the same seed, with populations 1 to 6, and seat every player count they are for;
a map that breaks the rules of names, populations or borders is refused with the reason."""

import pytest

from rules.artofwar.board import MapError, MapFile, Territory, board_from_file
from rules.artofwar.mapgen import generate
from rules.artofwar.maps import builtin_board, builtin_names
from rules.artofwar.options import Options
from rules.artofwar.setup import SetupError, setup
from rules.kit.prng import SeededRandom


def connected(neighbours: dict[str, frozenset[str]]) -> bool:
    start = min(neighbours)
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    return len(seen) == len(neighbours)


@pytest.mark.parametrize("name", builtin_names())
def test_a_builtin_map_is_connected_and_seats_a_fill_game(name: str) -> None:
    board = builtin_board(name)
    assert connected(board.neighbours)
    seats = [f"p{i}" for i in range(min(20, len(board.territories)))]
    state = setup(board, seats, Options(initial="fill"), SeededRandom(7))
    assert set(state.owners.values()) == set(seats)


def test_the_world_map_has_about_forty_territories_in_one_piece() -> None:
    board = builtin_board("world")
    assert len(board.territories) == 42
    # Eight players fit apart for a game of `one`.
    state = setup(board, [f"p{i}" for i in range(8)], Options(), SeededRandom(3))
    starts = list(state.owners)
    assert all(not board.neighbours[a] & set(starts) for a in starts)


@pytest.mark.parametrize("players", [2, 3, 7, 20])
def test_a_generated_map_is_repeatable_and_seats_its_players(players: int) -> None:
    board = generate(players, 99)
    assert board == generate(players, 99)
    assert board != generate(players, 100)
    assert connected(board.neighbours)
    assert {t.population for t in board.territories.values()} <= set(range(1, 7))
    assert len(board.territories) >= 6 * max(players, 3)
    seats = [f"p{i}" for i in range(players)]
    for initial in ("one", "fill"):
        state = setup(board, seats, Options(initial=initial), SeededRandom(players))
        assert set(state.owners.values()) == set(seats)


def test_a_generated_map_is_for_two_to_twenty_players() -> None:
    with pytest.raises(ValueError, match="2 to 20 players"):
        generate(21, 1)


def test_one_cannot_seat_more_players_than_fit_apart() -> None:
    with pytest.raises(SetupError, match="cannot seat 4 players apart"):
        setup(builtin_board("aow-mini"), ["a", "b", "c", "d"], Options(), SeededRandom(1))


BAD_MAPS = [
    ([Territory("A", "Alpha", 12)], [], "population of A must be 1 to 11"),
    ([Territory("A", "Hold Fast", 1)], [], "may not contain the word 'hold'"),
    ([Territory("A", "Area 51", 1)], [], "may not contain the word '51'"),
    ([Territory("A", "Alpha, Beta", 1)], [], "may not contain ',' or '>'"),
    ([Territory("A", "Alpha", 1), Territory("B", "alpha", 1)], [], "two territories"),
    ([Territory("A", "Alpha", 1)], [("A", "Z")], "a border names no territory: 'Z'"),
    ([Territory("A", "Alpha", 1)], [("A", "A")], "cannot border itself"),
]


@pytest.mark.parametrize(("territories", "edges", "words"), BAD_MAPS)
def test_a_bad_map_is_refused(
    territories: list[Territory], edges: list[tuple[str, str]], words: str
) -> None:
    with pytest.raises(MapError, match=words):
        board_from_file(MapFile(territories, edges))
