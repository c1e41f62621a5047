"""End to end: the README's `skirmish serve`, with no DATABASE_URL, in a subprocess."""

import asyncio
import os
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import httpx

from eventstore.postgres import PostgresEventStore
from server.ops.database import create_pool
from tests.api.support import Api, Live
from tests.server.running import HEALTHY, running_url, serve_subprocess
from tests.support import new_event

OPERATOR = "operator-token-that-must-stay-secret"


def serving(data_dir: Path) -> AbstractAsyncContextManager[str]:
    """The README's serve command, with the embedded database in `data_dir`."""
    environment = {name: value for name, value in os.environ.items() if name != "DATABASE_URL"}
    return serve_subprocess("--data-dir", str(data_dir), environment=environment)


async def test_serve_with_the_embedded_database_stops_it_and_finds_its_data_again(
    embedded_dir: Path,
) -> None:
    data_dir = embedded_dir / "postgres"

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
    assert health.json() == HEALTHY
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


async def test_no_token_reaches_the_log(schema_url: str) -> None:
    environment = {**os.environ, "DATABASE_URL": schema_url, "SKIRMISH_OPERATOR_TOKEN": OPERATOR}
    log: list[str] = []
    async with (
        serve_subprocess(environment=environment, log=log) as base,
        httpx.AsyncClient(base_url=base) as client,
    ):
        api = Api(client, base)
        alice = await api.account("Alice")
        game = (await api.new_game(alice)).id
        tokens = [alice.token, OPERATOR]
        for token in tokens:
            async with Live.open(base, game, token=token) as live:
                await live.wait_for(lambda messages: bool(messages))
            await client.get(f"/v1/games/{game}", params={"token": token, "after": 1})
            await client.get(f"/v1/games/{game}", headers={"Authorization": f"Bearer {token}"})
        async with Live.open(base, game, token="not-a-token-at-all") as refused:
            await refused.wait_for(lambda messages: bool(messages))
        tokens.append("not-a-token-at-all")

    whole = "".join(log)
    assert f"/v1/games/{game}/live?[redacted]" in whole
    assert f"/v1/games/{game}?[redacted]" in whole
    assert [line for line in whole.splitlines() if any(token in line for token in tokens)] == []


async def test_a_client_that_leaves_in_the_middle_of_its_body_costs_no_traceback(
    schema_url: str,
) -> None:
    """serve_subprocess fails the test on any traceback in the server's log."""
    environment = {**os.environ, "DATABASE_URL": schema_url}
    async with serve_subprocess(environment=environment) as base:
        host, port = base.removeprefix("http://").split(":")
        for path in ("/v1/accounts", "/v1/adjudicate"):
            _, writer = await asyncio.open_connection(host, int(port))
            writer.write(
                f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                'Content-Length: 1000\r\n\r\n{"name": '.encode()
            )
            await writer.drain()
            writer.close()
            await writer.wait_closed()
        async with httpx.AsyncClient(base_url=base) as client:
            created = await client.post("/v1/accounts", json={"name": "Still here"})
    assert created.status_code == 201
