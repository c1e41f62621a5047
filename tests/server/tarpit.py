"""A webhook receiver that never finishes answering, on a loopback port."""

import asyncio
import contextlib
from collections.abc import AsyncIterator

# An answer that never ends: a status line, then one header line that never does.
_ANSWER = b"HTTP/1.1 200 OK\r\nX-Trickle: "


class Tarpit:
    """Accepts every connection and sends one byte of an answer every `every` seconds, for
    ever: each read of a client gets something in time, so that only a deadline on the whole
    request gives up on it. Counts what it holds: also a listener that shows whether anyone
    connected at all."""

    def __init__(self, every: float = 2.0) -> None:
        self.every = every
        self.connections = 0
        self.open = 0
        self.most_open = 0
        self.closed = 0
        self.trickled = 0
        self._handlers: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def serving(self) -> AsyncIterator[str]:
        """Listen on a loopback port; yields the URL of its /hook."""
        server = await asyncio.start_server(self._hold, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            yield f"http://127.0.0.1:{port}/hook"
        finally:
            server.close()
            for handler in list(self._handlers):
                handler.cancel()
            await asyncio.gather(*self._handlers, return_exceptions=True)
            await server.wait_closed()

    async def _hold(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        handler = asyncio.current_task()
        assert handler is not None
        self._handlers.add(handler)
        self.connections += 1
        self.open += 1
        self.most_open = max(self.most_open, self.open)
        trickling = asyncio.create_task(self._trickle(writer))
        try:
            # Held until the client gives up and closes its end.
            while await reader.read(65536):
                pass
        except ConnectionError:
            pass
        finally:
            trickling.cancel()
            await asyncio.gather(trickling, return_exceptions=True)
            writer.close()
            self.open -= 1
            self.closed += 1
            self._handlers.discard(handler)

    async def _trickle(self, writer: asyncio.StreamWriter) -> None:
        sent = 0
        while True:
            byte = _ANSWER[sent : sent + 1] or b"a"
            writer.write(byte)
            await writer.drain()
            sent += 1
            self.trickled += 1
            await asyncio.sleep(self.every)
