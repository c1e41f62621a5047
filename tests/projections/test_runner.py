"""The read models on real PostgreSQL: followed live, they equal a rebuild from scratch."""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from eventstore.base import EventStore
from eventstore.postgres import PostgresEventStore
from projections import failures, folding
from projections import runner as runner_module
from projections.game import GameState
from projections.loading import state_until
from projections.runner import ReadModelRunner
from schema.commands import Actor, SubmitOrders
from server.game.handlers import GameService
from server.ops.clock_steps import read_models_caught_up
from tests.server.scripted import ScriptedGame
from tests.support import new_event, visible_log


async def _tables(pool: asyncpg.Pool) -> dict[str, list[dict[str, Any]]]:
    games = await pool.fetch("SELECT * FROM read_games ORDER BY game_id")
    turns = await pool.fetch("SELECT * FROM read_turns ORDER BY game_id, turn")
    members = await pool.fetch("SELECT * FROM read_members ORDER BY game_id, account_id")
    return {
        "games": [dict(r) for r in games],
        "turns": [dict(r) for r in turns],
        "members": [dict(r) for r in members],
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


@pytest.mark.parametrize("shared", [False, True], ids=["alone", "sharing-states"])
async def test_live_read_models_equal_a_rebuild_also_after_rewinds(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, shared: bool
) -> None:
    service = GameService(postgres_store)
    # Sharing, the runner writes most games from the states the service has just folded.
    runner = ReadModelRunner(postgres_store, pool, states=service.states if shared else None)
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
    turns = [(r["game_id"], r["turn"], r["resolution"] is not None) for r in live["turns"]]
    assert turns == [
        ("g1", 1, True),
        ("g1", 2, True),
        ("g1", 3, False),
        ("g2", 1, True),
        ("g2", 2, False),
    ]


async def test_a_burst_is_caught_up_in_pipelined_batches_then_followed_again(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Batches of 5: the two games' set-up (create, joins, start: 12 events), appended before
    # the runner starts, is a burst whenever the runner starts.
    monkeypatch.setattr(runner_module, "_BATCH", 5)
    caught_up: list[int] = []
    catch_up = ReadModelRunner.catch_up

    async def counted(self: ReadModelRunner, *args: Any, **options: Any) -> int:
        caught_up.append(await catch_up(self, *args, **options))
        return caught_up[-1]

    monkeypatch.setattr(ReadModelRunner, "catch_up", counted)
    service = GameService(postgres_store)
    runner = ReadModelRunner(postgres_store, pool)
    games = [ScriptedGame(service, "g1"), ScriptedGame(service, "g2", players=3)]
    for game in games:
        await game.set_up()
    async with _following(runner):
        for _ in range(2):
            for game in games:
                await game.play_turn()
        await games[0].rewind()
        await read_models_caught_up(pool, postgres_store)
        live = await _tables(pool)

    assert caught_up
    rebuilt = ReadModelRunner(postgres_store, pool)
    await rebuilt.reset()
    await rebuilt.catch_up()
    assert await _tables(pool) == live
    assert [row["turn"] for row in live["games"]] == [2, 3]


async def test_a_runner_sharing_states_never_writes_one_that_a_rewind_elsewhere_replaced(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    here = GameService(postgres_store)
    runner = ReadModelRunner(postgres_store, pool, states=here.states)
    game = ScriptedGame(here)
    await game.set_up()
    await game.play_turn()
    kept = here.states.latest("g1")
    assert kept is not None
    await runner.catch_up()
    # Another process rewinds the turn and plays it again: its marker shifts every later
    # version by one, so the event now at the kept state's version is another one.
    game.service = GameService(postgres_store)
    await game.rewind()
    await game.play_turn()
    assert here.states.latest("g1") == kept
    events = await visible_log(postgres_store, await pool.fetchval("SELECT count(*) FROM events"))
    applied = await runner.checkpoint()
    later = [e for e in events if e.checkpoint > applied]
    # A batch that ends at the kept state's version, then the rest.
    split = next(i for i, e in enumerate(later, start=1) if e.version == kept.state.version)
    await runner.apply(later[:split])
    now = await state_until(postgres_store, "g1", kept.state.version)
    assert now.turn != kept.state.turn
    assert await pool.fetchval("SELECT turn FROM read_games WHERE game_id = 'g1'") == now.turn
    await runner.apply(later[split:])
    await _equal_to_a_rebuild(postgres_store, pool)


async def test_a_runner_that_keeps_one_state_loads_the_others_and_writes_the_same_rows(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(postgres_store)
    first, second = ScriptedGame(service, "g1"), ScriptedGame(service, "g2", players=3)
    await first.set_up()
    await second.set_up()
    for _ in range(2):
        await first.play_turn()
        await second.play_turn()
    await second.rewind()
    await first.play_turn()
    events = await visible_log(postgres_store, await pool.fetchval("SELECT count(*) FROM events"))
    loads: list[str] = []

    async def counted(store: EventStore, game_id: str, version: int) -> GameState:
        loads.append(game_id)
        return await state_until(store, game_id, version)

    monkeypatch.setattr(folding, "state_until", counted)
    runner = ReadModelRunner(postgres_store, pool, kept_states=1)
    # A batch at a time, each game's turn after the other's: every turn of one game finds
    # the other's state kept, and its own gone.
    for start in range(0, len(events), 3):
        await runner.apply(events[start : start + 3])
    assert loads.count("g1") >= 2
    assert loads.count("g2") >= 2
    await _equal_to_a_rebuild(postgres_store, pool)


async def test_the_read_models_never_hold_pending_orders(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    runner = ReadModelRunner(postgres_store, pool)
    game = ScriptedGame(GameService(postgres_store))
    await game.set_up()
    secret = "a secret order text"
    await game.run(
        SubmitOrders(nonce=bytes(32), actor=Actor("acct-1"), now=game.tick(0.1), text=secret)
    )
    await runner.catch_up()
    rows = await pool.fetch(
        "SELECT g::text AS row FROM read_games AS g UNION ALL "
        "SELECT t::text FROM read_turns AS t UNION ALL SELECT m::text FROM read_members AS m"
    )
    assert len(rows) > 2
    assert all(secret not in row["row"] for row in rows)


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


async def _refuse_rows_of(pool: asyncpg.Pool, game_id: str, from_turn: int) -> None:
    """From now on PostgreSQL refuses the game's list entry once it reaches `from_turn`, as
    it refused a resolution too large for jsonb: a constraint of this test's schema only."""
    await pool.execute(
        "ALTER TABLE read_games ADD CONSTRAINT refused "
        f"CHECK (game_id <> '{game_id}' OR turn < {from_turn}) NOT VALID"
    )


async def _turns(pool: asyncpg.Pool) -> dict[str, int]:
    return {row[0]: row[1] for row in await pool.fetch("SELECT game_id, turn FROM read_games")}


async def _until_no_failures(pool: asyncpg.Pool) -> None:
    async with asyncio.timeout(10):
        # The runner clears the row in the database; there is no event to wait on.
        while await failures.listed(pool):  # noqa: ASYNC110
            await asyncio.sleep(0.01)


async def _equal_to_a_rebuild(store: PostgresEventStore, pool: asyncpg.Pool) -> None:
    live = await _tables(pool)
    reference = ReadModelRunner(store, pool)
    await reference.reset()
    await reference.catch_up()
    assert await _tables(pool) == live


async def test_a_game_whose_rows_are_refused_fails_alone_and_is_retried_until_written(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="projections.runner")
    runner = ReadModelRunner(postgres_store, pool, retry_seconds=0.02)
    service = GameService(postgres_store)
    good, bad = ScriptedGame(service, "good"), ScriptedGame(service, "bad")
    await good.set_up()
    await bad.set_up()
    async with _following(runner):
        await read_models_caught_up(pool, postgres_store)
        await _refuse_rows_of(pool, "bad", from_turn=2)
        for _ in range(2):
            await bad.play_turn()
            await good.play_turn()
        await read_models_caught_up(pool, postgres_store)
        stuck = await _turns(pool)
        async with asyncio.timeout(10):
            # Retried, and failing again, several times over.
            while (await failures.listed(pool))[0].attempts < 5:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        [failing] = await failures.listed(pool)

        await pool.execute("ALTER TABLE read_games DROP CONSTRAINT refused")
        await _until_no_failures(pool)
        caught_up = await _turns(pool)

    assert stuck == {"good": 3, "bad": 1}
    assert (failing.game_id, failing.error) == ("bad", "CheckViolationError")
    assert "refused" in failing.message
    assert failing.version == await postgres_store.stream_version("game-bad")
    assert caught_up == {"good": 3, "bad": 3}
    await _equal_to_a_rebuild(postgres_store, pool)
    alerts = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(alerts) == 1
    assert "game bad" in alerts[0]
    assert any("game bad are written again" in r.getMessage() for r in caplog.records)


async def test_a_failed_game_is_written_again_on_its_next_event(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    # No periodic retry within the test: only the game's next event can mend it.
    runner = ReadModelRunner(postgres_store, pool, retry_seconds=3600)
    service = GameService(postgres_store)
    good, bad = ScriptedGame(service, "good"), ScriptedGame(service, "bad")
    await good.set_up()
    await bad.set_up()
    async with _following(runner):
        await read_models_caught_up(pool, postgres_store)
        await _refuse_rows_of(pool, "bad", from_turn=2)
        await bad.play_turn()
        await read_models_caught_up(pool, postgres_store)
        assert [f.game_id for f in await failures.listed(pool)] == ["bad"]
        await pool.execute("ALTER TABLE read_games DROP CONSTRAINT refused")
        await good.play_turn()
        await read_models_caught_up(pool, postgres_store)
        still = [f.game_id for f in await failures.listed(pool)]
        await bad.rewind()
        await bad.play_turn()
        await read_models_caught_up(pool, postgres_store)
        mended = await failures.listed(pool)

    assert still == ["bad"]
    assert mended == []
    assert await _turns(pool) == {"good": 2, "bad": 2}
    await _equal_to_a_rebuild(postgres_store, pool)


async def test_a_game_that_cannot_be_folded_does_not_hold_up_the_others(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    game = ScriptedGame(GameService(postgres_store), "good")
    await game.set_up()
    garbage = new_event(b'{"type":"no_such_thing.v1"}', type="no_such_thing.v1")
    await postgres_store.append("game-broken", [garbage], expected_version=0)
    await game.play_turn()
    runner = ReadModelRunner(postgres_store, pool)

    await runner.catch_up()

    assert await runner.caught_up()
    assert await _turns(pool) == {"good": 2}
    [failing] = await failures.listed(pool)
    assert (failing.game_id, failing.version) == ("broken", 1)
