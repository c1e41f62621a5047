"""The live websocket: exactly-once ordered delivery across reconnects, private channels,
and dropping a client that cannot keep up without slowing the others."""

import asyncio
import contextlib
import random
import socket
import string
from collections.abc import Callable
from typing import Any

import pytest

from schema.api import Done
from server.http.routes import live as live_route
from server.live import auth as live_auth
from server.live import hub as live_feeds
from tests.api.game import ScriptedGame
from tests.api.support import Json, Live, Server, delivered, serving, until


def _at_least(count: int) -> Callable[[list[Json]], bool]:
    return lambda messages: len(messages) >= count


def _broadcaster(game: ScriptedGame) -> Any:
    async def broadcast(index: int, message: str) -> Done:
        who = game.accounts[index % len(game.accounts)]
        return await game.api.as_(who).broadcast(game.game_id, message)

    return broadcast


async def test_a_spectator_that_keeps_reconnecting_receives_exactly_what_a_steady_one_does(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pings often, so that the reconnecting client also resumes from a ping's position.
    monkeypatch.setattr(live_route, "PING_SECONDS", 0.05)
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    broadcast = _broadcaster(game)
    rng = random.Random(5)
    segments: list[list[Json]] = []

    async def reconnecting() -> None:
        """Connect from the position of the last message received, read a few messages or
        for a moment, hang up; again and again."""
        after = 0
        while True:
            async with Live.open(server.base, game.game_id, after=after) as live:
                segments.append(live.messages)
                wanted = rng.randint(1, 6)
                with contextlib.suppress(TimeoutError):
                    # A spectator's catch-up starts once it has not sent a token in time.
                    wait = live_auth.TOKEN_WAIT_SECONDS + rng.uniform(0.0, 0.3)
                    async with asyncio.timeout(wait):
                        await live.wait_for(_at_least(wanted))
            if live.messages:
                after = live.messages[-1]["position"]

    async with Live.open(server.base, game.game_id) as steady:
        follower = asyncio.create_task(reconnecting())
        try:
            await _traffic(game, broadcast, segments, steady)
        finally:
            follower.cancel()
            await asyncio.gather(follower, return_exceptions=True)

    assert len(segments) > 5
    stitched = [m for segment in segments for m in segment]
    assert delivered(stitched) == delivered(steady.messages)
    kinds = {kind for kind, _, _ in delivered(steady.messages)}
    assert kinds == {"event", "resolved", "rewound"}
    assert any(m["type"] == "ping" for m in stitched)


async def _traffic(
    game: ScriptedGame, broadcast: Any, segments: list[list[Json]], steady: Live
) -> None:
    """Broadcasts, orders (hidden from spectators), two resolutions and a rewind, while the
    follower comes and goes; then quiet, with pings."""

    def reconnected(times: int) -> Callable[[], bool]:
        return lambda: len(segments) >= times

    for turn in (1, 2):
        for index in range(12):
            await broadcast(index, f"turn {turn}, message {index}")
            if index % 4 == 0:
                await game.submit(turn)
                # Let the follower come and go while the traffic flows.
                await until(reconnected(len(segments) + 1), what="the follower to reconnect")
        await game.resolve()
    # Once the follower has seen turn 2 resolve, undo it: what the rewind archives was
    # delivered to both before it.
    await until(
        lambda: any(m["type"] == "resolved" and m["turn"] == 2 for s in segments for m in s),
        what="the follower to see turn 2 resolve",
    )
    await game.rewind()
    for index in range(8):
        await broadcast(index, f"after the rewind, message {index}")
    last = await broadcast(0, "the end")
    await steady.wait_for_position(last.position)
    await until(
        lambda: any(m["position"] >= last.position for s in segments for m in s),
        what="the follower to catch up",
    )
    # Quiet now: the follower receives pings, and reconnects from their position.
    await until(
        lambda: any(s and s[-1]["type"] == "ping" for s in segments[:-1]),
        what="the follower to reconnect after a ping",
    )
    really_last = await broadcast(1, "after the pings")
    await steady.wait_for_position(really_last.position)
    await until(
        lambda: any(m["position"] >= really_last.position for s in segments for m in s),
        what="the follower to receive the last message",
    )


async def test_a_client_resumes_from_a_pings_position_without_duplicates(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_route, "PING_SECONDS", 0.05)
    game = ScriptedGame(server)
    await game.create()
    broadcast = _broadcaster(game)
    await game.join_and_start()
    async with Live.open(server.base, game.game_id) as first:
        await first.wait_for(lambda ms: bool(ms) and ms[-1]["type"] == "standings")
        for index in range(3):
            await broadcast(index, f"live message {index}")
        seen = await first.wait_for(
            lambda ms: (
                len([m for m in ms if m["type"] == "event"]) == 9 and ms[-1]["type"] == "ping"
            )
        )
        ping = seen[-1]
    assert ping["position"] == seen[-2]["position"]
    async with Live.open(server.base, game.game_id, after=ping["position"]) as second:
        await second.wait_for(lambda ms: bool(ms) and ms[-1]["type"] == "standings")
        last = await broadcast(0, "one more")
        await second.wait_for_position(last.position)
    assert [e["data"]["message"] for e in second.events] == ["one more"]


async def test_a_player_socket_carries_its_own_private_events_and_nobody_elses(
    server: Server,
) -> None:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    ann, bob, cy, di = game.accounts
    base, game_id = server.base, game.game_id
    async with (
        Live.open(base, game_id, token=bob.token) as bobs,
        Live.open(base, game_id, first_message=cy.token) as cys,
        Live.open(base, game_id, token=ann.token) as admins,
        Live.open(base, game_id) as spectators,
    ):
        sockets = (bobs, cys, admins, spectators)
        for live in sockets:
            await live.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))
        for who, text in ((ann, "EA B"), (bob, "BE H"), (cy, "BA H"), (di, "GI to PR")):
            await game.api.orders(game_id, who, text)
        done = await game.resolve()
        # The same order again, after the resolution: the last thing any socket may see.
        last = await game.api.orders(game_id, bob, "BE H")
        for live in sockets:
            await live.wait_for(lambda ms: any(m["type"] == "resolved" for m in ms))
        await bobs.wait_for_position(last.position)

    def private(live: Live) -> list[tuple[str, str]]:
        return [
            (e["type"], e["data"]["player_id"])
            for e in live.events
            if e["type"] in ("orders_submitted.v1", "player_notified.v1")
        ]

    assert private(bobs) == [
        ("orders_submitted.v1", "p2"),
        ("player_notified.v1", "p2"),
        ("orders_submitted.v1", "p2"),
    ]
    assert private(cys) == [("orders_submitted.v1", "p3"), ("player_notified.v1", "p3")]
    assert private(spectators) == []
    # Ann is the admin as well as p1: she sees what any player sees (rules.md).
    assert private(admins) == [("orders_submitted.v1", "p1"), ("player_notified.v1", "p1")]
    own = next(e for e in bobs.events if e["type"] == "orders_submitted.v1")
    assert own["data"]["text"] == "BE H"
    assert own["actor"] is None
    # Everyone's orders became public with the resolution.
    resolved = next(m for m in spectators.messages if m["type"] == "resolved")
    assert resolved["position"] <= done.position
    assert {o["text"] for o in resolved["resolution"]["orders"]} == {
        "EA B",
        "BE H",
        "BA H",
        "GI to PR",
    }


