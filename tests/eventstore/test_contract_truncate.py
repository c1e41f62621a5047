"""The store contract, part 2: truncation, the archive and snapshots."""

import asyncio
from datetime import timedelta

import pytest

from eventstore.base import EventStore
from eventstore.errors import ConcurrencyError, DuplicateEventError, InvalidRequestError
from eventstore.records import AppendResult, NewSnapshot, Snapshot
from tests.support import FIXED_TIME, new_event, numbered, visible_log

LATER = FIXED_TIME + timedelta(hours=1)


async def test_truncate_moves_later_events_to_the_archive(store: EventStore) -> None:
    await store.append("g", numbered(5), expected_version=0)
    before = await store.read_stream("g")

    truncation = await store.truncate(
        "g", 2, truncated_by="admin-1", reason="rewind to turn 2", truncated_at=LATER
    )

    assert truncation.events == tuple(before[2:])
    assert (truncation.truncated_by, truncation.reason) == ("admin-1", "rewind to turn 2")
    assert truncation.truncated_at == LATER
    assert await store.read_stream("g") == before[:2]
    assert await store.stream_version("g") == 2
    assert [e.version for e in await visible_log(store, 2)] == [1, 2]
    assert await store.read_archive("g") == [truncation]


async def test_after_a_truncation_versions_are_reused_but_positions_are_not(
    store: EventStore,
) -> None:
    await store.append("g", numbered(3), expected_version=0)
    old = await store.read_stream("g")
    await store.truncate("g", 1, truncated_by="a", reason="r", truncated_at=LATER)

    result = await store.append("g", numbered(1, start=10), expected_version=1)

    assert result.version == 2
    assert result.position > old[-1].position
    assert [e.data for e in await store.read_stream("g")] == [b'{"n":1}', b'{"n":10}']


async def test_truncate_and_then_append_happen_together(store: EventStore) -> None:
    await store.append("g", numbered(3), expected_version=0)
    marker = new_event(b'{"type":"rewound.v1"}', type="rewound.v1")

    await store.truncate(
        "g", 1, truncated_by="a", reason="r", truncated_at=LATER, then_append=[marker]
    )

    stream = await store.read_stream("g")
    assert [(e.version, e.type) for e in stream] == [(1, "thing_happened.v1"), (2, "rewound.v1")]


async def test_two_truncations_decided_on_the_same_version_cannot_both_happen(
    store: EventStore,
) -> None:
    await store.append("g", numbered(4), expected_version=0)
    marker, other = new_event(type="rewound.v1"), new_event(type="rewound.v1")
    await store.truncate(
        "g",
        2,
        truncated_by="a",
        reason="r",
        truncated_at=LATER,
        then_append=[marker],
        expected_version=4,
    )
    with pytest.raises(ConcurrencyError) as raised:
        await store.truncate(
            "g",
            2,
            truncated_by="b",
            reason="r",
            truncated_at=LATER,
            then_append=[other],
            expected_version=4,
        )
    assert (raised.value.expected, raised.value.actual) == (4, 3)
    assert [e.event_id for e in await store.read_stream("g")][-1] == marker.event_id
    assert len(await store.read_archive("g")) == 1


async def test_a_truncation_whose_follow_up_clashes_changes_nothing(store: EventStore) -> None:
    events = numbered(3)
    await store.append("g", events, expected_version=0)

    with pytest.raises(DuplicateEventError):
        await store.truncate(
            "g", 2, truncated_by="a", reason="r", truncated_at=LATER, then_append=[events[0]]
        )
    assert await store.stream_version("g") == 3
    assert await store.read_archive("g") == []


