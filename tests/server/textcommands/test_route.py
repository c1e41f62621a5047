"""The two command routes over HTTP: authentication and bodies stay HTTP errors, the game's
refusals are replies; a trusted client's users; the OpenAPI schema."""

import httpx
import pytest

from tests.server.textcommands.bot import OPERATOR_TOKEN, table


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("path", ["/v1/commands", "/v1/games/abc123/commands"])
async def test_authentication_problems_are_401(schema_url: str, path: str) -> None:
    async with table(schema_url) as t:
        anonymous = await t.client.post(path, json={"text": "/help"})
        wrong = await t.client.post(path, json={"text": "/help"}, headers=bearer("nope"))
        client = await t.client.post(
            "/v1/clients", json={"name": "bot"}, headers=bearer(OPERATOR_TOKEN)
        )
        nobody = await t.client.post(
            path, json={"text": "/help"}, headers=bearer(client.json()["token"])
        )
    assert anonymous.status_code == 401
    assert anonymous.json()["error"]["code"] == "token_required"
    assert wrong.status_code == 401
    assert nobody.status_code == 401
    assert nobody.json()["error"]["code"] == "acting_user_required"


@pytest.mark.parametrize(
    ("content", "status", "code"),
    [
        (b"", 400, "empty_body"),
        (b"/help", 400, "invalid_json"),
        (b"{}", 422, "invalid_body"),
        (b'{"text": 5}', 422, "invalid_body"),
        (b'{"text": "/help", "extra": 1}', 422, "invalid_body"),
        (b'{"text": "/help"' + b" " * 70_000 + b"}", 413, "body_too_large"),
    ],
)
async def test_malformed_bodies_are_http_errors(
    schema_url: str, content: bytes, status: int, code: str
) -> None:
    async with table(schema_url) as t:
        ann = await t.person("Ann")
        response = await t.client.post(
            "/v1/games/abc123/commands",
            content=content,
            headers={**bearer(ann.token), "Content-Type": "application/json"},
        )
    assert response.status_code == status
    assert response.json()["error"]["code"] == code


async def test_refusals_unknown_commands_and_missing_games_are_replies(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann = await t.person("Ann")
        missing = await ann.say("/help", game="abc123")
        unknown = await ann.say("/lsit", game="abc123")
        assert (missing.ok, missing.reply, missing.result) == (False, "no such game", None)
        assert not unknown.ok
        assert unknown.reply.split("\n")[:2] == ["Unknown command: /lsit.", "Did you mean /list?"]
        bad_path = await t.client.post(
            "/v1/games/not a game!/commands", json={"text": "/help"}, headers=bearer(ann.token)
        )
        assert bad_path.status_code == 422


async def test_without_a_game(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann = await t.person("Ann")
        helped = await ann.ok("/help")
        assert helped.reply.startswith("Skirmish Society: a game of territory and diplomacy")
        assert helped.result is None
        needs = await ann.refused("/submit BL H")
        assert needs.reply.startswith("/submit is played in a game")
        assert (await ann.refused("/start")).reply.startswith("/start is played in a game")
        assert (await ann.ok("/hint")).reply
        refused = await ann.refused('/advanced_setup vp=51 name="Too far"')
        assert refused.reply == "vp_target must be between 1 and 50, not 51"
        created = await ann.ok("/advanced_setup vp=15 current_hour=2PM resolution_hour=9PM")
        assert created.result is not None
        settings = created.result["settings"]
        # 08:00 UTC on the fake clock, 2PM where Ann is: UTC+6.
        assert (settings["vp_target"], settings["utc_offset"], settings["resolution_hour"]) == (
            15,
            6,
            21,
        )
        listed = await t.client.get(f"/v1/games/{created.result['id']}")
        assert listed.json()["name"] == "Skirmish Society"


async def test_a_trusted_clients_users_by_mention_and_current_name(schema_url: str) -> None:
    async with table(schema_url) as t:
        made = await t.client.post(
            "/v1/clients", json={"name": "discord"}, headers=bearer(OPERATOR_TOKEN)
        )
        token = made.json()["token"]

        async def say(user: str, name: str, text: str, game: str | None = None) -> httpx.Response:
            path = "/v1/commands" if game is None else f"/v1/games/{game}/commands"
            return await t.client.post(
                path,
                json={"text": text},
                headers={**bearer(token), "X-Acting-User": user, "X-Acting-User-Name": name},
            )

        created = (await say("100", "Ann", "/setup")).json()
        game = created["result"]["id"]
        for user, name in (("100", "Ann"), ("200", "Bob"), ("300", "Cy")):
            joined = (await say(user, name, "/join", game)).json()
            assert joined["reply"].startswith(f"{name} joined")
        await say("100", "Ann", "/start", game)
        # Bob's Discord nickname changed: /refresh_name takes the one the bot sends now.
        renamed = (await say("200", "Bobby", "/refresh_name", game)).json()
        assert renamed["reply"] == "Bob is now called Bobby on the map."
        asked = (await say("200", "Bobby", "/join_forces <@300>", game)).json()
        assert asked["reply"].startswith("together Bobby and Cy would control 6 territories")
        stranger = (await say("200", "Bobby", "/join_forces <@999>", game)).json()
        assert stranger["reply"] == "the player you mentioned is not in this game"
        banned = (await say("100", "Ann", "/ban <@!300>", game)).json()
        assert banned["reply"].startswith("Cy is banned")


async def test_a_person_with_a_bearer_token_cannot_mention(schema_url: str) -> None:
    async with table(schema_url) as t:
        ann, bob, cy = [await t.person(name) for name in ("Ann", "Bob", "Cy")]
        await t.game(ann, [ann, bob, cy], "/setup")
        refused = await ann.refused("/ban <@123>")
        assert refused.reply == "the player you mentioned is not in this game"


async def test_the_openapi_schema_documents_both_routes(schema_url: str) -> None:
    async with table(schema_url) as t:
        schema = (await t.client.get("/openapi.json")).json()
    for path in ("/v1/commands", "/v1/games/{game}/commands"):
        post = schema["paths"][path]["post"]
        body = post["requestBody"]["content"]["application/json"]["schema"]
        assert body == {"$ref": "#/components/schemas/CommandBody"}
        ok = post["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok == {"$ref": "#/components/schemas/CommandReply"}
        assert "401" in post["responses"]
    assert set(schema["components"]["schemas"]["CommandReply"]["properties"]) == {
        "reply",
        "ok",
        "result",
    }
