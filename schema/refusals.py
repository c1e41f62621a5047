"""Refusals, as typed values with a code and a message fit to show a player.

Each takes an entry of schema/errors.py, whose status is the HTTP status that fits; the
classes name kinds of refusal for those who catch them. A kind with a single code fixes it.
Here, not in the room (server/game/decide), because a game's own moves (projections/skirmish/)
raise them too, and projections/ imports nothing of server/."""

from datetime import datetime
from typing import Any

from schema import errors as codes
from schema.errors import Refusal


class NotFound(Refusal):
    """A name that refers to nothing: the game, a player, an account, a map."""


class NotAllowed(Refusal):
    pass


class InvalidCommand(Refusal):
    pass


class Conflict(Refusal):
    """Refused in the game's current state."""


class GameGone(Refusal):
    def __init__(self, message: str) -> None:
        super().__init__(codes.GAME_KILLED, message)


class WrongPhase(Refusal):
    def __init__(self, message: str) -> None:
        super().__init__(codes.WRONG_PHASE, message)


class WrongTurn(Refusal):
    def __init__(self, message: str) -> None:
        super().__init__(codes.WRONG_TURN, message)


class OrdersLocked(Refusal):
    """Orders, votes and join-forces requests wait for the lock window to end: at
    `orders_open_at`, or, when None, a few minutes after a turn that is due resolves."""

    def __init__(self, message: str, orders_open_at: datetime | None) -> None:
        super().__init__(codes.ORDERS_LOCKED, message)
        self.orders_open_at = orders_open_at

    def details(self) -> dict[str, Any]:
        return {"orders_open_at": self.orders_open_at}


class QuotaExceeded(Refusal):
    """A player sent more this turn than rules.md allows; it resets when the turn resolves."""

    def __init__(self, message: str, *, retry_after: int | None) -> None:
        super().__init__(codes.TURN_QUOTA, message, retry_after=retry_after)
