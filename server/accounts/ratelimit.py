"""Token buckets: how much a key may do at once, and how fast after that. Pure but for the
injected clock. Which keys a request is counted against is the server's policy, in
server/accounts/throttle.py. The `limits` package's moving window, measured beside these
(`python -m benchmarks libraries`), took nearly three times the CPU a decision, and charges
no group of keys all or none (docs/architecture.md, "Hand-written beside a library")."""

import re
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime

import msgspec

from server.clock import Clock

# A flood of distinct keys (addresses, accounts) evicts the least recently used buckets
# beyond this many, so that the table's memory stays bounded (a few MB at most).
MAX_KEYS = 20_000
MAX_COUNT = 1_000_000
MAX_SECONDS = 7 * 24 * 3600.0
_RATE = re.compile(r"(\d{1,7})/(\d{1,6}(?:\.\d{1,3})?)")


class Rate(msgspec.Struct, frozen=True):
    """Up to `count` at once, and `count` more every `seconds`."""

    count: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.count / self.seconds

    @classmethod
    def parse(cls, text: str) -> "Rate":
        """A rate written `N/S`: "60/6" is up to 60 at once and 60 more every 6 seconds (10
        a second, sustained)."""
        match = _RATE.fullmatch(text.strip())
        if match is None:
            raise ValueError(f"write a rate as N/S (N at once, N more every S seconds): {text!r}")
        count, seconds = int(match[1]), float(match[2])
        if not 1 <= count <= MAX_COUNT:
            raise ValueError(f"the count must be 1 to {MAX_COUNT}: {text!r}")
        if not 0 < seconds <= MAX_SECONDS:
            raise ValueError(f"the seconds must be more than 0 and at most a week: {text!r}")
        return cls(count, seconds)


class RateLimits(msgspec.Struct, frozen=True, kw_only=True):
    """The server's limits (docs/operations.md): accounts created, games created, and writes
    (POST, PUT, PATCH, DELETE). Generous: a person playing, or a bot serving many people
    through a trusted client's token, never meets them."""

    accounts: Rate = Rate(20, 3600.0)
    games: Rate = Rate(30, 3600.0)
    writes: Rate = Rate(60, 6.0)


class TokenBuckets:
    """One bucket per key, all at one rate; a key never seen has a full bucket. Buckets that
    have filled up again are forgotten (they are as good as new), and beyond `max_keys` the
    least recently used are, so that the table's size is bounded whatever the keys."""

    def __init__(self, rate: Rate, clock: Clock, *, max_keys: int = MAX_KEYS) -> None:
        self.rate = rate
        self._clock = clock
        self._max_keys = max_keys
        # key -> (tokens, when they were counted); least recently used first.
        self._buckets: OrderedDict[str, tuple[float, datetime]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, keys: Sequence[str]) -> float:
        """One token from the bucket of each key, if every one of them has one: the answer
        is 0. Otherwise nothing is taken, and the answer is how many seconds it will be
        until every one of them has a token again."""
        now = self._clock.now()
        tokens = [self._tokens(key, now) for key in keys]
        missing = max((1 - left for left in tokens if left < 1), default=0.0)
        if missing > 0:
            return missing / self.rate.per_second
        for key, left in zip(keys, tokens, strict=True):
            self._buckets[key] = (left - 1, now)
            self._buckets.move_to_end(key)
        self._forget(now)
        return 0.0

    def _tokens(self, key: str, now: datetime) -> float:
        counted = self._buckets.get(key)
        if counted is None:
            return float(self.rate.count)
        left, at = counted
        # A clock that went back refills nothing, and takes nothing back either.
        elapsed = max((now - at).total_seconds(), 0.0)
        return min(left + elapsed * self.rate.per_second, float(self.rate.count))

    def _forget(self, now: datetime) -> None:
        while self._buckets:
            oldest = next(iter(self._buckets))
            if self._tokens(oldest, now) < self.rate.count and len(self) <= self._max_keys:
                return
            del self._buckets[oldest]
