"""Combining appends that arrive together into one transaction.

A durable commit waits for a disk flush, and the appends to one stream commit one after
another (its head row is locked until commit), so a stream takes about one append per flush
however many writers it has. So each stream has at most one write under way, and the store
at most `max_in_flight`; an append that cannot go at once queues, and when a write finishes,
everything queued for streams now free goes out together as one write, each caller still
getting its own result or error. Without contention every append goes at once, alone.

Queued appends go out one turn of the event loop after they could: the callers of a write
that just finished usually append again at once, and waiting that turn lets all of them join
the next write, instead of the first going alone and the others after it (which halves what
several writers of one stream get through).
"""

import asyncio
from collections.abc import Awaitable, Callable

import msgspec

from eventstore.base import MAX_APPEND_BYTES
from eventstore.errors import EventStoreError
from eventstore.records import AppendResult, NewEvent, NewSnapshot


class AppendRequest(msgspec.Struct, frozen=True):
    stream_id: str
    events: tuple[NewEvent, ...]
    expected_version: int | None
    # Saved with the events, at the version and position of the last of them.
    snapshot: NewSnapshot | None = None
    # The position of the stream's last event expected with expected_version.
    expected_position: int | None = None

    @property
    def size(self) -> int:
        snapshot = 0 if self.snapshot is None else len(self.snapshot.data)
        return snapshot + sum(len(event.data) for event in self.events)


Outcome = AppendResult | EventStoreError
# Writes requests in one transaction; one outcome per request, in order.
Write = Callable[[list[AppendRequest]], Awaitable[list[Outcome]]]
_Waiting = tuple[AppendRequest, "asyncio.Future[AppendResult]"]


class AppendCombiner:
    def __init__(
        self,
        write: Write,
        *,
        max_in_flight: int = 4,
        max_batch: int = 500,
        max_bytes: int = MAX_APPEND_BYTES,
    ) -> None:
        self._write = write
        self._max_in_flight = max_in_flight
        self._max_batch = max_batch
        # A write is one statement, whose parameters PostgreSQL takes up to 1 GiB: appends
        # of large events go out in several writes rather than one it would refuse.
        self._max_bytes = max_bytes
        self._queue: list[_Waiting] = []
        self._busy: set[str] = set()
        self._in_flight = 0
        self._send_due = False
        self._batches: set[asyncio.Task[None]] = set()

    async def append(self, request: AppendRequest) -> AppendResult:
        stream_id = request.stream_id
        if (
            not self._queue
            and not self._send_due
            and stream_id not in self._busy
            and self._in_flight < self._max_in_flight
        ):
            # Nothing to combine with: write it now, in the caller's own task.
            self._start({stream_id})
            try:
                [outcome] = await self._write([request])
            finally:
                self._finish({stream_id}, callers_waiting=False)
            if isinstance(outcome, AppendResult):
                return outcome
            raise outcome
        future: asyncio.Future[AppendResult] = asyncio.get_running_loop().create_future()
        self._queue.append((request, future))
        self._send_soon()
        return await future

    def _start(self, streams: set[str]) -> None:
        self._busy |= streams
        self._in_flight += 1

    def _finish(self, streams: set[str], *, callers_waiting: bool) -> None:
        """`callers_waiting`: the write's callers are yet to be woken (they may append again
        before the queue goes out)."""
        self._busy -= streams
        self._in_flight -= 1
        if self._queue or callers_waiting:
            self._send_soon()

    def _send_soon(self) -> None:
        if not self._send_due:
            self._send_due = True
            asyncio.get_running_loop().call_soon(self._send_now)

    def _send_now(self) -> None:
        self._send_due = False
        self._send_queued()

    def _send_queued(self) -> None:
        while self._queue and self._in_flight < self._max_in_flight:
            batch: list[_Waiting] = []
            kept: list[_Waiting] = []
            size = 0
            for waiting in self._queue:
                request, future = waiting
                if future.done():
                    continue  # its caller gave up before it was sent: never written
                if (
                    request.stream_id in self._busy
                    or len(batch) >= self._max_batch
                    or (batch and size + request.size > self._max_bytes)
                ):
                    kept.append(waiting)
                else:
                    batch.append(waiting)
                    size += request.size
            # Streams taken by this batch stay busy for the rest of the queue.
            self._queue = kept
            if not batch:
                return
            streams = {request.stream_id for request, _ in batch}
            self._start(streams)
            task = asyncio.create_task(self._send(batch, streams))
            self._batches.add(task)
            task.add_done_callback(self._batches.discard)

    async def _send(self, batch: list[_Waiting], streams: set[str]) -> None:
        try:
            outcomes = await self._write([request for request, _ in batch])
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, AppendResult):
                    future.set_result(outcome)
                else:
                    future.set_exception(outcome)
        except BaseException as error:
            # Not expected (writes report errors as outcomes), but no caller may hang.
            for _, future in batch:
                if future.done():
                    continue
                if isinstance(error, asyncio.CancelledError):
                    future.cancel()
                else:
                    future.set_exception(error)
            if not isinstance(error, Exception):
                raise
        finally:
            self._finish(streams, callers_waiting=True)

    async def close(self) -> None:
        """Wait for the batches under way, and for those queued to leave on this turn."""
        while self._batches or self._send_due:
            if self._batches:
                await asyncio.gather(*self._batches, return_exceptions=True)
            else:
                await asyncio.sleep(0)  # lets the queued appends leave
