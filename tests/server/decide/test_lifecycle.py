from datetime import datetime, timedelta

import msgspec
import pytest

from projections.evolve import evolve
from projections.game import GameState
from projections.skirmish.definition import SKIRMISH_SOCIETY_GAME
from rules.registry import game_rules
from rules.skirmish.maps import builtin_map
from schema import errors as codes
from schema.commands import (
    Actor,
    BanPlayer,
    CastVote,
    ChangeSettings,
    CreateGame,
    JoinGame,
    KillGame,
    PauseGame,
    RequestJoinForces,
    Resign,
    ResolveTurn,
    StartGame,
    SubmitOrders,
    UnbanPlayer,
    UnpauseGame,
)
from schema.errors import ErrorCode
from schema.game_events import (
    GameCreated,
    GameKilled,
    GamePaused,
    GameStarted,
    GameUnpaused,
    OrdersSubmitted,
    PlayerBanned,
    PlayerJoined,
    PlayerLeft,
    PlayerResigned,
    PlayerUnbanned,
    Settings,
    SettingsChanged,
    game_codec,
)
from schema.refusals import (
    GameGone,
    InvalidCommand,
    WrongPhase,
)
from server.game.decide import decide
from tests.server.decide.given import (
    ADMIN,
    NONCE,
    NOON,
    SECRET,
    T0,
    Game,
    account,
    at,
    created,
    during,
    join_forces_example,
    joined,
    joint_players,
    noon,
    on_board,
    refused,
    resolve,
    start_event,
    started,
    submit,
)

# --- create -------------------------------------------------------------------------


def test_create_records_the_settings_the_admin_the_seed_and_the_time() -> None:
    settings = Settings(name="  Friday night  ", vp_target=12, fast_mode=True)
    events = Game().when(
        CreateGame(actor=Actor(ADMIN), now=T0, game_id="g9", settings=settings, seed=99)
    )
    assert events == [
        GameCreated(
            game_id="g9",
            settings=Settings(name="Friday night", vp_target=12, fast_mode=True),
            admin=ADMIN,
            seed=99,
            at=T0,
            game="skirmish-society",
            game_version=1,
        )
    ]


def test_a_game_plays_a_game_the_server_knows_and_says_which_and_by_which_rules() -> None:
    create = CreateGame(
        actor=Actor(ADMIN), now=T0, game_id="g9", settings=Settings(name="x"), seed=1
    )
    unknown = "no game named 'chess' here; the games are: art-of-war, skirmish-society"
    with refused(codes.UNKNOWN_GAME, unknown):
        Game().when(msgspec.structs.replace(create, game="chess"))
    game = Game()
    game.run(create)
    assert (game.state.game, game.state.game_version) == ("skirmish-society", 1)
    assert game_rules(game.state.game, game.state.game_version) is SKIRMISH_SOCIETY_GAME


def test_a_game_created_before_games_were_named_plays_skirmish_society_first_rules() -> None:
    recorded = b'{"type":"game_created.v1","game_id":"g1","settings":{"name":"Old"},'
    recorded += b'"admin":"acct-admin","seed":5,"at":"2026-01-01T12:00:00Z"}'
    event = game_codec.decode("game_created.v1", recorded)
    state = evolve(GameState(), event)
    assert (state.game, state.game_version, game_rules(state.game, state.game_version)) == (
        "skirmish-society",
        1,
        SKIRMISH_SOCIETY_GAME,
    )


def test_a_game_is_created_only_once() -> None:
    with refused(codes.GAME_EXISTS, "already exists"):
        created().when(
            CreateGame(
                actor=Actor(ADMIN), now=T0, game_id="g1", settings=Settings(name="x"), seed=1
            )
        )


