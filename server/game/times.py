"""Times as people read them, the one way every reply and refusal writes them: the
moment in UTC and in the game's local time, and how long until. Pure: `now` is given."""

from datetime import datetime, timedelta


def hour_label(hour: int) -> str:
    """14 -> '2PM (14:00)'; 0 -> '12AM (00:00)'."""
    twelve = hour % 12 or 12
    return f"{twelve}{'AM' if hour < 12 else 'PM'} ({hour:02d}:00)"


def offset_label(utc_offset: int) -> str:
    if utc_offset == 0:
        return "UTC"
    return f"UTC{utc_offset:+d}"


def duration(span: timedelta) -> str:
    minutes = int(span.total_seconds() // 60)
    if minutes < 1:
        return "under a minute"
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{days}d" if days else "", f"{hours}h" if hours else ""]
    if minutes and not days:
        parts.append(f"{minutes}m")
    return " ".join(p for p in parts if p)


def moment(at: datetime, now: datetime, utc_offset: int) -> str:
    """'2030-01-02 12:00 UTC (2PM local time, in 3h 20m)'."""
    local = at + timedelta(hours=utc_offset)
    wall = f"{at:%Y-%m-%d %H:%M} UTC"
    local_part = f"{local.hour % 12 or 12}{'AM' if local.hour < 12 else 'PM'}"
    if local.minute:
        local_part = f"{local.hour:02d}:{local.minute:02d}"
    relative = "due now" if at <= now else f"in {duration(at - now)}"
    return f"{wall} ({local_part} local time, {relative})"
