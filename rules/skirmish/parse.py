"""Order text -> typed orders, or a precise reason per order. Never raises.

An order is split at its keywords into name segments and keywords; the sequence of
segment kinds is then matched against the forms of docs/rules.md. Map names never
contain an order word (rules.skirmish.board checks that), so the split is unambiguous.
"""

import re
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

import msgspec

from rules.skirmish.board import KEYWORD_KINDS, Board
from rules.skirmish.orders import Build, Farm, Hold, Move, Order, Reinforce, Support
from rules.skirmish.position import REF

_SEPARATORS = re.compile(r"[,\n\r]+")
# Longest first, so that "->" is not read as "-" then ">".
_ARROWS = re.compile(r"->|>")
_EXPECTED_ACTION = "H, to, S, B or F"
# No order is longer (territory names are short); longer text is refused unquoted and
# reported cut, so that one line can never fill a turn's report.
MAX_ORDER_LENGTH = 100
# What a reason quotes of the text it refuses, at most.
MAX_QUOTED = 40


class ParsedOrder(msgspec.Struct, frozen=True):
    """One order as typed: `order` when it was understood, else `error` says why not."""

    text: str
    order: Order | None = None
    error: str | None = None


def split_orders(text: str) -> list[str]:
    """The separate orders in a submission: split at commas and new lines."""
    if "," not in text and "\n" not in text and "\r" not in text:
        piece = text.strip()
        return [piece] if piece else []
    return [piece.strip() for piece in _SEPARATORS.split(text) if piece.strip()]


def parse_order(text: str, board: Board) -> ParsedOrder:
    order = read_order(text, board)
    if isinstance(order, str):
        return ParsedOrder(clipped(text), error=order)
    return ParsedOrder(text, order)


def clipped(text: str) -> str:
    """An order's text as reports show it: whole, or cut after MAX_ORDER_LENGTH."""
    return _cut(text, MAX_ORDER_LENGTH)


def _quoted(text: str) -> str:
    return _cut(text, MAX_QUOTED)


def _cut(text: str, longest: int) -> str:
    return text if len(text) <= longest else text[:longest] + "\u2026"


def read_order(text: str, board: Board) -> Order | str:
    """One order (`text` holds no separator): the order, or why it is not one.
    `parse_order` without the wrapper, for validation, which reads every order of a turn."""
    if len(text) > MAX_ORDER_LENGTH:
        return f"not an order: longer than {MAX_ORDER_LENGTH} characters"
    # The common case, quickly: every name one word (ids always are) typed in one of the
    # board's spellings, a known form. The words are those that the general way below
    # splits the text into, each a keyword or a name, so that it would find the same.
    words = (_ARROWS.sub(_spaced, text) if ">" in text else text).split()
    # All words looked up at once in each of the board's word tables; a word in neither (a
    # longer name, another spelling, a typo) raises KeyError and the general way decides.
    # So does an order of one word, of which itemgetter gives the value rather than a
    # tuple, a key of no form (and of no word, for which itemgetter raises TypeError).
    try:
        look_up = itemgetter(*words)
        build = _ONE_WORD_FORMS.get(look_up(board.word_kinds))
        if build is not None:
            return build(look_up(board.word_ids))
    except (KeyError, TypeError):
        pass
    segments = _segments(text)
    build = _FORMS.get(tuple(kind for kind, _ in segments))
    if build is None:
        return _shape_error(text, _split_leading_name(segments, board))
    values: list[str | None] = []
    for kind, value in segments:
        territory = None
        if kind == "NAME":
            territory = board.name_to_id.get(value.lower())
            if territory is None:
                return f"no such territory: {_quoted(value)}"
        values.append(territory)
    return build(values)


def _spaced(match: re.Match[str]) -> str:
    return f" {match.group(0)} "


