"""Skor's turn clock through the game seam (rules/skor/clock.py, §7.4 P43): the `turn_time`
option, the server's action for a player whose turn ran out (`end`, or in a purge the first
piece in canonical order), and the forfeit at the third timeout in a row."""

from typing import Any

import pytest
from msgspec.structs import replace

from projections.playing import recorded
from rules.game import Draws, Ending, OptionsRefused, Wait
from rules.skor.definition import SKOR, Play
from rules.skor.game import piece_order
from tests.rules.skor.test_definition import SEATS, _folded

DRAWS = Draws(b"skor-clock")
CHOICES = {"p1": {"culture": "feudal", "side": 1}, "p2": {"culture": "feudal", "side": 1}}


def _started(**options: Any) -> Play:
    play = _folded(None, recorded(SKOR.setup(SKOR.check_options(options), SEATS, DRAWS)))
    return _folded(play, recorded(SKOR.resolve(play, CHOICES, DRAWS)))


def _timed_out(play: Play) -> tuple[Play, list[dict[str, Any]]]:
    assert play.game is not None
    events = recorded(SKOR.time_out(play, play.game.turn.player, DRAWS))
    # The same step asked again makes the same events: replay and verify ask it again.
    assert recorded(SKOR.time_out(play, play.game.turn.player, DRAWS)) == events
    return _folded(play, events), events


def test_turn_time_is_a_day_by_default_minutes_for_a_live_game_or_none() -> None:
    assert SKOR.check_options({})["turn_time"] == 86_400
    assert SKOR.check_options({"turn_time": 300})["turn_time"] == 300
    assert SKOR.check_options({"turn_time": None})["turn_time"] is None
    for wrong in (59, 30 * 86_400 + 1, "1h", 1.5):
        with pytest.raises(OptionsRefused, match="turn_time is 60 to 2592000 seconds"):
            SKOR.check_options({"turn_time": wrong})


def test_a_game_created_before_the_clock_sets_up_as_recorded_and_waits_for_ever() -> None:
    kept = {k: v for k, v in SKOR.check_options({}).items() if k != "turn_time"}
    (rolled,) = recorded(SKOR.setup(kept, SEATS, DRAWS))
    # Its start replays to the very events recorded then: no turn_time in them.
    assert "turn_time" not in rolled
    play = _folded(
        _folded(None, [rolled]), recorded(SKOR.resolve(_folded(None, [rolled]), CHOICES, DRAWS))
    )
    assert SKOR.to_move(play).seconds is None


def test_each_turn_has_the_clock_but_the_setup_choices_wait_for_ever() -> None:
    setup = _folded(None, recorded(SKOR.setup(SKOR.check_options({}), SEATS, DRAWS)))
    assert SKOR.to_move(setup) == Wait(frozenset(SEATS), sealed=True)
    play = _started(turn_time=300)
    assert play.game is not None
    assert SKOR.to_move(play) == Wait(frozenset({play.game.turn.player}), seconds=300)
    assert SKOR.to_move(_started(turn_time=None)).seconds is None


def test_a_turn_out_of_time_ends_and_the_next_player_moves() -> None:
    play = _started()
    assert play.game is not None
    first, second = play.game.players
    after, events = _timed_out(play)
    (timed_out,) = events
    assert timed_out["type"] == "skor_timed_out.v1"
    assert (timed_out["player"], timed_out["actions"]) == (first, [{"action": "end"}])
    assert timed_out["events"][0] == {"event": "turn_ended", "turn": 1, "player": first}
    assert after.game is not None
    assert (after.game.turn.number, after.game.turn.player) == (2, second)
    assert after.timeouts == {first: 1}
    assert SKOR.ending(after) is None


def test_a_purge_out_of_time_removes_the_first_piece_in_canonical_order() -> None:
    play = _started()
    assert play.game is not None
    player = play.game.turn.player
    purging = replace(play, game=replace(play.game, turn=replace(play.game.turn, phase="purge")))
    first = min((p for p in play.game.pieces if p.player == player), key=piece_order)
    after, (timed_out,) = _timed_out(purging)
    assert timed_out["actions"] == [{"action": "remove", "at": first.at, "kind": first.kind}]
    assert timed_out["events"][0] == {
        "event": "removed",
        "player": player,
        "at": first.at,
        "kind": first.kind,
        "why": "by its player",
    }
    assert after.game is not None
    # The removal ends the purge, and the turn with it.
    assert after.game.turn.number == 2
    assert len([p for p in after.game.pieces if p.player == player]) == (
        len([p for p in play.game.pieces if p.player == player]) - 1
    )


def _both_time_out(play: Play) -> Play:
    for _ in SEATS:
        play, _ = _timed_out(play)
    return play


def test_the_third_timeout_in_a_row_forfeits_to_the_opponent() -> None:
    play = _both_time_out(_both_time_out(_started()))
    assert play.game is not None
    first, second = play.game.players
    assert play.timeouts == {first: 2, second: 2}
    assert play.game.turn.player == first
    after, (timed_out,) = _timed_out(play)
    assert timed_out["forfeited"] is True
    assert timed_out["actions"] == []
    assert timed_out["events"] == [{"event": "won", "player": second, "by": "forfeit"}]
    assert SKOR.ending(after) == Ending("forfeit", {second: "won", first: "lost"})
    assert after.game is not None
    assert after.game.ending is not None
    assert (after.game.ending.winner, after.game.ending.by) == (second, "forfeit")
    assert SKOR.to_move(after) == Wait()


def test_a_move_of_the_player_starts_the_count_again() -> None:
    play = _both_time_out(_both_time_out(_started()))
    assert play.game is not None
    first, second = play.game.players
    moved = SKOR.move(play, first, "end", DRAWS)
    assert isinstance(moved, list)
    play = _folded(play, recorded(moved))
    assert play.timeouts == {first: 0, second: 2}
    # The opponent's third in a row forfeits; the first player's next is only its first.
    forfeited, (timed_out,) = _timed_out(play)
    assert timed_out["forfeited"] is True
    assert SKOR.ending(forfeited) == Ending("forfeit", {first: "won", second: "lost"})


def test_a_dictatorships_end_out_of_time_purges_too_in_the_same_timeout() -> None:
    """`end`'s purge roll says 1 for some secret: the same timeout removes the first piece
    in canonical order, so that one timed-out turn is one timeout, and the turn passes."""
    dictators = {seat: {"culture": "dictatorship", "side": 1} for seat in SEATS}
    for n in range(40):
        draws = Draws(b"skor-purge-%d" % n)
        options = SKOR.check_options({})
        play = _folded(None, recorded(SKOR.setup(options, SEATS, draws)))
        play = _folded(play, recorded(SKOR.resolve(play, dictators, draws)))
        assert play.game is not None
        player = play.game.turn.player
        (timed_out,) = recorded(SKOR.time_out(play, player, draws))
        if len(timed_out["actions"]) == 2:
            break
    else:
        raise AssertionError("no secret's purge roll said 1")
    first = min((p for p in play.game.pieces if p.player == player), key=piece_order)
    assert timed_out["actions"] == [
        {"action": "end"},
        {"action": "remove", "at": first.at, "kind": first.kind},
    ]
    assert [d["for"] for d in timed_out["dice"]] == ["purge"]
    after = _folded(play, [timed_out])
    assert after.game is not None
    assert (after.game.turn.number, after.timeouts) == (2, {player: 1})
