"""One leader at a time across every server process: work done under an advisory lock.

The lock lives on one connection. Whatever ends the work (it returns, fails, is cancelled,
or that connection is lost), nothing waits on the connection: on any way out but a normal
return it is cut, which releases the lock (or abandons the lock query still waiting), rather
than asked to unlock, which on a dead or busy connection would hang or fail and hide the
reason the work ended.
"""

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

# A borrowed pool connection or one of its own: anything to `execute` on.
Connect = Callable[[], AbstractAsyncContextManager[Any]]

# With the schema's hash, so that deployments sharing a database in separate schemas (and
# tests) do not wait for one another.
_LOCK = "SELECT pg_advisory_lock(hashtext(current_schema()), $1)"
_UNLOCK = "SELECT pg_advisory_unlock(hashtext(current_schema()), $1)"


class LeadershipLost(ConnectionError):
    """The connection that held the lock was lost, and the lock with it: another process may
    lead by now. (A ConnectionError: the database went away, and is worth waiting for.)"""


async def lead(connect: Connect, key: int, work: Callable[[], Awaitable[None]]) -> None:
    """Wait for the schema's advisory lock `key`, then run `work` while holding it. Should
    the lock's connection be lost meanwhile, `work` is cancelled and LeadershipLost raised,
    so that two leaders never work at once."""
    async with connect() as connection:
        try:
            await connection.execute(_LOCK, key)
            await _while_held(connection, work)
        except BaseException:
            connection.terminate()
            raise
        await connection.execute(_UNLOCK, key)


async def _while_held(connection: Any, work: Callable[[], Awaitable[None]]) -> None:
    lost = asyncio.Event()

    def on_lost(_connection: object) -> None:
        lost.set()

    connection.add_termination_listener(on_lost)
    working = asyncio.ensure_future(work())
    watching = asyncio.ensure_future(lost.wait())
    try:
        await asyncio.wait((working, watching), return_when=asyncio.FIRST_COMPLETED)
    finally:
        connection.remove_termination_listener(on_lost)
        watching.cancel()
        if not working.done():
            working.cancel()
        # Until both have ended, so that no work outlives the lock; their errors are
        # collected here and the work's raised again below.
        await asyncio.gather(working, watching, return_exceptions=True)
    if working.cancelled():  # by us, when the lock was lost
        raise LeadershipLost("the connection holding the leader's lock was lost")
    working.result()
