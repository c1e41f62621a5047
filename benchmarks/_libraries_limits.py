"""The rate limits' half of `python -m benchmarks libraries`: decisions a second of
server/accounts/ratelimit.py's token buckets beside the `limits` package's moving window in
memory, at the writes' rate (60 at once, 60 more every 6 s) over many keys. A decision is
what the server needs of one (server/accounts/throttle.py): allowed, or how long to wait."""

import time
from collections.abc import Callable
from dataclasses import dataclass

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from server.accounts.ratelimit import RateLimits, TokenBuckets
from server.clock import SystemClock

RATE = RateLimits().writes


@dataclass(frozen=True)
class Decisions:
    per_second: float
    cpu_us: float  # the process's CPU (the library's expiry thread included) per decision
    allowed: float  # the share allowed: both decide alike on the same traffic


def decide(way: str, keys: list[str], count: int) -> Decisions:
    """`count` decisions, over `keys` in turn, through "ours" or "limits"."""
    allowed = 0
    decide_one, close = _ours() if way == "ours" else _limits()
    try:
        cpu, started = time.process_time(), time.perf_counter()
        for i in range(count):
            allowed += decide_one(keys[i % len(keys)]) == 0
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu
    finally:
        close()
    return Decisions(count / elapsed, cpu / count * 1e6, allowed / count)


Decide = Callable[[str], float]


def _ours() -> tuple[Decide, Callable[[], None]]:
    buckets = TokenBuckets(RATE, SystemClock())
    return lambda key: buckets.take([key]), lambda: None


def _limits() -> tuple[Decide, Callable[[], None]]:
    storage = MemoryStorage()
    limiter = MovingWindowRateLimiter(storage)
    item = RateLimitItemPerSecond(RATE.count, int(RATE.seconds))

    def decide_one(key: str) -> float:
        if limiter.hit(item, key):
            return 0.0
        # The Retry-After of the 429: when the window lets one more in.
        return max(limiter.get_window_stats(item, key).reset_time - time.time(), 0.0)

    # Its expiry runs on a timer thread, every 10 ms while anything is stored.
    return decide_one, storage.timer.cancel
