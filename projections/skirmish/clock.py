"""Skirmish Society's clock as the seam's `Wait` (rules/game.py), from the room's settings:
the room reckons its deadline, lock windows and reminders as every game's (projections.game).
Pure: no I/O, no clock."""

from functools import lru_cache

from projections.schedule import (
    FAST_LOCK,
    FAST_PERIOD,
    FAST_REMINDER_LEAD,
    LOCK,
    REMINDER_LEAD,
    SHORTEST_OPEN,
    resolution_hour_utc,
)
from rules.game import Daily, Reminder, Seat, Wait
from schema.game_events import Settings


def turn_wait(settings: Settings, seats: frozenset[Seat]) -> Wait:
    """A turn of `seats` moving at once, until the clock or an admin resolves it: at the
    resolution hour (rules.md), or 15 minutes after it began in fast mode (all of them again
    after an unpause); with a lock window on each side of a resolution, and a reminder to
    everyone once a turn."""
    return _turn_wait(settings.fast_mode, resolution_hour_utc(settings), seats)


# The room asks a game's wait several times a step (its deadline, lock, reminder), and
# every game's seats are named alike (p1, p2, ...): a few waits serve them all.
@lru_cache(maxsize=256)
def _turn_wait(fast_mode: bool, hour: int, seats: frozenset[Seat]) -> Wait:
    if fast_mode:
        return Wait(
            seats=seats,
            sealed=True,
            seconds=FAST_PERIOD.total_seconds(),
            lock=FAST_LOCK.total_seconds(),
            reminder=Reminder(FAST_REMINDER_LEAD.total_seconds(), everyone=True, once_a_turn=True),
            closes="admin",
            restarts=True,
        )
    return Wait(
        seats=seats,
        sealed=True,
        # Two lock windows and at least an hour of open orders: no turn is over before it
        # began; after an unpause, one lock window: an unpause never costs a day.
        daily=Daily(
            hour,
            (2 * LOCK + SHORTEST_OPEN).total_seconds(),
            LOCK.total_seconds(),
        ),
        lock=LOCK.total_seconds(),
        reminder=Reminder(REMINDER_LEAD.total_seconds(), everyone=True, once_a_turn=True),
        closes="admin",
    )
