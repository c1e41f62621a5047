"""The game's state, folded from its events: evolve and fold."""

from datetime import datetime, timedelta

import msgspec
from msgspec.structs import replace

from projections.evolve import evolve, fold
from projections.game import GameState, decode_snapshot, encode_snapshot
from projections.skirmish.state import SkirmishPlay
from rules.skirmish.maps import builtin_map
from rules.skirmish.turn import OrderReport
from schema.commands import Actor
from schema.game_events import (
    GameCreated,
    GameForked,
    GameKilled,
    GamePaused,
    GameUnpaused,
    JoinForcesRequested,
    MessageBroadcast,
    NotificationsChanged,
    PlayerBanned,
    PlayerLeft,
    PlayerLookChanged,
    PlayerResigned,
    PlayerUnbanned,
    SettingsChanged,
    TurnRewound,
    Vote,
    VoteCast,
    VoteOutcome,
    game_codec,
)
from tests.projections.skirmish_events import (
    SETTINGS,
    VOTE,
    fold_events,
    joined_events,
    orders,
    started_events,
    turn_resolved,
)
from tests.server.decide.given import ADMIN, NOON, T0, Game, at, forking, noon, resolve, started


def test_creation_opens_the_join_phase() -> None:
    state = evolve(
        GameState(), GameCreated(game_id="g1", settings=SETTINGS, admin=ADMIN, seed=9, at=T0)
    )
    assert (state.game_id, state.phase, state.settings, state.admins, state.seed) == (
        "g1",
        "joining",
        SETTINGS,
        (ADMIN,),
        9,
    )
    assert state.created_at == T0
    assert state.is_admin(Actor(ADMIN))
    assert not state.is_admin(Actor("acct-1"))


def test_players_join_and_leave_and_ids_keep_counting() -> None:
    state = fold_events(*joined_events("Ann", "Bob"), PlayerLeft(player_id="p1"))
    assert list(state.players) == ["p2"]
    player = state.players["p2"]
    assert (player.name, player.accounts, player.color, player.status) == (
        "Bob",
        ("acct-2",),
        2,
        "active",
    )
    assert state.joined_so_far == 2
    assert state.player_of("acct-1") is None
    assert state.player_of("acct-2") == player


def test_the_start_sets_the_map_the_board_turn_one_and_the_clock() -> None:
    state = fold_events(*started_events("Ann", "Bob", "Cy", vote=VOTE))
    assert state.phase == "running"
    assert state.skirmish.map == builtin_map("rulebook")
    assert state.skirmish.board.armies == {"EH": "p1", "MA": "p2", "MJ": "p3"}
    assert (state.turn, state.wait_began_at) == (1, T0)
    assert _earliest(state) == T0 + timedelta(hours=1, minutes=10)
    assert state.skirmish.vote == VOTE
    assert state.next_resolution_at() == NOON


def test_the_turns_submissions_ballots_and_requests_gather() -> None:
    state = fold_events(
        *started_events("Ann", "Bob", "Cy", vote=VOTE),
        orders("p1", "first"),
        orders("p2", "theirs"),
        orders("p1", "second"),
        VoteCast(player_id="p1", turn=1, effect="FEAST"),
        JoinForcesRequested(player_id="p2", with_player="p3", turn=1),
    )
    assert [s.text for s in state.skirmish.submissions["p1"]] == ["first", "second"]
    assert [s.text for s in state.skirmish.submissions["p2"]] == ["theirs"]
    assert state.skirmish.ballots == {"p1": "FEAST"}
    assert state.skirmish.join_requests == {"p2": "p3"}


