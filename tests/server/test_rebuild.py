"""`skirmish rebuild`, run as the console script against real PostgreSQL."""

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncpg

from eventstore.postgres import PostgresEventStore
from projections.runner import ReadModelRunner
from server.game.handlers import GameService
from server.ops.rebuild import progress_line
from tests.server.scripted import ScriptedGame

SKIRMISH = Path(sys.executable).parent / "skirmish"


async def test_rebuild_restores_the_read_models_with_a_progress_bar(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, schema_url: str
) -> None:
    game = ScriptedGame(GameService(postgres_store))
    await game.set_up()
    await game.play_turn()
    await game.rewind()
    await ReadModelRunner(postgres_store, pool).catch_up()
    before = [dict(r) for r in await pool.fetch("SELECT * FROM read_games")]
    turns = [dict(r) for r in await pool.fetch("SELECT * FROM read_turns ORDER BY turn")]
    assert [t["turn"] for t in turns] == [1]
    await pool.execute("UPDATE read_games SET name = 'vandalised'")
    await pool.execute("DELETE FROM read_turns")

    done = await asyncio.to_thread(
        subprocess.run,
        [str(SKIRMISH), "rebuild"],
        env={**os.environ, "DATABASE_URL": schema_url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    events = await pool.fetchval("SELECT count(*) FROM events")
    assert f"{events:,}/{events:,} events (100%" in done.stderr
    assert f"rebuilt every read model from {events:,} events" in done.stderr
    assert [dict(r) for r in await pool.fetch("SELECT * FROM read_games")] == before
    assert [dict(r) for r in await pool.fetch("SELECT * FROM read_turns ORDER BY turn")] == turns


def test_the_progress_bar_fills_in_proportion() -> None:
    assert progress_line(0, 200, 0.0).startswith("[" + "." * 40 + "] 0/200 events (0%")
    assert (
        progress_line(100, 200, 2.0) == "[" + "#" * 20 + "." * 20 + "] 100/200 events (50%, 50/s)"
    )
    assert progress_line(0, 0, 0.0).startswith("[" + "#" * 40 + "] 0/0 events (100%")
