"""The event store's contract: the abstract store, its bounds and the checks of its
arguments (its data types are in eventstore.records, its errors in eventstore.errors).

The store knows nothing of game events: it keeps a type string, the payload bytes exactly as
they were encoded, and metadata. Every implementation passes the same contract test suite
(tests/eventstore/test_contract.py).
"""

import abc
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Self

from eventstore.errors import EventTooLargeError, InvalidRequestError, StoreUnavailableError
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
from eventstore.subscription import Fetch, Subscription, Wakeups

MAX_NAME_LENGTH = 200
# The largest event the store takes: twice the largest resolution the per-turn quotas allow
# (docs/eventstore.md, "Bounds"), and well within what PostgreSQL and the read models hold
# (a statement's parameters and a read model's json resolution, 1 GiB each).
MAX_EVENT_BYTES = 32 * 1024 * 1024
# The most one append (or truncation's follow-up) may carry in all.
MAX_APPEND_BYTES = 2 * MAX_EVENT_BYTES


def check_name(kind: str, value: str) -> None:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME_LENGTH:
        raise InvalidRequestError(f"{kind} must be 1 to {MAX_NAME_LENGTH} characters")
    if not value.isprintable():
        raise InvalidRequestError(f"{kind} must be printable: {value!r}")


def check_append(
    stream_id: str,
    events: Sequence[NewEvent],
    expected_version: int | None,
    snapshot: NewSnapshot | None = None,
    expected_position: int | None = None,
) -> None:
    check_name("stream id", stream_id)
    if snapshot is not None:
        check_name("snapshot name", snapshot.name)
    if expected_version is not None and expected_version < 0:
        raise InvalidRequestError(f"expected version must be >= 0, not {expected_version}")
    if expected_position is not None and (
        expected_version is None
        or expected_position < 0
        or (expected_version == 0) != (expected_position == 0)
    ):
        # Only a stream with no events has its last event at position 0.
        raise InvalidRequestError(
            f"an expected position ({expected_position}) needs an expected version that "
            f"can have it, not {expected_version}"
        )
    if not events:
        raise InvalidRequestError("nothing to append")
    if len({event.event_id for event in events}) != len(events):
        raise InvalidRequestError("the same event id appears twice in one append")
    for event in events:
        check_name("event type", event.type)
        if event.occurred_at.utcoffset() is None:
            raise InvalidRequestError("occurred_at must carry a time zone")
        if len(event.data) > MAX_EVENT_BYTES:
            raise EventTooLargeError(
                f"a {event.type} event of {len(event.data):,} bytes is past the store's bound "
                f"of {MAX_EVENT_BYTES:,} bytes per event"
            )
    total = sum(len(event.data) for event in events)
    if total > MAX_APPEND_BYTES:
        raise EventTooLargeError(
            f"an append of {total:,} bytes is past the store's bound of "
            f"{MAX_APPEND_BYTES:,} bytes per append"
        )


def check_truncate(stream_id: str, after_version: int, truncated_by: str, reason: str) -> None:
    check_name("stream id", stream_id)
    check_name("truncated_by", truncated_by)
    if after_version < 0:
        raise InvalidRequestError(f"cannot truncate after version {after_version}")
    if not reason.strip():
        raise InvalidRequestError("a truncation needs a reason")


# What a writer appends, given the events it had not seen: events and a snapshot, or nothing.
DecideHeld = Callable[[list[RecordedEvent]], tuple[Sequence[NewEvent], NewSnapshot | None] | None]


