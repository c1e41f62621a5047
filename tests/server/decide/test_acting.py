"""The checks every command shares: who acts, may they, and is it the time."""

import re
from datetime import datetime, timedelta

import pytest

from projections.game import GameState
from schema import errors as codes
from schema.bounds import check_range, check_text
from schema.commands import Actor, BanPlayer, Command, JoinGame, KillGame, Resign
from schema.refusals import (
    GameGone,
    OrdersLocked,
    WrongPhase,
)
from server.game.decide.acting import (
    acting_player,
    active_player,
    existing,
    require_admin,
    require_phase,
    require_unlocked,
)
from server.game.times import moment
from tests.server.decide.given import (
    ADMIN,
    NOON,
    T0,
    account,
    created,
    joined,
    on_board,
    refused,
    resolve,
    started,
    submit,
)


def _by(actor: str) -> Command:
    return Command(actor=Actor(actor), now=T0)


def test_a_game_that_was_never_created_is_not_found() -> None:
    with refused(codes.GAME_NOT_FOUND, "no such game"):
        existing(GameState())


def test_a_killed_game_is_gone() -> None:
    game = joined(3)
    game.run(KillGame(actor=Actor(ADMIN), now=T0))
    with pytest.raises(GameGone, match="this game was killed") as refused:
        existing(game.state)
    assert refused.value.status == 410


def test_the_admin_and_the_operator_are_admins_and_players_are_not() -> None:
    state = joined(3).state
    require_admin(state, Actor(ADMIN))
    require_admin(state, Actor("acct-operator", operator=True))
    with refused(codes.ADMIN_ONLY, "only an admin of this game can do that"):
        require_admin(state, Actor(account(1)))


def test_a_wrong_phase_says_which_phases_would_do() -> None:
    state = joined(3).state
    require_phase(state, "joining")
    with pytest.raises(WrongPhase, match="the game is joining; this needs it running or paused"):
        require_phase(state, "running", "paused")


def test_the_acting_player_is_the_one_the_account_plays() -> None:
    state = started(3).state
    assert acting_player(state, Actor(account(2))).id == "p2"
    with refused(codes.NOT_A_PLAYER, "you are not a player in this game"):
        acting_player(state, Actor("acct-stranger"))


def test_a_player_may_name_itself_but_no_one_else_outside_a_sandbox() -> None:
    state = started(3).state
    assert acting_player(state, Actor(account(2)), "p2").id == "p2"
    with refused(codes.NOT_YOUR_PLAYER, "only a sandbox's admin may act for another player"):
        acting_player(state, Actor(account(2)), "p1")
    with refused(codes.NOT_YOUR_PLAYER, "only a sandbox's admin"):
        acting_player(state, Actor(ADMIN), "p1")
    with refused(codes.PLAYER_NOT_FOUND, "no such player: p7"):
        acting_player(state, Actor(account(2)), "p7")


def test_a_sandbox_admin_acts_for_any_player() -> None:
    game = created(sandbox=True)
    game.run(JoinGame(actor=Actor(ADMIN), now=T0, name="Red"))
    state = game.state
    assert acting_player(state, Actor(ADMIN), "p1").id == "p1"
    with refused(codes.NOT_YOUR_PLAYER, "only a sandbox's admin"):
        acting_player(state, Actor(account(2)), "p1")


def test_nobody_but_its_admin_joins_a_sandbox() -> None:
    game = created(sandbox=True)
    with refused(codes.SANDBOX_ADMIN_ONLY, "a sandbox has no real players"):
        game.when(JoinGame(actor=Actor(account(1)), now=T0, name="Guest"))
    for name in ("Red", "Blue"):
        game.run(JoinGame(actor=Actor(ADMIN), now=T0, name=name))
    assert [p.accounts for p in game.state.players.values()] == [(ADMIN,), (ADMIN,)]


def test_an_eliminated_player_no_longer_acts() -> None:
    # p2's only army stands on Margalb and is taken, with its only barracks.
    game = on_board({"AE": "p1", "RG": "p1", "MA": "p2", "MJ": "p3"})
    submit(game, 1, "AE to MA, RG S AE to MA")
    assert resolve(game).eliminated == ["p2"]
    state = game.state
    with refused(codes.NOT_A_PLAYER, "you are not a player in this game"):
        acting_player(state, Actor(account(2)))
    with refused(codes.PLAYER_ELIMINATED, "Player 2 is out of the game and gives no more orders"):
        active_player(state, _by(account(2)), "p2")


def test_a_resigned_or_banned_player_is_not_active() -> None:
    game = started(3)
    game.run(Resign(actor=Actor(account(1)), now=T0))
    game.run(BanPlayer(actor=Actor(ADMIN), now=T0, player_id="p2"))
    state = game.state
    with refused(codes.PLAYER_RESIGNED, "Player 1 has resigned and gives no more orders"):
        active_player(state, _by(account(1)))
    with refused(codes.BANNED, "Player 2 is banned from this game"):
        active_player(state, _by(account(2)))
    assert active_player(state, _by(account(3))).id == "p3"


@pytest.mark.parametrize(
    ("minutes_to_noon", "opens"),
    [
        (5.01, None),
        (5, NOON + timedelta(minutes=5)),
        (0.01, NOON + timedelta(minutes=5)),
    ],
)
def test_the_lock_before_a_resolution(minutes_to_noon: float, opens: datetime | None) -> None:
    state = started(3).state
    now = NOON - timedelta(minutes=minutes_to_noon)
    if opens is None:
        require_unlocked(state, now)
        return
    with pytest.raises(OrdersLocked, match=re.escape(f"open again at {moment(opens, now, 0)}")):
        require_unlocked(state, now)


def test_a_turn_that_is_due_is_locked_until_it_resolves() -> None:
    state = started(3).state
    for late in (timedelta(0), timedelta(hours=3)):
        with pytest.raises(OrdersLocked, match="the turn is due") as locked:
            require_unlocked(state, NOON + late)
        # When it resolves decides when orders open: nobody knows yet.
        assert locked.value.details() == {"orders_open_at": None}


def test_the_lock_after_a_resolution_lasts_five_minutes() -> None:
    game = started(3)
    resolve(game)
    state = game.state
    late = NOON + timedelta(minutes=4, seconds=59)
    with pytest.raises(
        OrdersLocked, match=re.escape("open again at 2026-11-21 12:05 UTC (12:05 local time, in")
    ):
        require_unlocked(state, late)
    require_unlocked(state, NOON + timedelta(minutes=5))


def test_a_game_that_is_not_running_is_never_locked() -> None:
    require_unlocked(joined(3).state, NOON)


def test_text_is_trimmed_and_checked() -> None:
    assert check_text("the orders", "  AB H\n\tCD H  ", 20) == "AB H\n\tCD H"
    with refused(codes.TEXT_EMPTY, "the orders is empty"):
        check_text("the orders", " \n ", 20)
    with refused(codes.TEXT_TOO_LONG, "the orders is too long: at most 4 characters"):
        check_text("the orders", "AB HH", 4)
    with refused(codes.TEXT_UNPRINTABLE, "unprintable"):
        check_text("the orders", "AB\x00H", 20)


def test_a_range_holds_its_bounds_and_refuses_booleans() -> None:
    assert check_range("color", 1, 1, 20) == 1
    assert check_range("color", 20, 1, 20) == 20
    with refused(codes.OUT_OF_RANGE, "color must be between 1 and 20, not 21"):
        check_range("color", 21, 1, 20)
    with refused(codes.OUT_OF_RANGE, "color must be between 1 and 20, not True"):
        check_range("color", True, 1, 20)
