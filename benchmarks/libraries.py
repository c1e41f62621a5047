"""Hand-written modules beside the libraries that do the same: `python -m benchmarks
libraries`. The rule (docs/architecture.md, "Hand-written beside a library"): a
well-kept library is kept unless it costs more than 10%.

1. The client's HTTP/1.1 (client/connections.py) beside aiohttp: `--clients` callers at a
   time, each with its next request as soon as its answer is in, GET a small JSON answer of
   the same real uvicorn server (the app, its bare route: no database) on 127.0.0.1;
   requests a second, p99, and the client's CPU a request (this process's).
2. CORS (server/http/cors.py) beside Starlette's CORSMiddleware with the same policy (one
   listed origin, the API's methods and headers), outermost (before the request ids and
   the metrics, which then neither number nor count what it answers) and in ours' place
   (after them): three servers of the app on 127.0.0.1, measured through
   client/connections.py; preflights and simple requests (the bare route) a second, and
   the server's CPU a request (from /proc).
3. Rate limits (server/accounts/ratelimit.py) beside the `limits` package's moving window
   in memory, in this process: decisions a second over `--keys` keys at the writes' rate,
   and the process's CPU a decision (the library's expiry thread's included).

Each HTTP load runs `--rounds` times, the two ways in turn, so that the machine's drift
falls on both; the figures are the rounds' medians. "Library's cost" is how much more the
library takes: fewer requests a second, more CPU; negative when it takes less.
"""

import asyncio
import statistics
from collections.abc import Mapping, Sequence

import aiohttp

from benchmarks._database import scratch_database
from benchmarks._libraries_http import (
    PREFLIGHT,
    SIMPLE,
    Figures,
    Request,
    load,
    serving,
    through_aiohttp,
    through_ours,
)
from benchmarks._libraries_limits import Decisions, decide
from benchmarks._options import Option, Value
from benchmarks._table import print_table
from client.connections import Connections

OPTIONS = {
    "requests": Option(4000, "requests of each HTTP load, in each round"),
    "clients": Option(10, "callers at a time in each HTTP load"),
    "rounds": Option(3, "rounds of the HTTP loads, the two ways in turn"),
    "decisions": Option(300_000, "rate-limit decisions of each way"),
    "keys": Option(1000, "keys (addresses, accounts) the decisions go over"),
}
# The rule's threshold: a library that costs more than this is not taken.
THRESHOLD = 0.10


def main(options: Mapping[str, Value]) -> None:
    requests, clients, rounds = (int(options[name]) for name in ("requests", "clients", "rounds"))
    client, cors = asyncio.run(_http(requests, clients, rounds))
    names = ("client/connections.py", "aiohttp")
    print_table(
        ["client HTTP/1.1", "per second", "p99 ms", "client CPU µs per request"],
        _rows(client[names[0]], {names[1]: client[names[1]]}, names[0]),
    )
    print()
    for kind in ("preflight", "simple"):
        ways = [cors[f"{kind} {way}"] for way in _CORS_WAYS]
        print_table(
            ["CORS, " + kind, "per second", "p99 ms", "server CPU µs per request"],
            _rows(ways[0], dict(zip(_CORS[1:], ways[1:], strict=True)), _CORS[0], server=True),
        )
        print()
    keys = [f"203.0.113.{i}" for i in range(int(options["keys"]))]
    decided = {way: decide(way, keys, int(options["decisions"])) for way in ("ours", "limits")}
    headers = ["rate limits", "per second", "CPU µs per decision", "allowed"]
    print_table(headers, _limit_rows(decided))


_CORS_WAYS = ("ours", "starlette", "starlette-inside")
_CORS = (
    "server/http/cors.py",
    "Starlette's CORSMiddleware, outermost",
    "Starlette's, in ours' place",
)


