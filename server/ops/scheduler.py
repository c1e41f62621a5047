"""Resolves every game on time, exactly once, whatever happens to the servers.

Each server process runs one scheduler. Due games are claimed from the read model with a
lease (`claimed_until`, on the database's clock), in one short statement, so that several
processes share the work instead of repeating it, and no transaction stays open while the
games are carried out; exactly-once does not rest on that claim, though: a resolution names
its turn, and the decider refuses a turn that is already resolved, under the store's
optimistic append. A crash mid-resolution appends all of it or nothing; the game stays due
and is picked up again once the lease has run out. A turn overdue after downtime resolves
once, at once, and the next one is reckoned from that resolution. With several workers, a
claimed game's command runs in the game's home (server/game/homes.py), in turn with its players'
commands and from the state the home keeps.
"""

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta

import asyncpg
import msgspec

from eventstore.outages import Backoff
from projections.queries import ReadModelsBehind
from projections.reads import ReadModels
from projections.schedule import Due
from schema import errors as codes
from schema.commands import Actor, GameCommand, RemindPlayers, ResolveTurn
from schema.errors import Refusal
from server.clock import Clock
from server.game.handlers import GameService

ACTOR = "scheduler"
# A claim's lease outlasts the deadline of its games by this much.
LEASE_MARGIN_SECONDS = 5.0
# Claims due games, the most overdue first, with a lease: skipped are those another
# scheduler has in hand and those being written at the moment (by another claim, or the
# read models' runner). One statement, its own transaction.
_CLAIM = """
UPDATE read_games SET claimed_until = now() + $4::interval
WHERE game_id = ANY(ARRAY(
    SELECT game_id FROM read_games
    WHERE least(next_resolution_at, next_reminder_at) <= $1
      AND (claimed_until IS NULL OR claimed_until <= now())
      AND game_id <> ALL($2::text[])
    ORDER BY least(next_resolution_at, next_reminder_at) LIMIT $3
    FOR UPDATE SKIP LOCKED))
RETURNING game_id, turn, next_resolution_at <= $1 AS resolution_due, claimed_until"""
# What a claim leaves in the read model for the games it is done with, while its lease
# stands: their next due times, turn and phase as the game now stands, so that neither this
# scheduler nor the fake clock waits for the read models to know them (the runner writes
# the same a moment later).
_RESCHEDULE = """
WITH done AS (
    SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::int[],
                         $5::timestamptz[], $6::timestamptz[])
        AS d(game_id, claimed_until, phase, turn, resolution_at, reminder_at)
),
-- In the games' order, as the read models' runner writes them: never a deadlock with it.
mine AS MATERIALIZED (
    SELECT game_id FROM read_games JOIN done USING (game_id, claimed_until)
    ORDER BY game_id FOR UPDATE OF read_games
)
UPDATE read_games SET claimed_until = NULL, phase = done.phase, turn = done.turn,
    next_resolution_at = done.resolution_at, next_reminder_at = done.reminder_at
FROM done JOIN mine USING (game_id)
WHERE read_games.game_id = done.game_id"""
# Lets go of games that stay due, for any scheduler to try again.
_RELEASE = """
WITH failed AS (
    SELECT * FROM unnest($1::text[], $2::timestamptz[]) AS f(game_id, claimed_until)
),
mine AS MATERIALIZED (
    SELECT game_id FROM read_games JOIN failed USING (game_id, claimed_until)
    ORDER BY game_id FOR UPDATE OF read_games
)
UPDATE read_games SET claimed_until = NULL FROM mine WHERE read_games.game_id = mine.game_id"""
# What the database may answer a game's command or load with: the game stays due.
_DATABASE_FAILURES = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError)
# Refusals that say the command was not carried out, here or in the game's home: the game
# stays due.
_NOT_CARRIED_OUT = frozenset({codes.BUSY.code, codes.DATABASE_UNAVAILABLE.code})
_log = logging.getLogger(__name__)
# How far behind the log (in events, about 25 resolutions of 20 players) the read models
# may be before the scheduler waits for them to claim more.
PACE_EVENTS = 500


class Tick(msgspec.Struct):
    resolved: int = 0
    reminded: int = 0
    # Due games whose command failed (the database, or a game too busy): still due.
    failed: int = 0


class _Claim(msgspec.Struct, frozen=True):
    """A due game in this scheduler's hand until `claimed_until`."""

    game_id: str
    turn: int
    resolution_due: bool
    claimed_until: datetime


class _Done(msgspec.Struct, frozen=True):
    """A claimed game done with, and when it falls due next."""

    claim: _Claim
    due: Due


def _rescheduled(done: list[_Done]) -> tuple[list[object], ...]:
    """_RESCHEDULE's arguments."""
    claims = [d.claim for d in done]
    dues = [d.due for d in done]
    return (
        [c.game_id for c in claims],
        [c.claimed_until for c in claims],
        [d.phase for d in dues],
        [d.turn for d in dues],
        [d.resolution_at for d in dues],
        [d.reminder_at for d in dues],
    )


