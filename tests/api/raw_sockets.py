"""Websocket clients of /live that cost next to nothing, to open thousands at once: the
handshake, the server's (unmasked, whole) text frames, its close frame, pongs. A test that
needs a handful of sockets uses support.Live instead."""

import asyncio
import json
import resource
from urllib.parse import urlencode, urlsplit

import pytest

from benchmarks._websocket import RawWebsocket, upgrade_request
from tests.api.support import WAIT_SECONDS, Json

# Handshakes under way at once while a client opens many sockets.
CONNECTING = 100


def enough_files(wanted: int) -> None:
    """Raise this process's soft limit on open files to `wanted` (each socket is two files
    in a test: the client's end and the server's), or skip if the hard limit is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"needs {wanted} open files; the hard limit (ulimit -Hn) is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


class RawSocket(RawWebsocket):
    """Keeps every message, and every byte received; settled once refused or closed, or
    caught up (its `standings` arrived)."""

    def __init__(self, request: bytes) -> None:
        super().__init__(request)
        self.messages: list[Json] = []
        self.received = bytearray()
        self.settled = asyncio.Event()

    def data_received(self, data: bytes) -> None:
        self.received += data
        super().data_received(data)

    @property
    def refused(self) -> bool:
        return bool(self.messages) and self.messages[0]["type"] == "error"

    def reached(self, position: int) -> bool:
        return any(m["position"] >= position for m in self.messages)

    def on_text(self, payload: bytes) -> None:
        message = json.loads(payload)
        self.messages.append(message)
        if message["type"] == "standings":
            self.settled.set()

    def on_end(self) -> None:
        self.settled.set()


async def open_raw(
    base: str,
    game_id: str,
    count: int,
    *,
    after: int = 0,
    token: str | None = None,
    headers: dict[str, str] | None = None,
) -> list[RawSocket]:
    """Open `count` sockets alike, CONNECTING at a time, each until it is caught up or
    refused."""
    query: dict[str, str | int] = {"after": after}
    if token is not None:
        query["token"] = token
    target = f"/v1/games/{game_id}/live?{urlencode(query)}"
    request = upgrade_request(urlsplit(base).netloc, target, headers)
    host, port = urlsplit(base).hostname, urlsplit(base).port
    assert host is not None
    assert port is not None
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(CONNECTING)
    sockets: list[RawSocket] = []

    async def one() -> None:
        async with gate, asyncio.timeout(WAIT_SECONDS):
            _, raw = await loop.create_connection(lambda: RawSocket(request), host, port)
            sockets.append(raw)
            await raw.settled.wait()

    await asyncio.gather(*(one() for _ in range(count)))
    return sockets
