"""Heavy reads beside each other: `python -m benchmarks heavy`.

One caller keeps 20 heavy reads under way at once, `GET /v1/games/{game}/map.png?turn=n`
or `GET /v1/games/{game}/verify` of games and turns that it has not asked for before where
it can (each answered, the next one sent at once, or after Retry-After when refused: as a
client should; without, it would measure a flood of refusals, which costs the server as
much as a flood of any read); meanwhile a second caller asks, one after the other,
`--samples` verifications and `--samples` pictures of games and turns that nobody has asked
for before, so that no cache answers it, each alternately with the burst paused (idle: no
other call under way) and under way, so that the rest of the machine's load, which moves
from minute to minute, weighs on both alike. The table gives the second caller's latency
idle and during each burst, p50 and p99, their ratios (the goal: 2 at most), what the
second caller was refused, and the burst's answers
by status. Each caller is anonymous, from an address of its own (X-Forwarded-For, which
the server takes from 127.0.0.1 as from a reverse proxy).

The games are built by the pure decider and appended straight to the store (benchmarks/
_games.py), then the server (one process, as benchmarks/api.py runs it) catches its read
models up. Runs in a scratch schema of DATABASE_URL, or of an embedded PostgreSQL when it
is unset (benchmarks._database), dropped at the end.
"""

import asyncio
import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
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
            "idle p50 ms",
            "idle p99 ms",
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
    # The second caller's games: a verification of each, idle and beside each burst; its
    # pictures come from the same games, a turn each.
    own = [f"other{n:04}" for n in range(WARM_UP + 2 * samples * len(KINDS))]
    theirs = [f"burst{n:04}" for n in range(burst_games)]
    async with scratch_database() as url:
        await _build(url, [*own, *theirs], players=players, turns=turns)
        async with server(url) as (port, _):
            http = await Http.open(port)
            await _caught_up(http, [*own, *theirs], turns)
            http.close()
            other = _Other(port, iter(own), _pictures(own, turns))
            # The server's workers started, and the code each call runs warm.
            for kind in KINDS:
                for _ in range(WARM_UP):
                    await other.call(kind)
            rows: list[list[object]] = []
            for burst_kind in KINDS:
                burster = _Burst(port, burst, _targets(burst_kind, theirs, turns))
                for kind in KINDS:
                    burster.answers.clear()
                    idle, during = await _alternately(other, kind, burster, samples)
                    rows.append(
                        [
                            kind,
                            f"{burst} {burst_kind} at once",
                            *_figures(idle, during),
                            _refused(idle + during),
                            burster.describe(),
                        ]
                    )
                await burster.stop()
            return rows


async def _alternately(
    other: "_Other", kind: str, burster: "_Burst", samples: int
) -> tuple[list[tuple[float, int]], list[tuple[float, int]]]:
    """The other caller's calls, one idle and one during the burst in turn, so that the
    rest of the machine's load (which moves from minute to minute) weighs on both alike."""
    idle, during = [], []
    for _ in range(samples):
        await burster.pause()
        idle.append(await other.call(kind))
        await burster.resume()
        during.append(await other.call(kind))
    await burster.pause()
    return idle, during


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


class _Other:
    """The second caller: one call at a time, each of something nobody asked for before."""

    def __init__(self, port: int, verifications: Iterator[str], pictures: Iterator[str]) -> None:
        self._port = port
        self._verifications = verifications
        self._pictures = pictures

    async def call(self, kind: str) -> tuple[float, int]:
        """(seconds, status) of one call of `kind`, on a connection of its own."""
        if kind == "map":
            path = next(self._pictures)
        else:
            path = f"/v1/games/{next(self._verifications)}/verify"
        http = await Http.open(self._port)
        try:
            began = time.perf_counter()
            status, _, _ = await http.request("GET", path, headers=OTHER)
            return time.perf_counter() - began, status
        finally:
            http.close()


class _Burst:
    """The first caller: `at_once` calls under way, each on a connection of its own, the
    next sent as soon as one is answered (after Retry-After if refused), while it is not
    paused; `answers` counts their statuses (cleared for each row of the table)."""

    def __init__(self, port: int, at_once: int, targets: Iterator[str]) -> None:
        self.answers: Counter[int] = Counter()
        self._at_once = at_once
        self._targets = targets
        self._going = asyncio.Event()
        self._under_way = 0
        self._changed = asyncio.Event()
        self._tasks = [asyncio.create_task(self._caller(port)) for _ in range(at_once)]

    async def _caller(self, port: int) -> None:
        http = await Http.open(port)
        try:
            while True:
                await self._going.wait()
                self._under_way += 1
                try:
                    status, headers, _ = await http.request(
                        "GET", next(self._targets), headers=BURSTER
                    )
                finally:
                    self._under_way -= 1
                self.answers[status] += 1
                self._changed.set()
                if status in (429, 503):
                    await asyncio.sleep(float(headers["retry-after"]))
        finally:
            http.close()

    async def _until(self, condition: Callable[[], bool]) -> None:
        while not condition():
            self._changed.clear()
            await self._changed.wait()

    async def resume(self) -> None:
        """Until every caller has sent its call and all but the share have been answered:
        the burst is under way."""
        answered = sum(self.answers.values())
        self._going.set()
        await self._until(lambda: sum(self.answers.values()) - answered >= self._at_once - 1)

    async def pause(self) -> None:
        """Until none of its calls is under way."""
        self._going.clear()
        await self._until(lambda: self._under_way == 0)

    async def stop(self) -> None:
        await self.pause()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def describe(self) -> str:
        return ", ".join(f"{n} x {status}" for status, n in sorted(self.answers.items()))


def _figures(idle: list[tuple[float, int]], during: list[tuple[float, int]]) -> list[object]:
    """p50 and p99 in ms idle and during, and the ratios of during's to idle's, of the
    answered calls."""
    base = [seconds for seconds, status in idle if status == 200]
    now = [seconds for seconds, status in during if status == 200]
    if not now or not base:
        return ["-"] * 6
    figures = [percentile(base, 50), percentile(base, 99), percentile(now, 50), percentile(now, 99)]
    return [
        *(seconds * 1000 for seconds in figures),
        round(figures[2] / figures[0], 2),
        round(figures[3] / figures[1], 2),
    ]


def _refused(measured: list[tuple[float, int]]) -> str:
    statuses = Counter(status for _, status in measured if status != 200)
    return ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items())) or "0"
