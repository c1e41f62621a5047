"""The store contract, part 4: the hash chain (eventstore/chain.py), the same in every store."""

import hashlib
from datetime import timedelta
from uuid import UUID

from eventstore import chain
from eventstore.base import EventStore
from eventstore.records import NewEvent
from tests.support import FIXED_TIME, new_event, numbered, visible_log

LATER = FIXED_TIME + timedelta(hours=1)


def _fixed(n: int) -> NewEvent:
    """An event with fixed ids, so that its hash is the same in every store and every run."""
    return NewEvent(
        event_id=UUID(int=n),
        type="thing_happened.v1",
        data=b'{"n":%d}' % n,
        occurred_at=FIXED_TIME + timedelta(microseconds=n),
        actor="p1",
        correlation_id=UUID(int=1000 + n),
        causation_id=None if n % 2 else UUID(int=2000 + n),
    )


async def test_every_store_chains_the_same_known_hashes(store: EventStore) -> None:
    await store.append("g", [_fixed(1)], expected_version=0)
    await store.append("g", [_fixed(2), _fixed(3)], expected_version=1)

    events = await store.read_stream("g")

    # Written out by hand from the documented encoding, not by eventstore.chain.
    first = (
        b"\x00\x00\x00\x01g"
        + b"\x00\x00\x00\x08"
        + (1).to_bytes(8, "big")
        + b"\x00\x00\x00\x10"
        + UUID(int=1).bytes
        + b"\x00\x00\x00\x11thing_happened.v1"
        + b'\x00\x00\x00\x07{"n":1}'
        + b"\x00\x00\x00\x08"
        + (int(FIXED_TIME.timestamp()) * 1_000_000 + 1).to_bytes(8, "big")
        + b"\x00\x00\x00\x02p1"
        + b"\x00\x00\x00\x10"
        + UUID(int=1001).bytes
        + b"\x00\x00\x00\x00"
    )
    digest = hashlib.sha256(first).digest()
    assert events[0].hash == hashlib.sha256(bytes(32) + digest).digest()
    previous = chain.GENESIS
    for event in events:
        previous = chain.link(previous, "g", event.version, event)
        assert event.hash == previous
    assert chain.first_break(3, events, []) is None


async def test_the_global_log_carries_the_same_hashes(store: EventStore) -> None:
    await store.append("g", numbered(3), expected_version=0)

    assert [e.hash for e in await visible_log(store, 3)] == [
        e.hash for e in await store.read_stream("g")
    ]


async def test_a_truncation_archives_its_chain_and_the_next_append_continues_it(
    store: EventStore,
) -> None:
    await store.append("g", numbered(4), expected_version=0)
    before = await store.read_stream("g")
    marker = new_event(b'{"type":"rewound.v1"}', type="rewound.v1")

    truncation = await store.truncate(
        "g", 2, truncated_by="a", reason="r", truncated_at=LATER, then_append=[marker]
    )
    await store.append("g", numbered(1, start=9), expected_version=3)

    assert [e.hash for e in truncation.events] == [e.hash for e in before[2:]]
    stream = await store.read_stream("g")
    assert stream[2].hash == chain.link(before[1].hash, "g", 3, stream[2])
    assert stream[3].hash == chain.link(stream[2].hash, "g", 4, stream[3])
    assert chain.first_break(4, stream, await store.read_archive("g")) is None


async def test_a_chain_over_rewinds_and_thousands_of_events_verifies(store: EventStore) -> None:
    version = 0
    for round_ in range(6):
        for start in range(0, 500, 100):
            await store.append("g", numbered(100, start=round_ * 1000 + start), version)
            version += 100
        version -= 150
        await store.truncate("g", version, truncated_by="a", reason="r", truncated_at=LATER)

    stream = await store.read_stream("g")
    archive = await store.read_archive("g")

    assert len(stream) == version == 2100
    assert sum(len(t.events) for t in archive) == 900
    assert chain.first_break(version, stream, archive) is None
