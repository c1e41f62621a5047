"""Heavy reads (docs/api.md, "Limits"): the calls that cost a server process tenths of a
second of CPU or more, a map picture drawn, a game verified, a what-if adjudicated. Each
kind has a few slots of its own; each caller (its account, else its address) may have
`per_caller` calls of a kind under way, running or waiting, and is refused the next with
429 `too_many_heavy_reads`, so that one caller's burst never takes every slot. Calls
waiting for a slot are served a caller at a time, in turn, so that a caller waits behind
at most one call of each other caller, never behind someone's whole burst. The work
itself runs in worker processes (one per slot and priority), off the event loop and out of its
interpreter lock, at a lower priority, so that light requests keep flowing meanwhile; a
caller that asks for more than its share runs at a lower priority still for a while, so
that its calls take the CPU that others leave, not theirs.
"""

import asyncio
import contextlib
import multiprocessing
import os
import time
from collections import Counter, OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Literal, TypeVar

from starlette.requests import HTTPConnection

from schema import errors as codes
from schema.errors import Refusal
from server.accounts.throttle import client_address
from server.plugins import register_games

Kind = Literal["map", "verify", "adjudicate"]
KINDS: tuple[Kind, ...] = ("map", "verify", "adjudicate")
# Calls of one kind waiting for a slot, from every caller together: beyond, 503 `busy`
# (only many callers at once get there, each within its share).
MAX_WAITING = 100
RETRY_AFTER = 1
# The workers' priority below the server's own (whose event loop answers the light
# requests), and lower still for a caller refused for its share less than OVER_SECONDS ago
# (a burst). Linux gives a process at 5 about nine times the CPU of one at 15 when they
# contend.
NICENESS = 5
OVER_NICENESS = 15
OVER_SECONDS = 5.0
# Callers whose last refusal is kept, at most (a flood of addresses cannot grow it).
MAX_CALLERS = 10_000
# Imported once by the forkserver that the workers are forked from: each starts with them.
_PRELOAD = ["server.ops.verify", "server.http.routes.map_image", "server.http.routes.adjudicate"]
T = TypeVar("T")


