"""Live games over websockets: catch up from `after`, then follow, exactly once and in order.

One `GameFeed` per game and process follows the game's stream (woken by LISTEN/NOTIFY, so
every server process sees every append) and fans each event out to its clients. A client
registers with the feed and notes the position the feed has dispatched up to, with no await
in between: catch-up covers everything up to that position, the live messages everything
after it, so nothing is missed or sent twice.

The feed keeps its clients grouped by how they see the game (a spectator, a player's seats):
each group's share of a dispatch is encoded and framed once, and written to each caught-up
socket of the group in one write, straight from the feed (server/live/frames.py), with no task
woken per socket. A player's own events are in their group's share alone. What a socket
cannot take at once waits in its client's backlog, which its handler sends through ASGI;
the backlog is bounded, and a client that falls that far behind is dropped and reconnects
with `after` to catch up. A client far behind starts from a snapshot of the public game
instead, encoded once per position for everyone.
"""

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from datetime import datetime

import msgspec

from eventstore.base import EventStore
from eventstore.outages import UNREACHABLE
from eventstore.records import RecordedEvent
from projections.evolve import fold
from projections.game import GameState
from projections.loading import state_until, stream_of
from projections.views import public_game, standings
from projections.visibility import Viewer
from schema.game_events import GameEvent, PlayerNotified, TurnResolved, TurnRewound, game_codec
from schema.live import (
    EventMessage,
    LiveMessage,
    ResolvedMessage,
    RewoundMessage,
    SnapshotMessage,
    StandingsMessage,
    YourTurnMessage,
)
from schema.views import PlayerView
from server.game.handlers import GameService
from server.live.feed import feed_event
from server.live.frames import SocketWriter, text_frames
from server.live.limits import OpenSockets

QUEUE_LIMIT = 1000


class Ending(msgspec.Struct, frozen=True):
    """Why the server stops serving a client, and how its handler closes the socket."""

    code: int
    reason: str


# A client that fell too far behind: it reconnects and catches up.
TOO_SLOW = Ending(1013, "too slow; reconnect with after=<position>")
_encode = msgspec.json.Encoder().encode
_log = logging.getLogger(__name__)


class Client:
    """One socket's place in a feed. Once caught up, what the feed offers is written to the
    socket at once (the frames shared by every client who sees the game alike); what the
    socket cannot take now (its transport's buffer is full, or it has no `SocketWriter`)
    waits in the backlog, which the socket's handler sends through ASGI in order."""

    def __init__(
        self,
        viewer: Viewer,
        writer: SocketWriter | None = None,
        on_end: Callable[[], object] | None = None,
    ) -> None:
        self.viewer = viewer
        self.writer = writer
        # Live messages at or before this position were (or will be) sent by the catch-up.
        self.sent_up_to = 0
        # The position of the last message written to the socket: where to reconnect from.
        self.delivered = 0
        # Set by the handler once the catch-up is sent and the backlog empty: from then on
        # the feed may write to the socket itself whenever the backlog is empty.
        self.following = False
        # Whether anything was written since the handler last looked (it pings when not).
        self.written = False
        self.backlog: deque[tuple[int, bytes]] = deque()
        # Set when the handler has something to do: a backlog, or leaving.
        self.wake = asyncio.Event()
        self.left = False
        # Set when the server stops serving the client (`end`): nothing more is sent to it.
        self.ending: Ending | None = None
        # Called when the client is ended: its handler may be stuck writing to a socket that
        # nobody reads, so waiting for it to reach the end of the backlog is no use.
        self.on_end = on_end

    def leave(self) -> None:
        """End the stream: the handler stops at once."""
        self.left = True
        self.wake.set()

    def offer(self, batch: "Batch") -> None:
        """Write the batch (one viewer's share of a dispatch) or queue it, but not what the
        catch-up covers; drop the client if too many messages wait."""
        if self.ending is not None or batch.positions[-1] <= self.sent_up_to:
            return
        whole = batch.positions[0] > self.sent_up_to
        # Straight to the socket only when nothing waits before it.
        writer = self.writer if self.following and not self.backlog else None
        if whole and writer is not None and writer.write(batch.frames()):
            self.delivered = batch.positions[-1]
            self.written = True
            return
        fresh = batch.after(self.sent_up_to)
        if len(self.backlog) + len(fresh) > QUEUE_LIMIT:
            self.drop()
            return
        self.backlog.extend(fresh)
        self.wake.set()

    def drop(self) -> None:
        """Stop serving the client: it is closed with 1013 and reconnects with `after`."""
        self.end(TOO_SLOW)

    def end(self, ending: Ending) -> None:
        """Stop serving the client at once: nothing more is written to its socket, which its
        handler closes as `ending` says (the first ending given stands)."""
        if self.ending is not None:
            return
        self.ending = ending
        self.leave()
        if self.on_end is not None:
            self.on_end()