@pytest.mark.parametrize(
    ("settings", "code", "problem"),
    [
        ({"vp_target": 0}, codes.OUT_OF_RANGE, "vp_target must be between 1 and 50, not 0"),
        ({"vp_target": 51}, codes.OUT_OF_RANGE, "vp_target must be between 1 and 50, not 51"),
        (
            {"resolution_hour": 24},
            codes.OUT_OF_RANGE,
            "resolution_hour must be between 0 and 23, not 24",
        ),
        (
            {"resolution_hour": -1},
            codes.OUT_OF_RANGE,
            "resolution_hour must be between 0 and 23, not -1",
        ),
        ({"utc_offset": 13}, codes.OUT_OF_RANGE, "utc_offset must be between -11 and 12, not 13"),
        (
            {"vote_start_turn": 0},
            codes.OUT_OF_RANGE,
            "vote_start_turn must be between 1 and 10000, not 0",
        ),
        ({"map": "atlantis"}, codes.MAP_NOT_FOUND, "unknown map: 'atlantis'"),
        (
            {"map": "rulebook"},
            codes.MAP_UNUSABLE,
            "map 'rulebook' cannot host a game: it has starting homes for 0 players and a "
            "game needs at least 3",
        ),
        ({"name": "   "}, codes.NAME_EMPTY, "the game's name is empty"),
        ({"name": "x" * 81}, codes.NAME_TOO_LONG, "the game's name is too long"),
        ({"name": "a\nb"}, codes.NAME_UNPRINTABLE, "the game's name must be one line"),
    ],
)
def test_create_refuses_bad_settings(
    settings: dict[str, object], code: ErrorCode, problem: str
) -> None:
    options = msgspec.convert({"name": "Test game", **settings}, Settings)
    with refused(code, problem):
        Game().when(CreateGame(actor=Actor(ADMIN), now=T0, game_id="g1", settings=options, seed=1))


@pytest.mark.parametrize("vp_target", [1, 50])
def test_create_accepts_the_extreme_vp_targets(vp_target: int) -> None:
    assert created(vp_target=vp_target).state.settings.vp_target == vp_target


# --- join ---------------------------------------------------------------------------


def test_joining_gives_the_next_player_id_and_a_free_colour() -> None:
    game = joined(2)
    assert game.when(JoinGame(actor=Actor("acct-new"), now=T0, name="Newcomer")) == [
        PlayerJoined(player_id="p3", account_id="acct-new", name="Newcomer", color=3, pattern=1)
    ]


def test_a_player_who_left_frees_the_colour_but_not_the_id() -> None:
    game = joined(3)
    game.run(Resign(actor=Actor(account(2)), now=T0))
    assert game.when(JoinGame(actor=Actor("acct-new"), now=T0, name="Newcomer")) == [
        PlayerJoined(player_id="p4", account_id="acct-new", name="Newcomer", color=2, pattern=1)
    ]


def test_an_account_joins_only_once() -> None:
    with refused(codes.ALREADY_JOINED, "already joined"):
        joined(1).when(JoinGame(actor=Actor(account(1)), now=T0, name="Again"))


def test_a_name_is_taken_whatever_its_case() -> None:
    with refused(codes.NAME_TAKEN, "the name 'PLAYER 1' is taken"):
        joined(1).when(JoinGame(actor=Actor("acct-new"), now=T0, name="PLAYER 1"))


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        (" ", "empty"),
        ("x" * 33, "too long"),
        # rules.md: one line of printable text; refused, never stripped.
        ("Zed\n1. Mallory: 99 VP", "one line of printable text"),
        ("Zed\r", "one line"),
        ("Tab\there", "one line"),
        ("Bell\x07", "one line"),
        ("Mark\u202eRight", "one line"),
    ],
)
def test_a_player_needs_a_sensible_name(name: str, problem: str) -> None:
    with pytest.raises(InvalidCommand, match=problem):
        joined(1).when(JoinGame(actor=Actor("acct-new"), now=T0, name=name))


def test_a_game_is_full_at_twenty_players() -> None:
    game = joined(19)
    (last,) = game.run(JoinGame(actor=Actor("acct-20th"), now=T0, name="Twentieth"))
    assert isinstance(last, PlayerJoined)
    assert (last.player_id, last.color) == ("p20", 20)
    with refused(codes.GAME_FULL, r"the game is full \(20 players\)"):
        game.when(JoinGame(actor=Actor("acct-21st"), now=T0, name="Twenty-first"))


def test_nobody_joins_a_started_game() -> None:
    with pytest.raises(WrongPhase, match="the game is running; this needs it joining"):
        started(3).when(JoinGame(actor=Actor("acct-new"), now=T0, name="Late"))


