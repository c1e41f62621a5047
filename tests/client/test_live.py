"""client.live: the live messages decoded, and resumed on its own from where it stood when
the server closes the socket or restarts, with no event twice and none missing."""

import asyncio
import contextlib
from datetime import UTC, datetime

import pytest

from client import NotFound, SkirmishClient, Unauthorized, Unreachable
from client.live import Cursor, gap_messages
from schema.api import FEED_EVENTS, NewGame
from schema.live import (
    EventMessage,
    PingMessage,
    ResolvedMessage,
    RewoundMessage,
    ServerMessage,
    SnapshotMessage,
    StandingsMessage,
)
from server.http.routes import live as live_route
from server.live import auth as live_auth
from tests.api.support import OPERATOR_TOKEN, Server, collecting, serving, until
from tests.support import free_port

Delivered = tuple[str, int, str | None]


def delivered(messages: list[ServerMessage]) -> list[Delivered]:
    """What must arrive exactly once: events, resolutions and rewinds, in order."""
    return [
        (m.type, m.position, m.event.type if isinstance(m, EventMessage) else None)
        for m in messages
        if isinstance(m, EventMessage | ResolvedMessage | RewoundMessage)
    ]


async def expected(client: SkirmishClient, game: str) -> list[Delivered]:
    """The same, from the event feed as the client reads it."""
    return delivered([m async for e in client.all_events(game) for m in gap_messages(e)])


def reached(received: list[ServerMessage], position: int) -> bool:
    return any(m.position >= position for m in received)


async def _game(anyone: SkirmishClient) -> tuple[str, list[SkirmishClient]]:
    """A started game of three, and a client for each player."""
    players = [anyone.using((await anyone.create_account(n)).token) for n in ("A", "B", "C")]
    game = (await players[0].create_game(NewGame("Live", fast_mode=True))).id
    for player in players:
        await player.join(game)
    await players[0].start(game)
    return game, players


async def test_a_spectator_receives_the_games_messages_decoded(
    server: Server, anyone: SkirmishClient
) -> None:
    game, (admin, *_) = await _game(anyone)
    async with collecting(anyone.live(game)) as received:
        await until(lambda: any(m.type == "standings" for m in received), what="the catch-up")
        server.clock.advance(60)
        # Nobody has sent orders: the operator resolves at once, where an admin would wait.
        done = await anyone.using(OPERATOR_TOKEN).resolve(game)
        await until(lambda: any(m.type == "resolved" for m in received), what="the resolution")
        # The notices after the resolution are the players', not a spectator's: this is.
        said = await admin.broadcast(game, "resolved")
        await until(lambda: reached(received, said.position), what="the broadcast")
    resolved = next(m for m in received if isinstance(m, ResolvedMessage))
    assert (resolved.turn, resolved.resolution.turn) == (1, 1)
    assert resolved.position < done.position
    standings = next(m for m in received if isinstance(m, StandingsMessage))
    assert {p.id for p in standings.standings} == {"p1", "p2", "p3"}
    assert delivered(received) == await expected(anyone, game)


