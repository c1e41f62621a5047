"""What the store takes and gives back: events to append and as recorded, positions, snapshots
and the outcomes of appends and truncations (the contract in eventstore.base)."""

from datetime import datetime
from typing import ClassVar
from uuid import UUID

import msgspec


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event to append. `schema.events.EventCodec.new_event` builds one from a game event."""

    event_id: UUID
    type: str
    data: bytes
    occurred_at: datetime
    actor: str
    correlation_id: UUID
    causation_id: UUID | None = None


class NewSnapshot(msgspec.Struct, frozen=True):
    """A snapshot to save with an append: a projection's state folded up to the append's
    last event, whose version and position the store fills in."""

    name: str
    data: bytes


class Checkpoint(msgspec.Struct, frozen=True, order=True, gc=False):
    """A place in the global log. Its order is the log's order: by transaction, then position."""

    transaction_id: int
    position: int

    START: ClassVar["Checkpoint"]


Checkpoint.START = Checkpoint(0, 0)


# gc=False: instances hold only atoms, so they can never be part of a reference cycle, and
# catch-up reads create them by the hundred thousand; not tracking them saves the collector.
class RecordedEvent(msgspec.Struct, frozen=True, gc=False):
    """An event as stored. `position` is unique and never reused; `version` counts within the
    stream and is reused after a truncation."""

    stream_id: str
    version: int
    position: int
    transaction_id: int
    event_id: UUID
    type: str
    data: bytes
    occurred_at: datetime
    actor: str
    correlation_id: UUID
    causation_id: UUID | None
    # The hash chain's link (eventstore/chain.py): SHA-256 of the previous event's hash and
    # of this event's content.
    hash: bytes

    @property
    def checkpoint(self) -> Checkpoint:
        return Checkpoint(self.transaction_id, self.position)


class BriefEvent(msgspec.Struct, frozen=True, gc=False):
    """An event as a projection folds it: where it stands in its stream and in the global log,
    and what it says; none of the metadata (ids, time, actor, hash) that a fold does not use.
    A catch-up reads events by the hundred thousand, and each column costs it to decode."""

    stream_id: str
    version: int
    position: int
    transaction_id: int
    type: str
    data: bytes

    @property
    def checkpoint(self) -> Checkpoint:
        return Checkpoint(self.transaction_id, self.position)


class AppendResult(msgspec.Struct, frozen=True, kw_only=True):
    """Where the last event of an append landed. `already_recorded` is true when every event
    had been appended before (a re-send): nothing was written and the original place is
    returned."""

    stream_id: str
    version: int
    position: int
    transaction_id: int
    already_recorded: bool = False


class Truncation(msgspec.Struct, frozen=True, kw_only=True):
    """One truncation of a stream and the events it moved to the archive, in version order."""

    truncation_id: int
    stream_id: str
    after_version: int
    truncated_by: str
    reason: str
    truncated_at: datetime
    events: tuple[RecordedEvent, ...]


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A projection's state folded up to the event at (version, position) of a stream."""

    stream_id: str
    name: str
    version: int
    position: int
    data: bytes


class StreamInfo(msgspec.Struct, frozen=True):
    stream_id: str
    version: int
