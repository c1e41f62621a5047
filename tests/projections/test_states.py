"""The shared cache of folded states: what it hands out, and what it keeps."""

from msgspec.structs import replace

from projections.game import GameState
from projections.states import GameStates, Loaded


def _at(version: int, position: int) -> Loaded:
    return Loaded(replace(GameState(), version=version), position)


def test_a_state_is_handed_to_a_follower_only_at_its_very_event() -> None:
    states = GameStates()
    states.remember("g", _at(7, 70))
    assert states.at("g", 7, 70) == _at(7, 70).state
    # The same version at another position: the stream was truncated and written anew.
    assert states.at("g", 7, 75) is None
    assert states.at("g", 6, 60) is None
    assert states.at("other", 7, 70) is None


def test_an_offer_never_replaces_a_state_of_a_later_event() -> None:
    states = GameStates()
    states.remember("g", _at(7, 70))
    states.offer("g", _at(6, 60))
    assert states.latest("g") == _at(7, 70)
    states.offer("g", _at(8, 80))
    assert states.latest("g") == _at(8, 80)
    # The game's writer has checked its state against the stream: it always wins.
    states.remember("g", _at(7, 90))
    assert states.latest("g") == _at(7, 90)
    states.forget("g")
    assert states.latest("g") is None
    states.remember("g", _at(9, 99))
    states.remember("h", _at(1, 100))
    states.clear()
    assert states.latest("g") is None
    assert states.latest("h") is None


def test_the_least_recently_used_games_go_first() -> None:
    states = GameStates(size=2)
    states.remember("a", _at(1, 1))
    states.remember("b", _at(1, 2))
    assert states.at("a", 1, 1) is not None
    states.remember("c", _at(1, 3))
    assert states.latest("b") is None
    assert states.latest("a") is not None
    assert states.latest("c") is not None
