"""The API benchmark's loads: players submitting orders as fast as the answers come back,
and spectators of a game that note when each resolution reaches them."""

import asyncio
import itertools
import time
from collections.abc import Sequence

from benchmarks._api_server import Http, call, new_game
from benchmarks._websocket import RawWebsocket, upgrade_request

CLIENTS = 50
# How many websocket handshakes are under way at once while spectators connect.
CONNECTING = 250


async def submissions(port: int, *, games: int, players: int, seconds: float) -> list[object]:
    """CLIENTS clients, each on a keep-alive connection of its own, PUT orders into `games`
    new games of `players` for `seconds`, as fast as the answers come back: the table's
    row (what, clients, requests, per second, p50 and p99 ms, refusals)."""
    setup = await Http.open(port)
    seats: list[tuple[str, str, str]] = []
    for _ in range(games):
        game_id, _, orders = await new_game(setup, players)
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
        http = await Http.open(port)
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
        percentile(latencies, 50) * 1000,
        percentile(latencies, 99) * 1000,
        errors,
    ]


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
    target = f"/v1/games/{game_id}/live?after={state['position']}"
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
