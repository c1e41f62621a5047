"""A small seeded generator, so that everything drawn from a seed replays bit for bit.

Python's `random` is avoided on purpose: the rules engine must not import it, and its
higher-level helpers (shuffle, choice) are free to change between Python versions.
"""

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class SeededRandom:
    """SplitMix64: tiny, fast, and well distributed for game-sized draws."""

    __slots__ = ("_state", "seed")

    def __init__(self, seed: int) -> None:
        # Kept so that a stream's seed can be published and the stream replayed from it.
        self.seed = seed & _MASK
        self._state = self.seed

    def next_u64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high]."""
        return low + self.below(high - low + 1)

    def unit(self) -> float:
        """A uniform float in [0, 1)."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * self.unit()

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self.shuffled(items)[:k]

    def fork(self) -> "SeededRandom":
        """An independent stream, so that adding draws in one place leaves the others alone."""
        return SeededRandom(self.next_u64())


def derived(key: bytes, *labels: str | int) -> SeededRandom:
    """A stream of its own for one purpose (`"votes", 7`), derived one way from `key`:
    SplitMix64 seeded with the first 8 bytes (big-endian) of SHA-256(key, "|", the labels
    joined by "|"). Draws published from one stream never reveal the key, nor any other
    stream."""
    text = "|".join(str(label) for label in labels)
    digest = hashlib.sha256(key + b"|" + text.encode()).digest()
    return SeededRandom(int.from_bytes(digest[:8], "big"))


def commitment(secret: bytes) -> str:
    """What a game publishes of its secret before revealing it: its SHA-256, in hex."""
    return hashlib.sha256(secret).hexdigest()
