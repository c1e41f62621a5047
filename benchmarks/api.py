"""The HTTP and websocket API under load: `python -m benchmarks api [--seconds=N]
[--spectators=1000,5000] [--rounds=N] [--verbose]`.

The server runs as a subprocess (the app under uvicorn, as `skirmish serve` runs it, without
its per-request access log), on DATABASE_URL in a scratch schema (or an embedded PostgreSQL
in a temporary directory), so that its memory can be read from /proc.

1. Order submissions: 50 clients, each on its own keep-alive connection, PUT orders as fast
   as the answers come back, for a few seconds; requests per second and latency
   percentiles. Once spread over five 10-player games, once all on one 20-player game
   (several clients per player), where every append contends for the same stream.
2. Spectators: N websocket spectators of one game; an admin resolves the turn, and each
   spectator notes when its `resolved` message arrives. The figures are the times from
   sending the resolve request to each arrival, over all spectators and rounds, and the
   growth of the server's resident memory per connection. The clients speak just enough
   of the websocket protocol (no compression offered, pongs for pings) to be cheap: on a
   two-core machine the clients share the CPU with the server and the database.
"""

import asyncio
import base64
import contextlib
import gc
import json
import os
import resource
import socket
import statistics
import sys
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from benchmarks._database import scratch_database
from benchmarks._table import print_table

CLIENTS = 50
SECONDS = 5.0
SPECTATORS = (1000, 5000)
ROUNDS = 5
OPERATOR = "benchmark-operator-token"
# How many websocket handshakes are under way at once while spectators connect.
CONNECTING = 250
_SERVER = """
import sys
import uvicorn
from server.app import create_app
uvicorn.run(create_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            access_log=False, lifespan="on", backlog=4096)
"""


def main(argv: Sequence[str]) -> None:
    options = dict(a.removeprefix("--").split("=", 1) for a in argv if "=" in a)
    seconds = float(options.get("seconds", SECONDS))
    spectators = tuple(int(n) for n in options.get("spectators", "1000,5000").split(","))
    rounds = int(options.get("rounds", ROUNDS))
    _raise_file_limit(max(spectators) * 2 + 1000)
    verbose = "--verbose" in argv
    orders, fan_out = asyncio.run(_run(seconds, spectators, rounds, verbose))
    print_table(
        ["order submissions", "clients", "requests", "per second", "p50 ms", "p99 ms", "errors"],
        orders,
    )
    print()
    print_table(
        [
            "spectators",
            "resolutions",
            "resolved p50 ms",
            "resolved p99 ms",
            "last one ms (median)",
            "RSS growth MB",
            "KB per connection",
        ],
        fan_out,
    )


def _raise_file_limit(wanted: int) -> None:
    """Each spectator is a socket here and one in the server (which inherits the limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(max(soft, wanted), hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


async def _run(
    seconds: float, spectators: Sequence[int], rounds: int, verbose: bool
) -> tuple[list[list[object]], list[list[object]]]:
    async with scratch_database() as url, _server(url) as (port, pid):
        orders = [
            await _orders(port, games=5, players=10, seconds=seconds),
            await _orders(port, games=1, players=20, seconds=seconds),
        ]
        fan_out = [
            await _fan_out(port, pid, count, rounds, verbose=verbose) for count in spectators
        ]
    return orders, fan_out


# --- The database and the server. ------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def _server(url: str) -> AsyncIterator[tuple[int, int]]:
    """The server in a subprocess; yields its port and pid."""
    port = _free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "SKIRMISH_OPERATOR_TOKEN": OPERATOR,
        "SKIRMISH_POOL_SIZE": "20",
        # Fifty clients from one address, as fast as they can: far over the rate limits.
        "SKIRMISH_RATE_LIMITS": "off",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _SERVER, str(port), env=environment
    )
    try:
        async with asyncio.timeout(60):
            while True:
                with contextlib.suppress(OSError):
                    connection = await _Http.open(port)
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


# --- A small HTTP/1.1 client: the clients must cost the server's CPU as little as can be. --


class _Http:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    @classmethod
    async def open(cls, port: int) -> "_Http":
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


async def _call(http: _Http, method: str, path: str, body: Any = None, **kw: Any) -> Any:
    status, answer = await http.call(method, path, body, **kw)
    assert status < 300, f"{method} {path}: {status} {answer}"
    return answer


async def _game(http: _Http, players: int) -> tuple[str, str, list[tuple[str, str]]]:
    """A started fast-mode game; its id, its admin's token, and (token, order) per player."""
    tokens = [
        (await _call(http, "POST", "/v1/accounts", {"name": f"P{i}"}))["token"]
        for i in range(players)
    ]
    game = await _call(
        http, "POST", "/v1/games", {"name": "Bench", "fast_mode": True}, token=tokens[0]
    )
    game_id = game["id"]
    for token in tokens:
        await _call(http, "POST", f"/v1/games/{game_id}/join", token=token)
    await _call(http, "POST", f"/v1/games/{game_id}/start", token=tokens[0])
    state = await _call(http, "GET", f"/v1/games/{game_id}")
    first_army: dict[str, str] = {}
    for territory, player in sorted(state["board"]["armies"].items()):
        first_army.setdefault(player, territory)
    ids = {p["name"]: p["id"] for p in state["players"]}
    orders = [(token, f"{first_army[ids[f'P{i}']]} H") for i, token in enumerate(tokens)]
    return game_id, tokens[0], orders


