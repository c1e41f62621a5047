"""The PostgreSQL store under real concurrency: separate stores are separate connections and
transactions, as separate server processes would be."""

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator

import asyncpg

from eventstore.batching import AppendRequest
from eventstore.errors import ConcurrencyError
from eventstore.postgres import PostgresEventStore
from eventstore.postgres_append import append_chain
from eventstore.records import AppendResult, NewSnapshot, RecordedEvent
from tests.eventstore.test_contract_subscribe import receive
from tests.support import FIXED_TIME, migrated_pool, new_event


@contextlib.asynccontextmanager
async def stores(
    pool: asyncpg.Pool, count: int, **options: float
) -> AsyncIterator[list[PostgresEventStore]]:
    opened = [await PostgresEventStore.open(pool, **options) for _ in range(count)]
    try:
        yield opened
    finally:
        for store in opened:
            await store.close()


async def test_fifty_appenders_race_for_each_version_and_exactly_one_wins(schema_url: str) -> None:
    async with (
        migrated_pool(schema_url, max_size=50, min_size=50) as pool,
        stores(pool, 50) as appenders,
    ):
        winners: list[uuid.UUID] = []
        for version in range(3):
            events = [new_event() for _ in appenders]
            outcomes = await asyncio.gather(
                *(
                    store.append("game", [event], expected_version=version)
                    for store, event in zip(appenders, events, strict=True)
                ),
                return_exceptions=True,
            )
            won = [i for i, outcome in enumerate(outcomes) if isinstance(outcome, AppendResult)]
            lost = [outcome for outcome in outcomes if isinstance(outcome, ConcurrencyError)]
            assert len(won) == 1
            assert len(lost) == 49
            assert {(error.expected, error.actual) for error in lost} == {(version, version + 1)}
            winners.append(events[won[0]].event_id)

        stream = await appenders[0].read_stream("game")
    assert [(e.version, e.event_id) for e in stream] == list(enumerate(winners, start=1))


async def test_fifty_callers_of_one_store_are_combined_with_the_same_outcome(
    postgres_store: PostgresEventStore,
) -> None:
    outcomes = await asyncio.gather(
        *(postgres_store.append("game", [new_event()], expected_version=0) for _ in range(50)),
        return_exceptions=True,
    )
    assert sum(isinstance(outcome, AppendResult) for outcome in outcomes) == 1
    assert sum(isinstance(outcome, ConcurrencyError) for outcome in outcomes) == 49
    # Appending anywhere, they all get in, one version each.
    results = await asyncio.gather(
        *(postgres_store.append("game", [new_event()], expected_version=None) for _ in range(50))
    )
    assert sorted(result.version for result in results) == list(range(2, 52))


async def test_twenty_writers_and_a_follower_who_sees_every_event_once_in_order(
    pool: asyncpg.Pool,
) -> None:
    acknowledged: list[uuid.UUID] = []
    turns = 15
    total = 20 * sum(1 + turn % 3 for turn in range(turns))

    async def write(store: PostgresEventStore, name: str) -> None:
        version = 0
        for turn in range(turns):
            events = [new_event() for _ in range(1 + turn % 3)]
            version = (await store.append(name, events, expected_version=version)).version
            acknowledged.extend(event.event_id for event in events)

    # Polling every minute: what arrives in time was announced by NOTIFY.
    async with stores(pool, 20) as writers, stores(pool, 1, poll_interval=60) as [follower]:
        async with follower.subscribe() as subscription:
            following = asyncio.create_task(receive(subscription, total))
            await subscription.caught_up.wait()
            await asyncio.gather(*(write(store, f"w{i}") for i, store in enumerate(writers)))
            received = await following
        log = await follower.read_all(limit=total + 1)

    assert len(received) == len(acknowledged) == total
    assert {event.event_id for event in received} == set(acknowledged)
    assert received == log
    checkpoints = [event.checkpoint for event in received]
    assert checkpoints == sorted(checkpoints)
    assert len(set(checkpoints)) == len(checkpoints)
    for i in range(20):
        versions = [event.version for event in received if event.stream_id == f"w{i}"]
        assert versions == list(range(1, len(versions) + 1))


async def test_a_reader_never_skips_an_event_that_commits_late(
    pool: asyncpg.Pool, postgres_store: PostgresEventStore
) -> None:
    async with pool.acquire() as slow:
        transaction = slow.transaction()
        await transaction.start()
        # Takes its transaction id and position first, then commits last.
        await append_chain(slow, [AppendRequest("slow", (new_event(),), 0)])
        await postgres_store.append("fast", [new_event()], expected_version=0)
        # A reader that went by position alone would see "fast", move past "slow" and
        # never come back for it. This one waits.
        assert await postgres_store.read_all() == []
        assert await postgres_store.read_all_brief() == []
        await transaction.commit()

    async with postgres_store.subscribe() as subscription:
        received = await receive(subscription, 2)
    assert [event.stream_id for event in received] == ["slow", "fast"]


