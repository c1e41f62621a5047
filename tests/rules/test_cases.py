"""Every golden rule case in tests/rules/cases/, run through the adjudication contract.

A case file holds a `request` (docs/adjudicate.md) and an `expect` object. Each key
present in `expect` is compared with the response:
- `orders`: [player, text, result] or [player, text, result, reason] per submitted order,
  in submission order;
- `armies`, `control`, `vp`, `vp_gained`, `winner`: exactly;
- `farms`, `eliminated`: as sets; `dead`: as a set of [territory, player] pairs.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from rules.skirmish import adjudicate

CASES = Path(__file__).parent / "cases"
CASE_FILES = sorted(CASES.glob("*/*.json"))
EXACT_KEYS = ("armies", "control", "vp", "vp_gained", "winner", "joined")


def _load(path: Path) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text())
    return case


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case(path: Path) -> None:
    case = _load(path)
    response = adjudicate(case["request"])
    expect = case["expect"]
    if "orders" in expect:
        got = [[o["player"], o["text"], o["result"], o.get("reason")] for o in response["orders"]]
        assert [row[: len(want)] for row, want in zip(got, expect["orders"], strict=True)] == (
            expect["orders"]
        )
    for key in EXACT_KEYS:
        if key in expect:
            assert response.get(key) == expect[key], key
    for key in ("farms", "eliminated"):
        if key in expect:
            assert sorted(response[key]) == sorted(expect[key]), key
    if "dead" in expect:
        dead = sorted([d["territory"], d["player"]] for d in response["dead"])
        assert dead == sorted(expect["dead"])


def test_every_case_has_a_source_and_expectations() -> None:
    assert len(CASE_FILES) >= 40
    for path in CASE_FILES:
        case = _load(path)
        assert case.get("source"), path
        assert case.get("expect"), path
        assert set(case) <= {"source", "description", "request", "expect"}, path
