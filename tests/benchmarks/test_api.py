"""`python -m benchmarks api --only=submissions`, short: Skirmish's submissions and Skor's
actions (POST /moves, a client per seat of 25 two-player games) are both measured, in one
table, with the latency of one over the other."""

import re

import pytest

from benchmarks.__main__ import run


def test_skor_actions_are_measured_beside_the_submissions(
    database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert run(["api", "--only=submissions", "--seconds=0.5"]) == 0
    out = re.sub(r" +", " ", capsys.readouterr().out)
    assert re.search(r"\| 5 games of 10 players \| 50 \| [\d,]+ \|", out)
    # Every action answered as sent: a refusal of `end` would have stopped the load.
    skor = re.search(r"\| Skor: 25 games of 2 players \| 50 \| ([\d,]+) \| [\d,.]+ \|", out)
    assert skor is not None
    # At least the first player of each game had its turn.
    assert int(skor[1].replace(",", "")) >= 25
    assert re.search(r"\| Skor action / Skirmish submission \| .* \| [\d.]+x \| [\d.]+x \|", out)
