"""What the bot says about the game: setup, start, admin changes, a turn's results."""

from datetime import timedelta

from msgspec.structs import replace

from projections.schedule import Window
from projections.views import public_game
from rules.skirmish.turn import Death, OrderReport
from schema.game_events import RecordedPosition, TurnResolved, Vote, VoteOutcome
from schema.views import PublicGame
from server.commands import announcements
from tests.server.decide.given import T0, created, started

NOW = T0 + timedelta(hours=1)
NAMES = {"p1": "Ann", "p2": "Bob", "p3": "Cy", "p2/p3": "Bob/Cy"}


def running() -> PublicGame:
    return public_game(started(3).state, 5)


# Turn 1 of a game started at T0, an hour later.
OPEN = started(3).state.window(NOW)


def resolution(**changes: object) -> TurnResolved:
    event = TurnResolved(
        turn=1,
        at=NOW,
        effect=None,
        orders=[],
        board=RecordedPosition(armies={}, control={}, farms=[]),
        dead=[],
        vp={"p1": 0, "p2": 0, "p3": 0},
        vp_gained={"p1": 0, "p2": 0, "p3": 0},
        eliminated=[],
        winner=None,
        joined={},
        vote_outcome=None,
        next_vote=None,
        next_effect=None,
    )
    return replace(event, **changes)


def after(turn: int = 2) -> PublicGame:
    return replace(running(), turn=turn, next_resolution_at=NOW + timedelta(days=1))


# After a resolution at NOW: orders for the next turn open five minutes later.
REOPENING = Window(
    "locked", opens_at=NOW + timedelta(minutes=5), resolves_at=NOW + timedelta(days=1)
)


def test_created_names_the_game_and_its_settings() -> None:
    game = public_game(created(vp_target=12, votes="every_turn", vote_start_turn=1).state, 1)
    assert announcements.created(game).split("\n") == [
        "**Test game** is set up (game g1); you are its admin.",
        "First to 12 VP wins; normal map; a vote every turn from turn 1; hints on. Turns "
        "resolve daily at 12PM (12:00) local time (UTC).",
        "Players join with /join; send /start when everyone is in (3 to 20 players).",
    ]


def test_settings_line_for_same_day_votes_and_no_votes() -> None:
    settings = running().settings
    same_day = replace(settings, votes="every_other_turn", voting_mode="same_day")
    assert "a vote every other turn from turn 3 (same-day voting)" in (
        announcements.settings_line(same_day)
    )
    off = replace(settings, votes="disabled", hints=False, fast_mode=True)
    assert announcements.settings_line(off) == (
        "First to 10 VP wins; normal map; no votes; hints off. Fast mode: a turn resolves "
        "every 15 minutes."
    )


def test_started_lists_players_and_the_first_resolution() -> None:
    text = announcements.started(running(), OPEN, NOW)
    assert text.split("\n")[:2] == [
        "**Test game** has started! Turn 1 is open for orders (they close 5 minutes before "
        "the resolution). Next resolution: 2026-11-21 12:00 UTC (12PM local time, in 3h).",
        "3 players: Player 1, Player 2, Player 3.",
    ]


def test_switches() -> None:
    assert announcements.broadcasting(False, changed=True) == (
        "Broadcasting is now off: /broadcast is refused for everyone."
    )
    assert announcements.broadcasting(True, changed=False) == "Broadcasting is already on."
    fast = replace(running(), settings=replace(running().settings, fast_mode=True))
    assert announcements.fast_mode(fast, OPEN, NOW, changed=True).startswith(
        "Fast mode is now on: a turn resolves every 15 minutes. Turn 1 is open for orders "
    )


def test_ban_unban_pause_kill() -> None:
    assert "removed from the game" in announcements.banned("Bob", join_phase=True)
    assert "orders are ignored" in announcements.banned("Bob", join_phase=False)
    assert announcements.unbanned("Bob") == "Bob is no longer banned."
    assert "/unpause" in announcements.paused()
    assert announcements.killed("Friday") == (
        "Friday is gone: the room was killed. Use /setup for a new game."
    )


def test_times() -> None:
    game = running()
    moved = replace(game, settings=replace(game.settings, resolution_hour=14, utc_offset=-2))
    assert announcements.resolution_time(moved, OPEN, NOW, changed=False) == (
        "Turns already resolve at 2PM (14:00) local time."
    )
    assert announcements.local_time(moved, 6) == (
        "Local time set: it is 6AM where you are, so the game's time zone is UTC-2 (no "
        "daylight saving). If that is wrong, send /local_time again with the hour it is now. "
        "Turns still resolve at the same moment, 2PM (14:00) local time."
    )


def test_rewound() -> None:
    assert announcements.rewound(running(), OPEN, NOW).startswith(
        "The last resolution is undone: the game is back at turn 1."
    )


def test_resolved_reports_orders_by_player_deaths_vp_and_what_comes_next() -> None:
    event = resolution(
        effect="ENTRENCH",
        orders=[
            OrderReport("p1", "BL to CR", "BL", "move", "succeeded", target="CR"),
            OrderReport("p1", "TR to CR", "TR", "move", "replaced", target="CR"),
            OrderReport("p1", "TR H", "TR", "hold", "succeeded"),
            OrderReport("p2", "SL to TR", "SL", "move", "failed", target="TR"),
            OrderReport("p2", "XX H", None, None, "invalid", reason="no such territory: XX"),
            OrderReport("p3", "OG S SL to TR", "OG", "support", "cut", target="TR"),
        ],
        dead=[Death("CR", "p3")],
        vp={"p1": 3, "p2": 0, "p3": 0},
        vp_gained={"p1": 1, "p2": 0, "p3": 0},
        vote_outcome=VoteOutcome(
            vote=Vote(1, ("FEAST", "STORM"), "STORM"),
            tally={"FEAST": 2, "STORM": 1},
            winner="FEAST",
            applies_to_turn=2,
        ),
        next_effect="FEAST",
        next_vote=Vote(2, ("TRUCE", "HARVEST"), "TRUCE"),
    )
    text = announcements.resolved(event, NAMES, after(), REOPENING, NOW)
    assert text.split("\n") == [
        "Turn 1 has resolved. Effect: ENTRENCH.",
        "Ann: \u2713 BL to CR; \u2713 TR H",
        "Bob: SL to TR (failed); XX H (invalid: no such territory: XX)",
        "Cy: OG S SL to TR (cut)",
        "Armies destroyed: Cy in CR.",
        "VP: Ann +1 (3 VP).",
        "Vote: FEAST won (FEAST 2, STORM 1); it applies to turn 2.",
        "Turn 2 opens for orders at 2026-11-21 09:05 UTC (09:05 local time, in 5m). Next "
        "resolution: 2026-11-22 09:00 UTC (9AM local time, in 1d).",
        "Effect for turn 2: FEAST: each successful farm order earns 2 VP instead of 1",
        "New vote: TRUCE or HARVEST (a tie goes to TRUCE). Use /vote EFFECT.",
    ]


def test_resolved_with_no_orders_joins_eliminations_and_a_winner() -> None:
    event = resolution(
        joined={"p2/p3": ("p2", "p3")},
        eliminated=["p4"],
        winner="p1",
        vp={"p1": 10},
        vp_gained={"p1": 2},
    )
    assert announcements.resolved(event, NAMES, after(), REOPENING, NOW).split("\n") == [
        "Turn 1 has resolved.",
        "No orders: every army held.",
        "VP: Ann +2 (10 VP).",
        "Bob and Cy have joined forces as Bob/Cy.",
        "Out of the game: p4.",
        "Ann wins the game!",
    ]
