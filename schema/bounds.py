"""The bounds of what players and admins may set, and their checks. The decider
(server/game/decide) and a game's own moves (projections/skirmish/) check them on every
command, whatever way it came; the HTTP bodies (schema/api.py) declare them too, so that
their decoder refuses a value out of bounds at once and /openapi.json shows each bound."""

from schema import errors as codes
from schema.refusals import InvalidCommand

# A name: a game's, a player's, an account's (one line of printable text).
MAX_NAME = 32
MAX_VP_TARGET = 50
MAX_VOTE_START_TURN = 10_000
# A player's colour is 1..COLORS, the pattern of their armies 1..PATTERNS.
COLORS, PATTERNS = 20, 16
# Characters of one submission of orders, and of one broadcast message.
MAX_ORDER_TEXT = 4000
MAX_MESSAGE = 1000
# Characters of the reason an admin gives for a rewind (shown to every player).
MAX_REASON = 500
# A game's seed picks its generated map; PostgreSQL keeps it as a bigint.
MAX_SEED = 2**63 - 1


def check_text(label: str, text: str, longest: int) -> str:
    """Text of several lines (orders, a message): printable, tabs and line breaks allowed."""
    text = text.strip()
    if not text:
        raise InvalidCommand(codes.TEXT_EMPTY, f"{label} is empty")
    if len(text) > longest:
        raise InvalidCommand(
            codes.TEXT_TOO_LONG, f"{label} is too long: at most {longest} characters"
        )
    if not all(ch.isprintable() or ch in "\n\t" for ch in text):
        raise InvalidCommand(codes.TEXT_UNPRINTABLE, f"{label} holds unprintable characters")
    return text


def check_name(label: str, name: str) -> str:
    """A name (a player's, a game's, an account's): one line of printable text of at most
    MAX_NAME characters, surrounding spaces trimmed. A line break or a control character is
    refused, never stripped: a name shows in lists of other lines, which it must not forge."""
    name = name.strip(" ")
    if not name:
        raise InvalidCommand(codes.NAME_EMPTY, f"{label} is empty")
    if not name.isprintable():
        raise InvalidCommand(codes.NAME_UNPRINTABLE, f"{label} must be one line of printable text")
    if len(name) > MAX_NAME:
        raise InvalidCommand(
            codes.NAME_TOO_LONG, f"{label} is too long: at most {MAX_NAME} characters"
        )
    return name


def check_range(label: str, value: int, low: int, high: int) -> int:
    if isinstance(value, bool) or not low <= value <= high:
        raise InvalidCommand(
            codes.OUT_OF_RANGE, f"{label} must be between {low} and {high}, not {value}"
        )
    return value
