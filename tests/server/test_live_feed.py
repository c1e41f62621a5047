"""The live feed's own state, which it folds as it dispatches, and what it writes to its
clients' sockets (server.live.hub.GameFeed)."""

import msgspec

from eventstore.memory import MemoryEventStore
from projections.loading import stream_of
from projections.views import public_game
from projections.visibility import Viewer
from server.game.handlers import GameService
from server.live.frames import SocketWriter
from server.live.hub import Client, GameFeed
from tests.server.scripted import ScriptedGame


class _Socket(SocketWriter):
    """A socket's writer that keeps what is written to it, each write as it came."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, frames: bytes) -> bool:
        self.writes.append(frames)
        return True


async def _caught_up(games: GameService, store: MemoryEventStore) -> GameFeed:
    """Game g1's feed, at the game's state and position as they are now."""
    feed = GameFeed(games, store, "g1")
    loaded = await games.load("g1")
    feed.state, feed.position = loaded.state, loaded.position
    return feed


def _following(feed: GameFeed, viewer: Viewer) -> tuple[Client, _Socket]:
    """A client caught up to the feed's position, as the socket's handler leaves it."""
    socket = _Socket()
    client = Client(viewer, socket)
    client.sent_up_to = client.delivered = feed.position
    client.following = True
    feed.add(client)
    return client, socket


async def test_a_dispatch_is_framed_once_per_viewer_and_written_once_per_socket() -> None:
    async with MemoryEventStore(poll_interval=0.2) as store:
        games = GameService(store)
        game = ScriptedGame(games)
        await game.set_up()
        feed = await _caught_up(games, store)
        player = next(iter(feed.state.players))
        spectators = [_following(feed, Viewer.spectator()) for _ in range(3)]
        own_client, own = _following(feed, Viewer(players=frozenset({player})))

        await game.play_turn()
        batch = await store.read_stream_after_position(stream_of("g1"), feed.position)
        await feed._dispatch(batch)

        # One write each, of the very same bytes for every spectator.
        first = spectators[0][1].writes
        assert len(first) == 1
        assert all(socket.writes == first for _, socket in spectators)
        assert all(socket.writes[0] is first[0] for _, socket in spectators)
        assert all(c.delivered == feed.position for c, _ in [*spectators, (own_client, own)])
        # The player's frames carry their own orders; the spectators' nobody's.
        [mine] = own.writes
        assert mine != first[0]
        assert mine.count(b'"event":{"type":"orders_submitted.v1"') == 1
        assert f'"type":"orders_submitted.v1","player_id":"{player}"'.encode() in mine
        assert b"orders_submitted" not in first[0]
        assert b'"type":"resolved"' in first[0]


async def test_a_socket_that_cannot_take_more_now_gets_the_rest_through_its_backlog() -> None:
    async with MemoryEventStore(poll_interval=0.2) as store:
        games = GameService(store)
        game = ScriptedGame(games)
        await game.set_up()
        feed = await _caught_up(games, store)
        client, socket = _following(feed, Viewer.spectator())
        socket.write = lambda frames: False  # type: ignore[method-assign]
        start = feed.position

        await game.play_turn()
        batch = await store.read_stream_after_position(stream_of("g1"), feed.position)
        await feed._dispatch(batch)

        # Each message waits for the handler, in order; nothing counts as delivered yet.
        positions = [position for position, _ in client.backlog]
        assert positions == sorted(positions)
        assert positions[-1] == feed.position
        assert client.delivered == start
        assert client.wake.is_set()


async def test_a_batch_with_a_rewind_and_what_follows_it_is_folded_once() -> None:
    async with MemoryEventStore(poll_interval=0.2) as store:
        games = GameService(store)
        game = ScriptedGame(games)
        await game.set_up()
        await game.play_turn()
        feed = await _caught_up(games, store)

        # A rewind and the turn played again land in one batch of the feed.
        await game.rewind()
        await game.play_turn()
        batch = await store.read_stream_after_position(stream_of("g1"), feed.position)
        assert batch[0].type == "turn_rewound.v1"
        assert "turn_resolved.v1" in [e.type for e in batch]
        await feed._dispatch(batch)

        # Reloading at the rewind must not take in the events after it: folded again, the
        # resolution would count twice.
        now = (await games.load("g1")).state
        assert feed.state == now
        assert feed.position == batch[-1].position


async def test_the_snapshot_is_encoded_once_per_position_and_follows_the_game() -> None:
    async with MemoryEventStore(poll_interval=0.2) as store:
        games = GameService(store)
        game = ScriptedGame(games)
        await game.set_up()
        feed = await _caught_up(games, store)
        state, position = feed.state, feed.position

        first = feed.snapshot(feed.state, feed.position)
        assert feed.snapshot(feed.state, feed.position) is first
        message = msgspec.json.decode(first)
        assert message["type"] == "snapshot"
        assert message["position"] == position
        expected = public_game(state, position)
        assert message["game"] == msgspec.json.decode(msgspec.json.encode(expected))

        await game.play_turn()
        await feed._dispatch(await store.read_stream_after_position(stream_of("g1"), feed.position))
        later = msgspec.json.decode(feed.snapshot(feed.state, feed.position))
        assert later["position"] == feed.position > position
        assert later["game"]["turn"] == 2
