"""The PostgreSQL store's statements on a log of some size, where the planner's choices
are those it makes on a server's (on a tiny table, reading all of it is cheapest): each
reads a few pages, not the log."""

import asyncpg
import pytest

from eventstore import postgres_sql as sql
from eventstore.postgres import PostgresEventStore
from tests.support import log_of_pages, new_event, pages_read

# A read of a few events finds them through an index: its root, a leaf or two, their rows.
FEW_PAGES = 6


@pytest.mark.parametrize(
    "statement",
    [
        "HELD_BACK",
        "HEAD",
        "FIND_RECORDED",
        "REFUSAL",
        "READ_STREAM",
        "READ_STREAM_AFTER_POSITION",
        "READ_ALL",
        "READ_ALL_BRIEF",
        "LOAD_SNAPSHOT",
        "READ_FROM_SNAPSHOT",
        "READ_TRUNCATIONS",
        "READ_ARCHIVED_EVENTS",
    ],
)
async def test_a_read_of_a_few_events_reads_a_few_pages_of_a_long_log(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, statement: str
) -> None:
    async with pool.acquire() as connection:
        size = await log_of_pages(postgres_store, connection, 60)
        first = await postgres_store.append("game", [new_event(), new_event()], 0)
        await postgres_store.append("game", [new_event()], 2)
        (recorded,) = await postgres_store.read_stream("game", after_version=2)
        arguments: dict[str, tuple[object, ...]] = {
            "HELD_BACK": (),
            "HEAD": ("game",),
            "FIND_RECORDED": ("game", f"{{{recorded.event_id}}}"),
            "REFUSAL": ("game", f"{{{recorded.event_id}}}"),
            "READ_STREAM": ("game", 2, 10),
            "READ_STREAM_AFTER_POSITION": ("game", first.position, 10),
            "READ_ALL": (first.transaction_id, first.position, 10),
            "READ_ALL_BRIEF": (first.transaction_id, first.position, 10),
            "LOAD_SNAPSHOT": ("game", "state", None),
            "READ_FROM_SNAPSHOT": ("game", "state"),
            "READ_TRUNCATIONS": ("game",),
            "READ_ARCHIVED_EVENTS": ("game",),
        }
        read = await pages_read(connection, getattr(sql, statement), *arguments[statement])

    assert read <= FEW_PAGES < size


async def test_the_hash_chains_content_is_planned_inline_not_called_per_event(
    pool: asyncpg.Pool,
) -> None:
    """Every inserted event's hash encodes its content (`event_content`): planned into the
    trigger's expression, it costs a fifth of a call through the SQL function machinery,
    which PostgreSQL makes when the function is declared less volatile than its body."""
    plan = await pool.fetchval(
        "EXPLAIN (VERBOSE, FORMAT JSON) SELECT event_content('s', 1, gen_random_uuid(), 't', "
        "'\\x00', now(), 'a', gen_random_uuid(), NULL)"
    )
    assert "event_content" not in plan
    assert "convert_to" in plan
