"""The figures /metrics reads from the database at each scrape."""

from datetime import UTC, datetime

import asyncpg

from server.http import metrics
from server.http.metrics import database_figures
from tests.support import analyzed_pages, pages_read

NOW = datetime(2030, 1, 1, tzinfo=UTC)


async def test_the_webhook_figures_read_the_backlog_not_every_delivery_ever_made(
    pool: asyncpg.Pool,
) -> None:
    async with pool.acquire() as connection:
        # 40,000 deliveries made, 100 waiting (20 of them tried before), 5 given up.
        await connection.execute(
            "INSERT INTO webhook_deliveries (game_id, position, payload, next_attempt_at, "
            "delivered_at, failed_at, attempts) "
            "SELECT 'g' || n % 200, n, '{}', $1::timestamptz, "
            "CASE WHEN n > 105 THEN $1::timestamptz END, "
            "CASE WHEN n <= 5 THEN $1::timestamptz END, "
            "CASE WHEN n <= 25 THEN 1 ELSE 0 END "
            "FROM generate_series(1, 40105) AS n",
            NOW,
        )
        size = await analyzed_pages(connection, "webhook_deliveries")
        read = await pages_read(connection, metrics._WEBHOOKS)

    figures = await database_figures(pool, NOW)
    assert (figures.webhook_backlog, figures.webhook_retrying, figures.webhook_given_up) == (
        100,
        20,
        5,
    )
    # Every scrape read the whole table.
    assert read < size / 10
