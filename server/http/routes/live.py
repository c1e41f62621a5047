"""GET /v1/games/{game}/live: the websocket of docs/api.md ("Live"), and /asyncapi.json, its
contract."""

import asyncio
import contextlib
import random

import msgspec
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

from eventstore.base import EventStore
from projections.loading import stream_of
from projections.states import Loaded
from schema import errors as codes
from schema.errors import Refusal
from schema.game_events import game_codec
from schema.live import ErrorMessage, LiveQuery, PingMessage
from server.accounts.store import Identity
from server.game.decide.acting import existing
from server.http.api import json_response
from server.http.asyncapi import asyncapi_document
from server.live.auth import TOKEN_LATE, is_token, receive, socket_identity
from server.live.feed import viewer_of
from server.live.frames import FRAMES, SocketWriter
from server.live.hub import Client, Ending, GameFeed, Joined, messages_for
from server.live.revocations import Watch
from server.services import Services, services

router = APIRouter()
PING_SECONDS = 20.0
# How long an ended client's socket may take to accept its close frame.
END_CLOSE_SECONDS = 10.0
# The close of a socket whose token was revoked (or rotated) while it was open.
REVOKED = Ending(4401, "the token this socket was opened with was revoked")
# A client with more events than this to catch up on starts from a snapshot of the game
# instead: what a connection costs to start must not grow with the game's history.
SNAPSHOT_BEYOND = 200
# Events read at a time while catching up: most of what one connection holds.
_PAGE = 50
_encode = msgspec.json.Encoder().encode


@router.get("/asyncapi.json", include_in_schema=False)
async def asyncapi() -> Response:
    return json_response(asyncapi_document())


@router.websocket("/v1/games/{game}/live")
async def live(websocket: WebSocket, game: str) -> None:
    await websocket.accept()
    found = services(websocket)
    with found.live.sockets.seat() as seat, found.revocations.watching() as watch:
        try:
            # Counted first, so that a flood from one address costs little beyond handshakes.
            seat.take_address(_address(websocket))
            query = _query(websocket)
            identity = await socket_identity(websocket, query, watch)
            seat.take_account(identity)
            loaded = await found.games.load(game)
            existing(loaded.state)
        except Refusal as error:
            await _refuse(websocket, 4000 + error.status, error.message)
            return
        await _serve(websocket, found, game, loaded, identity, query.after, watch)


async def _serve(
    websocket: WebSocket,
    found: Services,
    game: str,
    loaded: Loaded,
    identity: Identity | None,
    after: int,
    watch: Watch,
) -> None:
    """Catch up, then follow live until the client leaves, falls behind or its token is
    revoked."""
    handler = asyncio.current_task()
    assert handler is not None
    # A socket carries only the reader's own seats' private events, and does not reveal a
    # resolved turn's submissions: the catch-up must send what a client that followed was
    # sent as they happened.
    viewer = viewer_of(loaded.state, identity).own_seats_only()
    client = Client(viewer, _writer(websocket))
    # From the moment it is revoked (perhaps already), nothing more is sent.
    watch.on_revoked(lambda: client.end(REVOKED))
    hub = found.live
    # Nobody has seen beyond the game's last event, which `loaded` read from the database
    # (a client coming from another process may be ahead of this process's feed, never of
    # the database); a position past it would hold back every event until it is reached.
    after = min(max(after, 0), loaded.position)
    feed, joined = await hub.join(game, client, after)
    # A client that is ended (too far behind, or its token revoked) stops at once, even if
    # this handler is stuck writing to a socket that nobody reads: it is cancelled.
    client.on_end = handler.cancel
    token_late = False
    try:
        try:
            if client.ending is None:
                await _catch_up(websocket, found, feed, client, after, joined)
                token_late = await _send_live(websocket, client, feed, tokenless=identity is None)
        finally:
            # From here on an ending must not cancel the handler's cleaning up.
            client.on_end = None
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        if client.ending is None or handler.cancelling() > 1:
            raise
        handler.uncancel()
    finally:
        await hub.release(feed, client)
    if client.ending is not None:
        await _end(websocket, client.ending, client.delivered)
    elif token_late:
        await _refuse(websocket, 4400, TOKEN_LATE, position=client.delivered)


def _writer(websocket: WebSocket) -> SocketWriter | None:
    """The socket's writer of shared frames, if the server offers one (server/live/frames.py)."""
    offered = websocket.scope.get("extensions", {}).get(FRAMES)
    return None if offered is None else offered["writer"]


def _address(websocket: WebSocket) -> str:
    """The client's address: the peer's, or the one a trusted proxy forwarded (uvicorn's
    --forwarded-allow-ips)."""
    return websocket.client.host if websocket.client is not None else "unknown"


def _query(websocket: WebSocket) -> LiveQuery:
    """The query string, as /asyncapi.json describes it (LiveQuery)."""
    try:
        return msgspec.convert(dict(websocket.query_params), LiveQuery, strict=False)
    except msgspec.ValidationError as error:
        raise Refusal(codes.INVALID_REQUEST, f"the query: {error}") from None


