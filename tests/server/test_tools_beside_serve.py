"""`skirmish verify`, `rebuild` and `replay` beside a live `skirmish serve` on the same embedded
PostgreSQL: they use the server's database and leave it running (docs/operations.md, "The
embedded database")."""

import asyncio
import os
from pathlib import Path

import httpx

from tests.server.running import SKIRMISH, processes_of, running_url, serve_subprocess


def _environment(data_dir: Path) -> dict[str, str]:
    """No DATABASE_URL: the embedded PostgreSQL of `data_dir`, for the server and the tools."""
    environment = {name: value for name, value in os.environ.items() if name != "DATABASE_URL"}
    return {**environment, "SKIRMISH_RATE_LIMITS": "off", "SKIRMISH_DATA_DIR": str(data_dir)}


async def _answers(client: httpx.AsyncClient, n: int) -> list[int]:
    """A read and a write: their statuses."""
    health = await client.get("/v1/health")
    created = await client.post("/v1/accounts", json={"name": f"Beside {n}"})
    return [health.status_code, created.status_code]


async def test_the_tools_beside_the_server_leave_its_database_running(embedded_dir: Path) -> None:
    data_dir = embedded_dir / "postgres"
    environment = _environment(data_dir)
    finished: list[tuple[str, int | None, bytes]] = []
    during: list[int] = []
    after: list[list[int]] = []
    async with (
        serve_subprocess("--data-dir", str(data_dir), environment=environment) as base,
        httpx.AsyncClient(base_url=base) as client,
    ):
        before = await _answers(client, 0)
        for tool in ("verify", "rebuild", "replay"):
            running = await asyncio.create_subprocess_exec(
                str(SKIRMISH),
                tool,
                "--data-dir",
                str(data_dir),
                env=environment,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            output = asyncio.create_task(running.communicate())
            while not output.done():
                during.extend(await _answers(client, len(during)))
            finished.append((tool, running.returncode, (await output)[0]))
            after.append(await _answers(client, len(during)))
        url = running_url(data_dir)
    assert [(tool, status) for tool, status, _ in finished] == [
        ("verify", 0),
        ("rebuild", 0),
        ("replay", 0),
    ], finished
    assert before == [200, 201]
    assert after == [[200, 201]] * 3
    assert set(during) <= {200, 201}, during
    assert url is not None
    # Nothing else used it: the server's exit stopped it.
    assert running_url(data_dir) is None
    assert processes_of(data_dir) == []
