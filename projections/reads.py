"""The read models as the server reads them: every answer they give reflects every event
committed before the read began, so that a caller always reads what it was answered before
(its own writes above all), whichever process wrote them and whichever runs the read models.

A read first asks for the log's head (its last committed event, in the order the read
models apply the log) and their checkpoint, in one statement; when the checkpoint is short
of the head it waits, woken by the runner's word (projections/progress.py), until it gets
there, WAIT_SECONDS at most, then gives up with ReadModelsBehind (a 503 with Retry-After).
The head is the whole log's, not only the caller's: anything the caller was answered had
committed by then, and no process need know who wrote what. The routes read the read models
only through ReadModels, so that none can forget to wait.
"""

import asyncpg

from eventstore.records import Checkpoint
from projections import queries
from projections.lag import NAME
from projections.progress import Progress
from projections.queries import Page, ReadModelsBehind
from schema.accounts import MyGame
from schema.api import GameSummary, TurnView

# How long a read waits for the read models to reach the head it found: they follow the
# log within tens of milliseconds, and stay under a second behind a burst.
WAIT_SECONDS = 2.0

# The log's head, asked of its last event at the end of the index (as projections/lag.py
# asks), and the read models' checkpoint; one row, with nulls for an empty log.
_HEAD_AND_CHECKPOINT = """
SELECT head.transaction_id, head.position, saved.transaction_id, saved.position
FROM (SELECT 1) AS one
LEFT JOIN LATERAL (
    SELECT transaction_id, position FROM events
    ORDER BY transaction_id DESC, position DESC LIMIT 1) AS head ON true
LEFT JOIN projection_checkpoints AS saved ON saved.name = $1"""


class ReadModels:
    def __init__(
        self, pool: asyncpg.Pool, progress: Progress, *, wait: float = WAIT_SECONDS
    ) -> None:
        self._pool = pool
        self._progress = progress
        self._wait = wait

    async def up_to_date(self) -> None:
        """Return once the read models hold every event committed by now; ReadModelsBehind
        if they do not within the wait."""
        await self.within(0)

    async def within(self, events: int) -> None:
        """Return at once if the read models are at most about `events` behind the log's
        head (the positions between them; 0: not at all); else once they hold every event
        committed by now, or ReadModelsBehind if they do not within the wait."""
        row = await self._pool.fetchrow(_HEAD_AND_CHECKPOINT, NAME)
        assert row is not None
        head_transaction, head_position, transaction_id, position = row
        if head_transaction is None:
            return  # an empty log
        head = Checkpoint(int(head_transaction), head_position)
        if transaction_id is not None:
            at = Checkpoint(transaction_id, position)
            if at >= head or (events and head.position - at.position <= events):
                return
            self._progress.saw(at)
        if not await self._progress.reached(head, within=self._wait):
            raise ReadModelsBehind(
                f"the read models did not catch up with the log within {self._wait:g} s"
            )

    async def games(self, phase: str | None, after: str, limit: int) -> Page[GameSummary]:
        await self.up_to_date()
        return await queries.games(self._pool, phase, after, limit)

    async def games_of(
        self, account_id: str, vouched_by: str | None, after: str, limit: int
    ) -> Page[MyGame]:
        await self.up_to_date()
        return await queries.games_of(self._pool, account_id, vouched_by, after, limit)

    async def turn(self, game_id: str, number: int, *, position: int) -> TurnView | None:
        """A turn of a game whose `position` the caller has just loaded from the store: the
        log's head, asked after that, is at or past the game's event there, so once the
        read models hold the head they hold the game so far (unless its read models fail:
        then ReadModelsBehind at once, from queries.turn)."""
        await self.up_to_date()
        return await queries.turn(self._pool, game_id, number, position=position)
