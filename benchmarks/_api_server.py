"""The API benchmark's server and its clients' HTTP: the app under uvicorn in a subprocess,
as `skirmish serve` runs it (its websocket options and garbage collector thresholds, without
its per-request access log), so that its memory and CPU
can be read from /proc; and a small HTTP/1.1 client, which must cost the server's CPU as
little as can be."""

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from typing import Any

from server.game.homes import sockets_directory
from server.ops.workers import listen

OPERATOR = "benchmark-operator-token"
# The bare endpoint (in this server only, never in the application): one event appended to
# a stream of the caller's choosing, its body as the event's data, nothing else. What the
# server does for a request that writes one event, beside which to weigh order submissions.
BARE = "/benchmark/append/{stream}"
# A worker: the app under uvicorn on the listening socket it inherited (file descriptor
# argv[1]), as `skirmish serve` runs each (server/ops/workers.py: one socket that every worker
# accepts on, so the kernel spreads the connections to one port over them).
_SERVER = """
import gc, socket, sys, uuid
import uvicorn
from fastapi import Request
from fastapi.responses import Response
from eventstore.base import NewEvent
from server.app import create_app
from server.clock import SystemClock
from server.game.homes import Places
from server.ops.serve import GC_THRESHOLDS, PROTOCOLS, WEBSOCKET_OPTIONS
app = create_app(places=Places(sys.argv[3], int(sys.argv[4]), int(sys.argv[5])))
clock = SystemClock()
async def bare(request: Request, stream: str) -> Response:
    event = NewEvent(event_id=uuid.uuid4(), type="benchmark_appended.v1",
                     data=await request.body(), occurred_at=clock.now(), actor="benchmark",
                     correlation_id=uuid.uuid4())
    result = await request.app.state.services.store.append(f"bench-{stream}", [event], None)
    return Response(f'{{"position":{result.position}}}', media_type="application/json")
app.add_api_route(sys.argv[2], bare, methods=["POST"])
class Announcing(uvicorn.Server):
    async def startup(self, sockets=None):
        await super().startup(sockets)
        print("serving", flush=True)
gc.set_threshold(*GC_THRESHOLDS)
listening = socket.socket(fileno=int(sys.argv[1]))
config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                        loop="uvloop", **PROTOCOLS, **WEBSOCKET_OPTIONS)
Announcing(config).run(sockets=[listening])
"""


@contextlib.asynccontextmanager
async def server(url: str, workers: int = 1) -> AsyncIterator[tuple[int, list[int]]]:
    """The server in `workers` subprocesses on one port; yields the port and their pids."""
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
    processes: list[asyncio.subprocess.Process] = []
    with listen("127.0.0.1", 0) as listening, sockets_directory() as homes:
        port = listening.getsockname()[1]
        fd = str(listening.fileno())
        try:
            for place in range(workers):
                processes.append(
                    await asyncio.create_subprocess_exec(
                        sys.executable,
                        "-c",
                        _SERVER,
                        fd,
                        BARE,
                        homes,
                        str(place),
                        str(workers),
                        env=environment,
                        pass_fds=[listening.fileno()],
                        stdout=asyncio.subprocess.PIPE,
                    )
                )
            await _until_served(processes)
            yield port, [process.pid for process in processes]
        finally:
            for process in processes:
                if process.returncode is None:
                    process.terminate()
            for process in processes:
                await process.wait()


async def _until_served(processes: list[asyncio.subprocess.Process]) -> None:
    """Until every worker says it serves: measuring while one still starts would leave the
    others all the connections."""
    async with asyncio.timeout(60):
        for process in processes:
            assert process.stdout is not None
            assert await process.stdout.readline() == b"serving\n", "the server did not start"


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
        status, _, answer = await self.request(method, path, body, token)
        return status, json.loads(answer) if answer else None

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """The answer's status, headers (by lower-case name) and body as it came (a picture
        is not JSON)."""
        content = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(content)}\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        for name, value in (headers or {}).items():
            head += f"{name}: {value}\r\n"
        self._writer.write(head.encode() + b"\r\n" + content)
        received = (await self._reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        status = int(received[9:12])
        answered = {}
        for line in received.split("\r\n")[1:]:
            name, _, value = line.partition(":")
            answered[name.strip().lower()] = value.strip()
        length = int(answered.get("content-length", "0"))
        return status, answered, await self._reader.readexactly(length)

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
