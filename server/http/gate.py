"""The gate every HTTP request passes before its route (any route: the API, the pages, the
documents, an unknown address): who is calling, found once and kept on the request for the
routes (server/http/identity.py), and whether they may write now (server/accounts/throttle.py).
Websockets pass untouched: server/http/routes/live.py reads their tokens itself."""

from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Receive, Scope, Send

from server.accounts.throttle import WRITES, client_address
from server.http.identity import authenticate
from server.services import services


class Gate:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        connection = HTTPConnection(scope)
        try:
            identity = await authenticate(connection)
            if scope["method"] in WRITES:
                services(connection).throttle.wrote(identity, client_address(connection))
        except Exception as error:
            await _answer(scope, receive, send, error)
            return
        connection.state.identity = identity
        await self.app(scope, receive, send)


async def _answer(scope: Scope, receive: Receive, send: Send, error: Exception) -> None:
    """Answer as the application's own error handlers would have in a route (this runs
    outside them); an error none of them knows goes on up, as from a route."""
    handlers = scope["app"].exception_handlers
    handler = next((handlers[kind] for kind in type(error).__mro__ if kind in handlers), None)
    if handler is None:
        raise error
    response = await handler(Request(scope, receive), error)
    await response(scope, receive, send)
