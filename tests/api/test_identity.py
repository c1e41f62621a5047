"""Who am I, over HTTP: GET /v1/me, the player id a join answers, and an account's tokens
(list, add for another device, revoke), on one server process and on two."""

import contextlib
import json

import pytest

from client import ActingUser, Conflict
from tests.api.support import OPERATOR_TOKEN, Account, Api, Json, Server, serving, until

CLIENT_HEADERS = {"X-Acting-User": "u-1", "X-Acting-User-Name": "Uma"}


async def _me(api: Api, who: Account | str, query: str = "") -> Json:
    found: Json = await api.call("GET", f"/v1/me{query}", who)
    return found


async def _settled(
    api: Api, who: Account | str, games: list[str], headers: dict[str, str] | None = None
) -> Json:
    """/v1/me once the read models hold each of `games` as GET /v1/games/{game} shows it
    now (they may lag an append by milliseconds)."""
    positions = {game: (await api.game(game)).position for game in games}
    found: Json = {}

    async def settled() -> bool:
        nonlocal found
        found = await api.call("GET", "/v1/me", who, headers=headers)
        listed = {g["id"]: g["position"] for g in found["games"]}
        return all(listed.get(game, 0) >= position for game, position in positions.items())

    await until(settled, what=f"/v1/me to hold {games}")
    return found


async def test_join_answers_the_player_id_and_me_lists_my_games(server: Server) -> None:
    api = server.api
    ann, bob, cy = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
    played = (await api.new_game(ann, name="Played")).id
    joined = await api.join(played, bob)
    assert joined.events == ["player_joined.v1"]
    assert joined.player == "p1"
    assert (await api.join(played, ann)).player == "p2"
    players = {p.name: p.id for p in (await api.game(played)).players}
    assert players == {"Bob": "p1", "Ann": "p2"}
    # Ann sets up a game that is killed; then Bob one he does not play in (the read models
    # fold the log in order: once they hold his game, they hold the kill).
    killed = (await api.new_game(ann, name="Killed")).id
    await api.join(killed, bob)
    await api.admin(killed, ann, "kill")
    admin_only = (await api.new_game(bob, name="Refereed")).id

    bobs = await _settled(api, bob, [played, admin_only])
    assert bobs["account_id"] == bob.account_id
    assert (bobs["name"], bobs["operator"], bobs["client"], bobs["next"]) == (
        "Bob",
        False,
        None,
        None,
    )
    mine = {g["id"]: g for g in bobs["games"]}
    assert set(mine) == {played, admin_only}
    assert {k: mine[played][k] for k in ("name", "phase", "turn", "player", "admin")} == {
        "name": "Played",
        "phase": "joining",
        "turn": 0,
        "player": "p1",
        "admin": False,
    }
    assert mine[played]["player_status"] == "active"
    assert (mine[admin_only]["player"], mine[admin_only]["admin"]) == (None, True)

    # The game moves on: /v1/me follows.
    await api.join(played, cy)
    await api.start(played, ann)
    anns = await _settled(api, ann, [played])
    assert [(g["id"], g["phase"], g["turn"], g["player"], g["admin"]) for g in anns["games"]] == [
        (played, "running", 1, "p2", True)
    ]
    first = await _me(api, bob, "?limit=1")
    assert len(first["games"]) == 1
    assert first["next"] == first["games"][0]["id"]
    rest = await _me(api, bob, f"?after={first['next']}")
    assert [g["id"] for g in first["games"] + rest["games"]] == sorted(mine)
    assert rest["next"] is None

    error = await api.call("GET", "/v1/me", expect=401)
    assert error["error"]["code"] == "token_required"
    operator = await _me(api, OPERATOR_TOKEN)
    assert (operator["operator"], operator["games"]) == (True, [])


async def test_a_sandbox_join_answers_the_new_seat(server: Server) -> None:
    api = server.api
    ann = await api.account("Ann")
    sandbox = (await api.new_game(ann, sandbox=True)).id
    assert (await api.join(sandbox, ann)).player == "p1"
    (game,) = (await _settled(api, ann, [sandbox]))["games"]
    assert (game["player"], game["admin"]) == (None, True)


