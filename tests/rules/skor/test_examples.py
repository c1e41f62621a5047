"""Every golden case of docs/skor.md in tests/rules/skor/cases/, run through the contract.

A case is one of:
- a dice test vector (`vector`): the seed, first output and die result of one label list;
- a setup (`request`, a literal §8.1 request) or a position (`position`, in the notation of
  tests/rules/skor/positions.py) with `actions` ([player, text or JSON action]) and `rolls`
  or `seed`.
`expect` holds what the example states, each key compared with the response:
`results` ([result] or [result, reason] per result), `pieces` (notation, as a multiset),
`turn`, `tech`, `incoming`, `order_roll`, `players` (subsets of the response's), `structures`
(hex -> [kind, by], or null for none), `ending`, `rolls` and `dice` ([labels, sides, value])
exactly, `events` ([result index, subset of one of its events]), `absent` (keys not in the
response), and `error` (a malformed request: the message's start).
"""

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from rules.adjudication import adjudicate_json
from rules.kit.prng import SeededRandom, derived
from rules.kit.requests import RequestError
from tests.rules.skor.positions import parse_pieces, pieces_of, state_of

CASE_FILES = sorted((Path(__file__).parent / "cases").glob("*.json"))


def _request(case: dict[str, Any]) -> dict[str, Any]:
    if "request" in case:
        request: dict[str, Any] = case["request"]
        return request
    entries = [
        {"player": player, "text": action}
        if isinstance(action, str)
        else {"player": player} | action
        for player, action in case["actions"]
    ]
    request = {"ruleset": "skor", "state": state_of(case["position"]), "actions": entries}
    return request | {key: case[key] for key in ("rolls", "seed") if key in case}


def _subset(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert {key: got.get(key) for key in want} == want


def _vector(vector: dict[str, Any]) -> None:
    secret, labels = bytes.fromhex(vector["secret"]), vector.get("labels", [])
    if "splitmix_seed" in vector:
        first = SeededRandom(vector["splitmix_seed"]).next_u64()
        assert first == int(vector["output"], 16)
        return
    text = "|".join(str(label) for label in labels)
    digest = hashlib.sha256(secret + b"|" + text.encode()).digest()
    if "seed" in vector:
        assert int.from_bytes(digest[:8], "big") == int(vector["seed"], 16)
    if "output" in vector:
        assert derived(secret, *labels).next_u64() == int(vector["output"], 16)
    assert 1 + derived(secret, *labels).below(vector["sides"]) == vector["value"]


def _check(response: dict[str, Any], expect: dict[str, Any]) -> None:
    state = response.get("state", {})
    if "results" in expect:
        got = [[r["result"], r.get("reason")] for r in response["results"]]
        assert [row[: len(want)] for row, want in zip(got, expect["results"], strict=True)] == (
            expect["results"]
        )
    if "pieces" in expect:
        assert pieces_of(state) == parse_pieces(expect["pieces"])
    for key in ("turn", "incoming"):
        if key in expect:
            _subset(state[key], expect[key])
    for player, levels in expect.get("tech", {}).items():
        _subset(state["tech"][player], levels)
    for at, structure in expect.get("structures", {}).items():
        got = state["structures"].get(at)
        assert (None if got is None else [got["kind"], got["by"]]) == structure, at
    if "board" in expect:
        board = {at: [s["kind"], s["by"]] for at, s in state["structures"].items()}
        assert board == expect["board"]
    _subset(
        response, {key: expect[key] for key in ("order_roll", "players", "rolls") if key in expect}
    )
    if "ending" in expect:
        assert state["ending"] == expect["ending"]
    if "dice" in expect:
        assert [[d["labels"], d["sides"], d["value"]] for d in response["dice"]] == expect["dice"]
    for index, event in expect.get("events", []):
        events = response["results"][index]["events"]
        assert any({k: e.get(k) for k in event} == event for e in events), (index, event)
    for key in expect.get("absent", []):
        assert key not in response


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.stem)
def test_case(path: Path) -> None:
    case = json.loads(path.read_text())
    if "vector" in case:
        _vector(case["vector"])
        return
    body = json.dumps(_request(case))
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(RequestError) as raised:
            adjudicate_json(body)
        assert str(raised.value).startswith(expect["error"])
        return
    response = json.loads(adjudicate_json(body))
    _check(response, expect)
    # The same request gives the same answer, bit for bit.
    assert adjudicate_json(body) == adjudicate_json(body.encode())
