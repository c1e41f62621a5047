"""Resolves every game on time, exactly once, whatever happens to the servers.

Each server process runs one scheduler. Due games are claimed from the read model with
`FOR UPDATE SKIP LOCKED`, so that several processes share the work instead of repeating it;
exactly-once does not rest on that claim, though: a resolution names its turn, and the
decider refuses a turn that is already resolved, under the store's optimistic append. A
crash mid-resolution appends all of it or nothing; the game stays due and is picked up
again. A turn overdue after downtime resolves once, at once, and the next one is reckoned
from that resolution.
"""

import asyncio
import logging
from datetime import datetime

import asyncpg
import msgspec

from eventstore.base import EventStore
from eventstore.outages import Backoff
from projections.game import GameState
from projections.runner import ReadModelRunner
from schema.commands import Actor, GameCommand, RemindPlayers, ResolveTurn
from server.clock import Clock, FakeClock
from server.decide.errors import DomainError
from server.handlers import Busy, GameService

ACTOR = "scheduler"
CATCH_UP_SECONDS = 30.0
# How often a clock waiting for another scheduler's claims looks again.
CLAIM_POLL_SECONDS = 0.01
# Whether some due game is locked by another transaction: claimed by a scheduler, or being
# written by the read models' runner. (The free ones are locked in share mode, which
# conflicts with both, for this statement only.)
_CLAIMED_ELSEWHERE = """
SELECT (SELECT count(*) FROM read_games WHERE next_resolution_at <= $1 OR next_reminder_at <= $1)
     > (SELECT count(*) FROM (SELECT 1 FROM read_games
                              WHERE next_resolution_at <= $1 OR next_reminder_at <= $1
                              FOR SHARE SKIP LOCKED) AS free)"""
# Claims due games, the most overdue first, skipping those another scheduler holds.
_CLAIM = """
SELECT game_id, turn, next_resolution_at <= $1 AS resolution_due
FROM read_games WHERE (next_resolution_at <= $1 OR next_reminder_at <= $1)
  AND game_id <> ALL($2::text[])
ORDER BY least(next_resolution_at, next_reminder_at) LIMIT $3
FOR UPDATE SKIP LOCKED"""
# What a claim leaves in the read model for the games it carried out: their next due times,
# turn and phase as the state just folded has them, so that neither this scheduler nor the
# fake clock waits for the read models to know them (the runner writes the same a moment
# later). A game whose command was refused gets none of them: the runner will tell.
_RESCHEDULE = """
UPDATE read_games SET
  phase = coalesce(done.phase, read_games.phase),
  turn = coalesce(done.turn, read_games.turn),
  next_resolution_at = CASE WHEN done.phase IS NOT NULL THEN done.resolution_at
                            WHEN done.resolution_due THEN NULL
                            ELSE read_games.next_resolution_at END,
  next_reminder_at = done.reminder_at
FROM unnest($1::text[], $2::boolean[], $3::text[], $4::int[], $5::timestamptz[],
            $6::timestamptz[]) AS done(game_id, resolution_due, phase, turn, resolution_at,
                                       reminder_at)
WHERE read_games.game_id = done.game_id"""
_NEXT_DUE = """
SELECT min(least(next_resolution_at, next_reminder_at)),
       bool_or(phase = 'running' AND next_resolution_at IS NULL)
FROM read_games"""
_log = logging.getLogger(__name__)


class Tick(msgspec.Struct):
    resolved: int = 0
    reminded: int = 0
    # Due games whose command failed (the database, or a game too busy): still due.
    failed: int = 0


class _Done(msgspec.Struct, frozen=True):
    """A due game done with, and the state its command left (None when refused)."""

    game_id: str
    resolution_due: bool
    state: GameState | None


def _columns(done: list[_Done]) -> tuple[list[object], ...]:
    """_RESCHEDULE's arguments."""
    states = [d.state for d in done]
    return (
        [d.game_id for d in done],
        [d.resolution_due for d in done],
        [None if s is None else s.phase for s in states],
        [None if s is None else s.turn for s in states],
        [None if s is None else s.next_resolution_at() for s in states],
        [None if s is None else s.next_reminder_at() for s in states],
    )


