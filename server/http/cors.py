"""Cross-origin requests (CORS), so that a front end served from anywhere can call the API
from a browser. Any origin is allowed unless the operator lists some (docs/operations.md,
SKIRMISH_CORS_ORIGINS): the API's only credentials are bearer tokens that a page must hold
itself, never cookies, so a page of another origin can do nothing with a visitor's browser
that it could not do without it.

This is the outermost middleware: a preflight is answered before the gate (it needs no token
and counts against no limit), and every answer, the gate's 401 and 429 and the body limit's
413 included, tells the browser that the page may read it. Websockets pass untouched: a
browser opens them from any origin, and their tokens are the page's own as well.

Not Starlette's CORSMiddleware, although it costs about as much (`python -m benchmarks
libraries`): it answers a refused preflight with a 400 in plain text rather than the
registry's 403 `cors_refused`, a granted one with 200 rather than 204, and exposes headers
to origins that are not allowed (docs/architecture.md, "Hand-written beside a library")."""

from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from schema import errors as codes
from server.http.errors import error_response

ANY = "*"
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
# What the API reads (server/http/identity.py), and the safelisted headers a browser lists in a
# preflight when their values are not the simple ones.
HEADERS = (
    "Authorization",
    "Content-Type",
    "X-Acting-User",
    "X-Acting-User-Name",
    "X-Acting-User-Admin",
    "Accept",
    "Accept-Language",
    "Content-Language",
)
# A page may read these headers of an answer besides the simple ones.
EXPOSED = ("Retry-After", "X-Request-Id")
# How long a browser may keep a preflight's answer.
MAX_AGE_SECONDS = 3600
_DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origins(text: str) -> tuple[str, ...]:
    """SKIRMISH_CORS_ORIGINS: `*` (any origin), `off` (none: only pages of the server's own
    origin may read its answers), or origins separated by commas, each `scheme://host[:port]`
    as a browser sends it in `Origin` (case and a default port do not matter)."""
    text = text.strip()
    if text == ANY:
        return (ANY,)
    if text == "off":
        return ()
    origins = [_origin(part.strip()) for part in text.split(",") if part.strip()]
    if not origins:
        raise ValueError("write *, off, or origins separated by commas")
    return tuple(dict.fromkeys(origins))


def _origin(text: str) -> str:
    problem = ValueError(f"an origin is scheme://host[:port], http or https: {text!r}")
    try:
        parts = urlsplit(text.lower())
        port = parts.port
    except ValueError:
        raise problem from None
    plain = not (parts.path or parts.query or parts.fragment or parts.username)
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname or not plain:
        raise problem
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    if port is None or port == _DEFAULT_PORTS[parts.scheme]:
        return f"{parts.scheme}://{host}"
    return f"{parts.scheme}://{host}:{port}"


class Cors:
    def __init__(self, app: ASGIApp, origins: tuple[str, ...]) -> None:
        self.app = app
        self.any_origin = ANY in origins
        self.origins = frozenset(origins)
        self.headers = frozenset(header.lower() for header in HEADERS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Headers(scope=scope)
        origin = request.get("origin")
        if scope["method"] == "OPTIONS" and origin and "access-control-request-method" in request:
            response = self._preflight(request, origin)
            self._allow(response.headers, origin)
            await response(scope, receive, send)
            return

        async def allowing(message: Message) -> None:
            if message["type"] == "http.response.start":
                self._allow(MutableHeaders(scope=message), origin)
            await send(message)

        await self.app(scope, receive, allowing)

    def _allowed(self, origin: str) -> bool:
        return self.any_origin or origin in self.origins

    def _allow(self, headers: MutableHeaders, origin: str | None) -> None:
        if not self.any_origin:
            # The answer depends on who asks: a cache must not give it to another origin.
            headers.append("Vary", "Origin")
        if origin is not None and self._allowed(origin):
            headers["Access-Control-Allow-Origin"] = ANY if self.any_origin else origin
            headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSED)

    def _preflight(self, request: Headers, origin: str) -> Response:
        """A browser's question whether a page may send a request: yes for an allowed
        origin, a method of the API and the headers it reads, whatever the path (an unknown
        one is the request's own 404); otherwise a 403 that says why, for the developer."""
        wanted = request.get("access-control-request-headers", "").split(",")
        refused = [
            *([] if self._allowed(origin) else ["the origin " + origin]),
            *([] if request["access-control-request-method"] in METHODS else ["the method"]),
            *sorted({h.strip().lower() for h in wanted if h.strip()} - self.headers),
        ]
        if refused:
            message = f"this cross-origin request is not allowed: {', '.join(refused)}"
            return error_response(codes.CORS_REFUSED, message)
        return Response(
            status_code=204,
            headers={
                "Access-Control-Allow-Methods": ", ".join(METHODS),
                "Access-Control-Allow-Headers": ", ".join(HEADERS),
                "Access-Control-Max-Age": str(MAX_AGE_SECONDS),
            },
        )
