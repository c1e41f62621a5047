"""One what-if for every game: a request names its game by `ruleset` (rules/adjudication.py)."""

import json

import pytest

from rules.adjudication import RequestError, adjudicate_json, contracts

TURN = {"map": "rulebook", "players": {"a": {}, "b": {}, "c": {}}, "orders": {}}


def test_a_request_without_a_ruleset_is_skirmish_societys() -> None:
    named = adjudicate_json(json.dumps(TURN | {"ruleset": "skirmish-society"}))
    assert adjudicate_json(json.dumps(TURN)) == named
    assert json.loads(named)["winner"] is None


def test_an_unknown_ruleset_is_refused_with_the_known_ones() -> None:
    with pytest.raises(RequestError, match=r"no ruleset named 'chess'.*skirmish-society"):
        adjudicate_json(json.dumps(TURN | {"ruleset": "chess"}))


@pytest.mark.parametrize("body", [b"[1]", b"{", b'{"ruleset": 3}'])
def test_malformed_requests_say_what_is_wrong(body: bytes) -> None:
    with pytest.raises(RequestError):
        adjudicate_json(body)


def test_every_contract_refuses_what_it_cannot_read() -> None:
    for name, contract in contracts().items():
        with pytest.raises(RequestError):
            contract(json.dumps({"ruleset": name}))
