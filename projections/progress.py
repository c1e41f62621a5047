"""How far the read models have come, as every server process hears it at once.

The runner (projections/runner.py), whichever process it leads in, sends its new checkpoint
with NOTIFY in the very transaction that moves it, so the word and the rows commit together.
Each process LISTENs on the event store's listening connection (no connection more) and
wakes the reads that wait for the read models to reach a place in the log
(projections/reads.py). A notification lost while that connection was away is made up for
by reading the checkpoint: when it comes back, and every `recheck` seconds while a read
waits.
"""

import asyncio

import asyncpg

from eventstore.records import Checkpoint
from projections.lag import checkpoint

# The schema's channel (channels are database-wide, and their names 63 bytes at most), as
# the runner's NOTIFY and every listener name it.
_CHANNEL = """CASE WHEN octet_length('read_models:' || current_schema()) <= 63
    THEN 'read_models:' || current_schema()
    ELSE 'read_models:' || left(md5(current_schema()), 40) END"""
CHANNEL = f"SELECT {_CHANNEL}"
# The runner's new checkpoint ($1 its name), saved and told in one statement of the
# transaction that writes the rows: the word goes out when they commit, never before.
SAVE_CHECKPOINT = f"""
WITH saved AS (
    INSERT INTO projection_checkpoints (name, transaction_id, position) VALUES ($1, $2, $3)
    ON CONFLICT (name) DO UPDATE
    SET transaction_id = excluded.transaction_id, position = excluded.position
    RETURNING transaction_id, position)
SELECT pg_notify({_CHANNEL}, transaction_id || ':' || position) FROM saved"""
# How often a waiting read reads the checkpoint itself, should a notification be lost.
RECHECK_SECONDS = 0.1


def decode(payload: str) -> Checkpoint | None:
    transaction_id, _, position = payload.partition(":")
    if not (transaction_id.isdigit() and position.isdigit()):
        return None
    return Checkpoint(int(transaction_id), int(position))


class Progress:
    """The read models' checkpoint as last heard, and the reads waiting for it to move."""

    def __init__(self, pool: asyncpg.Pool, *, recheck: float = RECHECK_SECONDS) -> None:
        self._pool = pool
        self._recheck = recheck
        self._at = Checkpoint.START
        self._moved = asyncio.Event()
        # Set when notifications may have been lost: the next waiter to wake reads.
        self._unsure = True

    def heard(self, payload: str | None) -> None:
        """A notification of the channel; None when some may have been lost."""
        at = None if payload is None else decode(payload)
        if at is None:
            self._unsure = True
        else:
            self._at = max(self._at, at)
        self._moved.set()

    def saw(self, at: Checkpoint) -> None:
        """The checkpoint as a read of the database found it."""
        self._at = max(self._at, at)

    async def reached(self, target: Checkpoint, *, within: float) -> bool:
        """Whether the read models reach `target` (have applied every event up to it)
        within `within` seconds: woken by the runner's word, and reading the checkpoint
        every `recheck` seconds in case word was lost."""
        loop = asyncio.get_running_loop()
        give_up_at = loop.time() + within
        read = False
        while True:
            # Cleared before the look, so that word arriving meanwhile is kept.
            self._moved.clear()
            if read or self._unsure:
                self._unsure = False
                self.saw(await checkpoint(self._pool))
            if self._at >= target:
                return True
            left = give_up_at - loop.time()
            if left <= 0:
                return False
            try:
                async with asyncio.timeout(min(left, self._recheck)):
                    await self._moved.wait()
                read = False
            except TimeoutError:
                read = True
