"""The API benchmark's server and its clients' HTTP: the app under uvicorn in a subprocess,
as `skirmish serve` runs it (its websocket options and garbage collector thresholds, without
its per-request access log), so that its memory and CPU
can be read from /proc; and a small HTTP/1.1 client, which must cost the server's CPU as
little as can be."""

import asyncio
import contextlib
import json
import os
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

OPERATOR = "benchmark-operator-token"
_SERVER = """
import gc, sys
import uvicorn
from server.app import create_app
from server.serve import GC_THRESHOLDS, PROTOCOLS, WEBSOCKET_OPTIONS
gc.set_threshold(*GC_THRESHOLDS)
uvicorn.run(create_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            access_log=False, lifespan="on", backlog=4096, loop="uvloop", **PROTOCOLS,
            **WEBSOCKET_OPTIONS)
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def server(url: str) -> AsyncIterator[tuple[int, int]]:
    """The server in a subprocess; yields its port and pid."""
    port = _free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "SKIRMISH_OPERATOR_TOKEN": OPERATOR,
        "SKIRMISH_POOL_SIZE": "20",
        # Fifty clients from one address, as fast as they can: far over the rate limits.
        "SKIRMISH_RATE_LIMITS": "off",
        # Every spectator here comes from one address.
        "SKIRMISH_SOCKETS_PER_IP": "1000000",
        "SKIRMISH_SOCKETS_TOTAL": "1000000",
        # The tarpit listens on loopback.
        "SKIRMISH_WEBHOOK_ALLOW_PRIVATE": "1",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _SERVER, str(port), env=environment
    )
    try:
        async with asyncio.timeout(60):
            while True:
                with contextlib.suppress(OSError):
                    connection = await Http.open(port)
                    status, _ = await connection.call("GET", "/v1/health")
                    connection.close()
                    if status == 200:
                        break
                assert process.returncode is None, "the server did not start"
                await asyncio.sleep(0.1)  # polling for the server to listen
        yield port, process.pid
    finally:
        process.terminate()
        await process.wait()


class Http:
    """One keep-alive connection to the server: a request, then its answer, in turn."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    @classmethod
    async def open(cls, port: int) -> "Http":
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        content = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(content)}\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        self._writer.write(head.encode() + b"\r\n" + content)
        headers = await self._reader.readuntil(b"\r\n\r\n")
        status = int(headers[9:12])
        length = 0
        for line in headers.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        answer = await self._reader.readexactly(length)
        return status, json.loads(answer) if answer else None

    def close(self) -> None:
        self._writer.close()


async def call(http: Http, method: str, path: str, body: Any = None, **kw: Any) -> Any:
    status, answer = await http.call(method, path, body, **kw)
    assert status < 300, f"{method} {path}: {status} {answer}"
    return answer


async def new_game(http: Http, players: int) -> tuple[str, str, list[tuple[str, str]]]:
    """A started fast-mode game; its id, its admin's token, and (token, order) per player."""
    tokens = [
        (await call(http, "POST", "/v1/accounts", {"name": f"P{i}"}))["token"]
        for i in range(players)
    ]
    game = await call(
        http, "POST", "/v1/games", {"name": "Bench", "fast_mode": True}, token=tokens[0]
    )
    game_id = game["id"]
    for token in tokens:
        await call(http, "POST", f"/v1/games/{game_id}/join", token=token)
    await call(http, "POST", f"/v1/games/{game_id}/start", token=tokens[0])
    state = await call(http, "GET", f"/v1/games/{game_id}")
    first_army: dict[str, str] = {}
    for territory, player in sorted(state["board"]["armies"].items()):
        first_army.setdefault(player, territory)
    ids = {p["name"]: p["id"] for p in state["players"]}
    orders = [(token, f"{first_army[ids[f'P{i}']]} H") for i, token in enumerate(tokens)]
    return game_id, tokens[0], orders


def rss(pid: int) -> int:
    """The process's resident memory in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """The CPU time the process has used, user and system. Less at the mercy of whatever
    else the machine runs than a rate or a latency."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
