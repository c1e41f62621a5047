"""Keeps the read models (schema/sql/0002_read_models.sql) in step with the event log.

Events are folded in global order; each batch's writes and the new checkpoint commit in one
transaction, so every event is applied exactly once, whatever crashes. One runner works at
a time, across every server process, under an advisory lock. A `turn_rewound` event makes
the runner reload that game from the store, since a fold cannot run backwards.

A batch is folded in memory, game by game (projections/folding.py), and its rows written
for all its games at once (projections/rows.py), with a few statements whatever its size. A
catch-up reads the events without the metadata a fold does not use, and folds each batch
while the one before is written, so that PostgreSQL's work and the runner's overlap. One
game's failure never
holds up the others (projections/writes.py): a game whose events cannot be folded or whose
rows the database refuses is recorded as failing (projections/failures.py) while the
checkpoint moves on. Nothing is skipped for it: on its next event, and every
`retry_seconds`, its rows are written afresh from its stream up to the last event the
runner has passed, until that succeeds. While the runner is behind, it says in the log how
its catch-up goes (projections/lag.py).
"""

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from functools import partial

import asyncpg

from eventstore.base import EventStore
from eventstore.migrations import Connection
from eventstore.outages import Backoff
from eventstore.records import BriefEvent, Checkpoint
from projections import failures
from projections.evolve import fold
from projections.folding import FoldedBatch, LoggedEvent, fold_batch
from projections.game import GameState
from projections.lag import NAME, CatchUpProgress, any_after, checkpoint
from projections.leading import Connect, lead
from projections.loading import stream_of
from projections.progress import SAVE_CHECKPOINT
from projections.rows import GameRows
from projections.rows import write as write_rows
from projections.states import GameStates, Loaded
from projections.writes import Writes, Written
from schema.game_events import game_codec

# The advisory lock of the runner that leads (projections/leading.py).
READ_MODELS_LOCK = 0x5EAD_0001
# As many as the store reads at once for a subscription: a batch this long says that the
# runner is behind.
_BATCH = 1000
# A catch-up's batches are larger: each costs some ten round trips, whatever its size.
_CATCH_UP_BATCH = 5000
# How soon to look again when committed events are held back by an older transaction.
_HELD_BACK_SECONDS = 0.005
# Games whose last written state the runner keeps, to fold their next events on from: all
# those active at once on a large server, in some 2.5 GB at the most (a state of 20 players
# on a map of their own takes a quarter of a megabyte). Beyond, the least recently written
# go, and are loaded again from their snapshots when they next move.
WRITTEN_STATES = 10_000
_log = logging.getLogger(__name__)


