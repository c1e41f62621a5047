"""The adjudication contract (shared/spec/adjudicate.md) at its three entry points:
`rules.adjudicate(dict)`, `rules.adjudicate_json(bytes)` and `skirmish adjudicate`.

They give identical answers; a malformed request is refused by each of them (RequestError,
or exit status 2 with one line on standard error), while invalid orders are a normal answer.
"""

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.skirmish import RequestError, adjudicate, adjudicate_json

SKIRMISH = Path(sys.executable).parent / "skirmish"
CASE_FILES = sorted((Path(__file__).parent / "cases").glob("*/*.json"))
RESPONSE_KEYS = {
    "orders",
    "armies",
    "control",
    "farms",
    "dead",
    "vp",
    "vp_gained",
    "eliminated",
    "winner",
}

# The example request of adjudicate.md, as written there.
EXAMPLE_REQUEST: dict[str, Any] = {
    "map": "rulebook",
    "players": {"red": {"vp": 0}, "blue": {"vp": 3}},
    "armies": {"SI": "red", "FI": "red", "RG": "blue", "OG": "blue"},
    "control": {"MA": "red"},
    "farms": ["EH"],
    "orders": {"red": ["SI H", "FI S SI"], "blue": ["RG to SI, OG S RG to SI"]},
    "effect": None,
}


def run_cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(SKIRMISH), "adjudicate", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )


def encode(request: dict[str, Any]) -> bytes:
    return json.dumps(request).encode()


# The example of adjudicate.md.


def test_the_example_request_follows_the_rulebook() -> None:
    # The example response in adjudicate.md is illustrative only: by Support Example 2 of
    # the rulebook, Filp's support holds Simm at 2 against an attack of 2, so RG to SI fails.
    assert adjudicate(EXAMPLE_REQUEST) == {
        "orders": [
            {
                "player": "red",
                "text": "SI H",
                "unit": "SI",
                "kind": "hold",
                "result": "succeeded",
            },
            {
                "player": "red",
                "text": "FI S SI",
                "unit": "FI",
                "kind": "support",
                "target": "SI",
                "supported_from": "SI",
                "result": "succeeded",
            },
            {
                "player": "blue",
                "text": "RG to SI",
                "unit": "RG",
                "kind": "move",
                "target": "SI",
                "result": "failed",
            },
            {
                "player": "blue",
                "text": "OG S RG to SI",
                "unit": "OG",
                "kind": "support",
                "target": "SI",
                "supported_from": "RG",
                "result": "succeeded",
            },
        ],
        "armies": {"SI": "red", "FI": "red", "RG": "blue", "OG": "blue"},
        "control": {"SI": "red", "FI": "red", "RG": "blue", "OG": "blue", "MA": "red"},
        "farms": ["EH"],
        "dead": [],
        "vp": {"red": 0, "blue": 3},
        "vp_gained": {"red": 0, "blue": 0},
        "eliminated": [],
        "winner": None,
    }


def test_adjudicate_does_not_touch_the_request() -> None:
    request = copy.deepcopy(EXAMPLE_REQUEST)
    adjudicate(request)
    assert request == EXAMPLE_REQUEST


# The Python entry and the bytes entry agree.


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_dict_and_json_entries_give_identical_answers(path: Path) -> None:
    request = json.loads(path.read_text())["request"]
    answer = adjudicate(request)
    assert set(answer) == RESPONSE_KEYS or set(answer) == RESPONSE_KEYS | {"joined"}
    assert json.loads(adjudicate_json(encode(request))) == answer
    assert json.loads(adjudicate_json(json.dumps(request))) == answer


def test_there_are_cases_to_compare() -> None:
    assert len(CASE_FILES) >= 100


# The command line.


def test_the_console_script_exists() -> None:
    assert SKIRMISH.is_file(), f"{SKIRMISH} missing: run pip install -e '.[test]'"


