"""The read models' progress as every process hears it (projections/progress.py): the
runner's new checkpoint told with NOTIFY when its rows commit, heard on the event store's
listening connection."""

import asyncio

import asyncpg
import pytest

from eventstore.postgres import PostgresEventStore
from eventstore.records import Checkpoint
from projections.progress import CHANNEL, Progress, decode
from projections.queries import ReadModelsBehind
from projections.reads import ReadModels
from projections.runner import ReadModelRunner
from tests.support import numbered, visible_log

# Long enough that a waiter never looks at the checkpoint itself during a test: only the
# runner's word can wake it.
NEVER = 3600.0


async def test_a_waiting_read_is_woken_by_the_runner_s_word(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    progress = Progress(pool, recheck=NEVER)
    await postgres_store.listen(await pool.fetchval(CHANNEL), progress.heard)
    await postgres_store.append("other-1", numbered(3), expected_version=0)
    head = (await visible_log(postgres_store, 3))[-1].checkpoint
    # The first look reads the checkpoint (nothing heard yet): not there.
    assert not await progress.reached(head, within=0)

    waiting = asyncio.create_task(progress.reached(head, within=30))
    await ReadModelRunner(postgres_store, pool).catch_up()

    assert await waiting


async def test_word_that_may_have_been_lost_sends_the_next_waiter_to_the_database(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    progress = Progress(pool, recheck=NEVER)
    await postgres_store.append("other-1", numbered(2), expected_version=0)
    head = (await visible_log(postgres_store, 2))[-1].checkpoint
    assert not await progress.reached(head, within=0)
    # Nobody listens: the runner's word goes unheard.
    await ReadModelRunner(postgres_store, pool).catch_up()
    assert not await progress.reached(head, within=0)

    progress.heard(None)

    assert await progress.reached(head, within=0)


def encode(at: Checkpoint) -> str:
    """A checkpoint as SAVE_CHECKPOINT's NOTIFY tells it (in SQL, the only writer)."""
    return f"{at.transaction_id}:{at.position}"


def test_a_checkpoint_is_told_as_text_and_anything_else_is_ignored() -> None:
    at = Checkpoint(2**40 + 3, 17)
    assert decode(encode(at)) == at
    assert decode("not:ours") is None
    assert decode("") is None


async def test_a_read_waits_for_every_event_and_the_scheduler_s_pace_for_all_but_some(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    await postgres_store.append("other-1", numbered(3), expected_version=0)
    await visible_log(postgres_store, 3)
    await ReadModelRunner(postgres_store, pool).catch_up()
    # Not waited for at all: the read models do not move here.
    read_models = ReadModels(pool, Progress(pool), wait=0)
    await read_models.up_to_date()
    await postgres_store.append("other-2", numbered(2), expected_version=0)
    await visible_log(postgres_store, 5)

    await read_models.within(10)  # two behind
    with pytest.raises(ReadModelsBehind):
        await read_models.within(1)
    with pytest.raises(ReadModelsBehind):
        await read_models.up_to_date()
