"""Live games over websockets: catch up from `after`, then follow, exactly once and in order.

One `GameFeed` per game and process follows the game's stream (woken by LISTEN/NOTIFY, so
every server process sees every append) and fans each event out to its clients. A client
registers with the feed and notes the position the feed has dispatched up to, with no await
in between: catch-up covers everything up to that position, the live queue everything after
it, so nothing is missed or sent twice. Each client's queue is bounded; a client that falls
that far behind is dropped, and reconnects with `after` to catch up. A client far behind
starts from a snapshot of the public game instead, encoded once per position for everyone.
"""

import asyncio
import contextlib
import logging
from collections.abc import Callable

import msgspec

from eventstore.base import EventStore, RecordedEvent
from eventstore.outages import UNREACHABLE
from projections.game import GameState, fold
from projections.loading import state_until, stream_of
from projections.views import public_game, standings
from projections.visibility import Viewer
from schema.game_events import GameEvent, TurnResolved, TurnRewound, game_codec
from schema.live import (
    EventMessage,
    LiveMessage,
    ResolvedMessage,
    RewoundMessage,
    SnapshotMessage,
    StandingsMessage,
)
from schema.views import PlayerView
from server.feed import feed_event
from server.handlers import GameService
from server.socket_limits import OpenSockets

QUEUE_LIMIT = 1000
_encode = msgspec.json.Encoder().encode
_log = logging.getLogger(__name__)


class Client:
    def __init__(self, viewer: Viewer, on_drop: Callable[[], object] | None = None) -> None:
        self.viewer = viewer
        # Live messages at or before this position were (or will be) sent by the catch-up.
        self.sent_up_to = 0
        # The position of the last message written to the socket: where to reconnect from.
        self.delivered = 0
        self.queue: asyncio.Queue[tuple[int, bytes] | None] = asyncio.Queue(QUEUE_LIMIT)
        self.too_slow = False
        # Called when the client falls too far behind: its sender may be stuck writing to a
        # socket that nobody reads, so waiting for it to reach the end of the queue is no use.
        self.on_drop = on_drop

    def leave(self) -> None:
        """End the stream: the sender stops at the marker."""
        with contextlib.suppress(asyncio.QueueEmpty):
            if self.queue.full():
                self.queue.get_nowait()
        self.queue.put_nowait(None)

    def offer(self, position: int, data: bytes) -> None:
        """Queue an encoded message, unless the catch-up covers it; drop the client if its
        queue is full."""
        if self.too_slow or position <= self.sent_up_to:
            return
        try:
            self.queue.put_nowait((position, data))
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        """Stop serving the client: it is closed with 1013 and reconnects with `after`."""
        if self.too_slow:
            return
        self.too_slow = True
        self.leave()
        if self.on_drop is not None:
            self.on_drop()


def messages_for(
    viewer: Viewer, recorded: RecordedEvent, event: GameEvent, state: GameState
) -> list[LiveMessage]:
    """What one event means to one viewer, in the order they are sent."""
    messages: list[LiveMessage] = []
    shown_event = feed_event(viewer, state, recorded, event)
    if shown_event is not None:
        messages.append(EventMessage(recorded.position, event=shown_event))
    if isinstance(event, TurnResolved):
        messages.append(ResolvedMessage(recorded.position, turn=event.turn, resolution=event))
    elif isinstance(event, TurnRewound):
        messages.append(RewoundMessage(recorded.position, turn=event.turn))
    return messages