class ReadModelRunner:
    def __init__(
        self,
        store: EventStore,
        pool: asyncpg.Pool,
        *,
        lock_connection: Connect | None = None,
        retry_seconds: float = 30.0,
        states: GameStates | None = None,
        catch_up_batch: int = _CATCH_UP_BATCH,
        kept_states: int = WRITTEN_STATES,
    ) -> None:
        self._store = store
        # The states this process's GameService folded: a game it has just resolved need
        # not be loaded again to be written.
        self._states = states or GameStates(size=0)
        self._pool = pool
        # The lock is held for as long as the runner leads; give it a connection of its own
        # (server.ops.database.dedicated_connections) so that the pool is never short of one.
        self._lock_connection = lock_connection or pool.acquire
        self._retry_seconds = retry_seconds
        self._catch_up_batch = catch_up_batch
        # The state whose rows were written last, of the games written most recently.
        self._written = GameStates(kept_states)
        self._backoff = Backoff("read models", _log)
        self._progress = CatchUpProgress(pool)

    async def checkpoint(self) -> Checkpoint:
        return await checkpoint(self._pool)

    async def caught_up(self) -> bool:
        """True when every event committed so far is applied. Not the same as an empty
        `read_all` after the checkpoint: the gap-safe log shows a commit only once every
        older transaction has ended, so right after an append it may lag behind."""
        return not await any_after(self._pool, await self.checkpoint())

    async def catch_up(
        self, progress: Callable[[int], None] | None = None, *, batch_size: int | None = None
    ) -> int:
        """Apply every event committed by now, `batch_size` at a time (the catch-up's
        batch unless given); return how many were read. Commits that the gap-safe log
        still holds back (an older transaction is open) are waited for. While a batch is
        folded, the one before is written and the next one read."""
        size = batch_size or self._catch_up_batch
        done = 0

        async def write(folded: FoldedBatch) -> None:
            nonlocal done
            await self._write(folded)
            done += folded.size
            if progress is not None:
                progress(done)
            full = folded.size == size
            await self._progress.applied(folded.size, full, folded.checkpoint)

        after = await self.checkpoint()
        read = partial(self._store.read_all_brief, limit=size)
        batch = await read(after=after)
        writing: asyncio.Task[None] | None = None
        ahead: asyncio.Task[list[BriefEvent]] | None = None
        # The states of the games of the batch being written: the next one folds on from them.
        unwritten: dict[str, GameState | None] = {}
        try:
            while True:
                if not batch:
                    if writing is not None:
                        await writing
                        writing = None
                    if await self.caught_up():
                        await self._progress.applied(0, False, after)  # the end, if it was long
                        return done
                    await asyncio.sleep(_HELD_BACK_SECONDS)
                    batch = await read(after=after)
                    continue
                after = batch[-1].checkpoint
                ahead = asyncio.create_task(read(after=after))
                folded = await self._fold(batch, unwritten)
                if writing is not None:
                    await writing
                unwritten = folded.states()
                writing = asyncio.create_task(write(folded))
                batch = await ahead
        except BaseException:
            for task in (writing, ahead):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task
            raise

    async def follow(self) -> None:
        """Run for ever: take the lock, then catch up and follow the log live. When the
        database goes away, pause and start again; when cancelled, stop at once."""
        while True:
            try:
                await lead(self._lock_connection, READ_MODELS_LOCK, self._follow_locked)
            except Exception as error:
                self._written.clear()
                await self._backoff.failed(error)

    async def _follow_locked(self) -> None:
        self._written.clear()
        loop = asyncio.get_running_loop()
        retry_at = loop.time()
        while True:
            behind = False
            async with self._store.subscribe(after=await self.checkpoint()) as events:
                while not behind:
                    if loop.time() >= retry_at:
                        await self.retry_failed()
                        self._backoff.succeeded()
                        retry_at = loop.time() + self._retry_seconds
                    batch = None
                    # A fetch that times out has moved no cursor: nothing is lost.
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout_at(retry_at):
                            batch = await events.next_batch()
                    if batch == []:
                        return  # the store is closing
                    if batch:
                        await self.apply(batch)
                        self._backoff.succeeded()
                        behind = len(batch) >= _BATCH
                        after = batch[-1].checkpoint
                        await self._progress.applied(len(batch), behind, after)
            # A full batch: more wait (a burst of resolutions, say). Catching up folds each
            # batch while the one before is written, which one by one as they come would
            # not: the read models fell seconds behind a burst that way. Then follow again.
            await self.catch_up(batch_size=_BATCH)

    async def reset(self) -> None:
        """Forget every read model, so that the next catch-up rebuilds them from the log."""
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute("DELETE FROM read_turns")
            await connection.execute("DELETE FROM read_members")
            await connection.execute("DELETE FROM read_games")
            await connection.execute("DELETE FROM read_model_failures")
            await connection.execute("DELETE FROM projection_checkpoints WHERE name = $1", NAME)
        self._written.clear()

    async def apply(self, batch: Sequence[LoggedEvent]) -> None:
        """Fold a batch into the read models and move the checkpoint past it, in one
        transaction; a game that fails is recorded, and the others go on."""
        await self._write(await self._fold(batch, {}))

    async def _fold(
        self, batch: Sequence[LoggedEvent], unwritten: dict[str, GameState | None]
    ) -> FoldedBatch:
        """The batch folded in memory, each game on from its state in `unwritten` (those of
        a batch still being written), else from the state whose rows were written last."""

        def before(game_id: str) -> GameState | None:
            if game_id in unwritten:
                return unwritten[game_id]
            kept = self._written.latest(game_id)
            return None if kept is None else kept.state

        return await fold_batch(self._store, self._states, batch, before)

    async def _write(self, folded: FoldedBatch) -> None:
        """Write a folded batch's rows and move the checkpoint past it, in one transaction.
        A game recorded as failing is written afresh from its stream instead, whatever was
        folded of it: its rows missed events."""
        async with self._pool.acquire() as connection, connection.transaction():
            games = list(folded.last)
            writes = Writes(connection, await failures.failing_among(connection, games))
            for game_id in sorted(games):
                last = folded.last[game_id]
                if game_id in writes.failing:
                    write = partial(self._rewrite, connection, game_id, last.version)
                    await writes.write(game_id, last.version, last.position, write)
                elif game_id in folded.errors:
                    error = folded.errors[game_id]
                    await writes.failed_at(game_id, last.version, last.position, error)
            await writes.write_all(
                [rows for game_id, rows in folded.rows.items() if game_id not in writes.failing]
            )
            checkpoint = folded.checkpoint
            await connection.execute(
                SAVE_CHECKPOINT, NAME, checkpoint.transaction_id, checkpoint.position
            )
        self._committed(writes)

    async def retry_failed(self) -> None:
        """Write afresh the rows of every game recorded as failing, up to the last event of
        it that the runner has passed."""
        async with self._pool.acquire() as connection, connection.transaction():
            listed = await failures.listed(connection, limit=None)
            writes = Writes(connection, {failure.game_id for failure in listed})
            for failure in listed:
                game_id, version = failure.game_id, failure.version
                write = partial(self._rewrite, connection, game_id, version)
                await writes.write(game_id, version, failure.position, write)
        self._committed(writes)

    def _committed(self, writes: Writes) -> None:
        """Remember what was written; say once when a game fails, and when it recovers."""
        for game_id, (state, position) in writes.written.items():
            loaded = Loaded(state, position)
            self._written.remember(game_id, loaded)
            self._states.offer(game_id, loaded)
        for game_id, error in writes.failed.items():
            self._written.forget(game_id)
            if game_id not in writes.failing:
                _log.error(
                    "the read models of game %s could not be written (%s: %s); the other "
                    "games go on, and this one is retried on its next event and every %g s",
                    game_id,
                    type(error).__name__,
                    failures.summary(error),
                    self._retry_seconds,
                    exc_info=None if isinstance(error, asyncpg.PostgresError) else error,
                )
        for game_id in writes.failing & writes.written.keys():
            _log.info("the read models of game %s are written again", game_id)

    async def _rewrite(self, connection: Connection, game_id: str, version: int) -> Written:
        """The game's rows written afresh from its stream, up to `version`, a page at a
        time."""
        rows = GameRows(game_id, before=None)
        rows.truncate(0)
        stream = stream_of(game_id)
        state, position = GameState(), 0
        while state.version < version:
            limit = min(_BATCH, version - state.version)
            page = await self._store.read_stream(stream, after_version=state.version, limit=limit)
            if not page:
                break  # truncated since: its `turn_rewound` is on its way
            for recorded, event in zip(page, game_codec.decode_all(page), strict=True):
                state = fold(state, [(recorded.version, event)])
                rows.add(event)
                position = recorded.position
            await write_rows(connection, [rows])
            rows = GameRows(game_id, before=None)
        rows.state, rows.position = state, position
        await write_rows(connection, [rows])
        return state, position
