"""The HTTP and websocket API under load: `python -m benchmarks api [--seconds=N]
[--spectators=1000,5000] [--rounds=N] [--neighbours=N] [--verbose]`.

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
3. Neighbours: order submissions (as in 1, over twenty games, so that no player meets the
   quota of 100 submissions a turn) while an admin resolves
   another game once a second: first alone; then while a third game's webhook is a tarpit
   (a loopback receiver that answers one byte every 2 s and never finishes, in a process
   of its own), fed by resolutions of that game; then with N idle spectators of a fourth
   game connected as well (`--neighbours=2000`), by a process of their own so that
   answering the server's pings does not slow the measuring clients. Each for 25 s, so that
   every spectator's pings (one each way per 20 s) fall within it. What a hostile neighbour
   costs everyone else, on a server of its own (2 leaves the server's memory grown).
"""

import asyncio
import contextlib
import gc
import itertools
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
from benchmarks._websocket import RawWebsocket, upgrade_request

CLIENTS = 50
SECONDS = 5.0
SPECTATORS = (1000, 5000)
ROUNDS = 5
OPERATOR = "benchmark-operator-token"
# How many websocket handshakes are under way at once while spectators connect.
CONNECTING = 250
NEIGHBOURS = 2000
NEIGHBOUR_SECONDS = 25.0
# Enough players that none meets the quota of 100 submissions a turn in NEIGHBOUR_SECONDS.
NEIGHBOUR_GAMES = 20
_SERVER = """
import sys
import uvicorn
from server.app import create_app
from server.serve import WEBSOCKET_OPTIONS
uvicorn.run(create_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            access_log=False, lifespan="on", backlog=4096, **WEBSOCKET_OPTIONS)
"""


def main(argv: Sequence[str]) -> None:
    options = dict(a.removeprefix("--").split("=", 1) for a in argv if "=" in a)
    seconds = float(options.get("seconds", SECONDS))
    spectators = tuple(int(n) for n in options.get("spectators", "1000,5000").split(","))
    rounds = int(options.get("rounds", ROUNDS))
    neighbours = int(options.get("neighbours", NEIGHBOURS))
    _raise_file_limit(max(*spectators, neighbours) * 2 + 1000)
    verbose = "--verbose" in argv
    orders, fan_out, beside = asyncio.run(_run(seconds, spectators, rounds, neighbours, verbose))
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
    print()
    print_table(
        [
            "while",
            "order submissions",
            "per second",
            "p50 ms",
            "p99 ms",
            "server CPU ms per order",
            "resolutions of another game",
            "resolve p50 ms",
            "resolve max ms",
            "server RSS MB",
        ],
        beside,
    )


def _raise_file_limit(wanted: int) -> None:
    """Each spectator is a socket here and one in the server (which inherits the limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(max(soft, wanted), hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


async def _run(
    seconds: float, spectators: Sequence[int], rounds: int, neighbours: int, verbose: bool
) -> tuple[list[list[object]], list[list[object]], list[list[object]]]:
    async with scratch_database() as url:
        async with _server(url) as (port, pid):
            orders = [
                await _orders(port, games=5, players=10, seconds=seconds),
                await _orders(port, games=1, players=20, seconds=seconds),
            ]
            fan_out = [
                await _fan_out(port, pid, count, rounds, verbose=verbose) for count in spectators
            ]
        # A server of its own: the fan-out's thousands of sockets leave the memory grown.
        async with _server(url) as (port, pid):
            beside = await _beside_idle_spectators(port, pid, neighbours)
    return orders, fan_out, beside


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
        # Each client plays its share of the seats in turn: with more seats than clients, no
        # player meets the quota of 100 submissions a turn.
        mine = itertools.cycle(seats[index % len(seats) :: CLIENTS])
        http = await _Http.open(port)
        try:
            while time.perf_counter() < deadline:
                game_id, token, order = next(mine)
                started = time.perf_counter()
                status, _ = await http.call(
                    "PUT", f"/v1/games/{game_id}/orders", {"orders": order}, token=token
                )
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

_RESOLVED = b'{"type":"resolved"'


class _Spectator(RawWebsocket):
    """A spectator that notes when each `resolved` message arrives."""

    def __init__(self, request: bytes) -> None:
        super().__init__(request)
        self.live = asyncio.Event()
        self.resolved: list[float] = []
        self.closed = False

    def on_text(self, payload: bytes) -> None:
        self.live.set()
        if payload.startswith(_RESOLVED):
            self.resolved.append(time.perf_counter())

    def on_end(self) -> None:
        self.closed = True
        self.live.set()


async def _fan_out(
    port: int, pid: int, count: int, rounds: int, *, verbose: bool = False
) -> list[object]:
    http = await _Http.open(port)
    game_id, admin, _ = await _game(http, 3)
    before = _rss(pid)
    spectators = await _spectate(port, http, game_id, count)
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
        spectator.close()
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


async def _spectate(port: int, http: _Http, game_id: str, count: int) -> list[_Spectator]:
    """`count` spectators of the game, connected from its current position and caught up."""
    state = await _call(http, "GET", f"/v1/games/{game_id}")
    target = f"/v1/games/{game_id}/live?after={state['position']}"
    request = upgrade_request(f"127.0.0.1:{port}", target)
    loop = asyncio.get_running_loop()
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
    return spectators


def _rss(pid: int) -> int:
    """The process's resident memory in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


