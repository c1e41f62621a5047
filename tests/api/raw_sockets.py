"""Websocket clients of /live that cost next to nothing, to open thousands at once: the
handshake, the server's (unmasked, whole) text frames, its close frame, pongs. A test that
needs a handful of sockets uses support.Live instead."""

import asyncio
import json
import os
import resource
from base64 import b64encode
from urllib.parse import urlencode, urlsplit

import pytest

from tests.api.support import WAIT_SECONDS, Json

# Handshakes under way at once while a client opens many sockets.
CONNECTING = 100
_TEXT, _CLOSE, _PING = 0x1, 0x8, 0x9


def enough_files(wanted: int) -> None:
    """Raise this process's soft limit on open files to `wanted` (each socket is two files
    in a test: the client's end and the server's), or skip if the hard limit is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"needs {wanted} open files; the hard limit (ulimit -Hn) is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


class RawSocket(asyncio.Protocol):
    def __init__(self, request: bytes) -> None:
        self._request = request
        self._buffer = bytearray()
        self._open = False
        self._transport: asyncio.Transport | None = None
        self.messages: list[Json] = []
        self.close_code: int | None = None
        self.close_reason = ""
        # Set once refused or closed, or caught up (its `standings` arrived).
        self.settled = asyncio.Event()

    @property
    def refused(self) -> bool:
        return bool(self.messages) and self.messages[0]["type"] == "error"

    def reached(self, position: int) -> bool:
        return any(m["position"] >= position for m in self.messages)

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        transport.write(self._request)

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._open:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            assert self._buffer.startswith(b"HTTP/1.1 101"), bytes(self._buffer[:80])
            del self._buffer[: end + 4]
            self._open = True
        while (frame := self._frame()) is not None:
            opcode, payload = frame
            if opcode == _TEXT:
                message = json.loads(payload)
                self.messages.append(message)
                if message["type"] == "standings":
                    self.settled.set()
            elif opcode == _PING:
                self._send(0xA, payload)
            elif opcode == _CLOSE:
                self.close_code = int.from_bytes(payload[:2], "big")
                self.close_reason = payload[2:].decode()
                self._send(_CLOSE, payload[:2])
                self.close()

    def _frame(self) -> tuple[int, bytes] | None:
        if len(self._buffer) < 2:
            return None
        opcode, size, start = self._buffer[0] & 0x0F, self._buffer[1] & 0x7F, 2
        if size == 126:
            size, start = int.from_bytes(self._buffer[2:4], "big"), 4
        elif size == 127:
            size, start = int.from_bytes(self._buffer[2:10], "big"), 10
        if len(self._buffer) < start + size:
            return None
        payload = bytes(self._buffer[start : start + size])
        del self._buffer[: start + size]
        return opcode, payload

    def _send(self, opcode: int, payload: bytes) -> None:
        """A short control frame, masked (with a zero key) as every client frame must be."""
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + bytes(4) + payload)

    def connection_lost(self, exc: Exception | None) -> None:
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
    lines = [
        f"GET /v1/games/{game_id}/live?{urlencode(query)} HTTP/1.1",
        f"Host: {urlsplit(base).netloc}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {b64encode(os.urandom(16)).decode()}",
        "Sec-WebSocket-Version: 13",
        *(f"{name}: {value}" for name, value in (headers or {}).items()),
    ]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode()
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
