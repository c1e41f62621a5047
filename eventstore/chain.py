"""The hash chain: every event's hash covers its content and the hash of the event before it
in its stream, so that changing, removing or reordering a stored event shows.

hash = SHA-256(previous hash || SHA-256(content)), with 32 zero bytes before a stream's first
event, and the content the event's fields, each as a 4-byte big-endian length and its bytes:
the stream id and type and actor in UTF-8, the version and the time (microseconds since
1970) as 8-byte big-endian integers, the ids as their 16 bytes (no causation: empty), the
payload as stored. PostgreSQL computes the same on insert (schema/sql/0009_hash_chain.sql).
A truncation moves events with their hash: the archive keeps its chain, and the next append
continues from the event the stream was truncated to.
"""

import hashlib
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from uuid import UUID

import msgspec

from eventstore.records import NewEvent, RecordedEvent, Truncation

GENESIS = bytes(32)
_NOT_FOLLOWING = "its hash does not follow from its content and the events before it"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _field(value: bytes) -> bytes:
    return len(value).to_bytes(4, "big") + value


def content(stream_id: str, version: int, event: NewEvent | RecordedEvent) -> bytes:
    """The canonical bytes of an event at `version` of `stream_id`."""
    causation: UUID | None = event.causation_id
    return b"".join(
        _field(value)
        for value in (
            stream_id.encode(),
            version.to_bytes(8, "big", signed=True),
            event.event_id.bytes,
            event.type.encode(),
            event.data,
            ((event.occurred_at - _EPOCH) // _MICROSECOND).to_bytes(8, "big", signed=True),
            event.actor.encode(),
            event.correlation_id.bytes,
            b"" if causation is None else causation.bytes,
        )
    )


def link(previous: bytes, stream_id: str, version: int, event: NewEvent | RecordedEvent) -> bytes:
    """The hash of an event that follows an event whose hash is `previous`."""
    digest = hashlib.sha256(content(stream_id, version, event)).digest()
    return hashlib.sha256(previous + digest).digest()


class ChainBreak(msgspec.Struct, frozen=True, kw_only=True):
    """The first event whose stored hash does not follow from the events before it.
    `truncation_id` is null for an event of the stream as it is, else the truncation that
    archived it. For a missing event, `position` and `type` are those of the event found in
    its place; for a head that no longer matches the events, 0 and ""."""

    version: int
    position: int
    type: str
    truncation_id: int | None
    reason: str


def first_break(
    head_version: int, live: Iterable[RecordedEvent], archive: Iterable[Truncation]
) -> ChainBreak | None:
    """Recompute the chain of one stream: first its events as they are, in version order,
    each from the recomputed hash of the one before; then every truncation's archived events,
    in the order they were appended (by position), each from the event it followed: the
    latest one appended before it at the version before. `head_version` is the stream's head
    as recorded, which a removed last event would no longer match."""
    live = list(live)
    previous = GENESIS
    for version, event in enumerate(live, start=1):
        if event.version != version:
            reason = f"the event at version {version} is missing"
            return _break(event, None, reason, version=version)
        previous = link(previous, event.stream_id, version, event)
        if previous != event.hash:
            return _break(event, None, _NOT_FOLLOWING)
    if head_version != len(live):
        reason = f"the stream's head says {head_version} events, {len(live)} remain"
        return ChainBreak(
            version=head_version, position=0, type="", truncation_id=None, reason=reason
        )
    appended = [(event.position, None, event) for event in live] + [
        (event.position, truncation.truncation_id, event)
        for truncation in archive
        for event in truncation.events
    ]
    appended.sort(key=lambda entry: entry[0])
    heads: dict[int, bytes] = {}
    for _, truncation_id, event in appended:
        if truncation_id is None:  # checked above
            heads[event.version] = event.hash
            continue
        if event.version == 1:
            previous = GENESIS
        elif (found := heads.get(event.version - 1)) is not None:
            previous = found
        else:
            return _break(event, truncation_id, f"no event before version {event.version}")
        expected = link(previous, event.stream_id, event.version, event)
        if expected != event.hash:
            return _break(event, truncation_id, _NOT_FOLLOWING)
        heads[event.version] = expected
    return None


def _break(
    event: RecordedEvent, truncation_id: int | None, reason: str, *, version: int | None = None
) -> ChainBreak:
    """A break at `event` (`version`: the missing version that `event` stands in for)."""
    return ChainBreak(
        version=event.version if version is None else version,
        position=event.position,
        type=event.type,
        truncation_id=truncation_id,
        reason=reason,
    )
