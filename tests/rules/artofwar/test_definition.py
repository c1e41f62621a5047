"""The Art of War's definition (rules/artofwar/definition.py) played without the server: moves,
stances, resignations, whole seeded games to their end, each step replayed from its state,
and the state rebuilt from the events as the room records them (JSON)."""

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.artofwar.definition import ART_OF_WAR, ArtOfWar
from rules.artofwar.diplomacy import Stance
from rules.artofwar.play import Play, StanceChanged, play_board
from rules.game import Draws, MoveRefused, OptionsRefused, Sealed
from rules.kit.prng import SeededRandom
from rules.registry import game_rules, newest

SECRET = bytes(range(32))


def _fold(events: list[Any], state: Play | None = None) -> Play:
    """As the room does: the events as recorded JSON, decoded and folded."""
    for event in events:
        decoded = msgspec.convert(msgspec.to_builtins(event), ART_OF_WAR.event_type)
        assert decoded == event
        state = ART_OF_WAR.evolve(state, decoded)
    assert state is not None
    again = msgspec.json.decode(msgspec.json.encode(state), type=ART_OF_WAR.state_type)
    assert again == state
    return state


def _start(seats: int = 3, **options: Any) -> Play:
    checked = ART_OF_WAR.check_options(options)
    names = tuple(f"p{n}" for n in range(1, seats + 1))
    return _fold(ART_OF_WAR.setup(checked, names, Draws(SECRET)))


def test_it_is_the_registered_art_of_war() -> None:
    assert newest("art-of-war") is ART_OF_WAR
    assert ART_OF_WAR.check_options({}) == {
        "initial": "one",
        "placement": "automatic",
        "independents": "self_defense",
        "diplomacy": "free",
        "intrigue": False,
        "map": "world",
        "map_seed": None,
        "deadline": 86_400,
    }


def test_a_turn_waits_a_day_by_default_a_deadline_or_for_ever() -> None:
    assert _start().deadline == 86_400
    assert ART_OF_WAR.to_move(_start()).seconds == 86_400
    assert ART_OF_WAR.to_move(_start(deadline=60)).seconds == 60
    assert ART_OF_WAR.to_move(_start(deadline=None)).seconds is None
    for wrong in (59, 30 * 86_400 + 1, 3.5, "1h"):
        with pytest.raises(OptionsRefused, match="deadline is 60 to 2592000 seconds"):
            ART_OF_WAR.check_options({"deadline": wrong})


def test_a_game_created_before_deadlines_sets_up_as_it_was_recorded_and_waits_for_ever() -> None:
    kept = {k: v for k, v in ART_OF_WAR.check_options({}).items() if k != "deadline"}
    (started,) = ART_OF_WAR.setup(kept, ("p1", "p2", "p3"), Draws(SECRET))
    # Its start replays to the very events recorded then: no deadline in them.
    assert "deadline" not in msgspec.json.decode(msgspec.json.encode(started))
    assert ART_OF_WAR.to_move(ART_OF_WAR.evolve(None, started)).seconds is None


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"map": "mars"}, "options"),
        ({"placement": "later"}, "options"),
        ({"deadline": 24}, "deadline is 60 to 2592000 seconds"),
        ({"map_seed": 5}, "map_seed goes with map 'generated'"),
        ({"map": "generated", "map_seed": -1}, "map_seed is 0 to"),
    ],
)
def test_bad_options_are_refused_with_a_reason(options: dict[str, Any], reason: str) -> None:
    with pytest.raises(OptionsRefused, match=reason):
        ART_OF_WAR.check_options(options)


def test_seats_are_capped_by_the_map_and_a_one_start_may_fail_late() -> None:
    assert ART_OF_WAR.seat_range(ART_OF_WAR.check_options({"map": "aow-mini"})) == (2, 9)
    assert ART_OF_WAR.seat_range(ART_OF_WAR.check_options({"map": "generated"})) == (2, 20)
    # aow-mini seats at most four players apart.
    with pytest.raises(OptionsRefused, match="cannot seat 5 players apart"):
        _start(5, map="aow-mini")


def test_a_generated_map_comes_from_its_seed_or_from_the_secret() -> None:
    seeded = _start(4, map="generated", map_seed=7)
    assert seeded.map_seed == 7
    drawn = _start(4, map="generated")
    assert drawn.map_seed is not None
    assert drawn.map_seed != 7
    assert len(play_board(drawn).territories) >= 4 * 4


