"""What players do during a turn: orders, join-forces requests, their look, messages."""

import re
from datetime import datetime, timedelta

import pytest

from projections.skirmish.orders import MAX_SUBMISSIONS
from schema import errors as codes
from schema.commands import (
    Actor,
    BanPlayer,
    Broadcast,
    ChangeLook,
    ChangeSettings,
    JoinGame,
    PauseGame,
    RequestJoinForces,
    Resign,
    SetNotifications,
    StartGame,
    SubmitOrders,
    UnbanPlayer,
)
from schema.game_events import (
    JoinForcesRequested,
    MessageBroadcast,
    NotificationsChanged,
    OrdersSubmitted,
    PlayerBanned,
    PlayerLookChanged,
    PlayerUnbanned,
    RecordedOrder,
)
from schema.receipts import receipt, verify
from schema.refusals import (
    InvalidCommand,
    OrdersLocked,
    QuotaExceeded,
    WrongPhase,
    WrongTurn,
)
from tests.server.decide.given import (
    ADMIN,
    NONCE,
    NOON,
    SECRET,
    T0,
    account,
    armies_of,
    at,
    created,
    during,
    free_neighbours,
    join_forces_example,
    joined,
    joint_players,
    noon,
    on_board,
    refused,
    resolve,
    started,
    submit,
)

# --- submit orders ------------------------------------------------------------------


def test_orders_are_checked_as_they_are_sent_and_recorded_with_their_reasons() -> None:
    game = started(3)
    state = game.state
    mine, theirs = armies_of(state, "p1"), armies_of(state, "p2")
    free = free_neighbours(state, mine[0])[0]
    text = f"{mine[0]} to {free}, {mine[1]} H, {theirs[0]} H, QQ H"
    assert game.when(
        SubmitOrders(nonce=NONCE, actor=Actor(account(1)), now=during(1), text=text, turn=1)
    ) == [
        OrdersSubmitted(
            player_id="p1",
            turn=1,
            text=text,
            account_id=account(1),
            checked=[
                RecordedOrder(f"{mine[0]} to {free}", mine[0], "move", valid=True, target=free),
                RecordedOrder(f"{mine[1]} H", mine[1], "hold", valid=True),
                RecordedOrder(
                    f"{theirs[0]} H",
                    theirs[0],
                    "hold",
                    valid=False,
                    reason=f"not your army: {theirs[0]}",
                ),
                RecordedOrder("QQ H", None, None, valid=False, reason="no such territory: QQ"),
            ],
            receipt=receipt("g1", 1, "p1", text, NONCE),
            nonce=NONCE.hex(),
        )
    ]


def test_a_receipt_commits_to_the_game_turn_player_text_and_nonce() -> None:
    game = started(3)
    (event,) = submit(game, 2, "AB H, CD H")
    assert isinstance(event, OrdersSubmitted)
    assert event.receipt is not None
    assert event.nonce is not None
    assert verify(event.receipt, "g1", 1, "p2", "AB H, CD H", event.nonce)
    for changed in (
        ("g2", 1, "p2", "AB H, CD H", event.nonce),
        ("g1", 2, "p2", "AB H, CD H", event.nonce),
        ("g1", 1, "p1", "AB H, CD H", event.nonce),
        ("g1", 1, "p2", "AB H, CD to EF", event.nonce),
        ("g1", 1, "p2", "AB H, CD H", bytes(32).hex()),
    ):
        assert not verify(event.receipt, *changed)


def test_every_submission_of_a_turn_is_kept() -> None:
    game = started(3)
    first, second = armies_of(game.state, "p1")
    submit(game, 1, f"{first} H")
    submit(game, 1, f"{second} H")
    assert [s.text for s in game.state.skirmish.submissions["p1"]] == [f"{first} H", f"{second} H"]


def test_only_a_player_sends_orders() -> None:
    with refused(codes.NOT_A_PLAYER, "not a player"):
        started(3).when(
            SubmitOrders(nonce=NONCE, actor=Actor("acct-stranger"), now=during(1), text="AB H")
        )


def test_a_resigned_player_sends_no_orders() -> None:
    game = started(3)
    game.run(Resign(actor=Actor(account(1)), now=during(1)))
    with refused(codes.PLAYER_RESIGNED, "Player 1 has resigned"):
        submit(game, 1, "AB H")


