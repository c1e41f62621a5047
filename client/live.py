"""A game's live messages (docs/api.md, "Live") as an async iterator that resumes on its own.

When the connection drops, or the server closes it (1012 when it stops, 1013 when the
client fell behind or the database is away), the subscription reconnects from the last
position it yielded, after a bounded backoff, until `deadline` seconds pass without a
connection that delivers anything: then it raises. Every event after `after` is yielded
once, in order. Where the server sends a `snapshot` instead of the events a client missed
(more than 200 of them), those events are read from the event feed first and yielded before
the snapshot, unless `fill_gaps` is off: then the snapshot stands for them, as the server
means it. Pings and `error` messages are the subscription's own business, not yielded;
nor is what a newer server sends that this client cannot read (client/newer.py), though the
position moves past it.
"""

import asyncio
import collections
import random
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Self
from urllib.parse import quote, urlencode

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from client.errors import ApiError, RateLimited, Unavailable, Unreachable, error_for
from client.newer import SkippedEvent, read_message
from schema.api import EventPage, FeedEvent
from schema.events import event_values
from schema.game_events import TurnResolved
from schema.live import (
    ErrorMessage,
    EventMessage,
    ResolvedMessage,
    RewoundMessage,
    ServerMessage,
    SnapshotMessage,
)

# Reconnecting waits this long at first, twice as long after each connection that brought
# nothing, up to the most (each wait drawn from its upper half, so that clients dropped
# together do not all come back at once).
FIRST_DELAY = 0.1
LONGEST_DELAY = 5.0
# How long opening a connection (TCP, the handshake) may take.
OPEN_SECONDS = 10.0
# An `event` message whose event comes with a message of its own at the same position.
_COMPANIONS = {"turn_resolved": "resolved", "turn_rewound": "rewound"}
# Close codes for refusals that another attempt would not change (4000 + the HTTP status);
# 4429 (too many sockets) and anything below 4000 are worth another try.
_FINAL = 4000
_TOO_MANY = 4429


class Cursor:
    """What a subscription has yielded, and where it resumes. A position is complete once
    every message at it has been yielded; after a `turn_resolved` or `turn_rewound` event,
    its `resolved` or `rewound` is owed at the same position, so a connection lost in
    between resumes one before it, and what was yielded there already is skipped."""

    def __init__(self, after: int) -> None:
        self.position = max(after, 0)
        self._yielded_here: set[str] = set()
        self._owed: str | None = None

    @property
    def resume_after(self) -> int:
        return self.position - 1 if self._owed is not None else self.position

    def take(self, message: ServerMessage) -> bool:
        """Note the message; whether to yield it (False for what was yielded already)."""
        kind = message.type
        if kind in ("event", "resolved", "rewound"):
            event = message.event.type if isinstance(message, EventMessage) else None
            return self._reach(kind, message.position, event)
        if kind in ("ping", "snapshot") and message.position > self.position:
            # Everything up to a ping's position has been sent; a snapshot stands for it.
            self._move_to(message.position)
            self._owed = None
        return kind in ("snapshot", "standings")

    def pass_over(self, skipped: SkippedEvent) -> None:
        """Note an event this client cannot read as if yielded: a reconnection goes on past
        it, and a companion it owes is still waited for."""
        self._reach("event", skipped.position, skipped.type)

    def _reach(self, kind: str, position: int, event: str | None) -> bool:
        if position < self.position or (position == self.position and kind in self._yielded_here):
            return False
        self._move_to(position)
        self._yielded_here.add(kind)
        self._owed = None if event is None else _COMPANIONS.get(event.split(".")[0])
        return True

    def _move_to(self, position: int) -> None:
        if position > self.position:
            self.position = position
            self._yielded_here = set()


def gap_messages(event: FeedEvent) -> list[ServerMessage]:
    """The messages the socket would have sent for an event read from the feed."""
    messages: list[ServerMessage] = [EventMessage(position=event.position, event=event)]
    companion = _COMPANIONS.get(event.type.split(".")[0])
    data = event_values(event.data)
    if companion == "resolved":
        resolution = msgspec.convert(data, TurnResolved)
        messages.append(
            ResolvedMessage(position=event.position, turn=resolution.turn, resolution=resolution)
        )
    elif companion == "rewound":
        messages.append(
            RewoundMessage(
                position=event.position,
                turn=data["turn"],
                by=data.get("by"),
                reason=data.get("reason"),
            )
        )
    return messages


