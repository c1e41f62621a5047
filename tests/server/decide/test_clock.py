"""The room's clock for games run by their definition (server/game/decide/playing.py): a wait
with `seconds` falls due at its deadline, when the scheduler's ResolveTurn times it out once
(a sealed wait resolved with the moves that are in, a turn by the game's own move for the
seat), a paused game's clock stands still, the seats a step leaves to move are told, and the
seats still to move are reminded once before the deadline (RemindPlayers)."""

from datetime import timedelta
from typing import Any

from projections.playing import step_values
from schema import errors as codes
from schema.commands import (
    Actor,
    CreateGame,
    JoinGame,
    MakeMove,
    PauseGame,
    RemindPlayers,
    Resign,
    ResolveTurn,
    StartGame,
    UnpauseGame,
)
from schema.game_events import MoveSealed, PlayerNotified, PlayRecorded, Settings
from tests.server.decide.given import ADMIN, SECRET, T0, Game, account, at, refused

SCHEDULER = Actor("scheduler", operator=True)


def _started(game: str, players: int, **options: Any) -> Game:
    created = Game()
    created.run(
        CreateGame(
            actor=Actor(ADMIN),
            now=T0,
            game_id="g1",
            settings=Settings(name="Clocked"),
            seed=1,
            game=game,
            options=options,
        )
    )
    for i in range(1, players + 1):
        created.run(JoinGame(actor=Actor(account(i)), now=T0, name=f"Player {i}"))
    created.run(StartGame(actor=Actor(ADMIN), now=T0, secret=SECRET))
    return created


def _move(game: Game, player: int, move: Any, minutes: float) -> list[Any]:
    return game.run(MakeMove(actor=Actor(account(player)), now=at(minutes), move=move))


def _time_out(game: Game, minutes: float, turn: int | None = None) -> list[Any]:
    now = at(minutes)
    return game.run(ResolveTurn(actor=SCHEDULER, now=now, turn=turn or game.state.turn))


def test_an_art_of_war_turn_runs_at_its_deadline_with_the_orders_that_are_in() -> None:
    game = _started("art-of-war", 3, deadline=3_600)
    assert game.state.next_resolution_at() == T0 + timedelta(hours=1)
    # The start tells every seat the first turn waits for it.
    told = [e for e in game.events if isinstance(e, PlayerNotified)]
    assert [(n.player_id, n.kind, n.turn) for n in told] == [
        (f"p{i}", "your_turn", 1) for i in (1, 2, 3)
    ]
    assert told[0].text == "Clocked: it is your turn, until 2026-11-21 09:00 UTC."
    _move(game, 1, "", 10)
    with refused(codes.NOT_DUE, "runs until"):
        _time_out(game, 59)
    step, *notices = _time_out(game, 60)
    assert isinstance(step, PlayRecorded)
    assert (step.kind, step.turn, step.player_id, step.at) == ("timeout", 1, None, at(60))
    (run,) = step_values(step)
    # Only p1 had submitted (nothing); the others' orders are missing, hence none.
    assert run["orders"] == {"p1": []}
    assert [(n.player_id, n.kind, n.turn) for n in notices] == [
        (f"p{i}", "your_turn", 2) for i in (1, 2, 3)
    ]
    assert all(isinstance(n, PlayerNotified) for n in notices)
    assert "until 2026-11-21 10:00 UTC" in notices[0].text
    state = game.state
    assert (state.turn, state.sealed) == (2, {})
    # The next turn's wait begins at the timeout, with all its time.
    assert state.next_resolution_at() == at(120)
    # Exactly once: the scheduler's second try at turn 1 is refused, as a stale turn is.
    with refused(codes.WRONG_TURN, "already over"):
        _time_out(game, 61, turn=1)


def test_a_turn_that_every_seat_moved_in_runs_at_once_and_begins_a_new_wait() -> None:
    game = _started("art-of-war", 2, deadline=3_600)
    _move(game, 1, "", 10)
    sealed, step, *notices = _move(game, 2, "", 25)
    assert isinstance(sealed, MoveSealed)
    assert isinstance(step, PlayRecorded)
    assert step.kind == "resolution"
    assert [n.player_id for n in notices] == ["p1", "p2"]
    assert game.state.next_resolution_at() == at(85)


