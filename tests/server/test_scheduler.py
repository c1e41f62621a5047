"""Games resolve by themselves, on a fake clock, on real PostgreSQL."""

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest
from msgspec.structs import replace

from eventstore.postgres import PostgresEventStore
from projections.loading import stream_of
from projections.progress import Progress
from projections.reads import ReadModels
from projections.runner import ReadModelRunner
from schema.commands import (
    Actor,
    ChangeSettings,
    CreateGame,
    JoinGame,
    PauseGame,
    SetNotifications,
    StartGame,
    UnpauseGame,
)
from schema.game_events import PlayerNotified, PlayRecorded, Settings, TurnResolved, game_codec
from server.clock import FakeClock
from server.game.handlers import GameService
from server.ops import clock_steps, scheduler
from server.ops.clock_steps import advance_clock, read_models_caught_up
from server.ops.scheduler import PACE_EVENTS, Scheduler
from tests.server.scripted import SECRET
from tests.support import analyzed_pages, numbered, pages_read

START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
ADMIN = "acct-admin"


@dataclass
class World:
    store: PostgresEventStore
    pool: asyncpg.Pool
    games: GameService
    clock: FakeClock
    scheduler: Scheduler

    async def advance(self, **delta: float) -> None:
        await advance_clock(
            self.clock, self.clock.now() + timedelta(**delta), self.scheduler, self.pool, self.store
        )

    async def new_game(self, game_id: str, **settings: object) -> None:
        options = replace(Settings(name=game_id, votes="disabled"), **settings)
        now = self.clock.now()
        await self.games.execute(
            game_id,
            CreateGame(actor=Actor(ADMIN), now=now, game_id=game_id, settings=options, seed=3),
        )
        for i in range(1, 4):
            await self.games.execute(
                game_id, JoinGame(actor=Actor(f"acct-{i}"), now=now, name=f"P{i}")
            )
        await self.games.execute(game_id, StartGame(actor=Actor(ADMIN), now=now, secret=SECRET))

    async def new_art_of_war(self, game_id: str) -> None:
        """An Art of War game of two seats whose turns have a deadline of 10 minutes."""
        now = self.clock.now()
        await self.games.execute(
            game_id,
            CreateGame(
                actor=Actor(ADMIN),
                now=now,
                game_id=game_id,
                settings=Settings(name=game_id),
                seed=3,
                game="art-of-war",
                options={"map": "aow-mini", "deadline": 600},
            ),
        )
        for i in range(1, 3):
            await self.games.execute(
                game_id, JoinGame(actor=Actor(f"acct-{i}"), now=now, name=f"P{i}")
            )
        await self.games.execute(game_id, StartGame(actor=Actor(ADMIN), now=now, secret=SECRET))

    async def resolutions(self, game_id: str) -> list[TurnResolved]:
        events = await self.store.read_stream(stream_of(game_id))
        decoded = (game_codec.decode_recorded(e) for e in events)
        return [e for e in decoded if isinstance(e, TurnResolved)]


@pytest.fixture
async def world(postgres_store: PostgresEventStore, pool: asyncpg.Pool) -> AsyncIterator[World]:
    clock = FakeClock(START)
    games = GameService(postgres_store)
    runner = asyncio.create_task(ReadModelRunner(postgres_store, pool).follow())
    try:
        yield World(postgres_store, pool, games, clock, Scheduler(games, pool, clock))
    finally:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner


@pytest.mark.parametrize(("utc_offset", "utc_hour"), [(0, 12), (2, 10), (-5, 17), (9, 3)])
async def test_a_game_resolves_at_its_hour_in_its_local_time(
    world: World, utc_offset: int, utc_hour: int
) -> None:
    await world.new_game("g1", resolution_hour=12, utc_offset=utc_offset)
    await world.advance(days=2)
    (first, second) = await world.resolutions("g1")
    local_noon = START.replace(hour=utc_hour)
    if local_noon < START + timedelta(hours=1, minutes=10):
        local_noon += timedelta(days=1)
    assert first.at == local_noon
    assert second.at == local_noon + timedelta(days=1)


