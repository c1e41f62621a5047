"""Heavy reads over the real server (server/http/heavy.py): one caller's burst of map pictures
and verifications is refused 429 `too_many_heavy_reads` beyond its share, while another
caller's are answered; answers that cannot change are kept, and a rewind or a new turn
changes them. Callers come from distinct addresses through X-Forwarded-For, which uvicorn
takes from a proxy on 127.0.0.1."""

import asyncio

import httpx

from tests.api.game import ScriptedGame
from tests.api.support import Server

BURSTER = {"X-Forwarded-For": "10.0.0.1"}
OTHER = {"X-Forwarded-For": "10.0.0.2"}
BURST = 20


async def _played(server: Server) -> ScriptedGame:
    """A game with two turns resolved, which its turn history holds."""
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    for turn in (1, 2):
        await game.submit(turn)
        await game.resolve()
    # Waits for the history (docs/api.md), so that the pictures of past turns do not.
    await server.api.call("GET", f"/v1/games/{game.game_id}/turns/3")
    return game


def _heavy_paths(game_id: str) -> list[str]:
    """Verifications and pictures of every turn, alternately, BURST of them."""
    kinds = [
        f"/v1/games/{game_id}/verify",
        *(f"/v1/games/{game_id}/map.png?turn={n}" for n in (1, 2, 3)),
    ]
    return [kinds[n % len(kinds)] for n in range(BURST)]


def _refused_for_its_share(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "too_many_heavy_reads"
    assert int(response.headers["retry-after"]) >= 1


async def test_a_burst_is_refused_beyond_its_share_and_another_caller_is_answered(
    server: Server,
) -> None:
    game = await _played(server)
    client = server.api.client
    verify, picture = f"/v1/games/{game.game_id}/verify", f"/v1/games/{game.game_id}/map.png"
    heavy = server.app.state.services.heavy

    # While the burster's share is held (as its longest call would hold it), each of its
    # heavy calls is refused, and the other caller's are answered (nothing is kept yet).
    async with (
        heavy.admitted("verify", "address 10.0.0.1"),
        heavy.admitted("map", "address 10.0.0.1"),
    ):
        burst = [client.get(path, headers=BURSTER) for path in _heavy_paths(game.game_id)]
        others = [client.get(verify, headers=OTHER), client.get(f"{picture}?turn=2", headers=OTHER)]
        *bursts, verified, drawn = await asyncio.gather(*burst, *others)
        for response in bursts:
            _refused_for_its_share(response)
        assert (verified.status_code, drawn.status_code) == (200, 200)

    # A burst as it comes: whatever is not answered is refused for its share, never 503
    # `busy`, and the other caller is answered meanwhile.
    burst = [client.get(path, headers=BURSTER) for path in _heavy_paths(game.game_id)]
    others = [client.get(verify, headers=OTHER), client.get(picture, headers=OTHER)]
    *bursts, verified, drawn = await asyncio.gather(*burst, *others)
    assert (verified.status_code, drawn.status_code) == (200, 200), (verified.text, drawn.text)
    assert verified.json()["ok"] is True
    assert drawn.headers["content-type"] == "image/png"
    for response in bursts:
        if response.status_code != 200:
            _refused_for_its_share(response)


async def test_an_account_has_its_own_share_wherever_it_calls_from(server: Server) -> None:
    game = await _played(server)
    client = server.api.client
    verify = f"/v1/games/{game.game_id}/verify"
    ann, bob = game.player("Ann"), game.player("Bob")
    heavy = server.app.state.services.heavy

    async with heavy.admitted("verify", f"account {ann.account_id}"):
        # Ann is refused from any address; Bob, from hers, is answered: accounts count
        # apart from the address they call from.
        _refused_for_its_share(await client.get(verify, headers={**OTHER, **ann.auth}))
        answered = await client.get(verify, headers={**BURSTER, **bob.auth})
        assert answered.status_code == 200, answered.text
        # An anonymous caller from Ann's address is a caller of its own, too.
        assert (await client.get(verify, headers=OTHER)).status_code == 200


async def test_kept_answers_come_back_identical_and_a_rewind_or_a_new_turn_changes_them(
    server: Server,
) -> None:
    game = await _played(server)
    client = server.api.client
    verify, now = f"/v1/games/{game.game_id}/verify", f"/v1/games/{game.game_id}/map.png"
    first_verified, first_drawn = await client.get(verify), await client.get(now)
    heavy = server.app.state.services.heavy

    # A kept picture is answered even while its caller's share of drawing is held: it is
    # not drawn again.
    async with heavy.admitted("map", "address 127.0.0.1"):
        again = await client.get(now)
    assert again.status_code == 200
    assert again.content == first_drawn.content
    assert (await client.get(verify)).content == first_verified.content

    await game.rewind()
    rewound_verified, rewound_drawn = await client.get(verify), await client.get(now)
    assert rewound_verified.json()["ok"] is True
    assert rewound_verified.json()["head"] != first_verified.json()["head"]
    assert rewound_drawn.content != first_drawn.content

    await game.submit(2)
    await game.resolve()
    replayed_verified, replayed_drawn = await client.get(verify), await client.get(now)
    assert replayed_verified.json()["head"] not in (
        first_verified.json()["head"],
        rewound_verified.json()["head"],
    )
    assert replayed_verified.json()["turns_replayed"] == 2
    # The same orders again: the same board and orders, so the same picture, kept or not.
    assert replayed_drawn.content == first_drawn.content
    assert replayed_drawn.content != rewound_drawn.content


async def test_a_what_if_is_a_heavy_read_too(server: Server) -> None:
    client = server.api.client
    await server.api.call("GET", "/v1/health")  # the server has started
    heavy = server.app.state.services.heavy
    body = {
        "map": "rulebook",
        "players": {"red": {"vp": 0}, "blue": {"vp": 0}},
        "armies": {"SI": "red", "RG": "blue"},
        "orders": {"red": ["SI H"], "blue": ["RG to SI"]},
    }
    async with heavy.admitted("adjudicate", "address 10.0.0.1"):
        _refused_for_its_share(await client.post("/v1/adjudicate", json=body, headers=BURSTER))
        answered = await client.post("/v1/adjudicate", json=body, headers=OTHER)
    assert answered.status_code == 200, answered.text
    # Once answered, the same what-if is kept: answered even while the share is held.
    async with heavy.admitted("adjudicate", "address 10.0.0.1"):
        kept = await client.post("/v1/adjudicate", json=body, headers=BURSTER)
    assert kept.content == answered.content
