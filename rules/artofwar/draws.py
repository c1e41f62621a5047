"""The turn's draws (§4.9): each a u in [0, 1), taken in the canonical order from the turn's
stream or from a given list, and every one recorded for the turn's report."""

from fractions import Fraction

from rules.kit.prng import SeededRandom, derived

SKIRMISH = 0.4
ATTACK = 0.6
DEFENCE = 0.8
# Blocks of draws computed ahead: the first, and the largest (SeededRandom.units).
_FIRST_BLOCK = 32
_BLOCK = 128


class Draws:
    """Where a turn's draws come from. A given list that runs out goes on with 0.0, so that
    the turn still finishes and says how many draws it needed (`missing`).

    A stream's draws are computed ahead in blocks (`SeededRandom.units`), each as big as
    all before it, up to `_BLOCK`: one at a time they were most of a large turn's cost. The
    stream is this object's own, so drawing ahead changes nothing that anyone reads."""

    __slots__ = ("_ahead", "_given", "_stream", "_used")

    def __init__(self, stream: SeededRandom | None = None, given: list[float] | None = None):
        self._stream = stream
        self._given = given or []
        # Every draw computed so far, the first `_used` of them taken.
        self._ahead: list[float] = [] if stream is not None else list(self._given)
        self._used = 0

    @property
    def taken(self) -> list[float]:
        """The draws taken, in order."""
        return self._ahead[: self._used]

    def take(self, n: int) -> list[float]:
        """The next n draws."""
        start, end = self._used, self._used + n
        if end > len(self._ahead):
            self._extend(end)
        self._used = end
        return self._ahead[start:end]

    def next(self) -> float:
        return self.take(1)[0]

    def hits(self, units: int, chance: float) -> tuple[list[float], int]:
        """One draw per unit: a hit when the draw is strictly below the chance."""
        drawn = self.take(units)
        return drawn, sum(map(chance.__gt__, drawn))

    def choice(self, k: int) -> tuple[float, int]:
        """An index among k tied groups: ⌊u·k⌋, in exact arithmetic."""
        u = self.next()
        return u, int(Fraction(u) * k)

    @property
    def missing(self) -> int:
        """How many draws a given list lacked (0 with a stream)."""
        return 0 if self._stream is not None else max(0, self._used - len(self._given))

    def _extend(self, size: int) -> None:
        short = size - len(self._ahead)
        if self._stream is None:
            self._ahead += [0.0] * short
        else:
            block = min(max(len(self._ahead), _FIRST_BLOCK), _BLOCK)
            self._ahead += self._stream.units(max(short, block))


def turn_seed(secret: bytes, turn: int, generation: int = 0) -> int:
    """The 64-bit seed of a turn's draws (P33): one way from the game's secret, and new for
    every rewind generation so that a replayed turn never reuses draws already seen."""
    return derived(secret, "art-of-war", "turn", turn, generation).seed


def setup_stream(secret: bytes) -> SeededRandom:
    return derived(secret, "art-of-war", "setup")


def map_seed(secret: bytes) -> int:
    """The seed of a generated map (`mapgen.generate`) when the creator gave none."""
    return derived(secret, "art-of-war", "map").seed
