"""The PostgreSQL store's statements on a log of some size, where the planner's choices
are those it makes on a server's (on a tiny table, reading all of it is cheapest)."""

import asyncpg

from eventstore import postgres_sql as sql
from eventstore.postgres import PostgresEventStore
from tests.support import log_of_pages, pages_read


async def test_the_check_for_commits_held_back_reads_the_end_of_the_log_not_all_of_it(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    async with pool.acquire() as connection:
        size = await log_of_pages(postgres_store, connection, 60)
        read = await pages_read(connection, sql.HELD_BACK)
        held_back = await connection.fetchval(sql.HELD_BACK)

    # A reader that finds nothing new asks this each time: on the whole table it cost
    # 25 ms for 200,000 events, growing with the log.
    assert read <= 5 < size
    assert held_back is False
