"""Trusted clients, managed by the operator through the API and the Python client: listed,
rotated (a new token for the same client: its users keep their accounts and seats) and
revoked; the sockets opened with a token that ends close (docs/api.md, "Trusted clients")."""

import contextlib
from datetime import timedelta

import pytest

from client import ActingUser, Conflict, Forbidden, SkirmishClient
from schema.accounts import ClientInfo
from schema.api import NewGame
from tests.api.support import OPERATOR_TOKEN, START, Json, Live, Server

# The bound docs/api.md promises between a token's end and its sockets' close.
WITHIN = 1.0
UMA = ActingUser("u-1", "Uma")
UMA_HEADERS = {"X-Acting-User": "u-1", "X-Acting-User-Name": "Uma"}


def _caught_up(messages: list[Json]) -> bool:
    return any(m["type"] == "standings" for m in messages)


def _as_uma(server: Server, token: str) -> SkirmishClient:
    return server.api.anyone.using(token, UMA)


async def test_a_rotated_client_keeps_its_users_and_a_revoked_one_stops(server: Server) -> None:
    api = server.api
    operator = api.as_(OPERATOR_TOKEN)
    bot = await operator.create_client("bot")
    herald = await operator.create_client("herald")
    ann = await api.account("Ann")
    game = (await api.new_game(ann)).id
    await api.join(game, ann)
    uma = await _as_uma(server, bot.token).join(game)
    uma_account = (await _as_uma(server, bot.token).me()).account_id
    # A game set up through the client, whose admins include every user it vouches for.
    through = await _as_uma(server, bot.token).create_game(NewGame(name="Bot game"))
    # A user of another client, whose token and sockets are none of this.
    herald_user = server.api.anyone.using(herald.token, ActingUser("u-1", "Una"))
    await herald_user.join(game)

    async with contextlib.AsyncExitStack() as stack:

        async def socket(token: str) -> Live:
            headers = {"Authorization": f"Bearer {token}", "X-Acting-User": "u-1"}
            live = await stack.enter_async_context(Live.open(server.base, game, headers=headers))
            await live.wait_for(_caught_up)
            return live

        first_socket = await socket(bot.token)
        herald_socket = await socket(herald.token)

        server.clock.advance(60)
        rotated = await operator.rotate_client(bot.client_id)
        assert rotated.client_id == bot.client_id
        assert rotated.token != bot.token
        assert await first_socket.wait_closed(seconds=WITHIN) == 4401
        error = await api.call("GET", "/v1/me", bot.token, expect=401, headers=UMA_HEADERS)
        assert error["error"]["code"] == "bad_token"
        # Uma is who she was through the new token, her seat hers.
        me = await _as_uma(server, rotated.token).me()
        assert me.account_id == uma_account
        assert me.client is not None
        assert me.client.client_id == bot.client_id
        with pytest.raises(Conflict) as again:
            await _as_uma(server, rotated.token).join(game)
        assert again.value.code == "already_joined"
        assert uma.player in {p.id for p in (await api.game(game)).players}
        # Its games are still its own: a moderator it vouches for administers them, where
        # another client's (as a client made to replace it would be) may not.
        outsider = server.api.anyone.using(herald.token, ActingUser("mod-1", "Mo", admin=True))
        with pytest.raises(Forbidden):
            await outsider.kill(through.id)
        moderator = server.api.anyone.using(rotated.token, ActingUser("mod-1", "Mo", admin=True))
        await moderator.kill(through.id)

        listed = (await operator.clients()).clients
        assert listed == [
            # Uma and the moderator.
            ClientInfo(bot.client_id, "bot", START, START + timedelta(seconds=60), None, 2),
            ClientInfo(herald.client_id, "herald", START, None, None, 2),
        ]

        second_socket = await socket(rotated.token)
        server.clock.advance(60)
        await operator.revoke_client(bot.client_id)
        assert await second_socket.wait_closed(seconds=WITHIN) == 4401
        error = await api.call("GET", "/v1/me", rotated.token, expect=401, headers=UMA_HEADERS)
        assert error["error"]["code"] == "bad_token"
        revoked_at = START + timedelta(seconds=120)
        assert (await operator.clients()).clients[0].revoked_at == revoked_at
        # Revoking again changes nothing; a rotation brings the client and its users back.
        await operator.revoke_client(bot.client_id)
        assert (await operator.clients()).clients[0].revoked_at == revoked_at
        back = await operator.rotate_client(bot.client_id)
        assert (await _as_uma(server, back.token).me()).account_id == uma_account
        assert (await operator.clients()).clients[0].revoked_at is None

        # The other client's socket and token were never touched.
        assert herald_socket.close_code is None
        assert (await herald_user.me()).client is not None

    for method, path in (
        ("POST", "/v1/clients/client_nobody/rotate"),
        ("DELETE", "/v1/clients/client_nobody"),
    ):
        error = await api.call(method, path, OPERATOR_TOKEN, expect=404)
        assert error["error"]["code"] == "client_not_found"


async def test_only_the_operator_manages_trusted_clients(server: Server) -> None:
    api = server.api
    bot = await api.as_(OPERATOR_TOKEN).create_client("bot")
    ann = await api.account("Ann")
    calls = (
        ("GET", "/v1/clients", None),
        ("POST", "/v1/clients", {"name": "mine"}),
        ("POST", f"/v1/clients/{bot.client_id}/rotate", None),
        ("DELETE", f"/v1/clients/{bot.client_id}", None),
    )
    for method, path, body in calls:
        error = await api.call(method, path, None, body, expect=401)
        assert error["error"]["code"] == "token_required"
        error = await api.call(method, path, ann, body, expect=403)
        assert error["error"]["code"] == "operator_only"
        error = await api.call(method, path, bot.token, body, expect=403, headers=UMA_HEADERS)
        assert error["error"]["code"] == "operator_only"
    # Nothing changed: the one client, its token working.
    assert [c.client_id for c in (await api.as_(OPERATOR_TOKEN).clients()).clients] == [
        bot.client_id
    ]
    assert (await _as_uma(server, bot.token).me()).client is not None
