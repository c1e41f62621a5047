"""The server's refusals as exceptions: `{"error": {"code", "message"}}` with its status,
and `Retry-After` when the server gave one. One class per kind of refusal, so that callers
can write `except Conflict as error: error.code`."""

import msgspec


class ApiError(Exception):
    """A refusal from the server (or no answer at all: `Unreachable`)."""

    def __init__(
        self, status: int, code: str, message: str, retry_after: float | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        # Seconds to wait before trying again, when the server said (429, 503).
        self.retry_after = retry_after


class Invalid(ApiError):
    """400 or 422: the request is malformed or a value is out of range."""


class Unauthorized(ApiError):
    """401: no token, or a token (or trusted-client header) that is not good."""


class Forbidden(ApiError):
    """403: the caller may not do this (not an admin, not a player, not the operator)."""


class NotFound(ApiError):
    """404: no such game, turn, player, account or map."""


class Conflict(ApiError):
    """409: refused in the game's current state (wrong phase or turn, orders locked...)."""


class Gone(ApiError):
    """410: the game was killed."""


class TooLarge(ApiError):
    """413: the body, or what the call would record, is too large."""


class RateLimited(ApiError):
    """429: a rate limit, a turn's quota or a caller's share of heavy reads; `retry_after` says
    when to try again."""


class Unavailable(ApiError):
    """503: the database is away or the game is busy; `retry_after` says when to try again."""


class Unreachable(ApiError):
    """No answer: the server could not be reached (status 0, code `unreachable`)."""

    def __init__(self, message: str) -> None:
        super().__init__(0, "unreachable", message)


_BY_STATUS: dict[int, type[ApiError]] = {
    400: Invalid,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    410: Gone,
    413: TooLarge,
    422: Invalid,
    429: RateLimited,
    503: Unavailable,
}


class _Detail(msgspec.Struct, frozen=True):
    code: str
    message: str


class _Error(msgspec.Struct, frozen=True):
    error: _Detail


_decode_error = msgspec.json.Decoder(_Error).decode


def error_for(status: int, code: str, message: str, retry_after: float | None = None) -> ApiError:
    """The exception of the status's kind (ApiError itself for a status without one)."""
    return _BY_STATUS.get(status, ApiError)(status, code, message, retry_after)


def error_from_answer(status: int, content: bytes, retry_after: str | None) -> ApiError:
    """The exception for an HTTP answer that is not a success. An answer not in the error
    form (a proxy's page, say) keeps its text as the message, under the code `http_<status>`."""
    try:
        detail = _decode_error(content).error
        code, message = detail.code, detail.message
    except msgspec.DecodeError:
        code, message = f"http_{status}", content.decode(errors="replace")[:500]
    return error_for(status, code, message, _seconds(retry_after))


def _seconds(header: str | None) -> float | None:
    """Retry-After as seconds; the server sends whole seconds (an HTTP date is not used)."""
    if header is None:
        return None
    try:
        return max(0.0, float(header))
    except ValueError:
        return None
