"""Cross-origin requests over the real server (server/http/cors.py): preflights on every route
without a token, the headers on every answer (the gate's 401 and 429, the body limit's 413,
the error handlers' 4xx and 503), and a configured list of origins, or none."""

import httpx

from server.accounts.ratelimit import Rate, RateLimits
from server.http.api import MAX_BODY
from tests.api.routes import every_route
from tests.api.support import serving
from tests.server.running import CuttableLink

PAGE = "http://127.0.0.1:8123"
OTHER = "http://localhost:8124"
# What a front end sends: its token, JSON, and a trusted client's user.
SENT = "Authorization, Content-Type, X-Acting-User, X-Acting-User-Name, X-Acting-User-Admin"


async def preflight(
    client: httpx.AsyncClient, method: str, path: str, origin: str = PAGE, sent: str = SENT
) -> httpx.Response:
    """What a browser asks before sending `method` to `path` from a page of `origin`."""
    return await client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": sent,
        },
    )


def readable(response: httpx.Response, origin: str = "*") -> None:
    """The browser lets the page read this answer, Retry-After included."""
    assert response.headers.get("access-control-allow-origin") == origin, response.headers
    assert response.headers["access-control-expose-headers"] == "Retry-After, X-Request-Id"


def unreadable(response: httpx.Response) -> None:
    assert "access-control-allow-origin" not in response.headers, response.headers
    assert "access-control-expose-headers" not in response.headers


async def test_a_preflight_succeeds_on_every_route_without_a_token(schema_url: str) -> None:
    async with serving(schema_url) as server:
        admin = await server.api.account("Ann")
        game = (await server.api.new_game(admin)).id
        calls = every_route(server, game)
        assert ("PUT", f"/v1/games/{game}/orders") in calls
        assert ("GET", "/docs") in calls
        for method, path in [*calls, ("DELETE", "/v1/nothing-here")]:
            answer = await preflight(server.api.client, method, path)
            assert answer.status_code == 204, (method, path, answer.text)
            assert answer.headers["access-control-allow-origin"] == "*"
            assert method in answer.headers["access-control-allow-methods"].split(", ")
            allowed = answer.headers["access-control-allow-headers"].lower().split(", ")
            assert set(SENT.lower().split(", ")) <= set(allowed)
            assert int(answer.headers["access-control-max-age"]) > 0


async def test_every_answer_is_readable_from_another_origin(schema_url: str) -> None:
    limits = RateLimits(writes=Rate(2, 3600))  # an hour: nothing refills
    async with serving(schema_url, rate_limits=limits) as server:
        client = server.api.client
        page = {"Origin": PAGE}
        ann = await server.api.account("Ann")
        readable(await client.get("/v1/games", headers=page))
        # The gate's 401s: a token that is not known, a header that is not a bearer's.
        for authorization in ("Bearer nobody", "Basic dXNlcjpwYXNz"):
            bad = await client.get("/v1/games", headers={**page, "Authorization": authorization})
            assert bad.status_code == 401
            readable(bad)
        # A route's own errors, FastAPI's validation and Starlette's unknown address.
        game = await client.get("/v1/games/g_nothing", headers=page)
        assert game.status_code == 404
        readable(game)
        invalid = await client.get("/v1/games?limit=many", headers=page)
        assert invalid.status_code == 422
        readable(invalid)
        nowhere = await client.get("/v1/nothing-here", headers=page)
        assert nowhere.status_code == 404
        readable(nowhere)
        # The body limit's 413, refused before the body is read.
        huge = await client.post("/v1/accounts", content=b"x" * (MAX_BODY + 1), headers=page)
        assert huge.status_code == 413
        readable(huge)
        # The gate's 429: the page may read when to try again.
        # (Ann's account was the address's first write; a 413 is refused before the gate.)
        hint = {"text": "/hint"}
        as_ann = {**page, **ann.auth}
        writes = [await client.post("/v1/commands", json=hint, headers=as_ann) for _ in range(2)]
        assert [w.status_code for w in writes] == [200, 429]
        readable(writes[-1])
        assert int(writes[-1].headers["retry-after"]) >= 1
        # A preflight counts against no limit, and needs no token.
        again = await preflight(client, "POST", "/v1/commands")
        assert again.status_code == 204


async def test_a_503_is_readable_from_another_origin(schema_url: str) -> None:
    link = CuttableLink(schema_url)
    await link.restore()
    try:
        async with serving(link.url) as server:
            await server.api.call("GET", "/v1/games")  # started, on the database
            await link.cut()
            down = await server.api.client.get("/v1/games", headers={"Origin": PAGE})
    finally:
        await link.cut()
    assert down.status_code == 503, down.text
    assert down.json()["error"]["code"] == "database_unavailable"
    readable(down)


async def test_a_list_of_origins_allows_those_only(schema_url: str) -> None:
    async with serving(schema_url, cors_origins=(PAGE,)) as server:
        client = server.api.client
        allowed = await client.get("/v1/games", headers={"Origin": PAGE})
        readable(allowed, PAGE)
        assert "Origin" in allowed.headers["vary"]
        other = await client.get("/v1/games", headers={"Origin": OTHER})
        assert other.status_code == 200
        unreadable(other)
        assert "Origin" in other.headers["vary"]
        assert "Origin" in (await client.get("/v1/games")).headers["vary"]

        ok = await preflight(client, "PUT", "/v1/games/g_x/orders")
        assert ok.status_code == 204
        assert ok.headers["access-control-allow-origin"] == PAGE
        refused = await preflight(client, "PUT", "/v1/games/g_x/orders", origin=OTHER)
        assert refused.status_code == 403
        unreadable(refused)
        assert refused.json()["error"] == {
            "code": "cors_refused",
            "message": f"this cross-origin request is not allowed: the origin {OTHER}",
        }
        # Headers the API does not read, and a method it has no use for, are refused too.
        odd = await preflight(client, "TRACE", "/v1/games", sent="Authorization, X-Secret")
        assert odd.status_code == 403
        message = "this cross-origin request is not allowed: the method, x-secret"
        assert odd.json()["error"]["message"] == message


async def test_switched_off_no_page_of_another_origin_reads_an_answer(schema_url: str) -> None:
    async with serving(schema_url, cors_origins=()) as server:
        client = server.api.client
        unreadable(await client.get("/v1/games", headers={"Origin": PAGE}))
        asked = await preflight(client, "GET", "/v1/games")
        assert asked.status_code == 405
        unreadable(asked)