def test_a_resolution_moves_to_the_next_turn_and_clears_the_turns_business() -> None:
    next_vote = Vote(turn=2, candidates=("HARVEST", "TRUCE"), tie_break="TRUCE")
    outcome = VoteOutcome(
        vote=VOTE, tally={"FEAST": 1, "STORM": 0}, winner="FEAST", applies_to_turn=2
    )
    report = OrderReport("p1", "EH to BF", "EH", "move", "succeeded", "BF")
    resolution = turn_resolved(
        orders=[report],
        vp={"p1": 2, "p2": 0, "p3": 1},
        vote_outcome=outcome,
        next_vote=next_vote,
        next_effect="FEAST",
    )
    state = fold_events(
        *started_events("Ann", "Bob", "Cy", vote=VOTE),
        orders("p1", "EH to BF"),
        VoteCast(player_id="p1", turn=1, effect="FEAST"),
        JoinForcesRequested(player_id="p2", with_player="p3", turn=1),
        resolution,
    )
    assert (state.turn, state.wait_began_at, state.next_resolution_at()) == (2, NOON, noon(2))
    assert state.skirmish.board == resolution.board
    assert (state.skirmish.submissions, state.skirmish.ballots, state.skirmish.join_requests) == (
        {},
        {},
        {},
    )
    assert (state.skirmish.vote, state.skirmish.effect) == (next_vote, "FEAST")
    assert {p.id: state.skirmish.vp_of(p.id) for p in state.players.values()} == {
        "p1": 2,
        "p2": 0,
        "p3": 1,
    }
    assert state.skirmish.last_turn == resolution
    assert state.skirmish.last_turn_orders("p1") == [report]
    assert state.skirmish.last_turn_orders("p2") == []
    assert state.phase == "running"


def test_a_join_makes_one_player_of_two_with_both_accounts() -> None:
    events = [
        *started_events("Ann", "Bob", "Cy", "Di"),
        NotificationsChanged(player_id="p2", enabled=False),
        PlayerBanned(account_id="acct-4", player_id="p4"),
        turn_resolved(vp={"p1": 5, "p3": 0, "p2/p4": 1}, joined={"p2/p4": ("p2", "p4")}),
    ]
    state = fold_events(*events)
    assert list(state.players) == ["p1", "p3", "p2/p4"]
    joint = state.players["p2/p4"]
    assert (joint.name, joint.accounts, joint.color, state.skirmish.vp_of(joint.id)) == (
        "Bob/Di",
        ("acct-2", "acct-4"),
        2,
        1,
    )
    assert joint.id in state.skirmish.joined_forces
    # Either account still wants notifications; only one of the two is banned.
    assert joint.notifications
    assert not joint.banned
    assert state.player_of("acct-2") == joint
    assert state.player_of("acct-4") == joint


def test_a_joint_player_is_banned_when_both_halves_were() -> None:
    state = fold_events(
        *started_events("Ann", "Bob", "Cy", "Di"),
        PlayerBanned(account_id="acct-2", player_id="p2"),
        PlayerBanned(account_id="acct-4", player_id="p4"),
        turn_resolved(vp={"p1": 5, "p3": 0, "p2/p4": 1}, joined={"p2/p4": ("p2", "p4")}),
    )
    assert state.players["p2/p4"].banned


def test_an_eliminated_player_is_out_and_its_account_plays_no_more() -> None:
    state = fold_events(
        *started_events("Ann", "Bob", "Cy"),
        PlayerResigned(player_id="p3"),
        turn_resolved(vp={"p1": 0, "p2": 0, "p3": 0}, eliminated=["p2", "p3"]),
    )
    assert state.players["p2"].status == "eliminated"
    assert state.player_of("acct-2") is None
    # A resigned player who loses everything stays resigned.
    assert state.players["p3"].status == "resigned"


def test_a_winner_finishes_the_game() -> None:
    state = fold_events(
        *started_events("Ann", "Bob", "Cy"), turn_resolved(vp={"p1": 10}, winner="p1")
    )
    assert (state.phase, state.skirmish.winner) == ("finished", "p1")
    assert state.next_resolution_at() is None


