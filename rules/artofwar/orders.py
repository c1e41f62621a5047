"""Order text (§3.6) read into orders: `US 3 to AK` (or `->`, `>`), `US hold` (`US H`),
`place 2 AK`; case-insensitive, territory ids or full names, several orders separated by
commas or new lines."""

import re

import msgspec

from rules.artofwar.board import Board

MAX_LINE = 200


class Move(msgspec.Struct, frozen=True, tag="move"):
    source: str
    target: str
    units: int


class Hold(msgspec.Struct, frozen=True, tag="hold"):
    source: str


class Place(msgspec.Struct, frozen=True, tag="place"):
    target: str
    units: int


class Unreadable(msgspec.Struct, frozen=True, tag="unreadable"):
    """A line that is no order, or names what the map does not have: `reason` says which."""

    reason: str


Order = Move | Hold | Place | Unreadable

_ARROW = re.compile(r"->|>")
_SEPARATOR = re.compile(r"[,\n]")
# A count as written, so that `US 2.5 to AK` or `US -1 to AK` is a bad count, not bad text.
_COUNT = re.compile(r"[+-]?\d+(\.\d*)?")
# Most lines are a move between one-word names, `US 3 to AK`: read at once when both names
# are the map's, since a name of a checked map holds no '>' and no order word, the general
# reading (`read`) would find the same move (tests/rules/artofwar/test_orders.py).
_PLAIN_MOVE = re.compile(r"(\S+)\s+(\d+)\s+(\S+)\s+(\S+)")
_ARROWS = frozenset({"to", "->", ">"})


def split_lines(text: str) -> list[str]:
    """The orders of one submission, in the order written, blank ones dropped."""
    if "," not in text and "\n" not in text:  # one line, as most submissions of an API are
        line = text.strip()
        return [line] if line else []
    return [line.strip() for line in _SEPARATOR.split(text) if line.strip()]


def shaped(line: str) -> bool:
    """Whether a line has an order's shape (`… N to …`, `… hold`, `place N …`), whatever
    it names: for a text command, which is the game's only when it looks like orders."""
    words = _ARROW.sub(" to ", line).lower().split()
    if len(words) >= 3 and words[0] == "place":
        return True
    if len(words) >= 2 and words[-1] in ("hold", "h"):
        return True
    if "to" not in words:
        return False
    at = words.index("to")
    return 2 <= at < len(words) - 1 and bool(_COUNT.fullmatch(words[at - 1]))


def parse(line: str, board: Board) -> Order:
    """One order line; never raises."""
    if len(line) > MAX_LINE:
        return Unreadable(f"an order has at most {MAX_LINE} characters")
    plain = _PLAIN_MOVE.fullmatch(line)
    if plain is not None and plain[3].lower() in _ARROWS:
        source = board.names.get(plain[1].lower())
        target = board.names.get(plain[4].lower())
        if source is not None and target is not None:
            return Move(source, target, int(plain[2]))
    return read(line, board)


def read(line: str, board: Board) -> Order:
    """One order line of at most MAX_LINE characters, read word by word: what `parse` gives
    for every line but a plain move, which it reads at once."""
    # Keywords are matched lower-cased; names keep their case for the reasons.
    raw = _ARROW.sub(" to ", line).split()
    words = [word.lower() for word in raw]
    if len(words) >= 3 and words[0] == "place":
        return _place(raw, board)
    if len(words) >= 2 and words[-1] in ("hold", "h"):
        source = _territory(raw[:-1], board)
        return Unreadable(source[1]) if source[1] else Hold(source[0])
    if "to" in words:
        at = words.index("to")
        if at >= 2 and _COUNT.fullmatch(words[at - 1]):
            return _move(raw[: at - 1], raw[at - 1], raw[at + 1 :], board)
    return Unreadable(f"cannot read {line!r}: write 'US 3 to AK', 'US hold' or 'place 2 AK'")


def _move(source: list[str], count: str, target: list[str], board: Board) -> Order:
    found = [_territory(words, board) for words in (source, target)]
    for _, fault in found:
        if fault:
            return Unreadable(fault)
    return Move(found[0][0], found[1][0], _units(count))


def _place(words: list[str], board: Board) -> Order:
    if not _COUNT.fullmatch(words[1]):
        return Unreadable(f"cannot read the count of {' '.join(words)!r}")
    target, fault = _territory(words[2:], board)
    return Unreadable(fault) if fault else Place(target, _units(words[1]))


def _units(count: str) -> int:
    """The count, or 0 when it is not a whole number (an invalid count either way, §3.2)."""
    try:
        return int(count)
    except ValueError:
        return 0


def _territory(words: list[str], board: Board) -> tuple[str, str]:
    """(id, "") for a territory of the map, or ("", the reason) for none."""
    name = " ".join(words)
    found = board.names.get(name.lower())
    if found is None:
        return "", f"no such territory: {name}"
    return found, ""
