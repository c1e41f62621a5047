"""Rate limits over the real server: accounts created per address, games created and writes
per account and per address, 429 with Retry-After, and writes again after waiting. Callers
come from distinct addresses through X-Forwarded-For, which uvicorn takes from a proxy on
127.0.0.1, as it would from a reverse proxy in front of the server."""

import asyncio
from typing import Any

import httpx

from server.accounts.ratelimit import Rate, RateLimits
from tests.api.support import OPERATOR_TOKEN, Account, Server, serving

# Slow enough that nothing refills while a test runs: the counts are exact.
HOURLY = 3600
OPERATOR = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}


def at(address: str, who: Account | dict[str, str] | None = None) -> dict[str, str]:
    """Headers for a call from `address`, as `who` (an account, or headers that say who)."""
    said = who.auth if isinstance(who, Account) else who or {}
    return {"X-Forwarded-For": address, **said}


def refused(response: httpx.Response) -> int:
    """The seconds a 429 says to wait, after checking that it is one, in the error form."""
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "rate_limited"
    assert response.json()["error"]["message"].startswith("too many")
    wait = int(response.headers["retry-after"])
    assert wait >= 1
    return wait


async def account(client: httpx.AsyncClient, name: str, address: str) -> Account:
    response = await client.post("/v1/accounts", json={"name": name}, headers=at(address))
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return Account(created["account_id"], created["token"], name)


async def hint(client: httpx.AsyncClient, headers: dict[str, str]) -> httpx.Response:
    """A cheap write: a text command that changes nothing."""
    return await client.post("/v1/commands", json={"text": "/hint"}, headers=headers)


async def test_accounts_are_limited_per_address(schema_url: str) -> None:
    limits = RateLimits(accounts=Rate(3, HOURLY))
    async with serving(schema_url, rate_limits=limits) as server:
        client = server.api.client
        for name in ("Ann", "Bob", "Cy"):
            await account(client, name, "10.0.0.1")
        again = await client.post("/v1/accounts", json={"name": "Di"}, headers=at("10.0.0.1"))
        # One more every 20 minutes.
        assert refused(again) == 1200
        await account(client, "Di", "10.0.0.2")
        # The operator is never limited.
        made = await client.post(
            "/v1/accounts", json={"name": "Ed"}, headers=at("10.0.0.1", OPERATOR)
        )
        assert made.status_code == 201


async def test_games_are_limited_per_account_and_per_address(schema_url: str) -> None:
    limits = RateLimits(games=Rate(2, HOURLY))
    async with serving(schema_url, rate_limits=limits) as server:
        client = server.api.client
        ann = await account(client, "Ann", "10.0.1.1")
        bob = await account(client, "Bob", "10.0.1.2")
        game = {"name": "Friday"}
        for _ in range(2):
            made = await client.post("/v1/games", json=game, headers=at("10.0.0.1", ann))
            assert made.status_code == 201
        # Ann has made her two, from anywhere; her address has seen two, from anyone.
        assert (
            refused(await client.post("/v1/games", json=game, headers=at("10.0.0.1", ann))) == 1800
        )
        refused(await client.post("/v1/games", json=game, headers=at("10.0.0.2", ann)))
        refused(await client.post("/v1/games", json=game, headers=at("10.0.0.1", bob)))
        # The text command that sets up a game counts alike, and answers alike.
        setup = await client.post(
            "/v1/commands", json={"text": "/setup Friday"}, headers=at("10.0.0.2", ann)
        )
        refused(setup)
        made = await client.post(
            "/v1/commands", json={"text": "/setup Friday"}, headers=at("10.0.0.3", bob)
        )
        assert made.status_code == 200
        assert made.json()["ok"], made.text


async def test_writes_are_limited_per_account_and_per_address(schema_url: str) -> None:
    limits = RateLimits(writes=Rate(5, HOURLY))
    async with serving(schema_url, rate_limits=limits) as server:
        client = server.api.client
        ann = await account(client, "Ann", "10.0.1.1")
        bob = await account(client, "Bob", "10.0.1.2")
        for _ in range(5):
            assert (await hint(client, at("10.0.0.1", ann))).status_code == 200
        refused(await hint(client, at("10.0.0.1", ann)))
        # Ann's account is spent wherever she calls from, and so is her address for anyone.
        refused(await hint(client, at("10.0.0.2", ann)))
        refused(await hint(client, at("10.0.0.1", bob)))
        refused(await client.post("/v1/adjudicate", json={}, headers=at("10.0.0.1")))
        assert (await hint(client, at("10.0.0.3", bob))).status_code == 200
        # Reading is never limited; nor is the operator.
        assert (await client.get("/v1/games", headers=at("10.0.0.1", ann))).status_code == 200
        assert (await hint(client, at("10.0.0.1", OPERATOR))).status_code == 200


async def test_a_trusted_client_is_limited_per_user_not_per_address(schema_url: str) -> None:
    limits = RateLimits(writes=Rate(5, HOURLY))
    async with serving(schema_url, rate_limits=limits) as server:
        client = server.api.client
        made = await client.post("/v1/clients", json={"name": "bot"}, headers=OPERATOR)
        bot = {"Authorization": f"Bearer {made.json()['token']}"}
        # Many users of the bot, all from its one address: far more than five writes.
        for user in range(4):
            for _ in range(5):
                response = await hint(client, at("10.0.0.1", {**bot, "X-Acting-User": str(user)}))
                assert response.status_code == 200, response.text
            # Each user has their own limit.
            refused(await hint(client, at("10.0.0.1", {**bot, "X-Acting-User": str(user)})))


async def test_a_refused_caller_may_write_again_after_waiting(schema_url: str) -> None:
    limits = RateLimits(writes=Rate(2, 1))
    async with serving(schema_url, rate_limits=limits) as server:
        client = server.api.client
        ann = await account(client, "Ann", "10.0.1.1")
        answers = []
        # Two at once, then one a second: a quick run of calls soon meets the limit.
        for _ in range(20):
            answers.append(await hint(client, at("10.0.0.1", ann)))
            if answers[-1].status_code == 429:
                break
        accepted = [a for a in answers if a.status_code == 200]
        assert len(accepted) >= 2
        wait = refused(answers[-1])
        assert wait == 1
        await asyncio.sleep(wait)
        assert (await hint(client, at("10.0.0.1", ann))).status_code == 200


async def test_limits_can_be_switched_off(server: Server) -> None:
    # The fixture's server runs without limits, as SKIRMISH_RATE_LIMITS=off does.
    for n in range(25):
        await account(server.api.client, f"Player {n}", "10.0.0.1")


async def test_the_api_document_shows_the_limits(server: Server) -> None:
    paths = (await server.api.client.get("/openapi.json")).json()["paths"]
    create = paths["/v1/games"]["post"]["responses"]
    assert create["429"]["headers"]["Retry-After"]["schema"] == {"type": "integer", "minimum": 1}
    listing = paths["/v1/games"]["get"]["responses"]
    assert "429" not in listing
    # A present but wrong token is a 401 everywhere.
    assert all("401" in o["responses"] for path in paths.values() for o in path.values())
