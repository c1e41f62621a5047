"""Who a live socket serves: a player known by the Authorization header, `?token=` or a first
message, sent at once or awaited with `?auth=message`; a spectator otherwise, and never a
player's socket that silently serves a spectator because its token came late."""

import asyncio
import json
from typing import Any

import pytest

from server.live import auth as live_auth
from tests.api.game import ScriptedGame
from tests.api.support import Json, Live, Server


def _caught_up(messages: list[Json]) -> bool:
    return any(m["type"] == "standings" for m in messages)


async def _started(server: Server) -> ScriptedGame:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    return game


async def test_a_player_known_by_the_authorization_header_receives_their_private_events(
    server: Server,
) -> None:
    game = await _started(server)
    ann, bob, *_ = game.accounts
    async with (
        Live.open(server.base, game.game_id, headers=bob.auth) as bobs,
        Live.open(server.base, game.game_id) as spectators,
    ):
        for live in (bobs, spectators):
            await live.wait_for(_caught_up)
        await game.api.orders(game.game_id, ann, "EA B")
        await game.api.orders(game.game_id, bob, "BE H")
        # Seen by every socket: once it has come, so has everything before it.
        last = await game.api.as_(ann).broadcast(game.game_id, "last")
        for live in (bobs, spectators):
            await live.wait_for_position(last.position)
    submitted = [e for e in bobs.events if e["type"] == "orders_submitted.v1"]
    assert [(e["data"]["player_id"], e["data"]["text"]) for e in submitted] == [("p2", "BE H")]
    assert not [e for e in spectators.events if e["type"] == "orders_submitted.v1"]


async def test_a_token_sent_after_the_wait_closes_the_spectators_socket_with_a_reason(
    server: Server,
) -> None:
    game = await _started(server)
    async with Live.open(server.base, game.game_id) as live:
        # Caught up: the server waited for a token and went on as a spectator's socket.
        await live.wait_for(_caught_up)
        await live.connection.send(f'{{"token": "{game.admin.token}"}}')
        assert await live.wait_closed() == 4400
    error = live.messages[-1]
    assert error["type"] == "error"
    assert "Authorization header" in error["message"]
    # Where to reconnect from: every message before it was delivered.
    assert error["position"] == live.messages[-2]["position"]


async def test_a_token_announced_in_the_query_is_awaited_however_late_it_comes(
    server: Server,
) -> None:
    game = await _started(server)
    ann, bob, *_ = game.accounts
    async with Live.open(server.base, game.game_id, auth="message") as bobs:
        # A slow link: the token comes well after a spectator's socket would have begun.
        await asyncio.sleep(live_auth.TOKEN_WAIT_SECONDS * 3)
        assert not bobs.messages
        await bobs.connection.send(json.dumps({"token": bob.token}))
        await bobs.wait_for(_caught_up)
        await game.api.orders(game.game_id, ann, "EA B")
        await game.api.orders(game.game_id, bob, "BE H")
        last = await game.api.as_(ann).broadcast(game.game_id, "last")
        await bobs.wait_for_position(last.position)
    submitted = [e for e in bobs.events if e["type"] == "orders_submitted.v1"]
    assert [(e["data"]["player_id"], e["data"]["text"]) for e in submitted] == [("p2", "BE H")]
    assert not bobs.of_type("error")


async def test_a_token_announced_in_the_query_that_never_comes_closes_the_socket(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_auth, "TOKEN_MESSAGE_SECONDS", 0.5)
    game = await _started(server)
    async with Live.open(server.base, game.game_id, auth="message") as live:
        assert await live.wait_closed() == 4400
    assert [m["type"] for m in live.messages] == ["error"]
    assert "no token came within 0.5 s" in live.messages[0]["message"]


async def test_only_the_first_message_may_be_announced(server: Server) -> None:
    game = await _started(server)
    async with Live.open(server.base, game.game_id, auth="header") as live:
        assert await live.wait_closed() == 4422
    assert "auth" in live.messages[0]["message"]


@pytest.mark.parametrize("auth", ["message", "none"])
@pytest.mark.parametrize(
    "how",
    [{"token": "t"}, {"headers": {"Authorization": "Bearer t"}}],
    ids=["?token=", "Authorization"],
)
async def test_a_token_given_beside_an_auth_in_the_query_is_refused(
    server: Server, how: dict[str, Any], auth: str
) -> None:
    game = await _started(server)
    async with Live.open(server.base, game.game_id, auth=auth, **how) as live:
        assert await live.wait_closed() == 4401
    assert "send the token once" in live.messages[0]["message"]


async def test_a_spectator_that_will_send_no_token_is_served_without_waiting_for_one(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Far longer than the test waits for the catch-up.
    monkeypatch.setattr(live_auth, "TOKEN_WAIT_SECONDS", 3600.0)
    game = await _started(server)
    async with Live.open(server.base, game.game_id, auth="none") as live:
        await live.wait_for(_caught_up)
        await game.api.orders(game.game_id, game.accounts[0], "EA B")
        said = await game.api.as_(game.admin).broadcast(game.game_id, "seen")
        await live.wait_for_position(said.position)
    assert not [e for e in live.events if e["type"] == "orders_submitted.v1"]


async def test_anything_but_a_token_that_a_spectator_sends_later_is_ignored(
    server: Server,
) -> None:
    game = await _started(server)
    async with Live.open(server.base, game.game_id) as live:
        await live.wait_for(_caught_up)
        for noise in ('{"type": "ping"}', "hello", b"\x00"):
            await live.connection.send(noise)
        said = await game.api.as_(game.admin).broadcast(game.game_id, "still here")
        await live.wait_for_position(said.position)
        again = await game.api.as_(game.admin).broadcast(game.game_id, "and here")
        await live.wait_for_position(again.position)
        assert not live.of_type("error")


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ({"token": "not-a-token"}, 4401),
        ({"first_message": "not-a-token"}, 4401),
        ({"headers": {"Authorization": "Bearer not-a-token"}}, 4401),
        ({"headers": {"Authorization": "Basic YTpi"}}, 4401),
        ({"game": "no-such-game"}, 4404),
    ],
)
async def test_a_socket_with_a_wrong_token_or_game_is_closed_with_a_reason(
    server: Server, how: dict[str, Any], code: int
) -> None:
    game = ScriptedGame(server)
    await game.create()
    game_id = how.pop("game", game.game_id)
    async with Live.open(server.base, game_id, **how) as live:
        assert await live.wait_closed() == code
    assert [m["type"] for m in live.messages] == ["error"]
    assert live.messages[0]["message"]


async def test_a_token_in_the_header_and_the_query_is_refused(server: Server) -> None:
    game = await _started(server)
    admin = game.admin
    async with Live.open(server.base, game.game_id, token=admin.token, headers=admin.auth) as live:
        assert await live.wait_closed() == 4401
    assert "send the token once" in live.messages[0]["message"]


@pytest.mark.parametrize(
    ("first", "code"),
    # A binary frame holding a token is read as one: this one is not known.
    [("hello", 4400), (b"\xff", 4400), (b'{"token": "not-a-token"}', 4401)],
)
async def test_a_first_message_that_is_not_a_token_is_refused(
    server: Server, first: str | bytes, code: int
) -> None:
    game = ScriptedGame(server)
    await game.create()
    async with Live.open(server.base, game.game_id) as live:
        await live.connection.send(first)
        assert await live.wait_closed() == code
    assert [m["type"] for m in live.messages] == ["error"]
