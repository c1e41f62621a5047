"""One leader at a time, on real PostgreSQL: the lock is taken, waited for, given up on
cancellation at once, and a leader whose lock connection is lost stops working."""

import asyncio
import contextlib
from collections.abc import AsyncIterator

import asyncpg
import pytest

from projections.leading import Connect, LeadershipLost, lead
from server.ops.database import dedicated_connections
from tests.server.running import CuttableLink

KEY = 42


class Recording:
    """Dedicated connections, each kept here for the test to look at."""

    def __init__(self, url: str) -> None:
        self._connect = dedicated_connections(url)
        self.opened: list[asyncpg.Connection] = []

    @contextlib.asynccontextmanager
    async def connect(self) -> AsyncIterator[asyncpg.Connection]:
        async with self._connect() as connection:
            self.opened.append(connection)
            yield connection


class Work:
    """Work that runs until released, noting whether it started and how it ended."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.cancelled = False

    async def __call__(self) -> None:
        self.started.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise


async def _leading(connect: Connect, work: Work) -> asyncio.Task[None]:
    task = asyncio.create_task(lead(connect, KEY, work))
    async with asyncio.timeout(10):
        await work.started.wait()
    return task


async def _waiting_for_a_lock(pool: asyncpg.Pool, connection: asyncpg.Connection) -> bool:
    pid = connection.get_server_pid()
    return bool(
        await pool.fetchval(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted)", pid
        )
    )


async def test_a_second_leader_waits_and_when_cancelled_stops_waiting_at_once(
    schema_url: str, pool: asyncpg.Pool
) -> None:
    first, second = Work(), Work()
    holding = await _leading(Recording(schema_url).connect, first)
    waiter = Recording(schema_url)
    waiting = asyncio.create_task(lead(waiter.connect, KEY, second))
    async with asyncio.timeout(10):
        # Waiting is seen in the database only.
        while not (waiter.opened and await _waiting_for_a_lock(pool, waiter.opened[0])):  # noqa: ASYNC110
            await asyncio.sleep(0.01)

    waiting.cancel()
    async with asyncio.timeout(2):
        with pytest.raises(asyncio.CancelledError):
            await waiting
    first.release.set()
    async with asyncio.timeout(2):
        await holding
    third = Work()
    async with asyncio.timeout(2):
        after = await _leading(Recording(schema_url).connect, third)
    third.release.set()
    await after

    assert not second.started.is_set()
    assert waiter.opened[0].is_closed()


async def test_a_leader_whose_lock_connection_is_lost_stops_and_the_lock_is_free(
    schema_url: str, pool: asyncpg.Pool
) -> None:
    lost_work = Work()
    recording = Recording(schema_url)
    leading = await _leading(recording.connect, lost_work)

    await pool.execute("SELECT pg_terminate_backend($1)", recording.opened[0].get_server_pid())
    async with asyncio.timeout(5):
        with pytest.raises(LeadershipLost):
            await leading
    next_work = Work()
    async with asyncio.timeout(5):
        after = await _leading(Recording(schema_url).connect, next_work)
    next_work.release.set()
    await after

    assert lost_work.cancelled


async def test_a_leader_cut_off_from_its_database_stops_at_once_when_cancelled(
    schema_url: str,
) -> None:
    link = CuttableLink(schema_url)
    await link.restore()
    try:
        work = Work()
        leading = await _leading(Recording(link.url).connect, work)
        await link.cut()
        leading.cancel()
        async with asyncio.timeout(2):
            with pytest.raises((asyncio.CancelledError, LeadershipLost)):
                await leading
    finally:
        await link.cut()
    assert work.cancelled
