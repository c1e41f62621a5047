"""Write connections kept between appends, against a real pool."""

import asyncio

import asyncpg
import pytest

from eventstore.kept_connections import KeptConnections


async def _backend(connection: asyncpg.Connection) -> int:
    pid: int = await connection.fetchval("SELECT pg_backend_pid()")
    return pid


async def test_writes_one_after_another_keep_one_connection(pool: asyncpg.Pool) -> None:
    kept = KeptConnections(pool)
    try:
        backends = {await kept.run(_backend) for _ in range(5)}
        assert len(backends) == 1
        assert kept.kept == 1
    finally:
        await kept.close()
    assert kept.kept == 0


async def test_concurrent_writes_each_get_their_own(pool: asyncpg.Pool) -> None:
    kept = KeptConnections(pool)

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
    kept = KeptConnections(pool, idle=0.05)
    try:
        idle_in_pool = pool.get_idle_size()
        await kept.run(_backend)
        assert (kept.kept, pool.get_idle_size()) == (1, idle_in_pool - 1)
        await asyncio.sleep(0.3)  # several idle periods
        assert (kept.kept, pool.get_idle_size()) == (0, idle_in_pool)
    finally:
        await kept.close()


async def test_a_connection_lost_while_kept_is_not_used_again(
    pool: asyncpg.Pool, database_url: str
) -> None:
    kept = KeptConnections(pool)
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
    kept = KeptConnections(pool)

    async def fail(connection: asyncpg.Connection) -> None:
        await connection.execute("SELECT 1/0")

    try:
        with pytest.raises(asyncpg.DivisionByZeroError):
            await kept.run(fail)
        assert kept.kept == 0
    finally:
        await kept.close()
