"""`PostgresEventStore.listen`: the connection that listens for appends hears another channel
too, and tells its handler None once it had to listen again (what was sent meanwhile is
gone), then hears that channel on the new connection."""

import asyncio
import uuid

import asyncpg

from eventstore.postgres import PostgresEventStore, channel_for_schema
from tests.support import migrated_pool

WAIT_SECONDS = 15.0


class Heard:
    """A handler that keeps what it is told, and wakes whoever waits for more."""

    def __init__(self) -> None:
        self.payloads: list[str | None] = []
        self._told = asyncio.Event()

    def __call__(self, payload: str | None) -> None:
        self.payloads.append(payload)
        self._told.set()

    async def until(self, count: int) -> None:
        async with asyncio.timeout(WAIT_SECONDS):
            while len(self.payloads) < count:
                self._told.clear()
                await self._told.wait()


async def test_another_channel_is_heard_and_told_when_it_was_not(
    schema_url: str, database_url: str
) -> None:
    name = f"listener-{uuid.uuid4().hex[:8]}"
    heard = Heard()
    async with (
        migrated_pool(schema_url, application_name=name) as pool,
        await PostgresEventStore.open(pool) as store,
    ):
        schema = await pool.fetchval("SELECT current_schema()")
        channel = channel_for_schema(schema, "test")
        assert channel == f"test:{schema}"
        await store.listen(channel, heard)
        # Listening when `listen` returns: no wait before the first notification.
        await pool.execute("SELECT pg_notify($1, 'one')", channel)
        await heard.until(1)
        admin = await asyncpg.connect(database_url)
        try:
            # The listening connection lost (it is the one whose last query was a LISTEN).
            killed = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = $1 AND query LIKE 'LISTEN %'",
                name,
            )
        finally:
            await admin.close()
        assert killed == 1
        await heard.until(2)
        await pool.execute("SELECT pg_notify($1, 'two')", channel)
        await heard.until(3)
    assert heard.payloads == ["one", None, "two"]


def test_a_long_schemas_channel_fits_postgresqls_names() -> None:
    long = channel_for_schema("s" * 80, "revoked")
    assert long.startswith("revoked:")
    assert len(long.encode()) <= 63
    assert long != channel_for_schema("s" * 80)
