"""Where the benchmarks run: a scratch schema in DATABASE_URL, or, when it is unset, in an
embedded PostgreSQL started for the run (as the server itself would). Dropped afterwards."""

import contextlib
import os
import tempfile
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg

from eventstore.migrations import migrate
from server.ops.database import EmbeddedPostgres, create_pool, with_search_path


@contextlib.asynccontextmanager
async def scratch_database() -> AsyncIterator[str]:
    """A URL whose connections work in a scratch schema of their own."""
    url = os.environ.get("DATABASE_URL")
    if url:
        async with _scratch_schema(url) as schema_url:
            yield schema_url
        return
    with tempfile.TemporaryDirectory() as directory:
        embedded = EmbeddedPostgres(Path(directory) / "data")
        try:
            async with _scratch_schema(embedded.start()) as schema_url:
                yield schema_url
        finally:
            embedded.stop()


@contextlib.asynccontextmanager
async def migrated_pool(url: str, *, max_size: int = 10) -> AsyncIterator[asyncpg.Pool]:
    pool = await create_pool(url, max_size=max_size, application_name="benchmark")
    try:
        await migrate(pool)
        yield pool
    finally:
        await pool.close()


@contextlib.asynccontextmanager
async def _scratch_schema(url: str) -> AsyncIterator[str]:
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        yield with_search_path(url, schema)
    finally:
        await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await admin.close()