def test_a_banned_player_sends_no_orders() -> None:
    game = started(3)
    game.run(BanPlayer(actor=Actor(ADMIN), now=during(1), player_id="p1"))
    with refused(codes.BANNED, "Player 1 is banned"):
        submit(game, 1, "AB H")


def test_no_orders_before_the_start() -> None:
    with pytest.raises(WrongPhase, match="the game is joining"):
        joined(3).when(SubmitOrders(nonce=NONCE, actor=Actor(account(1)), now=T0, text="AB H"))


def test_orders_are_taken_while_the_game_is_paused() -> None:
    game = started(3)
    game.run(PauseGame(actor=Actor(ADMIN), now=at(10)))
    (event,) = game.when(SubmitOrders(nonce=NONCE, actor=Actor(account(1)), now=NOON, text="AB H"))
    assert isinstance(event, OrdersSubmitted)


def test_orders_meant_for_another_turn_are_refused() -> None:
    game = started(3)
    resolve(game)
    with pytest.raises(WrongTurn, match="the game is at turn 2, not 1"):
        game.when(
            SubmitOrders(nonce=NONCE, actor=Actor(account(1)), now=during(2), text="AB H", turn=1)
        )
    (event,) = game.when(
        SubmitOrders(nonce=NONCE, actor=Actor(account(1)), now=during(2), text="AB H", turn=2)
    )
    assert isinstance(event, OrdersSubmitted)
    assert event.turn == 2


# When the refusal says orders open again, as people read it.
AT_12_05 = "open again at 2026-11-21 12:05 UTC (12:05 local time, in"
AT_08_16 = "open again at 2026-11-21 08:16 UTC (08:16 local time, in"


def _orders(now: datetime, text: str = "AB H") -> SubmitOrders:
    return SubmitOrders(nonce=NONCE, actor=Actor(account(1)), now=now, text=text)


def test_orders_are_locked_from_five_minutes_before_the_resolution() -> None:
    game = started(3)
    (event,) = game.when(_orders(NOON - timedelta(minutes=5, seconds=1)))
    assert isinstance(event, OrdersSubmitted)
    for now in (NOON - timedelta(minutes=5), NOON - timedelta(seconds=1)):
        with pytest.raises(OrdersLocked, match=re.escape(AT_12_05)) as locked:
            game.when(_orders(now))
        assert locked.value.orders_open_at == NOON + timedelta(minutes=5)
        assert locked.value.code == "orders_locked"


def test_orders_are_locked_until_five_minutes_after_the_resolution() -> None:
    game = started(3)
    resolve(game)
    with pytest.raises(OrdersLocked, match=re.escape(AT_12_05)) as locked:
        game.when(_orders(NOON + timedelta(minutes=4, seconds=59)))
    assert locked.value.details() == {"orders_open_at": NOON + timedelta(minutes=5)}
    (event,) = game.when(_orders(NOON + timedelta(minutes=5)))
    assert isinstance(event, OrdersSubmitted)


def test_in_fast_mode_the_lock_windows_last_one_minute() -> None:
    game = started(3, fast_mode=True)
    # Turn 1 resolves at 08:15.
    assert len(game.when(_orders(at(13) + timedelta(seconds=59)))) == 1
    with pytest.raises(OrdersLocked, match=re.escape(AT_08_16)):
        game.when(_orders(at(14)))
    resolve(game, now=at(15))
    with pytest.raises(OrdersLocked, match=re.escape(AT_08_16)) as locked:
        game.when(_orders(at(15.5)))
    assert locked.value.orders_open_at == at(16)
    (event,) = game.when(_orders(at(16)))
    assert isinstance(event, OrdersSubmitted)


@pytest.mark.parametrize(("text", "problem"), [(" \n ", "empty"), ("H" * 4001, "too long")])
def test_orders_need_some_text_and_not_too_much(text: str, problem: str) -> None:
    with pytest.raises(InvalidCommand, match=f"the orders is {problem}"):
        started(3).when(_orders(during(1), text))