def test_file_dash_and_stdin_print_the_same_answer(tmp_path: Path) -> None:
    body = encode({**EXAMPLE_REQUEST, "orders": {"red": ["SI H, XX to YY", "FI S SI"]}})
    request_file = tmp_path / "request.json"
    request_file.write_bytes(body)
    expected = adjudicate_json(body) + b"\n"

    from_file = run_cli(str(request_file))
    from_dash = run_cli("-", stdin=body)
    from_stdin = run_cli(stdin=body)
    for result in (from_file, from_dash, from_stdin):
        assert (result.returncode, result.stderr) == (0, b"")
        assert result.stdout == expected
    answer = json.loads(expected)
    # Invalid orders do not make a request malformed.
    assert [o["result"] for o in answer["orders"]] == ["succeeded", "invalid", "succeeded"]


def test_cli_answers_every_golden_case_like_the_python_entry(tmp_path: Path) -> None:
    # One process for many requests would hide nothing: run a handful through the real
    # script, from different case folders.
    chosen = [p for p in CASE_FILES if p.stem in ("support_example_2", "6_E_15", "rotation")]
    assert len(chosen) == 3
    for path in chosen:
        request = json.loads(path.read_text())["request"]
        result = run_cli(stdin=encode(request))
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == adjudicate(request)


def test_cli_reports_a_missing_file(tmp_path: Path) -> None:
    result = run_cli(str(tmp_path / "missing.json"))
    assert result.returncode == 2
    assert result.stdout == b""
    message = result.stderr.decode()
    assert message.endswith("\n")
    assert message.count("\n") == 1
    assert "missing.json" in message


# Malformed requests.


def _with(**changes: Any) -> dict[str, Any]:
    request = copy.deepcopy(EXAMPLE_REQUEST)
    request.update(changes)
    return request


def _without(key: str) -> dict[str, Any]:
    request = copy.deepcopy(EXAMPLE_REQUEST)
    del request[key]
    return request


BAD_INLINE_MAP = {
    "name": "broken",
    "territories": [{"id": "AA", "name": "Aa", "barracks": False}],
    "edges": [["AA", "BB"]],
}
KEYWORD_MAP = {
    "name": "keywords",
    "territories": [{"id": "TO", "name": "Toward", "barracks": False}],
    "edges": [],
}

# (id, request, words the error message must contain)
MALFORMED: list[tuple[str, dict[str, Any], str]] = [
    ("unknown map", _with(map="nowhere"), "nowhere"),
    ("army on missing territory", _with(armies={"XX": "red"}), "XX"),
    ("army of unknown player", _with(armies={"SI": "green"}), "green"),
    ("orders of unknown player", _with(orders={"green": ["SI H"]}), "green"),
    ("control of missing territory", _with(control={"XX": "red"}), "XX"),
    ("control by unknown player", _with(control={"MA": "green"}), "green"),
    ("unknown effect", _with(effect="EARTHQUAKE"), "EARTHQUAKE"),
    ("unknown field", _with(colour="red"), "colour"),
    ("unknown player field", _with(players={"red": {"vp": 0, "colour": "red"}}), "colour"),
    ("missing players", _without("players"), "players"),
    ("players as a list", _with(players=["red", "blue"]), "players"),
    ("army owner not a string", _with(armies={"SI": 3}), "armies"),
    ("vp not a number", _with(players={"red": {"vp": "three"}, "blue": {"vp": 3}}), "vp"),
    ("orders not a list", _with(orders={"red": "SI H"}), "orders"),
    ("effect not a string", _with(effect=5), "effect"),
    ("map not a name or object", _with(map=5), "map"),
    ("farm on a non-barracks", _with(farms=["SI"]), "SI"),
    ("farm on missing territory", _with(farms=["XX"]), "XX"),
    ("order text too long", _with(orders={"red": ["SI H, " * 20_000]}), "too long"),
    ("inline map with unknown edge", _with(map=BAD_INLINE_MAP, armies={}, control={}), "BB"),
    ("inline map with keyword id", _with(map=KEYWORD_MAP, armies={}, control={}), "TO"),
    ("vp target below one", _with(vp_target=0), "vp_target"),
    ("resigned unknown player", _with(resigned=["green"]), "green"),
]
MALFORMED_IDS = [name for name, _, _ in MALFORMED]

