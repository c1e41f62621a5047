"""The event conventions: explicit versioned tags, one codec per union, typed errors."""

import uuid

import msgspec
import pytest

from eventstore.memory import MemoryEventStore
from eventstore.records import RecordedEvent
from schema.events import (
    Event,
    EventCodec,
    EventSchemaError,
    MalformedEventError,
    UnknownEventTypeError,
    event_type,
)
from tests.support import FIXED_TIME


class ThingHappened(Event, frozen=True, tag="thing_happened.v1"):
    what: str


class ThingHappenedV2(Event, frozen=True, tag="thing_happened.v2"):
    what: str
    where: str


class OtherThing(Event, frozen=True, tag="other_thing.v1"):
    count: int


class Untagged(Event, frozen=True):
    x: int


CODEC = EventCodec[ThingHappened | ThingHappenedV2](ThingHappened, ThingHappenedV2)


def test_an_event_encodes_with_its_tag_and_decodes_back() -> None:
    event = ThingHappenedV2(what="rain", where="north")
    data = CODEC.encode(event)
    assert msgspec.json.decode(data) == {
        "type": "thing_happened.v2",
        "what": "rain",
        "where": "north",
    }
    assert CODEC.decode("thing_happened.v2", data) == event
    assert CODEC.types == {"thing_happened.v1", "thing_happened.v2"}


def test_every_event_class_needs_an_explicit_versioned_tag() -> None:
    assert event_type(ThingHappened) == "thing_happened.v1"
    with pytest.raises(EventSchemaError, match="versioned tag"):
        EventCodec(Untagged)


def test_two_classes_cannot_share_a_tag() -> None:
    class Twin(Event, frozen=True, tag="thing_happened.v1"):
        what: str

    with pytest.raises(EventSchemaError, match="share"):
        EventCodec(ThingHappened, Twin)


UNDECODABLE = [
    ("other_thing.v1", b'{"type":"other_thing.v1","count":1}', UnknownEventTypeError),
    ("thing_happened.v1", b'{"type":"thing_happened.v1"}', MalformedEventError),
    ("thing_happened.v1", b"not json", MalformedEventError),
    (
        "thing_happened.v1",
        b'{"type":"thing_happened.v2","what":"a","where":"b"}',
        MalformedEventError,
    ),
    # Decodes as an event of the codec, but not of the type it was stored as.
    ("other_thing.v1", b'{"type":"thing_happened.v1","what":"a"}', UnknownEventTypeError),
]


@pytest.mark.parametrize(("event_type_name", "data", "error"), UNDECODABLE)
def test_what_does_not_decode_raises_a_typed_error(
    event_type_name: str, data: bytes, error: type[Exception]
) -> None:
    with pytest.raises(error):
        CODEC.decode(event_type_name, data)


@pytest.mark.parametrize(("event_type_name", "data", "error"), UNDECODABLE)
def test_a_batch_with_one_bad_event_raises_as_decoding_it_alone_would(
    event_type_name: str, data: bytes, error: type[Exception]
) -> None:
    good = _recorded("thing_happened.v1", CODEC.encode(ThingHappened(what="sun")), version=1)
    bad = _recorded(event_type_name, data, version=2)
    assert CODEC.decode_all([good]) == [ThingHappened(what="sun")]
    with pytest.raises(error):
        CODEC.decode_all([good, bad, good])


def _recorded(type_: str, data: bytes, *, version: int) -> RecordedEvent:
    return RecordedEvent(
        "g",
        version,
        version,
        1,
        uuid.uuid4(),
        type_,
        data,
        FIXED_TIME,
        "p1",
        uuid.uuid4(),
        None,
        b"",
    )


def test_encoding_an_event_outside_the_union_is_refused() -> None:
    with pytest.raises(UnknownEventTypeError):
        CODEC.encode(OtherThing(count=1))  # type: ignore[arg-type]


async def test_events_round_trip_through_a_store() -> None:
    correlation = uuid.uuid4()
    new = CODEC.new_event(
        ThingHappened(what="hail"), occurred_at=FIXED_TIME, actor="p1", correlation_id=correlation
    )
    async with MemoryEventStore() as store:
        await store.append("g", [new], expected_version=0)
        recorded = await store.read_stream("g")
    assert CODEC.decode_all(recorded) == [ThingHappened(what="hail")]
    assert (recorded[0].type, recorded[0].correlation_id) == ("thing_happened.v1", correlation)
