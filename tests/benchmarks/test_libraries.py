"""`python -m benchmarks libraries`, small: every pair is measured on the same work (the
answers are checked as they come, so a load of refusals would stop it), and the rate limits
decide alike on the same traffic."""

import re

import pytest

from benchmarks.__main__ import run
from benchmarks.libraries import cost


def test_each_hand_written_module_is_measured_beside_its_library(
    database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    # One key, 200 decisions in far less than a second: 60 allowed (the bucket's 60 at
    # once; the moving window's 60 in 6 s), the rest refused, by both.
    options = ["--requests=40", "--clients=4", "--rounds=1", "--decisions=200", "--keys=1"]
    assert run(["libraries", *options]) == 0
    out = re.sub(r" +", " ", capsys.readouterr().out)
    for row, tables in (
        ("| client/connections.py | ", 1),
        ("| aiohttp | ", 1),
        ("| server/http/cors.py | ", 2),
        ("| Starlette's CORSMiddleware, outermost | ", 2),
        ("| Starlette's, in ours' place | ", 2),
    ):
        assert out.count(row) == tables, row
    assert re.search(r"\| server/accounts/ratelimit\.py \| [\d,]+ \| [\d.]+ \| 30\.0% \|", out)
    assert re.search(r"\| limits \(moving window\) \| [\d,]+ \| [\d.]+ \| 30\.0% \|", out)
    assert out.count("| library's cost |") == 2  # the client's, the rate limits'
    assert out.count("| cost: Starlette's") == 4  # two ways, preflights and simple requests


def test_a_library_is_over_the_threshold_only_when_it_costs_more_than_ten_percent() -> None:
    assert cost(110.0, 100.0) == "+10%"
    assert cost(111.0, 100.0) == "+11% (over 10%)"
    assert cost(90.0, 100.0, fewer_is_worse=True) == "+11% (over 10%)"
    assert cost(200.0, 100.0, fewer_is_worse=True) == "-50%"
    # A short run's CPU time, in clock ticks, may be none at all.
    assert cost(30.0, 0.0) == "n/a (too short to measure)"
    assert cost(0.0, 100.0, fewer_is_worse=True) == "n/a (too short to measure)"
