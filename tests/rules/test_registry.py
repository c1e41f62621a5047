"""The registry: every game by name and version; a new game takes its newest rules, an old
one keeps the rules it was created under."""

from collections.abc import Iterator

import pytest

from rules.registry import (
    DEFAULT_GAME,
    UnknownGame,
    game_rules,
    names,
    newest,
    register,
    unregister,
)
from rules.skirmish.ruleset import SKIRMISH_SOCIETY
from tests.games.tic_tac_toe import TIC_TAC_TOE, TicTacToe


def test_skirmish_society_is_played_and_is_the_default() -> None:
    assert DEFAULT_GAME == "skirmish-society"
    assert newest("skirmish-society") is SKIRMISH_SOCIETY
    assert game_rules("skirmish-society", 1) is SKIRMISH_SOCIETY


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


def test_a_built_in_game_stays() -> None:
    for name in ("art-of-war", "skirmish-society", "skor"):
        with pytest.raises(ValueError, match="built in"):
            unregister(name)
    assert names() == ["art-of-war", "skirmish-society", "skor"]


def test_an_unknown_game_or_version_is_refused_by_name() -> None:
    with pytest.raises(
        UnknownGame, match="no game named 'chess' here; the games are: art-of-war, skirmish"
    ):
        newest("chess")
    with pytest.raises(UnknownGame, match="does not know version 9 of 'skirmish-society'"):
        game_rules("skirmish-society", 9)
    with pytest.raises(UnknownGame):
        game_rules("chess", 1)
