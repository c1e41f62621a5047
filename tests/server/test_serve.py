"""End to end: the README's `skirmish serve`, with no DATABASE_URL, in a subprocess."""

import asyncio
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from eventstore.postgres import PostgresEventStore
from server.database import create_pool, running_url
from tests.support import new_event

SKIRMISH = Path(sys.executable).parent / "skirmish"


@asynccontextmanager
async def serving(data_dir: Path) -> AsyncIterator[str]:
    """Run `skirmish serve` until the block ends, then SIGTERM it; yields its base URL."""
    environment = {name: value for name, value in os.environ.items() if name != "DATABASE_URL"}
    process = await asyncio.create_subprocess_exec(
        str(SKIRMISH),
        *("serve", "--port", "0", "--data-dir", str(data_dir)),
        env=environment,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    log: list[str] = []
    try:
        async with asyncio.timeout(60):
            while not (match := re.search(r"Uvicorn running on (http://\S+)", "".join(log))):
                line = await process.stderr.readline()
                assert line, f"serve exited early:\n{''.join(log)}"
                log.append(line.decode())
        yield match[1]
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            rest = await process.stderr.read()
            status = await process.wait()
        log.append(rest.decode())
    assert status == 0, "".join(log)


async def test_serve_with_the_embedded_database_stops_it_and_finds_its_data_again(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "postgres"

    async with serving(data_dir) as base:
        async with httpx.AsyncClient(base_url=base) as client:
            health = await client.get("/v1/health")
        url = running_url(data_dir)
        assert url is not None
        pool = await create_pool(url, max_size=2)
        try:
            async with await PostgresEventStore.open(pool) as store:
                written = await store.append("e2e", [new_event()], expected_version=0)
        finally:
            await pool.close()
    assert health.json() == {"status": "ok", "database": "ok"}
    # SIGTERM stopped the embedded server too.
    assert running_url(data_dir) is None
    assert not (data_dir / "postmaster.pid").exists()

    async with serving(data_dir) as base:
        async with httpx.AsyncClient(base_url=base) as client:
            health = await client.get("/v1/health")
        url = running_url(data_dir)
        assert url is not None
        pool = await create_pool(url, max_size=2)
        try:
            async with await PostgresEventStore.open(pool) as store:
                found = await store.read_stream("e2e")
        finally:
            await pool.close()
    assert health.status_code == 200
    assert [(event.version, event.position) for event in found] == [
        (written.version, written.position)
    ]
    assert running_url(data_dir) is None