async def test_a_socket_that_catches_up_after_a_resolution_receives_what_a_follower_did(
    server: Server,
) -> None:
    # The event feed reveals a resolved turn's submissions; a socket sends each event as it
    # was when it happened, so catching up later must not reveal them either.
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    di = game.accounts[3]
    async with (
        Live.open(server.base, game.game_id) as spectator,
        Live.open(server.base, game.game_id, token=di.token) as dis,
    ):
        for live in (spectator, dis):
            await live.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))
        await game.submit(1)
        done = await game.resolve()
        for live in (spectator, dis):
            await live.wait_for_position(done.position)
    async with (
        Live.open(server.base, game.game_id) as late_spectator,
        Live.open(server.base, game.game_id, token=di.token) as late_dis,
    ):
        for live in (late_spectator, late_dis):
            await live.wait_for_position(done.position)
    assert delivered(late_spectator.messages) == delivered(spectator.messages)
    assert delivered(late_dis.messages) == delivered(dis.messages)
    submitted = [e for e in late_dis.events if e["type"] == "orders_submitted.v1"]
    assert [e["data"]["player_id"] for e in submitted] == ["p4"]


async def test_a_client_that_never_reads_is_dropped_without_slowing_the_others(
    schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_feeds, "QUEUE_LIMIT", 20)
    # Small kernel buffers on both sides, so that a client that stops reading soon blocks
    # the server's writes to it (loopback buffers would otherwise hold megabytes).
    async with serving(schema_url, send_buffer=8192) as running:
        game = ScriptedGame(running)
        await game.create()
        await game.join_and_start()
        hub = running.app.state.services.live
        host, port = running.base.removeprefix("http://").split(":")
        stalled = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect((host, int(port)))
        stalled.setblocking(False)
        broadcast = _broadcaster(game)
        rng = random.Random(3)
        async with (
            Live.open(
                running.base,
                game.game_id,
                read=False,
                sock=stalled,
                max_queue=1,
                compression=None,
                ping_interval=None,
            ) as slow,
            Live.open(running.base, game.game_id) as fast,
        ):
            await until(lambda: hub.clients(game.game_id) == 2, what="both clients to join")
            sent: list[Done] = []
            # Incompressible messages, until the slow client is dropped.
            while hub.clients(game.game_id) == 2:
                assert len(sent) < 2000, "the slow client was never dropped"
                text = "".join(rng.choices(string.ascii_letters, k=1000))
                sent.append(await broadcast(len(sent), text))
            # The fast client has everything, and goes on receiving while the slow one's
            # socket is still full.
            await fast.wait_for_position(sent[-1].position)
            after_drop = await broadcast(0, "after the drop")
            await fast.wait_for_position(after_drop.position)

            # The slow client, reading at last, finds what was written before the drop, in
            # order, then the close.
            slow.start_reading()
            assert await slow.wait_closed() == 1013
            received = slow.messages
            assert received[-1]["type"] == "error"
            assert len(delivered(received)) < len(delivered(fast.messages))
            assert delivered(received) == delivered(fast.messages)[: len(delivered(received))]
            resume = received[-1]["position"]
            assert resume == received[-2]["position"]
            async with Live.open(running.base, game.game_id, after=resume) as again:
                await again.wait_for_position(after_drop.position)
            assert delivered(received) + delivered(again.messages) == delivered(fast.messages)


@pytest.mark.parametrize("after", [-5, 2**70])
async def test_an_after_out_of_range_is_clamped(server: Server, after: int) -> None:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    async with Live.open(server.base, game.game_id, after=after) as live:
        first = await live.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))
        said = await _broadcaster(game)(0, "still here")
        await live.wait_for_position(said.position)
    replayed = [m for m in first if m["type"] == "event"]
    # From the start, or from beyond the end: then only what comes next.
    assert bool(replayed) == (after < 0)
    assert live.events[-1]["data"]["message"] == "still here"
