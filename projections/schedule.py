"""When a wait's deadline falls, and when its moves are locked: the room's clock, for every
game's `Wait` (rules/game.py), and Skirmish Society's numbers for its own. Pure: `now` is
always given."""

from datetime import datetime, timedelta
from typing import Literal

import msgspec

from rules.game import Daily
from schema.game_events import Settings

FAST_PERIOD = timedelta(minutes=15)
LOCK = timedelta(minutes=5)
FAST_LOCK = timedelta(minutes=1)
# A daily turn keeps orders open at least this long between its two lock windows.
SHORTEST_OPEN = timedelta(hours=1)
# How long before a resolution the players who want it are reminded; before the deadline
# of a shorter wait of a game run by its definition, a quarter of the wait (wait_reminder_lead).
REMINDER_LEAD = timedelta(hours=1)
FAST_REMINDER_LEAD = timedelta(minutes=3)
_INSTANT = timedelta(microseconds=1)


class Due(msgspec.Struct, frozen=True):
    """A game's phase and turn, and when it falls due next (None: nothing is scheduled):
    what the scheduler leaves in the read model for a game it is done with."""

    phase: str
    turn: int
    resolution_at: datetime | None
    reminder_at: datetime | None


def wait_reminder_lead(length: timedelta) -> timedelta:
    """How long before its deadline a wait of a game run by its definition, `length` long,
    reminds the seats still to move when it says nothing of its reminder: an hour, but never
    more than a quarter of the wait, so that a reminder never comes before the wait has well
    begun (a minute's wait reminds 15 seconds before; a day's, an hour before)."""
    return min(REMINDER_LEAD, length / 4)


def strictly_after(unpaused: datetime, span: timedelta) -> datetime:
    """The earliest a daily wait unpaused at `unpaused` ends: strictly `span` (a lock) after,
    since a lock window that begins at the very moment of unpausing has begun."""
    return unpaused + span + _INSTANT


def first_hour_from(earliest: datetime, hour: int) -> datetime:
    """The first time at or after `earliest` that the clock shows `hour` o'clock, UTC."""
    candidate = earliest.replace(hour=hour, minute=0, second=0, microsecond=0)
    if candidate < earliest:
        candidate += timedelta(days=1)
    return candidate


def daily_deadline(daily: Daily, began: datetime, resumed: datetime | None) -> datetime:
    """The deadline of a daily wait that began at `began`, unpaused at `resumed` since (None:
    not since it began)."""
    if resumed is not None:
        earliest = strictly_after(resumed, timedelta(seconds=daily.after_unpause))
    else:
        earliest = began + timedelta(seconds=daily.not_before)
    return first_hour_from(earliest, daily.hour)


def resolution_hour_utc(settings: Settings) -> int:
    """The hour of the day, in UTC, at which the game resolves (local time only names it)."""
    return (settings.resolution_hour - settings.utc_offset) % 24


class Window(msgspec.Struct, frozen=True):
    """Whether orders, votes and join-forces requests are taken at a moment, and until
    when: what the decider refuses by and every text reply tells (one reading, so that
    they never disagree)."""

    # "open": taken; "locked": refused until `opens_at`, in the lock window before or after
    # a resolution; "due": refused, the turn is due and resolves any moment now (orders
    # open a few minutes after it).
    state: Literal["open", "locked", "due"]
    opens_at: datetime | None = None
    # Open with a resolution scheduled: when the lock window before it begins.
    closes_at: datetime | None = None
    # None while nothing is scheduled (joining, paused, over): no lock then.
    resolves_at: datetime | None = None


def lock_window(
    now: datetime,
    next_resolution: datetime | None,
    last_resolution: datetime | None,
    lock: timedelta,
) -> Window:
    """The window at `now` of a turn that resolves at `next_resolution` (None: nothing is
    scheduled), after one that resolved at `last_resolution` (None: the first turn), with
    `lock` around each resolution."""
    if next_resolution is None:
        return Window("open")
    if next_resolution <= now:
        return Window("due", resolves_at=next_resolution)
    closes = orders_close(next_resolution, lock)
    opens = None
    if closes <= now:
        opens = orders_open(next_resolution, lock)
    elif last_resolution is not None and last_resolution <= now:
        reopening = orders_open(last_resolution, lock)
        opens = reopening if now < reopening else None
    if opens is not None:
        return Window("locked", opens_at=opens, resolves_at=next_resolution)
    return Window("open", closes_at=closes, resolves_at=next_resolution)


def orders_close(resolution: datetime, lock: timedelta) -> datetime:
    """When orders close before a resolution at `resolution`: its lock window begins."""
    return resolution - lock


def orders_open(resolution: datetime, lock: timedelta) -> datetime:
    """When orders open again after a resolution at `resolution`: its lock window ends."""
    return resolution + lock


def utc_offset_for(current_local_hour: int, now: datetime) -> int:
    """The offset, in whole hours between -11 and +12, of a place whose clock shows
    `current_local_hour` at `now`."""
    offset = (current_local_hour - now.hour) % 24
    return offset - 24 if offset > 12 else offset
