"""The store contract, part 1: appending and reading. Runs against every implementation."""

import uuid
from datetime import datetime

import pytest
from msgspec.structs import replace

from eventstore.base import EventStore
from eventstore.errors import ConcurrencyError, DuplicateEventError, InvalidRequestError
from eventstore.records import BriefEvent, Checkpoint, StreamInfo
from tests.support import FIXED_TIME, new_event, numbered, visible_log


async def test_append_to_a_new_stream_records_events_with_their_metadata(
    store: EventStore,
) -> None:
    events = numbered(3)
    result = await store.append("game-1", events, expected_version=0)

    recorded = await store.read_stream("game-1")
    assert result.version == 3
    assert not result.already_recorded
    assert [e.version for e in recorded] == [1, 2, 3]
    assert [e.event_id for e in recorded] == [e.event_id for e in events]
    assert [e.data for e in recorded] == [b'{"n":1}', b'{"n":2}', b'{"n":3}']
    assert {(e.type, e.occurred_at, e.actor) for e in recorded} == {
        ("thing_happened.v1", FIXED_TIME, "tester")
    }
    assert [e.correlation_id for e in recorded] == [e.correlation_id for e in events]
    assert recorded[-1].position == result.position
    assert recorded[-1].checkpoint == Checkpoint(result.transaction_id, result.position)


async def test_causation_id_is_kept(store: EventStore) -> None:
    cause = uuid.uuid4()
    await store.append("s", [replace(new_event(), causation_id=cause)], 0)
    [recorded] = await store.read_stream("s")
    assert recorded.causation_id == cause


async def test_append_at_the_expected_version_extends_the_stream(store: EventStore) -> None:
    await store.append("s", numbered(2), expected_version=0)
    result = await store.append("s", numbered(1, start=3), expected_version=2)
    assert result.version == 3
    assert await store.stream_version("s") == 3


@pytest.mark.parametrize(("existing", "expected"), [(0, 1), (2, 0), (2, 1), (2, 3)])
async def test_append_at_the_wrong_version_raises_and_writes_nothing(
    store: EventStore, existing: int, expected: int
) -> None:
    if existing:
        await store.append("s", numbered(existing), expected_version=0)
    with pytest.raises(ConcurrencyError) as raised:
        await store.append("s", numbered(1, start=9), expected_version=expected)
    assert (raised.value.expected, raised.value.actual) == (expected, existing)
    assert len(await store.read_stream("s")) == existing


async def test_append_without_expected_version_appends_at_the_end(store: EventStore) -> None:
    first = await store.append("s", numbered(2), expected_version=None)
    second = await store.append("s", numbered(1, start=3), expected_version=None)
    assert (first.version, second.version) == (2, 3)


async def test_resending_the_same_events_is_a_no_op(store: EventStore) -> None:
    events = numbered(2)
    first = await store.append("s", events, expected_version=0)
    await store.append("s", numbered(1, start=3), expected_version=2)

    for expected in (0, None):
        again = await store.append("s", events, expected_version=expected)
        assert again.already_recorded
        assert (again.version, again.position) == (first.version, first.position)
    assert [e.version for e in await store.read_stream("s")] == [1, 2, 3]


async def test_resending_some_but_not_all_events_is_refused(store: EventStore) -> None:
    events = numbered(2)
    await store.append("s", events, expected_version=0)
    with pytest.raises(DuplicateEventError) as raised:
        await store.append("s", [events[1], new_event()], expected_version=2)
    assert raised.value.event_ids == (events[1].event_id,)
    assert await store.stream_version("s") == 2


async def test_the_same_event_id_may_be_used_in_another_stream(store: EventStore) -> None:
    event = new_event()
    await store.append("a", [event], expected_version=0)
    result = await store.append("b", [event], expected_version=0)
    assert not result.already_recorded


