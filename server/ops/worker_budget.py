"""How many `skirmish serve` workers the database's connections fit.

Each worker takes its pool (SKIRMISH_POOL_SIZE) and LEADERS connections of its own for the
background leaders' locks; PostgreSQL refuses connections past max_connections, less those
it keeps for superusers (and, from PostgreSQL 16, reserved_connections); MARGIN more are
left for the tools (`skirmish rebuild`, `verify`), psql and the like. By default the server
runs as many workers as fit, one per core at most; more than fit are refused, since they
would answer 503 when the database turned their connections away under load.
"""

import asyncio
import logging
import os

import asyncpg
import msgspec

logger = logging.getLogger("skirmish.serve")

LEADERS = 2
MARGIN = 10
_SETTINGS = """
SELECT name, setting::int FROM pg_settings
WHERE name IN ('max_connections', 'superuser_reserved_connections', 'reserved_connections')"""


class TooManyWorkers(Exception):
    """More workers were asked for than the database's connections fit."""


class Budget(msgspec.Struct, frozen=True):
    """The database's connections: how many it takes, and how many of them it reserves."""

    max_connections: int
    reserved: int

    @property
    def available(self) -> int:
        """What the workers may take, the tools' margin left."""
        return self.max_connections - self.reserved - MARGIN


def fitting(budget: Budget, pool_size: int) -> int:
    """How many workers fit, perhaps none."""
    return max(0, budget.available // (pool_size + LEADERS))


def default_workers(cores: int, budget: Budget, pool_size: int) -> int:
    """As many as fit, one per core at most, and one at least."""
    return max(1, min(cores, fitting(budget, pool_size)))


def check_workers(workers: int, budget: Budget, pool_size: int) -> None:
    """Raise TooManyWorkers, saying why and what fits, unless `workers` fit; one always
    does (its pool fills no further than the database lets it)."""
    most = max(1, fitting(budget, pool_size))
    if workers <= most:
        return
    each = pool_size + LEADERS
    raise TooManyWorkers(
        f"--workers {workers} need {workers} x {each} = {workers * each} connections "
        f"(SKIRMISH_POOL_SIZE {pool_size} each, and {LEADERS} for their leaders' locks), but "
        f"the database takes {budget.available} ({_takes(budget)}): {_workers(most)} at "
        "most; pass fewer, lower SKIRMISH_POOL_SIZE or raise max_connections"
    )


async def connection_budget(url: str) -> Budget:
    """The budget of the database at `url`, as it says."""
    connection = await asyncpg.connect(url, timeout=5.0)
    try:
        found = {row["name"]: row["setting"] for row in await connection.fetch(_SETTINGS)}
    finally:
        await connection.close()
    reserved = found["superuser_reserved_connections"] + found.get("reserved_connections", 0)
    return Budget(found["max_connections"], reserved)


def workers_for(requested: int | None, url: str, pool_size: int) -> int:
    """`requested` once checked, or by default as many as fit, and says how many; raises
    TooManyWorkers. A database that cannot be asked is left to refuse the workers itself."""
    cores = os.cpu_count() or 1
    if requested == 1:
        return 1
    try:
        budget = asyncio.run(connection_budget(url))
    except (OSError, TimeoutError, asyncpg.PostgresError) as error:
        workers = requested or cores
        logger.warning(
            "cannot ask the database how many connections it takes (%s): %d workers", error, workers
        )
        return workers
    if requested is not None:
        check_workers(requested, budget, pool_size)
        return requested
    workers = default_workers(cores, budget, pool_size)
    logger.info(
        "running %s (%d cores; the database takes %d connections: %s; %d a worker: "
        "SKIRMISH_POOL_SIZE %d and %d for its leaders' locks)",
        _workers(workers),
        cores,
        budget.available,
        _takes(budget),
        pool_size + LEADERS,
        pool_size,
        LEADERS,
    )
    return workers


def _takes(budget: Budget) -> str:
    return (
        f"max_connections {budget.max_connections}, less {budget.reserved} reserved and "
        f"{MARGIN} left for the tools"
    )


def _workers(count: int) -> str:
    return f"{count} worker" if count == 1 else f"{count} workers"