def test_a_player_sends_at_most_a_hundred_submissions_a_turn() -> None:
    """rules.md: past the bound the submission is refused; the orders already in stay."""
    game = started(3)
    (army,) = armies_of(game.state, "p1")[:1]
    for n in range(MAX_SUBMISSIONS):
        submit(game, 1, f"{army} H" if n % 2 else f"{army} hold")
    with pytest.raises(QuotaExceeded, match="at most 100 submissions in a turn") as refused:
        submit(game, 1, f"{army} H")
    assert (refused.value.status, refused.value.code) == (429, "turn_quota")
    # It comes back when the turn resolves: at noon, four hours after 08:00.
    assert refused.value.retry_after == 4 * 3600
    assert len(game.state.skirmish.submissions["p1"]) == MAX_SUBMISSIONS
    # Other players and the next turn are not touched by p1's quota.
    submit(game, 2, "anything")
    resolve(game)
    submit(game, 1, f"{army} H")


def test_a_player_sends_at_most_a_thousand_order_lines_a_turn() -> None:
    game = started(3)
    (army,) = armies_of(game.state, "p1")[:1]
    line = f"{army} H"
    for _ in range(9):
        submit(game, 1, ", ".join([line] * 100))
    submit(game, 1, ", ".join([line] * 99))
    with pytest.raises(QuotaExceeded, match="at most 1000 order lines in a turn"):
        submit(game, 1, f"{line}, {line}")
    (last,) = submit(game, 1, line)
    assert isinstance(last, OrdersSubmitted)
    with pytest.raises(QuotaExceeded):
        submit(game, 1, line)
    # Nonsense counts as lines too: it is what a flood would send.
    with pytest.raises(QuotaExceeded):
        submit(started(3), 1, "x," * 1001)


def test_each_seat_of_a_sandbox_has_its_own_quota() -> None:
    game = created(sandbox=True)
    for name in ("Red", "Blue", "Green"):
        game.run(JoinGame(actor=Actor(ADMIN), now=T0, name=name))
    game.run(StartGame(actor=Actor(ADMIN), now=T0, secret=SECRET))
    for _ in range(MAX_SUBMISSIONS):
        game.run(
            SubmitOrders(nonce=NONCE, actor=Actor(ADMIN), now=during(1), text="x", as_player="p1")
        )
    with pytest.raises(QuotaExceeded):
        game.when(
            SubmitOrders(nonce=NONCE, actor=Actor(ADMIN), now=during(1), text="x", as_player="p1")
        )
    game.run(SubmitOrders(nonce=NONCE, actor=Actor(ADMIN), now=during(1), text="x", as_player="p2"))


def test_outside_a_sandbox_nobody_sends_orders_for_another_player() -> None:
    game = started(3)
    for actor in (ADMIN, account(2)):
        with refused(codes.NOT_YOUR_PLAYER, "only a sandbox's admin"):
            game.when(
                SubmitOrders(
                    nonce=NONCE, actor=Actor(actor), now=during(1), text="AB H", as_player="p1"
                )
            )


def test_a_sandbox_admin_sends_orders_for_any_player() -> None:
    game = created(sandbox=True)
    for name in ("Red", "Blue", "Green"):
        game.run(JoinGame(actor=Actor(ADMIN), now=T0, name=name))
    game.run(StartGame(actor=Actor(ADMIN), now=T0, secret=SECRET))
    army = armies_of(game.state, "p2")[0]
    (event,) = game.when(
        SubmitOrders(
            nonce=NONCE, actor=Actor(ADMIN), now=during(1), text=f"{army} H", as_player="p2"
        )
    )
    assert isinstance(event, OrdersSubmitted)
    assert (event.player_id, event.account_id, event.checked[0].valid) == ("p2", ADMIN, True)


# --- join forces --------------------------------------------------------------------


BEHIND = {"p1": 5, "p2": 0, "p3": 0, "p4": 0}


def _request(player: int, with_player: str) -> RequestJoinForces:
    return RequestJoinForces(actor=Actor(account(player)), now=during(2), with_player=with_player)


def test_the_example_board_has_the_rulebooks_territory_counts() -> None:
    control = join_forces_example(BEHIND).state.skirmish.board.control
    counts = {p: sum(1 for owner in control.values() if owner == p) for p in BEHIND}
    assert counts == {"p1": 8, "p2": 6, "p3": 4, "p4": 2}