class GameFeed:
    def __init__(self, games: GameService, store: EventStore, game_id: str) -> None:
        self._games = games
        self._store = store
        self.game_id = game_id
        self.clients: set[Client] = set()
        self.state = GameState()
        self.position = 0
        self._standings: list[PlayerView] = []
        # The last `snapshot` message encoded, and the position it stands at.
        self._snapshot: tuple[int, bytes] = (-1, b"")
        self._task: asyncio.Task[None] | None = None
        self.idle_since: float | None = None

    async def start(self) -> None:
        loaded = await self._games.load(self.game_id)
        self.state, self.position = loaded.state, loaded.position
        self._standings = standings(self.state)
        self._task = asyncio.create_task(self._follow(), name=f"live feed {self.game_id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for client in self.clients:
            client.leave()

    def current_standings(self, position: int | None = None) -> StandingsMessage:
        at = self.position if position is None else position
        return StandingsMessage(at, standings=self._standings)

    def snapshot(self, state: GameState, position: int) -> bytes:
        """The `snapshot` message of the game at `position` (`state` is the game there),
        encoded once for every client that starts from it. It is shared for as long as the
        game stays there, so it carries no `now`: the clock is GET /v1/games/{game}'s."""
        if self._snapshot[0] != position:
            game = public_game(state, position)
            self._snapshot = (position, _encode(SnapshotMessage(position, game=game)))
        return self._snapshot[1]

    @property
    def failed(self) -> bool:
        return self._task is not None and self._task.done()

    async def _follow(self) -> None:
        stream = stream_of(self.game_id)
        try:
            async with self._store.subscribe_stream(stream, after_position=self.position) as events:
                while batch := await events.next_batch():
                    await self._dispatch(batch)
        except Exception as error:
            # The clients would wait for ever: drop them, and they reconnect to a new feed.
            if isinstance(error, UNREACHABLE):
                _log.warning("the live feed of game %s lost the database: %s", self.game_id, error)
            else:
                _log.exception("the live feed of game %s failed", self.game_id)
            for client in list(self.clients):
                client.drop()

    async def _dispatch(self, batch: list[RecordedEvent]) -> None:
        for recorded in batch:
            event = game_codec.decode_recorded(recorded)
            if isinstance(event, TurnRewound):
                # Folds cannot run backwards. Reload up to this event only: the batch may hold
                # later events, which are folded in below as they come.
                self.state = await state_until(self._store, self.game_id, recorded.version)
            else:
                self.state = fold(self.state, [(recorded.version, event)])
            self.position = recorded.position
            # Clients who see the game alike get the very same bytes, encoded once.
            encoded: dict[Viewer, list[bytes]] = {}
            for client in list(self.clients):
                messages = encoded.get(client.viewer)
                if messages is None:
                    messages = [
                        _encode(m) for m in messages_for(client.viewer, recorded, event, self.state)
                    ]
                    encoded[client.viewer] = messages
                for data in messages:
                    client.offer(recorded.position, data)
        table = standings(self.state)
        if table != self._standings:
            self._standings = table
            data = _encode(self.current_standings())
            for client in list(self.clients):
                client.offer(self.position, data)


class Joined(msgspec.Struct, frozen=True):
    """Where a client joined a feed: the game's state and position at that moment."""

    state: GameState
    position: int


class LiveHub:
    """The feeds of one server process, and the count of its open sockets."""

    def __init__(self, games: GameService, store: EventStore, sockets: OpenSockets) -> None:
        self._games = games
        self._store = store
        self.sockets = sockets
        self._feeds: dict[str, GameFeed] = {}
        self._lock = asyncio.Lock()

    async def join(self, game_id: str, client: Client, after: int) -> tuple[GameFeed, Joined]:
        """Register the client with the game's feed; what the catch-up must cover is
        (after, the returned position]. Nothing awaits between registering and reading the
        position, so the live queue starts exactly where the catch-up ends."""
        feed = await self._feed(game_id)
        feed.clients.add(client)
        joined = Joined(feed.state, feed.position)
        client.sent_up_to = max(after, joined.position)
        return feed, joined

    async def _feed(self, game_id: str) -> GameFeed:
        async with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None or feed.failed:
                feed = GameFeed(self._games, self._store, game_id)
                await feed.start()
                self._feeds[game_id] = feed
            return feed

    def clients(self, game_id: str) -> int:
        """How many clients follow the game through this process."""
        feed = self._feeds.get(game_id)
        return 0 if feed is None else len(feed.clients)

    async def release(self, feed: GameFeed, client: Client) -> None:
        feed.clients.discard(client)
        if feed.clients:
            return
        async with self._lock:
            if not feed.clients and self._feeds.get(feed.game_id) is feed:
                del self._feeds[feed.game_id]
                await feed.stop()

    async def close(self) -> None:
        async with self._lock:
            feeds, self._feeds = list(self._feeds.values()), {}
        for feed in feeds:
            await feed.stop()
