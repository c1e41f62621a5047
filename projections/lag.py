"""How far the read models are behind the event log: in events, and in seconds (the age of
the oldest event they have not applied). Read from the database, since the runner may lead
in another process (projections/runner.py)."""

from datetime import datetime

import asyncpg
import msgspec

from eventstore.migrations import Connection
from projections.runner import NAME

# Counting stops here, so that a scrape of a far-behind server stays cheap.
MAX_COUNTED = 100_000

_CHECKPOINT = "SELECT transaction_id, position FROM projection_checkpoints WHERE name = $1"
_BEHIND = """
SELECT count(*), min(occurred_at) FROM (
    SELECT occurred_at FROM events
    WHERE (transaction_id, position) > ($1::xid8, $2::bigint)
    ORDER BY transaction_id, position LIMIT $3) AS behind"""


class Lag(msgspec.Struct, frozen=True):
    # Events committed that the read models have not applied (at most MAX_COUNTED).
    events: int
    # How long ago the oldest of them happened, by the server's clock; 0 when none.
    seconds: float


async def read_model_lag(connection: asyncpg.Pool | Connection, now: datetime) -> Lag:
    row = await connection.fetchrow(_CHECKPOINT, NAME)
    transaction_id, position = (0, 0) if row is None else (row[0], row[1])
    behind = await connection.fetchrow(_BEHIND, transaction_id, position, MAX_COUNTED)
    assert behind is not None
    events, oldest = behind
    seconds = 0.0 if oldest is None else max(0.0, (now - oldest).total_seconds())
    return Lag(events=events, seconds=seconds)
