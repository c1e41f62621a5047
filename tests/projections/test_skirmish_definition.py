"""Skirmish Society's definition (projections/skirmish/definition.py) makes, step for step,
the events the room's commands make for it: its start, orders, ballots, join-forces requests
and resolutions, once stamped with the room's facts of the step."""

from typing import Any

import pytest
from msgspec.structs import replace

from projections.owned import OwnEvents, Reseat, Stamp
from projections.skirmish.definition import SKIRMISH_SOCIETY_GAME
from projections.skirmish.state import SkirmishEvent, SkirmishPlay
from rules.game import Daily, Draws, MoveRefused, OptionsRefused, Reminder, Wait
from rules.game import Game as Definition
from schema.game_events import GameStarted, OrdersSubmitted, TurnResolved, VoteCast
from schema.refusals import Conflict
from tests.server.decide.given import (
    NONCE,
    SECRET,
    Game,
    account,
    armies_of,
    joint_players,
    noon,
    resolve,
    start_event,
    started,
    submit,
)

GAME = SKIRMISH_SOCIETY_GAME
DRAWS = Draws(SECRET)


def _options(game: Game) -> dict[str, Any]:
    """The game's options, with the vote's schedule from its settings (the room's start)."""
    settings = game.state.settings
    votes = {"votes": settings.votes, "vote_start_turn": settings.vote_start_turn}
    return GAME.check_options({**game.state.options, **votes})


def _stamp(game: Game, player: int | None = None, *, at: Any = None) -> Stamp:
    return Stamp(
        at=noon(game.state.turn) if at is None else at,
        game_id=game.state.game_id,
        account=None if player is None else account(player),
        nonce=NONCE,
    )


def test_it_is_a_game_whose_events_are_the_room_s_own() -> None:
    game: Definition[SkirmishPlay, SkirmishEvent] = GAME  # mypy checks the protocol
    assert isinstance(game, OwnEvents)
    assert (GAME.name, GAME.version) == ("skirmish-society", 1)
    assert GAME.read_text("AE H") is None


@pytest.mark.parametrize("settings", [{}, {"map": "diplomacy-land"}, {"vote_start_turn": 1}])
def test_its_setup_is_the_room_s_start(settings: dict[str, Any]) -> None:
    game = started(4, **settings)
    (start,) = GAME.setup(_options(game), tuple(game.state.players), DRAWS)
    assert isinstance(start, GameStarted)
    room = start_event(game)
    assert GAME.stamped(start, _stamp(game, at=room.at)) == replace(
        room, secret=None, commitment=None
    )


def test_its_seats_are_3_to_the_map_s_homes() -> None:
    assert GAME.seat_range(GAME.check_options({})) == (3, 20)
    assert GAME.seat_range(GAME.check_options({"map": "diplomacy-land"}))[0] == 3
    with pytest.raises(OptionsRefused):
        GAME.check_options({"map": "no-such-map"})
    with pytest.raises(OptionsRefused):
        GAME.check_options({"map": "rulebook"})
    with pytest.raises(OptionsRefused):
        GAME.check_options({"board": "big"})
    with pytest.raises(OptionsRefused):
        GAME.check_options({"seed": "seven"})


def test_its_clock_is_a_day_s_or_fifteen_minutes_with_lock_windows_from_its_settings() -> None:
    play = started(3).state.skirmish
    seats = frozenset({"p1", "p2", "p3"})
    everyone_once = Reminder(3600, everyone=True, once_a_turn=True)
    # Noon local at UTC+2: 10:00 UTC, after 70 minutes (two locks and an hour of orders), or
    # strictly after one lock since an unpause.
    room = replace(play.room, settings=replace(play.room.settings, utc_offset=2))
    assert GAME.to_move(replace(play, room=room)) == Wait(
        seats=seats,
        sealed=True,
        daily=Daily(10, not_before=4200, after_unpause=300),
        lock=300,
        reminder=everyone_once,
        closes="admin",
    )
    fast = replace(play.room, settings=replace(play.room.settings, fast_mode=True))
    assert GAME.to_move(replace(play, room=fast)) == Wait(
        seats=seats,
        sealed=True,
        seconds=900,
        lock=60,
        reminder=Reminder(180, everyone=True, once_a_turn=True),
        closes="admin",
        restarts=True,
    )


def test_its_moves_are_the_room_s_commands() -> None:
    game = started(3, vote_start_turn=1)
    play = game.state.skirmish
    wait = GAME.to_move(play)
    assert (wait.seats, wait.sealed, wait.closes) == (frozenset({"p1", "p2", "p3"}), True, "admin")
    army = armies_of(game.state, "p1")[0]
    (orders,) = GAME.move(play, "p1", {"orders": f"{army} H"}, DRAWS)
    assert isinstance(orders, OrdersSubmitted)
    (room,) = submit(game, 1, f"{army} H")
    assert GAME.stamped(orders, _stamp(game, 1)) == room
    vote = play.vote
    assert vote is not None
    (ballot,) = GAME.move(game.state.skirmish, "p2", {"vote": vote.candidates[0]}, DRAWS)
    assert ballot == VoteCast(player_id="p2", turn=1, effect=vote.candidates[0])
    with pytest.raises(MoveRefused):
        GAME.move(play, "p1", {"orders": "AE H", "vote": "STORM"}, DRAWS)


def test_its_refusals_are_the_room_s() -> None:
    game = started(3)
    with pytest.raises(Conflict, match="there is no vote this turn"):
        GAME.move(game.state.skirmish, "p1", {"vote": "STORM"}, DRAWS)


def test_its_resolution_is_the_room_s_with_the_joint_players_reseated() -> None:
    game = joint_players()
    before = game.state.skirmish
    (resolved,) = GAME.resolve(before, {}, Draws(game.state.randomness))
    room = resolve(game)
    assert isinstance(resolved, TurnResolved)
    assert GAME.stamped(resolved, _stamp(game, at=room.at)) == room
    assert GAME.reseated(room) == Reseat(merged=dict(room.joined), out=tuple(room.eliminated))
    assert room.joined
    # Each seat's results, as the room sends them after the resolution (all take notices).
    assert GAME.results(before, room, list(before.room.seats)) == game.events[-4:]
