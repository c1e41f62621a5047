"""A killed game over HTTP: every operation of /openapi.json on a game answers 410
`game_killed` and declares it, but the text commands, which answer every refusal of the
game as a reply (and do not declare it)."""

from typing import Any

from tests.api.game import ScriptedGame
from tests.api.support import Json, Server

# A body each operation would take on a live game, so that the answer is about the game, not
# the body. An operation that takes a body and is missing here fails the test.
BODIES: dict[tuple[str, str], Json] = {
    ("PUT", "/v1/games/{game}/orders"): {"orders": "A H"},
    ("POST", "/v1/games/{game}/moves"): {"move": "rock"},
    ("POST", "/v1/games/{game}/votes"): {"effect": "STORM"},
    ("POST", "/v1/games/{game}/join-forces"): {"with": "p2"},
    ("POST", "/v1/games/{game}/broadcast"): {"message": "hello"},
    ("PATCH", "/v1/games/{game}/players/me"): {"color": 2},
    ("PATCH", "/v1/games/{game}/settings"): {"fast_mode": False},
    ("POST", "/v1/games/{game}/fork"): {"turn": 1},
    ("POST", "/v1/games/{game}/admin/ban"): {"player": "p2"},
    ("POST", "/v1/games/{game}/admin/unban"): {"player": "p2"},
    ("POST", "/v1/games/{game}/admin/rewind"): {"reason": "why not"},
    ("POST", "/v1/games/{game}/admins"): {"player": "p2"},
    ("PUT", "/v1/games/{game}/webhook"): {"url": "https://example.com/hook"},
    ("POST", "/v1/games/{game}/commands"): {"text": "/help"},
}


async def test_every_operation_on_a_killed_game_answers_410_as_it_declares(
    server: Server,
) -> None:
    game = ScriptedGame(server)
    await game.create()
    await game.join_and_start()
    await game.submit(1)
    await game.resolve()
    await server.api.call("POST", f"/v1/games/{game.game_id}/admin/kill", game.admin)
    schema: Json = (await server.api.client.get("/openapi.json")).json()

    answered: dict[tuple[str, str], tuple[bool, int, Any]] = {}
    for template, operations in schema["paths"].items():
        if "{game}" not in template:
            continue
        for method, operation in operations.items():
            key = (method.upper(), template)
            if "requestBody" in operation and operation["requestBody"].get("required"):
                assert key in BODIES, f"{key} takes a body: give one in BODIES"
            path = (
                template.replace("{game}", game.game_id)
                .replace("{turn}", "1")
                .replace("{account}", game.admin.account_id)
            )
            response = await server.api.client.request(
                key[0], path, headers=game.admin.auth, json=BODIES.get(key)
            )
            answered[key] = ("410" in operation["responses"], response.status_code, response)

    assert len(answered) >= 30
    commands = ("POST", "/v1/games/{game}/commands")
    declared, status, reply = answered.pop(commands)
    assert (declared, status) == (False, 200)
    assert reply.json()["ok"] is False
    assert reply.json()["reply"] == "this game was killed by an admin"
    for key, (declared, status, response) in answered.items():
        assert declared, f"{key} does not declare 410"
        assert status == 410, f"{key}: {status} {response.text}"
        assert response.json()["error"]["code"] == "game_killed"