class EventStore(abc.ABC):
    """Append-only streams of events, a gap-safe global log, and what truncations archived.

    Use as `async with store:` or call `close()`; it stops the store's background work, not
    the database pool it was given.
    """

    def __init__(self, *, poll_interval: float, batch_size: int) -> None:
        self._wakeups = Wakeups()
        self._poll_interval = poll_interval
        self._batch_size = batch_size

    @abc.abstractmethod
    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int | None,
        *,
        expected_position: int | None = None,
        snapshot: NewSnapshot | None = None,
    ) -> AppendResult:
        """Append atomically. `expected_version` is the stream's version before the append
        (0 for a new or fully truncated stream), or None to append wherever the stream is.
        `expected_position`, with it, is the position of the stream's last event (0 for
        none): versions are reused after a truncation, positions never are, so a caller
        whose state was folded up to that event may append on it without reading first.
        Raises ConcurrencyError when the stream moved; re-sending the same events is a no-op.
        `snapshot`, the state folded up to the last of `events`, is saved with them, in
        the same transaction (as `save_snapshot` would, at their last version and
        position); not when they were recorded already."""

    @abc.abstractmethod
    async def append_held(
        self, stream_id: str, after_position: int, decide: "DecideHeld"
    ) -> AppendResult | None:
        """Append what `decide` makes of the stream's events after `after_position` (its
        events, and a snapshot as `append` takes one), with no other writer of the stream in
        between: a writer that keeps losing the race to `append` cannot lose this one. The
        stream is held while `decide` runs, once: it must do no I/O. It returns None to
        append nothing, and then so does this. Raises ConcurrencyError only for a stream
        that did not exist yet and was created meanwhile."""

    @abc.abstractmethod
    async def read_stream(
        self, stream_id: str, *, after_version: int = 0, limit: int | None = None
    ) -> list[RecordedEvent]:
        """The stream's events after `after_version`, in version order."""

    @abc.abstractmethod
    async def stream_version(self, stream_id: str) -> int:
        """The stream's current version; 0 for a stream that does not exist."""

    @abc.abstractmethod
    async def read_stream_after_position(
        self, stream_id: str, position: int, *, limit: int = 1000
    ) -> list[RecordedEvent]:
        """The stream's events with a position after `position`, in order. Unlike versions,
        positions are never reused, so this also finds what was appended after a truncation."""

    @abc.abstractmethod
    async def read_all(
        self, *, after: Checkpoint = Checkpoint.START, limit: int = 1000
    ) -> list[RecordedEvent]:
        """The global log after `after`. Gap-safe: an event not returned yet will only ever
        appear after the last one returned."""

    @abc.abstractmethod
    async def read_all_brief(
        self, *, after: Checkpoint = Checkpoint.START, limit: int = 1000
    ) -> list[BriefEvent]:
        """`read_all`, each event as a BriefEvent: the same events, gap-safe alike, for less."""

    def subscribe(self, *, after: Checkpoint = Checkpoint.START) -> Subscription:
        """Follow the global log: catch up from `after`, then live."""
        cursor = after

        async def fetch() -> tuple[list[RecordedEvent], bool]:
            nonlocal cursor
            batch, held_back = await self._read_all_or_held_back(cursor, self._batch_size)
            if batch:
                cursor = batch[-1].checkpoint
            return batch, held_back

        return self._subscription(None, fetch)

    def subscribe_stream(self, stream_id: str, *, after_position: int = 0) -> Subscription:
        """Follow one stream by position: catch up, then live. A truncation does not stop it:
        what is appended afterwards has new positions."""
        check_name("stream id", stream_id)
        cursor = after_position

        async def fetch() -> tuple[list[RecordedEvent], bool]:
            nonlocal cursor
            batch = await self.read_stream_after_position(stream_id, cursor, limit=self._batch_size)
            if batch:
                cursor = batch[-1].position
            return batch, False

        return self._subscription(stream_id, fetch)

    async def _read_all_or_held_back(
        self, after: Checkpoint, limit: int
    ) -> tuple[list[RecordedEvent], bool]:
        """read_all, and whether events that have committed are being held back for now."""
        return await self.read_all(after=after, limit=limit), False

    def _subscription(self, stream_id: str | None, fetch: Fetch) -> Subscription:
        return Subscription(
            stream_id=stream_id,
            fetch=fetch,
            start=self._start_listening,
            wakeups=self._wakeups,
            poll_interval=self._poll_interval,
            transient=(StoreUnavailableError,),
        )

    @abc.abstractmethod
    async def _start_listening(self) -> None:
        """Make sure that appends from elsewhere will wake this store's subscriptions."""

    @abc.abstractmethod
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
        """Move the stream's events after `after_version` to the archive, in one transaction
        with `then_append` (for example an event that tells followers to reload). With
        `expected_version`, raise ConcurrencyError unless the stream is at that version, so
        that two truncations decided on the same state cannot both happen."""

    @abc.abstractmethod
    async def read_archive(self, stream_id: str) -> list[Truncation]:
        """Every truncation of the stream, oldest first, with the events it archived."""

    @abc.abstractmethod
    async def save_snapshot(self, snapshot: Snapshot) -> None:
        """Store a snapshot; one per (stream, name, version), the last save wins."""

    @abc.abstractmethod
    async def load_snapshot(
        self, stream_id: str, name: str, *, at_or_below: int | None = None
    ) -> Snapshot | None:
        """The latest snapshot still valid for the stream as it is now."""

    async def load_snapshots(self, name: str, at_or_below: Mapping[str, int]) -> list[Snapshot]:
        """For each stream of `at_or_below`, the latest snapshot still valid at or below its
        version (as `load_snapshot`), if any. A store may read them all at once."""
        found = []
        for stream_id, version in at_or_below.items():
            snapshot = await self.load_snapshot(stream_id, name, at_or_below=version)
            if snapshot is not None:
                found.append(snapshot)
        return found

    async def read_from_snapshot(
        self, stream_id: str, name: str
    ) -> tuple[Snapshot | None, list[RecordedEvent]]:
        """The latest snapshot still valid (as `load_snapshot`) and every event after it (or
        the whole stream without one): what loading a projection's state takes. A store may
        read both at once."""
        snapshot = await self.load_snapshot(stream_id, name)
        after = 0 if snapshot is None else snapshot.version
        return snapshot, await self.read_stream(stream_id, after_version=after)

    @abc.abstractmethod
    async def list_streams(self, *, after: str = "", limit: int = 100) -> list[StreamInfo]:
        """Streams in id order, after `after`."""

    async def close(self) -> None:
        """Stop background work. Open subscriptions end."""
        self._wakeups.close_all()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
