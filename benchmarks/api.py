"""The HTTP and websocket API under load: `python -m benchmarks api`.

The server runs as subprocesses (the app under uvicorn, as `skirmish serve --workers N`
runs it: N processes accepting on one port, 1 by default; without its per-request access
log), on DATABASE_URL in a scratch schema (or an embedded PostgreSQL in a temporary
directory), so that their memory and CPU can be read from /proc.

1. Order submissions: 50 clients, each on its own keep-alive connection, PUT orders as fast
   as the answers come back, for a few seconds; requests per second and latency
   percentiles. Once spread over five 10-player games, once all on one 20-player game
   (several clients per player), where every append contends for the same stream (each
   load stops early once every player has met the quota of submissions a turn); and, to
   weigh them, the same clients on the benchmark server's bare endpoint, which only appends
   one event (no token, no game: benchmarks/_api_server.py), over five streams, and the
   five games' rate as a share of it. Then
   what the client (client/) costs: the first of these through it beside raw HTTP, and a
   spectator's catch-up through it beside a raw websocket (benchmarks/_api_client.py).
2. Spectators: N websocket spectators of one game; the operator resolves the turn (an
   admin's early resolution would wait for every player's orders), and each
   spectator notes when its `resolved` message arrives. The figures are the times from
   sending the resolve request to each arrival, over all spectators and rounds, and the
   growth of the server's resident memory per connection. The clients speak just enough
   of the websocket protocol (no compression offered, pongs for pings) to be cheap: on a
   two-core machine the clients share the CPU with the server and the database.
3. Neighbours (benchmarks/_api_neighbours.py): order submissions (as in 1, over forty
   games, so that no player meets the quota of 100 submissions a turn) while the operator
   resolves another game once a second: first alone; then while a third game's webhook is a tarpit
   (a loopback receiver that answers one byte every 2 s and never finishes, in a process
   of its own), fed by resolutions of that game; then with N idle spectators of a fourth
   game connected as well (`--neighbours=2000`), by a process of their own so that
   answering the server's pings does not slow the measuring clients. Each for 25 s, so that
   every spectator's pings (one each way per 20 s) fall within it. What a hostile neighbour
   costs everyone else, on a server of its own (2 leaves the server's memory grown).

`--only=submissions` measures the tables of 1 alone, `--repeat` times on one server: runs
short enough to alternate between two versions of the code, whose differences (two workers
racing for one game, say) are smaller than a machine's drift over a whole benchmark.
"""

import asyncio
import gc
import resource
import statistics
import sys
import time
from collections.abc import Mapping, Sequence

from benchmarks._api_client import client_cost, print_client_cost
from benchmarks._api_load import percentile, spectate, submissions
from benchmarks._api_neighbours import beside_idle_spectators
from benchmarks._api_server import OPERATOR, Http, call, new_game, server
from benchmarks._api_skor import skor_submissions
from benchmarks._database import scratch_database
from benchmarks._options import Option, Value
from benchmarks._processes import rss
from benchmarks._table import print_table

# 25 games of 2: 50 clients, as the submissions' loads have.
SKOR_GAMES = 25

OPTIONS = {
    "workers": Option(1, "server processes accepting on one port, as `skirmish serve --workers`"),
    "seconds": Option(5.0, "seconds of each submissions load"),
    "spectators": Option("1000,5000", "spectators of one game, a table row for each count"),
    "rounds": Option(5, "resolutions that each count of spectators receives"),
    "neighbours": Option(2000, "idle spectators beside the neighbours' last load"),
    "verbose": Option(False, "print every round of the spectators as it ends"),
    "only": Option("", "`submissions`: the submissions tables alone"),
    "repeat": Option(1, "with --only=submissions: that many times on one server"),
}


def main(options: Mapping[str, Value]) -> None:
    seconds = float(options["seconds"])
    spectators = tuple(int(n) for n in str(options["spectators"]).split(","))
    rounds = int(options["rounds"])
    neighbours = int(options["neighbours"])
    workers = int(options["workers"])
    _raise_file_limit(max(*spectators, neighbours) * 2 + 1000)
    verbose = bool(options["verbose"])
    only = options["only"]
    if only:
        if only != "submissions":
            sys.exit(f"--only takes submissions, not {only!r}")
        repeat = int(options["repeat"])
        _print_orders(asyncio.run(_submissions_only(workers, seconds, repeat)))
        return
    orders, cost, fan_out, beside = asyncio.run(
        _run(workers, seconds, spectators, rounds, neighbours, verbose)
    )
    _print_orders(orders)
    print()
    print_client_cost(*cost)
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
            "refused",
            "server CPU ms per order",
            "resolutions of another game",
            "resolve p50 ms",
            "resolve max ms",
            "server RSS MB",
        ],
        beside,
    )


