"""Skor's text forms (docs/skor.md, "Actions"): one action per line, case-insensitive, read
into the JSON form. Names are only shaped here (a hex is a letter and digits); whether they
exist is the rules' question, answered with a refusal."""

import re

from rules.skor.actions import (
    Action,
    Build,
    City,
    Debris,
    End,
    Fire,
    Move,
    Promote,
    Remove,
    Research,
    Resign,
    Sabotage,
    Send,
    Spawn,
    Spy,
)
from rules.skor.game import Refused

MAX_LINE = 200
KIND_WORDS = {
    "c": "civilian",
    "civ": "civilian",
    "civilian": "civilian",
    "m": "military",
    "mil": "military",
    "military": "military",
}
_HEX = re.compile(r"[a-z]\d{1,3}")


def lines(text: str) -> list[str]:
    """The actions of a submission: one per line or `;`, blank ones left out."""
    return [line.strip() for line in re.split(r"[;\n]", text) if line.strip()]


def _hex(word: str) -> str | None:
    return word.upper() if _HEX.fullmatch(word) else None


def _move(words: list[str]) -> Action | None:
    if len(words) < 2 or len(words) > 4:
        return None
    start, end = _hex(words[0]), _hex(words[1])
    if start is None or end is None:
        return None
    kind, covert = None, False
    for word in words[2:]:
        if word == "covert" and not covert:
            covert = True
        elif word in KIND_WORDS and kind is None and not covert:
            kind = KIND_WORDS[word]
        else:
            return None
    return Move(start, end, kind, covert)


def _hexes(words: list[str], count: int) -> list[str] | None:
    if len(words) != count:
        return None
    names = [_hex(word) for word in words]
    return None if None in names else [name for name in names if name is not None]


def _read(verb: str, rest: list[str]) -> Action | None:
    """The action of one line whose first word is `verb`, or None."""
    if verb == "move":
        return _move(rest)
    if verb in ("end", "resign"):
        return None if rest else (End() if verb == "end" else Resign())
    if verb == "spawn":
        if not rest:
            return Spawn()
        at = _hexes(rest, 1)
        return None if at is None else Spawn(at[0])
    if verb == "remove" and rest:
        at = _hexes(rest[:1], 1)
        if at is None or len(rest) > 2 or (len(rest) == 2 and rest[1] not in KIND_WORDS):
            return None
        return Remove(at[0], KIND_WORDS[rest[1]] if len(rest) == 2 else None)
    if verb == "build" and len(rest) == 2:
        at = _hexes(rest[1:], 1)
        return None if at is None else Build(rest[0], at[0])
    if verb == "research" and len(rest) == 1:
        return Research(rest[0])
    if verb == "send" and rest and rest[0].isdigit() and len(rest[0]) <= 7:
        place = _hexes(rest[1:], len(rest) - 1)
        return None if place is None else Send(int(rest[0]), place)
    single = {"city": City, "debris": Debris, "promote": Promote, "sabotage": Sabotage}
    if verb in single:
        at = _hexes(rest, 1)
        return None if at is None else single[verb](at[0])
    if verb == "fire":
        pair = _hexes(rest, 2)
        return None if pair is None else Fire(pair[0], pair[1])
    if verb == "spy":
        three = _hexes(rest, 3)
        return None if three is None else Spy(three[0], three[1], three[2])
    return None


def parse(line: str) -> Action:
    """One line's action; Refused("cannot read: …") when it fits no form."""
    words = line.lower().split()
    action = _read(words[0], words[1:]) if words and len(line) <= MAX_LINE else None
    if action is None and words and len(line) <= MAX_LINE:
        action = _move(words)
    if action is None:
        raise Refused(f"cannot read: {line[:MAX_LINE]}")
    return action
