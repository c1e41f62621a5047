"""The store contract, part 7: appending with the stream held. A writer that keeps losing the
race to `append` reads what it missed and appends on it with the stream held, so that
nobody can append in between. The racing writer here is a second store over the same database, as
another process would be (the memory store has no other instance: it is its own)."""

import asyncio
from collections.abc import Sequence

from eventstore.base import EventStore
from eventstore.records import NewEvent, NewSnapshot, RecordedEvent, Snapshot
from tests.support import new_event, numbered


async def test_decide_is_given_the_events_after_the_position_and_its_own_go_at_the_head(
    store: EventStore,
) -> None:
    first = await store.append("g", numbered(1), 0)
    await store.append("g", numbered(2, start=2), 1)
    seen: list[RecordedEvent] = []
    mine = new_event(b'{"n":4}')

    def decide(missed: list[RecordedEvent]) -> tuple[Sequence[NewEvent], None]:
        seen.extend(missed)
        return [mine], None

    result = await store.append_held("g", first.position, decide)

    assert result is not None
    assert [e.version for e in seen] == [2, 3]
    assert result.version == 4
    [last] = await store.read_stream("g", after_version=3)
    assert (last.event_id, last.position) == (mine.event_id, result.position)


async def test_decide_that_appends_nothing_leaves_the_stream_as_it_was(store: EventStore) -> None:
    await store.append("g", numbered(2), 0)
    before = await store.read_stream("g")

    assert await store.append_held("g", 0, lambda missed: None) is None
    assert await store.read_stream("g") == before


async def test_a_snapshot_decided_with_the_stream_held_is_saved_with_the_events(
    store: EventStore,
) -> None:
    await store.append("g", numbered(1), 0)

    def decide(missed: list[RecordedEvent]) -> tuple[Sequence[NewEvent], NewSnapshot]:
        return numbered(2, start=2), NewSnapshot("state", b'{"folded":3}')

    result = await store.append_held("g", 0, decide)

    assert result is not None
    saved = await store.load_snapshot("g", "state")
    assert saved == Snapshot(
        stream_id="g",
        name="state",
        version=3,
        position=result.position,
        data=b'{"folded":3}',
    )


async def test_nothing_is_appended_between_what_decide_read_and_its_events(
    store: EventStore, elsewhere: EventStore
) -> None:
    """Writers holding the stream and writers that append wherever it is, all at once: each
    holder saw every event before its own, so its decision stood on the stream's whole
    state."""
    await store.append("g", numbered(1), 0)
    seen: dict[int, int] = {}

    async def held(index: int) -> None:
        def decide(missed: list[RecordedEvent]) -> tuple[Sequence[NewEvent], None]:
            seen[index] = len(missed)
            return [new_event(b'{"held":%d}' % index)], None

        result = await store.append_held("g", 0, decide)
        assert result is not None
        # Every event before this one was among those decide read.
        assert seen[index] == result.version - 1

    async def anywhere(index: int) -> None:
        await elsewhere.append("g", [new_event(b'{"anywhere":%d}' % index)], None)

    await asyncio.gather(*(f(i) for i in range(20) for f in (held, anywhere)))

    events = await store.read_stream("g")
    assert [e.version for e in events] == list(range(1, 42))
    assert len(seen) == 20