def test_no_deadline_no_timeout_and_a_finished_game_has_none() -> None:
    game = _started("art-of-war", 2, deadline=None)
    assert game.state.next_resolution_at() is None
    with refused(codes.NOT_DUE, "has no deadline"):
        _time_out(game, 60 * 24 * 30)
    timed = _started("skor", 2, turn_time=60)
    timed.run(Resign(actor=Actor(account(1)), now=at(0.5)))
    assert timed.state.phase == "finished"
    assert timed.state.next_resolution_at() is None


def test_a_paused_game_keeps_the_time_its_wait_had_left() -> None:
    game = _started("art-of-war", 2, deadline=3_600)
    game.run(PauseGame(actor=Actor(ADMIN), now=at(20)))
    assert game.state.next_resolution_at() is None
    with refused(codes.WRONG_PHASE):
        _time_out(game, 60)
    game.run(UnpauseGame(actor=Actor(ADMIN), now=at(120)))
    # 40 minutes were left at the pause: they are left after it.
    assert game.state.next_resolution_at() == at(160)
    with refused(codes.NOT_DUE):
        _time_out(game, 159)
    assert isinstance(_time_out(game, 160)[0], PlayRecorded)


def test_a_skor_clock_runs_per_turn_and_the_turn_passes_at_its_deadline() -> None:
    game = _started("skor", 2, turn_time=600)
    # The setup's sealed choices wait for ever.
    assert game.state.next_resolution_at() is None
    _move(game, 1, {"culture": "feudal", "side": 1}, 1)
    *_, resolution, first_notice = _move(game, 2, {"culture": "feudal", "side": 1}, 2)
    assert isinstance(resolution, PlayRecorded)
    assert isinstance(first_notice, PlayerNotified)
    first = int(first_notice.player_id[1:])
    second = 3 - first
    assert game.state.next_resolution_at() == at(12)
    # An action that does not end the turn keeps the turn's clock running, and tells nobody.
    (moved,) = _move(game, first, "move A0 A1", 3)
    assert isinstance(moved, PlayRecorded)
    assert game.state.next_resolution_at() == at(12)
    (step, told) = _move(game, first, "end", 5)
    assert isinstance(told, PlayerNotified)
    assert told.player_id == f"p{second}"
    assert game.state.next_resolution_at() == at(15)
    step, notice = _time_out(game, 15)
    assert (step.kind, step.player_id) == ("timeout", f"p{second}")
    assert notice.player_id == f"p{first}"
    assert game.state.next_resolution_at() == at(25)


def _remind(game: Game, minutes: float) -> list[Any]:
    return game.run(RemindPlayers(actor=SCHEDULER, now=at(minutes), turn=game.state.turn))


def test_a_timed_wait_reminds_the_seats_still_to_move_once() -> None:
    game = _started("art-of-war", 3, deadline=60)
    # A minute's wait reminds a quarter of it, 15 seconds, before its deadline.
    assert game.state.next_reminder_at() == T0 + timedelta(seconds=45)
    _move(game, 1, "", 0.25)
    reminders = _remind(game, 0.75)
    assert [(n.player_id, n.kind, n.turn) for n in reminders] == [
        ("p2", "reminder", 1),
        ("p3", "reminder", 1),
    ]
    assert game.state.next_reminder_at() is None
    # Exactly once, however many schedulers try.
    assert _remind(game, 0.8) == []
    # The next wait reminds again.
    _time_out(game, 1)
    assert game.state.next_reminder_at() == at(1.75)


def test_a_long_wait_reminds_an_hour_before_and_an_endless_one_never() -> None:
    day = _started("art-of-war", 2, deadline=86_400)
    assert day.state.next_reminder_at() == T0 + timedelta(hours=23)
    endless = _started("art-of-war", 2, deadline=None)
    assert endless.state.next_reminder_at() is None
    assert _remind(endless, 60) == []