def _segments(text: str) -> list[tuple[str, str]]:
    """[("NAME", "Betts Frond"), ("TO", "to"), ...]: keywords, and the words between them."""
    segments: list[tuple[str, str]] = []
    words: list[str] = []
    for token in _ARROWS.sub(_spaced, text).split():
        keyword = KEYWORD_KINDS.get(token.lower())
        if keyword is None:
            words.append(token)
            continue
        if words:
            segments.append(("NAME", " ".join(words)))
            words = []
        segments.append((keyword, token))
    if words:
        segments.append(("NAME", " ".join(words)))
    return segments


# Each form builds its order from the values of its segments, a territory id for each name
# and None for each keyword (typed Any: which is which, the form says).
_FORMS: dict[tuple[str, ...], Callable[[Sequence[Any]], Order]] = {
    ("NAME", "H"): lambda v: Hold(v[0]),
    ("NAME", "TO", "NAME"): lambda v: Move(v[0], v[2]),
    ("NAME", "S", "NAME"): lambda v: Support(v[0], v[2]),
    ("NAME", "S", "NAME", "H"): lambda v: Support(v[0], v[2]),
    ("NAME", "S", "NAME", "TO", "NAME"): lambda v: Support(v[0], v[2], v[4]),
    ("NAME", "S", "REF", "NAME"): lambda v: Support(v[0], REF, v[3]),
    ("NAME", "S", "REF", "TO", "NAME"): lambda v: Support(v[0], REF, v[4]),
    ("NAME", "B"): lambda v: Build(v[0]),
    ("NAME", "F"): lambda v: Farm(v[0]),
    ("REF", "NAME"): lambda v: Reinforce(v[1]),
    ("REF", "TO", "NAME"): lambda v: Reinforce(v[2]),
}


# The forms again, for orders whose every name is one word: by the kind of each word
# (None for a name).
_ONE_WORD_FORMS: dict[tuple[str | None, ...], Callable[[Sequence[Any]], Order]] = {
    tuple(None if kind == "NAME" else kind for kind in shape): build
    for shape, build in _FORMS.items()
}


def _split_leading_name(segments: list[tuple[str, str]], board: Board) -> list[tuple[str, str]]:
    """`SI jump RG` is one run of words to the splitter; for a useful message, cut the
    longest territory name off its front ("SI", then "jump RG")."""
    if not segments or segments[0][0] != "NAME":
        return segments
    words = segments[0][1].split()
    for end in range(min(len(words), board.longest_name), 0, -1):
        if " ".join(words[:end]).lower() in board.name_to_id:
            rest = [("NAME", " ".join(words[end:]))] if end < len(words) else []
            return [("NAME", " ".join(words[:end])), *rest, *segments[1:]]
    return [("UNKNOWN", words[0]), *segments[1:]]


def _shape_error(text: str, segments: list[tuple[str, str]]) -> str:
    if not segments:
        return "empty order"
    # What a reason quotes of the text is short, whatever the text.
    text = _quoted(text)
    segments = [(kind, _quoted(value)) for kind, value in segments]
    shape = [kind for kind, _ in segments]
    first_kind, first = segments[0]
    if first_kind == "UNKNOWN":
        return f"no such territory: {first}"
    if first_kind not in ("NAME", "REF"):
        return f"an order starts with a territory or REF, not {first!r}: {text}"
    if first_kind == "REF":
        return f"a reinforcement is written REF to <barracks>: {text}"
    if len(segments) == 1:
        return f"incomplete order, expected {_EXPECTED_ACTION} after {first}: {text}"
    if shape[1] == "NAME":
        return f"unknown order word after {first}, expected {_EXPECTED_ACTION}: {text}"
    if shape[1] == "S":
        return f"a support is written <army> S <army> [H] or <army> S <army> to <territory>: {text}"
    if shape[1] == "TO":
        return f"a move is written <army> to <territory>: {text}"
    if len(segments) == 2:
        return f"unexpected {segments[1][1]!r} after {first}: {text}"
    return f"unexpected {segments[2][1]!r} after {first} {segments[1][1]}: {text}"
