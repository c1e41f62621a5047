"""server/http/heavy.py on its own: each caller's share of a kind, the callers that wait served in
turn, a call given up leaving no trace, and the work done in another process."""

import asyncio
import contextlib
import os

import pytest

from schema.errors import Refusal
from server.http.heavy import NICENESS, OVER_NICENESS, OVER_SECONDS, HeavyReads


async def _hold(heavy: HeavyReads, caller: str, served: list[str], release: asyncio.Event) -> None:
    async with heavy.admitted("map", caller):
        served.append(caller)
        await release.wait()


async def _settled() -> None:
    """Until every task started has run as far as it can."""
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_caller_past_its_share_is_refused_and_others_are_not() -> None:
    heavy = HeavyReads(at_once=2, per_caller=1)
    async with heavy.admitted("map", "ann"):
        with pytest.raises(Refusal) as refused:
            async with heavy.admitted("map", "ann"):
                pass
        assert refused.value.code == "too_many_heavy_reads"
        assert refused.value.retry_after == 1
        # Another kind is another share, and another caller has its own.
        async with heavy.admitted("verify", "ann"), heavy.admitted("map", "bob"):
            pass
    # Its call done, the caller has its share again.
    async with heavy.admitted("map", "ann"):
        pass


async def test_callers_waiting_for_a_slot_are_served_in_turn() -> None:
    heavy = HeavyReads(at_once=1, per_caller=3)
    served: list[str] = []
    releases = [asyncio.Event() for _ in range(4)]
    # Ann holds the slot and asks twice more; Bob asks once after her.
    callers = ["ann", "ann", "ann", "bob"]
    tasks = []
    for who, release in zip(callers, releases, strict=True):
        tasks.append(asyncio.create_task(_hold(heavy, who, served, release)))
        await _settled()
    for release in releases:
        await _settled()
        release.set()
    await asyncio.gather(*tasks)
    # Bob waits behind one call of Ann's, not behind all of them.
    assert served == ["ann", "ann", "bob", "ann"]


async def test_a_call_given_up_while_waiting_gives_its_place_and_its_share_back() -> None:
    heavy = HeavyReads(at_once=1, per_caller=1)
    served: list[str] = []
    release = asyncio.Event()
    holding = asyncio.create_task(_hold(heavy, "ann", served, release))
    await _settled()
    waiting = asyncio.create_task(_hold(heavy, "bob", served, asyncio.Event()))
    await _settled()
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiting
    release.set()
    await holding
    # Bob may ask again, and is served at once: nothing of his call is left.
    async with heavy.admitted("map", "bob"):
        served.append("bob")
    assert served == ["ann", "bob"]


async def test_the_work_runs_in_another_process_below_the_servers_priority() -> None:
    heavy = HeavyReads(at_once=1, per_caller=1)
    try:
        async with heavy.admitted("verify", "ann") as worker:
            assert await worker.run(os.getpid) != os.getpid()
            niceness = await worker.run(os.getpriority, os.PRIO_PROCESS, 0)
        assert niceness == os.getpriority(os.PRIO_PROCESS, 0) + NICENESS
    finally:
        heavy.close()


async def test_a_caller_refused_for_its_share_runs_below_the_others_for_a_while() -> None:
    now = [100.0]
    heavy = HeavyReads(at_once=2, per_caller=1, clock=lambda: now[0])
    async with heavy.admitted("map", "ann") as first:
        # Ann asks for more than her share: refused, and her next calls run lower.
        with pytest.raises(Refusal):
            async with heavy.admitted("map", "ann"):
                pass
    now[0] += OVER_SECONDS - 0.1
    async with heavy.admitted("verify", "ann") as again, heavy.admitted("map", "bob") as other:
        pass
    assert (first.niceness, again.niceness, other.niceness) == (
        NICENESS,
        OVER_NICENESS,
        NICENESS,
    )
    # A while after, she is served as anyone.
    now[0] += 0.1
    async with heavy.admitted("map", "ann") as rested:
        assert rested.niceness == NICENESS
