"""Order text -> typed orders, or a precise reason per order. Never raises.

An order is split at its keywords into name segments and keywords; the sequence of
segment kinds is then matched against the forms of docs/rules.md. Map names never
contain an order word (rules.board checks that), so the split is unambiguous.
"""

import re
from collections.abc import Callable

import msgspec

from rules.board import Board
from rules.orders import Build, Farm, Hold, Move, Order, Reinforce, Support
from rules.position import REF

_KEYWORDS = {
    "h": "H",
    "hold": "H",
    "to": "TO",
    "->": "TO",
    ">": "TO",
    "s": "S",
    "support": "S",
    "supports": "S",
    "b": "B",
    "build": "B",
    "f": "F",
    "farm": "F",
    "ref": "REF",
}
_SEPARATORS = re.compile(r"[,\n\r]+")
# Longest first, so that "->" is not read as "-" then ">".
_ARROWS = re.compile(r"->|>")
_EXPECTED_ACTION = "H, to, S, B or F"


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


def parse_orders(text: str, board: Board) -> list[ParsedOrder]:
    return [parse_order(piece, board) for piece in split_orders(text)]


def parse_order(text: str, board: Board) -> ParsedOrder:
    if text.isascii():
        # The common case, quickly: every name one word (ids always are), a known form,
        # territories that exist. Then each word is a keyword or a name, and the general
        # way below finds the same. ASCII only, where lower-casing cannot change how a text
        # splits into words.
        words = (_ARROWS.sub(_spaced, text) if ">" in text else text).lower().split()
        form = _ONE_WORD_FORMS.get(tuple(map(_KEYWORDS.get, words)))
        if form is not None:
            make, positions = form
            lookup = board.name_to_id.get
            ids: list[str] = []
            for i in positions:
                territory = lookup(words[i])
                if territory is None:
                    break
                ids.append(territory)
            else:
                return ParsedOrder(text, make(ids))
    segments = _segments(text)
    shape = tuple(kind for kind, _ in segments)
    build = _FORMS.get(shape)
    if build is None:
        return ParsedOrder(text, error=_shape_error(text, _split_leading_name(segments, board)))
    names: list[str] = []
    for kind, value in segments:
        if kind == "NAME":
            territory = board.name_to_id.get(value.lower())
            if territory is None:
                return ParsedOrder(text, error=f"no such territory: {value}")
            names.append(territory)
    return ParsedOrder(text, order=build(names))


def _spaced(match: re.Match[str]) -> str:
    return f" {match.group(0)} "


def _segments(text: str) -> list[tuple[str, str]]:
    """[("NAME", "Betts Frond"), ("TO", "to"), ...]: keywords, and the words between them."""
    segments: list[tuple[str, str]] = []
    words: list[str] = []
    for token in _ARROWS.sub(_spaced, text).split():
        keyword = _KEYWORDS.get(token.lower())
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


_FORMS: dict[tuple[str, ...], Callable[[list[str]], Order]] = {
    ("NAME", "H"): lambda n: Hold(n[0]),
    ("NAME", "TO", "NAME"): lambda n: Move(n[0], n[1]),
    ("NAME", "S", "NAME"): lambda n: Support(n[0], n[1]),
    ("NAME", "S", "NAME", "H"): lambda n: Support(n[0], n[1]),
    ("NAME", "S", "NAME", "TO", "NAME"): lambda n: Support(n[0], n[1], n[2]),
    ("NAME", "S", "REF", "NAME"): lambda n: Support(n[0], REF, n[1]),
    ("NAME", "S", "REF", "TO", "NAME"): lambda n: Support(n[0], REF, n[1]),
    ("NAME", "B"): lambda n: Build(n[0]),
    ("NAME", "F"): lambda n: Farm(n[0]),
    ("REF", "NAME"): lambda n: Reinforce(n[0]),
    ("REF", "TO", "NAME"): lambda n: Reinforce(n[0]),
}


# The forms again, for orders whose every name is one word: the kind of each word (None
# for a name), with where the names are. No form has two names in a row.
_ONE_WORD_FORMS: dict[tuple[str | None, ...], tuple[Callable[[list[str]], Order], list[int]]] = {
    tuple(None if kind == "NAME" else kind for kind in shape): (
        build,
        [i for i, kind in enumerate(shape) if kind == "NAME"],
    )
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