async def test_a_players_subscription_is_theirs_from_the_handshake_however_slow_the_link(
    server: Server, anyone: SkirmishClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A server that waits no time at all for a first message: a token sent as one would
    # always be late, and the socket a spectator's.
    monkeypatch.setattr(live_auth, "TOKEN_WAIT_SECONDS", 0.0)
    game, (admin, player, _) = await _game(anyone)
    async with collecting(player.live(game)) as received:
        await until(lambda: any(m.type == "standings" for m in received), what="the catch-up")
        mine = await player.submit_orders(game, "XX H")
        said = await admin.broadcast(game, "after the orders")
        await until(lambda: reached(received, said.position), what="the broadcast")
    events = [m.event for m in received if isinstance(m, EventMessage)]
    assert [e.position for e in events if e.type == "orders_submitted.v1"] == [mine.position]


async def test_a_spectators_subscription_is_served_without_waiting_for_a_token(
    server: Server, anyone: SkirmishClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Far longer than the test waits for the catch-up.
    monkeypatch.setattr(live_auth, "TOKEN_WAIT_SECONDS", 3600.0)
    game, _ = await _game(anyone)
    async with collecting(anyone.live(game)) as received:
        await until(lambda: any(m.type == "standings" for m in received), what="the catch-up")


async def test_it_resumes_when_the_server_closes_every_socket(
    server: Server, anyone: SkirmishClient
) -> None:
    game, players = await _game(anyone)
    hub = server.app.state.services.live
    async with collecting(players[1].live(game)) as received:
        for round_ in range(3):
            for index, player in enumerate(players):
                await player.broadcast(game, f"round {round_}, {index}")
            end = (await players[0].broadcast(game, f"end of round {round_}")).position
            await until(lambda: reached(received, end), what="the round")  # noqa: B023
            # Every live socket of this server closed at once, as at a redeploy.
            await hub.close()
        last = await players[2].broadcast(game, "the end")
        await until(lambda: reached(received, last.position), what="the last message")
    assert delivered(received) == await expected(players[1], game)
    assert sum(m.type == "standings" for m in received) >= 4


async def test_it_resumes_across_a_restart_and_reads_what_a_snapshot_stands_for(
    schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Few events make a client far behind, so that the resume comes as a snapshot.
    monkeypatch.setattr(live_route, "SNAPSHOT_BEYOND", 5)
    port = free_port()
    async with contextlib.AsyncExitStack() as stack:
        anyone = await stack.enter_async_context(SkirmishClient(f"http://127.0.0.1:{port}"))
        async with serving(schema_url, port=port):
            game, players = await _game(anyone)
            after = (await anyone.get_game(game)).position
            received = await stack.enter_async_context(
                collecting(players[1].live(game, after=after))
            )
            said = await players[0].broadcast(game, "before the restart")
            await until(lambda: reached(received, said.position), what="the first message")
        # Stopped. Meanwhile another server appends more than a snapshot stands for, the
        # subscriber's own orders among them.
        async with serving(schema_url) as other, SkirmishClient(other.base) as elsewhere:
            for index in range(10):
                await elsewhere.using(players[index % 3].token).broadcast(game, f"{index}")
            await elsewhere.using(players[1].token).submit_orders(game, "XX H")
        async with serving(schema_url, port=port):
            last = await players[2].broadcast(game, "after the restart")
            await until(lambda: reached(received, last.position), what="the resume")
            want = await expected(players[1], game)
    start = want.index(("event", said.position, "message_broadcast.v1"))
    assert delivered(received) == want[start:]
    assert "orders_submitted.v1" in {kind for _, _, kind in delivered(received)}
    snapshot = next(m for m in received if isinstance(m, SnapshotMessage))
    assert snapshot.game.id == game
    # The events the snapshot stands for came before it: ten broadcasts and the orders, at
    # least (the last broadcast too if it came before the reconnection).
    before = received[: received.index(snapshot)]
    gap = [m for m in before if m.type == "event" and m.position > said.position]
    assert len(gap) >= 11
    assert not [m for m in received[received.index(snapshot) :] if m.position < snapshot.position]


def _event(position: int, kind: str = "message_broadcast.v1") -> EventMessage:
    at = datetime(2030, 1, 1, tzinfo=UTC)
    event = FEED_EVENTS[kind](position=position, version=position, at=at, data={})
    return EventMessage(position=position, event=event)


def test_a_connection_lost_between_an_event_and_its_companion_resumes_before_them() -> None:
    cursor = Cursor(0)
    assert cursor.take(_event(3))
    assert cursor.take(_event(5, "turn_rewound.v1"))
    # The `rewound` of position 5 is owed: ask for position 5 again.
    assert cursor.resume_after == 4
    assert not cursor.take(_event(5, "turn_rewound.v1"))
    assert cursor.take(RewoundMessage(position=5, turn=1))
    assert cursor.resume_after == 5
    assert not cursor.take(RewoundMessage(position=5, turn=1))
    assert not cursor.take(_event(3))
    # Pings are not yielded; everything up to theirs has been sent.
    assert not cursor.take(PingMessage(position=9))
    assert cursor.resume_after == 9
    assert cursor.take(StandingsMessage(position=9, standings=[]))


@pytest.mark.parametrize(
    ("game", "token", "kind"),
    [("no-such-game", None, NotFound), (None, "not-a-token", Unauthorized)],
)
async def test_a_refusal_that_another_try_would_not_change_is_raised(
    server: Server,
    anyone: SkirmishClient,
    game: str | None,
    token: str | None,
    kind: type[Exception],
) -> None:
    if game is None:
        game, _ = await _game(anyone)
    async with anyone.using(token).live(game) as subscription:
        with pytest.raises(kind) as refused:
            await anext(subscription)
    assert refused.value.message  # type: ignore[attr-defined]


async def test_a_server_that_keeps_hanging_up_is_given_up_on_after_the_deadline() -> None:
    attempts = 0

    async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal attempts
        attempts += 1
        writer.close()

    listening = await asyncio.start_server(hang_up, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    async with (
        listening,
        SkirmishClient(f"http://127.0.0.1:{port}") as client,
        client.live("a-game", deadline=1.0) as subscription,
    ):
        with pytest.raises(Unreachable):
            await anext(subscription)
    # Waits that double from 0.1 s: a handful of attempts in a second, never a busy loop.
    assert 2 <= attempts <= 8
