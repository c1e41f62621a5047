"""`python -m benchmarks rules`, small: every row is measured, the Art of War's and its floor
beside the 20-player Skirmish turn, and Skor's actions through its engine from games played to
the end."""

import re

import pytest

from benchmarks.__main__ import run
from benchmarks._skor import games
from rules.skor.dice import Dice
from rules.skor.engine import act


def test_every_engine_has_its_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["rules", "--positions=30", "--skor-games=2"]) == 0
    out = re.sub(r" +", " ", capsys.readouterr().out)
    war = r"\| Art of War generated 20p \(\d+ terr\.\) \| .* \| 30 \| .* \| <= 1 \|"
    assert re.search(war, out)
    engines = (
        "(floor: JSON in, draws, JSON out)",
        "ours: adjudicate_json()",
        "ours: adjudicate()",
        "pydip: resolve_turn()",
        "diplomacy: Game.process()",
    )
    for engine in engines:
        assert f"| {engine} |" in out
    skor = re.search(r"\| Skor, 2 seeded games \| ours: skor act\(\) \| (\d+) \| [\d,]+ \|", out)
    assert skor is not None
    assert int(skor[1]) == sum(len(game) for game in games(2, 1))
    assert re.search(r"\| end \d+%.*move \d+%", out)


def test_the_seeded_games_end_and_are_the_same_for_a_seed() -> None:
    played = games(3, 7)
    assert played == games(3, 7)
    for game in played:
        last = game[-1]
        ended = act(last.state, last.player, last.action, Dice(secret=last.secret))
        assert ended.refused is None
        assert ended.state.ending is not None
        assert all(step.state.ending is None for step in game)
        assert {"End", "Move"} <= {type(step.action).__name__ for step in game}