class Scheduler:
    def __init__(
        self,
        games: GameService,
        pool: asyncpg.Pool,
        clock: Clock,
        *,
        # Games claimed at a time, and carried out at once: a large claim waits for its
        # slowest game, and leaves other processes less to share.
        batch: int = 5,
        # Claims under way at once, so that some 15 games' round trips overlap.
        claims: int = 3,
        # The longest a game's command may take before it is given up (it stays due).
        deadline_seconds: float = 10.0,
        # How long a claim keeps other schedulers off its games: longer than they may take,
        # so that none is taken up twice meanwhile, but a scheduler that stops holds them
        # up for as long.
        lease_seconds: float | None = None,
        poll_seconds: float = 1.0,
        # When given, a claim waits (bounded) while they are more than PACE_EVENTS behind.
        read_models: ReadModels | None = None,
    ) -> None:
        self._games = games
        self._pool = pool
        self._clock = clock
        self._batch = batch
        self._claims = claims
        self._deadline = deadline_seconds
        if lease_seconds is None:
            lease_seconds = deadline_seconds + LEASE_MARGIN_SECONDS
        self._lease = timedelta(seconds=lease_seconds)
        self._poll = poll_seconds
        self._read_models = read_models
        self._wake = asyncio.Event()

    def wake(self) -> None:
        self._wake.set()

    @property
    def lease_seconds(self) -> float:
        return self._lease.total_seconds()

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
        # Games, not attempts: a claim sent before a game failed may take it up again once
        # it is released.
        tick.failed = len(set(failed))
        return tick

    async def _paced(self) -> None:
        """Claim no more while the read models are far behind: wait for them (their wait at
        most, then claim anyway: stuck read models must not stop the games). A burst of
        resolutions from several processes otherwise outran the one process that writes
        them, and every read of them (docs/api.md, "Consistency") waited seconds."""
        if self._read_models is not None:
            with contextlib.suppress(ReadModelsBehind):
                await self._read_models.within(PACE_EVENTS)

    async def _claim_until_none(self, now: datetime, tick: Tick, failed: list[str]) -> None:
        while True:
            await self._paced()
            # Neither a connection nor a transaction is held while the games are carried
            # out: the lease keeps other schedulers off them.
            rows = await self._pool.fetch(_CLAIM, now, failed, self._batch, self._lease)
            if not rows:
                return
            claims = [_Claim(*row) for row in rows]
            # The claimed games at once, so that their round trips overlap and the store
            # combines their appends.
            outcomes = await asyncio.gather(*(self._carry_out(claim, now) for claim in claims))
            done = [outcome for outcome in outcomes if outcome is not None]
            stay_due = [
                claim for claim, outcome in zip(claims, outcomes, strict=True) if outcome is None
            ]
            tick.resolved += sum(d.claim.resolution_due for d in done)
            tick.reminded += sum(not d.claim.resolution_due for d in done)
            if done:
                await self._pool.execute(_RESCHEDULE, *_rescheduled(done))
            if stay_due:
                failed += [claim.game_id for claim in stay_due]
                await self._pool.execute(
                    _RELEASE,
                    [claim.game_id for claim in stay_due],
                    [claim.claimed_until for claim in stay_due],
                )

    async def _carry_out(self, claim: _Claim, now: datetime) -> _Done | None:
        actor = Actor(ACTOR, operator=True)
        command: GameCommand
        if claim.resolution_due:
            command = ResolveTurn(actor=actor, now=now, turn=claim.turn)
        else:
            command = RemindPlayers(actor=actor, now=now, turn=claim.turn)
        return await self._execute(claim, command)

    async def _execute(self, claim: _Claim, command: GameCommand) -> _Done | None:
        """Done with: carried out, or refused because someone else already did it (the turn
        moved on, the game paused); None while it stays due."""
        name, game_id = type(command).__name__, claim.game_id
        try:
            # A game that cannot be carried out in time must not keep the whole claim
            # waiting: it stays due and is tried again.
            async with asyncio.timeout(self._deadline):
                acted = await self._games.act(game_id, command)
        except Refusal as refused:
            if refused.code in _NOT_CARRIED_OUT:
                # Nothing appended that would make the read model show it due again: it
                # must stay due.
                _log.warning("scheduler: %s for %s failed: %s", name, game_id, refused)
                return None
            _log.info("scheduler: %s for %s refused: %s", name, game_id, refused)
            return await self._as_it_stands(claim)
        except TimeoutError:
            _log.warning("scheduler: %s for %s took over %g s", name, game_id, self._deadline)
            return None
        except _DATABASE_FAILURES as error:
            _log.warning("scheduler: %s for %s failed: %s", name, game_id, error)
            return None
        return _Done(claim, acted.state)

    async def _as_it_stands(self, claim: _Claim) -> _Done | None:
        """A game whose due command someone else carried out: it falls due next as it now
        stands (the claim may have read it from the read models before they caught up)."""
        try:
            async with asyncio.timeout(self._deadline):
                loaded = await self._games.load(claim.game_id)
        except (TimeoutError, *_DATABASE_FAILURES) as error:
            _log.warning("scheduler: %s could not be loaded: %s", claim.game_id, error)
            return None
        return _Done(claim, loaded.state.due())
