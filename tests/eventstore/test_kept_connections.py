"""Write connections kept between appends, against a real pool."""

import asyncio

import asyncpg
import pytest

from eventstore.kept_connections import KeptConnections
from eventstore.postgres import PostgresEventStore
from tests.support import migrated_pool, new_event


async def _backend(connection: asyncpg.Connection) -> int:
    pid: int = await connection.fetchval("SELECT pg_backend_pid()")
    return pid


def _borrowed(pool: asyncpg.Pool) -> int:
    return pool.get_size() - pool.get_idle_size()


async def test_writes_one_after_another_keep_one_connection(pool: asyncpg.Pool) -> None:
    kept = KeptConnections(pool, limit=4)
    try:
        backends = {await kept.run(_backend) for _ in range(5)}
        assert len(backends) == 1
        assert kept.kept == 1
    finally:
        await kept.close()
    assert kept.kept == 0


async def test_concurrent_writes_each_get_their_own(pool: asyncpg.Pool) -> None:
    kept = KeptConnections(pool, limit=4)

    async def slow(connection: asyncpg.Connection) -> int:
        await connection.execute("SELECT pg_sleep(0.05)")
        return await _backend(connection)

    try:
        backends = await asyncio.gather(*(kept.run(slow) for _ in range(3)))
        assert len(set(backends)) == 3
        assert kept.kept == 3
    finally:
        await kept.close()


async def test_idle_connections_go_back_to_the_pool(pool: asyncpg.Pool) -> None:
    kept = KeptConnections(pool, limit=4, idle=0.05)
    try:
        await kept.run(_backend)
        assert (kept.kept, _borrowed(pool)) == (1, 1)
        await asyncio.sleep(0.3)  # several idle periods
        assert (kept.kept, _borrowed(pool)) == (0, 0)
    finally:
        await kept.close()


async def test_a_connection_lost_while_kept_is_not_used_again(
    pool: asyncpg.Pool, database_url: str
) -> None:
    kept = KeptConnections(pool, limit=4)
    try:
        lost = await kept.run(_backend)
        admin = await asyncpg.connect(database_url)
        try:
            await admin.fetchval("SELECT pg_terminate_backend($1)", lost)
        finally:
            await admin.close()
        await asyncio.sleep(0.2)  # the client sees the socket close on its own
        assert await kept.run(_backend) != lost
    finally:
        await kept.close()


async def test_a_failed_write_gives_its_connection_back(pool: asyncpg.Pool) -> None:
    kept = KeptConnections(pool, limit=4)

    async def fail(connection: asyncpg.Connection) -> None:
        await connection.execute("SELECT 1/0")

    try:
        with pytest.raises(asyncpg.DivisionByZeroError):
            await kept.run(fail)
        assert kept.kept == 0
    finally:
        await kept.close()


async def test_no_more_than_the_limit_are_kept(pool: asyncpg.Pool) -> None:
    kept = KeptConnections(pool, limit=2)

    async def slow(connection: asyncpg.Connection) -> None:
        await connection.execute("SELECT pg_sleep(0.05)")

    try:
        await asyncio.gather(*(kept.run(slow) for _ in range(4)))
        assert (kept.kept, _borrowed(pool)) == (2, 2)  # the other two went back
    finally:
        await kept.close()


@pytest.mark.parametrize(("pool_size", "kept"), [(2, 0), (4, 1), (10, 1)])
async def test_a_store_keeps_a_connection_only_when_its_pool_has_room(
    schema_url: str, pool_size: int, kept: int
) -> None:
    async with (
        migrated_pool(schema_url, max_size=pool_size) as pool,
        await PostgresEventStore.open(pool) as store,
    ):
        await store.append("game", [new_event()], expected_version=0)
        assert _borrowed(pool) == kept
