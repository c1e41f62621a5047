"""Helpers for tests that need a real PostgreSQL: one fresh schema per test."""

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import asyncpg

from eventstore.base import EventStore, NewEvent, RecordedEvent
from eventstore.migrations import migrate
from server.database import create_pool, with_search_path

FIXED_TIME = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


@contextlib.asynccontextmanager
async def fresh_schema(database_url: str) -> AsyncIterator[str]:
    """A new empty schema for one test, dropped afterwards; yields a URL that uses it."""
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(database_url)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        yield with_search_path(database_url, schema)
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


@contextlib.asynccontextmanager
async def migrated_pool(
    url: str, *, max_size: int = 10, min_size: int = 1, application_name: str = "tests"
) -> AsyncIterator[asyncpg.Pool]:
    pool = await create_pool(
        url, max_size=max_size, min_size=min_size, application_name=application_name
    )
    try:
        await migrate(pool)
        yield pool
    finally:
        await pool.close()


def new_event(
    data: bytes = b'{"type":"thing_happened.v1"}',
    *,
    type: str = "thing_happened.v1",
    event_id: uuid.UUID | None = None,
    actor: str = "tester",
) -> NewEvent:
    return NewEvent(
        event_id=event_id or uuid.uuid4(),
        type=type,
        data=data,
        occurred_at=FIXED_TIME,
        actor=actor,
        correlation_id=uuid.uuid4(),
    )


def numbered(count: int, *, start: int = 1) -> list[NewEvent]:
    return [new_event(b'{"n":%d}' % n) for n in range(start, start + count)]


async def visible_log(store: EventStore, count: int) -> list[RecordedEvent]:
    """The global log once `count` events show in it. The log shows a commit only when every
    older transaction in the cluster has ended (other tests' too), so right after an append
    read_all may lag behind; once shown, an event stays shown."""
    events: list[RecordedEvent] = []
    async with store.subscribe() as subscription, asyncio.timeout(10):
        while len(events) < count:
            events.extend(await subscription.next_batch())
    return events
