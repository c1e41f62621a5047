"""Keeps the read models (schema/sql/0002_read_models.sql) in step with the event log.

Events are folded in global order; each batch's writes and the new checkpoint commit in one
transaction, so every event is applied exactly once, whatever crashes. One runner works at
a time, across every server process, under an advisory lock. A `turn_rewound` event makes
the runner reload that game from the store, since a fold cannot run backwards.
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import asyncpg
import msgspec

from eventstore.base import Checkpoint, EventStore, RecordedEvent
from projections.game import GameState, fold
from projections.loading import game_of, state_until
from projections.views import public_game
from schema.game_events import GameStarted, TurnResolved, TurnRewound, game_codec

NAME = "read_models.v1"
# With the schema's hash, so that deployments sharing a database in separate schemas
# (and tests) do not wait for one another.
_LOCK_KEY = 0x5EAD_0001
_BATCH = 1000
# How soon to look again when committed events are held back by an older transaction.
_HELD_BACK_SECONDS = 0.005
_encode = msgspec.json.Encoder().encode
_log = logging.getLogger(__name__)


# A borrowed pool connection or one of its own: anything to `execute` on.
Connect = Callable[[], AbstractAsyncContextManager[Any]]


@contextlib.asynccontextmanager
async def leading(connect: Connect, key: int) -> AsyncIterator[None]:
    """Hold the schema's advisory lock `key` for as long as the block runs: one leader at a
    time across every process. The lock goes with its connection, whatever happens."""
    async with connect() as connection:
        await connection.execute("SELECT pg_advisory_lock(hashtext(current_schema()), $1)", key)
        try:
            yield
        finally:
            await connection.execute(
                "SELECT pg_advisory_unlock(hashtext(current_schema()), $1)", key
            )


class ReadModelRunner:
    def __init__(
        self, store: EventStore, pool: asyncpg.Pool, *, lock_connection: Connect | None = None
    ) -> None:
        self._store = store
        self._pool = pool
        # The lock is held for as long as the runner leads; give it a connection of its own
        # (server.database.dedicated_connections) so that the pool is never short of one.
        self._lock_connection = lock_connection or pool.acquire
        self._games: dict[str, tuple[GameState, int]] = {}

    async def checkpoint(self) -> Checkpoint:
        row = await self._pool.fetchrow(
            "SELECT transaction_id, position FROM projection_checkpoints WHERE name = $1", NAME
        )
        return Checkpoint.START if row is None else Checkpoint(row[0], row[1])

    async def caught_up(self) -> bool:
        """True when every event committed so far is applied. Not the same as an empty
        `read_all` after the checkpoint: the gap-safe log shows a commit only once every
        older transaction has ended, so right after an append it may lag behind."""
        checkpoint = await self.checkpoint()
        behind = await self._pool.fetchval(
            "SELECT EXISTS (SELECT 1 FROM events "
            "WHERE (transaction_id, position) > ($1::xid8, $2::bigint))",
            checkpoint.transaction_id,
            checkpoint.position,
        )
        return not behind

    async def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Apply every event committed by now; return how many were read. Commits that the
        gap-safe log still holds back (an older transaction is open) are waited for."""
        done = 0
        after = await self.checkpoint()
        while True:
            batch = await self._store.read_all(after=after, limit=_BATCH)
            if not batch:
                if await self.caught_up():
                    return done
                await asyncio.sleep(_HELD_BACK_SECONDS)
                continue
            await self.apply(batch)
            after = batch[-1].checkpoint
            done += len(batch)
            if progress is not None:
                progress(done)

    async def follow(self, *, retry_after: float = 1.0) -> None:
        """Run for ever: take the lock, then catch up and follow the log live."""
        while True:
            try:
                async with leading(self._lock_connection, _LOCK_KEY):
                    await self._follow_locked()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                _log.warning("read models paused: %s; retrying", error)
                self._games.clear()
                await asyncio.sleep(retry_after)

    async def _follow_locked(self) -> None:
        self._games.clear()
        async with self._store.subscribe(after=await self.checkpoint()) as events:
            while batch := await events.next_batch():
                await self.apply(batch)

    async def reset(self) -> None:
        """Forget every read model, so that the next catch-up rebuilds them from the log."""
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute("DELETE FROM read_turns")
            await connection.execute("DELETE FROM read_games")
            await connection.execute("DELETE FROM projection_checkpoints WHERE name = $1", NAME)
        self._games.clear()

    async def apply(self, batch: list[RecordedEvent]) -> None:
        writes: list[tuple[str, tuple[object, ...]]] = []
        changed: set[str] = set()
        for recorded in batch:
            game_id = game_of(recorded.stream_id)
            if game_id is None:
                continue
            state = await self._fold_in(game_id, recorded)
            writes.extend(_turn_writes(game_id, game_codec.decode_recorded(recorded)))
            self._games[game_id] = (state, recorded.position)
            changed.add(game_id)
        try:
            async with self._pool.acquire() as connection, connection.transaction():
                for sql, args in writes:
                    await connection.execute(sql, *args)
                for game_id in sorted(changed):
                    await _write_game(connection, game_id, *self._games[game_id])
                last = batch[-1].checkpoint
                await connection.execute(
                    "INSERT INTO projection_checkpoints (name, transaction_id, position) "
                    "VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE "
                    "SET transaction_id = excluded.transaction_id, position = excluded.position",
                    NAME,
                    last.transaction_id,
                    last.position,
                )
        except BaseException:
            # The cache ran ahead of what committed; the next batch must not build on it.
            self._games.clear()
            raise

    async def _fold_in(self, game_id: str, recorded: RecordedEvent) -> GameState:
        event = game_codec.decode_recorded(recorded)
        if isinstance(event, TurnRewound):
            return await state_until(self._store, game_id, recorded.version)
        cached = self._games.get(game_id)
        if cached is None or cached[0].version != recorded.version - 1:
            state = await state_until(self._store, game_id, recorded.version - 1)
        else:
            state = cached[0]
        return fold(state, [(recorded.version, event)])


