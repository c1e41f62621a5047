"""A daily wait of a game run by its definition (rules/game.py: `Daily`, `lock`, `Reminder`,
`closes`, `restarts`, `EarlyClose`), the tests' own bell (tests/games/bell.py) through a real
server on a fake clock (POST /v1/admin/clock) from Monday 08:00 UTC: the deadline is the first
hour of the day far enough after the wait began, or after an unpause; the lock windows around
it refuse moves; a paused game takes them; an admin closes a wait early once the game says
it is ready, the operator at once; everyone is reminded, once a turn."""

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from rules.registry import unregister
from tests.api.clocks import Json, advance, deadline_of, started
from tests.api.support import (
    OPERATOR_TOKEN,
    START,
    Account,
    Api,
    Server,
    feed_of,
    make_move,
    public_game,
    serving,
)
from tests.games.bell import BELL
from tests.games.rock_paper_scissors import ROCK_PAPER_SCISSORS


@pytest.fixture
async def server(schema_url: str) -> AsyncIterator[Server]:
    games = ("tests.games.bell:BELL", "tests.games.rock_paper_scissors:ROCK_PAPER_SCISSORS")
    try:
        async with serving(schema_url, games=games) as running:
            yield running
    finally:
        for game in (BELL, ROCK_PAPER_SCISSORS):
            unregister(game.name)


def _day(day: int, hour: int, minute: int = 0) -> datetime:
    """Monday (day 0), the day of the start, or a day after, at an hour (UTC)."""
    return START.replace(hour=hour, minute=minute) + timedelta(days=day)