# --- 1. Order submissions. -------------------------------------------------------------


async def _orders(port: int, *, games: int, players: int, seconds: float) -> list[object]:
    setup = await _Http.open(port)
    seats: list[tuple[str, str, str]] = []
    for _ in range(games):
        game_id, _, orders = await _game(setup, players)
        seats += [(game_id, token, order) for token, order in orders]
    setup.close()
    latencies: list[float] = []
    errors = 0
    deadline = time.perf_counter() + seconds

    async def client(index: int) -> None:
        nonlocal errors
        game_id, token, order = seats[index % len(seats)]
        http = await _Http.open(port)
        path = f"/v1/games/{game_id}/orders"
        try:
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                status, _ = await http.call("PUT", path, {"orders": order}, token=token)
                latencies.append(time.perf_counter() - started)
                errors += status != 200
        finally:
            http.close()

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(CLIENTS)))
    elapsed = time.perf_counter() - started
    label = f"{games} game{'s' if games > 1 else ''} of {players} players"
    return [
        label,
        CLIENTS,
        len(latencies),
        len(latencies) / elapsed,
        _percentile(latencies, 50) * 1000,
        _percentile(latencies, 99) * 1000,
        errors,
    ]


def _percentile(values: Sequence[float], percent: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(percent / 100 * (len(ordered) - 1)))]


# --- 2. Spectators. ----------------------------------------------------------------------

_KEY = base64.b64encode(b"benchmark-nonce!").decode()
_RESOLVED = b'{"type":"resolved"'


class _Spectator(asyncio.Protocol):
    """The least of a websocket client: the handshake, text frames, pongs."""

    def __init__(self, request: bytes) -> None:
        self._request = request
        self._buffer = bytearray()
        self._open = False
        self.transport: asyncio.Transport | None = None
        self.live = asyncio.Event()
        self.resolved: list[float] = []
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self._request)

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self._buffer += data
        if not self._open:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            assert self._buffer.startswith(b"HTTP/1.1 101"), bytes(self._buffer[:80])
            del self._buffer[: end + 4]
            self._open = True
        while len(self._buffer) >= 2:
            opcode, size = self._buffer[0] & 0x0F, self._buffer[1] & 0x7F
            start = 2
            if size == 126:
                size, start = int.from_bytes(self._buffer[2:4], "big"), 4
            elif size == 127:
                size, start = int.from_bytes(self._buffer[2:10], "big"), 10
            if len(self._buffer) < start + size:
                return
            payload = bytes(self._buffer[start : start + size])
            del self._buffer[: start + size]
            if opcode == 0x1:
                self.live.set()
                if payload.startswith(_RESOLVED):
                    self.resolved.append(now)
            elif opcode == 0x9 and self.transport is not None:
                # A pong, masked (with a zero key) as every client frame must be.
                self.transport.write(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.live.set()


async def _fan_out(
    port: int, pid: int, count: int, rounds: int, *, verbose: bool = False
) -> list[object]:
    http = await _Http.open(port)
    game_id, admin, _ = await _game(http, 3)
    state = await _call(http, "GET", f"/v1/games/{game_id}")
    request = (
        f"GET /v1/games/{game_id}/live?after={state['position']} HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {_KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    loop = asyncio.get_running_loop()
    before = _rss(pid)
    spectators: list[_Spectator] = []
    gate = asyncio.Semaphore(CONNECTING)

    async def connect() -> None:
        async with gate:
            _, spectator = await loop.create_connection(
                lambda: _Spectator(request), "127.0.0.1", port
            )
            spectators.append(spectator)
            await spectator.live.wait()

    async with asyncio.timeout(300):
        await asyncio.gather(*(connect() for _ in range(count)))
    assert not any(s.closed for s in spectators), "a spectator was refused"
    connected = _rss(pid)

    http.close()
    # A fresh connection: the first may have idled past the server's keep-alive meanwhile.
    http = await _Http.open(port)
    latencies: list[float] = []
    last: list[float] = []
    # The clients' own garbage collector must not pause them while they note arrivals.
    gc.collect()
    gc.disable()
    for round_ in range(1, rounds + 1):
        started = time.perf_counter()
        await _call(http, "POST", f"/v1/games/{game_id}/admin/resolve", token=admin)
        async with asyncio.timeout(120):
            # Arrivals are noted in the protocol's callbacks: nothing to wait on but them.
            while not all(len(s.resolved) >= round_ for s in spectators):  # noqa: ASYNC110
                await asyncio.sleep(0.005)
        arrivals = [s.resolved[round_ - 1] - started for s in spectators]
        latencies += arrivals
        last.append(max(arrivals))
        if verbose:
            median, slowest = statistics.median(arrivals) * 1000, max(arrivals) * 1000
            print(f"{count} spectators, round {round_}: p50 {median:.0f}, last {slowest:.0f} ms")
    gc.enable()
    grown = max(connected, _rss(pid)) - before
    for spectator in spectators:
        if spectator.transport is not None:
            spectator.transport.close()
    http.close()
    return [
        count,
        rounds,
        _percentile(latencies, 50) * 1000,
        _percentile(latencies, 99) * 1000,
        statistics.median(last) * 1000,
        grown / 2**20,
        grown / count / 1024,
    ]


def _rss(pid: int) -> int:
    """The process's resident memory in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")
