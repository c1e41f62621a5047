"""The built-in maps as places to play (docs/rules.md, "Game life"): the starting homes of
each, which player counts it seats, and why `rulebook` seats none."""

import warnings
from itertools import combinations

import pytest

from rules.skirmish.board import Board, GameMap
from rules.skirmish.mapgen import MIN_PLAYERS
from rules.skirmish.maps import builtin_map, builtin_names
from rules.skirmish.starting import player_counts, starting_board

with warnings.catch_warnings():
    # diplomacy reads its convoy cache at import time without closing the file.
    warnings.simplefilter("ignore", ResourceWarning)
    from diplomacy.engine.map import Map


def _reach(board: Board, start: set[str], within: frozenset[str] | None = None) -> set[str]:
    """The territories reachable from `start`, stepping only inside `within` if given."""
    seen, frontier = set(start), list(start)
    while frontier:
        for neighbour in board.neighbours[frontier.pop()]:
            if neighbour not in seen and (within is None or neighbour in within):
                seen.add(neighbour)
                frontier.append(neighbour)
    return seen


def _touch(board: Board, a: set[str], b: set[str]) -> bool:
    return bool(a & b) or any(board.neighbours[t] & b for t in a)


@pytest.mark.parametrize("name", builtin_names())
def test_every_home_is_three_connected_territories_two_of_them_barracks(name: str) -> None:
    game_map = builtin_map(name)
    board = game_map.board
    for home in game_map.homes:
        assert len(set(home)) == 3, home
        assert _reach(board, {home[0]}, frozenset(home)) == set(home), home
        assert len(board.barracks.intersection(home)) == 2, home
    for a, b in combinations(game_map.homes, 2):
        assert not _touch(board, set(a), set(b)), (a, b)


def test_the_player_counts_of_the_built_in_maps() -> None:
    assert {name: player_counts(name) for name in builtin_names()} == {
        "diplomacy-land": (3, 6),
        "rulebook": None,
    }


def test_the_rulebook_map_is_too_small_for_three_fair_homes() -> None:
    """Three homes of two barracks need six; the map has five, all in one cluster."""
    game_map = builtin_map("rulebook")
    assert game_map.homes == ()
    assert len(game_map.board.barracks) < 2 * MIN_PLAYERS


def _great_powers() -> dict[str, set[str]]:
    return {power: set(centres) for power, centres in Map("standard").homes.items()}


def test_each_diplomacy_home_belongs_to_one_great_power_with_its_other_centres_free() -> None:
    game_map: GameMap = builtin_map("diplomacy-land")
    board = game_map.board
    claimed = {t for home in game_map.homes for t in home}
    owners = []
    for home in game_map.homes:
        barracks = board.barracks.intersection(home)
        (power,) = [p for p, centres in _great_powers().items() if barracks <= centres]
        owners.append(power)
        for centre in _great_powers()[power] - barracks:
            assert centre not in claimed
            assert _touch(board, {centre}, set(home)), (power, centre)
    assert sorted(owners) == ["AUSTRIA", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def test_england_has_no_home_because_its_island_is_cut_off() -> None:
    board = builtin_map("diplomacy-land").board
    england = _great_powers()["ENGLAND"]
    island = _reach(board, england)
    assert island == {"CLY", "EDI", "LON", "LVP", "WAL", "YOR"}


@pytest.mark.parametrize("players", [3, 6])
def test_a_diplomacy_game_starts_with_two_armies_in_each_drawn_home(players: int) -> None:
    game_map = builtin_map("diplomacy-land")
    seats = [f"p{i}" for i in range(1, players + 1)]
    position, homes = starting_board(game_map, seats, bytes(range(32)))
    assert sorted(homes) == seats
    assert set(homes.values()) <= set(game_map.homes)
    for player, home in homes.items():
        assert sorted(t for t, p in position.armies.items() if p == player) == sorted(
            game_map.board.barracks.intersection(home)
        )
        assert sorted(t for t, p in position.control.items() if p == player) == sorted(home)