def test_b_and_c_cannot_join_forces_above_the_largest_territory_count() -> None:
    with refused(
        codes.JOIN_FORCES_TOO_LARGE,
        re.escape(
            "together Player 2 and Player 3 would control 10 territories, "
            "more than the most any player controls (8)"
        ),
    ):
        join_forces_example(BEHIND).when(_request(2, "p3"))


@pytest.mark.parametrize(("player", "other"), [(2, "p4"), (4, "p2"), (3, "p4"), (4, "p3")])
def test_b_and_d_or_c_and_d_may_join_forces(player: int, other: str) -> None:
    assert join_forces_example(BEHIND).when(_request(player, other)) == [
        JoinForcesRequested(player_id=f"p{player}", with_player=other, turn=2)
    ]


@pytest.mark.parametrize(
    ("b", "d", "allowed"),
    [(2, 4, True), (4, 2, True), (3, 4, False), (3, 3, False)],
)
def test_one_of_the_two_must_be_three_vp_behind_the_leader(b: int, d: int, allowed: bool) -> None:
    game = join_forces_example({"p1": 5, "p2": b, "p3": 0, "p4": d})
    if allowed:
        assert len(game.when(_request(2, "p4"))) == 1
        return
    with refused(codes.JOIN_FORCES_NOT_BEHIND, re.escape("at least 3 VP behind the leader (5 VP)")):
        game.when(_request(2, "p4"))


def test_nobody_joins_forces_before_someone_has_three_vp() -> None:
    game = join_forces_example({"p1": 2, "p2": 0, "p3": 0, "p4": 0})
    with refused(codes.JOIN_FORCES_NOT_BEHIND, re.escape("behind the leader (2 VP)")):
        game.when(_request(2, "p4"))


def test_a_player_cannot_join_forces_with_itself() -> None:
    with refused(codes.JOIN_FORCES_WITH_ITSELF, "cannot join forces with itself"):
        join_forces_example(BEHIND).when(_request(2, "p2"))


def test_join_forces_names_a_player_still_in_the_game() -> None:
    game = join_forces_example(BEHIND)
    with refused(codes.PLAYER_NOT_FOUND, "no such player in the game: p9"):
        game.when(_request(2, "p9"))
    game.run(Resign(actor=Actor(account(4)), now=during(2)))
    with refused(codes.PLAYER_NOT_FOUND, "no such player in the game: p4"):
        game.when(_request(2, "p4"))


def test_join_forces_is_for_players_of_a_running_game() -> None:
    with refused(codes.NOT_A_PLAYER, "not a player"):
        join_forces_example(BEHIND).when(
            RequestJoinForces(actor=Actor("acct-stranger"), now=during(2), with_player="p4")
        )
    with pytest.raises(WrongPhase):
        joined(4).when(RequestJoinForces(actor=Actor(account(2)), now=T0, with_player="p4"))


def test_mutual_requests_merge_at_resolution_with_the_lower_vp() -> None:
    game = joint_players()
    before = game.state.skirmish.board.control
    event = resolve(game)
    assert event.joined == {"p2/p4": ("p2", "p4")}
    assert event.vp["p2/p4"] == 3
    assert set(event.vp) == {"p1", "p3", "p2/p4"}
    joint_territories = sorted(t for t, p in event.board.control.items() if p == "p2/p4")
    assert len(joint_territories) == 9
    assert set(joint_territories) >= {t for t, p in before.items() if p in ("p2", "p4")}
    assert sorted(t for t, p in event.board.armies.items() if p == "p2/p4") == sorted(
        t for t, p in event.board.armies.items() if p not in ("p1", "p3")
    )


def test_the_requirements_are_not_checked_again_at_resolution() -> None:
    # B's move made the pair 9 territories, above A's 8: they merge all the same.
    event = resolve(joint_players())
    assert sum(1 for p in event.board.control.values() if p == "p2/p4") > 8
    assert event.joined == {"p2/p4": ("p2", "p4")}


