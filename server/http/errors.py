"""Errors as the API shows them: {"error": {"code": ..., "message": ...}} with the status of
the code's entry in schema/errors.py (and, for some codes, further fields beside them).
Bad input is a 4xx, never a 500; a database that is away is a 503 with Retry-After, handled
here so that it never reaches Starlette's last-resort handler (which logs a traceback and
makes uvicorn drop the keep-alive connection)."""

import contextlib
from collections.abc import Mapping
from typing import Any

import msgspec
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.websockets import WebSocket

from eventstore.errors import (
    ConcurrencyError,
    DuplicateEventError,
    EventTooLargeError,
    InvalidRequestError,
)
from eventstore.outages import UNREACHABLE
from projections.queries import ReadModelsBehind
from schema import errors as codes
from schema.errors import ErrorCode, Refusal
from server.http.routing import allowed_methods

# How long a client should wait before trying again after a 503 (every 503 says so).
RETRY_AFTER_SECONDS = 2
# What a request that the database failed is told.
NO_DATABASE = "the database is unavailable; try again shortly"
# A websocket's close code for "try again later".
_TRY_AGAIN_LATER = 1013


def error_response(
    code: ErrorCode,
    message: str,
    headers: dict[str, str] | None = None,
    *,
    status: int | None = None,
    details: Mapping[str, Any] | None = None,
) -> Response:
    """The answer for `code` (with its status, unless `status` says otherwise), with
    `details` beside the code and the message."""
    status = code.status if status is None else status
    if status == 503:
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS), **(headers or {})}
    error = {"code": code.code, "message": message, **(details or {})}
    return Response(
        msgspec.json.encode({"error": error}),
        status_code=status,
        media_type="application/json",
        headers=headers,
    )


# The store's typed errors, as the API reports them when a route lets one through.
_STORE_ERRORS: dict[type[Exception], ErrorCode] = {
    ConcurrencyError: codes.WRITE_CONFLICT,
    DuplicateEventError: codes.DUPLICATE,
    InvalidRequestError: codes.INVALID_STORE_REQUEST,
    EventTooLargeError: codes.EVENT_TOO_LARGE,
}

_HTTP_CODES = {404: codes.NOT_FOUND, 405: codes.METHOD_NOT_ALLOWED}


def install_error_handlers(app: FastAPI) -> None:
    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        code = _HTTP_CODES.get(error.status_code, codes.HTTP_ERROR)
        headers = dict(error.headers or {})
        if error.status_code == 405:
            # RFC 9110: a 405 says which methods the path takes.
            headers["Allow"] = ", ".join(allowed_methods(request.scope))
        return error_response(code, str(error.detail), headers, status=error.status_code)

    async def invalid(_: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        problems = "; ".join(_describe(problem) for problem in error.errors())
        return error_response(codes.INVALID_REQUEST, problems or "invalid request")

    async def domain_error(_: Request, error: Exception) -> Response:
        assert isinstance(error, Refusal)
        retry = None if error.retry_after is None else {"Retry-After": str(error.retry_after)}
        return error_response(error.entry, error.message, retry, details=error.details())

    async def read_models_behind(_: Request, error: Exception) -> Response:
        # Every 503 carries Retry-After (error_response).
        message = str(error) or "the read models have not caught up with the log yet"
        return error_response(codes.READ_MODELS_BEHIND, f"{message}; try again")

    async def store_error(_: Request, error: Exception) -> Response:
        return error_response(_STORE_ERRORS[type(error)], str(error))

    # Any: Starlette calls it with the Request (answer: a response) or the WebSocket (answer:
    # None, once closed), whichever met the error.
    async def database_unavailable(connection: Any, _: Exception) -> Any:
        message = NO_DATABASE
        if isinstance(connection, WebSocket):
            # No HTTP answer fits a websocket: close it, and the client reconnects later.
            with contextlib.suppress(RuntimeError):
                await connection.close(code=_TRY_AGAIN_LATER, reason=message)
            return None
        return error_response(codes.DATABASE_UNAVAILABLE, message)

    async def client_gone(_: Request, error: Exception) -> Response:
        # Nobody reads this answer: the client left while sending its body.
        return error_response(codes.CLIENT_DISCONNECTED, "the request's body never came")

    app.add_exception_handler(ClientDisconnect, client_gone)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(Refusal, domain_error)
    app.add_exception_handler(ReadModelsBehind, read_models_behind)
    for kind in _STORE_ERRORS:
        app.add_exception_handler(kind, store_error)
    # A request does no other I/O than the database and its client, so an OSError or a
    # TimeoutError (among these) means the database too.
    for kind in UNREACHABLE:
        app.add_exception_handler(kind, database_unavailable)


def _describe(problem: Any) -> str:
    where = ".".join(str(part) for part in problem.get("loc", ()))
    return f"{where}: {problem.get('msg', 'invalid')}"
