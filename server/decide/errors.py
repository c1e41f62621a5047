"""Refusals, as typed values with a code and a message fit to show a player."""


class DomainError(Exception):
    """A command the game refuses. `code` is stable for clients; `status` is the HTTP
    status that fits."""

    code = "refused"
    status = 409

    def __init__(self, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        # Seconds after which the same command may succeed (a Retry-After header).
        self.retry_after = retry_after


class GameNotFound(DomainError):
    code = "game_not_found"
    status = 404


class GameGone(DomainError):
    code = "game_killed"
    status = 410


class NotAllowed(DomainError):
    code = "not_allowed"
    status = 403


class WrongPhase(DomainError):
    code = "wrong_phase"
    status = 409


class WrongTurn(DomainError):
    code = "wrong_turn"
    status = 409


class OrdersLocked(DomainError):
    code = "orders_locked"
    status = 409


class InvalidCommand(DomainError):
    code = "invalid"
    status = 422


class Conflict(DomainError):
    code = "conflict"
    status = 409


class QuotaExceeded(DomainError):
    """A player sent more this turn than rules.md allows; it resets when the turn resolves."""

    code = "turn_quota"
    status = 429
