"""Errors as the API shows them: {"error": {"code": ..., "message": ...}} with a fitting
status. Bad input is a 4xx, never a 500; a database that is away is a 503 with Retry-After,
handled here so that it never reaches Starlette's last-resort handler (which logs a
traceback and makes uvicorn drop the keep-alive connection)."""

import contextlib
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.websockets import WebSocket

from eventstore.base import (
    ConcurrencyError,
    DuplicateEventError,
    EventTooLargeError,
    InvalidRequestError,
)
from eventstore.outages import UNREACHABLE
from server.decide.errors import DomainError

# How long a client should wait before trying again after a 503 (every 503 says so).
RETRY_AFTER_SECONDS = 2
# A websocket's close code for "try again later".
_TRY_AGAIN_LATER = 1013


class ApiError(Exception):
    def __init__(
        self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    if status == 503:
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS), **(headers or {})}
    return JSONResponse(
        status_code=status,
        content={"error": {"code": code, "message": message}},
        headers=headers,
    )


# The store's typed errors, as the API reports them when a route lets one through.
_STORE_ERRORS: dict[type[Exception], tuple[int, str]] = {
    ConcurrencyError: (409, "conflict"),
    DuplicateEventError: (409, "duplicate"),
    InvalidRequestError: (400, "invalid_request"),
    EventTooLargeError: (413, "event_too_large"),
}

_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 403: "forbidden"}


def install_error_handlers(app: FastAPI) -> None:
    async def api_error(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, ApiError)
        return error_response(error.status, error.code, error.message, error.headers)

    async def http_error(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, HTTPException)
        code = _HTTP_CODES.get(error.status_code, "http_error")
        return error_response(error.status_code, code, str(error.detail))

    async def invalid(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        problems = "; ".join(_describe(problem) for problem in error.errors())
        return error_response(422, "invalid_request", problems or "invalid request")

    async def domain_error(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, DomainError)
        retry = None if error.retry_after is None else {"Retry-After": str(error.retry_after)}
        return error_response(error.status, error.code, error.message, retry)

    async def store_error(_: Request, error: Exception) -> JSONResponse:
        status, code = _STORE_ERRORS[type(error)]
        return error_response(status, code, str(error))

    # Any: Starlette calls it with the Request (answer: a response) or the WebSocket (answer:
    # None, once closed), whichever met the error.
    async def database_unavailable(connection: Any, _: Exception) -> Any:
        message = "the database is unavailable; try again shortly"
        if isinstance(connection, WebSocket):
            # No HTTP answer fits a websocket: close it, and the client reconnects later.
            with contextlib.suppress(RuntimeError):
                await connection.close(code=_TRY_AGAIN_LATER, reason=message)
            return None
        return error_response(503, "database_unavailable", message)

    async def client_gone(_: Request, error: Exception) -> JSONResponse:
        # Nobody reads this answer: the client left while sending its body.
        return error_response(400, "client_disconnected", "the request's body never came")

    app.add_exception_handler(ClientDisconnect, client_gone)
    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(DomainError, domain_error)
    for kind in _STORE_ERRORS:
        app.add_exception_handler(kind, store_error)
    # A request does no other I/O than the database and its client, so an OSError or a
    # TimeoutError (among these) means the database too.
    for kind in UNREACHABLE:
        app.add_exception_handler(kind, database_unavailable)


def _describe(problem: Any) -> str:
    where = ".".join(str(part) for part in problem.get("loc", ()))
    return f"{where}: {problem.get('msg', 'invalid')}"
