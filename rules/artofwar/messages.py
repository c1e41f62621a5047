"""The Art of War's messages (P35): public ones, for every player, and in a game with the
`intrigue` option private ones, from one player to another, seen by those two alone. A
message changes nothing in the game: it is an event of the feed, no order."""

import re
from typing import Any

import msgspec

from rules.game import MoveRefused

# As long as a broadcast may be (the server's schema/bounds.py).
MAX_MESSAGE = 1000

_SAY = re.compile(r"\s*say\s+(.+)", re.I | re.S)
_TELL = re.compile(r"\s*tell\s+(\S+)\s+(.+)", re.I | re.S)


class MessageSent(msgspec.Struct, frozen=True, omit_defaults=True, tag="message_sent.v1"):
    """A message from `seat`: to everyone, or only to the seat `to` (a private one, which the
    room shows to the two of them alone)."""

    seat: str
    text: str
    to: str | None = None


class Message(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A message as a move: `{"message": "...", "to": "p2"}`, `to` left out for all. The
    room takes a player's name in `to` too, and hands the game the seat (rules/game.py,
    `Addressed`)."""

    message: str
    to: str | None = None


def message_of(move: Any) -> Message | None:
    """The message a move sends, None for a move that is no message; MoveRefused if it
    is one, malformed."""
    if not (isinstance(move, dict) and "message" in move):
        return None
    try:
        message = msgspec.convert(move, Message)
    except msgspec.ValidationError as error:
        raise MoveRefused(
            f'a message is {{"message": text, "to": a player or left out}}: {error}'
        ) from error
    text = message.message.strip()
    if not text:
        raise MoveRefused("a message is empty")
    if len(text) > MAX_MESSAGE:
        raise MoveRefused(f"a message has at most {MAX_MESSAGE} characters")
    if not all(ch.isprintable() or ch in "\n\t" for ch in text):
        raise MoveRefused("a message holds unprintable characters")
    return Message(text, message.to)


def addressee(move: Any) -> str | None:
    """Whom a message is sent to, as written: None for a public message or no message."""
    if isinstance(move, dict) and "message" in move and isinstance(move.get("to"), str):
        to: str = move["to"]
        return to
    return None


def send(seat: str, message: Message, seats: tuple[str, ...], intrigue: bool) -> MessageSent:
    """The message `seat` sends, if this game takes it."""
    if message.to is None:
        return MessageSent(seat, message.message)
    if not intrigue:
        raise MoveRefused(
            "private messages need the intrigue option: this game sends public messages only"
        )
    if message.to not in seats:
        raise MoveRefused(f"no seat {message.to[:20]!r} here; the seats: {', '.join(seats)}")
    if message.to == seat:
        raise MoveRefused("a private message goes to another player")
    return MessageSent(seat, message.message, message.to)


def message_text(text: str) -> dict[str, str] | None:
    """A message in text: `say <text>` to everyone, `tell <player> <text>` to one player (a
    seat or a name, which the room finds)."""
    if found := _TELL.fullmatch(text):
        return {"message": found[2], "to": found[1]}
    if found := _SAY.fullmatch(text):
        return {"message": found[1]}
    return None
