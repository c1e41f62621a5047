"""Heavy reads beside each other: `python -m benchmarks heavy`.

One caller keeps 20 heavy reads under way at once, `GET /v1/games/{game}/map.png?turn=n`
or `GET /v1/games/{game}/verify` of games and turns that it has not asked for before where
it can (each answered, the next one sent at once, or after Retry-After when refused: as a
client should; without, it would measure a flood of refusals, which costs the server as
much as a flood of any read); meanwhile a second caller asks, one after the other,
`--samples` verifications and `--samples` pictures of games and turns that
nobody has asked for before, so that no cache answers it. The table gives the second
caller's latency idle (nobody else calling) and during each burst, p50 and p99, their
ratios (the goal: 2 at most), what the second caller was refused, and the burst's answers
by status. Each caller is anonymous, from an address of its own (X-Forwarded-For, which
the server takes from 127.0.0.1 as from a reverse proxy).

The games are built by the pure decider and appended straight to the store (benchmarks/
_games.py), then the server (one process, as benchmarks/api.py runs it) catches its read
models up. Runs in a scratch schema of DATABASE_URL, or of an embedded PostgreSQL when it
is unset (benchmarks._database), dropped at the end.
"""

import asyncio
import contextlib
import itertools
import random
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Mapping
from datetime import UTC, datetime

from benchmarks._api_load import percentile
from benchmarks._api_server import Http, server
from benchmarks._database import migrated_pool, scratch_database
from benchmarks._games import BuiltGame, append_games
from benchmarks._options import Option, Value
from benchmarks._table import print_table
from eventstore.postgres import PostgresEventStore
from schema.game_events import GameStarted, Settings

OPTIONS = {
    "samples": Option(20, "the second caller's calls of each kind, idle and during each burst"),
    "burst": Option(20, "the first caller's heavy reads under way at once"),
    "players": Option(8, "players of each game"),
    "turns": Option(12, "turns played in each game"),
    "burst_games": Option(40, "games that the first caller verifies and draws"),
}
BURSTER = {"X-Forwarded-For": "10.9.0.1"}
OTHER = {"X-Forwarded-For": "10.9.0.2"}
START = datetime(2030, 1, 1, tzinfo=UTC)
# Games share this many generated maps (the decider is pure: a seed starts the same way).
MAPS = 4
KINDS = ("verify", "map")
# Calls of each kind before the measurements, not measured.
WARM_UP = 3


def main(options: Mapping[str, Value]) -> None:
    rows = asyncio.run(
        _run(
            samples=int(options["samples"]),
            burst=int(options["burst"]),
            players=int(options["players"]),
            turns=int(options["turns"]),
            burst_games=int(options["burst_games"]),
        )
    )
    print_table(
        [
            "the other caller's",
            "beside",
            "p50 ms",
            "p99 ms",
            "p50 x idle",
            "p99 x idle",
            "refused",
            "burst answers",
        ],
        rows,
    )


async def _run(
    *, samples: int, burst: int, players: int, turns: int, burst_games: int
) -> list[list[object]]:
    # The second caller's games: a verification of each, once idle and once beside each
    # burst; its pictures come from the same games, a turn each.
    own = [f"other{n:04}" for n in range(WARM_UP + samples * (1 + len(KINDS)))]
    theirs = [f"burst{n:04}" for n in range(burst_games)]
    async with scratch_database() as url:
        await _build(url, [*own, *theirs], players=players, turns=turns)
        async with server(url) as (port, _):
            http = await Http.open(port)
            await _caught_up(http, [*own, *theirs], turns)
            http.close()
            pictures = _pictures(own, turns)
            verifications = iter(own)
            # The server's workers started, and the code each call runs warm.
            for kind in KINDS:
                await _other(port, kind, verifications, pictures, WARM_UP)
            idle = {
                kind: await _other(port, kind, verifications, pictures, samples) for kind in KINDS
            }
            rows: list[list[object]] = [
                [kind, "nothing", *_figures(idle[kind], idle[kind]), _refused(idle[kind]), ""]
                for kind in KINDS
            ]
            for burst_kind in KINDS:
                answers: Counter[int] = Counter()
                targets = _targets(burst_kind, theirs, turns)
                async with _burst(port, burst, targets, answers):
                    during = {
                        kind: await _other(port, kind, verifications, pictures, samples)
                        for kind in KINDS
                    }
                statuses = ", ".join(f"{n} x {status}" for status, n in sorted(answers.items()))
                for kind in KINDS:
                    beside = f"{burst} {burst_kind} at once"
                    figures = _figures(idle[kind], during[kind])
                    rows.append([kind, beside, *figures, _refused(during[kind]), statuses])
            return rows


