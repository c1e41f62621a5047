"""A fake clock moved as time would pass: every moment something falls due on the way is
stopped at and carried out by the scheduler (POST /v1/admin/clock, and the tests). Each
moment is stored before anything is done at it (server/ops/clock_store.py).
"""

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime

import asyncpg

from eventstore.base import EventStore
from projections.queries import ReadModelsBehind
from projections.runner import ReadModelRunner
from server.clock import FakeClock
from server.ops.clock_store import move
from server.ops.scheduler import Scheduler, Tick

# The longest a clock waits for the read models, and for other schedulers' claims past
# their lease: then the operator is told (503) rather than kept waiting.
CATCH_UP_SECONDS = 30.0
CLAIMS_SECONDS = 30.0
# How often a clock waiting for another scheduler's claims looks again.
CLAIM_POLL_SECONDS = 0.01
# Whether another scheduler has some due game in hand.
_CLAIMED_ELSEWHERE = """
SELECT EXISTS (SELECT 1 FROM read_games
               WHERE claimed_until > now()
                 AND least(next_resolution_at, next_reminder_at) <= $1)"""
# From the end of its index (schema/sql/0014_next_due_index.sql), as the claims read it.
_NEXT_DUE = "SELECT min(least(next_resolution_at, next_reminder_at)) FROM read_games"


class ClaimsHeldElsewhere(Exception):
    """Other schedulers still hold games due at the clock, past the longest wait for them."""


async def advance_clock(
    clock: FakeClock,
    target: datetime,
    scheduler: Scheduler,
    pool: asyncpg.Pool,
    store: EventStore,
) -> Tick:
    """Move a fake clock to `target` as time would pass: stop at every moment something
    falls due on the way, carry it out, and go on. Returns what was done on the way."""
    total = Tick()
    # Due times show what was done before this call once the read models hold it; those of
    # the games carried out on the way, the scheduler writes as it goes.
    await read_models_caught_up(pool, store)
    while True:
        due = await _next_due(pool)
        last_step = due is None or due > target
        moment = max(due, clock.now()) if due is not None and not last_step else target
        await move(clock, moment, pool)
        tick = await scheduler.run_due()
        total.resolved += tick.resolved
        total.reminded += tick.reminded
        done = tick.resolved + tick.reminded
        if not (last_step or done or tick.failed):
            # Nothing was left for this scheduler at this moment: another one (in another
            # server process, or this process's own loop) claimed it. Wait until it is
            # done, or its lease runs out (a crash), and look again from here, rather than
            # go on to the target ahead of it and resolve the rest of the way late.
            await _claims_released(pool, clock.now(), scheduler.lease_seconds)
            continue
        # Nothing done at a due moment, only failures, means what is due cannot be carried
        # out now (the scheduler logged why): go to the target rather than stop here for ever.
        if last_step or not done:
            await move(clock, target, pool)
            if not last_step:
                await scheduler.run_due()
            await read_models_caught_up(pool, store)
            return total


async def _next_due(pool: asyncpg.Pool) -> datetime | None:
    """When something falls due next."""
    due: datetime | None = await pool.fetchval(_NEXT_DUE)
    return due


async def _claims_released(pool: asyncpg.Pool, now: datetime, lease_seconds: float) -> None:
    """Wait until no other scheduler has a game due at `now` in hand: done, or its lease run
    out (a scheduler that stopped); a lease and CLAIMS_SECONDS at most (then
    ClaimsHeldElsewhere: other schedulers keep claiming games due then)."""

    async def released() -> bool:
        return not await pool.fetchval(_CLAIMED_ELSEWHERE, now)

    await _polled_until(
        released, lease_seconds + CLAIMS_SECONDS, CLAIM_POLL_SECONDS, ClaimsHeldElsewhere
    )


async def read_models_caught_up(pool: asyncpg.Pool, store: EventStore) -> None:
    """Wait until the read models hold every event committed so far, CATCH_UP_SECONDS at
    most (then ReadModelsBehind). Their runner may work in another process."""
    runner = ReadModelRunner(store, pool)
    await _polled_until(runner.caught_up, CATCH_UP_SECONDS, 0.005, ReadModelsBehind)


async def _polled_until(
    condition: Callable[[], Awaitable[bool]],
    seconds: float,
    interval: float,
    late: type[Exception],
) -> None:
    """Ask `condition` every `interval` seconds until it holds, `seconds` at most (then
    `late`). The conditions live in the database: there is no event to wait on."""
    try:
        async with asyncio.timeout(seconds) as waiting:
            while not await condition():  # noqa: ASYNC110
                await asyncio.sleep(interval)
    except TimeoutError:
        if waiting.expired():
            raise late from None
        raise
