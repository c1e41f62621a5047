"""Riding out a lost database: what it looks like, and how background loops wait for it.

A background loop (the read models, the scheduler, the webhooks) must outlive an outage:
after a failure it pauses, doubling the pause up to a cap, and tries again. It must also
stop at once when it is cancelled. An error met while unwinding a cancellation (a ROLLBACK
on a dead connection, say) replaces the CancelledError, and code that catches it as a
failure swallows the cancellation; a loop that went on would run for ever and hang the
shutdown. So after every attempt, failed or not, the loop asks the task whether it is being
cancelled, and stops if so.
"""

import asyncio
import logging

import asyncpg

from eventstore.errors import StoreUnavailableError
from eventstore.notifications import CONNECTION_ERRORS

# The database is away, or its connection was lost or closed under us: the store's error
# once its retries are spent, a refused or timed-out connection, one lost mid-query, or
# asyncpg's "connection is closed" / "pool is closing".
UNREACHABLE: tuple[type[Exception], ...] = (
    StoreUnavailableError,
    *CONNECTION_ERRORS,
    asyncpg.InterfaceError,
)
# What a loop reports as a plain line, without a traceback: the database refused or lost
# something. Anything else is a bug, and its traceback is logged.
_DATABASE_ERRORS: tuple[type[Exception], ...] = (*UNREACHABLE, asyncpg.PostgresError)


class Backoff:
    """A background loop's pauses between attempts while it fails: `first` seconds, doubling
    up to `longest`, and back to `first` after a success. An outage is logged once when it
    begins and once when it ends, not at every attempt in between; a bug every time. Both
    `succeeded` and `failed` raise CancelledError instead if the task is being cancelled."""

    def __init__(
        self, what: str, logger: logging.Logger, *, first: float = 0.1, longest: float = 5.0
    ) -> None:
        self._what = what
        self._logger = logger
        self._first = first
        self._longest = longest
        self._delay = first
        self._failing = False

    def succeeded(self) -> None:
        _stop_if_cancelled()
        if self._failing:
            self._logger.info("%s resumed", self._what)
        self._failing = False
        self._delay = self._first

    async def failed(self, error: Exception) -> None:
        """Log the failure and pause before the next attempt."""
        _stop_if_cancelled(error)
        if not isinstance(error, _DATABASE_ERRORS):
            self._logger.error("%s failed; retrying", self._what, exc_info=error)
        elif not self._failing:
            self._logger.warning(
                "%s paused (%s: %s); retrying every %g s at most",
                self._what,
                type(error).__name__,
                error,
                self._longest,
            )
        self._failing = True
        await asyncio.sleep(self._delay)  # a pause between attempts, not synchronisation
        self._delay = min(self._delay * 2, self._longest)


def _stop_if_cancelled(error: Exception | None = None) -> None:
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError from error