def test_orders_are_sealed_as_texts_and_stances_are_acts() -> None:
    state = _start(2, map="aow-mini", diplomacy="binding")
    draws = Draws(SECRET)
    text = ART_OF_WAR.move(state, "p1", "US 3 to AK, MX hold", draws)
    assert text == Sealed(["US 3 to AK, MX hold"])
    objects = [{"kind": "move", "from": "US", "to": "AK", "units": 3}, "place 1 AK"]
    assert ART_OF_WAR.move(state, "p1", objects, draws) == Sealed(["US 3 to AK", "place 1 AK"])
    for bad in (3, {"orders": 1}, [{"kind": "fly"}], ["x"] * 3000):
        with pytest.raises(MoveRefused):
            ART_OF_WAR.move(state, "p1", bad, draws)
    changed = ART_OF_WAR.move(state, "p1", "stance draw 3", draws)
    state = _fold(changed, state)  # type: ignore[arg-type]
    assert msgspec.to_builtins(state.position.players["p1"].stance) == {
        "kind": "draw",
        "draw_max": 3,
    }
    with pytest.raises(MoveRefused, match="binding diplomacy: cannot tighten"):
        ART_OF_WAR.move(state, "p1", {"stance": "no_mercy"}, draws)
    with pytest.raises(MoveRefused, match="draw_max"):
        ART_OF_WAR.move(state, "p2", {"stance": "surrender", "draw_max": 2}, draws)
    for past in (21, 10**30):
        with pytest.raises(MoveRefused, match="is 2 to 20"):
            ART_OF_WAR.move(state, "p2", {"stance": "draw", "draw_max": past}, draws)
    with pytest.raises(MoveRefused, match="is 2 to 20"):
        ART_OF_WAR.move(state, "p2", "stance draw 21", draws)
    widest = ART_OF_WAR.move(state, "p2", {"stance": "draw", "draw_max": 20}, draws)
    assert widest == [StanceChanged("p2", Stance("draw", 20))]


def test_a_seats_submissions_of_a_turn_are_sealed_together_in_the_order_sent() -> None:
    assert ART_OF_WAR.seal(None, ["US 3 to AK"]) == ["US 3 to AK"]
    assert ART_OF_WAR.seal(["US 3 to AK"], ["US hold", "MX 1 to US"]) == [
        "US 3 to AK",
        "US hold",
        "MX 1 to US",
    ]
    assert ART_OF_WAR.seal(["US 3 to AK"], []) == ["US 3 to AK"]
    with pytest.raises(MoveRefused, match="a turn's orders holds at most"):
        ART_OF_WAR.seal(["US hold"] * 1500, ["MX hold"] * 600)


def test_games_of_version_1_replay_as_played_a_new_submission_replacing_the_earlier() -> None:
    old = game_rules("art-of-war", 1)
    assert (old.version, ART_OF_WAR.version) == (1, 2)
    assert isinstance(old, ArtOfWar)
    assert old.seal(["US 3 to AK"], ["MX 1 to US"]) == ["MX 1 to US"]


def test_a_resigned_seat_surrenders_is_not_waited_for_and_the_last_one_abandons() -> None:
    state = _start(3, map="aow-mini")
    state = _fold(ART_OF_WAR.leave(state, "p2"), state)
    assert ART_OF_WAR.to_move(state).seats == {"p1", "p3"}
    assert state.position.players["p2"].stance.kind == "surrender"
    ran = ART_OF_WAR.resolve(state, {"p1": [], "p3": []}, Draws(SECRET))
    state = _fold(ran, state)
    assert ART_OF_WAR.ending(state) is None
    for seat in ("p1", "p3"):
        state = _fold(ART_OF_WAR.leave(state, seat), state)
    ending = ART_OF_WAR.ending(state)
    assert ending is not None
    assert ending.by == "abandoned"
    assert set(ending.results.values()) == {"resigned"}


def test_a_mercy_treaty_ends_the_game_with_the_final_standing() -> None:
    state = _start(3, map="aow-mini")
    draws = Draws(SECRET)
    for seat, stance in (("p1", "offer_mercy"), ("p2", "surrender"), ("p3", "surrender")):
        state = _fold(ART_OF_WAR.move(state, seat, {"stance": stance}, draws), state)  # type: ignore[arg-type]
    state = _fold(ART_OF_WAR.resolve(state, {"p1": [], "p2": [], "p3": []}, draws), state)
    ending = ART_OF_WAR.ending(state)
    assert ending is not None
    assert (ending.by, ending.results) == (
        "mercy",
        {"p1": "won", "p2": "survived", "p3": "survived"},
    )
    assert ART_OF_WAR.to_move(state).seats == frozenset()


