"""Small pure helpers for replies a Discord bot can post as they are."""

import re
from collections.abc import Sequence

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


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"
