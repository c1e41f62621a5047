"""POST /v1/adjudicate with "ruleset": "skor" answers as rules.adjudication does, and a
malformed Skor request is a 422 that says what is wrong."""

import json

from rules.adjudication import adjudicate_json
from tests.api.support import Server

SETUP = {
    "ruleset": "skor",
    "setup": {
        "players": ["red", "blue"],
        "choices": {
            "red": {"culture": "alien", "side": 2},
            "blue": {"culture": "alien", "side": 5},
        },
    },
    "seed": "736b6f722d3237",
}


async def test_a_skor_setup_then_a_turn_over_http(server: Server) -> None:
    body = json.dumps(SETUP).encode()
    response = await server.api.client.post("/v1/adjudicate", content=body)
    assert response.status_code == 200, response.text
    assert response.content == adjudicate_json(body)
    state = response.json()["state"]
    turn = {
        "ruleset": "skor",
        "state": state,
        "rolls": [],
        "actions": [{"player": "red", "text": "move A0 A1"}, {"player": "blue", "action": "end"}],
    }
    played = await server.api.client.post("/v1/adjudicate", json=turn)
    assert played.status_code == 200, played.text
    results = played.json()["results"]
    assert [(r["result"], r.get("reason")) for r in results] == [
        ("ok", None),
        ("refused", "not your turn"),
    ]


async def test_a_malformed_skor_request_is_a_422(server: Server) -> None:
    body = SETUP | {"setup": {"players": ["red", "red"]}}
    response = await server.api.client.post("/v1/adjudicate", json=body)
    assert response.status_code == 422, response.text
    assert "different names" in response.json()["error"]["message"]