async def test_a_trusted_clients_user_is_told_so_and_has_no_tokens(server: Server) -> None:
    api = server.api
    client = await api.call("POST", "/v1/clients", OPERATOR_TOKEN, {"name": "bot"}, expect=201)
    vouched = {**CLIENT_HEADERS, "X-Acting-User-Admin": "true"}
    ann = await api.account("Ann")
    # A game set up through the client, which Uma joins; one of Ann's, which Uma joins too.
    through = await api.call(
        "POST", "/v1/games", client["token"], {"name": "Bot game"}, expect=201, headers=vouched
    )
    await api.call(
        "POST", f"/v1/games/{through['id']}/join", client["token"], headers=CLIENT_HEADERS
    )
    other = (await api.new_game(ann)).id
    await api.call("POST", f"/v1/games/{other}/join", client["token"], headers=CLIENT_HEADERS)

    async def me_as_uma(headers: dict[str, str]) -> Json:
        found: Json = await api.call("GET", "/v1/me", client["token"], headers=headers)
        return found

    plain = await _settled(api, client["token"], [through["id"], other], CLIENT_HEADERS)
    assert plain["name"] == "Uma"
    assert plain["client"] == {
        "client_id": client["client_id"],
        "external_id": "u-1",
        "vouched_admin": False,
    }
    # Uma set up the first game, so she is on its list of admins either way; the client's
    # vouching makes her no admin of Ann's game.
    assert {g["id"]: g["admin"] for g in plain["games"]} == {through["id"]: True, other: False}
    assert (await me_as_uma(vouched))["client"]["vouched_admin"] is True

    for method, path, body in (
        ("GET", "/v1/me/tokens", None),
        ("POST", "/v1/me/tokens", {"name": "phone"}),
        ("DELETE", "/v1/me/tokens/tok_0123456789abcdef", None),
    ):
        error = await api.call(
            method, path, client["token"], body, expect=403, headers=CLIENT_HEADERS
        )
        assert error["error"]["code"] == "no_tokens_of_its_own"
        error = await api.call(method, path, OPERATOR_TOKEN, body, expect=403)
        assert error["error"]["code"] == "no_tokens_of_its_own"


async def test_a_users_id_is_read_as_utf8_by_the_server_and_sent_so_by_the_client(
    server: Server,
) -> None:
    api = server.api
    client = await api.call("POST", "/v1/clients", OPERATOR_TOKEN, {"name": "bot"}, expect=201)
    game = (await api.new_game(await api.account("Ann"))).id

    def acting(user: bytes) -> dict[bytes, bytes]:
        return {b"Authorization": f"Bearer {client['token']}".encode(), b"X-Acting-User": user}

    # The raw bytes of "José" in UTF-8, without a name: the id names the user too.
    raw = await api.client.post(f"/v1/games/{game}/join", headers=acting("José".encode()))
    assert raw.status_code == 200, raw.text
    me = await api.client.get("/v1/me", headers=acting("José".encode()))
    assert me.json()["client"]["external_id"] == "José"
    assert me.json()["name"] == "José"
    stored = await server.app.state.pool.fetchval(
        "SELECT external_id FROM accounts WHERE client_id = $1", client["client_id"]
    )
    assert stored == "José"
    # The client sends the same bytes: the same user, already seated.
    user = api.as_(client["token"]).using(client["token"], ActingUser("José"))
    with pytest.raises(Conflict) as again:
        await user.join(game)
    assert again.value.code == "already_joined"
    # "é" in Latin-1 is not UTF-8: refused, never read as another user.
    latin = await api.client.post(f"/v1/games/{game}/join", headers=acting(b"Jos\xe9"))
    assert latin.status_code == 401
    assert latin.json()["error"]["code"] == "acting_user_required"


