"""Skor's picture (rules/skor/picture.py), pure: nothing before both players chose; then
the 40 flat-topped hexes where §2.1 puts them, each City in its player's colour, the pieces
in their owners', whose turn it is and the dice of the last action."""

import math

from rules.game import Draws
from rules.kit.picture import Look, Picture, Polygon, Text
from rules.skor.board import COORDS, HEXES
from rules.skor.definition import SKOR, Play
from rules.skor.dice import DieRecord
from rules.skor.picture import BETWEEN, RADIUS, SHOWN_DICE, centre, picture

LOOKS = {"p1": Look("Ann", "#d7263d"), "p2": Look("Bob", "#1f5fbf")}
DRAWS = Draws(b"skor-picture" * 3)


def _chosen() -> Play:
    play = None
    for event in SKOR.setup({}, ("p1", "p2"), DRAWS):
        play = SKOR.evolve(play, event)
    assert play is not None
    first, second = play.setup.players
    choices = {
        first: {"culture": "dictatorship", "side": 1},
        second: {"culture": "feudal", "side": 4},
    }
    for event in SKOR.resolve(play, choices, DRAWS):
        play = SKOR.evolve(play, event)
    return play


def _drawn(play: Play) -> Picture:
    drawn = SKOR.picture(play, LOOKS)
    assert drawn is not None
    return drawn


def _hexes(drawn: Picture) -> dict[str, Polygon]:
    """The board's hexagons, by the hex whose centre they are drawn about."""
    found = {}
    for shape in drawn.shapes:
        if isinstance(shape, Polygon) and len(shape.points) == 6:
            x = sum(p[0] for p in shape.points) / 6
            y = sum(p[1] for p in shape.points) / 6
            for name in HEXES:
                if math.dist((x, y), centre(name)) < 0.5 and name not in found:
                    found[name] = shape
    return found


def test_no_picture_before_both_players_chose() -> None:
    play = None
    for event in SKOR.setup({}, ("p1", "p2"), DRAWS):
        play = SKOR.evolve(play, event)
    assert play is not None
    assert SKOR.picture(play, LOOKS) is None


def test_the_hexes_sit_at_their_axial_coordinates() -> None:
    # x = 1.5·q and y = √3·(r + q/2), in hex radii: A0 (0, 0) and B0 (6, -3) on one row.
    (ax, ay), (bx, by) = centre("A0"), centre("B0")
    assert math.isclose(bx - ax, 9 * RADIUS)
    assert math.isclose(by, ay)
    (x1, y1), (x2, y2) = centre("X1"), centre("X2")
    assert math.isclose(x1, x2)
    assert math.isclose(y2 - y1, math.sqrt(3) * RADIUS)
    drawn = _drawn(_chosen())
    assert set(_hexes(drawn)) == set(COORDS)
    assert all(0 < x < drawn.width and 0 < y < drawn.height for x, y in map(centre, HEXES))


def test_cities_terrain_and_pieces_in_their_colours() -> None:
    play = _chosen()
    game = play.game
    assert game is not None
    hexes = _hexes(_drawn(play))
    for name, structure in game.structures.items():
        if structure.kind == "city":
            assert structure.by is not None
            assert hexes[name].fill == LOOKS[structure.by].color
        else:
            assert hexes[name].fill not in (LOOKS["p1"].color, LOOKS["p2"].color)
    assert hexes["X1"].fill == hexes["X2"].fill == BETWEEN
    bodies = [
        s
        for s in _drawn(play).shapes
        if isinstance(s, Polygon) and s.stroke is None and len(s.points) in (4, 16)
    ]
    assert sorted(b.fill or "" for b in bodies) == sorted(
        LOOKS[p.player].color for p in game.pieces
    )


def test_whose_turn_and_the_last_action_s_dice() -> None:
    play = _chosen()
    game = play.game
    assert game is not None
    mover = LOOKS[game.turn.player].name
    words = [s.text for s in _drawn(play).shapes if isinstance(s, Text)]
    assert any(w.startswith(f"Turn 1: {mover} to play") for w in words)
    assert "The last action rolled no dice" in words
    # A Dictatorship's `end` rolls its purge die, in the open.
    first = game.players[0]
    ended = SKOR.move(play, first, "end", DRAWS)
    assert isinstance(ended, list)
    for event in ended:
        play = SKOR.evolve(play, event)
    (die,) = play.dice
    words = [s.text for s in _drawn(play).shapes if isinstance(s, Text)]
    assert f"The last action's dice: d{die.sides} {die.value} (purge)" in words


def test_a_long_roll_is_cut_short() -> None:
    game = _chosen().game
    dice = [DieRecord(f"roll|{k}", 6, 1 + k % 6, "attack") for k in range(SHOWN_DICE + 3)]
    drawn = picture(game, dice, LOOKS)
    assert drawn is not None
    (line,) = [s.text for s in drawn.shapes if isinstance(s, Text) and "dice" in s.text]
    assert line.endswith(" and 3 more")
    assert line.count("(attack)") == SHOWN_DICE
