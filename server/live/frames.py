"""Websocket frames written once for many sockets (server/live/hub.py).

A server's text frame is the same bytes on every socket (unmasked; no compression, which
`skirmish serve` turns off): the live feed frames each message once and writes those bytes
to every socket of the viewers who see it alike. Through ASGI each socket would frame it
again and take a write of its own per message, in a task of its own: with thousands of
spectators that per-socket work was most of a resolution's delay.

`FrameProtocol` is uvicorn's websocket protocol (websockets' sans-I/O one) offering the
application, in the scope's extensions under FRAMES, a `SocketWriter`: a synchronous write
of whole frames to the socket's transport. An application served without it (another ASGI
server, or uvicorn with another `--ws`) sends every message through ASGI instead.
"""

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State

FRAMES = "skirmish.frames"


def text_frames(payloads: list[bytes]) -> bytes:
    """The payloads (UTF-8 JSON) as consecutive text frames, as a server sends them."""
    return b"".join(Frame(Opcode.TEXT, p).serialize(mask=False) for p in payloads)


class SocketWriter:
    """Writes whole frames to one socket, alongside what uvicorn writes for the ASGI
    application (whole frames too, so nothing interleaves within a frame)."""

    def __init__(self, protocol: "FrameProtocol") -> None:
        self._protocol = protocol

    def write(self, frames: bytes) -> bool:
        """Write the frames now, if the socket is open and its transport's buffer below its
        high-water mark; False, writing nothing, otherwise: then the caller sends them
        through ASGI, which waits for the buffer to drain or finds the socket closed."""
        protocol = self._protocol
        if (
            protocol.close_sent
            or protocol.disconnected
            or not protocol.writable.is_set()
            or protocol.conn.state is not State.OPEN
        ):
            return False
        protocol.transport.write(frames)
        return True


class FrameProtocol(WebSocketsSansIOProtocol):
    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        # A refused handshake has no scope: no application runs for it.
        if self.response.status_code == 101:
            self.scope["extensions"][FRAMES] = {"writer": SocketWriter(self)}