def _turn_writes(game_id: str, event: object) -> list[tuple[str, tuple[object, ...]]]:
    upsert_start = (
        "INSERT INTO read_turns (game_id, turn, start_board, effect) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (game_id, turn) DO UPDATE SET start_board = excluded.start_board, "
        "effect = excluded.effect, resolution = NULL"
    )
    if isinstance(event, GameStarted):
        return [(upsert_start, (game_id, 1, _encode(event.board).decode(), None))]
    if isinstance(event, TurnResolved):
        return [
            (
                "UPDATE read_turns SET resolution = $3, effect = $4 "
                "WHERE game_id = $1 AND turn = $2",
                (game_id, event.turn, _encode(event).decode(), event.effect),
            ),
            (
                upsert_start,
                (game_id, event.turn + 1, _encode(event.board).decode(), event.next_effect),
            ),
        ]
    if isinstance(event, TurnRewound):
        return [
            ("DELETE FROM read_turns WHERE game_id = $1 AND turn > $2", (game_id, event.turn)),
            (
                "UPDATE read_turns SET resolution = NULL WHERE game_id = $1 AND turn = $2",
                (game_id, event.turn),
            ),
        ]
    return []


async def _write_game(
    connection: asyncpg.pool.PoolConnectionProxy, game_id: str, state: GameState, position: int
) -> None:
    if state.phase == "new":
        return
    view = public_game(state, position)
    await connection.execute(
        "INSERT INTO read_games (game_id, name, phase, turn, players, position, view, "
        "next_resolution_at, next_reminder_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
        "ON CONFLICT (game_id) DO UPDATE SET name = excluded.name, phase = excluded.phase, "
        "turn = excluded.turn, players = excluded.players, position = excluded.position, "
        "view = excluded.view, next_resolution_at = excluded.next_resolution_at, "
        "next_reminder_at = excluded.next_reminder_at",
        game_id,
        state.settings.name,
        state.phase,
        state.turn,
        len(state.players),
        position,
        _encode(view).decode(),
        view.next_resolution_at,
        state.next_reminder_at(),
    )
