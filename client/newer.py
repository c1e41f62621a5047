"""What a newer server may send that this client does not know (docs/client.md, "A newer
server"): events evolve by new tags, and the socket by new message types, so the client
passes over what it cannot read instead of failing the read. What it knows decodes exactly
as before (strictly, first); only a failure falls back to reading the parts one by one."""

import logging
from typing import get_args

import msgspec

from schema.api import FEED_EVENTS, AnyFeedEvent, EventPage, FeedEvent
from schema.live import ServerMessage

log = logging.getLogger(__name__)

_page = msgspec.json.Decoder(EventPage).decode
_message = msgspec.json.Decoder(ServerMessage).decode
_event = msgspec.json.Decoder(AnyFeedEvent).decode
_MESSAGE_TYPES = frozenset(m.__struct_config__.tag for m in get_args(ServerMessage))


class SkippedEvent(msgspec.Struct, frozen=True):
    """An event passed over: where it stands (a reader's position still moves past it) and
    its tag (a `turn_resolved` of a newer version still owes its companion message)."""

    position: int
    type: str


class _Typed(msgspec.Struct):
    type: str


class _LoosePage(msgspec.Struct):
    events: list[msgspec.Raw]
    position: int
    has_more: bool


class _LooseEventMessage(msgspec.Struct):
    position: int
    event: msgspec.Raw


def read_event(raw: msgspec.Raw | bytes) -> FeedEvent | SkippedEvent:
    """An event of the feed, or what is known of one this client cannot read."""
    try:
        return _event(raw)
    except msgspec.ValidationError as error:
        # Without even a tag and a position it is no event at all: that stays an error.
        skipped = msgspec.json.decode(raw, type=SkippedEvent)
        if skipped.type in FEED_EVENTS:
            log.warning("passing over event %d (%s): %s", skipped.position, skipped.type, error)
        else:
            log.debug("passing over event %d of unknown type %s", skipped.position, skipped.type)
        return skipped


def read_page(content: bytes) -> EventPage:
    """A page of the feed, without the events this client cannot read: its `position` and
    `has_more` are the server's, past them."""
    try:
        return _page(content)
    except msgspec.ValidationError:
        loose = msgspec.json.decode(content, type=_LoosePage)
    events = [e for e in map(read_event, loose.events) if isinstance(e, FeedEvent)]
    return EventPage(events, loose.position, loose.has_more)


def read_message(content: bytes) -> ServerMessage | SkippedEvent | None:
    """A message of the live socket; an `event` message's event that this client cannot
    read as a SkippedEvent; None for a message of a type it does not know."""
    try:
        message: ServerMessage = _message(content)
    except msgspec.ValidationError as error:
        kind = msgspec.json.decode(content, type=_Typed).type
        if kind not in _MESSAGE_TYPES:
            log.debug("passing over a live message of unknown type %s", kind)
            return None
        if kind != "event":
            raise
        loose = msgspec.json.decode(content, type=_LooseEventMessage)
        event = read_event(loose.event)
        if isinstance(event, FeedEvent):
            # The event reads: what failed is the message's own, a true error.
            raise error from None
        return SkippedEvent(loose.position, event.type)
    return message