BAD_JSON = [
    pytest.param(b"", id="empty"),
    pytest.param(b'{"map": "rulebook", "players": {', id="truncated"),
    pytest.param(b"map = rulebook", id="not json"),
    pytest.param(b'{"map": "rulebook", "players": {},}', id="trailing comma"),
    pytest.param(b'[{"map": "rulebook"}]', id="top level list"),
    pytest.param(b'"rulebook"', id="top level string"),
    pytest.param(b'{"map": "\xff\xfe"}', id="not utf-8"),
    pytest.param(
        b'{"map": {"name": ' + b"[" * 5000 + b"]" * 5000 + b'}, "players": {}}',
        id="nested too deeply",
    ),
]


def assert_one_line_error(result: subprocess.CompletedProcess[bytes]) -> str:
    assert result.returncode == 2
    assert result.stdout == b""
    message = result.stderr.decode()
    assert message.startswith("error: ")
    assert message.endswith("\n")
    assert message.count("\n") == 1
    return message


@pytest.mark.parametrize(("name", "request_", "words"), MALFORMED, ids=MALFORMED_IDS)
def test_malformed_request_is_refused_everywhere(
    name: str, request_: dict[str, Any], words: str
) -> None:
    with pytest.raises(RequestError) as from_dict:
        adjudicate(request_)
    with pytest.raises(RequestError) as from_json:
        adjudicate_json(encode(request_))
    for error in (from_dict.value, from_json.value):
        assert "\n" not in str(error)
        assert words in str(error)
    message = assert_one_line_error(run_cli(stdin=encode(request_)))
    assert words in message


@pytest.mark.parametrize("body", BAD_JSON)
def test_bad_json_is_refused(body: bytes) -> None:
    with pytest.raises(RequestError) as error:
        adjudicate_json(body)
    assert "\n" not in str(error.value)
    assert_one_line_error(run_cli("-", stdin=body))


def test_a_deeply_nested_inline_map_is_refused() -> None:
    nested: list[Any] = []
    for _ in range(5000):
        nested = [nested]
    with pytest.raises(RequestError, match="invalid map"):
        adjudicate({"map": {"name": "deep", "territories": nested, "edges": []}, "players": {}})


def test_the_request_error_is_a_value_error() -> None:
    # Callers that only know ValueError still catch it.
    with pytest.raises(ValueError, match="nowhere"):
        adjudicate(_with(map="nowhere"))


def test_order_text_just_within_the_limit_is_accepted() -> None:
    text = "SI H, " * 16_000  # 96,000 characters
    answer = adjudicate(_with(orders={"red": [text]}))
    assert len(answer["orders"]) == 16_000
    assert {o["result"] for o in answer["orders"]} == {"succeeded", "replaced"}


# Inline maps.

TRIANGLE: dict[str, Any] = {
    "name": "triangle",
    "territories": [
        {"id": "AA", "name": "Alba", "barracks": True},
        {"id": "BB", "name": "Bera", "barracks": False},
        {"id": "CC", "name": "Cora", "barracks": False},
        {"id": "DD", "name": "Dune", "barracks": False},
    ],
    "edges": [["AA", "BB"], ["BB", "CC"], ["CC", "AA"]],
    "overseas": [["CC", "DD"]],
}


def test_inline_map() -> None:
    request = {
        "map": TRIANGLE,
        "players": {"red": {"vp": 0}, "blue": {"vp": 0}},
        "armies": {"AA": "red", "CC": "red", "BB": "blue"},
        "orders": {"red": ["Alba to Bera", "CC S AA to BB"], "blue": ["BB H"]},
    }
    answer = adjudicate(request)
    assert [o["result"] for o in answer["orders"]] == ["succeeded", "succeeded", "failed"]
    assert answer["armies"] == {"BB": "red", "CC": "red"}
    assert answer["dead"] == [{"territory": "BB", "player": "blue"}]
    assert answer["control"] == {"AA": "red", "BB": "red", "CC": "red"}
    assert json.loads(adjudicate_json(encode(request))) == answer


def test_inline_map_overseas_links_close_in_a_storm() -> None:
    request = {
        "map": TRIANGLE,
        "players": {"red": {"vp": 0}},
        "armies": {"CC": "red"},
        "orders": {"red": ["CC to DD"]},
    }
    assert adjudicate(request)["armies"] == {"DD": "red"}
    stormy = adjudicate({**request, "effect": "STORM"})
    assert stormy["orders"][0]["result"] == "invalid"
    assert stormy["armies"] == {"CC": "red"}


