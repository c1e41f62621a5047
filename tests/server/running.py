"""Real servers for tests: uvicorn on a loopback port, and a database link a test can cut."""

import asyncio
import contextlib
import re
import signal
import socket
import sys
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import uvicorn
from fastapi import FastAPI

from server.serve import WEBSOCKET_OPTIONS


@contextlib.asynccontextmanager
async def running(app: FastAPI, *, send_buffer: int | None = None) -> AsyncIterator[str]:
    """Serve the app with uvicorn, lifespan and all; yields its base URL. The listening
    socket is named TCP, so that asyncio sets TCP_NODELAY on the connections it accepts (it
    checks the protocol), as it does for `skirmish serve`: otherwise a response written in
    two parts waits for the client's delayed ACK, 40 ms a request. `send_buffer` sets the
    kernel's send buffer of every connection (inherited from the listening socket), so that
    a client that stops reading blocks the server's writes soon."""
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    if send_buffer is not None:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    listening.bind(("127.0.0.1", 0))
    # Listening now, so that requests made before startup completes wait in the backlog.
    listening.listen()
    port = listening.getsockname()[1]
    config = uvicorn.Config(app, lifespan="on", log_level="warning", **WEBSOCKET_OPTIONS)
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[listening]))
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await serving
        listening.close()


class CuttableLink:
    """A TCP relay in front of the database: `cut()` drops every connection and refuses new
    ones, as when the database host goes away; `restore()` lets them through again."""

    def __init__(self, database_url: str) -> None:
        parts = urlsplit(database_url)
        query = dict(parse_qsl(parts.query))
        socket_dir = query.pop("host", None)
        if socket_dir:
            self._upstream_socket: str | None = f"{socket_dir}/.s.PGSQL.{parts.port or 5432}"
        else:
            self._upstream_socket = None
        self._upstream = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._user = parts.username or "postgres"
        self._path = parts.path
        self._query = query
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.port = 0

    @property
    def url(self) -> str:
        netloc = f"{self._user}@127.0.0.1:{self.port}"
        return urlunsplit(("postgresql", netloc, self._path, urlencode(self._query), ""))

    async def restore(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for writer in list(self._writers):
            writer.close()
        self._writers.clear()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._upstream_socket:
            up_reader, up_writer = await asyncio.open_unix_connection(self._upstream_socket)
        else:
            up_reader, up_writer = await asyncio.open_connection(*self._upstream)
        self._writers |= {writer, up_writer}
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        finally:
            self._writers.discard(sink)
            sink.close()


SKIRMISH = Path(sys.executable).parent / "skirmish"


@contextlib.asynccontextmanager
async def serve_subprocess(*options: str, environment: Mapping[str, str]) -> AsyncIterator[str]:
    """`skirmish serve --port 0 OPTIONS` in a subprocess; yields its base URL once uvicorn
    listens. On the way out it is stopped with SIGTERM, and must have exited cleanly: status
    0 and no traceback in its log."""
    process = await asyncio.create_subprocess_exec(
        str(SKIRMISH),
        *("serve", "--port", "0", *options),
        env=dict(environment),
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    log: list[str] = []
    draining: asyncio.Task[bytes] | None = None
    try:
        async with asyncio.timeout(60):
            while not (match := re.search(r"Uvicorn running on (http://\S+)", "".join(log))):
                line = await process.stderr.readline()
                assert line, f"serve exited early:\n{''.join(log)}"
                log.append(line.decode())
        # The rest of its log is read on the way out; meanwhile it must not block on a pipe.
        draining = asyncio.create_task(process.stderr.read())
        yield match[1]
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(30):
                status = await process.wait()
        except TimeoutError:
            process.kill()
            status = await process.wait()
        if draining is not None:
            log.append((await draining).decode())
    assert status == 0, "".join(log)
    assert "Traceback" not in "".join(log), "".join(log)
