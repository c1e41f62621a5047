"""A plain player floods a game with submissions: past the quotas of rules.md they are
refused with 429 `turn_quota`, what was in stays, and the game, its resolution, its read
models and every other game go on."""

import httpx

from schema.views import PublicGame
from tests.api.support import OPERATOR_TOKEN, Json, Server, until

LONGEST_SUBMISSION = 4000


def _armies(game: PublicGame, player: str) -> list[str]:
    return sorted(t for t, owner in game.board.armies.items() if owner == player)


async def _listed(server: Server, game_id: str) -> bool:
    listed: Json = await server.api.call("GET", "/v1/games?limit=200")
    return any(g["id"] == game_id for g in listed["games"])


async def test_a_flood_of_submissions_is_refused_past_the_quota_and_the_game_goes_on(
    server: Server,
) -> None:
    api = server.api
    ann, bob, cy = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
    game = await api.new_game(ann)
    game_id = game.id
    for account in (ann, bob, cy):
        await api.join(game_id, account)
    await api.start(game_id, ann)
    started = await api.game(game_id)
    army = _armies(started, "p2")[0]
    # Bob: submissions as long as allowed, a hundred order lines each.
    heavy = ", ".join([f"{army} H"] * 100)
    assert len(heavy) <= LONGEST_SUBMISSION
    # Cy: the smallest submissions, as many as he can.
    light = f"{_armies(started, 'p3')[0]} H"

    async def flood(who_token: str, text: str, times: int) -> list[httpx.Response]:
        return [
            await api.client.put(
                f"/v1/games/{game_id}/orders",
                json={"orders": text},
                headers={"Authorization": f"Bearer {who_token}"},
            )
            for _ in range(times)
        ]

    heavy_answers = await flood(bob.token, heavy, 12)
    light_answers = await flood(cy.token, light, 105)
    assert [r.status_code for r in heavy_answers] == [200] * 10 + [429] * 2
    assert [r.status_code for r in light_answers] == [200] * 100 + [429] * 5
    refused = heavy_answers[-1]
    assert refused.json()["error"]["code"] == "turn_quota"
    assert "1000 order lines" in refused.json()["error"]["message"]
    assert int(refused.headers["retry-after"]) >= 1
    assert "100 submissions" in light_answers[-1].json()["error"]["message"]

    # What was in stays: Bob's army carries out his newest valid order.
    mine = await api.call("GET", f"/v1/games/{game_id}/orders", bob)
    assert len(mine["submitted"]) == 10
    assert [o["text"] for o in mine["current"]] == [f"{army} H"]

    server.clock.advance(60)
    done = await api.admin(game_id, OPERATOR_TOKEN, "resolve")
    resolved = await api.call("GET", f"/v1/games/{game_id}/events?after=0&limit=1000", ann)
    (resolution,) = [e for e in resolved["events"] if e["type"] == "turn_resolved.v1"]
    # Every order line of the turn is in it (a thousand and a hundred), and it stays small.
    assert len(resolution["data"]["orders"]) >= 1100
    assert len(httpx.Response(200, json=resolution).content) < 1_000_000

    async def turn_one_read() -> bool:
        answer = await api.client.get(f"/v1/games/{game_id}/turns/1")
        return answer.status_code == 200 and answer.json()["resolution"] is not None

    await until(turn_one_read, what="turn 1 in the read models")
    # The next turn takes orders again, and another game is listed as usual.
    server.clock.advance(120)
    await api.orders(game_id, bob, heavy)
    other = await api.new_game(cy)
    await until(lambda: _listed(server, other.id), what="the new game to be listed")
    assert done.position > 0
