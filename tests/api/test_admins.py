"""A game's admins over HTTP: the list, and the admins a trusted client vouches for."""

from typing import Any

from tests.api.support import OPERATOR_TOKEN, Json, Server


async def test_an_admin_adds_and_removes_admins_and_one_always_stays(server: Server) -> None:
    api = server.api
    ann, bob, cy = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
    game_id = (await api.new_game(ann)).id
    for account in (bob, cy):
        await api.join(game_id, account)
    admins = f"/v1/games/{game_id}/admins"

    refused = await api.call("POST", admins, bob, {"player": "p2"}, expect=403)
    assert refused["error"]["code"] == "admin_only"
    await api.call("POST", admins, ann, {"player": "p1"})
    await api.call("POST", admins, ann, {"account": cy.account_id})
    assert (await api.game(game_id)).admins == (ann.account_id, bob.account_id, cy.account_id)
    await api.call("POST", admins, ann, {"player": "p9"}, expect=404)
    await api.call("POST", admins, ann, {"account": "acct_nobody"}, expect=404)
    refused = await api.call("POST", admins, ann, {"account": cy.account_id}, expect=409)
    assert refused["error"]["code"] == "already_admin"
    both = {"player": "p1", "account": cy.account_id}
    refused = await api.call("POST", admins, ann, both, expect=422)
    assert refused["error"]["code"] == "exactly_one_field"

    # Bob, an admin now, removes Ann and Cy; the last admin stays.
    await api.call("DELETE", f"{admins}/{ann.account_id}", bob)
    await api.call("DELETE", f"{admins}/{cy.account_id}", bob)
    refused = await api.call("DELETE", f"{admins}/{bob.account_id}", bob, expect=409)
    assert refused["error"]["code"] == "last_admin"
    assert "at least one admin" in refused["error"]["message"]
    await api.call("POST", f"/v1/games/{game_id}/start", ann, expect=403)
    assert (await api.game(game_id)).admins == (bob.account_id,)


async def test_a_trusted_client_vouches_for_the_admins_of_its_games(server: Server) -> None:
    api = server.api
    client: Json = await api.call(
        "POST", "/v1/clients", OPERATOR_TOKEN, {"name": "discord-bot"}, expect=201
    )

    def member(user: str, *, admin: bool = False) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {client['token']}", "X-Acting-User": user}
        if admin:
            headers["X-Acting-User-Admin"] = "true"
        return headers

    async def call(method: str, path: str, headers: dict[str, str], **kw: Any) -> Any:
        expect = kw.pop("expect", 200)
        return await api.call(method, path, headers=headers, expect=expect, **kw)

    created = await call(
        "POST", "/v1/games", member("100"), body={"name": "Guild game"}, expect=201
    )
    game_id = created["id"]
    for user in ("1", "2", "3"):
        await call("POST", f"/v1/games/{game_id}/join", member(user))
    # A member the bot vouches for starts the game, though it never was on the list.
    await call("POST", f"/v1/games/{game_id}/start", member("1"), expect=403)
    await call("POST", f"/v1/games/{game_id}/start", member("200", admin=True))
    assert (await api.game(game_id)).phase == "running"
    await call(
        "POST",
        f"/v1/games/{game_id}/start",
        {**member("1"), "X-Acting-User-Admin": "maybe"},
        expect=400,
    )

    # The bot's word counts only for the games set up through it.
    ann = await api.account("Ann")
    elsewhere = (await api.new_game(ann)).id
    await call("POST", f"/v1/games/{elsewhere}/admin/pause", member("200", admin=True), expect=403)
