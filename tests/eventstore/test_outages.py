"""Background loops' backoff: what it logs, and that a swallowed cancellation still stops
the loop."""

import asyncio
import contextlib
import logging

import asyncpg
import pytest

from eventstore.outages import Backoff

_log = logging.getLogger("tests.outages")


def _quick() -> Backoff:
    return Backoff("the loop", _log, first=0.001, longest=0.004)


async def test_an_outage_is_logged_when_it_begins_and_when_it_ends(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger=_log.name)
    backoff = _quick()
    for _ in range(5):
        await backoff.failed(ConnectionRefusedError("refused"))
    backoff.succeeded()
    backoff.succeeded()
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "WARNING",
            "the loop paused (ConnectionRefusedError: refused); retrying every 0.004 s at most",
        ),
        ("INFO", "the loop resumed"),
    ]
    assert all(record.exc_info is None for record in caplog.records)


async def test_a_bug_is_logged_with_its_traceback_every_time(
    caplog: pytest.LogCaptureFixture,
) -> None:
    backoff = _quick()
    for _ in range(3):
        await backoff.failed(KeyError("p9"))
    assert [r.levelname for r in caplog.records] == ["ERROR"] * 3
    assert all(record.exc_info is not None for record in caplog.records)


async def _cleanup_hides_the_cancellation() -> None:
    """What a ROLLBACK on a dead connection does to a cancelled query: its own error
    replaces the CancelledError."""
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        raise asyncpg.InterfaceError("connection is closed") from None


@pytest.mark.parametrize("outcome", ["failed", "succeeded"])
async def test_a_loop_whose_cancellation_was_swallowed_stops_at_its_next_attempt(
    outcome: str,
) -> None:
    async def loop() -> None:
        backoff = _quick()
        while True:
            try:
                if outcome == "failed":
                    await _cleanup_hides_the_cancellation()
                else:
                    # The attempt's own code takes it for a lost connection, and goes on.
                    with contextlib.suppress(asyncpg.InterfaceError):
                        await _cleanup_hides_the_cancellation()
            except Exception as error:
                await backoff.failed(error)
            else:
                backoff.succeeded()

    task = asyncio.create_task(loop())
    await asyncio.sleep(0.01)
    task.cancel()
    async with asyncio.timeout(2):
        with pytest.raises(asyncio.CancelledError):
            await task
