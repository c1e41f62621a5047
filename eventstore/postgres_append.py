"""How the PostgreSQL store writes appends, one transaction (one round trip) per write.

- Requests to one stream whose expected versions follow on from one another (a lone append
  is the simplest case) are one statement: a common table expression moves the stream's head
  row under its row lock, checking the expected version, and the events are inserted only
  if it moved. All or nothing: when it refuses a lone request we find out why; when it
  refuses several, the batch function judges them one by one.
- Anything else goes to the `append_batch` SQL function (schema/sql/0001_eventstore.sql),
  which locks the heads of every stream involved in stream order and judges each request in
  order exactly as a lone append would be.
"""

from typing import Any
from uuid import UUID

import asyncpg

from eventstore import postgres_sql as sql
from eventstore.base import DecideHeld, check_append
from eventstore.batching import AppendRequest, Outcome
from eventstore.errors import ConcurrencyError, DuplicateEventError
from eventstore.records import AppendResult, RecordedEvent

# Events read at a time, with the stream held, before `decide` sees them all.
_HELD_PAGE = 500


class NeedsJudging(Exception):
    """Chained appends were refused as a whole: some of them may still go in."""


def chained(requests: list[AppendRequest]) -> bool:
    """Whether the requests are to one stream, each expecting where the previous one ends
    (or expecting nothing), so that they are one append of all their events. Only the first
    may expect a head position: the others' would be of events not appended yet."""
    first = requests[0]
    version = first.expected_version
    for request in requests:
        if request.stream_id != first.stream_id:
            return False
        if request.expected_version is not None and request.expected_version != version:
            return False
        if request is not first and request.expected_position is not None:
            return False
        version = None if version is None else version + len(request.events)
    return True


async def append_chain(connection: Any, requests: list[AppendRequest]) -> list[Outcome]:
    """Chained requests as one statement: all in, or NeedsJudging (a lone one: its error)."""
    first = requests[0]
    events = [event for request in requests for event in request.events]
    many = len(events) > 1

    def column(values: list[Any]) -> Any:
        # Arrays cost more to encode than scalars: one event goes as scalars.
        return values if many else values[0]

    args: list[Any] = [
        first.stream_id,
        len(events),
        column([event.event_id for event in events]),
        column([event.type for event in events]),
        column([event.data for event in events]),
        column([event.occurred_at for event in events]),
        column([event.actor for event in events]),
        column([event.correlation_id for event in events]),
        column([event.causation_id for event in events]),
    ]
    expected = first.expected_version
    kind = "anywhere" if expected is None else "new" if expected == 0 else "at"
    if kind == "at":
        args.append(expected)
        if first.expected_position is not None:
            kind = "at head"
            args.append(first.expected_position)
    snapshot = _last_snapshot(requests)
    if snapshot is not None:
        args.extend(snapshot)
    try:
        rows = await connection.fetch(sql.APPEND[(kind, many, snapshot is not None)], *args)
    except asyncpg.UniqueViolationError:
        rows = []
    if not rows:
        if len(requests) > 1:
            raise NeedsJudging
        return [await _refused(connection, first)]
    places = {version: (position, transaction_id) for version, position, transaction_id in rows}
    version = min(places) - 1
    results: list[Outcome] = []
    for request in requests:
        version += len(request.events)
        position, transaction_id = places[version]
        results.append(
            AppendResult(
                stream_id=first.stream_id,
                version=version,
                position=position,
                transaction_id=transaction_id,
            )
        )
    return results


def _last_snapshot(requests: list[AppendRequest]) -> tuple[str, bytes, int] | None:
    """The last snapshot of chained requests (the others are older states), with the
    number of the event in the chain it was folded up to."""
    found = None
    events = 0
    for request in requests:
        events += len(request.events)
        if request.snapshot is not None:
            found = (request.snapshot.name, request.snapshot.data, events)
    return found


