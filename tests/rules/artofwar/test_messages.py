"""The Art of War's messages (P35) through its definition, without the server: public ones
played at once for all, private ones (intrigue games only) a `Private` move for their
recipient, neither changing the game; and the text forms a text command reads."""

from typing import Any

import pytest

from rules.artofwar.definition import ART_OF_WAR
from rules.artofwar.messages import MAX_MESSAGE, MessageSent
from rules.game import Addressed, Draws, MoveRefused, Private, Sealed
from tests.rules.artofwar.test_definition import SECRET, _fold, _start

DRAWS = Draws(SECRET)


def test_a_public_message_is_played_at_once_and_changes_nothing() -> None:
    state = _start(3)
    made = ART_OF_WAR.move(state, "p2", {"message": "  peace in our time  "}, DRAWS)
    assert made == [MessageSent("p2", "peace in our time")]
    assert isinstance(made, list)
    assert _fold(made, state) == state


def test_a_private_message_is_its_recipients_in_an_intrigue_game() -> None:
    state = _start(3, intrigue=True)
    made = ART_OF_WAR.move(state, "p1", {"message": "ally?", "to": "p3"}, DRAWS)
    assert made == Private([MessageSent("p1", "ally?", "p3")], frozenset({"p3"}))
    assert isinstance(made, Private)
    assert _fold(made.events, state) == state


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ({"message": "ally?", "to": "p3"}, "private messages need the intrigue option"),
        ({"message": "   "}, "a message is empty"),
        ({"message": "x" * (MAX_MESSAGE + 1)}, f"at most {MAX_MESSAGE} characters"),
        ({"message": "bell\x07"}, "unprintable"),
        ({"message": 5}, "a message is"),
        ({"message": "hi", "cc": "p2"}, "a message is"),
    ],
)
def test_bad_messages_are_refused(move: dict[str, Any], reason: str) -> None:
    with pytest.raises(MoveRefused, match=reason):
        ART_OF_WAR.move(_start(3), "p1", move, DRAWS)


@pytest.mark.parametrize(
    ("to", "reason"), [("p9", "no seat 'p9' here"), ("p1", "goes to another player")]
)
def test_a_private_message_goes_to_another_seat_of_the_game(to: str, reason: str) -> None:
    with pytest.raises(MoveRefused, match=reason):
        ART_OF_WAR.move(_start(3, intrigue=True), "p1", {"message": "hi", "to": to}, DRAWS)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("say hello all", {"message": "hello all"}),
        # The player as written: the room finds the seat (a seat or a name, any case).
        ("tell P2 meet me in AK\nat dawn", {"message": "meet me in AK\nat dawn", "to": "P2"}),
        ("tell Fiona hi", {"message": "hi", "to": "Fiona"}),
        ("stance draw 3", "stance draw 3"),
        ("US 3 to AK, MX hold", "US 3 to AK, MX hold"),
        ("USA 3 -> Alaska\nplace 2 AK", "USA 3 -> Alaska\nplace 2 AK"),
        ("US H", "US H"),
        ("start now", None),
        ("US to AK", None),
        ("hello", None),
        ("", None),
        ("US 3 to AK, hello", None),
    ],
)
def test_text_commands_read_messages_stances_and_orders_only(text: str, move: Any) -> None:
    assert ART_OF_WAR.read_text(text) == move


def test_what_a_text_reads_is_a_move_the_game_takes() -> None:
    state = _start(3, intrigue=True)
    orders = ART_OF_WAR.read_text("US 3 to AK")
    assert isinstance(ART_OF_WAR.move(state, "p1", orders, DRAWS), Sealed)
    told = ART_OF_WAR.read_text("tell p2 psst")
    assert isinstance(ART_OF_WAR.move(state, "p1", told, DRAWS), Private)


@pytest.mark.parametrize(
    ("move", "named"),
    [
        ({"message": "hi", "to": "Fiona"}, "Fiona"),
        ({"message": "hi"}, None),
        ({"message": "hi", "to": 2}, None),
        ({"to": "Fiona"}, None),
        ("tell Fiona hi", None),
        ("US 3 to AK", None),
    ],
)
def test_a_private_message_is_addressed_to_the_player_it_names(move: Any, named: Any) -> None:
    """`Addressed`: the room reads whom a message names, and hands it back with the seat."""
    assert isinstance(ART_OF_WAR, Addressed)
    assert ART_OF_WAR.addressee(move) == named
    if named is not None:
        readdressed = ART_OF_WAR.addressed_to(move, "p3")
        assert readdressed == {"message": "hi", "to": "p3"}
        assert ART_OF_WAR.addressee(readdressed) == "p3"
