"""`skirmish adjudicate` answers Skor's requests (ruleset "skor") as rules.adjudication does:
the same bytes on standard output, and exit 2 with one line on a malformed request."""

import json
import subprocess
import sys
from pathlib import Path

from rules.adjudication import adjudicate_json

SKIRMISH = Path(sys.executable).parent / "skirmish"
SETUP = {
    "ruleset": "skor",
    "setup": {
        "players": ["red", "blue"],
        "choices": {
            "red": {"culture": "technocracy", "tech": "military", "side": 4},
            "blue": {"culture": "feudal", "side": 1},
        },
    },
    "seed": "736b6f722d3237",
}


def _cli(stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(SKIRMISH), "adjudicate"], input=stdin, capture_output=True, timeout=60, check=False
    )


def test_a_setup_and_a_turn_through_the_command_line() -> None:
    body = json.dumps(SETUP).encode()
    setup = _cli(body)
    assert setup.returncode == 0, setup.stderr
    assert setup.stdout.strip() == adjudicate_json(body)
    state = json.loads(setup.stdout)["state"]
    turn = {
        "ruleset": "skor",
        "state": state,
        "seed": SETUP["seed"],
        "actions": [
            {"player": "red", "text": "move A0 A4; A0 A3"},
            {"player": "red", "action": "end"},
        ],
    }
    played = _cli(json.dumps(turn).encode())
    assert played.returncode == 0, played.stderr
    answer = json.loads(played.stdout)
    assert [r["result"] for r in answer["results"]] == ["ok", "ok", "ok"]
    assert answer["state"]["turn"]["player"] == "blue"


def test_a_malformed_skor_request_exits_2_with_one_line() -> None:
    body = json.dumps(SETUP | {"rolls": [1]}).encode()
    refused = _cli(body)
    assert refused.returncode == 2
    assert refused.stdout == b""
    message = refused.stderr.decode().strip()
    assert "give exactly one of `seed` and `rolls`" in message
    assert len(message.splitlines()) == 1
