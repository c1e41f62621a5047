"""The engine's API as a game room calls it (rules/skor/engine.py): setup, sealed choices,
who is to move, actions with their dice replayed without the secret, text submissions and
the outcome; and every text form of docs/skor.md read into its JSON form."""

import msgspec
import pytest

from rules.skor.actions import End, Move, Resign
from rules.skor.dice import Dice
from rules.skor.engine import act, submit_text, to_move
from rules.skor.game import Refused
from rules.skor.parse import parse
from rules.skor.setup import Choice, roll_setup, start
from rules.skor.state import Ending, Options, State

SECRET = b"skor-27"


def _started() -> State:
    dice = Dice(secret=SECRET)
    setup = roll_setup(["red", "blue"], Options(), dice)
    # Both choose at once; who has chosen is the room's to keep (its sealed wait).
    assert to_move(setup) == ("red", "blue")
    choices = {"red": Choice("feudal", 2), "blue": Choice("alien", 5)}
    _, state, _ = start(setup, choices, dice)
    return state


def test_a_game_room_plays_turns_and_replays_them_without_the_secret() -> None:
    state = _started()
    assert to_move(state) == ("red",)
    dice = Dice(secret=SECRET)
    moved = act(state, "red", Move("A0", "A10"), dice)
    assert moved.refused is None
    ended = act(moved.state, "red", End(), dice)
    assert to_move(ended.state) == ("blue",)
    # The recorded dice (none here) replay both actions bit for bit.
    replay = Dice(rolls=[r.value for r in dice.records])
    again = act(act(state, "red", Move("A0", "A10"), replay).state, "red", End(), replay)
    assert msgspec.json.encode(again) == msgspec.json.encode(ended)
    resigned = act(ended.state, "red", Resign(), dice)
    assert resigned.state.ending == Ending("blue", "resignation")
    assert to_move(resigned.state) == ()


def test_a_text_submission_stops_at_the_first_refusal() -> None:
    state = _started()
    after, lines = submit_text(state, "red", "A0 A1\nA0 A4\nend", Dice(rolls=[]))
    assert [None if line.result is None else line.result.refused for line in lines] == [
        None,
        "A4 is an obstruction",
        None,
    ]
    assert lines[2].result is None
    assert after.turn.player == "red"
    assert [p.at for p in after.pieces if p.player == "red"] == ["A0", "A1"]


@pytest.mark.parametrize(
    ("text", "json"),
    [
        ("move A0 A4", {"action": "move", "from": "A0", "to": "A4"}),
        ("A0 A4", {"action": "move", "from": "A0", "to": "A4"}),
        ("move A4 X2 m", {"action": "move", "from": "A4", "to": "X2", "kind": "military"}),
        ("MOVE a4 x2 Civ", {"action": "move", "from": "A4", "to": "X2", "kind": "civilian"}),
        ("move X1 B16 covert", {"action": "move", "from": "X1", "to": "B16", "covert": True}),
        ("fire A10 B5", {"action": "fire", "from": "A10", "at": "B5"}),
        ("city A11", {"action": "city", "to": "A11"}),
        ("spawn", {"action": "spawn"}),
        ("spawn A8", {"action": "spawn", "at": "A8"}),
        ("remove A1", {"action": "remove", "at": "A1"}),
        ("remove A1 m", {"action": "remove", "at": "A1", "kind": "military"}),
        ("build farm A3", {"action": "build", "structure": "farm", "at": "A3"}),
        ("debris X1", {"action": "debris", "at": "X1"}),
        ("promote A10", {"action": "promote", "at": "A10"}),
        ("send 6 A1 A5", {"action": "send", "amount": 6, "place": ["A1", "A5"]}),
        ("send 1", {"action": "send", "amount": 1}),
        ("spy A4 A4 B6", {"action": "spy", "sacrifice1": "A4", "sacrifice2": "A4", "at": "B6"}),
        ("sabotage B10", {"action": "sabotage", "at": "B10"}),
        ("research military", {"action": "research", "branch": "military"}),
        ("end", {"action": "end"}),
        ("resign", {"action": "resign"}),
    ],
)
def test_every_text_form_reads_as_its_json_form(text: str, json: dict[str, object]) -> None:
    assert msgspec.to_builtins(parse(text)) == json


@pytest.mark.parametrize(
    "text",
    ["", "dance", "move A0", "move A0 A4 m c", "A0 A4 A5", "send six A1", "end now", "spawn A"],
)
def test_text_that_fits_no_form_cannot_be_read(text: str) -> None:
    with pytest.raises(Refused, match=f"cannot read: {text}"):
        parse(text)