async def _catch_up(
    websocket: WebSocket,
    found: Services,
    feed: GameFeed,
    client: Client,
    after: int,
    joined: Joined,
) -> None:
    covered = joined.position
    if await _far_behind(found.store, feed.game_id, after, joined):
        await _send(websocket, feed.snapshot(joined.state, covered))
        client.delivered = covered
    else:
        await _replay(websocket, found.store, feed, client, after, covered)
    # At the position the catch-up covered, not the feed's own, which may have moved on: the
    # events in between are in the client's backlog, and a client that reconnects from this
    # message's position must still receive them.
    await _send(websocket, _encode(feed.current_standings(covered)))
    client.delivered = max(client.delivered, covered)


async def _far_behind(store: EventStore, game_id: str, after: int, joined: Joined) -> bool:
    """Whether more than SNAPSHOT_BEYOND events lie in (after, joined.position]. A stream's
    versions count its events one by one (a rewind reuses the versions it archives), so the
    version of the first event after `after` tells how many there are; from the start, as
    many as the game's version."""
    if after >= joined.position:
        return False
    first_version = 1
    if after > 0:
        first = await store.read_stream_after_position(stream_of(game_id), after, limit=1)
        if not first or first[0].position > joined.position:
            return False
        first_version = first[0].version
    return joined.state.version - first_version >= SNAPSHOT_BEYOND


async def _replay(
    websocket: WebSocket,
    store: EventStore,
    feed: GameFeed,
    client: Client,
    after: int,
    covered: int,
) -> None:
    """Every event in (after, covered] that the client may see, page by page."""
    stream = stream_of(feed.game_id)
    position = after
    while position < covered:
        page = await store.read_stream_after_position(stream, position, limit=_PAGE)
        page = [r for r in page if r.position <= covered]
        if not page:
            break
        for recorded in page:
            event = game_codec.decode_recorded(recorded)
            for message in messages_for(client.viewer, recorded, event, feed.state):
                await _send(websocket, _encode(message))
                client.delivered = recorded.position
        position = page[-1].position


async def _send_live(
    websocket: WebSocket, client: Client, feed: GameFeed, *, tokenless: bool
) -> bool:
    """Send the backlog; when it is empty the feed writes to the socket itself, and this
    waits for a backlog, a ping's time, or the client's leaving. Whether it stopped for a
    token that came too late (`_drain_incoming`)."""
    receiver = asyncio.create_task(_drain_incoming(websocket, client, tokenless=tokenless))
    try:
        while not client.left:
            if client.backlog:
                # Left in the backlog while it is sent: what the feed offers meanwhile
                # queues behind it, in order.
                position, data = client.backlog[0]
                await _send(websocket, data)
                client.backlog.popleft()
                client.delivered = position
                continue
            client.following = True
            client.wake.clear()
            # Spread: sockets that connected together must not all ping at once. Woken
            # only by a backlog or leaving, not by every message written.
            if await _woken(client, random.uniform(PING_SECONDS * 0.75, PING_SECONDS)):
                continue
            if client.written:
                client.written = False
                continue
            # Nothing queued, and the feed writes as it dispatches: all up to its position
            # is delivered, so reconnecting from here loses nothing.
            ping = PingMessage(max(client.sent_up_to, feed.position))
            await _send(websocket, _encode(ping))
            client.delivered = ping.position
    finally:
        receiver.cancel()
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect):
            await receiver
    return receiver.done() and not receiver.cancelled() and receiver.result()


async def _woken(client: Client, seconds: float) -> bool:
    """Whether the client's handler was woken within `seconds`."""
    try:
        async with asyncio.timeout(seconds):
            await client.wake.wait()
    except TimeoutError:
        return False
    return True


async def _drain_incoming(websocket: WebSocket, client: Client, *, tokenless: bool) -> bool:
    """Read (and drop) what the client sends until it leaves, then wake the sender so that
    it stops at once; whether it stopped for a token that came too late. A socket that
    received no token in time serves a spectator, and must not go on doing so while its
    client (a slow link delayed its token) takes it for a player's."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await receive(websocket)
            if tokenless and is_token(message):
                client.leave()
                return True
    client.leave()
    return False


async def _send(websocket: WebSocket, data: bytes) -> None:
    """One JSON text frame, from the bytes encoded once for every client alike."""
    try:
        await websocket.send({"type": "websocket.send", "text": data.decode()})
    except RuntimeError as closed:
        # uvicorn closed the socket itself (a ping went unanswered) before the disconnect
        # reached this handler: the ASGI state machine refuses the send.
        raise WebSocketDisconnect(1006) from closed


async def _end(websocket: WebSocket, ending: Ending, delivered: int) -> None:
    """Close an ended client (1013: it fell behind; 4401: its token was revoked) once what
    was already written reaches it; give up on one that reads nothing at all. The error
    message carries the position of the last message written before it, to reconnect
    from."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(END_CLOSE_SECONDS):
            await _refuse(websocket, ending.code, ending.reason, position=delivered)


async def _refuse(websocket: WebSocket, code: int, reason: str, *, position: int = 0) -> None:
    with contextlib.suppress(RuntimeError, WebSocketDisconnect):
        message = ErrorMessage(position, message=reason)
        await websocket.send_text(_encode(message).decode())
        await websocket.close(code=code, reason=reason[:120])
