"""Skor's standings (rules/skor/standings.py): no score, but each player's territory, culture,
pieces, tech, Resource and where it stands, the winner first once the game is over."""

from bots.selfplay import play_out
from projections.playing import recorded
from rules.game import Column, Draws, Ranked
from rules.skor.definition import SKOR, Play
from tests.rules.skor.test_definition import SEATS, _folded


def _rows(play: Play) -> list[tuple[str, dict[str, Column]]]:
    return [(row.seat, row.columns) for row in SKOR.standings(play)]


def _set_up() -> Play:
    draws = Draws(b"skor")
    return _folded(None, recorded(SKOR.setup(SKOR.check_options({}), SEATS, draws)))


def test_before_both_chose_the_cultures_are_unknown_and_a_plays_first() -> None:
    assert isinstance(SKOR, Ranked)
    play = _set_up()
    rows = _rows(play)
    assert [seat for seat, _ in rows] == play.setup.players
    for (_, columns), territory in zip(rows, ("A", "B"), strict=True):
        assert columns == {
            "territory": territory,
            "culture": None,
            "civilians": 0,
            "military": 0,
            "tech": "",
            "available": 0,
            "incoming": 0,
            "status": "active",
        }


def test_in_play_each_player_shows_its_culture_pieces_tech_and_resource() -> None:
    play = _set_up()
    choices = {"p1": {"culture": "technocracy", "side": 1, "tech": "military"}}
    choices["p2"] = {"culture": "feudal", "side": 2, "tech": None}
    play = _folded(play, recorded(SKOR.resolve(play, choices, Draws(b"skor"))))
    game = play.game
    assert game is not None
    rows = dict(_rows(play))
    for seat in SEATS:
        kinds = [p.kind for p in game.pieces if p.player == seat]
        assert rows[seat]["culture"] == choices[seat]["culture"]
        assert (rows[seat]["civilians"], rows[seat]["military"]) == (
            kinds.count("civilian"),
            kinds.count("military"),
        )
    # A Technocracy's free tier.
    assert (rows["p1"]["tech"], rows["p2"]["tech"]) == ("military 1", "")
    # Only the player whose turn it is has Resource to spend.
    first, second = play.setup.players
    assert rows[first]["available"] == (game.turn.available or 0)
    assert rows[second]["available"] == 0


def test_the_winner_stands_first_once_the_game_is_over() -> None:
    for seed in range(4):
        options = {"round_limit": 30, "turn_time": None}
        played = play_out("skor", options, ("greedy", "greedy"), seed.to_bytes(8, "big"), seed)
        rows = _rows(played.state)
        results = played.ending.results
        assert [c["status"] for _, c in rows] == [results[seat] for seat, _ in rows]
        if "won" in results.values():
            assert rows[0][1]["status"] == "won"
            assert rows[1][1]["status"] in ("lost", "resigned")
    play = _folded(_set_up(), recorded(SKOR.leave(_set_up(), "p1")))
    assert [(seat, c["status"]) for seat, c in _rows(play)] == [("p2", "won"), ("p1", "resigned")]
