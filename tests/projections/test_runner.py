"""The read models on real PostgreSQL: followed live, they equal a rebuild from scratch."""

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import asyncpg

from eventstore.postgres import PostgresEventStore
from projections.runner import ReadModelRunner
from schema.commands import SubmitOrders
from server.handlers import GameService
from server.scheduler import read_models_caught_up
from tests.server.scripted import ScriptedGame
from tests.support import visible_log


async def _tables(pool: asyncpg.Pool) -> dict[str, list[dict[str, Any]]]:
    games = await pool.fetch("SELECT * FROM read_games ORDER BY game_id")
    turns = await pool.fetch("SELECT * FROM read_turns ORDER BY game_id, turn")
    return {
        "games": [dict(r) for r in games],
        "turns": [dict(r) for r in turns],
    }


@contextlib.asynccontextmanager
async def _following(runner: ReadModelRunner) -> AsyncIterator[None]:
    task = asyncio.create_task(runner.follow())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_live_read_models_equal_a_rebuild_also_after_rewinds(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    runner = ReadModelRunner(postgres_store, pool)
    service = GameService(postgres_store)
    first, second = ScriptedGame(service, "g1"), ScriptedGame(service, "g2", players=3)
    async with _following(runner):
        await first.set_up()
        await second.set_up()
        for _ in range(2):
            await first.play_turn()
            await second.play_turn()
        await first.rewind()
        await first.play_turn()
        await second.rewind()
        await second.rewind()
        await second.play_turn()
        await read_models_caught_up(pool, postgres_store)
        live = await _tables(pool)

    rebuilt_runner = ReadModelRunner(postgres_store, pool)
    await rebuilt_runner.reset()
    assert (await _tables(pool))["games"] == []
    counted = await rebuilt_runner.catch_up()
    assert counted > 0
    assert await _tables(pool) == live

    games = {row["game_id"]: row for row in live["games"]}
    assert games["g1"]["turn"] == 3
    assert games["g2"]["turn"] == 2
    view = json.loads(games["g1"]["view"])
    assert view["turn"] == 3
    assert view["position"] == games["g1"]["position"]
    turns = [(r["game_id"], r["turn"], r["resolution"] is not None) for r in live["turns"]]
    assert turns == [
        ("g1", 1, True),
        ("g1", 2, True),
        ("g1", 3, False),
        ("g2", 1, True),
        ("g2", 2, False),
    ]


async def test_the_public_view_never_holds_pending_orders(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    runner = ReadModelRunner(postgres_store, pool)
    game = ScriptedGame(GameService(postgres_store))
    await game.set_up()
    secret = "a secret order text"
    await game.run(SubmitOrders(actor="acct-1", now=game.tick(0.1), text=secret))
    await runner.catch_up()
    views = await pool.fetch("SELECT view::text AS v FROM read_games")
    assert views
    assert all(secret not in row["v"] for row in views)


async def test_a_crash_between_batches_applies_nothing_twice(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    game = ScriptedGame(GameService(postgres_store))
    await game.set_up()
    await game.play_turn()
    runner = ReadModelRunner(postgres_store, pool)
    committed = await pool.fetchval("SELECT count(*) FROM events")
    events = await visible_log(postgres_store, committed)
    half = len(events) // 2
    await runner.apply(events[:half])
    # A new runner (as after a crash) starts at the committed checkpoint.
    restarted = ReadModelRunner(postgres_store, pool)
    assert await restarted.checkpoint() == events[half - 1].checkpoint
    assert await restarted.catch_up() == len(events) - half
    reference = ReadModelRunner(postgres_store, pool)
    live = await _tables(pool)
    await reference.reset()
    await reference.catch_up()
    assert await _tables(pool) == live
