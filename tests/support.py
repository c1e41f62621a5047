"""Helpers for tests that need a real PostgreSQL (one fresh schema per test), and a port for a
server a test starts itself."""

import asyncio
import contextlib
import itertools
import json
import random
import socket
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import asyncpg

from eventstore.base import EventStore
from eventstore.migrations import Connection, migrate
from eventstore.records import NewEvent, RecordedEvent
from server.ops.database import create_pool, with_search_path

FIXED_TIME = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
# Below Linux's ephemeral ports (32768-60999), which every server started on port 0 and
# every outgoing connection takes from: a port probed there and let go may be handed to
# another test's server before this test's own binds it (and answers its health checks).
_OWN_PORTS = range(20_000, 32_768)


def free_port() -> int:
    """A loopback port nothing listens on now, for a server started by the test."""
    while True:
        port = random.choice(_OWN_PORTS)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


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


async def pages_read(connection: Connection, query: str, *args: object) -> int:
    """How many pages of tables and indexes PostgreSQL reads to run `query` once, planned as
    for a server's connection that has run it many times: once for any parameters (asyncpg
    prepares each statement, and PostgreSQL keeps such a generic plan after five runs)."""
    # EXECUTE takes no parameters: the arguments go in as literals, of the statement's types.
    literals = ", ".join(_literal(arg) for arg in args)
    execute = f"EXECUTE measured({literals})" if args else "EXECUTE measured"
    async with connection.transaction():
        await connection.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        await connection.execute(f"PREPARE measured AS {query}")
        try:
            explained = await connection.fetchval(
                f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {execute}"
            )
        finally:
            await connection.execute("DEALLOCATE measured")
    top = json.loads(explained)[0]["Plan"]
    return int(top["Shared Hit Blocks"] + top["Shared Read Blocks"])


def _literal(value: object) -> str:
    return "NULL" if value is None else "'" + str(value).replace("'", "''") + "'"


async def log_of_pages(store: EventStore, connection: Connection, pages: int) -> int:
    """Appends events until the events table spans at least `pages` pages, and gathers its
    statistics, as a server's log has them: the planner's choices on a tiny table are not
    those it makes on a real one. Returns the table's size in pages."""
    size = 0
    for filler in itertools.count():
        if size >= pages:
            break
        await store.append(f"filler-{filler}", [new_event() for _ in range(500)], None)
        size = await analyzed_pages(connection, "events")
    return size


async def analyzed_pages(connection: Connection, table: str) -> int:
    """Gathers the table's statistics, as a server's autovacuum would have; its pages."""
    await connection.execute(f"ANALYZE {table}")
    pages = await connection.fetchval(
        "SELECT relpages FROM pg_class WHERE oid = $1::regclass", table
    )
    return int(pages)
