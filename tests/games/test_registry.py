"""A game from outside the project in the registry (rules/registry.py), as SKIRMISH_GAMES
registers it: a new game takes its newest rules, an old one keeps the rules it was created
under, and versions come in oldest first."""

from collections.abc import Iterator

import pytest

from rules.registry import game_rules, names, newest, register, unregister
from tests.games.tic_tac_toe import TIC_TAC_TOE, TicTacToe


@pytest.fixture
def registered() -> Iterator[None]:
    register(TIC_TAC_TOE)
    yield
    unregister(TIC_TAC_TOE.name)


@pytest.mark.usefixtures("registered")
def test_a_registered_game_is_played_by_its_newest_version_and_keeps_the_old_ones() -> None:
    assert names() == ["art-of-war", "skirmish-society", "skor", "tic-tac-toe"]
    register(TIC_TAC_TOE)  # again: nothing changes
    second = TicTacToe()
    second.version = 2
    register(second)
    assert newest("tic-tac-toe") is second
    assert game_rules("tic-tac-toe", 1) is TIC_TAC_TOE
    another = TicTacToe()
    another.version = 2
    with pytest.raises(ValueError, match="already has a version 2 or newer"):
        register(another)


@pytest.mark.usefixtures("registered")
def test_an_older_version_comes_in_only_before_the_newer() -> None:
    old = TicTacToe()
    old.version = 0
    with pytest.raises(ValueError, match="already has a version 0 or newer"):
        register(old)
