"""The least of a websocket client, for opening thousands at once (the benchmarks'
spectators, the tests' floods of sockets): the handshake, the server's frames (unmasked,
whole), pongs for its pings, and its close. Subclasses say what to do with a text frame."""

import asyncio
import os
from base64 import b64encode

TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA


def upgrade_request(host: str, target: str, headers: dict[str, str] | None = None) -> bytes:
    """The handshake's request for `target` (a path and its query) on `host` (host:port)."""
    lines = [
        f"GET {target} HTTP/1.1",
        f"Host: {host}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {b64encode(os.urandom(16)).decode()}",
        "Sec-WebSocket-Version: 13",
        *(f"{name}: {value}" for name, value in (headers or {}).items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class RawWebsocket(asyncio.Protocol):
    def __init__(self, request: bytes) -> None:
        self._request = request
        self._buffer = bytearray()
        self._open = False
        self.transport: asyncio.Transport | None = None
        self.close_code: int | None = None
        self.close_reason = ""

    def on_text(self, payload: bytes) -> None:
        """A text frame arrived."""

    def on_end(self) -> None:
        """The server closed the socket, or the connection was lost."""

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
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
            if opcode == TEXT:
                self.on_text(payload)
            elif opcode == PING:
                self._send(PONG, payload)
            elif opcode == CLOSE:
                self.close_code = int.from_bytes(payload[:2], "big")
                self.close_reason = payload[2:].decode()
                self._send(CLOSE, payload[:2])
                self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.on_end()

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
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + bytes(4) + payload)
