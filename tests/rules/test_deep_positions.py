"""Positions whose decisions depend on one another a thousand deep are adjudicated like
small ones: the resolver has no depth limit (it once recursed once per move of a ring)."""

from typing import Any

import pytest

from rules.skirmish import adjudicate
from tests.rules.deep_shapes import chain, ids, reinforcement_chain, ring, supported_chain

DEEP = 1000


def _results(response: dict[str, Any]) -> set[str]:
    return {order["result"] for order in response["orders"]}


@pytest.mark.parametrize("players", [("red",), ("red", "blue"), ("red", "blue", "green")])
def test_a_ring_of_a_thousand_moves_rotates(players: tuple[str, ...]) -> None:
    request = ring(DEEP, players)
    response = adjudicate(request)
    assert len(response["orders"]) == DEEP
    assert _results(response) == {"succeeded"}
    territories = list(request["armies"])
    moved = {territories[(k + 1) % DEEP]: p for k, p in enumerate(request["armies"].values())}
    assert response["armies"] == moved
    assert response["dead"] == []


def test_a_ring_with_one_move_bounced_stands_still() -> None:
    """A second army attacks one territory of the ring with equal strength: the two moves
    into it bounce, and so does every move behind them, all the way round."""
    request = ring(DEEP - 1, ("red", "blue"))  # and the attacker's territory: 1,000
    ring_ids = list(request["armies"])
    outsider = ids(DEEP)[-1]
    request["map"]["territories"].append({"id": outsider, "name": outsider})
    request["map"]["edges"].append([outsider, ring_ids[1]])
    request["players"]["black"] = {}
    request["armies"][outsider] = "black"
    request["orders"]["black"] = [f"{outsider} > {ring_ids[1]}"]
    response = adjudicate(request)
    assert _results(response) == {"failed"}
    assert response["armies"] == request["armies"]


def test_a_chain_of_a_thousand_moves_into_a_held_territory_bonks() -> None:
    request = chain(DEEP)
    response = adjudicate(request)
    assert len(response["orders"]) == DEEP - 1
    assert _results(response) == {"failed"}
    assert response["armies"] == request["armies"]
    assert response["dead"] == []


def test_a_long_chain_of_supported_moves_pushes_the_end_out() -> None:
    request = supported_chain(DEEP // 2)  # two territories per link (a map holds 1,000)
    response = adjudicate(request)
    assert _results(response) == {"succeeded"}
    line = [t for t, p in request["armies"].items() if p != "green"]
    assert response["dead"] == [{"territory": line[-1], "player": request["armies"][line[-1]]}]
    for k in range(len(line) - 1):
        assert response["armies"][line[k + 1]] == request["armies"][line[k]]
    assert line[0] not in response["armies"]


def test_a_chain_of_reinforcements_each_cutting_a_support_arrives_whole() -> None:
    length = DEEP // 2  # two territories per link, and a map holds at most 1,000
    request = reinforcement_chain(length)
    response = adjudicate(request)
    results = {(o["player"], o["kind"]): o["result"] for o in response["orders"]}
    assert {r for (p, kind), r in results.items() if kind == "reinforce"} == {"succeeded"}
    assert results["guard", "support"] == "cut"
    assert sorted((d["territory"], d["player"]) for d in response["dead"]) == sorted(
        (t, "guard") for t, p in request["armies"].items() if p == "guard"
    )
    for territory, player in request["control"].items():
        assert response["armies"][territory] == player