def test_nobody_joins_a_game_that_does_not_exist() -> None:
    with refused(codes.GAME_NOT_FOUND, "no such game"):
        Game().when(JoinGame(actor=Actor("acct-new"), now=T0, name="Lost"))


def test_a_banned_account_cannot_join() -> None:
    game = joined(3)
    game.run(BanPlayer(actor=Actor(ADMIN), now=T0, player_id="p2"))
    with refused(codes.BANNED, "banned"):
        game.when(JoinGame(actor=Actor(account(2)), now=T0, name="Player 2"))


def test_a_sandbox_admin_joins_as_many_players_as_they_like() -> None:
    game = created(sandbox=True)
    for name in ("Red", "Blue", "Green"):
        game.run(JoinGame(actor=Actor(ADMIN), now=T0, name=name))
    players = game.state.players
    assert [(p.id, p.name, p.accounts) for p in players.values()] == [
        ("p1", "Red", (ADMIN,)),
        ("p2", "Blue", (ADMIN,)),
        ("p3", "Green", (ADMIN,)),
    ]


def test_outside_a_sandbox_the_admin_joins_once_like_anyone() -> None:
    game = created()
    game.run(JoinGame(actor=Actor(ADMIN), now=T0, name="Red"))
    with refused(codes.ALREADY_JOINED, "already joined"):
        game.when(JoinGame(actor=Actor(ADMIN), now=T0, name="Blue"))


# --- start --------------------------------------------------------------------------


def test_only_an_admin_starts() -> None:
    with refused(codes.ADMIN_ONLY, "admin"):
        joined(3).when(StartGame(actor=Actor(account(1)), now=T0, secret=SECRET))


def test_the_server_operator_may_start_any_game() -> None:
    (event,) = joined(3).when(
        StartGame(actor=Actor("acct-operator", operator=True), now=T0, secret=SECRET)
    )
    assert isinstance(event, GameStarted)


def test_a_game_needs_three_players() -> None:
    with refused(codes.NOT_ENOUGH_PLAYERS, "at least 3 players; 2 joined"):
        joined(2).when(StartGame(actor=Actor(ADMIN), now=T0, secret=SECRET))


def test_a_game_of_twenty_players_starts_with_a_home_for_each() -> None:
    game = started(20)
    assert sorted(start_event(game).homes) == sorted(f"p{i}" for i in range(1, 21))
    assert game.state.phase == "running"


def test_a_game_starts_only_once() -> None:
    with pytest.raises(WrongPhase, match="the game is running"):
        started(3).when(StartGame(actor=Actor(ADMIN), now=T0, secret=SECRET))


def test_start_gives_each_player_a_home_with_an_army_on_each_barracks() -> None:
    game = started(4)
    event = start_event(game)
    barracks = {t.id for t in event.map.territories if t.barracks}
    assert sorted(event.homes) == ["p1", "p2", "p3", "p4"]
    for player, home in event.homes.items():
        assert len(home) == 3
        assert sorted(t for t in home if t in barracks) == sorted(
            t for t, owner in event.board.armies.items() if owner == player
        )
        assert all(event.board.control[t] == player for t in home)
    assert event.at == T0
    assert game.state.phase == "running"
    assert game.state.turn == 1


def test_the_same_seed_generates_the_same_map_and_homes() -> None:
    first, second = start_event(started(5, seed=41)), start_event(started(5, seed=41))
    assert first == second


def test_another_seed_generates_another_map() -> None:
    assert start_event(started(5, seed=41)).map != start_event(started(5, seed=42)).map


def test_the_recorded_map_does_not_give_the_seed_away() -> None:
    seed = 982_451_653
    event = start_event(started(3, seed=seed))
    assert str(seed) not in msgspec.json.encode(event).decode()
    assert event.map.name == "generated-normal-3p"


def test_a_spacious_map_has_more_territories_than_a_normal_one() -> None:
    normal = start_event(started(6)).map
    spacious = start_event(started(6, map_type="spacious")).map
    assert len(spacious.territories) > len(normal.territories)


