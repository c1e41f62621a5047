"""A Skor move as a player sends it to the server's room (rules/skor/definition.py): a text
of one action or several (one a line or `;`, §4.11), or one JSON action; read into the
engine's actions, each with the words it came from and, when it cannot be read, the reason."""

from typing import Any

import msgspec

from rules.game import MoveRefused
from rules.skor.actions import KINDS, AnyAction
from rules.skor.game import Refused
from rules.skor.parse import lines, parse

MAX_TEXT = 10_000
MAX_LINES = 200

# What a move holds, in order: its words (a line, or a JSON action's name) and its action
# or, for what cannot be read, the reason it is refused.
Read = list[tuple[str, AnyAction | str]]


def _line(line: str) -> tuple[str, AnyAction | str]:
    try:
        action: Any = parse(line)
    except Refused as refusal:
        return line, refusal.reason
    return line, action


def _json(move: dict[str, Any]) -> tuple[str, AnyAction | str]:
    name = move.get("action")
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        return str(name)[:40], f"no such action: {str(name)[:40]}"
    try:
        action: Any = msgspec.convert(move, kind)
    except msgspec.ValidationError as error:
        return str(name), f"{name}: {error}"
    return str(name), action


def read(move: Any) -> Read:
    """The actions of a move, in order; MoveRefused for a move that is neither form."""
    if isinstance(move, dict):
        return [_json(move)]
    if not isinstance(move, str):
        raise MoveRefused("a Skor move is a text of actions or one JSON action")
    if len(move) > MAX_TEXT:
        raise MoveRefused(f"a move's text is at most {MAX_TEXT} characters")
    # An empty text is one line that cannot be read, as in the engine's submit_text.
    found = lines(move) or [move.strip()]
    if len(found) > MAX_LINES:
        raise MoveRefused(f"a move holds at most {MAX_LINES} actions")
    return [_line(line) for line in found]
