"""Migrations: applied once, in order, in the current schema, safe twice and in parallel."""

import asyncio
from pathlib import Path

import asyncpg
import pytest

from eventstore.migrations import Migration, MigrationError, load_migrations, migrate


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