@pytest.mark.parametrize("players", [3, 6])
def test_a_game_on_the_diplomacy_map_starts_with_a_power_s_home_for_each(players: int) -> None:
    event = start_event(started(players, map="diplomacy-land"))
    assert event.map == builtin_map("diplomacy-land")
    assert sorted(event.homes) == [f"p{i}" for i in range(1, players + 1)]
    assert set(event.homes.values()) <= set(event.map.homes)
    assert len(event.board.armies) == 2 * players


def test_a_game_on_a_built_in_map_is_full_at_its_homes() -> None:
    game = joined(6, map="diplomacy-land")
    with refused(codes.GAME_FULL, "the game is full: map 'diplomacy-land' holds 6 players"):
        game.when(JoinGame(actor=Actor("acct-7th"), now=T0, name="Seventh"))


# --- resign -------------------------------------------------------------------------


def test_resigning_in_the_join_phase_leaves_and_the_player_may_rejoin() -> None:
    game = joined(3)
    assert game.run(Resign(actor=Actor(account(2)), now=T0)) == [PlayerLeft(player_id="p2")]
    assert "p2" not in game.state.players
    (back,) = game.run(JoinGame(actor=Actor(account(2)), now=T0, name="Player 2"))
    assert isinstance(back, PlayerJoined)
    assert back.player_id == "p4"


def test_resigning_a_running_game_is_permanent() -> None:
    game = started(3)
    assert game.run(Resign(actor=Actor(account(2)), now=during(1))) == [
        PlayerResigned(player_id="p2")
    ]
    assert game.state.players["p2"].status == "resigned"
    with refused(codes.ALREADY_RESIGNED, "already resigned"):
        game.when(Resign(actor=Actor(account(2)), now=during(1)))
    with refused(codes.PLAYER_RESIGNED, "resigned"):
        submit(game, 2, "anything")
    with pytest.raises(WrongPhase):
        game.when(JoinGame(actor=Actor(account(2)), now=during(1), name="Player 2 again"))


def test_only_a_player_resigns() -> None:
    with refused(codes.NOT_A_PLAYER, "not a player"):
        started(3).when(Resign(actor=Actor("acct-stranger"), now=during(1)))


# --- ban and unban ------------------------------------------------------------------


def test_a_ban_in_the_join_phase_removes_the_player_until_unbanned() -> None:
    game = joined(3)
    assert game.run(BanPlayer(actor=Actor(ADMIN), now=T0, player_id="p2")) == [
        PlayerLeft(player_id="p2", banned=True),
        PlayerBanned(account_id=account(2), player_id=None),
    ]
    assert "p2" not in game.state.players
    assert game.run(UnbanPlayer(actor=Actor(ADMIN), now=T0, player_id=account(2))) == [
        PlayerUnbanned(account_id=account(2))
    ]
    (back,) = game.run(JoinGame(actor=Actor(account(2)), now=T0, name="Player 2"))
    assert isinstance(back, PlayerJoined)


def test_a_ban_voids_the_orders_and_join_requests_of_this_turn_for_good() -> None:
    """rules.md: a ban voids the banned player's pending orders and join-forces requests
    from or to them; unbanning restores only what is sent afterwards."""
    game = joint_players()
    assert "p2" in game.state.skirmish.submissions
    assert game.state.skirmish.join_requests == {"p2": "p4", "p4": "p2"}
    game.run(BanPlayer(actor=Actor(ADMIN), now=during(2), player_id="p2"))
    assert "p2" not in game.state.skirmish.submissions
    assert game.state.skirmish.join_requests == {}
    game.run(UnbanPlayer(actor=Actor(ADMIN), now=during(2), player_id="p2"))
    resolved = resolve(game)
    assert resolved.joined == {}
    assert [o for o in resolved.orders if o.player == "p2"] == []


def test_a_ban_voids_the_vote_of_this_turn() -> None:
    game = started(3, votes="every_turn", vote_start_turn=1)
    vote = game.state.skirmish.vote
    assert vote is not None
    for player in (1, 2):
        game.run(CastVote(actor=Actor(account(player)), now=during(1), effect=vote.candidates[0]))
    game.run(BanPlayer(actor=Actor(ADMIN), now=during(1), player_id="p2"))
    assert game.state.skirmish.ballots == {"p1": vote.candidates[0]}
    game.run(UnbanPlayer(actor=Actor(ADMIN), now=during(1), player_id="p2"))
    outcome = resolve(game).vote_outcome
    assert outcome is not None
    assert sum(outcome.tally.values()) == 1