# --- 3. Idle neighbours. -----------------------------------------------------------------


_SPECTATING = """
import asyncio, sys
from benchmarks.api import _Http, _spectate
async def main(port, game_id, count):
    spectators = await _spectate(port, await _Http.open(port), game_id, count)
    print("connected", flush=True)
    await asyncio.Event().wait()  # until terminated
asyncio.run(main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
"""


async def _beside_idle_spectators(port: int, pid: int, count: int) -> list[list[object]]:
    """The same traffic alone, beside a game whose webhook is a tarpit, then beside that
    and `count` idle spectators of another game; the last row is the change from the first
    to the third (for memory, in MB)."""
    alone = await _traffic(port, pid)
    async with _tarpit_webhook(port):
        tarpitted = await _traffic(port, pid)
        async with _idle_spectators(port, count):
            beside = await _traffic(port, pid)
    change = [f"{(b - a) / a:+.0%}" for a, b in zip(alone[:-1], beside[:-1], strict=True)]
    return [
        ["no other load", *alone],
        ["a tarpit webhook", *tarpitted],
        [f"tarpit + {count:,} idle spectators", *beside],
        ["change (third to first)", *change, f"{beside[-1] - alone[-1]:+.0f}"],
    ]


_TARPIT = """
import asyncio, sys
async def hold(reader, writer):
    answer = b"HTTP/1.1 200 OK\\r\\nX-Trickle: " + b"a" * 10_000
    try:
        for byte in answer:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(2)
    except ConnectionError:
        pass  # the server gave up on it, as it should
async def main():
    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await asyncio.Event().wait()  # until terminated
asyncio.run(main())
"""
# Resolutions of the tarpitted game before the measurements: each queues a delivery per
# player and one for the resolution, and each delivery holds a slot until its deadline.
TARPIT_RESOLUTIONS = 10


@contextlib.asynccontextmanager
async def _tarpit_webhook(port: int) -> AsyncIterator[None]:
    """A game of its own whose webhook is a tarpit in a process of its own, with deliveries
    queued for it throughout."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _TARPIT, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    try:
        tarpit = int(await process.stdout.readline())
        http = await _Http.open(port)
        game_id, admin, _ = await _game(http, 3)
        hook = {"url": f"http://127.0.0.1:{tarpit}/hook"}
        await _call(http, "PUT", f"/v1/games/{game_id}/webhook", hook, token=admin)
        for _ in range(TARPIT_RESOLUTIONS):
            await _call(http, "POST", f"/v1/games/{game_id}/admin/resolve", token=admin)
        http.close()
        yield
    finally:
        process.terminate()
        await process.wait()


@contextlib.asynccontextmanager
async def _idle_spectators(port: int, count: int) -> AsyncIterator[None]:
    """`count` spectators of a game of their own, connected by a process of their own, so
    that answering the server's pings does not slow this process's clients."""
    http = await _Http.open(port)
    game_id, _, _ = await _game(http, 3)
    http.close()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _SPECTATING,
        str(port),
        game_id,
        str(count),
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    try:
        async with asyncio.timeout(300):
            assert await process.stdout.readline() == b"connected\n", "the spectators failed"
        yield
    finally:
        process.terminate()
        await process.wait()


async def _traffic(port: int, pid: int) -> list[float]:
    """Order submissions over NEIGHBOUR_GAMES games for NEIGHBOUR_SECONDS while another game is
    resolved once a second: requests, per second, p50 and p99 ms, the server's CPU time
    per request (resolutions and pings included); resolutions, their p50 and max ms; and
    the server's memory in MB after."""
    http = await _Http.open(port)
    game_id, admin, _ = await _game(http, 10)
    resolutions: list[float] = []
    done = asyncio.Event()

    async def resolve_every_second() -> None:
        while not done.is_set():
            started = time.perf_counter()
            await _call(http, "POST", f"/v1/games/{game_id}/admin/resolve", token=admin)
            resolutions.append(time.perf_counter() - started)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), 1.0)

    resolving = asyncio.create_task(resolve_every_second())
    cpu = _cpu_seconds(pid)
    try:
        orders = await _orders(port, games=NEIGHBOUR_GAMES, players=10, seconds=NEIGHBOUR_SECONDS)
    finally:
        done.set()
        await resolving
        http.close()
    cpu = _cpu_seconds(pid) - cpu
    figures = [float(f) for f in orders[2:6] if isinstance(f, int | float)]
    assert len(figures) == 4, orders
    assert orders[6] == 0, f"refused submissions (a quota?): {orders}"
    return [
        *figures,
        cpu * 1000 / figures[0],
        len(resolutions),
        statistics.median(resolutions) * 1000,
        max(resolutions) * 1000,
        _rss(pid) / 2**20,
    ]


def _cpu_seconds(pid: int) -> float:
    """The CPU time the process has used, user and system. Less at the mercy of whatever
    else the machine runs than a rate or a latency."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
