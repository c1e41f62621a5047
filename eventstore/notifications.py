"""LISTEN/NOTIFY for the PostgreSQL store, and what counts as a lost connection.

A notification is only a hint that carries the touched stream ids: subscriptions re-read the
tables, so a lost or coalesced notification costs latency, never an event.
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import asyncpg
import msgspec

from eventstore.errors import StoreUnavailableError
from eventstore.subscription import Wakeups

logger = logging.getLogger(__name__)

# The database went away or refused us for now: worth retrying, unlike a bad query. A
# backend killed while idle sends its farewell before closing, and asyncpg may hand out the
# connection in between, which then fails with InternalClientError ("another operation is in
# progress"): the next try gets a fresh connection.
CONNECTION_ERRORS: tuple[type[Exception], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.InternalClientError,
)

# Reconnecting the listener may also meet a pooled connection found closed.
_RECONNECT_ERRORS: tuple[type[Exception], ...] = (*CONNECTION_ERRORS, asyncpg.InterfaceError)

# PostgreSQL refuses payloads of 8000 bytes or more; past this we say "everything changed".
MAX_PAYLOAD_BYTES = 7000
_decode_payload = msgspec.json.Decoder(list[str] | None).decode

T = TypeVar("T")


async def retrying(operation: Callable[[], Awaitable[T]], *, attempts: int = 3) -> T:
    """Run an operation that is safe to repeat, retrying on a lost connection."""
    for attempt in range(attempts):
        try:
            return await operation()
        except CONNECTION_ERRORS as error:
            if attempt == attempts - 1:
                raise StoreUnavailableError(f"database unavailable: {error}") from error
            # Backoff between reconnections, not synchronisation.
            await asyncio.sleep(0.05 * 2**attempt)
    raise AssertionError("unreachable")


def encode_payload(stream_ids: Iterable[str]) -> str:
    payload = msgspec.json.encode(sorted(stream_ids))
    return "null" if len(payload) > MAX_PAYLOAD_BYTES else payload.decode()


class Notifier:
    """Sends one NOTIFY for many appends. Every commit is followed by a NOTIFY sent after it,
    but only one is in flight and they are at least `interval` seconds apart: a NOTIFY in
    each append's own transaction costs about a third of the append rate (commit takes a
    database-wide lock for it), and even one round trip per append costs a sixth. This
    store's own subscriptions are woken at once; other processes' within `interval`."""

    def __init__(self, pool: asyncpg.Pool, channel: str, *, interval: float = 0.005) -> None:
        self._pool = pool
        self._channel = channel
        self._interval = interval
        self._pending: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def notify(self, stream_ids: Iterable[str]) -> None:
        self._pending.update(stream_ids)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._send_pending())

    async def _send_pending(self) -> None:
        while self._pending:
            stream_ids, self._pending = self._pending, set()
            try:
                await self._pool.execute(
                    "SELECT pg_notify($1, $2)", self._channel, encode_payload(stream_ids)
                )
            except Exception as error:  # a lost hint must never fail an append
                logger.warning("could not notify subscribers (they will poll): %s", error)
                return
            await asyncio.sleep(self._interval)  # a rate limit: appends meanwhile wait

    async def close(self) -> None:
        if self._task is not None:
            await self._task


# Told each payload of a channel heard beside the store's, and None when some may be lost.
Heard = Callable[[str | None], None]


class Listener:
    """One pooled connection that LISTENs for the whole store, and for the channels others
    add (the read models' progress: one connection for all). When it is lost it reconnects
    in the background and then wakes every subscription and tells every other channel's
    listener, because notifications sent while it was away are gone."""

    def __init__(self, pool: asyncpg.Pool, channel: str, wakeups: Wakeups) -> None:
        self._pool = pool
        self._channel = channel
        self._wakeups = wakeups
        # Each other channel's callback for asyncpg, and who is told what it hears.
        self._others: dict[str, tuple[Callable[..., None], Heard]] = {}
        self._connection: Any = None
        self._reconnecting: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._closed = False

    @property
    def listening(self) -> bool:
        return self._connection is not None

    async def start(self) -> None:
        """Listen now if the database answers; otherwise keep trying in the background
        (subscriptions poll meanwhile)."""
        async with self._lock:
            if self._closed or self._connection is not None or self._reconnecting is not None:
                return
            try:
                await self._connect()
            except _RECONNECT_ERRORS as error:
                logger.warning("cannot listen for appends yet: %s", error)
                self._reconnecting = asyncio.create_task(self._reconnect(None))

    async def add(self, channel: str, heard: Heard) -> None:
        """Listen on `channel` too, from now on; starts listening if nothing did yet."""

        def on_notification(_connection: object, _pid: int, _channel: str, payload: object) -> None:
            heard(payload if isinstance(payload, str) else None)

        async with self._lock:
            self._others[channel] = (on_notification, heard)
            connection = self._connection
        if connection is None:
            await self.start()
            return
        # A connection lost meanwhile listens again on every channel once it is back.
        with contextlib.suppress(*_RECONNECT_ERRORS):
            await connection.add_listener(channel, on_notification)

    async def _connect(self) -> None:
        connection = await self._pool.acquire()
        try:
            await connection.add_listener(self._channel, self._on_notification)
            for channel, (on_notification, _) in self._others.items():
                await connection.add_listener(channel, on_notification)
        except BaseException:
            with contextlib.suppress(Exception):
                await self._pool.release(connection)
            raise
        connection.add_termination_listener(self._on_termination)
        self._connection = connection

    def _on_notification(
        self, _connection: object, _pid: int, _channel: str, payload: object
    ) -> None:
        stream_ids: list[str] | None = None
        if isinstance(payload, str):
            try:
                stream_ids = _decode_payload(payload)
            except msgspec.DecodeError:
                stream_ids = None  # not ours to understand: wake everyone
        self._wakeups.wake(stream_ids)

    def _on_termination(self, _connection: Any) -> None:
        if self._closed or self._reconnecting is not None:
            return
        lost, self._connection = self._connection, None
        self._reconnecting = asyncio.create_task(self._reconnect(lost))

    async def _reconnect(self, lost: Any) -> None:
        if lost is not None:
            with contextlib.suppress(Exception):
                await self._pool.release(lost)
        delay = 0.05
        while not self._closed:
            try:
                await self._connect()
            except _RECONNECT_ERRORS as error:
                logger.warning("listener reconnecting in %.2fs: %s", delay, error)
                await asyncio.sleep(delay)  # backoff, not synchronisation
                delay = min(delay * 2, 2.0)
                continue
            self._reconnecting = None
            self._wakeups.wake(None)
            for _, heard in self._others.values():
                heard(None)
            return

    async def close(self) -> None:
        self._closed = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnecting
            self._reconnecting = None
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.remove_termination_listener(self._on_termination)
            with contextlib.suppress(*CONNECTION_ERRORS, asyncpg.InterfaceError):
                await connection.remove_listener(self._channel, self._on_notification)
                for channel, (on_notification, _) in self._others.items():
                    await connection.remove_listener(channel, on_notification)
            await self._pool.release(connection)
