"""The store contract, part 3: the size bound. Runs against every implementation."""

import random
from datetime import timedelta

import pytest

from eventstore.base import MAX_APPEND_BYTES, MAX_EVENT_BYTES, EventStore
from eventstore.errors import EventTooLargeError, InvalidRequestError
from tests.support import FIXED_TIME, new_event, numbered

# One buffer for every large event, so that the tests hold it in memory once. Random, so
# that PostgreSQL gives up compressing it at once: the test is about room, not compression.
_LARGEST = random.Random(1).randbytes(MAX_EVENT_BYTES)


async def test_an_event_at_the_bound_is_stored_and_read_back_whole(store: EventStore) -> None:
    await store.append("big", [new_event(_LARGEST)], expected_version=0)
    [recorded] = await store.read_stream("big")
    assert len(recorded.data) == MAX_EVENT_BYTES
    assert recorded.data == _LARGEST


async def test_an_event_past_the_bound_is_refused_and_nothing_is_written(
    store: EventStore,
) -> None:
    await store.append("s", numbered(1), expected_version=0)
    with pytest.raises(EventTooLargeError, match="per event") as raised:
        await store.append("s", [new_event(), new_event(_LARGEST + b"x")], expected_version=1)
    assert isinstance(raised.value, InvalidRequestError)
    assert await store.stream_version("s") == 1


async def test_an_append_past_the_bound_in_all_is_refused(store: EventStore) -> None:
    count = MAX_APPEND_BYTES // MAX_EVENT_BYTES + 1
    with pytest.raises(EventTooLargeError, match="per append"):
        await store.append("s", [new_event(_LARGEST) for _ in range(count)], expected_version=0)
    assert await store.stream_version("s") == 0


async def test_a_truncation_whose_follow_up_is_too_large_changes_nothing(
    store: EventStore,
) -> None:
    await store.append("g", numbered(3), expected_version=0)
    with pytest.raises(EventTooLargeError):
        await store.truncate(
            "g",
            2,
            truncated_by="a",
            reason="r",
            truncated_at=FIXED_TIME + timedelta(hours=1),
            then_append=[new_event(_LARGEST + b"x")],
        )
    assert await store.stream_version("g") == 3
    assert await store.read_archive("g") == []
