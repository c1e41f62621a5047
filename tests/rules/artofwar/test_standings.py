"""The Art of War's standings (rules/artofwar/standings.py): every seat with what it owns, its
units, its stance and where it stands, best first, from the start to §6's final standing."""

import msgspec

from rules.artofwar.definition import ART_OF_WAR
from rules.artofwar.play import Play
from rules.game import Column, Draws, Ranked
from tests.rules.artofwar.test_definition import SECRET, _fold, _start


def _rows(state: Play) -> list[tuple[str, dict[str, Column]]]:
    return [(row.seat, row.columns) for row in ART_OF_WAR.standings(state)]


def _owned(state: Play, seat: str) -> tuple[int, int]:
    held = [t for t, owner in state.position.owners.items() if owner == seat]
    return len(held), sum(state.position.units.get(t, 0) for t in held)


def test_every_seat_shows_what_it_owns_its_units_and_its_stance() -> None:
    assert isinstance(ART_OF_WAR, Ranked)
    state = _start(3, map="aow-mini", initial="fill")
    state = _fold(ART_OF_WAR.move(state, "p3", "stance draw 3", Draws(SECRET)), state)  # type: ignore[arg-type]
    rows = _rows(state)
    assert sorted(seat for seat, _ in rows) == ["p1", "p2", "p3"]
    for seat, columns in rows:
        territories, units = _owned(state, seat)
        assert territories > 0
        assert columns == {
            "territories": territories,
            "units": units,
            "stance": "draw (3)" if seat == "p3" else "no mercy",
            "status": "active",
        }
    # Best first: by territories, then by units, then as seated.
    keys = [(-c["territories"], -c["units"]) for _, c in rows]  # type: ignore[operator]
    assert keys == sorted(keys)
    # The columns are JSON as they are.
    assert msgspec.json.decode(msgspec.json.encode(rows)) == [[s, c] for s, c in rows]


def test_free_placement_shows_the_units_still_to_place() -> None:
    state = _start(2, map="aow-mini", placement="free")
    rows = dict(_rows(state))
    for seat, columns in rows.items():
        assert columns["to_place"] == state.position.pending_builds[seat] > 0


def test_a_resigned_seat_stands_after_those_playing_and_the_final_standing_is_shown() -> None:
    state = _start(3, map="aow-mini")
    state = _fold(ART_OF_WAR.leave(state, "p1"), state)
    rows = _rows(state)
    assert rows[-1][0] == "p1"
    assert (rows[-1][1]["status"], rows[-1][1]["stance"]) == ("resigned", "surrender")
    assert [c["status"] for _, c in rows[:2]] == ["active", "active"]

    draws = Draws(SECRET)
    state = _fold(ART_OF_WAR.move(state, "p3", {"stance": "draw"}, draws), state)  # type: ignore[arg-type]
    state = _fold(ART_OF_WAR.move(state, "p2", {"stance": "surrender"}, draws), state)  # type: ignore[arg-type]
    state = _fold(ART_OF_WAR.resolve(state, {"p2": [], "p3": []}, draws), state)
    ending = ART_OF_WAR.ending(state)
    assert ending is not None
    assert ending.results == {"p1": "resigned", "p2": "survived", "p3": "drew"}
    # A draw treaty's signer shares the win: `signed`, first.
    assert [(seat, c["status"]) for seat, c in _rows(state)] == [
        ("p3", "signed"),
        ("p2", "survived"),
        ("p1", "resigned"),
    ]


def test_an_eliminated_seat_stands_last() -> None:
    state = _start(2, map="aow-mini")
    gone = {t: "p2" for t, owner in state.position.owners.items() if owner == "p1"}
    position = msgspec.structs.replace(
        state.position,
        owners={**state.position.owners, **gone},
        players={
            **state.position.players,
            "p1": msgspec.structs.replace(state.position.players["p1"], status="eliminated"),
        },
    )
    state = msgspec.structs.replace(state, position=position)
    assert [(seat, c["status"], c["territories"]) for seat, c in _rows(state)] == [
        ("p2", "active", 2),
        ("p1", "eliminated", 0),
    ]
