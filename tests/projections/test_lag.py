"""How far behind the read models are, and what the runner says of a long catch-up."""

import logging

import asyncpg
import pytest

from eventstore.postgres import PostgresEventStore
from eventstore.records import Checkpoint
from projections.lag import _ANY_AFTER, CatchUpProgress, any_after
from tests.support import log_of_pages, new_event, pages_read, visible_log


async def test_a_long_catch_up_says_how_it_goes_and_when_it_ends(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="projections.runner")
    await postgres_store.append("things", [new_event() for _ in range(30)], expected_version=0)
    log = await visible_log(postgres_store, 30)
    # Every line as soon as it is due: nothing here depends on the clock.
    progress = CatchUpProgress(pool, every=0.0)

    # A batch short of full: the runner is not behind, nothing to say.
    await progress.applied(5, False, log[4].checkpoint)
    quiet = [r.getMessage() for r in caplog.records]
    await progress.applied(10, True, log[9].checkpoint)
    await progress.applied(10, True, log[19].checkpoint)
    await progress.applied(10, False, log[29].checkpoint)

    assert quiet == []
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 3
    assert said[0].startswith("read models catching up: 10 events applied, ")
    assert " 20 to go " in said[0]
    assert said[1].startswith("read models catching up: 20 events applied, ")
    assert " 10 to go " in said[1]
    assert said[2].startswith("read models caught up: 30 events in ")


async def test_a_short_burst_of_full_batches_says_nothing(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="projections.runner")
    await postgres_store.append("things", [new_event() for _ in range(20)], expected_version=0)
    log = await visible_log(postgres_store, 20)
    progress = CatchUpProgress(pool, every=3600.0)

    await progress.applied(10, True, log[9].checkpoint)
    await progress.applied(10, False, log[19].checkpoint)

    assert caplog.records == []


async def test_whether_events_follow_a_checkpoint_is_read_from_the_end_of_the_log(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    async with pool.acquire() as connection:
        size = await log_of_pages(postgres_store, connection, 60)
        events = await connection.fetchval("SELECT count(*) FROM events")
        log = await visible_log(postgres_store, events)
        last, before = log[-1].checkpoint, log[-2].checkpoint
        read = await pages_read(connection, _ANY_AFTER, last.transaction_id, last.position)

        # The runner and the clock ask this over and over while they wait: on the whole
        # table it cost 25 ms for 200,000 events, growing with the log.
        assert read <= 5 < size
        assert await any_after(connection, Checkpoint.START)
        assert await any_after(connection, before)
        assert not await any_after(connection, last)
