"""The Art of War's §8 contract at its edges: every malformed request is refused with a
one-line reason (never a crash), through the Python entry and `skirmish adjudicate`; the
command line answers like the Python entry."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.adjudication import adjudicate_json
from rules.kit.requests import RequestError

SKIRMISH = Path(sys.executable).parent / "skirmish"
CASES = Path(__file__).parent / "cases"
E6: dict[str, Any] = json.loads((CASES / "E06_two_attackers.json").read_text())
REQUEST: dict[str, Any] = E6["request"]

MALFORMED: list[tuple[str, dict[str, Any], str]] = [
    ("unknown territory", {"units": {"ZZ": 1}}, "no such territory on the map: 'ZZ'"),
    ("unknown owner", {"owners": {"CO": "pink"}}, "CO is owned by an unknown player"),
    ("negative units", {"units": {"CO": -1}}, "negative units in CO"),
    ("eliminated owner", {"owners": {"CO": "grey"}}, "an eliminated player owns CO: grey"),
    ("pending, automatic", {"pending_builds": {"red": 2}}, "pending_builds needs free placement"),
    ("seed and draws", {"seed": "6f264513fb5abc65"}, "give exactly one of seed and draws"),
    ("a bad seed", {"draws": None, "seed": "xyz"}, "the seed is 16 hex digits"),
    ("a draw of 1", {"draws": [1.0]}, r"every draw is a number in \[0, 1\)"),
    ("a draw short", {"draws": REQUEST["draws"][:-1]}, "needed 13 draws, got 12"),
    ("orders of nobody", {"orders": {"pink": ["CO 1 to BR"]}}, "orders of an unknown player"),
    ("unknown map", {"map": "atlantis"}, "unknown map: 'atlantis'"),
    ("bad inline map", {"map": {"territories": [], "edges": []}}, "at least one territory"),
    (
        "order word in a name",
        {"map": {"territories": [{"id": "A", "name": "To Be", "population": 1}], "edges": []}},
        "may not contain the word 'to'",
    ),
    ("draw_max without a draw", {"players": {"red": {"draw_max": 3}}}, "draw_max goes with"),
    (
        "draw_max past 20",
        {"players": {"red": {"stance": "draw", "draw_max": 21}}},
        "draw_max goes with a draw, and is 2 to 20",
    ),
    ("unknown field", {"armies": {}}, "malformed request"),
    ("too many units", {"units": {"CO": 100_001}}, "at most 100000 units"),
]


@pytest.mark.parametrize(
    ("changes", "words"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_a_malformed_request_says_what_is_wrong(changes: dict[str, Any], words: str) -> None:
    request = REQUEST | changes
    with pytest.raises(RequestError, match=words):
        adjudicate_json(json.dumps(request))


def test_extra_draws_are_reported_unused() -> None:
    answer = json.loads(adjudicate_json(json.dumps(REQUEST | {"draws": REQUEST["draws"] + [0.5]})))
    assert answer["draws_unused"] == 1
    assert answer["draws"] == REQUEST["draws"]


def test_orders_as_objects_are_their_text() -> None:
    request = json.loads((CASES / "E17_free_placement.json").read_text())["request"]
    objects = {
        "red": [
            {"kind": "place", "territory": "AK", "units": 2},
            {"kind": "place", "territory": "US", "units": 1},
            {"kind": "move", "from": "AK", "to": "CA", "units": 3},
        ],
        "blue": [{"kind": "place", "territory": "CA", "units": 1}, {"kind": "hold", "from": "CA"}],
    }
    texts = {"red": request["orders"]["red"], "blue": ["place 1 CA", "CA hold"]}
    as_objects = adjudicate_json(json.dumps(request | {"orders": objects}))
    assert as_objects == adjudicate_json(json.dumps(request | {"orders": texts}))
    sneaky = {"red": [{"kind": "hold", "from": "AK, AK 1 to CA"}]}
    with pytest.raises(RequestError, match="has a ',' or a new line"):
        adjudicate_json(json.dumps(request | {"orders": sneaky}))


def run_cli(stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(SKIRMISH), "adjudicate"], input=stdin, capture_output=True, timeout=60, check=False
    )


def test_the_command_line_answers_like_the_python_entry() -> None:
    for name in ("E06_two_attackers", "E18_end_to_end_from_a_seed"):
        request = json.loads((CASES / f"{name}.json").read_text())["request"]
        result = run_cli(json.dumps(request).encode())
        assert result.returncode == 0, result.stderr
        assert result.stdout == adjudicate_json(json.dumps(request)) + b"\n"


def test_the_command_line_refuses_a_malformed_request_in_one_line() -> None:
    result = run_cli(json.dumps(REQUEST | {"units": {"CO": -1}}).encode())
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr == b"error: negative units in CO\n"