def test_fold_tracks_the_version_and_the_versions_of_resolutions() -> None:
    events = [
        *started_events("Ann", "Bob", "Cy"),
        turn_resolved(1),
        orders("p1", "x"),
        turn_resolved(2),
    ]
    state = fold_events(*events)
    assert state.version == len(events)
    assert state.resolved_versions == (len(events) - 2, len(events))
    # Folding on from a state continues where it stood.
    half = fold(GameState(), enumerate(events[:5], start=1))
    assert fold(half, enumerate(events[5:], start=6)) == state


def test_the_rewind_marker_forgets_the_turns_votes_but_keeps_its_orders() -> None:
    # The truncation took the resolution of turn 1 away; the marker follows what is left.
    rewound_at = NOON + timedelta(hours=3)
    state = fold_events(
        *started_events("Ann", "Bob", "Cy", vote=VOTE),
        orders("p1", "EH H"),
        VoteCast(player_id="p2", turn=1, effect="STORM"),
        TurnRewound(turn=1, at=rewound_at),
    )
    assert state.turn == 1
    assert state.skirmish.ballots == {}
    assert [s.text for s in state.skirmish.submissions["p1"]] == ["EH H"]
    assert state.skirmish.vote == VOTE
    assert _earliest(state) == rewound_at + timedelta(hours=1, minutes=10)
    assert state.next_resolution_at() == noon(2)


def test_a_resignation_is_permanent_and_silences_notifications() -> None:
    state = fold_events(*started_events("Ann", "Bob", "Cy"), PlayerResigned(player_id="p1"))
    player = state.players["p1"]
    assert (player.status, player.notifications) == ("resigned", False)
    assert state.player_of("acct-1") == player


def test_bans_mark_the_account_and_the_player_and_unbans_clear_both() -> None:
    state = fold_events(
        *started_events("Ann", "Bob", "Cy"), PlayerBanned(account_id="acct-1", player_id="p1")
    )
    assert state.banned_accounts == {"acct-1"}
    assert state.players["p1"].banned
    state = evolve(state, PlayerUnbanned(account_id="acct-1"))
    assert state.banned_accounts == frozenset()
    assert not state.players["p1"].banned


def test_a_ban_in_the_join_phase_marks_only_the_account() -> None:
    state = fold_events(
        *joined_events("Ann", "Bob"),
        PlayerLeft(player_id="p1", banned=True),
        PlayerBanned(account_id="acct-1", player_id=None),
    )
    assert state.banned_accounts == {"acct-1"}
    assert list(state.players) == ["p2"]


def test_pause_stops_the_clock_and_unpause_resolves_at_the_normal_time() -> None:
    paused = fold_events(*started_events("Ann", "Bob", "Cy"), GamePaused(at=at(30)))
    assert (paused.phase, paused.next_resolution_at()) == ("paused", None)
    # rules.md: the next resolution hour whose lock window has not yet begun. Unpausing at
    # 11:00 for a 12:00 hour resolves at 12:00 the same day...
    unpaused = evolve(paused, GameUnpaused(at=at(180)))
    assert unpaused.phase == "running"
    assert unpaused.next_resolution_at() == NOON
    # ... inside the lock window (from 11:55), the next day.
    assert evolve(paused, GameUnpaused(at=at(234))).next_resolution_at() == NOON
    assert evolve(paused, GameUnpaused(at=at(235))).next_resolution_at() == noon(2)


def test_a_killed_game_is_killed() -> None:
    assert fold_events(*started_events("Ann", "Bob", "Cy"), GameKilled(at=at(1))).phase == "killed"


def test_a_change_of_schedule_reckons_the_next_resolution_from_the_change() -> None:
    start = fold_events(*started_events("Ann", "Bob", "Cy"))
    fast = evolve(start, SettingsChanged(settings=replace(SETTINGS, fast_mode=True), at=at(60)))
    assert fast.next_resolution_at() == at(75)
    later = evolve(
        start, SettingsChanged(settings=replace(SETTINGS, resolution_hour=18), at=at(60))
    )
    assert later.next_resolution_at() == T0.replace(hour=18)


