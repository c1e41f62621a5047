"""Where a fake clock stands, kept in the database (table fake_clock), so that a restarted
`skirmish serve --fake-clock` resumes there: the clock never goes back, not even across
restarts. A fake clock moves only when the operator says so, and a restart is not that."""

from datetime import datetime

import asyncpg

from server.clock import FakeClock

_FIRST = "INSERT INTO fake_clock (stands_at) VALUES ($1) ON CONFLICT (only_row) DO NOTHING"
_STANDS = "SELECT stands_at FROM fake_clock"
_MOVE = """
INSERT INTO fake_clock (stands_at) VALUES ($1)
ON CONFLICT (only_row) DO UPDATE SET stands_at = greatest(fake_clock.stands_at, $1)"""


async def resume(clock: FakeClock, pool: asyncpg.Pool) -> None:
    """Set the clock where it stood when it was last moved, whatever it started at; the
    first time, keep its start as where it stands."""
    await pool.execute(_FIRST, clock.now())
    stands: datetime = await pool.fetchval(_STANDS)
    clock.set(stands)


async def move(clock: FakeClock, when: datetime, pool: asyncpg.Pool) -> None:
    """Move the clock to `when`, stored first: whatever is done at that time, a restart
    resumes no earlier."""
    await pool.execute(_MOVE, when)
    clock.set(when)