@pytest.mark.parametrize(
    ("stream_id", "events", "expected_version"),
    [
        ("", [new_event()], 0),
        ("x" * 201, [new_event()], 0),
        ("bad\nname", [new_event()], 0),
        ("s", [], 0),
        ("s", [new_event()], -1),
        ("s", [new_event(type="")], 0),
        ("s", [new_event(event_id=uuid.UUID(int=7)), new_event(event_id=uuid.UUID(int=7))], 0),
    ],
)
async def test_bad_appends_are_refused_as_invalid(
    store: EventStore, stream_id: str, events: list[object], expected_version: int
) -> None:
    with pytest.raises(InvalidRequestError):
        await store.append(stream_id, events, expected_version)  # type: ignore[arg-type]


async def test_a_naive_time_is_refused(store: EventStore) -> None:
    naive = replace(new_event(), occurred_at=datetime(2030, 1, 1))
    with pytest.raises(InvalidRequestError):
        await store.append("s", [naive], 0)


async def test_read_stream_after_a_version_and_with_a_limit(store: EventStore) -> None:
    await store.append("s", numbered(5), expected_version=0)
    assert [e.version for e in await store.read_stream("s", after_version=3)] == [4, 5]
    assert [e.version for e in await store.read_stream("s", after_version=1, limit=2)] == [2, 3]
    assert await store.read_stream("missing") == []
    assert await store.stream_version("missing") == 0


async def test_positions_are_unique_and_follow_the_log(store: EventStore) -> None:
    await store.append("a", numbered(2), expected_version=0)
    await store.append("b", numbered(2), expected_version=0)
    await store.append("a", numbered(1, start=3), expected_version=2)

    log = await visible_log(store, 5)
    assert log == await store.read_all()
    assert [(e.stream_id, e.version) for e in log] == [
        ("a", 1),
        ("a", 2),
        ("b", 1),
        ("b", 2),
        ("a", 3),
    ]
    checkpoints = [e.checkpoint for e in log]
    assert checkpoints == sorted(checkpoints)
    assert len({e.position for e in log}) == 5


async def test_read_all_resumes_after_a_checkpoint(store: EventStore) -> None:
    await store.append("a", numbered(3), expected_version=0)
    await store.append("b", numbered(3), expected_version=0)
    log = await visible_log(store, 6)

    first = await store.read_all(limit=4)
    rest = await store.read_all(after=first[-1].checkpoint)
    assert first + rest == log
    assert await store.read_all(after=log[-1].checkpoint) == []


async def test_read_all_brief_reads_the_same_events_without_their_metadata(
    store: EventStore,
) -> None:
    await store.append("a", numbered(3), expected_version=0)
    await store.append("b", numbered(3), expected_version=0)
    await store.truncate("a", 2, truncated_by="admin", reason="undo", truncated_at=FIXED_TIME)
    log = await visible_log(store, 5)

    first = await store.read_all_brief(limit=4)
    rest = await store.read_all_brief(after=first[-1].checkpoint)
    assert first + rest == [
        BriefEvent(e.stream_id, e.version, e.position, e.transaction_id, e.type, e.data)
        for e in log
    ]
    assert [e.checkpoint for e in first + rest] == [e.checkpoint for e in log]
    assert await store.read_all_brief(after=log[-1].checkpoint) == []


async def test_read_stream_after_a_position(store: EventStore) -> None:
    await store.append("a", numbered(2), expected_version=0)
    await store.append("b", numbered(1), expected_version=0)
    await store.append("a", numbered(2, start=3), expected_version=2)
    a = await store.read_stream("a")

    after = await store.read_stream_after_position("a", a[1].position)
    assert after == a[2:]
    assert await store.read_stream_after_position("a", 0, limit=1) == a[:1]


async def test_list_streams_in_id_order(store: EventStore) -> None:
    for name in ("c", "a", "b"):
        await store.append(name, numbered(2 if name == "b" else 1), expected_version=0)
    assert await store.list_streams() == [
        StreamInfo("a", 1),
        StreamInfo("b", 2),
        StreamInfo("c", 1),
    ]
    assert await store.list_streams(after="a", limit=1) == [StreamInfo("b", 2)]
