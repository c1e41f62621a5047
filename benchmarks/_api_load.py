"""The API benchmark's loads: players submitting orders as fast as the answers come back,
and spectators of a game that note when each resolution reaches them."""

import asyncio
import contextlib
import itertools
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

import httpx

from benchmarks._api_server import BARE, Http, call, new_game
from benchmarks._websocket import RawWebsocket, upgrade_request
from client import ApiError, SkirmishClient
from projections.skirmish.orders import MAX_SUBMISSIONS

CLIENTS = 50
# How many websocket handshakes are under way at once while spectators connect.
CONNECTING = 250


async def submissions(
    port: int, *, games: int, players: int, seconds: float, through: str = "raw"
) -> list[object]:
    """CLIENTS clients, each on a keep-alive connection of its own, PUT orders into `games`
    new games of `players` for `seconds` (or until every player has met the quota of
    submissions a turn), as fast as the answers come back, `through` raw
    HTTP, httpx alone or the client (client/), or "bare": the benchmark server's bare
    endpoint instead, which appends the body to a stream per game (BARE): the table's row
    (what, clients, requests, per second, p50 and p99 ms, refusals, and this process's CPU
    per request in microseconds)."""
    setup = await Http.open(port)
    seats: list[tuple[str, str, str]] = []
    for _ in range(games):
        game_id, _, orders = await new_game(setup, players)
        seats += [(game_id, token, order) for token, order in orders]
    setup.close()
    latencies: list[float] = []
    refused: Counter[int] = Counter()
    submitter = {
        "raw": _raw,
        "bare": _bare,
        "httpx": _through_httpx,
        "client": _through_client,
    }[through]

    # Every client takes the next seat in turn, so that every player submits as often: a
    # client of its own per seat, the fastest players met the quota of 100 submissions a
    # turn long before the others.
    turns = itertools.cycle(seats)
    # The load stops once every player has met the quota (before `seconds` if it is quick):
    # past it, what it measured would be the refusals. The bare endpoint has none.
    budget = len(seats) * MAX_SUBMISSIONS if through != "bare" else None
    taken = 0

    async def client(submit: Submit, deadline: float) -> None:
        nonlocal taken
        while time.perf_counter() < deadline and (budget is None or taken < budget):
            taken += 1
            seat = next(turns)
            started = time.perf_counter()
            status = await submit(*seat)
            latencies.append(time.perf_counter() - started)
            if status != 200:
                refused[status] += 1

    async def warm_up(submit: Submit) -> None:
        nonlocal taken
        taken += 1
        await submit(*next(turns))

    async with contextlib.AsyncExitStack() as clients:
        # Set up before the clock starts: what is measured is the calls.
        submits = [await clients.enter_async_context(submitter(port)) for _ in range(CLIENTS)]
        # A submission on each connection before the clock starts, as a game in play has its
        # state loaded and its connections open: otherwise the first load of each game and
        # connection, 50 of the few thousand requests, would be the p99.
        await asyncio.gather(*(warm_up(s) for s in submits))
        cpu = time.process_time()
        started = time.perf_counter()
        deadline = started + seconds
        await asyncio.gather(*(client(s, deadline) for s in submits))
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu
    label = f"{games} game{'s' if games > 1 else ''} of {players} players"
    if through == "bare":
        label = f"bare append, {games} streams"
    return load_row(label, CLIENTS, latencies, refused, elapsed, cpu)


def load_row(
    label: str,
    clients: int,
    latencies: list[float],
    refused: Counter[int],
    elapsed: float,
    cpu: float,
) -> list[object]:
    """A row of the submissions table: requests, per second, p50 and p99 in ms, refusals,
    and the client's CPU per request in µs."""
    return [
        label,
        clients,
        len(latencies),
        len(latencies) / elapsed,
        percentile(latencies, 50) * 1000,
        percentile(latencies, 99) * 1000,
        refusals(refused),
        cpu / len(latencies) * 1e6,
    ]


# Submits one player's orders; the answer's status.
Submit = Callable[[str, str, str], Awaitable[int]]


def refusals(refused: Counter[int]) -> int | str:
    """How many were refused (0), and with which statuses."""
    if not refused:
        return 0
    statuses = ", ".join(f"{status}: {n}" for status, n in sorted(refused.items()))
    return f"{refused.total()} ({statuses})"


@contextlib.asynccontextmanager
async def _raw(port: int) -> AsyncIterator[Submit]:
    http = await Http.open(port)

    async def submit(game_id: str, token: str, order: str) -> int:
        path = f"/v1/games/{game_id}/orders"
        status, _ = await http.call("PUT", path, {"orders": order}, token=token)
        return status

    try:
        yield submit
    finally:
        http.close()


@contextlib.asynccontextmanager
async def _bare(port: int) -> AsyncIterator[Submit]:
    http = await Http.open(port)

    async def submit(game_id: str, token: str, order: str) -> int:
        path = BARE.format(stream=game_id)
        status, _ = await http.call("POST", path, {"orders": order})
        return status

    try:
        yield submit
    finally:
        http.close()


@contextlib.asynccontextmanager
async def _through_httpx(port: int) -> AsyncIterator[Submit]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:

        async def submit(game_id: str, token: str, order: str) -> int:
            path = f"/v1/games/{game_id}/orders"
            headers = {"Authorization": f"Bearer {token}"}
            answer = await http.put(path, json={"orders": order}, headers=headers)
            answer.json()
            return answer.status_code

        yield submit


@contextlib.asynccontextmanager
async def _through_client(port: int) -> AsyncIterator[Submit]:
    async with SkirmishClient(f"http://127.0.0.1:{port}") as anyone:
        players: dict[str, SkirmishClient] = {}

        async def submit(game_id: str, token: str, order: str) -> int:
            player = players.get(token) or players.setdefault(token, anyone.using(token))
            try:
                await player.submit_orders(game_id, order)
            except ApiError as error:
                return error.status
            return 200

        yield submit


def percentile(values: Sequence[float], percent: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(percent / 100 * (len(ordered) - 1)))]


_RESOLVED = b'{"type":"resolved"'


class Spectator(RawWebsocket):
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


async def spectate(port: int, http: Http, game_id: str, count: int) -> list[Spectator]:
    """`count` spectators of the game, connected from its current position and caught up."""
    state = await call(http, "GET", f"/v1/games/{game_id}")
    target = f"/v1/games/{game_id}/live?after={state['position']}&auth=none"
    request = upgrade_request(f"127.0.0.1:{port}", target)
    loop = asyncio.get_running_loop()
    spectators: list[Spectator] = []
    gate = asyncio.Semaphore(CONNECTING)

    async def connect() -> None:
        async with gate:
            _, spectator = await loop.create_connection(
                lambda: Spectator(request), "127.0.0.1", port
            )
            spectators.append(spectator)
            await spectator.live.wait()

    async with asyncio.timeout(300):
        await asyncio.gather(*(connect() for _ in range(count)))
    assert not any(s.closed for s in spectators), "a spectator was refused"
    return spectators