class Clock:
    """The fake clock, told where to go rather than how far."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.now = START

    async def to(self, moment: datetime) -> None:
        assert moment >= self.now, (moment, self.now)
        await advance(self.api, (moment - self.now).total_seconds())
        self.now = moment


async def _bell(api: Api, players: int = 2, **options: Any) -> tuple[str, list[Account]]:
    return await started(api, "bell", players, **options)


async def _ring(api: Api, game_id: str, who: Account, expect: int = 200) -> Json:
    return await make_move(api, game_id, who, "ring", expect=expect)


async def _deadline(api: Api, game_id: str) -> datetime | None:
    return deadline_of(await public_game(api, game_id))


async def _turn(api: Api, game_id: str) -> int:
    turn: int = (await public_game(api, game_id))["turn"]
    return turn


async def test_the_deadline_is_the_first_hour_far_enough_after_the_wait_began(
    server: Server,
) -> None:
    api, clock = server.api, Clock(server.api)
    # Begun at 08:00, its first noon at least 70 minutes on: today's.
    noon, _ = await _bell(api)
    assert await _deadline(api, noon) == _day(0, 12)
    # 09:00 is 60 minutes on, too soon: tomorrow's; with 60 minutes enough, today's.
    nine, _ = await _bell(api, hour=9)
    assert await _deadline(api, nine) == _day(1, 9)
    soon, _ = await _bell(api, hour=9, not_before=3_600)
    assert await _deadline(api, soon) == _day(0, 9)
    # An hour after midnight, across it.
    one, _ = await _bell(api, hour=1)
    assert await _deadline(api, one) == _day(1, 1)
    # Nobody rang: at noon the turn tolls, and the next wait begins then, for tomorrow's.
    await clock.to(_day(0, 12))
    view = await public_game(api, noon)
    assert (view["turn"], deadline_of(view)) == (2, _day(1, 12))
    await clock.to(_day(1, 1))
    assert (await _turn(api, one), await _deadline(api, one)) == (2, _day(2, 1))


async def test_an_unpause_never_costs_a_day(server: Server) -> None:
    api, clock = server.api, Clock(server.api)
    early, (early_admin, _) = await _bell(api)
    late, (late_admin, _) = await _bell(api)
    for game_id, admin in ((early, early_admin), (late, late_admin)):
        await api.call("POST", f"/v1/games/{game_id}/admin/pause", admin)
        assert await _deadline(api, game_id) is None
    # Unpaused before the lock before noon would begin: noon still.
    await clock.to(_day(0, 11, 54))
    await api.call("POST", f"/v1/games/{early}/admin/unpause", early_admin)
    assert await _deadline(api, early) == _day(0, 12)
    # Unpaused into it: tomorrow's.
    await clock.to(_day(0, 11, 55))
    await api.call("POST", f"/v1/games/{late}/admin/unpause", late_admin)
    assert await _deadline(api, late) == _day(1, 12)


async def test_the_lock_windows_refuse_moves(server: Server) -> None:
    api, clock = server.api, Clock(server.api)
    game_id, (one, two) = await _bell(api)
    await clock.to(_day(0, 11, 54))
    await _ring(api, game_id, one)
    await clock.to(_day(0, 11, 55))
    locked = await _ring(api, game_id, two, expect=409)
    assert locked["error"]["code"] == "orders_locked"
    assert locked["error"]["orders_open_at"] == "2030-03-04T12:05:00Z"
    await clock.to(_day(0, 12, 4))
    assert await _turn(api, game_id) == 2
    locked = await _ring(api, game_id, two, expect=409)
    assert locked["error"]["orders_open_at"] == "2030-03-04T12:05:00Z"
    await clock.to(_day(0, 12, 5))
    await _ring(api, game_id, two)


async def test_a_paused_game_takes_the_moves_of_a_wait_only_an_admin_or_the_clock_closes(
    server: Server,
) -> None:
    api, clock = server.api, Clock(server.api)
    game_id, (one, two) = await _bell(api)
    await api.call("POST", f"/v1/games/{game_id}/admin/pause", one)
    await _ring(api, game_id, one)
    await _ring(api, game_id, two)
    # All rang: the wait stays open for the clock, which stands still while paused.
    await clock.to(_day(1, 12))
    view = await public_game(api, game_id)
    assert (view["phase"], view["turn"]) == ("paused", 1)
    assert sorted(view["play"]["rung"]) == ["p1", "p2"]
    # A wait that its last move closes stands still: no move while paused.
    rounds, (first, _) = await started(api, "rock-paper-scissors", 2, seconds=900)
    await api.call("POST", f"/v1/games/{rounds}/admin/pause", first)
    refused = await make_move(api, rounds, first, "rock", expect=409)
    assert refused["error"]["code"] == "wrong_phase"


async def test_an_unpause_gives_a_restarting_wait_all_its_time_again(server: Server) -> None:
    api, clock = server.api, Clock(server.api)
    game_id, (admin, _) = await _bell(api, seconds=900, lock=60, lead=180)
    assert await _deadline(api, game_id) == START + timedelta(seconds=900)
    await clock.to(START + timedelta(seconds=600))
    await api.call("POST", f"/v1/games/{game_id}/admin/pause", admin)
    await clock.to(START + timedelta(seconds=1_000))
    await api.call("POST", f"/v1/games/{game_id}/admin/unpause", admin)
    assert await _deadline(api, game_id) == START + timedelta(seconds=1_900)


async def test_an_admin_closes_the_wait_early_once_the_game_is_ready_the_operator_at_once(
    server: Server,
) -> None:
    api, clock = server.api, Clock(server.api)
    game_id, (admin, other) = await _bell(api)
    resolve = f"/v1/games/{game_id}/admin/resolve"
    await _ring(api, game_id, admin)
    refused = await api.call("POST", resolve, admin, expect=409)
    assert refused["error"]["code"] == "orders_missing"
    assert refused["error"]["message"] == "1 of the 2 seats have not rung for this turn"
    # A player who is no admin closes nothing.
    await api.call("POST", resolve, other, expect=403)
    await api.call("POST", resolve, OPERATOR_TOKEN)
    assert await _turn(api, game_id) == 2
    # Past the lock after the toll.
    await clock.to(_day(0, 8, 5))
    for who in (admin, other):
        await _ring(api, game_id, who)
    # Every seat rang, yet the wait waits for the clock or an admin: who closes it now.
    assert await _turn(api, game_id) == 2
    await api.call("POST", resolve, admin)
    view = await public_game(api, game_id)
    assert (view["turn"], view["play"]["tolls"]) == (3, 2)
    verified = await api.call("GET", f"/v1/games/{game_id}/verify")
    assert verified["ok"] is True, verified
    # A sandbox's admin plays every seat: nobody to wait for.
    body = {"turn": 2}
    sandbox = (await api.call("POST", f"/v1/games/{game_id}/fork", admin, body, expect=201))["id"]
    await api.call("POST", f"/v1/games/{sandbox}/admin/resolve", admin)
    assert await _turn(api, sandbox) == 3


async def _reminders(api: Api, game_id: str, who: Account) -> list[Json]:
    feed = await feed_of(api, game_id, who)
    return [e for e in feed if e["type"] == "player_notified.v1" and e["kind"] == "reminder"]


async def test_everyone_is_reminded_once_a_turn_not_again_after_a_rewind(server: Server) -> None:
    api, clock = server.api, Clock(server.api)
    game_id, (admin, other) = await _bell(api)
    await _ring(api, game_id, admin)
    await clock.to(_day(0, 10, 59))
    assert [await _reminders(api, game_id, who) for who in (admin, other)] == [[], []]
    # An hour before noon: the seat that rang too.
    await clock.to(_day(0, 11))
    reminders = [await _reminders(api, game_id, who) for who in (admin, other)]
    assert [[r["text"] for r in mine] for mine in reminders] == [
        ["On the clock: turn 1 ends at 2030-03-04 12:00:00 UTC."]
    ] * 2
    await clock.to(_day(0, 12, 30))
    assert await _turn(api, game_id) == 2
    await api.call("POST", f"/v1/games/{game_id}/admin/rewind", admin, {"reason": "again"})
    # Turn 1 again, its wait begun afresh at the rewind: tomorrow's noon, and no reminder.
    assert (await _turn(api, game_id), await _deadline(api, game_id)) == (1, _day(1, 12))
    await clock.to(_day(1, 11, 59))
    reminded = [len(await _reminders(api, game_id, who)) for who in (admin, other)]
    assert reminded == [1, 1]
    # Turn 2's own, tomorrow, an hour before its noon.
    await clock.to(_day(2, 11))
    reminded = [len(await _reminders(api, game_id, who)) for who in (admin, other)]
    assert reminded == [2, 2]
    verified = await api.call("GET", f"/v1/games/{game_id}/verify")
    assert verified["ok"] is True, verified