def test_a_change_outside_the_schedule_leaves_the_clock_alone() -> None:
    start = fold_events(*started_events("Ann", "Bob", "Cy"))
    quiet = evolve(
        start, SettingsChanged(settings=replace(SETTINGS, broadcasting=False), at=at(60))
    )
    assert quiet.settings.broadcasting is False
    assert _earliest(quiet) == _earliest(start)


def test_a_change_in_the_join_phase_sets_no_clock() -> None:
    state = fold_events(
        *joined_events("Ann"), SettingsChanged(settings=replace(SETTINGS, fast_mode=True), at=at(5))
    )
    assert state.settings.fast_mode
    assert _earliest(state) is None
    assert state.next_resolution_at() is None


def test_a_new_time_zone_keeps_the_next_resolution_at_the_same_instant() -> None:
    """/local_time moves the resolution hour with the time zone: the same instant."""
    start = fold_events(*started_events("Ann", "Bob", "Cy"))
    for utc_offset in range(-11, 13):
        zone = replace(SETTINGS, utc_offset=utc_offset, resolution_hour=(12 + utc_offset) % 24)
        moved = evolve(start, SettingsChanged(settings=zone, at=at(60)))
        assert moved.next_resolution_at() == start.next_resolution_at() == NOON


def test_look_and_notifications_change_the_player() -> None:
    state = fold_events(
        *joined_events("Ann"),
        PlayerLookChanged(player_id="p1", name="Anna", color=9, pattern=12),
        NotificationsChanged(player_id="p1", enabled=False),
    )
    player = state.players["p1"]
    assert (player.name, player.color, player.pattern, player.notifications) == (
        "Anna",
        9,
        12,
        False,
    )


def test_a_broadcast_changes_nothing_but_the_version() -> None:
    before = fold_events(*joined_events("Ann"))
    after = fold_events(*joined_events("Ann"), MessageBroadcast(message="hi"))
    assert replace(after, version=before.version) == before


def test_a_real_fork_recorded_before_invitations_still_seats_its_players_running() -> None:
    """game_forked.v1 as stored before `invites` (and before `secret` could be left out):
    the source's accounts hold their seats, and it runs at once, as it always did."""
    source = started(3)
    resolve(source)
    recorded = msgspec.to_builtins(Game().run(forking(source, sandbox=False))[0])
    del recorded["invites"]
    old = game_codec.decode("game_forked.v1", msgspec.json.encode(recorded))
    assert isinstance(old, GameForked)
    assert not old.invites
    state = fold(GameState(), [(1, old)])
    assert (state.phase, state.invited, state.awaiting_claims) == ("running", {}, False)
    assert state.next_resolution_at() is not None
    assert {p.id: p.accounts for p in state.players.values()} == {
        p.id: p.accounts for p in source.state.players.values()
    }


def test_skirmish_societys_state_comes_back_whole_from_a_snapshot() -> None:
    state = fold_events(
        *started_events("Ann", "Bob", "Cy", "Di", vote=VOTE),
        turn_resolved(vp={"p1": 2, "p2/p4": 1}, joined={"p2/p4": ("p2", "p4")}, winner=None),
        orders("p1", "EH H"),
        VoteCast(player_id="p1", turn=2, effect="FEAST"),
        JoinForcesRequested(player_id="p1", with_player="p3", turn=2),
    )
    back = decode_snapshot(encode_snapshot(state), state.version)
    assert back == state
    assert back is not None
    assert isinstance(back.play, SkirmishPlay)


def _earliest(state: GameState) -> datetime | None:
    """The earliest the state's daily wait may end (then at the first resolution hour)."""
    if state.wait_began_at is None:
        return None
    daily = state.definition.to_move(state.play).daily
    assert daily is not None
    return state.wait_began_at + timedelta(seconds=daily.not_before)