def test_a_banned_player_cannot_join_forces_nor_be_asked_to() -> None:
    game = join_forces_example({"p1": 7, "p2": 4, "p3": 0, "p4": 3})
    game.run(BanPlayer(actor=Actor(ADMIN), now=during(2), player_id="p4"))
    with refused(codes.JOIN_FORCES_PARTNER_BANNED, "Player 4 is banned from this game"):
        game.when(RequestJoinForces(actor=Actor(account(2)), now=during(2), with_player="p4"))
    with refused(codes.BANNED, "Player 4 is banned from this game"):
        game.when(RequestJoinForces(actor=Actor(account(4)), now=during(2), with_player="p2"))


def test_a_ban_in_a_running_game_keeps_the_player_but_refuses_its_orders() -> None:
    game = started(3)
    assert game.run(BanPlayer(actor=Actor(ADMIN), now=during(1), player_id="p2")) == [
        PlayerBanned(account_id=account(2), player_id="p2")
    ]
    banned = game.state.players["p2"]
    assert (banned.banned, banned.status) == (True, "active")
    with refused(codes.BANNED, "Player 2 is banned"):
        submit(game, 2, "anything")
    assert game.run(UnbanPlayer(actor=Actor(ADMIN), now=during(1), player_id="p2")) == [
        PlayerUnbanned(account_id=account(2))
    ]
    assert game.state.players["p2"].banned is False
    (event,) = submit(game, 2, "anything")
    assert isinstance(event, OrdersSubmitted)
    assert event.player_id == "p2"


@pytest.mark.parametrize("phase", ["joining", "running"])
def test_only_an_admin_bans_and_unbans(phase: str) -> None:
    game = joined(3) if phase == "joining" else started(3)
    with refused(codes.ADMIN_ONLY, "admin"):
        game.when(BanPlayer(actor=Actor(account(1)), now=T0, player_id="p2"))
    with refused(codes.ADMIN_ONLY, "admin"):
        game.when(UnbanPlayer(actor=Actor(account(1)), now=T0, player_id="p2"))


def test_a_ban_names_an_existing_player() -> None:
    with refused(codes.PLAYER_NOT_FOUND, "no such player: p9"):
        started(3).when(BanPlayer(actor=Actor(ADMIN), now=T0, player_id="p9"))


def test_a_player_is_banned_only_once() -> None:
    game = started(3)
    game.run(BanPlayer(actor=Actor(ADMIN), now=T0, player_id="p2"))
    with refused(codes.ALREADY_BANNED, "already banned"):
        game.when(BanPlayer(actor=Actor(ADMIN), now=T0, player_id="p2"))


def test_an_admin_cannot_ban_their_own_player() -> None:
    game = created(sandbox=True)
    for name in ("Red", "Blue", "Green"):
        game.run(JoinGame(actor=Actor(ADMIN), now=T0, name=name))
    with refused(codes.CANNOT_BAN_YOURSELF, "cannot ban yourself"):
        game.when(BanPlayer(actor=Actor(ADMIN), now=T0, player_id="p1"))


@pytest.mark.parametrize("phase", ["joining", "running"])
def test_unbanning_someone_not_banned_is_refused(phase: str) -> None:
    game = joined(3) if phase == "joining" else started(3)
    with refused(codes.NOT_BANNED, "Player 2 is not banned"):
        game.when(UnbanPlayer(actor=Actor(ADMIN), now=T0, player_id="p2"))


# --- pause and unpause --------------------------------------------------------------


def test_pausing_stops_the_clock_and_refuses_resolution() -> None:
    game = started(3)
    assert game.run(PauseGame(actor=Actor(ADMIN), now=at(60))) == [GamePaused(at=at(60))]
    assert game.state.phase == "paused"
    assert game.state.next_resolution_at() is None
    with pytest.raises(WrongPhase, match="the game is paused"):
        game.when(ResolveTurn(actor=Actor("scheduler", operator=True), now=NOON, turn=1))


