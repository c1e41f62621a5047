"""Events as data: tagged, versioned msgspec Structs, and one codec per union of them.

Declare an event with an explicit, versioned tag; the tag is its type forever (repeat
frozen=True: mypy does not see it inherited):

    class OrdersSubmitted(Event, frozen=True, tag="orders_submitted.v1"):
        player: str
        orders: tuple[str, ...]

To change a shape, add `orders_submitted.v2` next to v1 and keep decoding both: stored
events are never rewritten. The tag travels inside the JSON (field "type") and in the event
store's type column, so a stored event decodes without any outside knowledge.
"""

import re
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Generic, TypeVar

import msgspec

from eventstore.records import BriefEvent, NewEvent, RecordedEvent

TAG_PATTERN = re.compile(r"^[a-z][a-z0-9_]*\.v[1-9][0-9]*$")


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", gc=False):
    """Base of every event. Subclasses must set `tag="name.vN"`.

    gc=False: decoded events are trees of values, never cycles, and untracked they decode
    faster in bulk. Never put a mutable container in an event that could come to hold it."""


class EventSchemaError(Exception):
    """An event class or a stored event does not fit the conventions."""


class UnknownEventTypeError(EventSchemaError):
    def __init__(self, event_type: str) -> None:
        super().__init__(f"unknown event type {event_type!r}")
        self.event_type = event_type


class MalformedEventError(EventSchemaError):
    """Stored bytes that do not decode as the event their type names."""


E = TypeVar("E", bound=Event)


def event_type(cls: type[Event]) -> str:
    """The versioned tag of an event class, checked against the convention."""
    config = cls.__struct_config__
    if not config.frozen:
        raise EventSchemaError(f"{cls.__name__} must be frozen")
    tag = config.tag
    if not isinstance(tag, str) or not TAG_PATTERN.match(tag):
        raise EventSchemaError(
            f"{cls.__name__} needs an explicit versioned tag like 'orders_submitted.v1', "
            f"not {tag!r}"
        )
    return tag


class EventCodec(Generic[E]):
    """Encodes and decodes one union of event classes with a single msgspec decoder.

    `EventCodec[GameEvent](OrdersSubmitted, TurnResolved, ...)` where GameEvent is the union.
    """

    def __init__(self, *classes: type[E]) -> None:
        if not classes:
            raise EventSchemaError("a codec needs at least one event class")
        self._tags: dict[type[Any], str] = {cls: event_type(cls) for cls in classes}
        if len(set(self._tags.values())) != len(classes):
            raise EventSchemaError("two event classes share a tag")
        self.types = frozenset(self._tags.values())
        union: Any = classes[0] if len(classes) == 1 else _union(classes)
        self._decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(union)
        self._encoder = msgspec.json.Encoder()

    def type_of(self, event: E) -> str:
        tag = self._tags.get(type(event))
        if tag is None:
            raise UnknownEventTypeError(type(event).__name__)
        return tag

    def encode(self, event: E) -> bytes:
        self.type_of(event)
        return self._encoder.encode(event)

    def decode(self, event_type: str, data: bytes) -> E:
        if event_type not in self.types:
            raise UnknownEventTypeError(event_type)
        try:
            event: E = self._decoder.decode(data)
        except msgspec.DecodeError as error:
            raise MalformedEventError(f"{event_type}: {error}") from error
        if self._tags[type(event)] != event_type:
            raise MalformedEventError(f"stored as {event_type} but tagged {type(event)}")
        return event

    def decode_recorded(self, recorded: RecordedEvent) -> E:
        return self.decode(recorded.type, recorded.data)

    def decode_all(self, recorded: Sequence[BriefEvent | RecordedEvent]) -> list[E]:
        """`decode` for each, with its checks as one comparison of two lists (catch-up reads
        decode by the hundred thousand); a batch that fails them is decoded again one by one,
        which raises for the first bad event."""
        decode, tags = self._decoder.decode, self._tags
        try:
            events: list[E] = [decode(event.data) for event in recorded]
            if [tags[type(event)] for event in events] == [event.type for event in recorded]:
                return events
        except msgspec.DecodeError:
            pass
        return [self.decode(event.type, event.data) for event in recorded]

    def new_event(
        self,
        event: E,
        *,
        occurred_at: datetime,
        actor: str,
        correlation_id: uuid.UUID,
        causation_id: uuid.UUID | None = None,
        event_id: uuid.UUID | None = None,
    ) -> NewEvent:
        """The store's form of an event, encoded once. Keep `event_id` when re-sending, so
        that the store recognises the re-send."""
        return NewEvent(
            event_id=event_id or uuid.uuid4(),
            type=self.type_of(event),
            data=self.encode(event),
            occurred_at=occurred_at,
            actor=actor,
            correlation_id=correlation_id,
            causation_id=causation_id,
        )


def event_values(event: object) -> dict[str, Any]:
    """An event as JSON values (dicts, lists, strings...), JSON it keeps as such (msgspec.Raw:
    a game's step's own events, schema/game_events.py) decoded too."""
    values: dict[str, Any] = msgspec.to_builtins(event, enc_hook=_raw_values)
    return values


def _raw_values(value: object) -> Any:
    if isinstance(value, msgspec.Raw):
        return msgspec.json.decode(value)
    raise NotImplementedError(f"{type(value).__name__} is no event's value")


def _union(classes: tuple[type[Any], ...]) -> Any:
    union: Any = classes[0]
    for cls in classes[1:]:
        union = union | cls
    return union
