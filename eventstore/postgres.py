"""The PostgreSQL event store on asyncpg. Design and its reasons: docs/eventstore.md.

Appends go through an AppendCombiner (eventstore.batching) and are written by
eventstore.postgres_append. Tables are unqualified, so the store works in whatever schema the
pool's connections have as current.
"""

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Self

import asyncpg

from eventstore import postgres_sql as sql
from eventstore.base import DecideHeld, EventStore, check_append, check_name, check_truncate
from eventstore.batching import AppendCombiner, AppendRequest, Outcome
from eventstore.errors import (
    ConcurrencyError,
    DuplicateEventError,
    EventStoreError,
    InvalidRequestError,
    StoreUnavailableError,
)
from eventstore.kept_connections import KeptConnections
from eventstore.notifications import CONNECTION_ERRORS, Heard, Listener, Notifier, retrying
from eventstore.postgres_append import (
    NeedsJudging,
    append_batch,
    append_chain,
    append_held,
    chained,
)
from eventstore.records import (
    AppendResult,
    BriefEvent,
    Checkpoint,
    NewEvent,
    NewSnapshot,
    RecordedEvent,
    Snapshot,
    StreamInfo,
    Truncation,
)


def channel_for_schema(schema: str) -> str:
    """The NOTIFY channel of one schema's store (channels are database-wide, names <= 63)."""
    channel = f"eventstore:{schema}"
    if len(channel.encode()) > 63:
        channel = "eventstore:" + hashlib.sha256(schema.encode()).hexdigest()[:40]
    return channel


