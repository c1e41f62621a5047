"""POST /v1/adjudicate with `"ruleset": "art-of-war"`: the §8 contract over HTTP answers
the worked examples as the engine does, refuses a malformed request with a 422 that says
why, and /openapi.json documents both games' requests and answers."""

import json
from pathlib import Path
from typing import Any

import pytest

from rules.adjudication import adjudicate_json
from tests.api.support import Server

CASES = Path(__file__).parents[1] / "rules" / "artofwar" / "cases"
CASE = {path.stem: json.loads(path.read_text()) for path in sorted(CASES.glob("*.json"))}
TURNS = {name: case["request"] for name, case in CASE.items() if case["kind"] == "turn"}


@pytest.mark.parametrize("name", list(TURNS)[::4])
async def test_a_worked_example_over_http(server: Server, name: str) -> None:
    request: dict[str, Any] = TURNS[name]
    response = await server.api.client.post("/v1/adjudicate", json=request)
    assert response.status_code == 200, response.text
    assert response.content == adjudicate_json(json.dumps(request))


async def test_a_malformed_request_is_a_422_that_says_why(server: Server) -> None:
    request = dict(TURNS["E06_two_attackers"])
    request["draws"] = request["draws"][:-1]
    response = await server.api.client.post("/v1/adjudicate", json=request)
    assert response.status_code == 422, response.text
    assert response.json()["error"] == {
        "code": "invalid_request",
        "message": "needed 13 draws, got 12",
    }


async def test_openapi_documents_every_game(server: Server) -> None:
    document = (await server.api.client.get("/openapi.json")).json()
    operation = document["paths"]["/v1/adjudicate"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
    for schema in (body, answer):
        names = {option["$ref"].rsplit("/", 1)[1] for option in schema["anyOf"]}
        assert len(names) == 3, names
    schemas = json.dumps(document["components"]["schemas"])
    assert '"art-of-war"' in schemas
    assert '"skor"' in schemas
