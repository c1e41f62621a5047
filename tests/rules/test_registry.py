"""The registry: every game by name and version; a new game takes its newest rules, an old
one keeps the rules it was created under."""

import pytest

from rules.registry import DEFAULT_GAME, GAMES, UnknownGame, game_rules, newest
from rules.skirmish.ruleset import SKIRMISH_SOCIETY, SkirmishSociety


def test_skirmish_society_is_played_and_is_the_default() -> None:
    assert DEFAULT_GAME == "skirmish-society"
    assert newest("skirmish-society") is SKIRMISH_SOCIETY
    assert game_rules("skirmish-society", 1) is SKIRMISH_SOCIETY


@pytest.mark.parametrize(("name", "versions"), list(GAMES.items()))
def test_every_version_is_registered_under_its_own_name_in_order(
    name: str, versions: tuple[SkirmishSociety, ...]
) -> None:
    assert [v.name for v in versions] == [name] * len(versions)
    numbers = [v.version for v in versions]
    assert numbers == sorted(set(numbers))


def test_an_unknown_game_or_version_is_refused_by_name() -> None:
    with pytest.raises(UnknownGame, match="no game named 'chess' here; the games are: skirmish"):
        newest("chess")
    with pytest.raises(UnknownGame, match="does not know version 9 of 'skirmish-society'"):
        game_rules("skirmish-society", 9)
    with pytest.raises(UnknownGame):
        game_rules("chess", 1)