class _Slots:
    """One kind's slots, and the calls under way per caller."""

    def __init__(self, kind: Kind, at_once: int, per_caller: int) -> None:
        self.kind = kind
        self.at_once = at_once
        self.per_caller = per_caller
        self.running = 0
        self.under_way: Counter[str] = Counter()
        # The callers with calls waiting, in the order they are served.
        self.waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    def over_share(self, caller: str) -> bool:
        return self.under_way[caller] >= self.per_caller

    def count_in(self, caller: str) -> None:
        waiting = sum(len(calls) for calls in self.waiting.values())
        if self.running >= self.at_once and waiting >= MAX_WAITING:
            raise Refusal(codes.BUSY, f"too many {self.kind} calls are waiting; try again")
        self.under_way[caller] += 1

    def count_out(self, caller: str) -> None:
        self.under_way[caller] -= 1
        if not self.under_way[caller]:
            del self.under_way[caller]

    async def take(self, caller: str) -> None:
        if self.running < self.at_once and not self.waiting:
            self.running += 1
            return
        turn = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(caller, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.give_back()  # handed a slot as it was cancelled: pass it on
            else:
                self._forget(caller, turn)
            raise

    def give_back(self) -> None:
        """A slot freed: to the next caller in turn, else free."""
        while self.waiting:
            caller, calls = self.waiting.popitem(last=False)
            turn = calls.popleft()
            if calls:
                self.waiting[caller] = calls  # its next call, after every other caller's
            if not turn.done():
                turn.set_result(None)  # the slot passes on: `running` stays
                return
        self.running -= 1

    def _forget(self, caller: str, turn: asyncio.Future[None]) -> None:
        calls = self.waiting.get(caller)
        if calls is not None and turn in calls:
            calls.remove(turn)
            if not calls:
                del self.waiting[caller]


class HeavyReads:
    """The heavy reads of one server process."""

    def __init__(
        self,
        *,
        at_once: int,
        per_caller: int,
        clock: Callable[[], float] = time.monotonic,
        games: tuple[str, ...] = (),
    ) -> None:
        # The games from outside the project (server/plugins.py) each worker registers.
        self._games = games
        self._slots = {kind: _Slots(kind, at_once, per_caller) for kind in KINDS}
        self._workers = at_once * len(KINDS)
        self._pools: dict[int, ProcessPoolExecutor] = {}
        self._clock = clock
        # When each caller was last refused for its share, the latest last; only those of the
        # last OVER_SECONDS.
        self._refused: OrderedDict[str, float] = OrderedDict()

    @contextlib.asynccontextmanager
    async def admitted(self, kind: Kind, caller: str) -> AsyncIterator["Worker"]:
        """Hold one of the kind's slots for the caller while the block runs, and the worker
        to run its work in; 429 if the caller has its share under way, 503 `busy` if too
        many callers wait."""
        slots = self._slots[kind]
        if slots.over_share(caller):
            self._refused_now(caller)
            raise Refusal(
                codes.TOO_MANY_HEAVY_READS,
                f"at most {slots.per_caller} {kind} call(s) of one caller under way at once; "
                "wait for yours, then try again",
                retry_after=RETRY_AFTER,
            )
        slots.count_in(caller)
        try:
            await slots.take(caller)
            try:
                yield Worker(self, self._niceness(caller))
            finally:
                slots.give_back()
        finally:
            slots.count_out(caller)

    def _niceness(self, caller: str) -> int:
        """A caller that asked for more than its share moments ago runs below everyone
        else, so that its calls take the CPU that others leave, not theirs."""
        refused = self._refused.get(caller)
        if refused is not None and self._clock() - refused < OVER_SECONDS:
            return OVER_NICENESS
        return NICENESS

    def _refused_now(self, caller: str) -> None:
        now = self._clock()
        self._refused[caller] = now
        self._refused.move_to_end(caller)
        while self._refused:
            oldest, refused = next(iter(self._refused.items()))
            if now - refused < OVER_SECONDS and len(self._refused) <= MAX_CALLERS:
                return
            del self._refused[oldest]

    async def _run(self, niceness: int, work: Callable[..., T], *args: object) -> T:
        pool = self._pools.get(niceness)
        if pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(_PRELOAD)
            pool = ProcessPoolExecutor(
                self._workers,
                mp_context=context,
                initializer=_started,
                initargs=(niceness, self._games),
            )
            self._pools[niceness] = pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, work, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next call gets a new pool.
            if self._pools.get(niceness) is pool:
                del self._pools[niceness]
            pool.shutdown(wait=False, cancel_futures=True)
            raise Refusal(codes.BUSY, "the worker of this call stopped; try again") from None

    def close(self) -> None:
        """Stop the workers once the calls they run are done, without waiting here (the
        interpreter waits for them as it exits)."""
        pools, self._pools = self._pools, {}
        for pool in pools.values():
            pool.shutdown(wait=False, cancel_futures=True)


def _started(niceness: int, games: tuple[str, ...]) -> None:
    os.nice(niceness)
    register_games(games)


class Worker:
    """Where an admitted call runs its work: a worker process, at the caller's priority."""

    def __init__(self, reads: HeavyReads, niceness: int) -> None:
        self._reads = reads
        self.niceness = niceness

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """`work(*args)` in a worker process: a module-level function, whose arguments
        and answer are pickled. Within `admitted` only, so that the slots bound the pools'
        queues."""
        return await self._reads._run(self.niceness, work, *args)


def caller(connection: HTTPConnection) -> str:
    """Whose share a call counts against: its account (a trusted client's user's own), else
    its address (server/accounts/throttle.py's)."""
    identity = getattr(connection.state, "identity", None)
    if identity is not None:
        return f"account {identity.account_id}"
    return f"address {client_address(connection)}"