async def test_fast_mode_resolves_every_fifteen_minutes(world: World) -> None:
    await world.new_game("g1", fast_mode=True)
    await world.advance(hours=1)
    resolved = await world.resolutions("g1")
    assert [r.at for r in resolved] == [START + timedelta(minutes=15 * n) for n in range(1, 5)]
    assert [r.turn for r in resolved] == [1, 2, 3, 4]


async def test_a_paused_game_waits_and_resumes_at_the_normal_time(world: World) -> None:
    await world.new_game("g1", resolution_hour=12)
    await world.games.execute("g1", PauseGame(actor=Actor(ADMIN), now=world.clock.now()))
    await world.advance(days=2)
    assert await world.resolutions("g1") == []
    # Unpaused at 11:30 on the third day: the lock window of that noon has not begun, so
    # the game resolves at that noon (rules.md), then daily again.
    world.clock.set(START.replace(day=23, hour=11, minute=30))
    await world.games.execute("g1", UnpauseGame(actor=Actor(ADMIN), now=world.clock.now()))
    await world.advance(days=1, hours=1)
    assert [r.at for r in await world.resolutions("g1")] == [
        START.replace(day=23, hour=12),
        START.replace(day=24, hour=12),
    ]


async def test_a_new_resolution_hour_applies_from_the_next_resolution(world: World) -> None:
    await world.new_game("g1", resolution_hour=12)
    await world.advance(hours=5)  # 13:00, the first noon resolved
    changed_at = world.clock.now()
    await world.games.execute(
        "g1", ChangeSettings(actor=Actor(ADMIN), now=changed_at, resolution_hour=18)
    )
    await world.advance(days=1)
    assert [r.at for r in await world.resolutions("g1")] == [
        START.replace(hour=12),
        START.replace(hour=18),
    ]


async def test_an_overdue_turn_resolves_once_when_the_server_is_back(world: World) -> None:
    await world.new_game("g1", resolution_hour=12)
    # The server was down for three days: the clock jumps, then the scheduler runs.
    world.clock.set(START + timedelta(days=3))
    await world.advance(seconds=0)
    (resolved,) = await world.resolutions("g1")
    assert resolved.at == START + timedelta(days=3)
    # The next resolution is reckoned from that one (08:00), not from the missed days.
    state = (await world.games.load("g1")).state
    assert state.next_resolution_at() == START.replace(day=24, hour=12)


async def test_reminders_go_to_those_who_want_them_once_before_each_resolution(
    world: World,
) -> None:
    await world.new_game("g1", resolution_hour=12)
    now = world.clock.now()
    await world.games.execute("g1", SetNotifications(actor=Actor("acct-2"), now=now, enabled=False))
    await world.advance(hours=3, minutes=30)  # 11:30: reminded at 11:00, not yet resolved
    events = [game_codec.decode_recorded(e) for e in await world.store.read_stream("game-g1")]
    reminders = [e for e in events if isinstance(e, PlayerNotified) and e.kind == "reminder"]
    assert sorted(r.player_id for r in reminders) == ["p1", "p3"]
    assert {r.turn for r in reminders} == {1}
    await world.advance(hours=1)
    events = [game_codec.decode_recorded(e) for e in await world.store.read_stream("game-g1")]
    notices = [e for e in events if isinstance(e, PlayerNotified)]
    assert [(n.kind, n.player_id) for n in notices][-2:] == [("results", "p1"), ("results", "p3")]
    assert sum(n.kind == "reminder" for n in notices) == 2


async def test_two_schedulers_racing_resolve_each_turn_once(world: World) -> None:
    for n in range(20):
        await world.new_game(f"g{n}", fast_mode=True)
    await read_models_caught_up(world.pool, world.store)
    world.clock.set(START + timedelta(minutes=15))
    other = Scheduler(GameService(world.store), world.pool, world.clock, batch=3)
    ticks = await asyncio.gather(world.scheduler.run_due(), other.run_due(), other.run_due())
    assert sum(t.resolved for t in ticks) <= 20
    await world.advance(seconds=0)
    for n in range(20):
        assert [r.turn for r in await world.resolutions(f"g{n}")] == [1]