def test_the_joint_player_is_named_a_slash_b_and_both_accounts_act_for_it() -> None:
    game = joint_players()
    resolve(game)
    joint = game.state.players["p2/p4"]
    assert (joint.name, joint.accounts, game.state.skirmish.vp_of(joint.id)) == (
        "Player 2/Player 4",
        (account(2), account(4)),
        3,
    )
    assert joint.id in game.state.skirmish.joined_forces
    assert set(game.state.players) == {"p1", "p3", "p2/p4"}
    for player in (2, 4):
        (event,) = game.when(
            SubmitOrders(nonce=NONCE, actor=Actor(account(player)), now=during(3), text="AB H")
        )
        assert isinstance(event, OrdersSubmitted)
        assert (event.player_id, event.account_id) == ("p2/p4", account(player))


def test_a_one_sided_request_merges_nobody() -> None:
    game = join_forces_example(BEHIND)
    game.run(_request(2, "p4"))
    assert resolve(game).joined == {}
    assert set(game.state.players) == {"p1", "p2", "p3", "p4"}


def test_a_player_joins_forces_only_once() -> None:
    game = joint_players()
    resolve(game)
    with refused(codes.JOINED_FORCES_BEFORE, "Player 2/Player 4 has already joined forces once"):
        game.when(RequestJoinForces(actor=Actor(account(4)), now=during(3), with_player="p3"))
    with refused(codes.JOINED_FORCES_BEFORE, "Player 2/Player 4 has already joined forces once"):
        game.when(RequestJoinForces(actor=Actor(account(3)), now=during(3), with_player="p2/p4"))


# --- look ---------------------------------------------------------------------------


def test_a_player_changes_colour_pattern_and_name() -> None:
    game = started(3)
    look = ChangeLook(
        actor=Actor(account(1)), now=during(1), name="Red Baron", color=20, pattern=16
    )
    assert game.run(look) == [
        PlayerLookChanged(player_id="p1", name="Red Baron", color=20, pattern=16)
    ]
    player = game.state.players["p1"]
    assert (player.name, player.color, player.pattern) == ("Red Baron", 20, 16)


def test_the_look_can_change_in_the_join_phase() -> None:
    assert joined(3).when(ChangeLook(actor=Actor(account(1)), now=T0, color=5)) == [
        PlayerLookChanged(player_id="p1", name="Player 1", color=5, pattern=1)
    ]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"color": 0}, "color must be between 1 and 20, not 0"),
        ({"color": 21}, "color must be between 1 and 20, not 21"),
        ({"pattern": 0}, "pattern must be between 1 and 16, not 0"),
        ({"pattern": 17}, "pattern must be between 1 and 16, not 17"),
        ({"name": ""}, "the name is empty"),
        ({"name": "x" * 33}, "the name is too long"),
        ({"name": "Zed\n1. Mallory: 99 VP"}, "the name must be one line of printable text"),
    ],
)
def test_a_look_stays_in_range(change: dict[str, object], problem: str) -> None:
    command = ChangeLook(actor=Actor(account(1)), now=during(1), **change)  # type: ignore[arg-type]
    with pytest.raises(InvalidCommand, match=problem):
        started(3).when(command)


def test_a_name_in_use_by_another_player_is_refused_whatever_its_case() -> None:
    with refused(codes.NAME_TAKEN, "the name 'player 2' is taken"):
        started(3).when(ChangeLook(actor=Actor(account(1)), now=during(1), name="player 2"))


def test_a_player_may_recase_its_own_name() -> None:
    assert started(3).when(ChangeLook(actor=Actor(account(1)), now=during(1), name="PLAYER 1")) == [
        PlayerLookChanged(player_id="p1", name="PLAYER 1", color=1, pattern=1)
    ]


def test_the_same_look_again_records_nothing() -> None:
    assert (
        started(3).when(ChangeLook(actor=Actor(account(1)), now=during(1), color=1, pattern=1))
        == []
    )


def test_only_a_player_has_a_look() -> None:
    with refused(codes.NOT_A_PLAYER, "not a player"):
        started(3).when(ChangeLook(actor=Actor("acct-stranger"), now=during(1), color=2))


# --- notifications ------------------------------------------------------------------


