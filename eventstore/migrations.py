"""Versioned schema migrations: `schema/sql/NNNN_name.sql`, each applied once, in order.

All pending migrations run in one transaction under an advisory lock keyed by the current
schema, so running twice is a no-op and two processes starting at once apply each migration
once: the second waits, then finds nothing left to do.
"""

import hashlib
import re
from importlib import resources
from importlib.resources.abc import Traversable

import asyncpg
import msgspec

Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class MigrationError(Exception):
    """The migrations on disk and in the database disagree, or there is nowhere to apply."""


class Migration(msgspec.Struct, frozen=True):
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def load_migrations(directory: Traversable | None = None) -> list[Migration]:
    """The migrations in a directory (default: the `schema` package's sql/), numbered 1..n."""
    directory = directory or resources.files("schema") / "sql"
    migrations = []
    for entry in directory.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match is None:
            if entry.name.endswith(".sql"):
                raise MigrationError(f"migration file not named NNNN_name.sql: {entry.name}")
            continue
        migrations.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    migrations.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise MigrationError(f"migration versions must run 1, 2, 3... without gaps: {versions}")
    return migrations


async def migrate(
    target: asyncpg.Pool | Connection, migrations: list[Migration] | None = None
) -> list[Migration]:
    """Apply what is pending in the current schema; return what was applied."""
    migrations = load_migrations() if migrations is None else migrations
    if isinstance(target, asyncpg.Pool):
        async with target.acquire() as connection:
            return await _migrate(connection, migrations)
    return await _migrate(target, migrations)


async def _migrate(connection: Connection, migrations: list[Migration]) -> list[Migration]:
    async with connection.transaction():
        schema = await connection.fetchval("SELECT current_schema()")
        if schema is None:
            raise MigrationError("no current schema to migrate: check the search_path")
        await connection.execute(
            "SELECT pg_advisory_xact_lock(hashtext('skirmish.migrations'), hashtext($1))", schema
        )
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        applied = {
            row["version"]: row["checksum"]
            for row in await connection.fetch("SELECT version, checksum FROM schema_migrations")
        }
        known = {migration.version: migration for migration in migrations}
        if unknown := sorted(set(applied) - set(known)):
            raise MigrationError(f"the database has migrations this code lacks: {unknown}")
        for version, checksum in applied.items():
            if known[version].checksum != checksum:
                raise MigrationError(
                    f"migration {version} ({known[version].name}) changed after it was applied"
                )
        pending = [migration for migration in migrations if migration.version not in applied]
        for migration in pending:
            await connection.execute(migration.sql)
            await connection.execute(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                migration.version,
                migration.name,
                migration.checksum,
            )
        return pending