async def _build(url: str, games: list[str], *, players: int, turns: int) -> None:
    settings = Settings(name="Benchmark", fast_mode=True)
    starts: dict[tuple[int, int], GameStarted] = {}
    rng = random.Random(11)
    built = []
    for n, game_id in enumerate(games):
        game = BuiltGame(game_id)
        game.set_up(settings, players=players, seed=n % MAPS, at=START, starts=starts)
        game.play_turns(turns, rng)
        built.append(game)
    async with migrated_pool(url) as pool:
        store = await PostgresEventStore.open(pool)
        try:
            await append_games(store, built)
        finally:
            await store.close()


async def _caught_up(http: Http, games: list[str], turns: int) -> None:
    """Until the server's read models hold every game's last turn."""
    async with asyncio.timeout(600):
        for game_id in games:
            while True:
                status, _ = await http.call("GET", f"/v1/games/{game_id}/turns/{turns}")
                if status == 200:
                    break
                await asyncio.sleep(0.2)  # polling interval, not synchronisation


def _pictures(games: list[str], turns: int) -> Iterator[str]:
    """Pictures nobody has asked for: every turn of every game, one game after the other."""
    for game_id, turn in itertools.product(games, range(2, turns + 1)):
        yield f"/v1/games/{game_id}/map.png?turn={turn}"


def _targets(kind: str, games: list[str], turns: int) -> Iterator[str]:
    """The burst's paths: new ones while there are, then over again."""
    if kind == "verify":
        return itertools.cycle([f"/v1/games/{game_id}/verify" for game_id in games])
    pictures = [
        f"/v1/games/{game_id}/map.png?turn={turn}"
        for turn, game_id in itertools.product(range(2, turns + 1), games)
    ]
    return itertools.cycle(pictures)


async def _other(
    port: int, kind: str, verifications: Iterator[str], pictures: Iterator[str], samples: int
) -> list[tuple[float, int]]:
    """The second caller's calls of `kind`, one after the other: (seconds, status) each."""
    http = await Http.open(port)
    measured = []
    try:
        for _ in range(samples):
            path = next(pictures) if kind == "map" else f"/v1/games/{next(verifications)}/verify"
            began = time.perf_counter()
            status, _, _ = await http.request("GET", path, headers=OTHER)
            measured.append((time.perf_counter() - began, status))
    finally:
        http.close()
    return measured


@contextlib.asynccontextmanager
async def _burst(
    port: int, at_once: int, targets: Iterator[str], answers: Counter[int]
) -> AsyncIterator[None]:
    """`at_once` calls of the first caller under way until the block ends, each on a
    connection of its own; `answers` counts their statuses."""
    stop, started = asyncio.Event(), asyncio.Event()

    async def one() -> None:
        http = await Http.open(port)
        try:
            while not stop.is_set():
                status, headers, _ = await http.request("GET", next(targets), headers=BURSTER)
                answers[status] += 1
                if sum(answers.values()) >= at_once:
                    started.set()
                if status in (429, 503):
                    await asyncio.sleep(float(headers["retry-after"]))
        finally:
            http.close()

    tasks = [asyncio.create_task(one()) for _ in range(at_once)]
    # Under way before the second caller starts.
    await started.wait()
    try:
        yield
    finally:
        stop.set()
        await asyncio.gather(*tasks)


def _figures(idle: list[tuple[float, int]], during: list[tuple[float, int]]) -> list[object]:
    """p50 and p99 in ms, and their ratios to idle's, of the answered calls."""
    base = [seconds for seconds, status in idle if status == 200]
    now = [seconds for seconds, status in during if status == 200]
    if not now or not base:
        return ["-", "-", "-", "-"]
    p50, p99 = percentile(now, 50), percentile(now, 99)
    return [
        p50 * 1000,
        p99 * 1000,
        round(p50 / percentile(base, 50), 2),
        round(p99 / percentile(base, 99), 2),
    ]


def _refused(measured: list[tuple[float, int]]) -> str:
    statuses = Counter(status for _, status in measured if status != 200)
    return ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items())) or "0"