def _orders(state: Play, seat: str, rng: SeededRandom) -> list[str]:
    """Aggressive orders: every owned territory with units attacks a random neighbour."""
    board = play_board(state)
    position = state.position
    lines = [
        f"place {position.pending_builds[seat]} {t}"
        for t in sorted(position.owners)[:1]
        if position.owners[t] == seat and position.pending_builds.get(seat)
    ]
    for territory, owner in sorted(position.owners.items()):
        units = position.units.get(territory, 0)
        if owner == seat and units:
            target = rng.choice(sorted(board.neighbours[territory]))
            lines.append(f"{territory} {rng.between(1, units)} to {target}")
    return [", ".join(lines)]


def _play(seed: int, options: dict[str, Any], seats: int) -> tuple[Play, list[tuple[Any, ...]]]:
    """A whole game, every step kept as (state before, kind, seat, move, events, draws)."""
    rng = SeededRandom(seed)
    secret = seed.to_bytes(8, "big") * 4
    checked = ART_OF_WAR.check_options(options)
    names = tuple(f"p{n}" for n in range(1, seats + 1))
    state = _fold(ART_OF_WAR.setup(checked, names, Draws(secret)))
    steps: list[tuple[Any, ...]] = []
    for turn in range(1, 80):
        wait = ART_OF_WAR.to_move(state)
        if not wait.seats:
            break
        draws = Draws(secret, generation=turn % 3)
        moves: dict[str, Any] = {}
        for seat in sorted(wait.seats):
            if rng.below(40) == 0:
                events = ART_OF_WAR.leave(state, seat)
                steps.append((state, "leave", seat, None, events, draws))
                state = _fold(events, state)
                continue
            if turn > 60:  # nobody won: everyone leaves, and the game is abandoned
                events = ART_OF_WAR.leave(state, seat)
                steps.append((state, "leave", seat, None, events, draws))
                state = _fold(events, state)
                continue
            if turn > 40 or rng.below(10) == 0:
                stance = "offer_mercy" if seat == min(wait.seats) else "surrender"
                try:
                    decision = ART_OF_WAR.move(state, seat, {"stance": stance}, draws)
                except MoveRefused:  # binding: no way back from surrender
                    assert state.options.diplomacy == "binding"
                else:
                    assert isinstance(decision, list)
                    steps.append((state, "act", seat, {"stance": stance}, decision, draws))
                    state = _fold(decision, state)
            sealed = ART_OF_WAR.move(state, seat, _orders(state, seat, rng), draws)
            assert isinstance(sealed, Sealed)
            moves[seat] = msgspec.to_builtins(sealed.move)
        if not ART_OF_WAR.to_move(state).seats:
            break  # everyone left: nothing to resolve
        events = ART_OF_WAR.resolve(state, moves, draws)
        steps.append((state, "resolution", None, moves, events, draws))
        state = _fold(events, state)
    return state, steps


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**63),
    seats=st.integers(2, 4),
    initial=st.sampled_from(["one", "fill"]),
    placement=st.sampled_from(["automatic", "free"]),
    diplomacy=st.sampled_from(["free", "binding"]),
)
def test_seeded_whole_games_end_and_replay_identically(
    seed: int, seats: int, initial: str, placement: str, diplomacy: str
) -> None:
    # aow-mini seats two apart whatever the draw, not always more.
    map_name = "aow-mini" if seats == 2 else "world"
    options = {"map": map_name, "initial": initial, "placement": placement}
    options["diplomacy"] = diplomacy
    final, steps = _play(seed, options, seats)
    ending = ART_OF_WAR.ending(final)
    assert ending is not None, "the game did not end"
    assert set(ending.results) == set(final.seats)
    assert ending.by == "abandoned" or ending.winners or "drew" in ending.results.values()
    for state, kind, seat, move, events, draws in steps:
        again: object
        match kind:
            case "leave":
                again = ART_OF_WAR.leave(state, seat)
            case "act":
                again = ART_OF_WAR.move(state, seat, move, draws)
            case _:
                again = ART_OF_WAR.resolve(state, move, draws)
        assert again == events
    assert _play(seed, options, seats)[0] == final
