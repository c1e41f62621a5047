"""What a game looks like from outside: standings, the public game, a player's orders."""

from datetime import datetime, timedelta
from typing import Any

import msgspec

from projections.views import my_orders, public_game, standings
from schema.commands import Actor, CastVote, ChangeLook, PauseGame, StartGame, UnpauseGame
from schema.game_events import RecordedOrder
from schema.live import StandingsMessage
from schema.views import VoteView
from tests.server.decide.given import (
    ADMIN,
    NOON,
    SECRET,
    T0,
    Game,
    account,
    armies_of,
    at,
    during,
    free_neighbours,
    joined,
    noon,
    on_board,
    resolve,
    scored,
    started,
    submit,
)

# Votes in every turn from the first.
EVERY_TURN: dict[str, Any] = {"votes": "every_turn", "vote_start_turn": 1}


def test_standings_order_by_vp_then_territories_then_name() -> None:
    game = on_board(
        {"EH": "p1", "MA": "p2", "MJ": "p3", "KU": "p4"},
        {"SG": "p1", "BF": "p1", "FI": "p3", "KH": "p4"},
        players=4,
    )
    scored(game, {"p1": 1, "p2": 3, "p3": 1, "p4": 1})
    game.run(ChangeLook(actor=Actor(account(3)), now=during(2), name="zed"))
    views = standings(game.state)
    assert [(v.id, v.vp, v.territories, v.armies) for v in views] == [
        ("p2", 3, 1, 1),
        ("p1", 1, 3, 1),
        ("p4", 1, 2, 1),
        ("p3", 1, 2, 1),
    ]


def test_skirmish_societys_standings_message_is_as_it_always_was() -> None:
    """The columns other games brought (`standing`, `to_move`, `moved`) are not Skirmish
    Society's: its message is byte for byte what it was before them."""
    game = on_board({"EH": "p1", "MA": "p2", "MJ": "p3"}, {"SG": "p1", "FI": "p3"}, players=3)
    scored(game, {"p1": 1, "p2": 3})
    message = StandingsMessage(7, standings=standings(game.state))
    expected = (
        b'{"type":"standings","position":7,"standings":['
        b'{"id":"p2","name":"Player 2","color":2,"pattern":1,"vp":3,"territories":1,'
        b'"armies":1,"status":"active","banned":false},'
        b'{"id":"p1","name":"Player 1","color":1,"pattern":1,"vp":1,"territories":2,'
        b'"armies":1,"status":"active","banned":false},'
        b'{"id":"p3","name":"Player 3","color":3,"pattern":1,"vp":0,"territories":2,'
        b'"armies":1,"status":"active","banned":false}]}'
    )
    assert msgspec.json.encode(message) == expected


def test_the_public_game_never_shows_pending_orders() -> None:
    game = started(3)
    submit(game, 1, "secretplan H")
    shown = msgspec.json.encode(public_game(game.state, position=5))
    assert b"secretplan" not in shown
    # Once the turn resolves, the orders are history and public.
    resolve(game)
    assert b"secretplan" in msgspec.json.encode(public_game(game.state, position=6))


def test_the_public_game_never_shows_the_seed() -> None:
    seed = 982_451_653
    shown = msgspec.json.encode(public_game(started(3, seed=seed).state, position=1))
    assert str(seed).encode() not in shown


def test_same_day_ballots_are_not_counted_in_public() -> None:
    game = started(3, voting_mode="same_day", **EVERY_TURN)
    vote = game.state.skirmish.vote
    assert vote is not None
    game.run(CastVote(actor=Actor(account(1)), now=during(1), effect=vote.candidates[1]))
    view = public_game(game.state, position=1).vote
    assert view == VoteView(
        turn=1, candidates=vote.candidates, tie_break=vote.tie_break, tally=None
    )


def test_normal_votes_are_counted_in_public() -> None:
    game = started(3, **EVERY_TURN)
    vote = game.state.skirmish.vote
    assert vote is not None
    game.run(CastVote(actor=Actor(account(1)), now=during(1), effect=vote.candidates[1]))
    view = public_game(game.state, position=1).vote
    assert view is not None
    assert view.tally == {vote.candidates[0]: 0, vote.candidates[1]: 1}


def test_the_public_game_shows_no_vote_when_none_is_held() -> None:
    assert public_game(started(3).state, position=1).vote is None


def test_the_public_game_shows_the_standings_the_clock_and_the_position() -> None:
    game = started(3)
    view = public_game(game.state, position=42)
    assert (view.id, view.name, view.phase, view.turn, view.position) == (
        "g1",
        "Test game",
        "running",
        1,
        42,
    )
    assert view.next_resolution_at == NOON
    assert view.players == standings(game.state)
    assert view.board == game.state.skirmish.board


def test_the_public_game_shows_when_this_turn_s_orders_open_and_close() -> None:
    game = joined(3)
    assert _window(game) == (None, None)
    game.run(StartGame(actor=Actor(ADMIN), now=T0, secret=SECRET))
    # Open from the start until the lock window, five minutes before the resolution.
    assert _window(game) == (T0, NOON - timedelta(minutes=5))
    resolve(game)
    assert _window(game) == (NOON + timedelta(minutes=5), noon(2) - timedelta(minutes=5))
    # Paused, orders are taken with no lock, and nothing is scheduled.
    game.run(PauseGame(actor=Actor(ADMIN), now=during(2)))
    assert _window(game) == (None, None)
    game.run(UnpauseGame(actor=Actor(ADMIN), now=during(2)))
    assert _window(game) == (NOON + timedelta(minutes=5), noon(2) - timedelta(minutes=5))


def test_in_fast_mode_the_window_closes_a_minute_before_the_resolution() -> None:
    game = started(3, fast_mode=True)
    assert _window(game) == (T0, at(14))
    resolve(game, now=at(15.5))
    # From the resolution as it happened, however late.
    assert _window(game) == (at(16.5), at(29.5))


def _window(game: Game) -> tuple[datetime | None, datetime | None]:
    view = public_game(game.state, position=1)
    return view.orders_open_at, view.orders_close_at


def test_my_current_orders_are_the_newest_valid_one_per_army() -> None:
    game = started(3)
    first, second = armies_of(game.state, "p1")
    free = free_neighbours(game.state, first)[0]
    submit(game, 1, f"{first} H, {second} H")
    submit(game, 1, f"{first} to {free}, {second} to QQ")
    mine = my_orders(game.state, "p1")
    assert (mine.player, mine.turn) == ("p1", 1)
    assert [[o.text for o in s] for s in mine.submitted] == [
        [f"{first} H", f"{second} H"],
        [f"{first} to {free}", f"{second} to QQ"],
    ]
    assert mine.current == [
        RecordedOrder(f"{first} to {free}", first, "move", valid=True, target=free),
        RecordedOrder(f"{second} H", second, "hold", valid=True),
    ]
    assert my_orders(game.state, "p2").submitted == []


def test_my_last_turn_shows_only_my_valid_orders_with_their_results() -> None:
    game = started(3)
    first, second = armies_of(game.state, "p1")
    free = free_neighbours(game.state, first)[0]
    submit(game, 1, f"{first} H, QQ H")
    submit(game, 1, f"{first} to {free}, {second} H")
    submit(game, 2, f"{armies_of(game.state, 'p2')[0]} H")
    resolve(game)
    mine = my_orders(game.state, "p1")
    assert [(o.text, o.result) for o in mine.last_turn] == [
        (f"{first} to {free}", "succeeded"),
        (f"{second} H", "succeeded"),
    ]
    assert (mine.turn, mine.submitted, mine.current) == (2, [], [])
