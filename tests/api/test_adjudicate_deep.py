"""POST /v1/adjudicate answers positions a thousand decisions deep (it once answered a ring
of 330 moves with a 500), and refuses JSON nested too deeply with a 422."""

import json
from typing import Any

import pytest

from rules.skirmish import adjudicate
from server.http.api import MAX_BODY
from tests.api.support import Server
from tests.rules.deep_shapes import chain, reinforcement_chain, ring, supported_chain

SHAPES = {
    "ring of 1,000 moves": ring(1000, ("red", "blue", "green")),
    "chain of 1,000 moves into a held territory": chain(1000),
    "chain of 500 supported moves": supported_chain(500),
    "chain of 300 reinforcements cutting supports": reinforcement_chain(300),
}


@pytest.mark.parametrize("request_", SHAPES.values(), ids=SHAPES.keys())
async def test_deep_positions_are_adjudicated(server: Server, request_: dict[str, Any]) -> None:
    body = json.dumps(request_, separators=(",", ":")).encode()
    assert len(body) <= MAX_BODY
    response = await server.api.client.post("/v1/adjudicate", content=body)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer == adjudicate(request_)
    assert {o["result"] for o in answer["orders"]} <= {"succeeded", "failed", "cut"}


async def test_a_ring_of_a_thousand_rotates_over_http(server: Server) -> None:
    request_ = SHAPES["ring of 1,000 moves"]
    response = await server.api.client.post("/v1/adjudicate", json=request_)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert {o["result"] for o in answer["orders"]} == {"succeeded"}
    territories, players = list(request_["armies"]), list(request_["armies"].values())
    assert answer["armies"] == {territories[(k + 1) % 1000]: p for k, p in enumerate(players)}


async def test_json_nested_too_deeply_is_a_400(server: Server) -> None:
    """The API's check of every body (duplicate keys, depth) refuses it before the engine
    reads it; the engine itself refuses it too (tests/rules/test_contract.py)."""
    depth = 20_000
    body = b'{"map": {"name": ' + b"[" * depth + b"]" * depth + b'}, "players": {}}'
    response = await server.api.client.post("/v1/adjudicate", content=body)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == {
        "code": "invalid_json",
        "message": "the body is not valid JSON: it is nested too deeply",
    }