async def test_tokens_are_listed_added_and_revoked(server: Server) -> None:
    api = server.api
    ann, bob = await api.account("Ann"), await api.account("Bob")
    (first,) = (await api.call("GET", "/v1/me/tokens", ann))["tokens"]
    # Ann's token was used by that very call: to the hour, on the server's clock.
    assert first["name"] == "first"
    assert first["created_at"] == first["last_used_at"] == "2030-03-04T08:00:00Z"
    assert set(first) == {"id", "name", "created_at", "last_used_at"}

    server.clock.advance(7200)
    added = await api.call("POST", "/v1/me/tokens", ann, {"name": "phone"}, expect=201)
    assert (added["name"], added["created_at"]) == ("phone", "2030-03-04T10:00:00Z")
    phone = Account(ann.account_id, added["token"], "Ann")
    assert (await _me(api, phone))["account_id"] == ann.account_id
    listed = await api.call("GET", "/v1/me/tokens", ann)
    assert [(t["id"], t["name"]) for t in listed["tokens"]] == [
        (first["id"], "first"),
        (added["id"], "phone"),
    ]
    # The list never shows a token; the first token's use two hours later is noted.
    assert ann.token not in json.dumps(listed)
    assert phone.token not in json.dumps(listed)
    assert listed["tokens"][0]["last_used_at"] == "2030-03-04T10:00:00Z"
    # Within the hour, a use is not written again.
    server.clock.advance(600)
    await _me(api, phone)
    assert (await api.call("GET", "/v1/me/tokens", ann))["tokens"][1]["last_used_at"] == (
        "2030-03-04T10:00:00Z"
    )

    # Bob cannot see or revoke Ann's tokens.
    assert [t["name"] for t in (await api.call("GET", "/v1/me/tokens", bob))["tokens"]] == ["first"]
    error = await api.call("DELETE", f"/v1/me/tokens/{added['id']}", bob, expect=404)
    assert error["error"]["code"] == "token_not_found"

    # Revoked from another device: it stops working at once.
    await api.call("DELETE", f"/v1/me/tokens/{added['id']}", ann, expect=204)
    error = await api.call("GET", "/v1/me", phone, expect=401)
    assert error["error"]["code"] == "bad_token"
    # The last token stays.
    error = await api.call("DELETE", f"/v1/me/tokens/{first['id']}", ann, expect=409)
    assert error["error"]["code"] == "last_token"
    assert (await _me(api, ann))["account_id"] == ann.account_id

    # A token may revoke itself (signing a device out); its answer is the last it gets.
    laptop = await api.call("POST", "/v1/me/tokens", ann, {"name": "laptop"}, expect=201)
    await api.call("DELETE", f"/v1/me/tokens/{laptop['id']}", laptop["token"], expect=204)
    await api.call("GET", "/v1/me", laptop["token"], expect=401)

    error = await api.call("POST", "/v1/me/tokens", ann, {"name": ""}, expect=422)
    assert error["error"]["code"] == "invalid_body"
    error = await api.call("POST", "/v1/me/tokens", ann, {"name": " "}, expect=422)
    assert error["error"]["code"] == "name_empty"
    error = await api.call("POST", "/v1/me/tokens", ann, {}, expect=422)


async def test_an_account_holds_at_most_twenty_tokens(server: Server) -> None:
    api = server.api
    ann = await api.account("Ann")
    for device in range(19):
        await api.call("POST", "/v1/me/tokens", ann, {"name": f"device {device}"}, expect=201)
    error = await api.call("POST", "/v1/me/tokens", ann, {"name": "one more"}, expect=409)
    assert error["error"]["code"] == "too_many_tokens"
    tokens = (await api.call("GET", "/v1/me/tokens", ann))["tokens"]
    assert len(tokens) == 20
    await api.call("DELETE", f"/v1/me/tokens/{tokens[-1]['id']}", ann, expect=204)
    await api.call("POST", "/v1/me/tokens", ann, {"name": "one more"}, expect=201)


async def test_a_token_revoked_through_one_process_fails_at_once_on_the_other(
    schema_url: str,
) -> None:
    async with contextlib.AsyncExitStack() as stack:
        one = await stack.enter_async_context(serving(schema_url))
        two = await stack.enter_async_context(serving(schema_url))
        ann = await one.api.account("Ann")
        added = await one.api.call("POST", "/v1/me/tokens", ann, {"name": "phone"}, expect=201)
        # Used through process two, so that anything it might keep of it is warm.
        for _ in range(3):
            assert (await _me(two.api, added["token"]))["account_id"] == ann.account_id
        await one.api.call("DELETE", f"/v1/me/tokens/{added['id']}", ann, expect=204)
        error = await two.api.call("GET", "/v1/me", added["token"], expect=401)
        assert error["error"]["code"] == "bad_token"
        await two.api.call("GET", "/v1/me", ann)
