"""The one clock. Nothing else in the server asks the time, so tests can move it at will."""

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime) -> None:
        self._now = _aware(start)

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> datetime:
        if seconds < 0:
            raise ValueError("a clock does not go back; use set()")
        self._now += timedelta(seconds=seconds)
        return self._now

    def set(self, when: datetime) -> datetime:
        self._now = _aware(when)
        return self._now


def _aware(when: datetime) -> datetime:
    if when.utcoffset() is None:
        raise ValueError("the clock keeps aware times only")
    return when.astimezone(UTC)
