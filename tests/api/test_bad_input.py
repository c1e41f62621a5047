"""Bad input gets a clear 4xx in the error shape, never a 500: malformed and oversized
bodies, unknown fields, wrong types, wrong tokens, trusted clients, racing admins."""

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.routing import BaseRoute, Route

from projections.loading import stream_of
from server.http.api import MAX_BODY, NESTED_TOO_DEEPLY
from tests.api.game import ScriptedGame
from tests.api.support import OPERATOR_TOKEN, Account, Server


async def _raw(base: str, request: bytes) -> bytes:
    """Send bytes no HTTP client would, and read the first line of the answer."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(request)
        await writer.drain()
        return await reader.readline()
    finally:
        writer.close()
        await writer.wait_closed()


def _error(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body, dict)
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message"}
    assert body["error"]["message"]
    error: dict[str, Any] = body["error"]
    return error


@pytest.mark.parametrize(
    ("content", "status", "code", "says"),
    [
        (b"{not json", 400, "invalid_json", "not valid JSON"),
        (b"", 400, "empty_body", "body is required"),
        (b"\xff\xfe", 400, "invalid_json", "not valid JSON"),
        (b'{"name": "Ann", "nmae": "typo"}', 422, "invalid_body", "unknown field `nmae`"),
        (b'{"name": 5}', 422, "invalid_body", "Expected `str`, got `int`"),
        (b'["Ann"]', 422, "invalid_body", "Expected `object`, got `array`"),
        (b"{}", 422, "invalid_body", "missing required field `name`"),
        (b'{"name": "   "}', 422, "name_empty", "empty"),
        (b'{"name": "' + b"A" * 100 + b'"}', 422, "invalid_body", "length <= 32"),
        (b'{"name": "a\\nb"}', 422, "name_unprintable", "one line"),
    ],
)
async def test_a_bad_body_gets_a_clear_4xx(
    server: Server, content: bytes, status: int, code: str, says: str
) -> None:
    response = await server.api.client.post(
        "/v1/accounts", content=content, headers={"Content-Type": "application/json"}
    )
    error = _error(response, status)
    assert error["code"] == code
    assert says in error["message"]


@pytest.mark.parametrize("after", ["\x00", "a\x00b", "x y", "ä"])
async def test_a_listing_from_a_game_id_that_cannot_be_one_is_a_422(
    server: Server, after: str
) -> None:
    """PostgreSQL refuses a NUL in text: such a value must not reach it."""
    response = await server.api.client.get("/v1/games", params={"after": after})
    assert _error(response, 422)["code"] == "invalid_request"


RULEBOOK_TURN = {
    "map": "rulebook",
    "players": {"red": {"vp": 0}, "blue": {"vp": 3}},
    "armies": {"SI": "red", "RG": "blue"},
    "orders": {"red": ["SI H"], "blue": ["RG H"]},
}


@pytest.mark.parametrize(
    ("path", "content", "key"),
    [
        ("/v1/accounts", b'{"name": "Ann", "name": "Bob"}', "name"),
        # The type of the first would have been refused: the duplicate is what is wrong.
        ("/v1/accounts", b'{"name": 5, "name": "Bob"}', "name"),
        ("/v1/adjudicate", b'{"map": "rulebook", "players": {"red": {"vp": 0, "vp": 3}}}', "vp"),
        (
            "/v1/adjudicate",
            b'{"map": {"territories": [{"id": "A", "neighbours": [], "id": "B"}]}, "players": {}}',
            "id",
        ),
    ],
)
async def test_a_key_twice_in_one_object_is_refused_at_any_depth(
    server: Server, path: str, content: bytes, key: str
) -> None:
    error = _error(await server.api.client.post(path, content=content), 400)
    assert error["code"] == "duplicate_key"
    assert f"{key!r} appears twice" in error["message"]
    # The same key in two objects is no duplicate.
    assert (await server.api.client.post("/v1/adjudicate", json=RULEBOOK_TURN)).status_code == 200


@pytest.mark.parametrize("path", ["/v1/accounts", "/v1/adjudicate", "/v1/maps/generate"])
async def test_a_body_nested_too_deeply_is_a_400(server: Server, path: str) -> None:
    # An inline map may hold anything: msgspec gave up on this one with a RecursionError.
    depth = 5000
    content = b'{"map": ' + b"[" * depth + b"]" * depth + b', "players": {}}'
    error = _error(await server.api.client.post(path, content=content), 400)
    assert error == {"code": "invalid_json", "message": NESTED_TOO_DEEPLY}


async def test_unknown_fields_and_wrong_types_are_refused_everywhere(server: Server) -> None:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    client, ann, game_id = server.api.client, game.admin, game.game_id
    cases: list[tuple[str, str, Any]] = [
        ("POST", "/v1/games", {"name": "x", "vp_target": "ten"}),
        ("POST", "/v1/games", {"name": "x", "map_type": "tiny"}),
        ("POST", "/v1/games", {"name": "x", "colour": 3}),
        ("PUT", f"/v1/games/{game_id}/orders", {"orders": ["EA H"]}),
        ("PUT", f"/v1/games/{game_id}/orders", {"orders": "EA H", "turns": 1}),
        ("POST", f"/v1/games/{game_id}/votes", {"vote": "FEAST"}),
        ("POST", f"/v1/games/{game_id}/join-forces", {"with_player": "p2"}),
        ("PATCH", f"/v1/games/{game_id}/players/me", {"color": "red"}),
        ("PATCH", f"/v1/games/{game_id}/settings", {"fast_mode": "yes"}),
        ("POST", f"/v1/games/{game_id}/admin/ban", {"player": 2}),
        ("POST", f"/v1/games/{game_id}/broadcast", {"message": None}),
    ]
    for method, path, body in cases:
        response = await client.request(method, path, json=body, headers=ann.auth)
        error = _error(response, 422)
        assert error["code"] == "invalid_body", (path, body, error)
    # Out of range, though well typed: the decoder says which bound.
    out_of_range: list[tuple[str, str, Any, str]] = [
        ("POST", "/v1/games", {"name": "x", "vp_target": 0}, ">= 1 - at `$.vp_target`"),
        ("POST", "/v1/games", {"name": "x", "vp_target": 51}, "<= 50 - at `$.vp_target`"),
        ("POST", "/v1/games", {"name": "x", "seed": -1}, ">= 0 - at `$.seed`"),
        ("POST", "/v1/games", {"name": "x", "seed": 2**63}, "at `$.seed`"),
        ("POST", "/v1/games", {"name": "x", "resolution_hour": 24}, "<= 23"),
        ("POST", "/v1/games", {"name": "x", "current_hour": -1}, ">= 0"),
        ("POST", "/v1/games", {"name": "x" * 33}, "length <= 32"),
        ("PATCH", f"/v1/games/{game_id}/settings", {"current_hour": 24}, "<= 23"),
        ("PATCH", f"/v1/games/{game_id}/players/me", {"color": 21}, "<= 20 - at `$.color`"),
        ("PATCH", f"/v1/games/{game_id}/players/me", {"pattern": 0}, ">= 1 - at `$.pattern`"),
        ("PUT", f"/v1/games/{game_id}/orders", {"orders": "H" * 4001}, "length <= 4000"),
        ("POST", f"/v1/games/{game_id}/broadcast", {"message": ""}, "length >= 1"),
        ("POST", "/v1/maps/generate", {"players": 21}, "<= 20 - at `$.players`"),
    ]
    for method, path, body, says in out_of_range:
        error = _error(await client.request(method, path, json=body, headers=ann.auth), 422)
        assert error["code"] == "invalid_body", (path, body, error)
        assert says in error["message"], (path, body, error)
    # An admin's action takes the body it documents; a rewind's may be left out.
    banned = await client.post(f"/v1/games/{game_id}/admin/ban", json={}, headers=ann.auth)
    assert "missing required field `player`" in _error(banned, 422)["message"]
    # An unknown admin action is no resource; a bad query parameter is a 4xx too.
    _error(await client.post(f"/v1/games/{game_id}/admin/explode", headers=ann.auth), 404)
    _error(await client.get(f"/v1/games/{game_id}/events?after=minus-one"), 422)
    _error(await client.get("/v1/games?phase=sleeping"), 422)
    _error(await client.get("/v1/games/bad%20id"), 422)


async def test_huge_bodies_are_refused_with_413_even_without_a_length(server: Server) -> None:
    client = server.api.client
    huge = json.dumps({"name": "A" * (MAX_BODY + 1)}).encode()
    declared = await client.post("/v1/accounts", content=huge)
    assert _error(declared, 413)["code"] == "body_too_large"

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"name": "'
        for _ in range(MAX_BODY // 1000 + 10):
            yield b"A" * 1000
        yield b'"}'

    chunked = await client.post("/v1/accounts", content=chunks())
    assert chunked.request.headers.get("transfer-encoding") == "chunked"
    assert "content-length" not in chunked.request.headers
    assert _error(chunked, 413)["code"] == "body_too_large"

    # The same for the stateless adjudication, and a lying Content-Length.
    _error(await client.post("/v1/adjudicate", content=huge), 413)
    lying = await _raw(
        server.base,
        b"POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}",
    )
    assert lying.startswith((b"HTTP/1.1 400", b"HTTP/1.1 413")), lying
    # The server is still fine.
    assert (await client.get("/v1/health")).status_code == 200


# A value for every path parameter of the app's routes; a new parameter must be added here.
PATH_VALUES = {
    "turn": "1",
    "name": "rulebook",
    "action": "pause",
    "path": "js/game.js",
    "account": "acct_someone",
    "token_id": "tok_0123456789abcdef",
    "client_id": "cl_nobody",
}


def _every_http_call(app: FastAPI, game_id: str) -> list[tuple[str, str]]:
    """(method, path) for every HTTP route of the app, FastAPI's own documents included
    (HEAD is GET without the body)."""
    values = {**PATH_VALUES, "game": game_id}
    return [
        (method, re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: values[m[1]], route.path))
        for route in _routes(app.routes)
        if isinstance(route, Route)
        for method in sorted(route.methods or ())
        if method != "HEAD"
    ]


def _routes(routes: Sequence[BaseRoute]) -> Iterator[BaseRoute]:
    for route in routes:
        # Newer FastAPI keeps an included router whole, older copies its routes.
        included = getattr(route, "original_router", None)
        yield from [route] if included is None else _routes(included.routes)


async def test_a_present_but_bad_token_is_401_on_every_route(server: Server) -> None:
    game = ScriptedGame(server)
    await game.create()
    client = server.api.client
    made = await client.post(
        "/v1/clients", json={"name": "bot"}, headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    )
    bad = {
        "bad_token": {"Authorization": "Bearer not-a-token"},
        # A client's token acts for nobody without X-Acting-User.
        "acting_user_required": {"Authorization": f"Bearer {made.json()['token']}"},
    }
    calls = _every_http_call(server.app, game.game_id)
    assert ("GET", "/docs") in calls
    assert ("GET", f"/v1/games/{game.game_id}") in calls
    assert ("PUT", f"/v1/games/{game.game_id}/webhook") in calls
    for method, path in [*calls, ("GET", "/v1/nothing-here"), ("POST", "/v1/nothing-here")]:
        for code, headers in bad.items():
            response = await client.request(method, path, headers=headers)
            assert _error(response, 401)["code"] == code, (method, path)
        # A header that is not "Bearer <token>".
        for malformed in ("Basic dXNlcjpwYXNz", "Bearer", "Token abc", "bearer"):
            response = await client.request(method, path, headers={"Authorization": malformed})
            assert _error(response, 401)["code"] == "bad_authorization", (method, path, malformed)
    # Without a token, readers read: the same public calls answer.
    for path in (f"/v1/games/{game.game_id}", "/v1/games", "/v1/maps", f"/games/{game.game_id}"):
        assert (await client.get(path)).status_code == 200, path
    # Acting without a token at all.
    joining = await client.post(f"/v1/games/{game.game_id}/join")
    assert _error(joining, 401)["code"] == "token_required"
    # A player's token does not make an admin.
    bob = game.player("Bob")
    refused = await client.post(f"/v1/games/{game.game_id}/start", headers=bob.auth)
    assert _error(refused, 403)["code"] == "admin_only"


async def test_a_write_without_a_token_is_401_before_its_body_is_read(server: Server) -> None:
    # server/http/acting.py: the caller first, so that a body is never judged for nobody.
    game = ScriptedGame(server)
    await game.create()
    on = f"/v1/games/{game.game_id}"
    writes = [
        ("POST", "/v1/games"),
        ("PUT", f"{on}/orders"),
        ("POST", f"{on}/votes"),
        ("POST", f"{on}/join-forces"),
        ("POST", f"{on}/broadcast"),
        ("PATCH", f"{on}/players/me"),
        ("PATCH", f"{on}/settings"),
        ("POST", f"{on}/admins"),
        ("POST", f"{on}/fork"),
        ("POST", f"{on}/admin/ban"),
        ("POST", f"{on}/admin/unban"),
        ("POST", f"{on}/admin/rewind"),
        ("POST", f"{on}/commands"),
        ("POST", "/v1/commands"),
    ]
    for method, path in writes:
        response = await server.api.client.request(method, path, content=b"{not json")
        assert _error(response, 401)["code"] == "token_required", (method, path)


async def test_trusted_clients_act_for_their_users(server: Server) -> None:
    api, client = server.api, server.api.client
    ann = await api.account("Ann")
    operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    # Only the operator makes client tokens.
    _error(await client.post("/v1/clients", json={"name": "bot"}), 401)
    _error(await client.post("/v1/clients", json={"name": "bot"}, headers=ann.auth), 403)
    made = await client.post("/v1/clients", json={"name": "bot"}, headers=operator)
    assert made.status_code == 201
    bot = made.json()["token"]
    as_bot = {"Authorization": f"Bearer {bot}"}

    # A client token needs a user to act for.
    refused = await client.post("/v1/games", json={"name": "Bot game"}, headers=as_bot)
    assert _error(refused, 401)["code"] == "acting_user_required"
    for bad in ("", "x" * 201, "tab\there"):
        response = await client.post(
            "/v1/games", json={"name": "g"}, headers={**as_bot, "X-Acting-User": bad}
        )
        _error(response, 401)

    def acting(user: str, name: str) -> dict[str, str]:
        return {**as_bot, "X-Acting-User": user, "X-Acting-User-Name": name}

    # The server creates the account on first sight, and knows it again after.
    created = await client.post("/v1/games", json={"name": "Bot game"}, headers=acting("42", "Zed"))
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    joined = await client.post(f"/v1/games/{game_id}/join", headers=acting("42", "Zed"))
    assert joined.status_code == 200
    again = await client.post(f"/v1/games/{game_id}/join", headers=acting("42", "Zed"))
    assert _error(again, 409)["code"] == "already_joined"
    other = await client.post(f"/v1/games/{game_id}/join", headers=acting("43", "Yan"))
    assert other.status_code == 200
    state = (await client.get(f"/v1/games/{game_id}")).json()
    assert [p["name"] for p in state["players"]] == ["Yan", "Zed"]

    # A user's name is one line of printable UTF-8 text of at most 32 characters; anything
    # else is refused, never cut.
    def named(name: bytes) -> dict[bytes, bytes]:
        return {
            b"Authorization": f"Bearer {bot}".encode(),
            b"X-Acting-User": b"44",
            b"X-Acting-User-Name": name,
        }

    for name in ("N" * 33, "tab\tbed", "next\u0085line", "line\u2028break"):
        response = await client.post(f"/v1/games/{game_id}/join", headers=named(name.encode()))
        assert _error(response, 400)["code"] == "invalid_acting_user_name", name
    # A byte that HTTP forbids in a header (DEL, say) never reaches the API: the server's HTTP
    # parser (httptools) refuses the request itself, in plain text, and nobody joins.
    response = await client.post(f"/v1/games/{game_id}/join", headers=named(b"\x7fdel"))
    assert (response.status_code, response.text) == (400, "Invalid HTTP request received.")
    response = await client.post(f"/v1/games/{game_id}/join", headers=named(b"Zo\xeb"))
    assert _error(response, 400)["code"] == "invalid_acting_user_name"
    longest = "Zoë " + "x" * 28
    response = await client.post(f"/v1/games/{game_id}/join", headers=named(longest.encode()))
    assert response.status_code == 200, response.text
    state = (await client.get(f"/v1/games/{game_id}")).json()
    assert [p["name"] for p in state["players"]] == ["Yan", "Zed", longest]
    # The user's admin rights come with them; another user of the same bot has none.
    start = await client.post(f"/v1/games/{game_id}/start", headers=acting("43", "Yan"))
    assert _error(start, 403)["code"] == "admin_only"
    # The operator may act as admin on any game.
    killed = await client.post(f"/v1/games/{game_id}/admin/kill", headers=operator)
    assert killed.status_code == 200
    assert _error(await client.get(f"/v1/games/{game_id}"), 410)["code"] == "game_killed"


async def _race(*calls: Any) -> list[httpx.Response]:
    responses: list[httpx.Response] = await asyncio.gather(*calls)
    return responses


@pytest.mark.parametrize("resolutions", [1, 2])
async def test_two_admins_racing_to_rewind_lose_nothing(server: Server, resolutions: int) -> None:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    for turn in range(1, resolutions + 1):
        await game.submit(turn)
        await game.resolve()
    store = server.app.state.services.store
    stream = stream_of(game.game_id)
    before = await store.read_stream(stream)
    operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    path = f"/v1/games/{game.game_id}/admin/rewind"
    server.clock.advance(60)
    responses = await _race(
        game.api.client.post(path, json={"reason": "admin"}, headers=game.admin.auth),
        game.api.client.post(path, json={"reason": "operator"}, headers=operator),
    )
    statuses = sorted(r.status_code for r in responses)
    state = await game.state()
    after = await game.api.events(game.game_id, game.admin)
    archive = await game.api.as_(game.admin).archive(game.game_id)
    # One rewind wins. The other is told, clearly, that nothing was undone (it planned from
    # the same state, or there was nothing left to undo), or it undid one turn further.
    assert 500 not in statuses
    assert statuses in ([200, 409], [200, 200])
    undone = statuses.count(200)
    assert undone <= resolutions
    assert state.turn == resolutions + 1 - undone
    assert len(archive.truncations) == undone
    for loser in (r for r in responses if r.status_code == 409):
        error = loser.json()["error"]
        assert error["code"] in ("nothing_to_rewind", "game_changed")
        assert (
            "no resolution to undo" in error["message"] or "nothing was undone" in error["message"]
        )
    # Every event stored before the race is still in the log or in the archive, exactly
    # once. (Read from the store: what each reader may see changes with a rewind, since the
    # turn it reopens hides its orders again until it resolves anew.)
    log = await store.read_stream(stream)
    archived = [e for t in await store.read_archive(stream) for e in t.events]
    kept = [e.position for e in log] + [e.position for e in archived]
    assert {e.position for e in before} <= set(kept)
    assert len(kept) == len(set(kept))
    assert [e.type for e in after].count("turn_rewound.v1") == 1


async def test_a_late_bot_cannot_order_the_wrong_turn(server: Server) -> None:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    await game.submit(1)
    await game.resolve()
    ann: Account = game.admin
    late = await game.api.call(
        "PUT", f"/v1/games/{game.game_id}/orders", ann, {"orders": "EA F", "turn": 1}, expect=409
    )
    assert late["error"]["code"] == "wrong_turn"