async def test_truncations_accumulate_in_the_archive(store: EventStore) -> None:
    await store.append("g", numbered(4), expected_version=0)
    first = await store.truncate("g", 3, truncated_by="a", reason="one", truncated_at=LATER)
    await store.append("g", numbered(2, start=5), expected_version=3)
    second = await store.truncate("g", 0, truncated_by="b", reason="two", truncated_at=LATER)

    archive = await store.read_archive("g")
    assert [t.reason for t in archive] == ["one", "two"]
    assert [len(t.events) for t in archive] == [1, 5]
    assert archive == [first, second]
    assert first.truncation_id < second.truncation_id
    assert await store.stream_version("g") == 0
    assert (await store.append("g", numbered(1), expected_version=0)).version == 1


@pytest.mark.parametrize(
    ("stream_id", "after_version", "reason"),
    [("g", 4, "r"), ("missing", 0, "r"), ("g", -1, "r"), ("g", 1, " ")],
)
async def test_impossible_truncations_are_refused(
    store: EventStore, stream_id: str, after_version: int, reason: str
) -> None:
    await store.append("g", numbered(3), expected_version=0)
    with pytest.raises(InvalidRequestError):
        await store.truncate(
            stream_id, after_version, truncated_by="a", reason=reason, truncated_at=LATER
        )
    assert await store.stream_version("g") == 3


async def test_the_archive_of_an_untruncated_stream_is_empty(store: EventStore) -> None:
    await store.append("g", numbered(1), expected_version=0)
    assert await store.read_archive("g") == []


def _snapshot(version: int, position: int, data: bytes = b"{}", stream_id: str = "g") -> Snapshot:
    return Snapshot(stream_id=stream_id, name="game", version=version, position=position, data=data)


async def test_the_latest_snapshot_is_loaded(store: EventStore) -> None:
    await store.append("g", numbered(5), expected_version=0)
    events = await store.read_stream("g")
    for version in (2, 4):
        await store.save_snapshot(
            _snapshot(version, events[version - 1].position, b"v%d" % version)
        )

    latest = await store.load_snapshot("g", "game")
    assert latest is not None
    assert (latest.version, latest.data) == (4, b"v4")
    older = await store.load_snapshot("g", "game", at_or_below=3)
    assert older is not None
    assert older.version == 2
    assert await store.load_snapshot("g", "other") is None
    assert await store.load_snapshot("g", "game", at_or_below=1) is None


async def test_the_latest_snapshots_of_many_streams_are_loaded_at_once(
    store: EventStore,
) -> None:
    for stream_id in ("a", "b", "c"):
        await store.append(stream_id, numbered(5), expected_version=0)
        events = await store.read_stream(stream_id)
        for version in (2, 4):
            await store.save_snapshot(
                _snapshot(version, events[version - 1].position, b"v%d" % version, stream_id)
            )
    await store.truncate("c", 3, truncated_by="a", reason="r", truncated_at=LATER)

    found = await store.load_snapshots("game", {"a": 3, "b": 5, "c": 5, "d": 2})

    # c's version 4 went with its truncation; d has no stream.
    assert sorted((s.stream_id, s.version, s.data) for s in found) == [
        ("a", 2, b"v2"),
        ("b", 4, b"v4"),
        ("c", 2, b"v2"),
    ]
    assert await store.load_snapshots("other", {"a": 5}) == []
    assert await store.load_snapshots("game", {"a": 1}) == []


async def test_saving_a_snapshot_again_replaces_it(store: EventStore) -> None:
    await store.append("g", numbered(2), expected_version=0)
    position = (await store.read_stream("g"))[1].position
    await store.save_snapshot(_snapshot(2, position, b"old"))
    await store.save_snapshot(_snapshot(2, position, b"new"))
    loaded = await store.load_snapshot("g", "game")
    assert loaded is not None
    assert loaded.data == b"new"


async def test_snapshots_of_truncated_events_are_not_used(store: EventStore) -> None:
    await store.append("g", numbered(4), expected_version=0)
    events = await store.read_stream("g")
    await store.save_snapshot(_snapshot(1, events[0].position, b"kept"))
    await store.save_snapshot(_snapshot(3, events[2].position, b"gone"))

    await store.truncate("g", 2, truncated_by="a", reason="r", truncated_at=LATER)
    await store.append("g", numbered(2, start=7), expected_version=2)
    # Folded from the old version 3 while the truncation ran: its position gives it away.
    await store.save_snapshot(_snapshot(3, events[2].position, b"stale"))

    loaded = await store.load_snapshot("g", "game")
    assert loaded is not None
    assert loaded.data == b"kept"


