"""What the herald sends, and the small interface it sends it through (docs/discord.md,
"The herald"): a message to a game's channel (text, and the map as a PNG) or to one user
(text), each with a nonce that names it, so that a resend is recognised as the same message.
The bot implements the sink with discord.py (discord_bot/herald_discord.py); the tests
record what it is given."""

import hashlib
from dataclasses import dataclass
from typing import Protocol

# Discord keeps a nonce of at most 25 characters.
NONCE_LENGTH = 25
MAP_FILE = "map.png"


@dataclass(frozen=True)
class Outgoing:
    """One Discord message: to the game's `channel`, or, when `user` is set, to that user
    alone (a direct message; then there is no image)."""

    channel: str
    text: str
    # Stable for the message: the same message sent again carries the same nonce.
    nonce: str
    image: bytes | None = None
    user: str | None = None


class Undeliverable(Exception):
    """A refusal that sending again would not change (a user who accepts no direct
    messages, a channel that is gone or closed to the bot): the message is given up."""


class Sink(Protocol):
    async def send(self, message: Outgoing) -> None:
        """Send one message. Raises Undeliverable for a lasting refusal; anything else it
        raises counts as a passing failure, and the message is sent again later."""


def nonce(game: str, key: str) -> str:
    """The nonce of the message `key` names in `game`: short (Discord keeps 25
    characters), and the same wherever and whenever the message is sent."""
    return hashlib.sha256(f"{game}\n{key}".encode()).hexdigest()[:NONCE_LENGTH]
