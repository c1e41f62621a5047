"""Real servers for tests: uvicorn on a loopback port, `skirmish serve` in a subprocess, a
database link a test can cut, and the embedded PostgreSQL's processes."""

import asyncio
import contextlib
import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import uvicorn
from fastapi import FastAPI

from server.ops.database import _alive, _embedded_postgres
from server.ops.serve import PROTOCOLS, WEBSOCKET_OPTIONS


@contextlib.asynccontextmanager
async def running(
    app: FastAPI, *, send_buffer: int | None = None, port: int = 0
) -> AsyncIterator[str]:
    """Serve the app with uvicorn, lifespan and all; yields its base URL. The listening
    socket is named TCP, so that asyncio sets TCP_NODELAY on the connections it accepts (it
    checks the protocol), as it does for `skirmish serve`: otherwise a response written in
    two parts waits for the client's delayed ACK, 40 ms a request. `send_buffer` sets the
    kernel's send buffer of every connection (inherited from the listening socket), so that
    a client that stops reading blocks the server's writes soon. `port` (0: any free one)
    serves again where a server stopped, its old connections still closing."""
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if send_buffer is not None:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    listening.bind(("127.0.0.1", port))
    # Listening now, so that requests made before startup completes wait in the backlog.
    listening.listen()
    port = listening.getsockname()[1]
    config = uvicorn.Config(
        app, lifespan="on", log_level="warning", **PROTOCOLS, **WEBSOCKET_OPTIONS
    )
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
        # Both ends of every relayed connection since the last cut.
        self._links: set[asyncio.StreamWriter] = set()
        self.port = 0

    @property
    def url(self) -> str:
        netloc = f"{self._user}@127.0.0.1:{self.port}"
        return urlunsplit(("postgresql", netloc, self._path, urlencode(self._query), ""))

    async def restore(self) -> None:
        link = self._links
        self._server = await asyncio.start_server(
            lambda reader, writer: self._relay(link, reader, writer), "127.0.0.1", self.port
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        # Connections accepted before the cut whose relay has not started yet see a new set.
        links, self._links = self._links, set()
        for writer in links:
            writer.close()

    async def _relay(
        self,
        links: set[asyncio.StreamWriter],
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        """Relay one connection, unless the link it came through has been cut since."""
        if links is not self._links:
            writer.close()
            return
        links.add(writer)
        if self._upstream_socket:
            up_reader, up_writer = await asyncio.open_unix_connection(self._upstream_socket)
        else:
            up_reader, up_writer = await asyncio.open_connection(*self._upstream)
        if links is not self._links:  # cut while the upstream side opened
            up_writer.close()
            return
        links.add(up_writer)
        await asyncio.gather(
            self._pipe(links, reader, up_writer),
            self._pipe(links, up_reader, writer),
            return_exceptions=True,
        )

    async def _pipe(
        self,
        links: set[asyncio.StreamWriter],
        source: asyncio.StreamReader,
        sink: asyncio.StreamWriter,
    ) -> None:
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        finally:
            links.discard(sink)
            sink.close()


def running_url(data_dir: Path) -> str | None:
    """The URL of the embedded server running from `data_dir`, or None; starts nothing."""
    info = _embedded_postgres().utils.PostmasterInfo.read_from_pgdata(data_dir.absolute())
    if info is None or not _alive(info):
        return None
    url: str = info.get_uri()
    return url


def postmaster_pid(data_dir: Path) -> int:
    """The PostgreSQL server running from `data_dir` (as its pid file says)."""
    return int((data_dir / "postmaster.pid").read_text().split()[0])


def kill_9(pid: int) -> None:
    """SIGKILL, returning once the process has died (not our child: wait on a pidfd)."""
    descriptor = os.pidfd_open(pid)
    try:
        os.kill(pid, signal.SIGKILL)
        ready, _, _ = select.select([descriptor], [], [], 10)
        assert ready, f"process {pid} survived SIGKILL"
    finally:
        os.close(descriptor)


def processes_of(data_dir: Path) -> list[int]:
    """The processes whose command line names `data_dir`: a PostgreSQL server's postmaster."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue  # it ended while we looked
            if str(data_dir) in command:
                found.append(int(entry.name))
    return found


SKIRMISH = Path(sys.executable).parent / "skirmish"


async def run_skirmish(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`skirmish ARGS` against `database_url`, in a thread; its output captured."""
    return await asyncio.to_thread(
        subprocess.run,
        [str(SKIRMISH), *args],
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# GET /v1/health of a server whose read models are whole and current, every loop running.
HEALTHY = {
    "status": "ok",
    "database": "ok",
    "read_models": "ok",
    "lag": {"events": 0, "seconds": 0.0, "lagging": False},
    "stopped": [],
}
# How soon SIGTERM must end `skirmish serve`, whatever state it is in (docs/operations.md).
STOP_SECONDS = 10.0


@contextlib.asynccontextmanager
async def serve_subprocess(
    *options: str,
    environment: Mapping[str, str],
    log: list[str] | None = None,
    cwd: Path | None = None,
    killable: bool = False,
) -> AsyncIterator[str]:
    """`skirmish serve --port 0 OPTIONS` in a subprocess (in `cwd` if given); yields its
    base URL once uvicorn listens. On the way out it is stopped with SIGTERM, and must have
    exited cleanly within STOP_SECONDS: status 0 and no traceback in its log. Its whole log
    ends up in `log`. `killable`: it runs in a process group of its own, which the test may
    kill whole (os.killpg), as a machine that dies; then its status is SIGKILL's. Without a
    data directory (SKIRMISH_DATA_DIR, --data-dir) it has a temporary one, so that what it
    keeps there (the operator's token, when it has none) stays out of the user's."""
    with tempfile.TemporaryDirectory(prefix="skirmish-data-") as data_dir:
        environment = {"SKIRMISH_DATA_DIR": data_dir, **environment}
        async with _serve_subprocess(
            options, environment, [] if log is None else log, cwd, killable
        ) as base:
            yield base


@contextlib.asynccontextmanager
async def _serve_subprocess(
    options: Sequence[str],
    environment: Mapping[str, str],
    log: list[str],
    cwd: Path | None,
    killable: bool,
) -> AsyncIterator[str]:
    process = await asyncio.create_subprocess_exec(
        str(SKIRMISH),
        *("serve", "--port", "0", *options),
        env=dict(environment),
        cwd=cwd,
        start_new_session=killable,
        # Its log, and uvicorn's access log (on standard output), in one.
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output = process.stdout
    assert output is not None
    draining: asyncio.Task[bytes] | None = None
    try:
        async with asyncio.timeout(60):
            while not (match := re.search(r"Uvicorn running on (http://\S+)", "".join(log))):
                line = await output.readline()
                assert line, f"serve exited early:\n{''.join(log)}"
                log.append(line.decode())
        # The rest of its log is read on the way out; meanwhile it must not block on a pipe.
        draining = asyncio.create_task(output.read())
        yield match[1]
    finally:
        stopping = time.monotonic()
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(30):
                status = await process.wait()
        except TimeoutError:
            process.kill()
            status = await process.wait()
        took = time.monotonic() - stopping
        if draining is not None:
            log.append((await draining).decode())
    assert status == 0 or (killable and status == -signal.SIGKILL), "".join(log)
    assert "Traceback" not in "".join(log), "".join(log)
    assert took < STOP_SECONDS, f"stopping took {took:.1f} s:\n{''.join(log)}"
