"""A socket ends when its token does: revoked through any server process, every socket opened
with the token closes within a second with 4401, in whichever process it is open, and
nothing more reaches it (docs/api.md, "Live")."""

import asyncio
import contextlib

import asyncpg

from tests.api.game import ScriptedGame
from tests.api.support import Json, Live, Server, serve_process, serving

# The bound docs/api.md promises between a revocation's answer and its sockets' close.
WITHIN = 1.0
REVOKED_REASON = "the token this socket was opened with was revoked"


def _caught_up(messages: list[Json]) -> bool:
    return any(m["type"] == "standings" for m in messages)


async def test_a_revoked_tokens_socket_on_another_process_closes_and_receives_nothing_more(
    schema_url: str,
) -> None:
    async with contextlib.AsyncExitStack() as stack:
        one = await stack.enter_async_context(serving(schema_url))
        two = await stack.enter_async_context(serve_process(schema_url))
        game = ScriptedGame(one)
        await game.create()
        await game.join_and_start()
        ann = game.accounts[0]
        phone = await one.api.call("POST", "/v1/me/tokens", ann, {"name": "phone"}, expect=201)
        # Both Ann's: one with the phone's token, one with her first; both on process two.
        revoked = await stack.enter_async_context(
            Live.open(two, game.game_id, token=phone["token"])
        )
        kept = await stack.enter_async_context(Live.open(two, game.game_id, headers=ann.auth))
        for live in (revoked, kept):
            await live.wait_for(_caught_up)

        await one.api.call("DELETE", f"/v1/me/tokens/{phone['id']}", ann, expect=204)
        closed = asyncio.create_task(revoked.wait_closed(seconds=WITHIN))
        # Ann's own orders right after, with her nonce: private to her sockets.
        accepted = await one.api.orders(game.game_id, ann, "EA B")
        assert await closed == 4401
        last = revoked.messages[-1]
        assert (last["type"], last["message"]) == ("error", REVOKED_REASON)
        assert not [e for e in revoked.events if e["type"] == "orders_submitted.v1"]

        # The socket of her other token goes on, and was sent the orders.
        await kept.wait_for_position(accepted.position)
        assert [e["position"] for e in kept.events if e["type"] == "orders_submitted.v1"] == [
            accepted.position
        ]
        assert kept.close_code is None
        # The revoked token opens no new socket either.
        async with Live.open(two, game.game_id, token=phone["token"]) as again:
            assert await again.wait_closed() == 4401


async def test_a_revocation_missed_while_not_listening_closes_the_socket_once_listening(
    server: Server, schema_url: str
) -> None:
    api = server.api
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    ann = game.accounts[0]
    phone = await api.call("POST", "/v1/me/tokens", ann, {"name": "phone"}, expect=201)
    async with (
        Live.open(server.base, game.game_id, token=phone["token"]) as revoked,
        Live.open(server.base, game.game_id, headers=ann.auth) as kept,
    ):
        for live in (revoked, kept):
            await live.wait_for(_caught_up)
        connection = await asyncpg.connect(schema_url)
        try:
            # Revoked with no word to the server, as when the word came while the
            # connection it listens on was down...
            await connection.execute("DELETE FROM account_tokens WHERE token_id = $1", phone["id"])
            assert revoked.close_code is None
            # ...and that connection lost: once it is back, every socket's token is checked.
            terminated = await connection.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE query LIKE 'LISTEN %' AND query LIKE '%revoked:' || current_schema() || '%'"
            )
            assert len(terminated) == 1
        finally:
            await connection.close()
        assert await revoked.wait_closed() == 4401
        assert revoked.messages[-1]["message"] == REVOKED_REASON
        accepted = await api.orders(game.game_id, ann, "EA B")
        await kept.wait_for_position(accepted.position)
        assert kept.close_code is None