async def test_a_snapshot_needs_a_positive_version(store: EventStore) -> None:
    with pytest.raises(InvalidRequestError):
        await store.save_snapshot(_snapshot(0, 0))


@pytest.mark.parametrize(("existing", "expected", "count"), [(0, 0, 1), (2, 2, 3), (2, None, 2)])
async def test_a_snapshot_given_with_an_append_is_saved_at_its_last_event(
    store: EventStore, existing: int, expected: int | None, count: int
) -> None:
    if existing:
        await store.append("g", numbered(existing), expected_version=0)
    result = await store.append(
        "g", numbered(count), expected, snapshot=NewSnapshot("game", b"folded")
    )
    loaded = await store.load_snapshot("g", "game")
    assert loaded == _snapshot(existing + count, result.position, b"folded")


async def test_a_snapshot_goes_only_with_events_that_are_appended(store: EventStore) -> None:
    events = numbered(2)
    await store.append("g", events, 0, snapshot=NewSnapshot("game", b"first"))
    with pytest.raises(ConcurrencyError):
        await store.append("g", numbered(1), 0, snapshot=NewSnapshot("game", b"refused"))
    # A re-send is recognised, and its snapshot is not written again.
    again = await store.append("g", events, 0, snapshot=NewSnapshot("game", b"re-sent"))
    assert again.already_recorded
    loaded = await store.load_snapshot("g", "game")
    assert loaded is not None
    assert loaded.data == b"first"


async def test_appends_to_many_streams_at_once_each_save_their_own_snapshot(
    store: EventStore,
) -> None:
    streams = [f"g{n}" for n in range(8)]
    for stream in streams[:4]:
        await store.append(stream, numbered(1), expected_version=0)
    # Together, so that a store that combines appends writes them in one batch; one of
    # them expects the wrong version and must save nothing.
    outcomes = await asyncio.gather(
        *(
            store.append(
                stream,
                numbered(2),
                expected_version=5 if n == 1 else 1 if n < 4 else 0,
                snapshot=NewSnapshot("game", stream.encode()),
            )
            for n, stream in enumerate(streams)
        ),
        return_exceptions=True,
    )
    assert isinstance(outcomes[1], ConcurrencyError)
    assert await store.load_snapshot("g1", "game") is None
    for n, (stream, outcome) in enumerate(zip(streams, outcomes, strict=True)):
        if n == 1:
            continue
        assert isinstance(outcome, AppendResult)
        loaded = await store.load_snapshot(stream, "game")
        assert loaded is not None
        assert (loaded.version, loaded.position, loaded.data) == (
            outcome.version,
            outcome.position,
            stream.encode(),
        )


async def test_a_state_is_read_from_its_latest_valid_snapshot_and_the_events_after_it(
    store: EventStore,
) -> None:
    assert await store.read_from_snapshot("g", "game") == (None, [])
    await store.append("g", numbered(3), expected_version=0)
    assert await store.read_from_snapshot("g", "game") == (None, await store.read_stream("g"))
    events = await store.read_stream("g")
    await store.save_snapshot(_snapshot(2, events[1].position, b"two"))
    assert await store.read_from_snapshot("g", "game") == (
        _snapshot(2, events[1].position, b"two"),
        events[2:],
    )
    # Truncated below it, the snapshot no longer counts: the whole stream instead.
    await store.truncate("g", 1, truncated_by="a", reason="r", truncated_at=LATER)
    await store.append("g", numbered(2, start=7), expected_version=1)
    assert await store.read_from_snapshot("g", "game") == (None, await store.read_stream("g"))
