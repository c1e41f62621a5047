"""Small pure helpers for replies a Discord bot can post as they are."""

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

# Discord refuses messages longer than this.
DISCORD_LIMIT = 2000
# @everyone, @here, and <@123>, <@!123>, <@&123> (user and role mentions).
_MENTION = re.compile(r"@(everyone|here)|<@(?=[!&]?\d)", re.IGNORECASE)
_ZERO_WIDTH = "\u200b"


def safe(text: str) -> str:
    """Players' text with mass mentions and user mentions defused, so that echoing a
    message or an order never pings anyone."""
    return _MENTION.sub(_defuse, text)


def _defuse(match: re.Match[str]) -> str:
    found = match.group(0)
    return f"{found[0]}{_ZERO_WIDTH}{found[1:]}" if found.startswith("@") else f"<{_ZERO_WIDTH}@"


def fit(lines: Sequence[str], limit: int = DISCORD_LIMIT) -> str:
    """The lines as one message of at most `limit` characters: whole lines while they fit,
    then a note of how many were left out."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        note = f"... and {len(lines) - index} more lines"
        if used + len(line) + 1 + len(note) > limit:
            if not kept:
                kept.append(clip(line, limit - len(note) - 1))
            kept.append(note)
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept)[:limit]


def clip(text: str, longest: int) -> str:
    return text if len(text) <= longest else text[: longest - 3] + "..."


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


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"