async def test_a_game_past_its_deadline_stays_due_and_holds_up_none_of_its_claim(
    world: World,
) -> None:
    for n in range(12):
        await world.new_game(f"g{n}", fast_mode=True)
    await read_models_caught_up(world.pool, world.store)
    world.clock.set(START + timedelta(minutes=15))
    # Long enough for the other games on a loaded machine.
    scheduler = Scheduler(world.games, world.pool, world.clock, batch=5, deadline_seconds=2.0)
    # Another command to g3 that never ends keeps the scheduler's waiting for its turn.
    async with world.games._lock_of("g3"):
        tick = await scheduler.run_due()
    assert (tick.resolved, tick.failed) == (11, 1)
    assert await world.resolutions("g3") == []
    due = await world.pool.fetchval(
        "SELECT next_resolution_at FROM read_games WHERE game_id = 'g3'"
    )
    assert due == START + timedelta(minutes=15)
    assert (await scheduler.run_due()).resolved == 1
    await world.advance(seconds=0)
    for n in range(12):
        assert [r.turn for r in await world.resolutions(f"g{n}")] == [1]


async def test_a_claim_leaves_the_next_due_times_without_waiting_for_the_read_models(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    clock = FakeClock(START)
    games = GameService(postgres_store)
    world = World(postgres_store, pool, games, clock, Scheduler(games, pool, clock))
    await world.new_game("g1", fast_mode=True)
    runner = ReadModelRunner(postgres_store, pool)
    await runner.catch_up()
    clock.set(START + timedelta(minutes=15))
    assert (await world.scheduler.run_due()).resolved == 1
    # No runner follows the log: what the row says, the scheduler wrote.
    assert not await runner.caught_up()
    row = await _schedule_of(pool, "g1")
    state = (await games.load("g1")).state
    assert state.turn == 2
    assert row == ("running", 2, START + timedelta(minutes=30), state.next_reminder_at())
    # The runner, once it reads the resolution, writes the same.
    await runner.catch_up()
    assert await _schedule_of(pool, "g1") == row


async def _schedule_of(pool: asyncpg.Pool, game_id: str) -> tuple[object, ...]:
    row = await pool.fetchrow(
        "SELECT phase, turn, next_resolution_at, next_reminder_at FROM read_games "
        "WHERE game_id = $1",
        game_id,
    )
    assert row is not None
    return tuple(row)


async def test_a_claimed_game_is_left_alone_until_its_lease_runs_out(world: World) -> None:
    await world.new_game("g1", fast_mode=True)
    await read_models_caught_up(world.pool, world.store)
    world.clock.set(START + timedelta(minutes=15))
    stopped = Scheduler(world.games, world.pool, world.clock, lease_seconds=1.0)
    # A scheduler stops in the middle of its claim (the game's command never ends).
    async with world.games._lock_of("g1"):
        claim = asyncio.create_task(stopped.run_due())
        async with asyncio.timeout(10):
            while await _lease_of(world.pool, "g1") is None:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        claim.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await claim
    other = Scheduler(GameService(world.store), world.pool, world.clock)
    assert (await other.run_due()).resolved == 0
    lease = await _lease_of(world.pool, "g1")
    assert lease is not None
    await asyncio.sleep((lease - datetime.now(UTC)).total_seconds() + 0.1)
    assert (await other.run_due()).resolved == 1
    assert await _lease_of(world.pool, "g1") is None
    assert [r.turn for r in await world.resolutions("g1")] == [1]


async def _lease_of(pool: asyncpg.Pool, game_id: str) -> datetime | None:
    lease: datetime | None = await pool.fetchval(
        "SELECT claimed_until FROM read_games WHERE game_id = $1", game_id
    )
    return lease


@pytest.mark.parametrize(
    ("statement", "arguments"),
    [
        (scheduler._CLAIM, (START, "{}", 5, "15 seconds")),
        (clock_steps._CLAIMED_ELSEWHERE, (START,)),
        (clock_steps._NEXT_DUE, ()),
    ],
    ids=["claim", "claimed elsewhere", "next due"],
)
async def test_with_twenty_thousand_games_due_at_once_a_claim_reads_a_few_of_them(
    pool: asyncpg.Pool, statement: str, arguments: tuple[object, ...]
) -> None:
    async with pool.acquire() as connection:
        await connection.execute(
            "INSERT INTO read_games (game_id, name, phase, turn, players, position, "
            "next_resolution_at) SELECT 'g' || n, 'game', 'running', 1, 20, n, "
            "$1::timestamptz - n * interval '1 second' FROM generate_series(1, 20000) AS n",
            START,
        )
        size = await analyzed_pages(connection, "read_games")
        read = await pages_read(connection, statement, *arguments)

    # Each claim of five sorted all the due games (and the clock that waits for other
    # schedulers asked whether any was claimed, every 10 ms, of all of them).
    assert read < size / 2


async def test_read_models_that_do_not_move_slow_the_scheduler_but_never_stop_it(
    world: World,
) -> None:
    await world.new_game("g1", fast_mode=True)
    await read_models_caught_up(world.pool, world.store)
    paced = Scheduler(
        world.games,
        world.pool,
        world.clock,
        read_models=ReadModels(world.pool, Progress(world.pool), wait=0.01),
    )
    async with world.pool.acquire() as holder, holder.transaction():
        # The runner cannot commit: the read models stay where they are.
        await holder.execute("SELECT * FROM projection_checkpoints FOR UPDATE")
        for n in range(PACE_EVENTS // 100 + 1):
            await world.store.append(f"other-{n}", numbered(100), expected_version=0)
        world.clock.advance(15 * 60)
        tick = await paced.run_due()
    assert tick.resolved == 1
    assert len(await world.resolutions("g1")) == 1


async def test_two_schedulers_racing_time_out_each_deadline_once(world: World) -> None:
    """Art of War games whose turn has a deadline (P30): each turn runs once, at it, with
    the orders that are in; the next turn's deadline is reckoned from that run."""
    for n in range(10):
        await world.new_art_of_war(f"w{n}")
    await read_models_caught_up(world.pool, world.store)
    world.clock.set(START + timedelta(minutes=10))
    other = Scheduler(GameService(world.store), world.pool, world.clock, batch=3)
    ticks = await asyncio.gather(world.scheduler.run_due(), other.run_due(), other.run_due())
    assert sum(t.resolved for t in ticks) <= 10
    await world.advance(seconds=0)
    for n in range(10):
        events = [
            game_codec.decode_recorded(e) for e in await world.store.read_stream(f"game-w{n}")
        ]
        steps = [e for e in events if isinstance(e, PlayRecorded)]
        assert [(s.kind, s.turn, s.at) for s in steps] == [("timeout", 1, world.clock.now())]
        state = (await world.games.load(f"w{n}")).state
        assert state.next_resolution_at() == START + timedelta(minutes=20)


async def test_two_schedulers_racing_remind_each_wait_once(world: World) -> None:
    """Art of War games whose turn has a deadline of 10 minutes: each seat is reminded once,
    a quarter of the wait before it, however many schedulers race for it."""
    for n in range(10):
        await world.new_art_of_war(f"w{n}")
    await read_models_caught_up(world.pool, world.store)
    world.clock.set(START + timedelta(minutes=7, seconds=30))
    other = Scheduler(GameService(world.store), world.pool, world.clock, batch=3)
    ticks = await asyncio.gather(world.scheduler.run_due(), other.run_due(), other.run_due())
    assert sum(t.reminded for t in ticks) <= 10
    await world.advance(seconds=0)
    for n in range(10):
        events = [
            game_codec.decode_recorded(e) for e in await world.store.read_stream(f"game-w{n}")
        ]
        reminders = [e for e in events if isinstance(e, PlayerNotified) and e.kind == "reminder"]
        assert [(r.player_id, r.turn) for r in reminders] == [("p1", 1), ("p2", 1)]
        state = (await world.games.load(f"w{n}")).state
        assert (state.next_reminder_at(), state.wait_reminded) == (None, True)