async def test_truncating_under_concurrent_appends_loses_nothing_acknowledged(
    pool: asyncpg.Pool,
) -> None:
    acknowledged: set[uuid.UUID] = set()
    progress = asyncio.Condition()
    writers_left = 8
    truncations = 0

    async def write(store: PostgresEventStore) -> None:
        nonlocal writers_left
        for _ in range(20):
            event = new_event()
            await store.append("game", [event], expected_version=None)
            acknowledged.add(event.event_id)
            async with progress:
                progress.notify_all()
        async with progress:
            writers_left -= 1
            progress.notify_all()

    async def truncate(store: PostgresEventStore) -> None:
        nonlocal truncations
        seen = 0
        while writers_left:
            version = await store.stream_version("game")
            if version >= 5:
                await store.truncate(
                    "game",
                    version - 3,
                    truncated_by="admin",
                    reason="rewind under load",
                    truncated_at=FIXED_TIME,
                )
                truncations += 1
            # Until something was appended since the last look, or the writers are done.
            async with progress:
                await progress.wait_for(
                    lambda last=seen: len(acknowledged) > last or not writers_left  # type: ignore[misc]
                )
            seen = len(acknowledged)

    async with stores(pool, 9) as [admin, *writers]:
        await asyncio.gather(truncate(admin), *(write(store) for store in writers))
        current = await admin.read_stream("game")
        archived = [event for t in await admin.read_archive("game") for event in t.events]

    kept = [event.event_id for event in current + archived]
    assert truncations > 0
    assert len(kept) == len(set(kept))
    assert set(kept) == acknowledged
    assert [event.version for event in current] == list(range(1, len(current) + 1))


async def test_a_subscription_survives_losing_its_database_connections(
    schema_url: str, database_url: str
) -> None:
    name = f"doomed-{uuid.uuid4().hex[:8]}"
    received: list[RecordedEvent] = []
    async with (
        migrated_pool(schema_url, application_name=name) as doomed_pool,
        migrated_pool(schema_url) as other_pool,
        stores(doomed_pool, 1, poll_interval=60) as [store],
        stores(other_pool, 1) as [writer],
    ):
        async with store.subscribe_stream("game") as subscription:

            async def append_when_listening(events: int, version: int) -> list[RecordedEvent]:
                # Appended only once the follower waits, so that only a wake-up delivers it.
                following = asyncio.create_task(receive(subscription, events))
                await subscription.caught_up.wait()
                await writer.append("game", [new_event() for _ in range(events)], version)
                return await following

            received += await append_when_listening(1, 0)

            admin = await asyncpg.connect(database_url)
            try:
                killed = await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE application_name = $1",
                    name,
                )
            finally:
                await admin.close()
            assert killed >= 2  # at least the listener and the pool's other connection

            received += await append_when_listening(2, 1)
            received += await append_when_listening(1, 3)
            # The store that lost its connections appends again, too.
            await store.append("game", [new_event()], expected_version=4)
            received += await receive(subscription, 1)

        stream = await writer.read_stream("game")
    assert received == stream


async def test_chained_appends_save_the_snapshot_of_the_last_that_has_one(
    pool: asyncpg.Pool, postgres_store: PostgresEventStore
) -> None:
    requests = [
        AppendRequest("game", (new_event(),), 0, NewSnapshot("state", b"one")),
        AppendRequest("game", (new_event(), new_event()), 1, NewSnapshot("state", b"three")),
        AppendRequest("game", (new_event(),), 3),
    ]
    async with pool.acquire() as connection:
        outcomes = await append_chain(connection, requests)
    assert [outcome.version for outcome in outcomes if isinstance(outcome, AppendResult)] == [
        1,
        3,
        4,
    ]
    [_, _, third, _] = await postgres_store.read_stream("game")
    loaded = await postgres_store.load_snapshot("game", "state")
    assert loaded is not None
    assert (loaded.version, loaded.position, loaded.data) == (3, third.position, b"three")


async def test_a_channel_heard_beside_the_store_s_is_told_when_word_may_have_been_lost(
    schema_url: str, database_url: str
) -> None:
    name = f"doomed-{uuid.uuid4().hex[:8]}"
    heard: asyncio.Queue[str | None] = asyncio.Queue()
    channel = f"others-{uuid.uuid4().hex[:8]}"
    async with (
        migrated_pool(schema_url, application_name=name) as doomed_pool,
        stores(doomed_pool, 1) as [store],
    ):
        # Nothing listened yet: adding the channel starts the store's listening connection.
        await store.listen(channel, heard.put_nowait)
        admin = await asyncpg.connect(database_url)
        try:
            await admin.execute("SELECT pg_notify($1, 'first')", channel)
            assert await asyncio.wait_for(heard.get(), 30) == "first"
            await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = $1",
                name,
            )
            # Back on a new connection, which says so, and listens on the channel again.
            assert await asyncio.wait_for(heard.get(), 30) is None
            await admin.execute("SELECT pg_notify($1, 'second')", channel)
            assert await asyncio.wait_for(heard.get(), 30) == "second"
        finally:
            await admin.close()