class Scheduler:
    def __init__(
        self,
        games: GameService,
        pool: asyncpg.Pool,
        clock: Clock,
        *,
        # Games claimed per transaction, and carried out at once. A claim keeps its games
        # locked, and the gap-safe log held back, until the whole batch is done: a large
        # one leaves other processes nothing to share and the read models idle meanwhile
        # (measured: 16 games a claim resolved a third fewer a second than 5).
        batch: int = 5,
        # Claims under way at once, each a transaction on a connection of the pool: so
        # that some 15 games' round trips overlap, while each claim commits soon and the
        # read models follow right behind.
        claims: int = 3,
        # The longest a game's command may take before it is given up (it stays due).
        deadline_seconds: float = 20.0,
        poll_seconds: float = 1.0,
    ) -> None:
        self._games = games
        self._pool = pool
        self._clock = clock
        self._batch = batch
        self._claims = claims
        self._deadline = deadline_seconds
        self._poll = poll_seconds
        self._wake = asyncio.Event()

    def wake(self) -> None:
        self._wake.set()

    async def run_forever(self) -> None:
        backoff = Backoff("scheduler", _log)
        while True:
            try:
                await self.run_due()
            except Exception as error:
                await backoff.failed(error)
                continue
            backoff.succeeded()
            self._wake.clear()
            try:
                async with asyncio.timeout(self._poll):
                    await self._wake.wait()
            except TimeoutError:
                pass

    async def run_due(self) -> Tick:
        """Resolve and remind everything due now; return what was done."""
        now = self._clock.now()
        tick = Tick()
        failed: list[str] = []
        # Several claims under way at once: one claim's games wait for its slowest before
        # the next claim, and small claims leave other processes their share.
        await asyncio.gather(
            *(self._claim_until_none(now, tick, failed) for _ in range(self._claims))
        )
        tick.failed = len(failed)
        return tick

    async def _claim_until_none(self, now: datetime, tick: Tick, failed: list[str]) -> None:
        while True:
            async with self._pool.acquire() as connection, connection.transaction():
                rows = await connection.fetch(_CLAIM, now, failed, self._batch)
                if not rows:
                    return
                # The claimed games at once, so that their round trips overlap and the
                # store combines their appends; the claim is one statement, and so is
                # rescheduling what was done.
                outcomes = await asyncio.gather(
                    *(self._carry_out(game_id, turn, due, now) for game_id, turn, due in rows)
                )
                done = [outcome for outcome in outcomes if outcome is not None]
                failed += [
                    row[0] for row, outcome in zip(rows, outcomes, strict=True) if outcome is None
                ]
                tick.resolved += sum(d.resolution_due for d in done)
                tick.reminded += sum(not d.resolution_due for d in done)
                if done:
                    await connection.execute(_RESCHEDULE, *_columns(done))

    async def _carry_out(
        self, game_id: str, turn: int, resolution_due: bool, now: datetime
    ) -> _Done | None:
        actor = Actor(ACTOR, operator=True)
        command: GameCommand
        if resolution_due:
            command = ResolveTurn(actor=actor, now=now, turn=turn)
        else:
            command = RemindPlayers(actor=actor, now=now, turn=turn)
        return await self._execute(game_id, command, resolution_due)

    async def _execute(
        self, game_id: str, command: GameCommand, resolution_due: bool
    ) -> _Done | None:
        """Done with: carried out, or refused because someone else already did it (the
        turn moved on, the game paused); None while it stays due."""
        name = type(command).__name__
        try:
            # A game that cannot be carried out in time must not keep the whole claim,
            # and the gap-safe log, waiting: it stays due and is tried again.
            async with asyncio.timeout(self._deadline):
                executed = await self._games.execute(game_id, command)
        except Busy as busy:
            # Not done, and nothing appended that would make the read model show it due
            # again: it must stay due.
            _log.warning("scheduler: %s for %s failed: %s", name, game_id, busy)
            return None
        except DomainError as refused:
            _log.info("scheduler: %s for %s refused: %s", name, game_id, refused)
            return _Done(game_id, resolution_due, None)
        except TimeoutError:
            _log.warning("scheduler: %s for %s took over %g s", name, game_id, self._deadline)
            return None
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            _log.warning("scheduler: %s for %s failed: %s", name, game_id, error)
            return None
        return _Done(game_id, resolution_due, executed.state)


async def advance_clock(
    clock: FakeClock,
    target: datetime,
    scheduler: Scheduler,
    pool: asyncpg.Pool,
    store: EventStore,
) -> Tick:
    """Move a fake clock to `target` as time would pass: stop at every moment something
    falls due on the way, carry it out, and go on. Returns what was done on the way."""
    total = Tick()
    # Due times show what was done before this call once the read models hold it; those of
    # the games carried out on the way, the scheduler writes as it goes.
    await read_models_caught_up(pool, store)
    while True:
        due = await _next_due(pool)
        last_step = due is None or due > target
        clock.set(max(due, clock.now()) if due is not None and not last_step else target)
        tick = await scheduler.run_due()
        total.resolved += tick.resolved
        total.reminded += tick.reminded
        done = tick.resolved + tick.reminded
        if not (last_step or done or tick.failed):
            # Nothing was left for this scheduler at this moment: another one (in another
            # server process, or this process's own loop) claimed it. Wait until it is
            # done, or released by a crash, and look again from here, rather than go on
            # to the target ahead of it and resolve the rest of the way late.
            await _claims_released(pool, clock.now())
            continue
        # Nothing done at a due moment, only failures, means what is due cannot be carried
        # out now (the scheduler logged why): go to the target rather than stop here for ever.
        if last_step or not done:
            clock.set(target)
            if not last_step:
                await scheduler.run_due()
            await read_models_caught_up(pool, store)
            return total


async def _next_due(pool: asyncpg.Pool) -> datetime | None:
    """When something falls due next, once the read models show every running game's next
    resolution. A game whose command a scheduler found already done shows none until the
    read models tell (the scheduler cleared it), and may be due again before the target."""
    async with asyncio.timeout(CATCH_UP_SECONDS):
        while True:
            row = await pool.fetchrow(_NEXT_DUE)
            assert row is not None
            due: datetime | None = row[0]
            if not row[1]:
                return due
            await asyncio.sleep(CLAIM_POLL_SECONDS)


async def _claims_released(pool: asyncpg.Pool, now: datetime) -> None:
    async with asyncio.timeout(CATCH_UP_SECONDS):
        # The locks live in the database; there is no event to wait on.
        while await pool.fetchval(_CLAIMED_ELSEWHERE, now):  # noqa: ASYNC110
            await asyncio.sleep(CLAIM_POLL_SECONDS)


async def read_models_caught_up(pool: asyncpg.Pool, store: EventStore) -> None:
    """Wait until the read models hold every event committed so far. Their runner may work
    in another process, so there is nothing to wait on but the checkpoint in the database."""
    runner = ReadModelRunner(store, pool)
    async with asyncio.timeout(CATCH_UP_SECONDS):
        # The condition lives in the database; there is no event to wait on.
        while not await runner.caught_up():  # noqa: ASYNC110
            await asyncio.sleep(0.005)
