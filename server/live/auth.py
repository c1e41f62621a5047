"""Who a live socket is (docs/api.md, "Live"): by the Authorization header, `?token=`, or a
token as the first message, sent at once or awaited with `?auth=message`; a spectator
without one, at once with `?auth=none`."""

import asyncio

import msgspec
from fastapi import WebSocket, WebSocketDisconnect

from schema import errors as codes
from schema.errors import Refusal
from schema.live import LiveQuery, TokenMessage
from server.accounts.store import Identity, digest
from server.http.identity import bearer_token, identify
from server.live.revocations import Watch

# A client that authenticates by message must send it at once, unless it said it would.
TOKEN_WAIT_SECONDS = 0.25
# How long a socket opened with ?auth=message waits for its token (a slow link's).
TOKEN_MESSAGE_SECONDS = 10.0
# Why a socket that served a spectator closes when a token comes after all.
TOKEN_LATE = (
    f"the token came after the {TOKEN_WAIT_SECONDS * 1000:g} ms in which one is taken, "
    "while this socket served a spectator; to be known as a player, reconnect with the "
    "token in the Authorization header or in ?token=, or with ?auth=message and the token "
    "as the first message"
)
_decode_token = msgspec.json.Decoder(TokenMessage).decode


async def socket_identity(websocket: WebSocket, query: LiveQuery, watch: Watch) -> Identity | None:
    """Who connects: by the Authorization header (as over HTTP, for clients that can send
    one), `?token=`, or a first message (a browser's way without the token in an address):
    sent at once, or awaited with `?auth=message`; None, a spectator, when no token comes,
    at once with `?auth=none`. The token is watched before it is checked, so that the
    socket ends if it is revoked at any time after (server.live.revocations)."""
    header_token = bearer_token(websocket)
    given = [t for t in (header_token, query.token) if t is not None]
    if len(given) + (query.auth is not None) > 1:
        raise Refusal(
            codes.BAD_AUTHORIZATION,
            "send the token once: in the Authorization header, in ?token=, or as the first "
            "message with ?auth=message (?auth=none: a spectator, with no token)",
        )
    if given:
        return await _identify(websocket, given[0], watch)
    if query.auth == "none":
        return None
    awaited = query.auth == "message"
    try:
        async with asyncio.timeout(TOKEN_MESSAGE_SECONDS if awaited else TOKEN_WAIT_SECONDS):
            first = await receive(websocket)
    except TimeoutError:
        if awaited:
            raise Refusal(
                codes.BAD_MESSAGE,
                f"?auth=message, but no token came within {TOKEN_MESSAGE_SECONDS:g} s",
            ) from None
        return None
    try:
        message = _decode_token(first)
    except msgspec.ValidationError:
        raise Refusal(codes.BAD_MESSAGE, 'the first message may only be {"token": "..."}') from None
    except msgspec.DecodeError:
        raise Refusal(codes.BAD_MESSAGE, "the first message must be JSON") from None
    return await _identify(websocket, message.token, watch)


async def _identify(websocket: WebSocket, token: str, watch: Watch) -> Identity:
    watch.follow(digest(token))
    return await identify(websocket, token)


async def receive(websocket: WebSocket) -> str | bytes:
    """The client's next message, a text or a binary one."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    received: str | bytes | None = message.get("text")
    if received is None:
        received = message.get("bytes") or b""
    return received


def is_token(message: str | bytes) -> bool:
    try:
        _decode_token(message)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return False
    return True
