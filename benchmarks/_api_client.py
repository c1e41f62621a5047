"""What the client (client/) costs: order submissions and a spectator's catch-up through
it, beside the same over raw HTTP and a raw websocket, on the same server in the same run.

Submissions as in the API benchmark's first table (50 clients, five games of 10 players),
once each way, and once with httpx alone (the client's HTTP library, with the JSON encoded
and decoded by the standard library): what of the cost is the library's. Catch-ups: a
spectator connects from the start of a game of some 160 events (under the snapshot's
threshold, so every event is sent) and reads until the standings that end the catch-up,
one at a time, raw and through the client in turn, both with `?auth=none` (a spectator's
socket that sends no token, served at once: docs/api.md, "Live"). "CPU" is this process's,
the client side's, alone.
"""

import asyncio
import statistics
import time

from benchmarks._api_load import percentile, submissions
from benchmarks._api_server import Http, call, new_game
from benchmarks._table import print_table
from benchmarks._websocket import RawWebsocket, upgrade_request
from client import SkirmishClient

CATCH_UP_EVENTS = 150
CATCH_UPS = 30
_STANDINGS = b'{"type":"standings"'


async def client_cost(port: int, seconds: float) -> tuple[list[list[object]], list[list[object]]]:
    """The two tables' rows: raw, through the client, and the client's cost in %."""
    raw, bare, through = [
        await submissions(port, games=5, players=10, seconds=seconds, through=way)
        for way in ("raw", "httpx", "client")
    ]
    # Requests per second (fewer is a cost), p50 and p99 ms, CPU per request.
    figures = [row[3:6] + row[7:] for row in (raw, bare, through)]
    orders: list[list[object]] = [
        ["raw HTTP", *figures[0]],
        ["httpx alone", *figures[1]],
        ["client", *figures[2]],
        ["client's cost", *_costs(figures[0], figures[2], first=-1)],
        ["client's cost over httpx", *_costs(figures[1], figures[2], first=-1)],
    ]
    raw_catch_up, client_catch_up = await _catch_ups(port)
    catch_ups: list[list[object]] = [
        ["raw websocket", *raw_catch_up],
        ["client", *client_catch_up],
        ["client's cost", *_costs(raw_catch_up, client_catch_up)],
    ]
    return orders, catch_ups


def print_client_cost(orders: list[list[object]], catch_ups: list[list[object]]) -> None:
    print_table(
        ["orders through", "per second", "p50 ms", "p99 ms", "client CPU µs per order"], orders
    )
    print()
    print_table(
        [
            "catch-up through",
            "connect to standings p50 ms",
            "first message to standings p50 ms",
            "client CPU ms per catch-up",
        ],
        catch_ups,
    )


def _costs(raw: list[object], through: list[object], first: int = 1) -> list[str]:
    """Each figure's change from raw to the client, in %; `first` -1: the first figure is a
    rate, where fewer is the cost."""
    changes = []
    for index, (a, b) in enumerate(zip(raw, through, strict=True)):
        assert isinstance(a, int | float)
        assert isinstance(b, int | float)
        sign = first if index == 0 else 1
        changes.append(f"{sign * (b - a) / a:+.1%}")
    return changes


class _Spectator(RawWebsocket):
    def __init__(self, request: bytes) -> None:
        super().__init__(request)
        self.first: float | None = None
        self.caught_up = asyncio.Event()

    def on_text(self, payload: bytes) -> None:
        if self.first is None:
            self.first = time.perf_counter()
        if payload.startswith(_STANDINGS):
            self.caught_up.set()


async def _raw_catch_up(port: int, game_id: str) -> float:
    """A raw spectator's catch-up; when its first message came."""
    request = upgrade_request(f"127.0.0.1:{port}", f"/v1/games/{game_id}/live?after=0&auth=none")
    loop = asyncio.get_running_loop()
    _, spectator = await loop.create_connection(lambda: _Spectator(request), "127.0.0.1", port)
    await spectator.caught_up.wait()
    spectator.close()
    assert spectator.first is not None
    return spectator.first


async def _client_catch_up(anyone: SkirmishClient, game_id: str) -> float:
    first = None
    async with anyone.live(game_id) as live:
        async for message in live:
            first = first or time.perf_counter()
            if message.type == "standings":
                break
    assert first is not None
    return first


async def _catch_ups(port: int) -> tuple[list[object], list[object]]:
    """Per way: connect to standings and first message to standings p50 ms, and CPU ms."""
    http = await Http.open(port)
    game_id, admin, _ = await new_game(http, 3)
    for index in range(CATCH_UP_EVENTS):
        path = f"/v1/games/{game_id}/broadcast"
        await call(http, "POST", path, {"message": f"{index}"}, token=admin)
    http.close()
    figures: dict[bool, tuple[list[float], list[float], list[float]]] = {
        way: ([], [], []) for way in (False, True)
    }
    async with asyncio.timeout(300), SkirmishClient(f"http://127.0.0.1:{port}") as anyone:
        for _ in range(CATCH_UPS):
            for through_client, (whole, streamed, cpu) in figures.items():
                used, started = time.process_time(), time.perf_counter()
                if through_client:
                    first = await _client_catch_up(anyone, game_id)
                else:
                    first = await _raw_catch_up(port, game_id)
                ended = time.perf_counter()
                cpu.append(time.process_time() - used)
                whole.append(ended - started)
                streamed.append(ended - first)
    return _summary(*figures[False]), _summary(*figures[True])


def _summary(whole: list[float], streamed: list[float], cpu: list[float]) -> list[object]:
    return [
        percentile(whole, 50) * 1000,
        percentile(streamed, 50) * 1000,
        statistics.mean(cpu) * 1000,
    ]
