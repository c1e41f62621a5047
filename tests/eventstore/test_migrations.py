"""Migrations: applied once, in order, in the current schema, safe twice and in parallel."""

import asyncio
from pathlib import Path

import asyncpg
import pytest

from eventstore import chain
from eventstore.migrations import Migration, MigrationError, load_migrations, migrate
from eventstore.postgres import PostgresEventStore
from tests.support import migrated_pool, numbered


async def test_migrating_applies_every_migration_in_the_current_schema(schema_url: str) -> None:
    connection = await asyncpg.connect(schema_url)
    try:
        applied = await migrate(connection)
        schema = await connection.fetchval("SELECT current_schema()")
        tables = {
            row[0]
            for row in await connection.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = $1", schema
            )
        }
    finally:
        await connection.close()
    assert [m.version for m in applied] == [m.version for m in load_migrations()]
    assert {"streams", "events", "truncations", "archived_events", "snapshots"} <= tables
    assert "schema_migrations" in tables


async def test_migrating_twice_applies_nothing_the_second_time(schema_url: str) -> None:
    connection = await asyncpg.connect(schema_url)
    try:
        assert await migrate(connection)
        assert await migrate(connection) == []
        count = await connection.fetchval("SELECT count(*) FROM schema_migrations")
    finally:
        await connection.close()
    assert count == len(load_migrations())


async def test_two_processes_migrating_at_once_apply_each_migration_once(schema_url: str) -> None:
    first, second = await asyncpg.connect(schema_url), await asyncpg.connect(schema_url)
    try:
        results = await asyncio.gather(migrate(first), migrate(second))
        count = await first.fetchval("SELECT count(*) FROM schema_migrations")
    finally:
        await first.close()
        await second.close()
    assert sorted(len(applied) for applied in results) == [0, len(load_migrations())]
    assert count == len(load_migrations())


async def test_a_migration_changed_after_it_was_applied_is_refused(schema_url: str) -> None:
    original = [Migration(1, "first", "CREATE TABLE t (x int);")]
    edited = [Migration(1, "first", "CREATE TABLE t (x bigint);")]
    connection = await asyncpg.connect(schema_url)
    try:
        await migrate(connection, original)
        with pytest.raises(MigrationError, match="changed"):
            await migrate(connection, edited)
        with pytest.raises(MigrationError, match="lacks"):
            await migrate(connection, [])
    finally:
        await connection.close()


async def test_migrating_without_a_current_schema_is_refused(database_url: str) -> None:
    connection = await asyncpg.connect(database_url, server_settings={"search_path": "nowhere"})
    try:
        with pytest.raises(MigrationError, match="search_path"):
            await migrate(connection)
    finally:
        await connection.close()


def test_migration_files_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_first.sql").write_text("SELECT 1;")
    (tmp_path / "0003_third.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="gaps"):
        load_migrations(tmp_path)
    (tmp_path / "3_bad.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="NNNN"):
        load_migrations(tmp_path)


async def test_the_hash_chain_migration_chains_the_events_stored_before_it(
    schema_url: str,
) -> None:
    before_chain = [m for m in load_migrations() if m.version < 9]
    connection = await asyncpg.connect(schema_url)
    try:
        await migrate(connection, before_chain)
        # Stream g: four events, truncated after 2, then two more (versions 3 and 4 again).
        await connection.execute("INSERT INTO streams VALUES ('g', 4)")
        for version in (1, 2, 3, 4):
            await _insert_by_hand(connection, version)
        truncation = await connection.fetchval(
            "INSERT INTO truncations (stream_id, after_version, truncated_by, reason, "
            "truncated_at) VALUES ('g', 2, 'a', 'r', now()) RETURNING truncation_id"
        )
        await connection.execute(
            "WITH moved AS (DELETE FROM events WHERE version > 2 RETURNING *) "
            "INSERT INTO archived_events SELECT stream_id, $1, version, position, "
            "transaction_id, event_id, type, data, occurred_at, actor, correlation_id, "
            "causation_id FROM moved",
            truncation,
        )
        for version in (3, 4):
            await _insert_by_hand(connection, version)
        await migrate(connection)
    finally:
        await connection.close()

    async with migrated_pool(schema_url) as pool, await PostgresEventStore.open(pool) as store:
        await store.append("g", numbered(1), expected_version=4)
        stream, archive = await store.read_stream("g"), await store.read_archive("g")

    assert [len(t.events) for t in archive] == [2]
    assert chain.first_break(5, stream, archive) is None
    assert archive[0].events[0].hash == chain.link(stream[1].hash, "g", 3, archive[0].events[0])


async def _insert_by_hand(connection: asyncpg.Connection, version: int) -> None:
    await connection.execute(
        "INSERT INTO events (stream_id, version, event_id, type, data, occurred_at, actor, "
        "correlation_id) VALUES ('g', $1, gen_random_uuid(), 'thing_happened.v1', $2, now(), "
        "'p1', gen_random_uuid())",
        version,
        b'{"n":%d}' % version,
    )


async def test_the_acting_user_migration_reads_again_as_utf8_the_ids_read_as_latin1(
    schema_url: str,
) -> None:
    before = [m for m in load_migrations() if m.version < 21]
    # What the server stored from the UTF-8 bytes of each id, by reading them as Latin-1.
    misread = "José".encode().decode("latin-1")
    connection = await asyncpg.connect(schema_url)
    try:
        await migrate(connection, before)
        for account, name, external_id in (
            ("a1", misread, misread),
            ("a2", "Named by the client", "Zoë".encode().decode("latin-1")),
            # Latin-1 bytes that are not UTF-8: what a client really sent, kept.
            ("a3", "Müller", "Müller"),
            ("a4", "Plain", "plain-42"),
        ):
            await connection.execute(
                "INSERT INTO accounts (account_id, name, client_id, external_id, created_at) "
                "VALUES ($1, $2, 'c1', $3, now())",
                account,
                name,
                external_id,
            )
        await migrate(connection)
        found = await connection.fetch(
            "SELECT account_id, name, external_id FROM accounts ORDER BY account_id"
        )
    finally:
        await connection.close()

    assert [tuple(row) for row in found] == [
        ("a1", "José", "José"),
        ("a2", "Named by the client", "Zoë"),
        ("a3", "Müller", "Müller"),
        ("a4", "Plain", "plain-42"),
    ]
