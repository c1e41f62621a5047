"""The summary of a profile (benchmarks/_profile.py) from py-spy's raw stacks."""

import re

import pytest

from benchmarks._profile import ROOT, print_summary

SERVER = 'process 10:"python -m benchmarks scheduler";process 11:"python skirmish serve --port 0"'
SITE = "/venv/lib/python3.11/site-packages/"
LINES = [
    # A resolution's decision, in a server: the rules engine's frame is the leaf.
    f"{SERVER};Runner.run (asyncio/runners.py:118);GameService._execute "
    f"({ROOT}server/game/handlers.py:95);decide ({ROOT}server/game/decide/__init__.py:48);"
    f"_check ({ROOT}rules/skirmish/board.py:40) 3",
    # Loading a game, in a server: asyncpg's call is the leaf.
    f"{SERVER};Runner.run (asyncio/runners.py:118);GameService.load "
    f"({ROOT}server/game/handlers.py:66);"
    f"Connection._do_execute ({SITE}asyncpg/connection.py:2040) 1",
    # The benchmark's own catch-up of the read models: decoding an event.
    'process 10:"python -m benchmarks scheduler";Runner.run (asyncio/runners.py:118);'
    f"ReadModelRunner.apply ({ROOT}projections/runner.py:80);"
    f"EventCodec.decode ({ROOT}schema/events.py:77) 2",
]


def test_samples_are_summed_per_role_by_phase_and_kind(
    capsys: pytest.CaptureFixture[str],
) -> None:
    print_summary(LINES)
    # The tables' padding aside.
    out = re.sub(r" +", " ", capsys.readouterr().out)
    servers, benchmark = out.split("### the benchmark's process: ")
    assert benchmark.startswith("2 samples")
    assert "| read models: catch up and write | 2 | 100.0% |" in benchmark
    assert "| msgspec encode/decode, event ids (schema/, uuid4) | 2 | 100.0% |" in benchmark
    assert "### servers (skirmish serve): 4 samples" in servers
    assert "| decide (the rules engine) | 3 | 75.0% |" in servers
    assert "| load a game (snapshot, read, fold) | 1 | 25.0% |" in servers
    assert "| _check (rules/skirmish/board.py)" in servers
    assert "| Connection._do_execute (asyncpg/connection.py)" in servers
    assert "| GameService._execute (server/game/handlers.py) | 3 | 75.0% |" in servers