def test_notifications_switch_off_and_on_and_a_repeat_records_nothing() -> None:
    game = started(3)
    off = SetNotifications(actor=Actor(account(1)), now=during(1), enabled=False)
    assert game.run(off) == [NotificationsChanged(player_id="p1", enabled=False)]
    assert game.when(off) == []
    on = SetNotifications(actor=Actor(account(1)), now=during(1), enabled=True)
    assert game.run(on) == [NotificationsChanged(player_id="p1", enabled=True)]
    assert game.state.players["p1"].notifications


def test_only_a_player_has_notifications() -> None:
    with refused(codes.NOT_A_PLAYER, "not a player"):
        started(3).when(
            SetNotifications(actor=Actor("acct-stranger"), now=during(1), enabled=False)
        )


# --- broadcast ----------------------------------------------------------------------


def test_a_broadcast_is_an_anonymous_message() -> None:
    message = Broadcast(actor=Actor(account(1)), now=during(1), message="  Beware the north!  ")
    assert started(3).when(message) == [MessageBroadcast(message="Beware the north!")]


def test_no_broadcast_when_an_admin_switched_broadcasting_off() -> None:
    game = started(3)
    game.run(ChangeSettings(actor=Actor(ADMIN), now=during(1), broadcasting=False))
    with refused(codes.BROADCASTING_OFF, "switched broadcasting off"):
        game.when(Broadcast(actor=Actor(account(1)), now=during(1), message="hello"))


@pytest.mark.parametrize(("message", "problem"), [("x" * 1001, "too long"), ("  ", "empty")])
def test_a_broadcast_has_a_sensible_length(message: str, problem: str) -> None:
    with pytest.raises(InvalidCommand, match=f"the message is {problem}"):
        started(3).when(Broadcast(actor=Actor(account(1)), now=during(1), message=message))


def test_a_broadcast_of_the_longest_length_goes_out() -> None:
    assert (
        len(started(3).when(Broadcast(actor=Actor(account(1)), now=during(1), message="x" * 1000)))
        == 1
    )


def test_only_a_player_broadcasts_in_a_live_game() -> None:
    with refused(codes.NOT_A_PLAYER, "not a player"):
        started(3).when(Broadcast(actor=Actor("acct-stranger"), now=during(1), message="hello"))
    game = on_board(
        {"EH": "p1", "MA": "p2", "MJ": "p3"},
        {"SG": "p1", "OG": "p1", "BF": "p1", "VW": "p1"},
        vp_target=1,
    )
    resolve(game)
    with pytest.raises(WrongPhase, match="the game is finished"):
        game.when(Broadcast(actor=Actor(account(1)), now=noon(2), message="gg"))


def test_join_forces_requests_are_locked_around_a_resolution() -> None:
    game = join_forces_example({"p1": 7, "p2": 4, "p3": 0, "p4": 3})
    with pytest.raises(OrdersLocked):
        game.when(RequestJoinForces(actor=Actor(account(2)), now=noon(2), with_player="p4"))


def test_banning_a_joint_player_bans_both_of_its_accounts() -> None:
    game = joint_players()
    resolve(game)
    (joint,) = (p for p in game.state.players.values() if len(p.accounts) == 2)
    events = game.run(BanPlayer(actor=Actor(ADMIN), now=during(3), player_id=joint.id))
    assert events == [PlayerBanned(account_id=a, player_id=joint.id) for a in joint.accounts]
    assert game.state.banned_accounts >= set(joint.accounts)
    for number in (2, 4):
        with refused(codes.BANNED, "banned"):
            game.when(
                SubmitOrders(nonce=NONCE, actor=Actor(account(number)), now=during(3), text="XX H")
            )


def test_unbanning_a_joint_player_lets_both_of_its_accounts_play_again() -> None:
    game = joint_players()
    resolve(game)
    (joint,) = (p for p in game.state.players.values() if len(p.accounts) == 2)
    game.run(BanPlayer(actor=Actor(ADMIN), now=during(3), player_id=joint.id))
    events = game.run(UnbanPlayer(actor=Actor(ADMIN), now=during(3), player_id=joint.id))
    assert events == [PlayerUnbanned(account_id=a) for a in joint.accounts]
    assert not game.state.banned_accounts & set(joint.accounts)
    assert not game.state.players[joint.id].banned
