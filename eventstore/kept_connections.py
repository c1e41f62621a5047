"""Pooled connections that appends keep between writes while writes keep coming.

Borrowing a connection from asyncpg's pool and giving it back costs about a fifth of the
CPU that an append takes in this process; under a steady stream of appends that is what
bounds the rate on a small machine. So a write keeps its connection for the next one, and
connections that no write used for `idle` seconds go back to the pool. At most `limit` are
kept, so that whatever else borrows from the pool is never left waiting for a second.
"""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg

T = TypeVar("T")


class KeptConnections:
    def __init__(self, pool: asyncpg.Pool, *, limit: int, idle: float = 1.0) -> None:
        self._pool = pool
        self._limit = limit
        self._idle = idle
        self._kept: list[Any] = []
        self._last_used = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._returning: set[asyncio.Task[None]] = set()

    @property
    def kept(self) -> int:
        return len(self._kept)

    async def run(self, operation: Callable[[Any], Awaitable[T]]) -> T:
        """`operation` on a kept connection (or one borrowed now), which must leave no
        transaction open."""
        connection = await self._take()
        try:
            result = await operation(connection)
        except BaseException:
            # Perhaps lost, or cut off mid-statement: the pool knows what to do with it.
            await self._pool.release(connection)
            raise
        if len(self._kept) >= self._limit:
            await self._pool.release(connection)
            return result
        self._kept.append(connection)
        loop = asyncio.get_running_loop()
        self._last_used = loop.time()
        if self._timer is None:
            self._timer = loop.call_later(self._idle, self._return_idle)
        return result

    async def _take(self) -> Any:
        while self._kept:
            connection = self._kept.pop()
            try:
                if not connection.is_closed():
                    return connection
            except asyncpg.InterfaceError:
                continue  # lost while kept, and already given back to the pool by asyncpg
            await self._pool.release(connection)
        return await self._pool.acquire()

    def _return_idle(self) -> None:
        loop = asyncio.get_running_loop()
        quiet_for = loop.time() - self._last_used
        if quiet_for < self._idle:
            self._timer = loop.call_later(self._idle - quiet_for, self._return_idle)
            return
        self._timer = None
        connections, self._kept = self._kept, []
        for connection in connections:
            task = loop.create_task(self._pool.release(connection))
            self._returning.add(task)
            task.add_done_callback(self._returning.discard)

    async def close(self) -> None:
        """Every kept connection back to the pool."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        connections, self._kept = self._kept, []
        for connection in connections:
            await self._pool.release(connection)
        while self._returning:
            await asyncio.gather(*self._returning, return_exceptions=True)
