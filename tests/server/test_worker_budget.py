"""How many workers the database's connections fit (server/ops/worker_budget.py): by default no
more than fit, and a clear refusal of more."""

import asyncio
import os
import subprocess
from pathlib import Path

import asyncpg
import pytest

from server.ops.worker_budget import (
    Budget,
    TooManyWorkers,
    check_workers,
    connection_budget,
    default_workers,
)
from tests.server.running import SKIRMISH, serve_subprocess

# PostgreSQL's defaults: 100 connections, 3 of them for superusers.
DEFAULT = Budget(max_connections=100, reserved=3)


@pytest.mark.parametrize(
    ("cores", "budget", "pool_size", "workers"),
    [
        # 100 - 3 - 10 for the tools = 87 connections; 12 a worker with the default pool.
        (2, DEFAULT, 10, 2),
        (7, DEFAULT, 10, 7),
        (8, DEFAULT, 10, 7),
        (64, DEFAULT, 10, 7),
        (64, DEFAULT, 4, 14),
        (64, DEFAULT, 60, 1),
        # None fits: one all the same (its pool fills no further than the database lets it).
        (64, DEFAULT, 1000, 1),
        (64, Budget(max_connections=1000, reserved=3), 10, 64),
        (64, Budget(max_connections=500, reserved=13), 10, 39),
        (1, DEFAULT, 10, 1),
    ],
)
def test_the_default_workers_fit_the_connections_and_the_cores(
    cores: int, budget: Budget, pool_size: int, workers: int
) -> None:
    assert default_workers(cores, budget, pool_size) == workers


def test_more_workers_than_fit_are_refused_with_what_fits() -> None:
    check_workers(7, DEFAULT, 10)
    check_workers(1, DEFAULT, 1000)
    with pytest.raises(TooManyWorkers) as refused:
        check_workers(8, DEFAULT, 10)
    assert str(refused.value) == (
        "--workers 8 need 8 x 12 = 96 connections (SKIRMISH_POOL_SIZE 10 each, and 2 for "
        "their leaders' locks), but the database takes 87 (max_connections 100, less 3 "
        "reserved and 10 left for the tools): 7 workers at most; pass fewer, lower "
        "SKIRMISH_POOL_SIZE or raise max_connections"
    )


async def test_the_budget_is_the_databases_own(database_url: str) -> None:
    connection = await asyncpg.connect(database_url)
    try:
        most = int(await connection.fetchval("SHOW max_connections"))
        superusers = int(await connection.fetchval("SHOW superuser_reserved_connections"))
        others = await connection.fetchval(
            "SELECT setting::int FROM pg_settings WHERE name = 'reserved_connections'"
        )
    finally:
        await connection.close()
    assert await connection_budget(database_url) == Budget(most, superusers + (others or 0))


async def test_serve_runs_the_workers_that_fit_and_refuses_more(
    schema_url: str, tmp_path: Path
) -> None:
    budget = await connection_budget(schema_url)
    # A pool so large that one worker fits, whatever the cores.
    pool_size = budget.max_connections // 2
    environment = {
        **os.environ,
        "DATABASE_URL": schema_url,
        "SKIRMISH_POOL_SIZE": str(pool_size),
        "SKIRMISH_DATA_DIR": str(tmp_path),
    }
    refused = await asyncio.to_thread(
        subprocess.run,
        [str(SKIRMISH), "serve", "--port", "0", "--workers", "2"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2
    assert refused.stderr.startswith(
        f"error: --workers 2 need 2 x {pool_size + 2} = {2 * (pool_size + 2)} connections"
    ), refused.stderr
    assert os.listdir(tmp_path) == []
    assert f"max_connections {budget.max_connections}" in refused.stderr

    log: list[str] = []
    async with serve_subprocess(environment=environment, log=log):
        pass
    said = "".join(log)
    assert f"running 1 worker ({os.cpu_count()} cores;" in said
    # One worker serves in the process itself: no parent announces workers.
    assert "workers:" not in said
