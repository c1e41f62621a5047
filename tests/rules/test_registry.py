"""The registry's built-in games by name and version. How a game from outside comes in, by
its versions, tests/games/test_registry.py shows with a game of the tests' own."""

import pytest

from projections.game import GameState
from projections.skirmish.definition import SKIRMISH_SOCIETY_GAME
from rules.registry import (
    DEFAULT_GAME,
    UnknownGame,
    definitions,
    game_rules,
    names,
    newest,
    unregister,
)


def test_skirmish_society_is_played_and_is_the_default() -> None:
    assert DEFAULT_GAME == "skirmish-society"
    assert newest("skirmish-society") is SKIRMISH_SOCIETY_GAME
    assert game_rules("skirmish-society", 1) is SKIRMISH_SOCIETY_GAME


def test_skirmish_society_is_registered_built_in_by_projections() -> None:
    """Registered from projections/skirmish/ (rules/ may not import it), built in all the same:
    it stays, and the house lists it with every other game."""
    with pytest.raises(ValueError, match="built in"):
        unregister("skirmish-society")
    assert definitions()["skirmish-society"] is SKIRMISH_SOCIETY_GAME
    assert list(definitions()) == ["art-of-war", "skirmish-society", "skor"]


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


# The seam's steps (rules/game.py `Game`, which is no runtime protocol: mypy checks it).
_STEPS = (
    "check_options",
    "seat_range",
    "setup",
    "evolve",
    "to_move",
    "move",
    "seal",
    "resolve",
    "time_out",
    "leave",
    "ending",
    "view",
    "read_text",
)


def test_every_states_definition_is_a_game() -> None:
    """Skirmish Society's included: no state is without a definition, whichever game it plays,
    a game from before the registry (which names none) too."""
    assert GameState().definition is SKIRMISH_SOCIETY_GAME
    for name in names():
        state = GameState(game=name, game_version=newest(name).version)
        assert state.definition is newest(name)
        assert (state.definition.name, state.definition.version) == (name, state.game_version)
        assert all(callable(getattr(state.definition, step)) for step in _STEPS)