class Subscription:
    """`async for message in client.live(game, after=...)`; `async with` closes it when the
    loop ends early. `position` is where it stands: a later subscription from there goes on
    exactly where this one stopped."""

    def __init__(
        self,
        url: str,
        headers: dict[str, str],
        read_page: Callable[[int], Awaitable[EventPage]],
        *,
        after: int,
        fill_gaps: bool,
        deadline: float,
        on_event: Callable[[FeedEvent], None] | None = None,
    ) -> None:
        self._url = url
        # Told of each event as it is yielded (the client keeps its hash: client/heads.py).
        self._on_event = on_event
        self._headers = headers
        self._read_page = read_page
        self._fill_gaps = fill_gaps
        self._deadline = deadline
        self._cursor = Cursor(after)
        self._ready: collections.deque[ServerMessage] = collections.deque()
        self._socket: ClientConnection | None = None
        # Connections in a row that brought nothing, since this time (loop clock).
        self._failures = 0
        self._failing_since: float | None = None
        self._last_failure: ApiError = Unreachable("not connected yet")
        self._closing_reason: str | None = None
        self._closed = False

    @property
    def position(self) -> int:
        return self._cursor.resume_after

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> ServerMessage:
        while not self._ready:
            if self._closed:
                raise StopAsyncIteration
            if self._socket is None:
                await self._connect()
                continue
            try:
                raw = await self._socket.recv(decode=False)
            except ConnectionClosed as closed:
                self._lost(closed)
                continue
            message = read_message(raw)
            if isinstance(message, SkippedEvent):
                self._cursor.pass_over(message)
            elif message is not None:
                await self._receive(message)
        message = self._ready.popleft()
        if isinstance(message, EventMessage) and self._on_event is not None:
            self._on_event(message.event)
        return message

    async def _receive(self, message: ServerMessage) -> None:
        self._failures, self._failing_since = 0, None
        if isinstance(message, ErrorMessage):
            self._closing_reason = message.message
            return
        if isinstance(message, SnapshotMessage) and self._fill_gaps:
            try:
                await self._fill(message.position)
            except (RateLimited, Unavailable, Unreachable) as error:
                # As if the connection had dropped: what was read of the gap stands, and the
                # next connection goes on from there.
                await self._hang_up()
                self._failed(error)
                return
        if self._cursor.take(message):
            self._ready.append(message)

    async def _fill(self, upto: int) -> None:
        """Read the events the snapshot stands for from the feed, as this caller sees them."""
        after = self._cursor.resume_after
        while after < upto:
            page = await self._read_page(after)
            for event in page.events:
                if event.position <= upto:
                    self._ready.extend(m for m in gap_messages(event) if self._cursor.take(m))
            if not page.has_more:
                return
            after = page.position

    def _lost(self, closed: ConnectionClosed) -> None:
        self._socket = None
        code = closed.rcvd.code if closed.rcvd is not None else 1006
        reason = self._closing_reason or (closed.rcvd.reason if closed.rcvd else "") or "closed"
        self._closing_reason = None
        if code >= _FINAL and code != _TOO_MANY:
            raise error_for(code - _FINAL, f"websocket_{code}", reason) from closed
        self._failed(
            error_for(429, f"websocket_{code}", reason)
            if code == _TOO_MANY
            else Unreachable(f"the live connection closed ({code}): {reason}")
        )

    def _failed(self, error: ApiError) -> None:
        self._last_failure = error
        self._failures += 1
        if self._failing_since is None:
            self._failing_since = asyncio.get_running_loop().time()

    async def _connect(self) -> None:
        """One attempt, after the backoff's wait; raises the last failure once the deadline
        has passed."""
        now = asyncio.get_running_loop().time()
        if self._failing_since is not None and now - self._failing_since > self._deadline:
            raise self._last_failure
        if self._failing_since is not None or self._failures:
            wait = min(LONGEST_DELAY, FIRST_DELAY * 2 ** max(self._failures - 1, 0))
            await asyncio.sleep(random.uniform(wait / 2, wait))
        query = {"after": str(self._cursor.resume_after)}
        if "Authorization" not in self._headers:
            # A spectator's: the server need not wait for a token sent as a message.
            query["auth"] = "none"
        try:
            socket = await connect(
                f"{self._url}?{urlencode(query)}",
                additional_headers=self._headers,
                open_timeout=OPEN_SECONDS,
                max_size=None,
            )
        except InvalidStatus as refused:
            status = refused.response.status_code
            error = error_for(status, f"http_{status}", "the live connection was refused")
            if 400 <= status < 500 and status != 429:
                raise error from refused
            self._failed(error)
            return
        except (OSError, TimeoutError, InvalidHandshake) as error:
            self._failed(Unreachable(f"cannot connect: {error!r}"))
            return
        self._socket = socket

    async def _hang_up(self) -> None:
        if self._socket is not None:
            socket, self._socket = self._socket, None
            await socket.close()

    async def aclose(self) -> None:
        self._closed = True
        self._ready.clear()
        await self._hang_up()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


def live_url(base_url: str, game: str) -> str:
    return f"{base_url.replace('http', 'ws', 1)}/v1/games/{quote(game, safe='')}/live"
