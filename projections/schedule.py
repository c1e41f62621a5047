"""When a game resolves next, and when orders are locked. Pure: `now` is always given."""

from datetime import datetime, timedelta

from schema.game_events import Settings

FAST_PERIOD = timedelta(minutes=15)
LOCK = timedelta(minutes=5)
FAST_LOCK = timedelta(minutes=1)
# A daily turn keeps orders open at least this long between its two lock windows.
SHORTEST_OPEN = timedelta(hours=1)
# How long before a resolution the players who want it are reminded.
REMINDER_LEAD = timedelta(hours=1)
FAST_REMINDER_LEAD = timedelta(minutes=3)


def lock_length(settings: Settings) -> timedelta:
    return FAST_LOCK if settings.fast_mode else LOCK


def reminder_lead(settings: Settings) -> timedelta:
    return FAST_REMINDER_LEAD if settings.fast_mode else REMINDER_LEAD


def next_resolution_after(anchor: datetime, settings: Settings) -> datetime:
    """The resolution that follows `anchor` (a start, a resolution, an unpause or a change
    of schedule). Fast mode: 15 minutes later. Otherwise the first time the local clock
    shows the resolution hour, leaving both lock windows and at least an hour of open orders
    in between, so that no turn is over before it began."""
    if settings.fast_mode:
        return anchor + FAST_PERIOD
    earliest = anchor + 2 * LOCK + SHORTEST_OPEN
    local = earliest + timedelta(hours=settings.utc_offset)
    candidate = local.replace(hour=settings.resolution_hour, minute=0, second=0, microsecond=0)
    if candidate < local:
        candidate += timedelta(days=1)
    return candidate - timedelta(hours=settings.utc_offset)


def locked_until(
    now: datetime,
    *,
    next_resolution: datetime,
    last_resolution: datetime | None,
    settings: Settings,
) -> datetime | None:
    """When orders and votes open again, if `now` falls in a lock window; else None."""
    lock = lock_length(settings)
    if next_resolution - lock <= now:
        return next_resolution + lock
    if last_resolution is not None and last_resolution <= now < last_resolution + lock:
        return last_resolution + lock
    return None


def utc_offset_for(current_local_hour: int, now: datetime) -> int:
    """The offset, in whole hours between -11 and +12, of a place whose clock shows
    `current_local_hour` at `now`."""
    offset = (current_local_hour - now.hour) % 24
    return offset - 24 if offset > 12 else offset
