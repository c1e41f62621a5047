"""What is said on the websocket of a live game (docs/api.md, "Live"): its query, the client's
one message, and the server's, one Struct per `type`. /asyncapi.json is generated from them."""

from datetime import datetime
from typing import Literal, cast

import msgspec

from schema.api import AnyFeedEvent
from schema.game_events import TurnResolved
from schema.views import PlayerView, PublicGame


class LiveQuery(msgspec.Struct, frozen=True):
    """The socket's query string."""

    # Where to start: every message after this position (0, the default: from the start).
    after: int = 0
    # The player's token: this socket is then also that player's private channel (or send
    # it in the Authorization header, or as the first message).
    token: str | None = None
    # "message": the token comes as the first message, and the socket waits for it (10 s at
    # most) however slow the link, instead of serving a spectator after 250 ms. "none": no
    # token comes: a spectator's socket, served at once, without waiting 250 ms for one.
    auth: Literal["message", "none"] | None = None


class TokenMessage(msgspec.Struct, frozen=True):
    """The client's first message, to be known as the player of that token: sent at once on
    connecting (within 250 ms), or within 10 s with `?auth=message`. A client without one
    says nothing (a token after the 250 ms closes the socket with 4400: it was serving a
    spectator)."""

    token: str


class LiveMessage(msgspec.Struct, frozen=True, tag_field="type"):
    """Every message of the server: its `type`, and a position to reconnect from (`after`)."""

    position: int

    @property
    def type(self) -> str:
        """The message's tag, the JSON's `type`."""
        return cast(str, self.__struct_config__.tag)


class SnapshotMessage(LiveMessage, frozen=True, tag="snapshot"):
    """First, instead of the events to catch up on when there are too many: the public game
    at `position`, as GET /v1/games/{game} shows it, without `now`."""

    game: PublicGame


class EventMessage(LiveMessage, frozen=True, tag="event"):
    """An event the connection may see, as in the event feed."""

    event: AnyFeedEvent


class StandingsMessage(LiveMessage, frozen=True, tag="standings"):
    """The players in standings order, after catching up and after every change."""

    standings: list[PlayerView]


class ResolvedMessage(LiveMessage, frozen=True, tag="resolved"):
    """Right after a `turn_resolved` event, at its position: the whole resolution."""

    turn: int
    resolution: TurnResolved


class RewoundMessage(LiveMessage, frozen=True, tag="rewound"):
    """Right after a `turn_rewound` event: reload the game's state. `by` and `reason` are
    the event's: who rewound, and why."""

    turn: int
    by: str | None = None
    reason: str | None = None


class YourTurnMessage(LiveMessage, frozen=True, tag="your_turn"):
    """To a player's own socket only, right after its `player_notified` "your_turn" event:
    the game (run by its definition) waits for `player_id`'s move in `turn`. `deadline`:
    when the player's time runs out, as the game stands when the message is sent (null: no
    clock, paused, or the game no longer waits for the player)."""

    player_id: str
    turn: int
    deadline: datetime | None = None


class PingMessage(LiveMessage, frozen=True, tag="ping"):
    """After 15 to 20 s of silence, at the last position dispatched."""


class ErrorMessage(LiveMessage, frozen=True, tag="error"):
    """Why the server is closing the socket; the close code says more."""

    message: str


ServerMessage = (
    SnapshotMessage
    | EventMessage
    | StandingsMessage
    | ResolvedMessage
    | RewoundMessage
    | YourTurnMessage
    | PingMessage
    | ErrorMessage
)
