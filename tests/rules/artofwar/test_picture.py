"""The Art of War's picture (rules/artofwar/picture.py), pure: every territory in its owner's
colour or grey, the last turn's orders as arrows with the units sent (none before a turn ran),
a border round the globe drawn out at the edges, and a legend row per player with its
stance."""

import msgspec

from rules.artofwar.definition import ART_OF_WAR
from rules.artofwar.maps import builtin_board, builtin_names
from rules.artofwar.picture import INDEPENDENT, picture
from rules.artofwar.play import Play, play_board
from rules.game import Draws
from rules.kit.picture import Line, Look, Picture, Polygon, Text

SEATS = ("p1", "p2", "p3")
LOOKS = {
    "p1": Look("Ann", "#d7263d"),
    "p2": Look("Bob", "#1f5fbf"),
    "p3": Look("Cy", "#2e9a3e"),
}
DRAWS = Draws(b"picture" * 4)


def _started(**options: object) -> Play:
    play = None
    for event in ART_OF_WAR.setup(ART_OF_WAR.check_options(options), SEATS, DRAWS):
        play = ART_OF_WAR.evolve(play, event)
    assert play is not None
    return play


def _attacks(play: Play) -> dict[str, list[str]]:
    """Every territory with more than one unit sends all but one to its first neighbour."""
    board, position = play_board(play), play.position
    return {
        seat: [
            f"{t} {position.units[t] - 1} to {sorted(board.neighbours[t])[0]}"
            for t, owner in sorted(position.owners.items())
            if owner == seat and position.units.get(t, 0) > 1
        ]
        for seat in SEATS
    }


def _ran(play: Play) -> Play:
    for event in ART_OF_WAR.resolve(play, _attacks(play), DRAWS):
        play = ART_OF_WAR.evolve(play, event)
    return play


def _territories(drawn: Picture, count: int) -> list[Polygon]:
    return [s for s in drawn.shapes if isinstance(s, Polygon)][:count]


def _arrows(drawn: Picture) -> list[Line]:
    return [s for s in drawn.shapes if isinstance(s, Line) and s.head]


def test_every_built_in_map_places_each_territory() -> None:
    for name in builtin_names():
        board = builtin_board(name)
        assert all(t.x is not None and t.y is not None for t in board.territories.values())


def test_territories_in_their_owners_colours_and_independents_grey() -> None:
    play = _started(map="aow-mini")
    drawn = picture(play, LOOKS)
    board = play_board(play)
    fills = [p.fill for p in _territories(drawn, len(board.territories))]
    expected = [
        LOOKS[owner].color if (owner := play.position.owners.get(t)) else INDEPENDENT
        for t in board.territories
    ]
    assert fills == expected
    assert INDEPENDENT in fills
    assert {LOOKS[s].color for s in SEATS} <= set(fills)
    # Units as counts, and no order before a turn ran.
    words = {s.text for s in drawn.shapes if isinstance(s, Text)}
    assert {str(n) for n in play.position.units.values()} <= words
    assert _arrows(drawn) == []
    assert 0 < drawn.width <= 2048
    assert 0 < drawn.height <= 2048


def test_the_last_turn_s_orders_are_arrows_with_the_units_sent() -> None:
    play = _ran(_started(map="aow-mini"))
    drawn = picture(play, LOOKS)
    moving = [
        o
        for o in play.last_orders
        if o.kind in ("transfer", "attack") and o.result not in ("invalid", "replaced", "not_run")
    ]
    assert moving
    arrows = _arrows(drawn)
    assert [a.color for a in arrows] == [LOOKS[o.player].color for o in moving]
    words = [s.text for s in drawn.shapes if isinstance(s, Text)]
    for order in moving:
        assert str(order.sent) in words
    # The picture is of the state alone: the same state, the same picture.
    again = msgspec.json.decode(msgspec.json.encode(play), type=Play)
    assert picture(again, LOOKS) == drawn


def test_a_stance_shows_in_the_legend() -> None:
    play = _started(map="aow-mini")
    changed = ART_OF_WAR.move(play, "p2", {"stance": "draw", "draw_max": 3}, DRAWS)
    assert isinstance(changed, list)
    for event in changed:
        play = ART_OF_WAR.evolve(play, event)
    words = [s.text for s in picture(play, LOOKS).shapes if isinstance(s, Text)]
    (bob,) = [w for w in words if w.startswith("Bob (p2)")]
    assert "draw (3)" in bob
    assert any(w.startswith("Ann (p1): no mercy") for w in words)
    assert "independent" in words


def test_a_border_round_the_globe_goes_out_at_both_edges() -> None:
    play = _started(map="world")
    drawn = picture(play, LOOKS)
    dashed = [s for s in drawn.shapes if isinstance(s, Line) and s.dashed]
    ends = sorted(p[0] for line in dashed for p in line.points if p[0] in (0, drawn.width))
    assert ends == [0, drawn.width]


def test_a_generated_map_is_drawn_by_its_outlines() -> None:
    play = _started(map="generated")
    board = play_board(play)
    drawn = picture(play, LOOKS)
    polygons = _territories(drawn, len(board.territories))
    assert [len(p.points) for p in polygons] == [
        len(t.outline or ()) for t in board.territories.values()
    ]
