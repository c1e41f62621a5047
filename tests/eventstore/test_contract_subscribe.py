"""The store contract, part 3: subscriptions catch up, then follow live."""

import asyncio

from eventstore.base import EventStore
from eventstore.records import RecordedEvent
from eventstore.subscription import Subscription
from tests.support import FIXED_TIME, new_event, numbered, visible_log


async def receive(subscription: Subscription, count: int) -> list[RecordedEvent]:
    """The next `count` events; fails the test if they do not come within 10 s."""
    received: list[RecordedEvent] = []
    async with asyncio.timeout(10):
        while len(received) < count:
            received.extend(await subscription.next_batch())
    return received


async def test_a_subscription_catches_up_then_follows_live(store: EventStore) -> None:
    await store.append("a", numbered(3), expected_version=0)

    async with store.subscribe() as subscription:
        caught_up = await receive(subscription, 3)
        await store.append("b", numbered(2), expected_version=0)
        await store.append("a", numbered(1, start=4), expected_version=3)
        live = await receive(subscription, 3)
        sentinel = await store.append("z", [new_event()], expected_version=0)
        last = await receive(subscription, 1)

    assert caught_up + live == (await store.read_all())[:6]
    assert [(e.stream_id, e.version) for e in live] == [("b", 1), ("b", 2), ("a", 4)]
    # Nothing was delivered twice: the very next event is the sentinel.
    assert [e.position for e in last] == [sentinel.position]


async def test_a_subscription_starts_after_its_checkpoint(store: EventStore) -> None:
    await store.append("a", numbered(4), expected_version=0)
    log = await visible_log(store, 4)

    async with store.subscribe(after=log[1].checkpoint) as subscription:
        assert await receive(subscription, 2) == log[2:]


async def test_iterating_yields_one_event_at_a_time(store: EventStore) -> None:
    await store.append("a", numbered(2), expected_version=0)
    async with store.subscribe() as subscription:
        async with asyncio.timeout(10):
            first = await anext(subscription)
            second = await anext(subscription)
    assert (first.version, second.version) == (1, 2)


async def test_a_stream_subscription_sees_only_its_stream(store: EventStore) -> None:
    await store.append("mine", numbered(1), expected_version=0)
    await store.append("other", numbered(1), expected_version=0)

    async with store.subscribe_stream("mine") as subscription:
        first = await receive(subscription, 1)
        await store.append("other", numbered(1, start=2), expected_version=1)
        await store.append("mine", numbered(1, start=2), expected_version=1)
        second = await receive(subscription, 1)

    assert [(e.stream_id, e.version) for e in first + second] == [("mine", 1), ("mine", 2)]


async def test_a_stream_subscription_carries_on_after_a_truncation(store: EventStore) -> None:
    await store.append("g", numbered(3), expected_version=0)
    marker = new_event(b"{}", type="rewound.v1")

    async with store.subscribe_stream("g") as subscription:
        await receive(subscription, 3)
        await store.truncate(
            "g", 1, truncated_by="a", reason="r", truncated_at=FIXED_TIME, then_append=[marker]
        )
        await store.append("g", numbered(1, start=9), expected_version=2)
        after = await receive(subscription, 2)

    assert [(e.version, e.type) for e in after] == [(2, "rewound.v1"), (3, "thing_happened.v1")]


async def test_closing_the_store_ends_its_subscriptions(store: EventStore) -> None:
    await store.append("a", numbered(1), expected_version=0)
    subscription = store.subscribe()
    received: list[RecordedEvent] = []
    got_one = asyncio.Event()

    async def follow() -> None:
        async for event in subscription:
            received.append(event)
            got_one.set()

    follower = asyncio.create_task(follow())
    async with asyncio.timeout(10):
        await got_one.wait()
        await store.close()
        await follower
    assert subscription.closed
    assert len(received) == 1


async def test_a_closed_subscription_yields_nothing_more(store: EventStore) -> None:
    await store.append("a", numbered(2), expected_version=0)
    subscription = store.subscribe()
    async with subscription:
        pass
    assert await subscription.next_batch() == []
