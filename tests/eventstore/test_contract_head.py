"""The store contract, part 4: appending on a kept state, expecting the head's position.

Versions are reused after a truncation and positions never are, so a writer that kept the
stream's state at (version, position of its last event) may append expecting both without
reading first. The rewinds here are made by a second store over the same database, as
another process would (the memory store has no other instance: it is its own).
"""

import asyncio
from datetime import timedelta

import pytest

from eventstore.base import EventStore
from eventstore.errors import ConcurrencyError, InvalidRequestError
from tests.support import FIXED_TIME, new_event, numbered


async def rewind_to_the_same_version(store: EventStore, stream: str) -> int:
    """Truncates the last event and appends another in its place: the version is as
    before, its last event is not. Returns the new last event's position."""
    version = await store.stream_version(stream)
    await store.truncate(
        stream,
        version - 1,
        truncated_by="admin",
        reason="rewind",
        truncated_at=FIXED_TIME + timedelta(hours=1),
        then_append=[new_event(b'{"type":"rewound.v1"}', type="rewound.v1")],
    )
    return (await store.read_stream(stream, after_version=version - 1))[-1].position


async def test_an_append_expecting_the_head_it_has_goes_in(store: EventStore) -> None:
    first = await store.append("g", numbered(2), 0, expected_position=0)
    second = await store.append("g", numbered(1, start=3), 2, expected_position=first.position)

    assert second.version == 3
    assert [e.position for e in await store.read_stream("g")][-1] == second.position


async def test_an_append_expecting_a_head_that_a_rewind_elsewhere_replaced_is_refused(
    store: EventStore, elsewhere: EventStore
) -> None:
    kept = await store.append("g", numbered(3), 0)
    new_head = await rewind_to_the_same_version(elsewhere, "g")
    before = await store.read_stream("g")

    with pytest.raises(ConcurrencyError) as refused:
        await store.append("g", numbered(1, start=9), 3, expected_position=kept.position)

    assert (refused.value.expected, refused.value.actual) == (3, 3)
    assert (refused.value.expected_position, refused.value.actual_position) == (
        kept.position,
        new_head,
    )
    assert await store.read_stream("g") == before
    # The version alone would have let it in on the wrong state.
    result = await store.append("g", numbered(1, start=9), 3, expected_position=new_head)
    assert result.version == 4


async def test_a_truncation_to_the_head_expected_keeps_it_the_head(
    store: EventStore, elsewhere: EventStore
) -> None:
    await store.append("g", numbered(2), 0)
    [_, second] = await store.read_stream("g")
    await store.append("g", numbered(2, start=3), 2)
    await elsewhere.truncate("g", 2, truncated_by="a", reason="r", truncated_at=FIXED_TIME)

    result = await store.append("g", numbered(1, start=9), 2, expected_position=second.position)

    assert result.version == 3


async def test_a_stream_without_events_has_its_head_at_position_zero(
    store: EventStore, elsewhere: EventStore
) -> None:
    first = await store.append("g", numbered(2), 0, expected_position=0)
    await elsewhere.truncate("g", 0, truncated_by="a", reason="r", truncated_at=FIXED_TIME)

    with pytest.raises(ConcurrencyError):
        await store.append("g", numbered(1, start=9), 2, expected_position=first.position)
    result = await store.append("g", numbered(1, start=9), 0, expected_position=0)
    assert result.version == 1


@pytest.mark.parametrize(("version", "position"), [(None, 5), (0, 5), (3, 0), (3, -1)])
async def test_a_head_position_that_cannot_be_is_refused(
    store: EventStore, version: int | None, position: int
) -> None:
    with pytest.raises(InvalidRequestError):
        await store.append("g", numbered(1), version, expected_position=position)


async def test_appends_that_wait_together_are_judged_on_the_head_as_well(
    store: EventStore, elsewhere: EventStore
) -> None:
    """While a first append to the stream is under way (here one that will be refused), the
    next ones wait and go out together: one to the same stream whose versions follow on is a
    single statement, one with other streams a batch; each is judged as if alone."""
    kept = await store.append("g", numbered(2), 0)

    async def together(*appends: tuple[str, int, int | None]) -> list[object]:
        return await asyncio.gather(
            store.append("g", numbered(1), 99),
            *(
                store.append(stream, numbered(1), version, expected_position=position)
                for stream, version, position in appends
            ),
            return_exceptions=True,
        )

    # One stream, the first expecting the head it has, the next following on.
    outcomes = await together(("g", 2, kept.position), ("g", 3, None))
    assert isinstance(outcomes[0], ConcurrencyError)
    assert [getattr(outcome, "version", None) for outcome in outcomes[1:]] == [3, 4]
    head = (await store.read_stream("g"))[-1].position

    # After a rewind elsewhere: chained, the first refused for its head and the second for
    # its version; batched with another stream, only its own append is refused.
    await rewind_to_the_same_version(elsewhere, "g")
    outcomes = await together(("g", 4, head), ("g", 5, None))
    assert all(isinstance(outcome, ConcurrencyError) for outcome in outcomes)
    outcomes = await together(("g", 4, head), ("h", 0, 0))
    assert [type(outcome).__name__ for outcome in outcomes] == [
        "ConcurrencyError",
        "ConcurrencyError",
        "AppendResult",
    ]
    assert await store.stream_version("g") == 4
