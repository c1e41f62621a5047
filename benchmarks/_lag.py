"""How far the read models trail the log while a benchmark runs, sampled from the database.

Every `every` seconds one statement reads the log's head (its last committed event, in the
order the read models apply it), the read models' checkpoint, and the events between them
(counted up to projections.lag.MAX_COUNTED). The lag in events is that count. The lag in
seconds of a sample is how long the read models took to reach the head it saw: the time a
read arriving then waits under read-your-writes (docs/api.md, "Consistency"); it is known
to within one sampling interval, when a later sample finds the checkpoint at or past it.
"""

import asyncio
import contextlib
import math
import time

import asyncpg

from projections.lag import MAX_COUNTED, NAME

_SAMPLE = """
WITH head AS (
    SELECT transaction_id, position FROM events
    ORDER BY transaction_id DESC, position DESC LIMIT 1),
checkpoint AS (
    SELECT coalesce(max(transaction_id), 0)::text::xid8 AS transaction_id,
        coalesce(max(position), 0) AS position
    FROM projection_checkpoints WHERE name = $1)
SELECT head.transaction_id, head.position, checkpoint.transaction_id, checkpoint.position,
    (SELECT count(*) FROM (
        SELECT 1 FROM events
        WHERE (transaction_id, position) > (checkpoint.transaction_id, checkpoint.position)
        ORDER BY transaction_id, position LIMIT $2) AS behind)
FROM checkpoint LEFT JOIN head ON true"""


class LagSamples:
    """The samples of one run: start it, let the run go, then `await stop()`."""

    def __init__(self, pool: asyncpg.Pool, *, every: float = 0.1) -> None:
        self._pool = pool
        self._every = every
        self.events: list[int] = []
        self.seconds: list[float] = []
        # Heads seen and not reached yet: (when seen, transaction id, position).
        self._waiting: list[tuple[float, int, int]] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._sample_forever())

    async def stop(self) -> None:
        """Stop sampling once every head seen so far has been reached."""
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        while self._waiting:
            await self._sample()
            await asyncio.sleep(self._every)

    async def _sample_forever(self) -> None:
        while True:
            await self._sample()
            await asyncio.sleep(self._every)

    async def _sample(self) -> None:
        seen = time.perf_counter()
        row = await self._pool.fetchrow(_SAMPLE, NAME, MAX_COUNTED)
        assert row is not None
        head_transaction, head_position, at_transaction, at_position, behind = row
        checkpoint = (int(at_transaction), at_position)
        still = []
        for when, transaction, position in self._waiting:
            if (transaction, position) <= checkpoint:
                self.seconds.append(seen - when)
            else:
                still.append((when, transaction, position))
        self._waiting = still
        self.events.append(behind)
        if head_transaction is None or (int(head_transaction), head_position) <= checkpoint:
            self.seconds.append(0.0)
        else:
            self._waiting.append((seen, int(head_transaction), head_position))


def percentile(values: list[float] | list[int], fraction: float) -> float:
    """The nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return float(ordered[max(0, math.ceil(fraction * len(ordered)) - 1)])
