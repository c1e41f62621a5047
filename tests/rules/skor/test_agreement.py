"""Skor's draws by agreement (§7.2, P41) through its definition, without the server: an offer
in the offerer's turn, accepted or declined in the other's, lapsing when the offerer's next
turn starts; an accepted one ends the game `{"winner": null, "by": "agreement"}`, both
seats `drew`; the engine's state is the engine's, its contract unchanged."""

from typing import Any

import msgspec
import pytest

from projections.playing import game_events, recorded
from rules.game import Draws, Ending, MoveRefused, NotYourMove
from rules.skor.agreement import DrawAccepted, DrawDeclined, DrawOffer, DrawOffered
from rules.skor.definition import SKOR, Play
from rules.skor.state import Ending as EngineEnding

DRAWS = Draws(bytes(range(32)))
CHOICES = {
    "p1": {"culture": "feudal", "side": 1},
    "p2": {"culture": "feudal", "side": 4},
}


def _fold(play: Play | None, made: Any) -> Play:
    assert isinstance(made, list)
    for event in game_events(SKOR, recorded(made)):
        play = SKOR.evolve(play, event)
    assert play is not None
    assert msgspec.json.decode(msgspec.json.encode(play), type=Play) == play
    return play


def _started() -> tuple[Play, str, str]:
    """A game in its first turn: the seat to move, and the other."""
    play = _fold(None, SKOR.setup(SKOR.check_options({}), ("p1", "p2"), DRAWS))
    play = _fold(play, SKOR.resolve(play, CHOICES, DRAWS))
    assert play.game is not None
    first = play.game.turn.player
    return play, first, "p2" if first == "p1" else "p1"


def _move(play: Play, seat: str, move: Any) -> Play:
    return _fold(play, SKOR.move(play, seat, move, DRAWS))


def test_an_offer_accepted_in_the_other_turn_draws_the_game() -> None:
    play, first, second = _started()
    play = _move(play, first, "offer draw")
    assert play.offer == DrawOffer(first, 1)
    assert SKOR.ending(play) is None
    play = _move(play, first, "end")
    assert play.offer == DrawOffer(first, 1)
    accepted = SKOR.move(play, second, {"draw": "accept"}, DRAWS)
    assert accepted == [DrawAccepted(second)]
    play = _fold(play, accepted)
    assert play.game is not None
    assert play.game.ending == EngineEnding(winner=None, by="agreement")
    assert SKOR.ending(play) == Ending("agreement", {"p1": "drew", "p2": "drew"})
    assert SKOR.to_move(play).seats == frozenset()


def test_an_offer_lapses_when_the_offerer_next_turn_starts() -> None:
    play, first, second = _started()
    play = _move(play, first, {"draw": "offer"})
    play = _move(play, first, "end")
    play = _move(play, second, "end")
    assert play.offer is None
    with pytest.raises(MoveRefused, match="no offer of a draw to accept"):
        SKOR.move(play, first, "accept draw", DRAWS)


def test_a_declined_offer_is_gone_and_may_be_made_again() -> None:
    play, first, second = _started()
    play = _move(play, first, "OFFER DRAW")
    play = _move(play, first, "end")
    assert SKOR.move(play, second, "decline draw", DRAWS) == [DrawDeclined(second)]
    play = _move(play, second, "decline draw")
    assert play.offer is None
    with pytest.raises(MoveRefused, match="no offer of a draw to accept"):
        SKOR.move(play, second, "accept draw", DRAWS)
    assert SKOR.move(play, second, "offer draw", DRAWS) == [DrawOffered(second)]


@pytest.mark.parametrize(
    ("who", "move", "error", "reason"),
    [
        ("first", "accept draw", MoveRefused, "no offer of a draw to accept"),
        ("first", "offer draw", MoveRefused, "your offer of a draw stands"),
        ("second", "accept draw", NotYourMove, "not your turn"),
        ("first", {"draw": "maybe"}, MoveRefused, "a draw move is"),
        ("first", {"draw": "offer", "now": True}, MoveRefused, "a draw move is"),
    ],
)
def test_draw_moves_the_rules_do_not_take(who: str, move: Any, error: type, reason: str) -> None:
    play, first, second = _started()
    play = _move(play, first, "offer draw")
    with pytest.raises(error, match=reason):
        SKOR.move(play, first if who == "first" else second, move, DRAWS)


def test_an_offer_standing_is_answered_not_crossed() -> None:
    play, first, second = _started()
    play = _move(_move(play, first, "offer draw"), first, "end")
    with pytest.raises(MoveRefused, match="your opponent offered a draw: accept or decline it"):
        SKOR.move(play, second, "offer draw", DRAWS)


def test_no_draw_before_both_chose() -> None:
    play = _fold(None, SKOR.setup(SKOR.check_options({}), ("p1", "p2"), DRAWS))
    with pytest.raises(MoveRefused, match="setup choice"):
        SKOR.move(play, "p1", "offer draw", DRAWS)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("choose Feudal 2", {"culture": "feudal", "side": 2, "tech": None}),
        (
            "choose technocracy 4 Military",
            {"culture": "technocracy", "side": 4, "tech": "military"},
        ),
        ("offer draw", "offer draw"),
        ("Accept Draw", "Accept Draw"),
        ("move A0 A4\nend", "move A0 A4\nend"),
        ("A0 A4; end", "A0 A4; end"),
        ("resign", None),
        ("end\nresign", None),
        ("fly A0", None),
        ("draw", None),
    ],
)
def test_text_commands_read_actions_and_draw_moves(text: str, move: Any) -> None:
    assert SKOR.read_text(text) == move
