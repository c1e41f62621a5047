"""An in-memory event store for unit tests: the second implementation the contract suite
runs against (tests/eventstore), so the contract is the abstract one, not PostgreSQL's.

Every operation runs without awaiting in between, so on one event loop each one is atomic,
and each append is its own "transaction": checkpoints follow append order.
"""

import bisect
from collections.abc import Sequence
from datetime import datetime

from eventstore import chain
from eventstore.base import DecideHeld, EventStore, check_append, check_name, check_truncate
from eventstore.errors import ConcurrencyError, DuplicateEventError, InvalidRequestError
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


class MemoryEventStore(EventStore):
    def __init__(self, *, poll_interval: float = 1.0, batch_size: int = 1000) -> None:
        super().__init__(poll_interval=poll_interval, batch_size=batch_size)
        self._streams: dict[str, list[RecordedEvent]] = {}
        self._log: list[RecordedEvent] = []
        self._archive: dict[str, list[Truncation]] = {}
        self._snapshots: dict[tuple[str, str, int], Snapshot] = {}
        self._last_position = 0
        self._last_transaction = 0
        self._last_truncation = 0

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
        result = self._append(stream_id, events, expected_version, expected_position)
        if not result.already_recorded:
            if snapshot is not None:
                await self.save_snapshot(
                    Snapshot(
                        stream_id=stream_id,
                        name=snapshot.name,
                        version=result.version,
                        position=result.position,
                        data=snapshot.data,
                    )
                )
            self._wakeups.wake([stream_id])
        return result

    async def append_held(
        self, stream_id: str, after_position: int, decide: DecideHeld
    ) -> AppendResult | None:
        check_name("stream id", stream_id)
        stream = self._streams.get(stream_id, [])
        # Nothing else runs between this read and the append: no await comes before it.
        decided = decide([event for event in stream if event.position > after_position])
        if decided is None:
            return None
        events, snapshot = decided
        head = stream[-1].position if stream else 0
        return await self.append(
            stream_id, events, len(stream), expected_position=head, snapshot=snapshot
        )

    def _append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int | None,
        expected_position: int | None = None,
    ) -> AppendResult:
        stream = self._streams.get(stream_id, [])
        recorded_by_id = {event.event_id: event for event in stream}
        already = [recorded_by_id[e.event_id] for e in events if e.event_id in recorded_by_id]
        if already:
            if len(already) < len(events):
                raise DuplicateEventError(stream_id, [event.event_id for event in already])
            return _result(max(already, key=lambda event: event.version), already_recorded=True)
        head = stream[-1].position if stream else 0
        if (expected_version is not None and expected_version != len(stream)) or (
            expected_position is not None and expected_position != head
        ):
            raise ConcurrencyError(
                stream_id,
                expected_version,
                len(stream),
                expected_position=expected_position,
                actual_position=head,
            )
        self._last_transaction += 1
        new: list[RecordedEvent] = []
        previous = stream[-1].hash if stream else chain.GENESIS
        for version, event in enumerate(events, start=len(stream) + 1):
            self._last_position += 1
            previous = chain.link(previous, stream_id, version, event)
            new.append(
                RecordedEvent(
                    stream_id,
                    version,
                    self._last_position,
                    self._last_transaction,
                    event.event_id,
                    event.type,
                    event.data,
                    event.occurred_at,
                    event.actor,
                    event.correlation_id,
                    event.causation_id,
                    previous,
                )
            )
        self._streams[stream_id] = [*stream, *new]
        self._log.extend(new)
        return _result(new[-1])

    async def read_stream(
        self, stream_id: str, *, after_version: int = 0, limit: int | None = None
    ) -> list[RecordedEvent]:
        check_name("stream id", stream_id)
        events = self._streams.get(stream_id, [])[max(after_version, 0) :]
        return events if limit is None else events[:limit]

    async def stream_version(self, stream_id: str) -> int:
        check_name("stream id", stream_id)
        return len(self._streams.get(stream_id, []))

    async def read_stream_after_position(
        self, stream_id: str, position: int, *, limit: int = 1000
    ) -> list[RecordedEvent]:
        check_name("stream id", stream_id)
        stream = self._streams.get(stream_id, [])
        start = bisect.bisect_right(stream, position, key=lambda event: event.position)
        return stream[start : start + limit]

    async def read_all(
        self, *, after: Checkpoint = Checkpoint.START, limit: int = 1000
    ) -> list[RecordedEvent]:
        start = bisect.bisect_right(self._log, after, key=lambda event: event.checkpoint)
        return self._log[start : start + limit]

    async def read_all_brief(
        self, *, after: Checkpoint = Checkpoint.START, limit: int = 1000
    ) -> list[BriefEvent]:
        return [
            BriefEvent(e.stream_id, e.version, e.position, e.transaction_id, e.type, e.data)
            for e in await self.read_all(after=after, limit=limit)
        ]

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
        stream = self._streams.get(stream_id)
        if expected_version is not None and expected_version != len(stream or ()):
            raise ConcurrencyError(stream_id, expected_version, len(stream or ()))
        if stream is None or after_version > len(stream):
            raise InvalidRequestError(
                f"stream {stream_id!r} is at version {len(stream or ())}, "
                f"cannot truncate after {after_version}"
            )
        kept, removed = stream[:after_version], stream[after_version:]
        kept_ids = {event.event_id for event in kept}
        if clashes := [event.event_id for event in then_append if event.event_id in kept_ids]:
            raise DuplicateEventError(stream_id, clashes)
        self._last_truncation += 1
        truncation = Truncation(
            truncation_id=self._last_truncation,
            stream_id=stream_id,
            after_version=after_version,
            truncated_by=truncated_by,
            reason=reason,
            truncated_at=truncated_at,
            events=tuple(removed),
        )
        removed_positions = {event.position for event in removed}
        self._streams[stream_id] = kept
        self._log = [event for event in self._log if event.position not in removed_positions]
        self._archive.setdefault(stream_id, []).append(truncation)
        if then_append:
            self._append(stream_id, then_append, after_version)
            self._wakeups.wake([stream_id])
        return truncation

    async def read_archive(self, stream_id: str) -> list[Truncation]:
        check_name("stream id", stream_id)
        return list(self._archive.get(stream_id, []))

    async def save_snapshot(self, snapshot: Snapshot) -> None:
        check_name("stream id", snapshot.stream_id)
        check_name("snapshot name", snapshot.name)
        if snapshot.version <= 0:
            raise InvalidRequestError("a snapshot is taken at a version > 0")
        self._snapshots[(snapshot.stream_id, snapshot.name, snapshot.version)] = snapshot

    async def load_snapshot(
        self, stream_id: str, name: str, *, at_or_below: int | None = None
    ) -> Snapshot | None:
        check_name("stream id", stream_id)
        stream = self._streams.get(stream_id, [])
        candidates = [
            snapshot
            for (snapshot_stream, snapshot_name, version), snapshot in self._snapshots.items()
            if snapshot_stream == stream_id
            and snapshot_name == name
            and (at_or_below is None or version <= at_or_below)
            and version <= len(stream)
            and stream[version - 1].position == snapshot.position
        ]
        return max(candidates, key=lambda snapshot: snapshot.version, default=None)

    async def _start_listening(self) -> None:
        """Nothing to do: appends wake this store's subscriptions directly."""

    async def list_streams(self, *, after: str = "", limit: int = 100) -> list[StreamInfo]:
        names = sorted(name for name in self._streams if name > after)[:limit]
        return [StreamInfo(name, len(self._streams[name])) for name in names]


def _result(event: RecordedEvent, *, already_recorded: bool = False) -> AppendResult:
    return AppendResult(
        stream_id=event.stream_id,
        version=event.version,
        position=event.position,
        transaction_id=event.transaction_id,
        already_recorded=already_recorded,
    )
