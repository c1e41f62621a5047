"""/help's summary: phase, turn, next resolution, vote and effect, the caller's standing."""

from datetime import datetime, timedelta

from msgspec.structs import replace

from projections.game import GameState
from projections.views import public_game
from schema.game_events import GamePaused, Vote
from server.commands.status import SHOWN_STANDINGS, schedule, summary, without_game
from tests.server.decide.given import NOON, T0, joined, resolve, scored, started

NOW = T0 + timedelta(hours=1)


def lines(
    state: GameState,
    me: str | None = "p1",
    armies: list[str] | None = None,
    now: datetime = NOW,
    **changes: object,
) -> list[str]:
    """/help's lines at `now`, for the game `state` is (with `changes` to its view)."""
    game = replace(public_game(state, 9), **changes)
    return summary(game, state.window(now), now, me=me, armies=armies or [], admin=False).split(
        "\n"
    )


def test_a_running_game() -> None:
    shown = lines(started(3).state, armies=["AB", "CD"])
    assert shown[0] == (
        "**Test game** (game g1): Turn 1 is open for orders (they close 5 minutes before the "
        "resolution). Next resolution: 2026-11-21 12:00 UTC (12PM local time, in 3h)."
    )
    assert shown[1] == (
        "Turns resolve daily at 12PM (12:00) local time (UTC). First to 10 VP wins."
    )
    assert shown[2] == ("You: Player 1 (p1), 1st of 3: 0 VP, 3 territories, 2 armies in AB, CD.")
    assert shown[3:7] == [
        "Standings:",
        "1. Player 1: 0 VP, 3 terr., 2 armies",
        "2. Player 2: 0 VP, 3 terr., 2 armies",
        "3. Player 3: 0 VP, 3 terr., 2 armies",
    ]
    assert shown[-1].startswith("Commands: /submit, /list")
    assert "Admin:" not in shown[-1]


def test_the_window_around_a_resolution() -> None:
    game = started(3)
    closed = lines(game.state, now=NOON - timedelta(minutes=4))[0]
    assert closed.endswith(
        "Turn 1's orders are closed: it resolves at 2026-11-21 12:00 UTC (12PM local time, "
        "in 4m); orders for turn 2 open at 2026-11-21 12:05 UTC (12:05 local time, in 9m)."
    )
    due = lines(game.state, now=NOON)[0]
    assert due.endswith(
        "Turn 1 is due: it resolves any moment now, and orders for turn 2 open a few minutes "
        "after it."
    )
    resolve(game)
    locked = lines(game.state, now=NOON + timedelta(seconds=30))[0]
    assert locked.endswith(
        "Turn 2 opens for orders at 2026-11-21 12:05 UTC (12:05 local time, in 4m). Next "
        "resolution: 2026-11-22 12:00 UTC (12PM local time, in 23h 59m)."
    )
    fast = started(3, fast_mode=True)
    assert lines(fast.state, now=T0)[0].endswith(
        "Turn 1 is open for orders (they close 1 minute before the resolution). Next "
        "resolution: 2026-11-21 08:15 UTC (08:15 local time, in 15m)."
    )


def test_the_standing_is_the_callers_rank() -> None:
    shown = lines(scored(started(3), {"p2": 4, "p3": 1}).state, me="p3")
    assert "You: Player 3 (p3), 2nd of 3: 1 VP, 3 territories, 2 armies." in shown
    assert shown.index("1. Player 2: 4 VP, 3 terr., 2 armies") > 0


def test_a_spectator_has_no_standing_and_an_admin_sees_admin_commands() -> None:
    state = started(3).state
    text = summary(public_game(state, 9), state.window(NOW), NOW, me=None, armies=[], admin=True)
    assert "You are not playing in this game." in text
    assert "Admin: /start, /pause, /resolve, /rewind, /ban, /kill_room." in text


def test_the_join_phase() -> None:
    game = joined(2).state
    assert lines(game, me=None)[0].endswith(
        "Join phase: 2 players so far. Join with /join; an admin starts the game with /start."
    )
    assert "You are not in this game yet: send /join." in lines(game, me=None)
    assert "You have joined as Player 2 (p2)." in lines(game, me="p2")
    assert "Players: Player 1, Player 2" in lines(game, me="p2")


def test_a_paused_game() -> None:
    game = started(3).given(GamePaused(at=T0)).state
    assert lines(game)[0].endswith(
        "Turn 1, paused: no turn resolves until an admin sends /unpause. Orders and votes are "
        "still taken."
    )


def test_a_finished_game_names_the_winner() -> None:
    game = scored(started(3), {"p2": 10}).state
    shown = lines(game, phase="finished", winner="p2", turn=2)
    assert shown[0].endswith("Finished after turn 1. Winner: Player 2!")
    assert not any(line.startswith("Turns resolve") for line in shown)


def test_the_vote_and_the_effect_in_force() -> None:
    vote = Vote(turn=1, candidates=("FEAST", "STORM"), tie_break="STORM")
    game = started(3)
    skirmish = replace(game.state.skirmish, vote=vote, ballots={"p1": "FEAST"}, effect="TRUCE")
    state = replace(game.state, play=skirmish)
    shown = lines(state)
    start = shown.index("Vote this turn: FEAST or STORM. Use /vote EFFECT.")
    assert shown[start + 1 : start + 5] == [
        "- FEAST: each successful farm order earns 2 VP instead of 1",
        "- STORM: overseas connections are closed: orders that use one are invalid",
        "Tally: FEAST 1, STORM 0 (a tie goes to STORM).",
        "Effect in force this turn: TRUCE: a move into a territory held by another "
        "player's army is invalid",
    ]


def test_same_day_ballots_stay_secret() -> None:
    vote = Vote(turn=1, candidates=("FEAST", "STORM"), tie_break="STORM")
    game = started(3, voting_mode="same_day")
    state = replace(
        game.state, play=replace(game.state.skirmish, vote=vote, ballots={"p1": "FEAST"})
    )
    text = "\n".join(lines(state))
    assert "Ballots are secret until the turn resolves." in text
    assert "FEAST 1" not in text


def test_long_standings_are_cut() -> None:
    shown = lines(started(12).state)
    assert f"{SHOWN_STANDINGS}. " in "\n".join(shown)
    assert f"{SHOWN_STANDINGS + 1}. " not in "\n".join(shown)
    assert f"... and {12 - SHOWN_STANDINGS} more" in shown


def test_schedule() -> None:
    settings = started(3).state.settings
    assert schedule(replace(settings, fast_mode=True)) == (
        "Fast mode: a turn resolves every 15 minutes."
    )
    assert schedule(replace(settings, resolution_hour=18, utc_offset=-5)) == (
        "Turns resolve daily at 6PM (18:00) local time (UTC-5)."
    )


def test_help_without_a_game_explains_setup_and_lists_every_command() -> None:
    text = without_game()
    assert "/setup" in text
    assert "/kill_room: delete the game for good" in text
    assert "http" not in text