class PostgresEventStore(EventStore):
    """`max_in_flight` bounds the append transactions under way at once from this store;
    appends beyond it, or to a stream already being written, wait and go out together."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        *,
        channel: str,
        poll_interval: float = 1.0,
        batch_size: int = 1000,
        max_in_flight: int = 4,
        observe_append: Callable[[float], None] | None = None,
    ) -> None:
        super().__init__(poll_interval=poll_interval, batch_size=batch_size)
        self._pool = pool
        # Told how many seconds each append took, waiting for its combined write included.
        self._observe_append = observe_append
        self._notifier = Notifier(pool, channel)
        self._listener = Listener(pool, channel, self._wakeups)
        self._combiner = AppendCombiner(self._write, max_in_flight=max_in_flight)
        # Half the pool at most (less the listener's), so that reads always find one.
        self._writers = KeptConnections(
            pool, limit=max(0, min(max_in_flight, pool.get_max_size() // 2 - 1))
        )

    @classmethod
    async def open(cls, pool: asyncpg.Pool, **options: Any) -> Self:
        """A store over the migrated tables of the pool's current schema."""
        row = await retrying(
            lambda: pool.fetchrow("SELECT current_schema(), to_regclass('events') IS NOT NULL")
        )
        schema, tables = row if row is not None else (None, False)
        if schema is None or not tables:
            raise EventStoreError("no event store tables in the current schema: migrate first")
        return cls(pool, channel=channel_for_schema(schema), **options)

    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int | None,
        *,
        expected_position: int | None = None,
        snapshot: NewSnapshot | None = None,
    ) -> AppendResult:
        check_append(stream_id, events, expected_version, snapshot, expected_position)
        started = time.perf_counter()
        result = await self._combiner.append(
            AppendRequest(stream_id, tuple(events), expected_version, snapshot, expected_position)
        )
        self._appended(stream_id, started, result)
        return result

    async def append_held(
        self, stream_id: str, after_position: int, decide: DecideHeld
    ) -> AppendResult | None:
        check_name("stream id", stream_id)
        started = time.perf_counter()
        try:
            async with self._pool.acquire() as connection:
                result = await append_held(connection, stream_id, after_position, decide)
        except CONNECTION_ERRORS as error:
            # Not retried: whether it committed is unknown, and `decide` runs once.
            raise StoreUnavailableError(f"database unavailable: {error}") from error
        if result is not None:
            self._appended(stream_id, started, result)
        return result

    def _appended(self, stream_id: str, started: float, result: AppendResult) -> None:
        """An append's time for the metrics (from `started`), and, if it wrote anything,
        word of it to this process's subscribers and the other processes."""
        if self._observe_append is not None:
            self._observe_append(time.perf_counter() - started)
        if not result.already_recorded:
            self._wakeups.wake([stream_id])
            self._notifier.notify([stream_id])

    async def _write(self, requests: list[AppendRequest]) -> list[Outcome]:
        """One transaction for the requests; one outcome each."""
        if chained(requests):
            try:
                # Safe to retry: a re-send of the same events is recognised, not repeated.
                return await retrying(
                    lambda: self._writers.run(lambda connection: append_chain(connection, requests))
                )
            except NeedsJudging:
                pass
            except EventStoreError as error:
                return [error]
        try:
            return await self._writers.run(lambda connection: append_batch(connection, requests))
        except Exception:
            # Rolled back, or lost with its outcome unknown: each append again on its own is
            # safe (re-sends are recognised) and gives each caller its own answer.
            return [outcome for request in requests for outcome in await self._write([request])]

    async def read_stream(
        self, stream_id: str, *, after_version: int = 0, limit: int | None = None
    ) -> list[RecordedEvent]:
        check_name("stream id", stream_id)
        return await self._read(sql.READ_STREAM, stream_id, after_version, limit)

    async def stream_version(self, stream_id: str) -> int:
        check_name("stream id", stream_id)
        version = await retrying(lambda: self._pool.fetchval(sql.HEAD, stream_id))
        return int(version or 0)

    async def read_stream_after_position(
        self, stream_id: str, position: int, *, limit: int = 1000
    ) -> list[RecordedEvent]:
        check_name("stream id", stream_id)
        return await self._read(sql.READ_STREAM_AFTER_POSITION, stream_id, position, limit)

    async def read_all(
        self, *, after: Checkpoint = Checkpoint.START, limit: int = 1000
    ) -> list[RecordedEvent]:
        return await self._read(sql.READ_ALL, after.transaction_id, after.position, limit)

    async def read_all_brief(
        self, *, after: Checkpoint = Checkpoint.START, limit: int = 1000
    ) -> list[BriefEvent]:
        rows = await retrying(
            lambda: self._pool.fetch(
                sql.READ_ALL_BRIEF, after.transaction_id, after.position, limit
            )
        )
        return [BriefEvent(*row) for row in rows]

    async def _read_all_or_held_back(
        self, after: Checkpoint, limit: int
    ) -> tuple[list[RecordedEvent], bool]:
        events = await self.read_all(after=after, limit=limit)
        if events:
            return events, False
        held_back = await retrying(lambda: self._pool.fetchval(sql.HELD_BACK))
        return events, bool(held_back)

    async def _read(self, query: str, *args: object) -> list[RecordedEvent]:
        rows = await retrying(lambda: self._pool.fetch(query, *args))
        return [RecordedEvent(*row) for row in rows]

    async def truncate(
        self,
        stream_id: str,
        after_version: int,
        *,
        truncated_by: str,
        reason: str,
        truncated_at: datetime,
        then_append: Sequence[NewEvent] = (),
        expected_version: int | None = None,
    ) -> Truncation:
        check_truncate(stream_id, after_version, truncated_by, reason)
        if then_append:
            check_append(stream_id, then_append, after_version)
        request = Truncation(
            truncation_id=0,
            stream_id=stream_id,
            after_version=after_version,
            truncated_by=truncated_by,
            reason=reason,
            truncated_at=truncated_at,
            events=(),
        )
        try:
            truncation = await self._truncate(request, tuple(then_append), expected_version)
        except CONNECTION_ERRORS as error:
            # Not retried: whether it committed is unknown; read_archive tells.
            raise StoreUnavailableError(f"database unavailable: {error}") from error
        if then_append:
            self._wakeups.wake([stream_id])
            self._notifier.notify([stream_id])
        return truncation

    async def _truncate(
        self, request: Truncation, then_append: tuple[NewEvent, ...], expected: int | None
    ) -> Truncation:
        stream_id, after_version = request.stream_id, request.after_version
        async with self._pool.acquire() as connection, connection.transaction():
            head = await connection.fetchval(sql.LOCK_HEAD, stream_id)
            if expected is not None and expected != (head or 0):
                raise ConcurrencyError(stream_id, expected, head or 0)
            if head is None or after_version > head:
                raise InvalidRequestError(
                    f"stream {stream_id!r} is at version {head or 0}, "
                    f"cannot truncate after {after_version}"
                )
            truncation_id = await connection.fetchval(
                sql.INSERT_TRUNCATION,
                *(stream_id, after_version, request.truncated_by),
                *(request.reason, request.truncated_at),
            )
            archived = await connection.fetch(sql.ARCHIVE, stream_id, after_version, truncation_id)
            await connection.execute(sql.DROP_LATER_SNAPSHOTS, stream_id, after_version)
            await connection.execute(sql.SET_HEAD, stream_id, after_version)
            if then_append:
                # A failed statement would abort the transaction: look for clashes first.
                clashes = await connection.fetch(
                    sql.FIND_RECORDED, stream_id, [event.event_id for event in then_append]
                )
                if clashes:
                    raise DuplicateEventError(stream_id, [row[0] for row in clashes])
                [outcome] = await append_chain(
                    connection, [AppendRequest(stream_id, then_append, after_version)]
                )
                if not isinstance(outcome, AppendResult):
                    raise outcome
        events = sorted((RecordedEvent(*row) for row in archived), key=lambda e: e.version)
        return Truncation(
            truncation_id=truncation_id,
            stream_id=stream_id,
            after_version=after_version,
            truncated_by=request.truncated_by,
            reason=request.reason,
            truncated_at=request.truncated_at,
            events=tuple(events),
        )

    async def read_archive(self, stream_id: str) -> list[Truncation]:
        check_name("stream id", stream_id)
        truncations, archived = await retrying(lambda: self._read_archive(stream_id))
        events: dict[int, list[RecordedEvent]] = {}
        for row in archived:
            events.setdefault(row[0], []).append(RecordedEvent(*row[1:]))
        return [
            Truncation(**dict(row), events=tuple(events.get(row["truncation_id"], ())))
            for row in truncations
        ]

    async def _read_archive(self, stream_id: str) -> tuple[list[Any], list[Any]]:
        async with self._pool.acquire() as connection:
            truncations = await connection.fetch(sql.READ_TRUNCATIONS, stream_id)
            archived = await connection.fetch(sql.READ_ARCHIVED_EVENTS, stream_id)
        return truncations, archived

    async def save_snapshot(self, snapshot: Snapshot) -> None:
        check_name("stream id", snapshot.stream_id)
        check_name("snapshot name", snapshot.name)
        if snapshot.version <= 0:
            raise InvalidRequestError("a snapshot is taken at a version > 0")
        await retrying(
            lambda: self._pool.execute(
                sql.SAVE_SNAPSHOT,
                *(snapshot.stream_id, snapshot.name, snapshot.version),
                *(snapshot.position, snapshot.data),
            )
        )

    async def load_snapshot(
        self, stream_id: str, name: str, *, at_or_below: int | None = None
    ) -> Snapshot | None:
        check_name("stream id", stream_id)
        row = await retrying(
            lambda: self._pool.fetchrow(sql.LOAD_SNAPSHOT, stream_id, name, at_or_below)
        )
        return None if row is None else Snapshot(**dict(row))

    async def load_snapshots(self, name: str, at_or_below: Mapping[str, int]) -> list[Snapshot]:
        check_name("snapshot name", name)
        for stream_id in at_or_below:
            check_name("stream id", stream_id)
        streams, versions = list(at_or_below), list(at_or_below.values())
        rows = await retrying(lambda: self._pool.fetch(sql.LOAD_SNAPSHOTS, name, streams, versions))
        return [Snapshot(**dict(row)) for row in rows]

    async def read_from_snapshot(
        self, stream_id: str, name: str
    ) -> tuple[Snapshot | None, list[RecordedEvent]]:
        check_name("stream id", stream_id)
        check_name("snapshot name", name)
        # One round trip rather than two: loading a game is most of a cold resolution's.
        rows = await retrying(lambda: self._pool.fetch(sql.READ_FROM_SNAPSHOT, stream_id, name))
        snapshot = None
        if rows and rows[0][0]:
            _, version, position, *_ = rows[0]
            snapshot = Snapshot(
                stream_id=stream_id, name=name, version=version, position=position, data=rows[0][6]
            )
            rows = rows[1:]
        return snapshot, [RecordedEvent(stream_id, *row[1:]) for row in rows]

    async def list_streams(self, *, after: str = "", limit: int = 100) -> list[StreamInfo]:
        rows = await retrying(lambda: self._pool.fetch(sql.LIST_STREAMS, after, limit))
        return [StreamInfo(*row) for row in rows]

    async def _start_listening(self) -> None:
        await self._listener.start()

    async def listen(self, channel: str, heard: Heard) -> None:
        """Hear `channel`'s notifications on the store's listening connection: no
        connection more. `heard(None)` says that some may have been lost."""
        await self._listener.add(channel, heard)

    async def close(self) -> None:
        await super().close()
        await self._combiner.close()
        await self._writers.close()
        await self._notifier.close()
        await self._listener.close()