async def _http(
    requests: int, clients: int, rounds: int
) -> tuple[dict[str, Figures], dict[str, Figures]]:
    measured: dict[str, list[Figures]] = {}
    async with (
        scratch_database() as url,
        serving(url, "ours") as ours,
        serving(url, "starlette") as starlette,
        serving(url, "starlette-inside") as inside,
        aiohttp.ClientSession(ours.base) as session,
    ):
        servers = {"ours": ours, "starlette": starlette, "starlette-inside": inside}
        connections = {way: Connections(served.base, 30) for way, served in servers.items()}
        loads: dict[str, tuple[Request, int]] = {
            "client/connections.py": (
                through_ours(connections["ours"], SIMPLE, "GET"),
                ours.pid,
            ),
            "aiohttp": (through_aiohttp(session), ours.pid),
        }
        for way in _CORS_WAYS:
            for kind, headers, method in (
                ("preflight", PREFLIGHT, "OPTIONS"),
                ("simple", SIMPLE, "GET"),
            ):
                request = through_ours(connections[way], headers, method)
                loads[f"{kind} {way}"] = (request, servers[way].pid)
        try:
            for _ in range(rounds):
                for name, (request, pid) in loads.items():
                    figures = await load(request, pid, clients=clients, requests=requests)
                    measured.setdefault(name, []).append(figures)
        finally:
            for kept in connections.values():
                await kept.aclose()
    medians = {name: _median(runs) for name, runs in measured.items()}
    client = {name: medians.pop(name) for name in ("client/connections.py", "aiohttp")}
    return client, medians


def _median(runs: Sequence[Figures]) -> Figures:
    return Figures(
        statistics.median(run.per_second for run in runs),
        statistics.median(run.p99_ms for run in runs),
        statistics.median(run.client_cpu_us for run in runs),
        statistics.median(run.server_cpu_us for run in runs),
    )


def _rows(
    mine: Figures, libraries: Mapping[str, Figures], name: str, *, server: bool = False
) -> list[list[object]]:
    """The hand-written one, the libraries, and each library's cost."""

    def cpu(figures: Figures) -> float:
        return figures.server_cpu_us if server else figures.client_cpu_us

    rows: list[list[object]] = [[name, mine.per_second, mine.p99_ms, cpu(mine)]]
    rows += [[n, f.per_second, f.p99_ms, cpu(f)] for n, f in libraries.items()]
    labels = ["library's cost"] if len(libraries) == 1 else [f"cost: {n}" for n in libraries]
    rows += [
        [
            label,
            cost(library.per_second, mine.per_second, fewer_is_worse=True),
            cost(library.p99_ms, mine.p99_ms),
            cost(cpu(library), cpu(mine)),
        ]
        for label, library in zip(labels, libraries.values(), strict=True)
    ]
    return rows


def _limit_rows(decided: Mapping[str, Decisions]) -> list[list[object]]:
    mine, library = decided["ours"], decided["limits"]
    return [
        ["server/accounts/ratelimit.py", mine.per_second, mine.cpu_us, f"{mine.allowed:.1%}"],
        ["limits (moving window)", library.per_second, library.cpu_us, f"{library.allowed:.1%}"],
        [
            "library's cost",
            cost(library.per_second, mine.per_second, fewer_is_worse=True),
            cost(library.cpu_us, mine.cpu_us),
            "",
        ],
    ]


def cost(library: float, mine: float, *, fewer_is_worse: bool = False) -> str:
    """How much more the library takes than the hand-written module, in %, and whether
    that is beyond the rule's threshold."""
    over_what = library if fewer_is_worse else mine
    if over_what == 0:
        # A CPU time read from /proc in clock ticks: a short run may spend less than one.
        return "n/a (too short to measure)"
    more = (mine / library - 1) if fewer_is_worse else (library / mine - 1)
    # Rounded: 110 beside 100 is 10%, not 10.000000000000009%.
    over = round(more, 6) > THRESHOLD
    return f"{more:+.0%}" + (" (over 10%)" if over else "")