@pytest.mark.parametrize(
    ("minutes_before_noon", "resolves"),
    [
        # rules.md: the next resolution hour whose lock window has not yet begun.
        (60, NOON),
        (6, NOON),
        (5, NOON + timedelta(days=1)),
        (2, NOON + timedelta(days=1)),
    ],
)
def test_unpausing_resolves_at_the_next_hour_whose_lock_window_has_not_begun(
    minutes_before_noon: int, resolves: datetime
) -> None:
    game = started(3)
    assert game.state.next_resolution_at() == NOON
    game.run(PauseGame(actor=Actor(ADMIN), now=at(30)))
    unpaused = NOON - timedelta(minutes=minutes_before_noon)
    assert game.run(UnpauseGame(actor=Actor(ADMIN), now=unpaused)) == [GameUnpaused(at=unpaused)]
    assert game.state.phase == "running"
    assert game.state.next_resolution_at() == resolves


def test_pause_and_unpause_need_an_admin() -> None:
    game = started(3)
    with refused(codes.ADMIN_ONLY):
        game.when(PauseGame(actor=Actor(account(1)), now=at(60)))
    game.run(PauseGame(actor=Actor(ADMIN), now=at(60)))
    with refused(codes.ADMIN_ONLY):
        game.when(UnpauseGame(actor=Actor(account(1)), now=at(61)))


def test_only_a_running_game_pauses_and_only_a_paused_one_unpauses() -> None:
    with pytest.raises(WrongPhase, match="the game is joining"):
        joined(3).when(PauseGame(actor=Actor(ADMIN), now=T0))
    with pytest.raises(WrongPhase, match="the game is running; this needs it paused"):
        started(3).when(UnpauseGame(actor=Actor(ADMIN), now=T0))
    game = started(3)
    game.run(PauseGame(actor=Actor(ADMIN), now=T0))
    with pytest.raises(WrongPhase, match="the game is paused; this needs it running"):
        game.when(PauseGame(actor=Actor(ADMIN), now=T0))


# --- kill ---------------------------------------------------------------------------


@pytest.mark.parametrize("phase", ["joining", "running"])
def test_a_killed_game_is_gone_for_every_command(phase: str) -> None:
    game = joined(3) if phase == "joining" else started(3)
    assert game.run(KillGame(actor=Actor(ADMIN), now=at(5))) == [GameKilled(at=at(5))]
    for command in (
        JoinGame(actor=Actor("acct-new"), now=at(6), name="Late"),
        SubmitOrders(nonce=NONCE, actor=Actor(account(1)), now=at(6), text="anything"),
        KillGame(actor=Actor(ADMIN), now=at(6)),
    ):
        with pytest.raises(GameGone, match="this game was killed"):
            game.when(command)


def test_only_an_admin_kills_a_game() -> None:
    with refused(codes.ADMIN_ONLY):
        started(3).when(KillGame(actor=Actor(account(1)), now=T0))


# --- settings -----------------------------------------------------------------------


def test_the_vp_target_changes_before_the_start() -> None:
    game = joined(3)
    (event,) = game.run(ChangeSettings(actor=Actor(ADMIN), now=T0, vp_target=20))
    assert event == SettingsChanged(settings=Settings(name="Test game", vp_target=20), at=T0)
    assert game.state.settings.vp_target == 20


def test_the_vp_target_is_fixed_once_the_game_runs() -> None:
    with refused(codes.VP_TARGET_FIXED, "only change before the game starts"):
        started(3).when(ChangeSettings(actor=Actor(ADMIN), now=T0, vp_target=20))


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"vp_target": 51}, "vp_target must be between 1 and 50"),
        ({"vp_target": 0}, "vp_target must be between 1 and 50"),
        ({"resolution_hour": 24}, "resolution_hour must be between 0 and 23"),
        ({"current_hour": 24}, "current_hour must be between 0 and 23"),
    ],
)
def test_settings_changes_are_checked(change: dict[str, int], problem: str) -> None:
    command = msgspec.convert({"actor": {"account": ADMIN}, "now": T0, **change}, ChangeSettings)
    with refused(codes.OUT_OF_RANGE, problem):
        joined(3).when(command)


