"""`skirmish rebuild`: every read model, rebuilt from the event log, with a progress bar.

The webhook outbox is left alone on purpose: rebuilding it would send everything again.
"""

import asyncio
import gc
import sys
import time
from typing import TextIO

from eventstore.migrations import migrate
from eventstore.postgres import PostgresEventStore
from projections.runner import ReadModelRunner
from server.ops.database import create_pool
from server.ops.serve import GC_THRESHOLDS

BAR_WIDTH = 40


def progress_line(done: int, total: int, elapsed: float) -> str:
    share = done / total if total else 1.0
    filled = round(BAR_WIDTH * share)
    rate = done / elapsed if elapsed > 0 else 0.0
    bar = "#" * filled + "." * (BAR_WIDTH - filled)
    return f"[{bar}] {done:,}/{total:,} events ({share:.0%}, {rate:,.0f}/s)"


async def rebuild(database_url: str, out: TextIO = sys.stderr) -> int:
    """Rebuild, drawing the bar on `out`; the number of events read."""
    pool = await create_pool(database_url, max_size=4)
    try:
        await migrate(pool)
        total = await pool.fetchval("SELECT count(*) FROM events")
        async with await PostgresEventStore.open(pool) as store:
            runner = ReadModelRunner(store, pool)
            await runner.reset()
            started = time.monotonic()

            def show(done: int) -> None:
                line = progress_line(done, max(total, done), time.monotonic() - started)
                out.write("\r" + line)
                out.flush()

            show(0)
            done = await runner.catch_up(progress=show)
            show(done)
            out.write("\n")
            return done
    finally:
        await pool.close()


def run(database_url: str) -> int:
    # As the server runs the read models: a rebuild folds every game's state, a tree of
    # objects each, and the default collections would look at them all again and again.
    gc.set_threshold(*GC_THRESHOLDS)
    return asyncio.run(rebuild(database_url))