def test_inline_map_is_checked_against_its_own_territories() -> None:
    request = {
        "map": TRIANGLE,
        "players": {"red": {"vp": 0}},
        "armies": {"SI": "red"},  # a rulebook territory, not on this map
    }
    with pytest.raises(RequestError, match="SI"):
        adjudicate(request)


# Explanations.


def test_explain_adds_an_explanation_to_each_resolved_order() -> None:
    request = _with(
        orders={
            "red": ["SI H", "FI S SI", "FI to XX", "SI B"],
            "blue": ["RG H", "RG to SI", "OG S RG to SI", "MA to FI"],
        },
        armies={"SI": "red", "FI": "red", "RG": "blue", "OG": "blue", "MA": "blue"},
        control={},
        explain=True,
    )
    answer = adjudicate(request)
    by_text = {o["text"]: o for o in answer["orders"]}
    results = {text: o["result"] for text, o in by_text.items()}
    assert results == {
        "SI H": "failed",
        "FI S SI": "cut",
        "FI to XX": "invalid",
        "SI B": "invalid",
        "RG H": "replaced",
        "RG to SI": "succeeded",
        "OG S RG to SI": "succeeded",
        "MA to FI": "failed",
    }
    for order in answer["orders"]:
        if order["result"] in ("invalid", "replaced"):
            assert "explanation" not in order
        else:
            assert order["explanation"]["why"]
    assert by_text["RG to SI"]["explanation"] == {
        "why": "attack 2 beat the hold of SI (1)",
        "attack": 2,
        "defence": 1,
    }
    assert by_text["SI H"]["explanation"]["hold"] == 1
    assert by_text["SI H"]["explanation"]["strongest_attack"] == 2
    assert by_text["SI H"]["explanation"]["attacked_from"] == "RG"
    assert by_text["FI S SI"]["explanation"]["cut_by"] == "MA"
    assert by_text["MA to FI"]["explanation"]["attack"] == 1
    assert by_text["MA to FI"]["explanation"]["defence"] == 1

    # Explaining changes nothing else.
    plain = adjudicate({**request, "explain": False})
    for order in answer["orders"]:
        order.pop("explanation", None)
    assert answer == plain
    assert all("explanation" not in o for o in plain["orders"])


def test_explanation_of_a_tie() -> None:
    answer = adjudicate({**EXAMPLE_REQUEST, "explain": True})
    move = answer["orders"][2]
    assert move["text"] == "RG to SI"
    assert move["explanation"]["attack"] == move["explanation"]["defence"] == 2
    hold = answer["orders"][0]
    assert hold["explanation"]["hold"] == hold["explanation"]["strongest_attack"] == 2
    assert json.loads(adjudicate_json(encode({**EXAMPLE_REQUEST, "explain": True}))) == answer


@pytest.mark.parametrize(
    "request_",
    [
        {
            "map": {
                "name": "x",
                "territories": [{"id": "AB", "name": "Ab", "x": 2**70}],
                "edges": [],
            }
        },
        {"map": {"name": "x", "territories": [{"id": "AB", "name": "Ab"}], "edges": [[2**70, 1]]}},
        {"map": "rulebook", "vp_target": 2**70},
        {"map": "rulebook", "players": {"a": {"vp": -(2**70)}}},
    ],
)
def test_numbers_beyond_64_bits_get_an_answer_or_a_clear_refusal(request_: dict[str, Any]) -> None:
    request_ = {"players": {}, **request_}
    for entry in (adjudicate, lambda r: adjudicate_json(json.dumps(r).encode())):
        outcome = _answer_or_refusal(entry, request_)
        assert outcome == "answered" or (outcome.startswith("refused: ") and len(outcome) > 20)


def _answer_or_refusal(entry: Callable[[dict[str, Any]], object], request_: dict[str, Any]) -> str:
    """Anything but RequestError propagates and fails the test."""
    try:
        entry(request_)
    except RequestError as error:
        return f"refused: {error}"
    return "answered"
