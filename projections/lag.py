"""How far the read models are behind the event log: in events, and in seconds (the age of
the oldest event they have not applied). Read from the database, since the runner may lead
in another process (projections/runner.py); and, while the runner catches up with a long
stretch of the log, said in the log as it goes."""

import logging
import time
from datetime import datetime

import asyncpg
import msgspec

from eventstore.migrations import Connection
from eventstore.records import Checkpoint

# The read models' checkpoint. v2: with read_members (schema/sql/0007_read_members.sql),
# rebuilt from the log.
NAME = "read_models.v2"
# Counting stops here, so that a scrape of a far-behind server stays cheap.
MAX_COUNTED = 100_000

_log = logging.getLogger("projections.runner")
_CHECKPOINT = "SELECT transaction_id, position FROM projection_checkpoints WHERE name = $1"
_BEHIND = """
SELECT count(*), min(occurred_at) FROM (
    SELECT occurred_at FROM events
    WHERE (transaction_id, position) > ($1::xid8, $2::bigint)
    ORDER BY transaction_id, position LIMIT $3) AS behind"""

# Asked of the log's last event, at the end of its index: "is there any event after the
# checkpoint" is planned as a scan of the table, which reads all of it when there is none.
_ANY_AFTER = """
SELECT coalesce(
    (SELECT (transaction_id, position) > ($1::xid8, $2::bigint) FROM events
     ORDER BY transaction_id DESC, position DESC LIMIT 1),
    false)"""


class Lag(msgspec.Struct, frozen=True):
    # Events committed that the read models have not applied (at most MAX_COUNTED).
    events: int
    # How long ago the oldest of them happened, by the server's clock; 0 when none.
    seconds: float


async def checkpoint(connection: asyncpg.Pool | Connection) -> Checkpoint:
    """Where the read models stand in the log."""
    row = await connection.fetchrow(_CHECKPOINT, NAME)
    return Checkpoint.START if row is None else Checkpoint(row[0], row[1])


async def any_after(connection: asyncpg.Pool | Connection, after: Checkpoint) -> bool:
    """Whether the log holds an event after `after`, committed or held back."""
    return bool(await connection.fetchval(_ANY_AFTER, after.transaction_id, after.position))


async def read_model_lag(connection: asyncpg.Pool | Connection, now: datetime) -> Lag:
    return await _lag_after(connection, await checkpoint(connection), now)


async def _lag_after(
    connection: asyncpg.Pool | Connection, after: Checkpoint, now: datetime
) -> Lag:
    behind = await connection.fetchrow(_BEHIND, after.transaction_id, after.position, MAX_COUNTED)
    assert behind is not None
    events, oldest = behind
    seconds = 0.0 if oldest is None else max(0.0, (now - oldest).total_seconds())
    return Lag(events=events, seconds=seconds)


class CatchUpProgress:
    """Says how a catch-up goes, every `every` seconds while the runner reads full batches
    (it is behind): the events applied, how fast, and how many remain; and, when it has
    said so at least once, when the catch-up ends. Costs one count (bounded) per line."""

    def __init__(self, pool: asyncpg.Pool, *, every: float = 10.0) -> None:
        self._pool = pool
        self._every = every
        # Of the catch-up under way, if any: when it began and its events; when the last
        # line was said, and the events by then.
        self._began: float | None = None
        self._done = 0
        self._said_at = 0.0
        self._said_done = 0

    async def applied(self, events: int, full: bool, after: Checkpoint) -> None:
        """`events` were applied, up to `after`; `full`: as many as the runner asked for."""
        now = time.monotonic()
        if self._began is None:
            if not full:
                return
            self._began = self._said_at = now
            self._done = self._said_done = 0
        self._done += events
        if not full:
            if self._said_done:
                took = now - self._began
                _log.info(
                    "read models caught up: %d events in %.0f s (%.0f/s)",
                    self._done,
                    took,
                    self._done / took if took > 0 else 0.0,
                )
            self._began = None
            return
        took = now - self._said_at
        if took < self._every:
            return
        rate = (self._done - self._said_done) / took if took > 0 else 0.0
        lag = await _lag_after(self._pool, after, datetime.now().astimezone())
        capped = "over " if lag.events >= MAX_COUNTED else ""
        _log.info(
            "read models catching up: %d events applied, %.0f/s, %s%d to go (%.0f s behind)",
            self._done,
            rate,
            capped,
            lag.events,
            lag.seconds,
        )
        self._said_at, self._said_done = now, self._done