async def _refused(connection: Any, request: AppendRequest) -> Outcome:
    """Why nothing was appended: a re-send (fine), a partial re-send, or a conflict."""
    stream_id, events = request.stream_id, request.events
    rows = await connection.fetch(sql.REFUSAL, stream_id, [event.event_id for event in events])
    recorded = [row[2:] for row in rows if row[2] is not None]
    if len(recorded) == len(events):
        _, version, position, transaction_id = max(recorded, key=lambda row: row[1])
        return AppendResult(
            stream_id=stream_id,
            version=version,
            position=position,
            transaction_id=transaction_id,
            already_recorded=True,
        )
    if recorded:
        return DuplicateEventError(stream_id, [row[0] for row in recorded])
    version, position = rows[0][0] or 0, rows[0][1] or 0
    return ConcurrencyError(
        stream_id,
        request.expected_version,
        version,
        expected_position=request.expected_position,
        actual_position=position,
    )


async def append_batch(connection: Any, requests: list[AppendRequest]) -> list[Outcome]:
    events = [event for request in requests for event in request.events]
    snapshots = [(n, r.snapshot) for n, r in enumerate(requests, start=1) if r.snapshot]
    with_snapshots: list[Any] = [
        [n for n, _ in snapshots],
        [requests[n - 1].stream_id for n, _ in snapshots],
        [snapshot.name for _, snapshot in snapshots],
        [snapshot.data for _, snapshot in snapshots],
    ]
    rows = await connection.fetch(
        sql.APPEND_BATCH_WITH_SNAPSHOTS if snapshots else sql.APPEND_BATCH,
        [request.stream_id for request in requests],
        [request.expected_version for request in requests],
        [request.expected_position for request in requests],
        [len(request.events) for request in requests],
        [request.stream_id for request in requests for _ in request.events],
        [event.event_id for event in events],
        [event.type for event in events],
        [event.data for event in events],
        [event.occurred_at for event in events],
        [event.actor for event in events],
        [event.correlation_id for event in events],
        [event.causation_id for event in events],
        *(with_snapshots if snapshots else ()),
    )
    return [_judged(request, *row) for request, row in zip(requests, rows, strict=True)]


def _judged(
    request: AppendRequest,
    verdict: str,
    version: int | None,
    position: int | None,
    transaction_id: int | None,
    clashes: str | None,
) -> Outcome:
    stream_id = request.stream_id
    if verdict == "duplicate":
        return DuplicateEventError(stream_id, [UUID(c) for c in (clashes or "").split(",")])
    if verdict == "conflict":
        return ConcurrencyError(
            stream_id,
            request.expected_version,
            version or 0,
            expected_position=request.expected_position,
            actual_position=position,
        )
    if version is None or position is None or transaction_id is None:
        raise AssertionError(f"append_batch left a {verdict} append without its place")
    return AppendResult(
        stream_id=stream_id,
        version=version,
        position=position,
        transaction_id=transaction_id,
        already_recorded=verdict == "recorded",
    )


async def append_held(
    connection: Any, stream_id: str, after_position: int, decide: DecideHeld
) -> AppendResult | None:
    """EventStore.append_held in one transaction: the head row locked (other appends to
    the stream wait for it), the events after `after_position` read, and what `decide`
    makes of them appended at the head."""
    async with connection.transaction():
        head = await connection.fetchrow(sql.LOCK_HEAD, stream_id)
        version, position = head if head is not None else (0, 0)
        missed: list[RecordedEvent] = []
        after = after_position
        while True:
            rows = await connection.fetch(
                sql.READ_STREAM_AFTER_POSITION, stream_id, after, _HELD_PAGE
            )
            missed += [RecordedEvent(*row) for row in rows]
            if len(rows) < _HELD_PAGE:
                break
            after = missed[-1].position
        decided = decide(missed)
        if decided is None:
            return None
        events, snapshot = decided
        check_append(stream_id, events, version, snapshot, position)
        request = AppendRequest(stream_id, tuple(events), version, snapshot, position)
        [outcome] = await append_chain(connection, [request])
        if not isinstance(outcome, AppendResult):
            raise outcome
        return outcome
