"""Every worked example of the Art of War (docs/art-of-war.md, E1 to E18), one data file each
in cases/, run by one parametrized test. A file's `kind` says what it holds:
- `turn`: a §8 `request` run through the contract; each key of `expect` must equal the
  response's, and `results` lists [text, result, survivors or reason] per order line;
- `setup`: starting positions from a raw setup seed;
- `treaty`: rows of surviving and eliminated players' stances and the ending they sign;
- `stances`: a sequence of changes in a binding game, each accepted or refused with a reason.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from rules.adjudication import adjudicate_json
from rules.artofwar.diplomacy import Stance, StanceRefused, change_stance
from rules.artofwar.maps import builtin_board
from rules.artofwar.options import Options
from rules.artofwar.setup import setup
from rules.kit.prng import SeededRandom

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_example(path: Path) -> None:
    case: dict[str, Any] = json.loads(path.read_text())
    match case["kind"]:
        case "turn":
            _turn(case)
        case "setup":
            _setup(case)
        case "treaty":
            _treaty(case)
        case "stances":
            _stances(case)
        case other:
            pytest.fail(f"unknown kind of case: {other}")


def _turn(case: dict[str, Any]) -> None:
    response = json.loads(adjudicate_json(json.dumps(case["request"])))
    for key, expected in case["expect"].items():
        assert response[key] == expected, key
    if "results" in case:
        got = [
            [o["text"], o["result"], o.get("reason", o.get("survivors"))]
            for o in response["orders"]
        ]
        assert got == case["results"]
    # The top-level draws are the concatenation of every record's draws (§8).
    parts = [d for s in response["skirmishes"] for side in s["between"] for d in s["draws"][side]]
    for battle in response["battles"]:
        parts += [d for g in battle["groups"] for d in g["draws"]]
        parts += [d for g in battle["groups"] for d in g["defender_draws"]]
    ties = [b["advance"]["tie"]["draw"] for b in response["battles"] if _tied(b)]
    assert response["draws"] == parts + ties


def _tied(battle: dict[str, Any]) -> bool:
    return battle["advance"] is not None and "tie" in battle["advance"]


def _setup(case: dict[str, Any]) -> None:
    board = builtin_board("aow-mini")
    seed = int(case["seed"], 16)
    assert SeededRandom(seed).shuffled(board.ids) == case["shuffled"]
    for expected in case["cases"]:
        options = Options(
            initial=expected["initial"],
            independents=expected["independents"],
            placement=expected["placement"],
        )
        state = setup(board, case["seats"], options, SeededRandom(seed))
        assert state.owners == expected["owners"]
        assert state.units == expected["units"]
        assert state.pending_builds == expected["pending_builds"]


def _treaty(case: dict[str, Any]) -> None:
    for row in case["rows"]:
        players, owners = {}, {}
        for i, (kind, *rest) in enumerate(row["stances"]):
            name = f"p{i}"
            entry: dict[str, Any] = {"stance": kind}
            if rest and rest[0] is not None:
                entry["draw_max"] = rest[0]
            if rest[1:]:
                entry["status"] = rest[1]
            else:
                owners[board_ids[i]] = name
            players[name] = entry
        request = {
            "ruleset": "art-of-war",
            "map": "aow-mini",
            "players": players,
            "owners": owners,
            "units": dict.fromkeys(owners, 1),
            "draws": [],
        }
        response = json.loads(adjudicate_json(json.dumps(request)))
        assert response["treaty"] == row["ending"], row["case"]
        if row["ending"] is not None:
            assert response["ending"] == row["ending"]


board_ids = builtin_board("aow-mini").ids


def _stances(case: dict[str, Any]) -> None:
    current = Stance()
    for (kind, *rest), outcome in case["binding"]:
        wanted = Stance(kind, rest[0] if rest else None)
        # A free game accepts every change.
        assert change_stance(current, wanted, binding=False) == wanted
        if outcome is True:
            current = change_stance(current, wanted, binding=True)
        else:
            with pytest.raises(StanceRefused) as refused:
                change_stance(current, wanted, binding=True)
            assert str(refused.value) == outcome
