"""Skor's dice (docs/skor.md, "Randomness"): every die is a fresh stream
derived(secret, *labels) and its result 1 + below(sides); or, instead of a secret, explicit
rolls consumed in the same order. Each die rolled is recorded with its labels and purpose."""

import msgspec

from rules.kit.prng import derived

Label = str | int


class DieRecord(msgspec.Struct, frozen=True):
    labels: str
    sides: int
    value: int
    # `for` is a keyword in Python: the field is named on the wire only.
    purpose: str = msgspec.field(name="for")


class RollsError(ValueError):
    """Explicit rolls that cannot serve: too few, or not a result of the die."""


class Dice:
    """The dice of one call: from the game's secret, or from explicit rolls."""

    def __init__(self, secret: bytes | None = None, rolls: list[int] | None = None) -> None:
        if (secret is None) == (rolls is None):
            raise ValueError("give exactly one of a secret and explicit rolls")
        self._secret = secret
        self._rolls = rolls
        self.records: list[DieRecord] = []

    def roll(self, labels: tuple[Label, ...], sides: int, purpose: str) -> int:
        used = len(self.records)
        if self._rolls is None:
            assert self._secret is not None
            value = 1 + derived(self._secret, *labels).below(sides)
        elif used >= len(self._rolls):
            raise RollsError(f"needed more rolls: {len(self._rolls)} given")
        else:
            value = self._rolls[used]
            if not 1 <= value <= sides:
                raise RollsError(f"roll {used + 1} is {value}, not a d{sides} result")
        text = "|".join(str(label) for label in labels)
        self.records.append(DieRecord(text, sides, value, purpose))
        return value

    @property
    def unused(self) -> int:
        """Explicit rolls not consumed (0 with a secret)."""
        return 0 if self._rolls is None else len(self._rolls) - len(self.records)
