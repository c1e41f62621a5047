"""Catching up on a long game: a client far behind starts from a `snapshot` of the game, then
follows live exactly once and in order; a client a little behind gets every event it missed;
hundreds starting from scratch do not hold the game up."""

import asyncio
from typing import Any

import msgspec

from projections.loading import stream_of
from schema.api import Done
from schema.commands import Actor, Broadcast
from schema.views import PublicGame
from server.http.routes.live import SNAPSHOT_BEYOND
from tests.api.game import ScriptedGame
from tests.api.raw_sockets import enough_files, open_raw
from tests.api.support import Json, Live, Server, delivered, serving, until

SPECTATORS = 600


async def long_game(server: Server, broadcasts: int = SNAPSHOT_BEYOND + 100) -> ScriptedGame:
    """A started game with a resolved turn and then many broadcasts, appended through the
    server's own GameService (quicker than as many HTTP calls)."""
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    await game.submit(1)
    await game.resolve()
    games = server.app.state.services.games
    for index in range(broadcasts):
        who = game.accounts[index % len(game.accounts)]
        now = server.clock.now()
        await games.execute(
            game.game_id, Broadcast(actor=Actor(who.account_id), now=now, message=f"number {index}")
        )
    return game


async def say(game: ScriptedGame, message: str) -> Done:
    return await game.api.as_(game.admin).broadcast(game.game_id, message)


def _caught_up(messages: list[Json]) -> bool:
    return any(m["type"] == "standings" for m in messages)


def without_clock(view: PublicGame) -> Json:
    """The view as JSON, as the socket sends it, but for the clock (`now` and its kind)."""
    shown: Json = msgspec.json.decode(msgspec.json.encode(view))
    return {key: value for key, value in shown.items() if key not in ("now", "clock")}


async def test_a_client_far_behind_starts_from_a_snapshot_then_follows_exactly_once(
    server: Server,
) -> None:
    game = await long_game(server)
    view = await game.state()
    tokens: list[dict[str, Any]] = [{}, {"token": game.accounts[1].token}]
    for options in tokens:
        async with Live.open(server.base, game.game_id, **options) as live:
            await live.wait_for(_caught_up)
            said = await say(game, "after the snapshot")
            await live.wait_for_position(said.position)
        snapshot, standings, *rest = live.messages
        assert snapshot["type"] == "snapshot"
        assert snapshot["position"] == view.position
        assert snapshot["game"] == {**without_clock(view), "now": None, "clock": None}
        assert (standings["type"], standings["position"]) == ("standings", view.position)
        assert [m["event"]["data"]["message"] for m in rest] == ["after the snapshot"]
        view = await game.state()

    # From the snapshot's position on, a reconnecting client misses nothing.
    last_seen = live.messages[0]["position"]
    async with Live.open(server.base, game.game_id, after=last_seen) as again:
        await again.wait_for_position(view.position)
    assert delivered(again.messages) == delivered(live.messages[2:])


async def test_a_client_a_little_behind_gets_exactly_the_events_it_missed(server: Server) -> None:
    game = await long_game(server)
    store = server.app.state.services.store
    recorded = await store.read_stream_after_position(stream_of(game.game_id), 0)
    feed = await game.api.events(game.game_id)
    # From here on, exactly SNAPSHOT_BEYOND events are left: one more and it would be a
    # snapshot.
    near = recorded[-SNAPSHOT_BEYOND - 1].position
    far = recorded[-SNAPSHOT_BEYOND - 2].position
    async with (
        Live.open(server.base, game.game_id, after=near) as behind,
        Live.open(server.base, game.game_id, after=far) as further,
    ):
        for live in (behind, further):
            await live.wait_for(_caught_up)
    missed = [(e.position, e.type) for e in feed if e.position > near]
    assert [(e["position"], e["type"]) for e in behind.events] == missed
    assert behind.messages[-1] == {
        "type": "standings",
        "position": recorded[-1].position,
        "standings": behind.messages[-1]["standings"],
    }
    assert [m["type"] for m in further.messages] == ["snapshot", "standings"]


async def test_hundreds_of_spectators_from_scratch_do_not_hold_up_the_game(
    schema_url: str,
) -> None:
    enough_files(2 * SPECTATORS + 200)
    async with serving(schema_url, sockets_per_address=SPECTATORS) as server:
        game = await long_game(server)
        view = await game.state()
        sockets = server.app.state.services.live.sockets
        opening = asyncio.create_task(open_raw(server.base, game.game_id, SPECTATORS))
        try:
            # The game answers while they arrive and catch up.
            await until(lambda: sockets.total > 0, what="the spectators to arrive")
            assert (await game.state()).position == view.position
            watching = await opening
            said = await say(game, "to everyone")
            await until(
                lambda: all(s.reached(said.position) for s in watching),
                what="every spectator to receive the broadcast",
            )
        finally:
            for raw in await opening:
                raw.close()
    for raw in watching:
        assert [m["type"] for m in raw.messages] == ["snapshot", "standings", "event"]
        assert raw.messages[0] == watching[0].messages[0]
    assert watching[0].messages[0]["position"] == view.position
