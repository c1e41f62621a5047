"""A newer server (docs/client.md, "A newer server"): what the client cannot read, a live
message of a type it does not know, an event of a tag it does not know or whose data it
cannot decode, is passed over, and the feed's and the subscription's positions move past it.

The server here is a fake that sends raw frames and pages: no server this client is built
with can send what it does not know."""

import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

import msgspec
import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from client import SkirmishClient
from client.live import Cursor
from client.newer import SkippedEvent, read_message
from schema.api import FEED_EVENTS, AnyFeedEvent
from schema.game_events import MessageBroadcast, PlayerNotified
from schema.live import EventMessage, StandingsMessage
from tests.api.support import collecting, until

GAME = "g1"
AT = datetime(2030, 1, 1, tzinfo=UTC)


def known(position: int) -> dict[str, Any]:
    data = MessageBroadcast(message=f"at {position}")
    event = FEED_EVENTS["message_broadcast.v1"](
        position=position, version=position, at=AT, data=msgspec.to_builtins(data)
    )
    return msgspec.to_builtins(event)  # type: ignore[no-any-return]


def new_tag(position: int) -> dict[str, Any]:
    event = known(position)
    return {**event, "type": "thing_done.v1", "data": {"type": "thing_done.v1", "what": 1}}


def new_kind(position: int) -> dict[str, Any]:
    """A known tag with a value of a Literal field that a newer server added."""
    data = PlayerNotified(player_id="p1", kind="reminder", turn=1, text="soon")
    event = msgspec.to_builtins(
        FEED_EVENTS["player_notified.v1"](
            position=position, version=position, at=AT, data=msgspec.to_builtins(data)
        )
    )
    return {**event, "data": {**event["data"], "kind": "a_kind_from_the_future"}}


def message(event: dict[str, Any]) -> bytes:
    return msgspec.json.encode({"type": "event", "position": event["position"], "event": event})


class NewerServer:
    """Serves feed pages by `after`, and on its live socket each connection's frames in turn:
    every connection but the last is then closed as a server that stops closes it (1012)."""

    def __init__(self, pages: dict[int, dict[str, Any]], connections: list[list[bytes]]) -> None:
        self.pages = pages
        self.connections = connections
        # The `after` each connection asked for.
        self.asked: list[int] = []

    def _respond(self, connection: ServerConnection, request: Request) -> Response | None:
        url = urlsplit(request.path)
        if not url.path.endswith("/events"):
            return None
        after = int(parse_qs(url.query)["after"][0])
        return connection.respond(200, msgspec.json.encode(self.pages[after]).decode())

    async def _live(self, connection: ServerConnection) -> None:
        assert connection.request is not None
        self.asked.append(int(parse_qs(urlsplit(connection.request.path).query)["after"][0]))
        frames = self.connections[min(len(self.asked), len(self.connections)) - 1]
        for frame in frames:
            await connection.send(frame.decode())
        if len(self.asked) < len(self.connections):
            await connection.close(1012, "restarting")
        else:
            await connection.wait_closed()

    @contextlib.asynccontextmanager
    async def client(self) -> AsyncIterator[SkirmishClient]:
        async with serve(self._live, "127.0.0.1", 0, process_request=self._respond) as server:
            port = server.sockets[0].getsockname()[1]
            async with SkirmishClient(f"http://127.0.0.1:{port}") as client:
                yield client


async def test_the_feed_passes_over_what_it_cannot_read_and_reads_on_past_it() -> None:
    pages = {
        0: {
            "events": [known(1), new_tag(2), new_kind(3), known(4)],
            "position": 4,
            "has_more": True,
        },
        4: {"events": [known(5), new_tag(6)], "position": 6, "has_more": True},
        6: {"events": [new_tag(7)], "position": 7, "has_more": False},
    }
    async with NewerServer(pages, [[]]).client() as client:
        page = await client.events(GAME)
        assert [e.position for e in page.events] == [1, 4]
        assert (page.position, page.has_more) == (4, True)
        assert page.events[0].type == "message_broadcast.v1"
        # A page of nothing the client can read still says where to read on.
        assert (await client.events(GAME, after=6)).events == []
        assert [e.position async for e in client.all_events(GAME)] == [1, 4, 5]


async def test_a_subscription_passes_over_what_it_cannot_read_and_resumes_past_it() -> None:
    unknown_type = msgspec.json.encode({"type": "weather", "position": 1, "sky": "clear"})
    standings = msgspec.json.encode(StandingsMessage(position=3, standings=[]))
    connections = [
        [message(known(1)), unknown_type, message(new_tag(2)), message(new_kind(3)), standings],
        # The server sends again what comes after the position asked for.
        [message(new_tag(4)), message(known(5))],
    ]
    newer = NewerServer({}, connections)
    async with newer.client() as client:
        subscription = client.live(GAME)
        async with collecting(subscription) as received:
            await until(lambda: any(m.position == 5 for m in received), what="the resume")
            # Past the last event passed over, not before it.
            await until(lambda: subscription.position == 5, what="the position")
    assert [(m.type, m.position) for m in received] == [
        ("event", 1),
        ("standings", 3),
        ("event", 5),
    ]
    events = [m.event for m in received if isinstance(m, EventMessage)]
    assert [e.type for e in events] == ["message_broadcast.v1"] * 2
    # The reconnection asked for what came after the last event passed over.
    assert newer.asked == [0, 3]


def test_an_event_passed_over_still_owes_its_companion() -> None:
    cursor = Cursor(0)
    cursor.pass_over(SkippedEvent(position=5, type="turn_rewound.v2"))
    # The `rewound` of position 5 is owed: a reconnection asks for position 5 again.
    assert cursor.resume_after == 4
    cursor.pass_over(SkippedEvent(position=6, type="thing_done.v1"))
    assert cursor.resume_after == 6
    cursor.pass_over(SkippedEvent(position=2, type="thing_done.v1"))
    assert cursor.resume_after == 6


def test_a_known_message_that_does_not_decode_is_still_an_error() -> None:
    # A `resolved` without its resolution, an `event` whose event reads but whose own
    # position does not: a broken server, not a newer one.
    for broken in (
        {"type": "resolved", "position": 1, "turn": 1},
        {"type": "event", "position": "1", "event": known(1)},
        {"type": "event", "position": 1, "event": {"type": "thing_done.v1"}},
    ):
        with pytest.raises(msgspec.ValidationError):
            read_message(msgspec.json.encode(broken))
    assert read_message(message(known(1))) == EventMessage(
        position=1, event=msgspec.convert(known(1), AnyFeedEvent)
    )