class Batch:
    """What one viewer is sent of a dispatch, in order: each message's position and JSON,
    and, framed once when first asked for, the websocket frames of them all."""

    def __init__(self) -> None:
        self.positions: list[int] = []
        self.payloads: list[bytes] = []
        self._frames: bytes | None = None

    def add(self, position: int, payload: bytes) -> None:
        self.positions.append(position)
        self.payloads.append(payload)

    def after(self, position: int) -> list[tuple[int, bytes]]:
        """The messages past `position`."""
        pairs = zip(self.positions, self.payloads, strict=True)
        return [(p, data) for p, data in pairs if p > position]

    def frames(self) -> bytes:
        if self._frames is None:
            self._frames = text_frames(self.payloads)
        return self._frames


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
        messages.append(
            RewoundMessage(recorded.position, turn=event.turn, by=event.by, reason=event.reason)
        )
    elif (
        isinstance(event, PlayerNotified)
        and event.kind == "your_turn"
        and event.player_id in viewer.players
    ):
        messages.append(
            YourTurnMessage(
                recorded.position,
                player_id=event.player_id,
                turn=event.turn,
                deadline=deadline_of(state, event.player_id),
            )
        )
    return messages


def deadline_of(state: GameState, seat: str) -> datetime | None:
    """When the seat's time runs out, as the game stands (live, right after the notice; on
    a catch-up, now): None unless the game waits for it on a clock."""
    if seat not in state.definition.to_move(state.play).seats:
        return None
    return state.next_resolution_at()


class GameFeed:
    def __init__(self, games: GameService, store: EventStore, game_id: str) -> None:
        self._games = games
        self._store = store
        self.game_id = game_id
        # The clients, by how they see the game: each group is sent the same bytes.
        self._alike: dict[Viewer, set[Client]] = {}
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
        for client in self.clients():
            client.leave()

    def add(self, client: Client) -> None:
        self._alike.setdefault(client.viewer, set()).add(client)

    def discard(self, client: Client) -> None:
        alike = self._alike.get(client.viewer)
        if alike is not None:
            alike.discard(client)
            if not alike:
                del self._alike[client.viewer]

    def clients(self) -> list[Client]:
        return [client for alike in self._alike.values() for client in alike]

    @property
    def followed(self) -> bool:
        """Whether any client follows the feed."""
        return bool(self._alike)

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
            for client in self.clients():
                client.drop()

    async def _dispatch(self, batch: list[RecordedEvent]) -> None:
        """Fold the events and send each client its share, written once per batch. A
        rewind reloads the state (an await, during which clients may join): what came
        before it is sent first, so that each share is made for the clients there."""
        shares: dict[Viewer, Batch] = {}
        for recorded in batch:
            event = game_codec.decode_recorded(recorded)
            if isinstance(event, TurnRewound):
                self._send(shares)
                shares = {}
                # Folds cannot run backwards. Reload up to this event only: the batch may hold
                # later events, which are folded in below as they come.
                self.state = await state_until(self._store, self.game_id, recorded.version)
            else:
                self.state = fold(self.state, [(recorded.version, event)])
            self.position = recorded.position
            # Clients who see the game alike get the very same bytes, encoded once.
            for viewer in self._alike:
                share = shares.setdefault(viewer, Batch())
                for message in messages_for(viewer, recorded, event, self.state):
                    share.add(recorded.position, _encode(message))
        table = standings(self.state)
        if table != self._standings:
            self._standings = table
            data = _encode(self.current_standings())
            for share in shares.values():
                share.add(self.position, data)
        self._send(shares)

    def _send(self, shares: dict[Viewer, Batch]) -> None:
        for viewer, alike in list(self._alike.items()):
            share = shares.get(viewer)
            if share is not None and share.positions:
                for client in list(alike):
                    client.offer(share)


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
        position, so the live messages start exactly where the catch-up ends."""
        feed = await self._feed(game_id)
        feed.add(client)
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
        return 0 if feed is None else len(feed.clients())

    async def release(self, feed: GameFeed, client: Client) -> None:
        feed.discard(client)
        if feed.followed:
            return
        async with self._lock:
            if not feed.followed and self._feeds.get(feed.game_id) is feed:
                del self._feeds[feed.game_id]
                await feed.stop()

    async def close(self) -> None:
        async with self._lock:
            feeds, self._feeds = list(self._feeds.values()), {}
        for feed in feeds:
            await feed.stop()