@pytest.mark.parametrize(("current_hour", "offset"), [(8, 0), (10, 2), (23, -9), (20, 12)])
def test_the_current_hour_sets_the_utc_offset(current_hour: int, offset: int) -> None:
    # T0 is 08:00 UTC.
    game = started(3)
    game.run(ChangeSettings(actor=Actor(ADMIN), now=T0, current_hour=current_hour))
    assert game.state.settings.utc_offset == offset


def test_the_resolution_hour_moves_the_next_resolution() -> None:
    game = started(3)
    game.run(ChangeSettings(actor=Actor(ADMIN), now=at(30), resolution_hour=15))
    assert game.state.next_resolution_at() == T0.replace(hour=15)


def test_fast_mode_switches_the_period_to_fifteen_minutes_and_back() -> None:
    game = started(3)
    game.run(ChangeSettings(actor=Actor(ADMIN), now=at(30), fast_mode=True))
    assert game.state.next_resolution_at() == at(45)
    game.run(ChangeSettings(actor=Actor(ADMIN), now=at(40), fast_mode=False))
    assert game.state.next_resolution_at() == NOON


def test_switching_broadcasting_off_is_a_setting() -> None:
    game = started(3)
    game.run(ChangeSettings(actor=Actor(ADMIN), now=T0, broadcasting=False))
    assert game.state.settings.broadcasting is False


def test_a_change_that_changes_nothing_records_nothing() -> None:
    assert started(3).when(ChangeSettings(actor=Actor(ADMIN), now=T0, fast_mode=False)) == []


def test_only_an_admin_changes_settings() -> None:
    with refused(codes.ADMIN_ONLY, "admin"):
        started(3).when(ChangeSettings(actor=Actor(account(1)), now=T0, fast_mode=True))


def test_a_finished_game_keeps_its_settings() -> None:
    game = _finished()
    with pytest.raises(WrongPhase, match="finished"):
        game.when(ChangeSettings(actor=Actor(ADMIN), now=T0, fast_mode=True))


def _finished() -> Game:
    """A game that player 1 won on turn 1: on the rulebook's map it controls five
    territories, the most, which earns the one VP of its target."""
    game = on_board(
        {"EH": "p1", "MA": "p2", "MJ": "p3"},
        {"SG": "p1", "OG": "p1", "BF": "p1", "VW": "p1"},
        vp_target=1,
    )
    event = resolve(game)
    assert event.winner == "p1"
    return game


def test_setting_the_local_time_does_not_move_the_resolution() -> None:
    game = started(3, resolution_hour=12, utc_offset=0)
    before = game.state.next_resolution_at()
    # At 08:00 UTC the admin says it is 10 o'clock where they are: UTC+2.
    (event,) = game.run(ChangeSettings(actor=Actor(ADMIN), now=T0, current_hour=10))
    assert isinstance(event, SettingsChanged)
    assert event.settings.utc_offset == 2
    assert event.settings.resolution_hour == 14
    assert game.state.next_resolution_at() == before


def test_local_time_at_any_minute_of_the_turn_keeps_the_same_resolution() -> None:
    """/local_time, sent at every minute from 13:00 to 11:59 of a turn that resolves at
    12:00, keeps that very instant (it used to skip a day)."""
    game = started(3, resolution_hour=12, utc_offset=0)
    resolve(game)
    state = game.state
    assert state.next_resolution_at() == noon(2)
    moment = NOON + timedelta(hours=1)
    while moment < noon(2):
        # A new time zone every minute (never UTC, the one the game is in).
        hour = (moment.hour + 1 + moment.minute % 23) % 24
        (event,) = decide(state, ChangeSettings(actor=Actor(ADMIN), now=moment, current_hour=hour))
        assert evolve(state, event).next_resolution_at() == noon(2), moment
        moment += timedelta(minutes=1)


def test_setting_both_local_time_and_hour_takes_the_hour_given() -> None:
    game = started(3, resolution_hour=12, utc_offset=0)
    (event,) = game.run(
        ChangeSettings(actor=Actor(ADMIN), now=T0, current_hour=10, resolution_hour=18)
    )
    assert isinstance(event, SettingsChanged)
    assert (event.settings.utc_offset, event.settings.resolution_hour) == (2, 18)
