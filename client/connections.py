"""Keep-alive HTTP/1.1 connections to the server, on asyncio streams.

The client's default way to call. httpx (with httpcore over anyio beneath it) spends some
ten times the CPU of the request itself on each call, and its own request and response
models a few times more (docs/client.md, "Cost"); on a machine that also runs the server,
that CPU is the server's. These connections speak just the HTTP/1.1 that the server (and a
proxy before it) answers with: a status line, headers, and a body of Content-Length bytes,
of chunks, or up to the end of the connection. A caller that needs more (a proxy, HTTP/2,
its own TLS settings) gives the client an httpx.AsyncClient instead. aiohttp, measured
beside these (`python -m benchmarks libraries`), took half again to four fifths more CPU a
request (docs/architecture.md, "Hand-written beside a library").

A connection is reused while the server keeps it open. One that the server closed while it
was idle fails at once, before any answer: the request then goes again on a new connection,
once (the server never saw it). A request that failed later is never sent again.
"""

import asyncio
import ssl
import time
from collections.abc import Mapping
from urllib.parse import urlsplit

import msgspec

# The server drops an idle connection after 5 s (uvicorn's default): leave it before then.
IDLE_SECONDS = 4.0
MAX_IDLE = 64
MAX_HEAD = 64 * 1024
# Far beyond any answer of the server (its largest, a page of events, is a few MiB).
MAX_BODY = 64 * 1024 * 1024
_NO_BODY = frozenset((204, 304))


class Answer(msgspec.Struct, frozen=True):
    status: int
    # Lower-cased names; a header given twice keeps its last value.
    headers: dict[bytes, bytes]
    body: bytes


class ConnectionFailed(Exception):
    """No answer: the server could not be reached, or the connection broke or timed out."""


class _Stale(Exception):
    """A kept connection that the server had closed: nothing was read from it."""


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.idle_since = time.monotonic()

    def usable(self) -> bool:
        fresh = time.monotonic() - self.idle_since < IDLE_SECONDS
        return fresh and not self.reader.at_eof() and not self.writer.is_closing()


class Connections:
    """Connections to the server at `base_url`, each carrying one request at a time."""

    def __init__(self, base_url: str, timeout: float) -> None:
        url = urlsplit(base_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError(f"not an http(s) URL: {base_url!r}")
        self._secure = url.scheme == "https"
        self._host = url.hostname
        self._port = url.port or (443 if self._secure else 80)
        self._prefix = url.path.rstrip("/").encode()
        self._host_header = url.netloc.encode("idna")
        self._timeout = timeout
        self._idle: list[_Connection] = []

    async def request(
        self, method: str, target: str, headers: Mapping[bytes, bytes], body: bytes = b""
    ) -> Answer:
        """One request and its answer; `target` is the path and query under the base URL."""
        head = self._head(method, target, headers, len(body)) + body
        try:
            async with asyncio.timeout(self._timeout):
                connection = self._kept()
                if connection is not None:
                    try:
                        return await self._exchange(connection, method, head, kept=True)
                    except _Stale:
                        pass
                return await self._exchange(await self._open(), method, head, kept=False)
        except TimeoutError as error:
            raise ConnectionFailed(f"no answer within {self._timeout} s") from error

    async def aclose(self) -> None:
        for connection in self._idle:
            connection.writer.close()
        self._idle.clear()

    def _head(self, method: str, target: str, headers: Mapping[bytes, bytes], length: int) -> bytes:
        lines = [
            b"%s %s%s HTTP/1.1" % (method.encode("ascii"), self._prefix, target.encode("ascii")),
            b"Host: " + self._host_header,
            b"Content-Length: %d" % length,
        ]
        lines += [b"%s: %s" % (name, value) for name, value in headers.items()]
        return b"\r\n".join(lines) + b"\r\n\r\n"

    def _kept(self) -> _Connection | None:
        while self._idle:
            connection = self._idle.pop()
            if connection.usable():
                return connection
            connection.writer.close()
        return None

    async def _open(self) -> _Connection:
        context = ssl.create_default_context() if self._secure else None
        try:
            reader, writer = await asyncio.open_connection(
                self._host, self._port, ssl=context, limit=MAX_HEAD
            )
        except OSError as error:
            raise ConnectionFailed(f"cannot connect: {error}") from error
        return _Connection(reader, writer)

    async def _exchange(
        self, connection: _Connection, method: str, head: bytes, *, kept: bool
    ) -> Answer:
        try:
            connection.writer.write(head)
            answer, reusable = await _read_answer(connection.reader, method, kept=kept)
        except _Stale:
            connection.writer.close()
            raise
        except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as e:
            connection.writer.close()
            raise ConnectionFailed(f"the connection failed: {e!r}") from e
        except BaseException:
            # Timed out or cancelled: the answer may still come, for nobody.
            connection.writer.close()
            raise
        if reusable and len(self._idle) < MAX_IDLE:
            connection.idle_since = time.monotonic()
            self._idle.append(connection)
        else:
            connection.writer.close()
        return answer


async def _read_answer(
    reader: asyncio.StreamReader, method: str, *, kept: bool
) -> tuple[Answer, bool]:
    """The answer, and whether the connection may carry another request."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as error:
        if kept and not error.partial:
            raise _Stale from error
        raise
    status_line, *lines = head[:-4].split(b"\r\n")
    version, status_text, *_ = status_line.split(b" ", 2)
    if not version.startswith(b"HTTP/1.") or not status_text.isdigit():
        raise ValueError(f"not an HTTP/1.1 answer: {status_line[:80]!r}")
    status = int(status_text)
    headers = {}
    for line in lines:
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip()
    reusable = headers.get(b"connection", b"").lower() != b"close"
    if method == "HEAD" or status in _NO_BODY or status < 200:
        body = b""
    elif headers.get(b"transfer-encoding", b"").lower() == b"chunked":
        body = await _read_chunks(reader)
    elif (length := headers.get(b"content-length")) is not None:
        body = await reader.readexactly(_bounded(int(length)))
    else:
        body = await reader.read(MAX_BODY + 1)
        _bounded(len(body))
        reusable = False
    return Answer(status, headers, body), reusable


async def _read_chunks(reader: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    total = 0
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            # Trailers, if any, end with an empty line.
            while await reader.readuntil(b"\r\n") != b"\r\n":
                pass
            return b"".join(parts)
        total = _bounded(total + size)
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)


def _bounded(length: int) -> int:
    if not 0 <= length <= MAX_BODY:
        raise ValueError(f"a body of {length} bytes (at most {MAX_BODY})")
    return length
