"""Limits on open websockets: per account, per address and in all, refused with 4429 and a
reason, without slowing the server or the sockets it accepted."""

import asyncio
from typing import Any

import pytest

from tests.api.game import ScriptedGame
from tests.api.raw_sockets import CONNECTING, enough_files, open_raw
from tests.api.support import OPERATOR_TOKEN, Json, Live, Server, serving, until

FLOOD = 3000


def _settled(messages: list[Json]) -> bool:
    """The socket was refused (an error) or has caught up (standings)."""
    return any(m["type"] in ("error", "standings") for m in messages)


@pytest.mark.parametrize(("who", "limit"), [("spectator", 200), ("player", 20)])
async def test_a_flood_of_sockets_from_one_client_stops_at_the_limit(
    server: Server, who: str, limit: int
) -> None:
    enough_files(2 * (limit + CONNECTING) + 200)
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    token = game.admin.token if who == "player" else None
    sockets = server.app.state.services.live.sockets
    flooding = asyncio.create_task(open_raw(server.base, game.game_id, FLOOD, token=token))
    try:
        # The server answers while the flood comes in, and while the sockets stay open.
        await until(lambda: sockets.total > 0, what="the flood to begin")
        assert (await server.api.game(game.game_id)).id == game.game_id
        opened = await flooding
        assert (await server.api.game(game.game_id)).id == game.game_id

        accepted = [s for s in opened if not s.refused]
        refused = [s for s in opened if s.refused]
        assert len(accepted) == limit
        assert len(refused) == FLOOD - limit
        for raw in refused:
            assert raw.close_code == 4429
            [error] = raw.messages
            assert error["type"] == "error"
            assert "too many open sockets" in error["message"]
            assert "too many open sockets" in raw.close_reason
        said = await game.api.call(
            "POST", f"/v1/games/{game.game_id}/broadcast", game.admin, {"message": "still here"}
        )
        await until(
            lambda: all(s.reached(said["position"]) for s in accepted),
            what="every accepted socket to receive the broadcast",
        )
        assert all(s.messages[-1]["event"]["data"]["message"] == "still here" for s in accepted)
    finally:
        for raw in await flooding:
            raw.close()
    # Every socket gave its place back: a new one is welcome.
    await until(lambda: sockets.total == 0, what="the closed sockets to be counted out")
    async with Live.open(server.base, game.game_id, token=token) as again:
        settled = await again.wait_for(_settled)
    assert settled[-1]["type"] == "standings"


async def test_an_account_or_address_at_its_limit_leaves_room_for_the_others(
    schema_url: str,
) -> None:
    async with serving(schema_url, sockets_per_account=3, sockets_per_address=6) as server:
        game = ScriptedGame(server)
        await game.create()
        await game.join_and_start()
        ann, bob = game.accounts[:2]
        sockets = server.app.state.services.live.sockets
        # uvicorn trusts X-Forwarded-For from loopback, as from a reverse proxy there.
        elsewhere = {"X-Forwarded-For": "203.0.113.7"}
        held = []

        async def outcome(**options: Any) -> int | None:
            """None for a socket that is open and caught up; else its close code, once the
            server has counted the refused socket out again."""
            before = sockets.total
            [raw] = await open_raw(server.base, game.game_id, 1, **options)
            held.append(raw)
            if not raw.refused:
                return None
            await until(lambda: sockets.total == before, what="the refused socket to leave")
            return raw.close_code

        try:
            assert [await outcome(token=ann.token) for _ in range(3)] == [None, None, None]
            assert await outcome(token=ann.token) == 4429
            # A token sent as the first message counts as well.
            async with Live.open(
                server.base, game.game_id, auth="message", first_message=ann.token
            ) as fourth:
                assert await fourth.wait_closed() == 4429
            assert "account" in fourth.messages[0]["message"]
            await until(lambda: sockets.total == 3, what="the refused socket to leave")
            # Bob and a spectator still get in, up to the address's six.
            assert await outcome(token=bob.token) is None
            assert await outcome() is None
            assert await outcome(token=bob.token) is None
            assert await outcome() == 4429
            # Another address has room, but not for Ann's account.
            assert await outcome(headers=elsewhere) is None
            assert await outcome(token=ann.token, headers=elsewhere) == 4429
            # The operator is not held to an account's limit, only to its address's.
            for _ in range(5):
                assert await outcome(token=OPERATOR_TOKEN, headers=elsewhere) is None
            assert await outcome(token=OPERATOR_TOKEN, headers=elsewhere) == 4429
        finally:
            for raw in held:
                raw.close()
