"""The room's facts handed to Skirmish Society's state (projections/owned.py): its settings
and its seats' names, statuses and bans, from the game's creation on, and its options."""

from msgspec.structs import replace

from projections.evolve import evolve, fold
from projections.game import GameState
from projections.owned import RoomFacts, SeatFacts, room_facts
from projections.skirmish.options import options_of
from projections.skirmish.state import SkirmishPlay
from rules.skirmish.maps import builtin_map
from schema.game_events import (
    ForkStarted,
    GameCreated,
    GameForked,
    GamePaused,
    GameStarted,
    NotificationsChanged,
    PlayerBanned,
    PlayerJoined,
    PlayerLeft,
    PlayerLookChanged,
    PlayerResigned,
    PlayerUnbanned,
    SeatClaimed,
    SettingsChanged,
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
from tests.server.decide.given import ADMIN, T0, Game, at, forking, noon, resolve, started


def test_skirmish_societys_own_state_is_its_play_from_its_creation_on() -> None:
    joined = fold_events(
        *joined_events("Ann", "Bob", "Cy"), PlayerBanned(account_id="acct-3", player_id="p3")
    )
    assert joined.play == SkirmishPlay(room=joined.skirmish.room)
    assert (joined.skirmish.map, joined.skirmish.board.armies, joined.skirmish.vp_of("p1")) == (
        None,
        {},
        0,
    )
    events = started_events("Ann", "Bob", "Cy", vote=VOTE)
    start = events[-1]
    assert isinstance(start, GameStarted)
    assert fold_events(*events).play == SkirmishPlay(
        room=fold_events(*events[:-1]).skirmish.room, map=start.map, board=start.board, vote=VOTE
    )


def _seats(state: GameState) -> dict[str, tuple[str, str, bool]]:
    """Skirmish Society's seats as its own state has them: name, status, banned."""
    return {seat: (f.name, f.status, f.banned) for seat, f in state.skirmish.room.seats.items()}


def test_the_room_facts_and_options_are_there_from_the_creation_on() -> None:
    created = fold_events(*joined_events())
    assert created.skirmish.room == RoomFacts(settings=SETTINGS, seats={}, in_play=frozenset())
    assert (
        created.options
        == options_of(SETTINGS, 7)
        == {
            "map": None,
            "map_type": "normal",
            "seed": 7,
            "votes": SETTINGS.votes,
            "vote_start_turn": SETTINGS.vote_start_turn,
        }
    )


def test_the_room_facts_follow_joins_leaves_and_looks() -> None:
    state = fold_events(
        *joined_events("Ann", "Bob", "Cy"),
        PlayerLeft(player_id="p2"),
        PlayerLookChanged(player_id="p3", name="Cyd", color=9, pattern=2),
        # Notifications are not the game's business: its facts stay as they were.
        NotificationsChanged(player_id="p1", enabled=False),
    )
    assert state.skirmish.room.seats == {
        "p1": SeatFacts(name="Ann", status="active", banned=False),
        "p3": SeatFacts(name="Cyd", status="active", banned=False),
    }


def test_the_room_facts_follow_resignations_bans_and_unbans() -> None:
    state = fold_events(
        *started_events("Ann", "Bob", "Cy"),
        PlayerResigned(player_id="p1"),
        PlayerBanned(account_id="acct-2", player_id="p2"),
        PlayerBanned(account_id="acct-3", player_id="p3"),
    )
    assert _seats(state) == {
        "p1": ("Ann", "resigned", False),
        "p2": ("Bob", "active", True),
        "p3": ("Cy", "active", True),
    }
    # Nobody left to move: the one resigned, the others banned.
    assert state.skirmish.room.in_play == frozenset()
    unbanned = evolve(state, PlayerUnbanned(account_id="acct-2"))
    assert _seats(unbanned)["p2"] == ("Bob", "active", False)
    assert unbanned.skirmish.room.in_play == {"p2"}


def test_the_room_facts_follow_joint_players_and_eliminations() -> None:
    state = fold_events(
        *started_events("Ann", "Bob", "Cy", "Di"),
        PlayerBanned(account_id="acct-4", player_id="p4"),
        turn_resolved(vp={"p1": 5, "p2/p4": 1}, joined={"p2/p4": ("p2", "p4")}, eliminated=["p3"]),
    )
    assert _seats(state) == {
        "p1": ("Ann", "active", False),
        "p3": ("Cy", "eliminated", False),
        "p2/p4": ("Bob/Di", "active", False),
    }


def test_the_room_facts_and_options_follow_settings_changes() -> None:
    on_a_map = replace(SETTINGS, map="rulebook", vp_target=12)
    joined = fold_events(*joined_events("Ann"), SettingsChanged(settings=on_a_map, at=at(5)))
    assert joined.skirmish.room.settings == on_a_map
    assert joined.options == {
        "map": "rulebook",
        "map_type": "normal",
        "seed": 7,
        "votes": on_a_map.votes,
        "vote_start_turn": on_a_map.vote_start_turn,
    }
    fast = replace(SETTINGS, fast_mode=True)
    running = evolve(
        fold_events(*started_events("Ann", "Bob", "Cy")), SettingsChanged(settings=fast, at=at(60))
    )
    assert running.skirmish.room.settings == fast
    assert running.skirmish.map == builtin_map("rulebook")


def test_a_forks_room_facts_are_its_seats_and_settings_from_its_first_event_on() -> None:
    source = started(3)
    resolve(source)
    (event,) = Game().run(forking(source, sandbox=False))
    assert isinstance(event, GameForked)
    fork = fold_events(event)
    assert fork.skirmish.room.settings == event.settings
    assert _seats(fork) == {
        "p1": ("Player 1", "active", False),
        "p2": ("Player 2", "active", False),
        "p3": ("Player 3", "active", False),
    }
    assert fork.skirmish.map == source.state.skirmish.map
    # A fork records no options either, and has no seed of its own: it plays its source's map.
    assert event.options == {}
    assert fork.options == options_of(event.settings, 0)
    # The seats nobody claimed play as resigned once it starts.
    started_fork = fold_events(
        event,
        SeatClaimed(player_id="p1", account_id="acct-1"),
        ForkStarted(at=at(60), unclaimed=["p2", "p3"]),
    )
    assert [f.status for f in started_fork.skirmish.room.seats.values()] == [
        "active",
        "resigned",
        "resigned",
    ]


def test_skirmish_societys_room_facts_are_the_rooms_after_every_event() -> None:
    events = [
        *started_events("Ann", "Bob", "Cy", "Di", vote=VOTE),
        PlayerLookChanged(player_id="p1", name="Anna", color=9, pattern=2),
        PlayerBanned(account_id="acct-4", player_id="p4"),
        orders("p1", "EH H"),
        turn_resolved(vp={"p1": 2, "p2/p4": 1}, joined={"p2/p4": ("p2", "p4")}),
        SettingsChanged(settings=replace(SETTINGS, hints=False), at=noon(1)),
        PlayerResigned(player_id="p3"),
        PlayerUnbanned(account_id="acct-4"),
        turn_resolved(2, vp={"p1": 3}, eliminated=["p3"]),
        GamePaused(at=noon(2)),
    ]
    state = GameState()
    for version, event in enumerate(events, start=1):
        state = fold(state, [(version, event)])
        assert state.skirmish.room == room_facts(state.settings, state.players), event


def test_a_game_run_by_its_definition_has_no_room_facts_and_keeps_its_options() -> None:
    created = GameCreated(
        game_id="g1",
        settings=SETTINGS,
        admin=ADMIN,
        seed=7,
        at=T0,
        game="art-of-war",
        game_version=2,
        options={"map": "aow-mini"},
    )
    state = fold_events(
        created, PlayerJoined(player_id="p1", account_id="acct-1", name="Ann", color=1, pattern=1)
    )
    assert (state.play, state.options) == (None, {"map": "aow-mini"})
