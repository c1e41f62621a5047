"""The turn's draws (§4.9): each a u in [0, 1), taken in the canonical order from the turn's
stream or from a given list, and every one recorded for the turn's report."""

from fractions import Fraction

from rules.kit.prng import SeededRandom, derived

SKIRMISH = 0.4
ATTACK = 0.6
DEFENCE = 0.8


class Draws:
    """Where a turn's draws come from. A given list that runs out goes on with 0.0, so that
    the turn still finishes and says how many draws it needed (`missing`)."""

    __slots__ = ("_given", "_stream", "taken")

    def __init__(self, stream: SeededRandom | None = None, given: list[float] | None = None):
        self._stream = stream
        self._given = given or []
        self.taken: list[float] = []

    def next(self) -> float:
        n = len(self.taken)
        if self._stream is not None:
            u = self._stream.unit()
        else:
            u = self._given[n] if n < len(self._given) else 0.0
        self.taken.append(u)
        return u

    def hits(self, units: int, chance: float) -> tuple[list[float], int]:
        """One draw per unit: a hit when the draw is strictly below the chance."""
        drawn = [self.next() for _ in range(units)]
        return drawn, sum(1 for u in drawn if u < chance)

    def choice(self, k: int) -> tuple[float, int]:
        """An index among k tied groups: ⌊u·k⌋, in exact arithmetic."""
        u = self.next()
        return u, int(Fraction(u) * k)

    @property
    def missing(self) -> int:
        """How many draws a given list lacked (0 with a stream)."""
        return 0 if self._stream is not None else max(0, len(self.taken) - len(self._given))


def turn_seed(secret: bytes, turn: int, generation: int = 0) -> int:
    """The 64-bit seed of a turn's draws (P33): one way from the game's secret, and new for
    every rewind generation so that a replayed turn never reuses draws already seen."""
    return derived(secret, "art-of-war", "turn", turn, generation).seed


def setup_stream(secret: bytes) -> SeededRandom:
    return derived(secret, "art-of-war", "setup")


def map_seed(secret: bytes) -> int:
    """The seed of a generated map (`mapgen.generate`) when the creator gave none."""
    return derived(secret, "art-of-war", "map").seed
