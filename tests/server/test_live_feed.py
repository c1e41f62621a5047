"""The live feed's own state, which it folds as it dispatches (server.live.GameFeed)."""

import msgspec

from eventstore.memory import MemoryEventStore
from projections.loading import stream_of
from projections.views import public_game
from server.handlers import GameService
from server.live import GameFeed
from tests.server.scripted import ScriptedGame


async def test_a_batch_with_a_rewind_and_what_follows_it_is_folded_once() -> None:
    async with MemoryEventStore(poll_interval=0.2) as store:
        games = GameService(store)
        game = ScriptedGame(games)
        await game.set_up()
        await game.play_turn()
        feed = GameFeed(games, store, "g1")
        loaded = await games.load("g1")
        feed.state, feed.position = loaded.state, loaded.position

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
        feed = GameFeed(games, store, "g1")
        loaded = await games.load("g1")
        feed.state, feed.position = loaded.state, loaded.position

        first = feed.snapshot(feed.state, feed.position)
        assert feed.snapshot(feed.state, feed.position) is first
        message = msgspec.json.decode(first)
        assert message["type"] == "snapshot"
        assert message["position"] == loaded.position
        expected = public_game(loaded.state, loaded.position)
        assert message["game"] == msgspec.json.decode(msgspec.json.encode(expected))

        await game.play_turn()
        await feed._dispatch(await store.read_stream_after_position(stream_of("g1"), feed.position))
        later = msgspec.json.decode(feed.snapshot(feed.state, feed.position))
        assert later["position"] == feed.position > loaded.position
        assert later["game"]["turn"] == 2