def _print_orders(orders: list[list[object]]) -> None:
    print_table(
        [
            "order submissions",
            "clients",
            "requests",
            "per second",
            "p50 ms",
            "p99 ms",
            "errors",
            "client CPU µs per order",
        ],
        orders,
    )


def _raise_file_limit(wanted: int) -> None:
    """Each spectator is a socket here and one in the server (which inherits the limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(max(soft, wanted), hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


async def _run(
    workers: int,
    seconds: float,
    spectators: Sequence[int],
    rounds: int,
    neighbours: int,
    verbose: bool,
) -> tuple[
    list[list[object]],
    tuple[list[list[object]], list[list[object]]],
    list[list[object]],
    list[list[object]],
]:
    async with scratch_database() as url:
        async with server(url, workers) as (port, pids):
            orders = await _orders(port, seconds)
            cost = await client_cost(port, seconds)
            fan_out = [
                await _fan_out(port, pids, count, rounds, verbose=verbose) for count in spectators
            ]
        # A server of its own: the fan-out's thousands of sockets leave the memory grown.
        async with server(url, workers) as (port, pids):
            beside = await beside_idle_spectators(port, pids, neighbours)
    return orders, cost, fan_out, beside


async def _submissions_only(workers: int, seconds: float, repeat: int) -> list[list[object]]:
    async with scratch_database() as url, server(url, workers) as (port, _):
        return [row for _ in range(repeat) for row in await _orders(port, seconds)]


async def _orders(port: int, seconds: float) -> list[list[object]]:
    """The submission tables of 1, and the five games' rate as a share of the bare one's."""
    orders = [
        await submissions(port, games=5, players=10, seconds=seconds),
        await submissions(port, games=1, players=20, seconds=seconds),
        await submissions(port, games=5, players=10, seconds=seconds, through="bare"),
    ]
    skor = await skor_submissions(port, games=SKOR_GAMES, seconds=seconds)
    return [*orders, _share(orders[0], orders[2]), skor, _latency(skor, orders[0])]


def _latency(skor: list[object], orders: list[object]) -> list[object]:
    """A Skor action's latency over a Skirmish submission's, p50 and p99 (the goal: 1)."""
    p50, p99 = (f"{skor[i] / orders[i]:.2f}x" for i in (4, 5))  # type: ignore[operator]
    return ["Skor action / Skirmish submission", "", "", "", p50, p99, "", ""]


def _share(orders: list[object], bare: list[object]) -> list[object]:
    """The submissions' rate as a share of the bare endpoint's."""
    assert isinstance(orders[3], float)
    assert isinstance(bare[3], float)
    return ["submissions / bare", "", "", f"{orders[3] / bare[3]:.0%}", "", "", "", ""]


# --- 2. Spectators. ----------------------------------------------------------------------


async def _fan_out(
    port: int, pids: list[int], count: int, rounds: int, *, verbose: bool = False
) -> list[object]:
    http = await Http.open(port)
    game_id, _, _ = await new_game(http, 3)
    before = rss(pids)
    spectators = await spectate(port, http, game_id, count)
    connected = rss(pids)

    http.close()
    # A fresh connection: the first may have idled past the server's keep-alive meanwhile.
    http = await Http.open(port)
    latencies: list[float] = []
    last: list[float] = []
    # The clients' own garbage collector must not pause them while they note arrivals.
    gc.collect()
    gc.disable()
    for round_ in range(1, rounds + 1):
        started = time.perf_counter()
        await call(http, "POST", f"/v1/games/{game_id}/admin/resolve", token=OPERATOR)
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
    grown = max(connected, rss(pids)) - before
    for spectator in spectators:
        spectator.close()
    http.close()
    return [
        count,
        rounds,
        percentile(latencies, 50) * 1000,
        percentile(latencies, 99) * 1000,
        statistics.median(last) * 1000,
        grown / 2**20,
        grown / count / 1024,
    ]
