"""The HTTP halves of `python -m benchmarks libraries`: the app under uvicorn in subprocesses
on loopback, one with server/http/cors.py and one with Starlette's CORSMiddleware outermost
instead, each with a bare route that answers without the database; and loads of requests
through client/connections.py or aiohttp, timed one by one."""

import asyncio
import contextlib
import os
import statistics
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass

import aiohttp

from benchmarks._processes import cpu_seconds
from client.connections import Connections
from server.ops.workers import listen

OPERATOR = "benchmark-operator-token"
# A page allowed to call the API: listed, as an operator who names origins would.
ORIGIN = "https://front.example"
# The bare route (in these servers only): a fixed small JSON answer, no token, no database.
HELLO = "/benchmark/hello"
# A preflight as a browser sends it before a player's orders.
PREFLIGHT = {
    b"origin": ORIGIN.encode(),
    b"access-control-request-method": b"PUT",
    b"access-control-request-headers": b"authorization, content-type",
}
SIMPLE = {b"origin": ORIGIN.encode()}
# argv: the listening socket's descriptor, the CORS middleware (serving's `cors`), the origin
# allowed, the bare route's path.
_SERVER = """
import gc, socket, sys
import uvicorn
from fastapi.responses import Response
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from server.app import create_app
from server.http import cors
from server.ops.serve import GC_THRESHOLDS, PROTOCOLS
app = create_app()
starlettes = Middleware(CORSMiddleware, allow_origins=[sys.argv[3]], allow_methods=cors.METHODS,
                        allow_headers=cors.HEADERS, expose_headers=cors.EXPOSED,
                        max_age=cors.MAX_AGE_SECONDS)
# The outermost first: the request ids and the metrics, then where create_app puts ours.
if sys.argv[2] == "starlette":
    app.user_middleware.insert(0, starlettes)
elif sys.argv[2] == "starlette-inside":
    app.user_middleware.insert(2, starlettes)
BODY = b'{"id":"g-0123456789","name":"Benchmark","phase":"running","turn":3,"players":5}'
async def hello() -> Response:
    return Response(BODY, media_type="application/json")
app.add_api_route(sys.argv[4], hello, methods=["GET"])
class Announcing(uvicorn.Server):
    async def startup(self, sockets=None):
        await super().startup(sockets)
        print("serving", flush=True)
gc.set_threshold(*GC_THRESHOLDS)
listening = socket.socket(fileno=int(sys.argv[1]))
config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                        loop="uvloop", **PROTOCOLS)
Announcing(config).run(sockets=[listening])
"""


@dataclass(frozen=True)
class Served:
    base: str
    pid: int


@contextlib.asynccontextmanager
async def serving(url: str, cors: str) -> AsyncIterator[Served]:
    """The app in a subprocess on 127.0.0.1, its CORS middleware `cors` ("ours": the
    operator lists ORIGIN; "starlette": ours off, Starlette's outermost with the same
    policy, before the request ids and the metrics; "starlette-inside": Starlette's in
    ours' place, after them)."""
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "SKIRMISH_OPERATOR_TOKEN": OPERATOR,
        "SKIRMISH_RATE_LIMITS": "off",
        "SKIRMISH_CORS_ORIGINS": ORIGIN if cors == "ours" else "off",
    }
    with listen("127.0.0.1", 0) as listening:
        fd = listening.fileno()
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-c", _SERVER, str(fd), cors, ORIGIN, HELLO),
            env=environment,
            pass_fds=[fd],
            stdout=asyncio.subprocess.PIPE,
        )
        try:
            async with asyncio.timeout(60):
                assert process.stdout is not None
                assert await process.stdout.readline() == b"serving\n", "no server"
            yield Served(f"http://127.0.0.1:{listening.getsockname()[1]}", process.pid)
        finally:
            if process.returncode is None:
                process.terminate()
            await process.wait()


@dataclass(frozen=True)
class Figures:
    per_second: float
    p99_ms: float
    client_cpu_us: float  # this process's CPU per request
    server_cpu_us: float  # the server's CPU per request


Request = Callable[[], Awaitable[None]]


async def load(request: Request, server_pid: int, *, clients: int, requests: int) -> Figures:
    """`requests` requests, `clients` at a time, each client sending its next as soon as
    its answer is in."""
    for _ in range(clients):  # connections opened, code warmed
        await request()
    latencies: list[float] = []

    async def client(count: int) -> None:
        for _ in range(count):
            started = time.perf_counter()
            await request()
            latencies.append(time.perf_counter() - started)

    cpu, server_cpu, started = time.process_time(), cpu_seconds([server_pid]), time.perf_counter()
    await asyncio.gather(*(client(requests // clients) for _ in range(clients)))
    elapsed = time.perf_counter() - started
    cpu, server_cpu = time.process_time() - cpu, cpu_seconds([server_pid]) - server_cpu
    done = len(latencies)
    p99 = statistics.quantiles(latencies, n=100)[98] if done > 1 else latencies[0]
    return Figures(done / elapsed, p99 * 1000, cpu / done * 1e6, server_cpu / done * 1e6)


def through_ours(connections: Connections, headers: Mapping[bytes, bytes], method: str) -> Request:
    async def request() -> None:
        target = "/v1/games" if method == "OPTIONS" else HELLO
        answer = await connections.request(method, target, headers)
        _check(answer.status, answer.headers.get(b"access-control-allow-origin"), headers)

    return request


def through_aiohttp(session: aiohttp.ClientSession) -> Request:
    async def request() -> None:
        async with session.get(HELLO, headers={"Origin": ORIGIN}) as response:
            await response.read()
            allowed = response.headers.get("Access-Control-Allow-Origin")
            _check(response.status, None if allowed is None else allowed.encode(), SIMPLE)

    return request


def _check(status: int, allowed: bytes | None, sent: Mapping[bytes, bytes]) -> None:
    """Every answer is the one asked for: a figure of refusals would measure nothing."""
    if status not in (200, 204):
        raise RuntimeError(f"answered {status}")
    if b"origin" in sent and allowed != ORIGIN.encode():
        raise RuntimeError(f"the page may not read the answer: {allowed!r}")
