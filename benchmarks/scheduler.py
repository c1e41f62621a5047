"""Games that fall due in the same minute: `python -m benchmarks scheduler`.

How long the scheduler takes to resolve `--games` Skirmish Society games of 20 players on
generated maps, every army ordered, whose first resolutions fall due within one minute of fake
time, and to time out `--art-of-war-games` Art of War games of 20 players on generated maps
whose first turns' deadlines (15 minutes) fall in one minute, every player but one having
sent orders (benchmarks/_art_of_war_games.py): with
one `skirmish serve --fake-clock` process, then with three on the same schema (a run for
each count of `--servers`), and the CPU time per resolution meanwhile of the servers and
of this machine's PostgreSQL (all of its processes, whatever else they serve), which the
rest of the machine's load moves less than the wall time, and the servers' memory at the
end (their caches of games' states are bounded: projections/states.py). Each group of
games is built by the pure decider and appended in batches straight to the store (create,
20 joins, the start, every player's orders, the reminders already sent), the read models
are caught up, and the servers' clocks are set to just before the minute. Then the clock of
every server is set, concurrently, to the end of the minute through POST /v1/admin/clock,
and the wall time runs until every game of the group has resolved (its stream grew: the
resolution is one append), and until every clock call has answered (each one steps through
the minute's due moments, and waits for the read models to catch up before it answers).
Meanwhile the read models' lag is sampled every 0.1 s (benchmarks/_lag.py): its maximum and
99th percentile in events, and in seconds (how long they took to reach the log's head each
sample saw: what a read arriving then waits, docs/api.md "Consistency").

The two games are compared on the same footing: 20 players, the same generated maps of
about 120 territories (the same 50 seeds), the first turn, every player's forces ordered
(but the Art of War's last player's, so that the scheduler is the one to resolve it). The
Art of War runs twice (`--art-of-war-starts`): from its default start, `one` territory each
(19 orders, each sending a unit at a neighbour), the game as it is created, the row of the
goal (issue 29: Art of War games resolved as fast as Skirmish Society's); and from `fill`,
every territory a player's, some 1,000 units on the map, each territory of 19 of the players
sending one to a neighbour (114 orders, some 110 of them attacks, where Skirmish Society's
20 players order their 40 armies): the heaviest first turn the game has. An Art of War
game's map is generated again from its seed in every process that loads it (some 15 ms a
map), where Skirmish Society's rides in its `game_started`.

The groups fall due in consecutive minutes, so that each run has games nobody has loaded
yet; the Art of War's after Skirmish Society's. Runs in a scratch
schema of DATABASE_URL, or of an embedded PostgreSQL when it is unset (benchmarks._database),
dropped at the end.
"""

import asyncio
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import httpx
import msgspec

from benchmarks._art_of_war_games import art_of_war_due
from benchmarks._database import migrated_pool, scratch_database
from benchmarks._games import ORDERS_AFTER, BuiltGame, append_games
from benchmarks._lag import LagSamples, percentile
from benchmarks._options import Option, Value
from benchmarks._processes import cpu_seconds, postgres_cpu_seconds, rss
from benchmarks._table import print_table
from eventstore.postgres import PostgresEventStore
from projections.loading import stream_of
from projections.runner import ReadModelRunner
from projections.schedule import FAST_PERIOD, FAST_REMINDER_LEAD
from schema.game_events import GameStarted, Settings

PLAYERS = 20
# Games share this many generated maps (a map is generated once per seed; the decider is
# pure, so every game of a seed starts the same way).
MAPS = 50
# Games are built and appended this many at a time.
BUILD_CHUNK = 200
SKIRMISH = Path(sys.executable).parent / "skirmish"
TOKEN = "operator-token-for-the-benchmark"
# How often the benchmark counts the games resolved: each count scans the streams table,
# on the PostgreSQL whose CPU per resolution is measured meanwhile.
POLL_SECONDS = 0.25
CALL_TIMEOUT_SECONDS = 1800.0
SKIRMISH_SOCIETY = "skirmish-society"
# The Art of War by its start (options' `initial`): the game's name as each row shows it.
ART_OF_WAR = {"one": "art-of-war", "fill": "art-of-war (fill)"}
# The Art of War's deadline in these games: as long as Skirmish Society's fast turn.
DEADLINE = FAST_PERIOD
# What each game's due step appends, once: a resolution, or a timed-out wait's step.
RESOLUTION_TYPE = {
    SKIRMISH_SOCIETY: "turn_resolved.v1",
    **dict.fromkeys(ART_OF_WAR.values(), "play_recorded.v1"),
}


class Group(msgspec.Struct, frozen=True):
    """The games of one run: which game they play, by id with their starts."""

    game: str
    starts: dict[str, datetime]


def _starts(prefix: str, games: int, first_due: datetime) -> dict[str, datetime]:
    """Game id -> start, so that the first resolutions (or deadlines: as long after the
    start) fall on the 60 seconds from `first_due`, evenly."""
    return {
        f"{prefix}{n:05}": first_due - FAST_PERIOD + timedelta(seconds=n % 60) for n in range(games)
    }


def _built(game: str, n: int, game_id: str, start: datetime, rng: random.Random) -> BuiltGame:
    initial = next((kind for kind, name in ART_OF_WAR.items() if name == game), None)
    if initial is not None:
        seconds = int(DEADLINE.total_seconds())
        return art_of_war_due(game_id, seed=n % MAPS, at=start, deadline=seconds, initial=initial)
    built = BuiltGame(game_id)
    settings = Settings(name="Benchmark", fast_mode=True)
    built.set_up(settings, players=PLAYERS, seed=n % MAPS, at=start, starts=_STARTS)
    built.order_every_army(start + ORDERS_AFTER, rng)
    built.remind(start + FAST_PERIOD - FAST_REMINDER_LEAD)
    return built


# Skirmish Society's starts by (seed, players): a map is generated once.
_STARTS: dict[tuple[int, int], GameStarted] = {}


async def _build(store: PostgresEventStore, group: Group) -> tuple[int, int]:
    """Build and append the games, a chunk at a time; (events, version of each game)."""
    rng = random.Random(7)
    events = 0
    versions: set[int] = set()
    items = list(group.starts.items())
    for first in range(0, len(items), BUILD_CHUNK):
        chunk: list[BuiltGame] = []
        for n, (game_id, start) in enumerate(items[first : first + BUILD_CHUNK], start=first):
            game = _built(group.game, n, game_id, start, rng)
            versions.add(game.state.version)
            chunk.append(game)
        events += await append_games(store, chunk)
    [version] = versions
    return events, version


@asynccontextmanager
async def _servers(
    count: int, schema_url: str, logs: Path
) -> AsyncIterator[tuple[list[str], list[int]]]:
    """`count` servers on the schema; their base URLs and process ids. Every one is stopped
    on the way out."""
    environment = {**os.environ, "DATABASE_URL": schema_url, "SKIRMISH_OPERATOR_TOKEN": TOKEN}
    processes: list[asyncio.subprocess.Process] = []
    try:
        paths: list[Path] = []
        for n in range(count):
            path = logs / f"server-{count}-{n}.log"
            with path.open("wb") as log:
                processes.append(
                    await asyncio.create_subprocess_exec(
                        str(SKIRMISH),
                        *("serve", "--fake-clock", "--port", "0"),
                        env=environment,
                        stdout=log,
                        stderr=log,
                    )
                )
            paths.append(path)
        urls = []
        for process, path in zip(processes, paths, strict=True):
            async with asyncio.timeout(60):
                while (url := _announced(path)) is None:
                    if process.returncode is not None:
                        raise RuntimeError(f"serve exited early:\n{_read(path)}")
                    await asyncio.sleep(0.05)
            urls.append(url)
        yield urls, [process.pid for process in processes]
    finally:
        for process in processes:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                async with asyncio.timeout(30):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()


def _announced(log: Path) -> str | None:
    found = re.search(r"Uvicorn running on (\S+)", _read(log))
    return None if found is None else found[1]


def _read(log: Path) -> str:
    return log.read_text()


async def _set_clock(client: httpx.AsyncClient, url: str, to: datetime) -> float:
    """Set one server's clock; when it answered (perf_counter), the read models caught up
    (a server waits 30 s for them, then asks to be called again)."""
    while True:
        response = await client.post(
            f"{url}/v1/admin/clock",
            json={"set": to.isoformat()},
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
        if response.status_code != 503 or response.json()["error"]["code"] != "read_models_behind":
            response.raise_for_status()
            return time.perf_counter()


async def _resolved(pool: asyncpg.Pool, prefix: str, version: int) -> int:
    """Games of the group whose stream has grown past its built version: a resolution (one
    append, with its results) is the only thing appended to them."""
    count: int = await pool.fetchval(
        "SELECT count(*) FROM streams WHERE stream_id LIKE $1 AND version > $2",
        f"{stream_of(prefix)}%",
        version,
    )
    return count


async def _run_group(
    pool: asyncpg.Pool,
    schema_url: str,
    logs: Path,
    servers: int,
    group: Group,
    prefix: str,
    version: int,
) -> tuple[float, float, float, float | None, int, LagSamples]:
    """Seconds until every game resolved, and until every clock call answered; the servers'
    CPU seconds meanwhile, and this machine's PostgreSQL's (None if it has none); the
    servers' resident memory at the end, in bytes; the read models' lag meanwhile."""
    starts = group.starts
    first_due = min(starts.values()) + FAST_PERIOD
    last_due = max(starts.values()) + FAST_PERIOD
    async with (
        _servers(servers, schema_url, logs) as (urls, pids),
        httpx.AsyncClient(timeout=CALL_TIMEOUT_SECONDS) as client,
    ):
        before = first_due - timedelta(seconds=1)
        await asyncio.gather(*(_set_clock(client, url, before) for url in urls))
        assert await _resolved(pool, prefix, version) == 0
        cpu, database_cpu = cpu_seconds(pids), postgres_cpu_seconds()
        lag = LagSamples(pool)
        lag.start()
        started = time.perf_counter()
        calls = [asyncio.create_task(_set_clock(client, url, last_due)) for url in urls]
        while await _resolved(pool, prefix, version) < len(starts):
            if any(call.done() and call.exception() for call in calls):
                await asyncio.gather(*calls)
            await asyncio.sleep(POLL_SECONDS)
        resolved = time.perf_counter() - started
        answered = max(await asyncio.gather(*calls)) - started
        await lag.stop()
        memory = rss(pids)
        cpu = cpu_seconds(pids) - cpu
        database_after = postgres_cpu_seconds()
        if database_cpu is not None and database_after is not None:
            database_cpu = database_after - database_cpu
    twice = await pool.fetchval(
        "SELECT count(*) - count(DISTINCT stream_id) FROM events "
        "WHERE type = $2 AND stream_id LIKE $1",
        f"{stream_of(prefix)}%",
        RESOLUTION_TYPE[group.game],
    )
    assert twice == 0, f"{twice} turns resolved twice"
    return resolved, answered, cpu, database_cpu, memory, lag


async def _run(counts: dict[str, int], server_counts: list[int]) -> None:
    base = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(hours=1)
    runs = [(game, servers) for game, n in counts.items() if n for servers in server_counts]
    # Each run's group falls due in a minute of its own: "a" in the first, "b" in the next...
    prefixes = [chr(ord("a") + minute) for minute in range(len(runs))]
    groups = {
        prefix: Group(game, _starts(prefix, counts[game], base + timedelta(minutes=minute)))
        for minute, (prefix, (game, _)) in enumerate(zip(prefixes, runs, strict=True))
    }
    async with (
        scratch_database() as schema_url,
        migrated_pool(schema_url) as pool,
        await PostgresEventStore.open(pool) as store,
    ):
        started = time.perf_counter()
        events = 0
        versions: dict[str, int] = {}
        for prefix, group in groups.items():
            written, versions[prefix] = await _build(store, group)
            events += written
        built = time.perf_counter() - started
        await ReadModelRunner(store, pool).catch_up()
        caught_up = time.perf_counter() - started - built
        wars = max(counts.get(game, 0) for game in ART_OF_WAR.values())
        print(
            f"{counts[SKIRMISH_SOCIETY]:,} Skirmish Society games per run x {PLAYERS} players, "
            f"fast mode, generated maps ({MAPS} seeds), every army ordered; first resolutions "
            f"due over one minute.\n{wars:,} Art of War games per run and start x {PLAYERS} "
            "players, generated maps, every player but one's orders in; first "
            f"turns' deadlines ({DEADLINE.total_seconds() / 60:g} min) over one minute.\n"
            f"Built {len(groups)} groups, {events:,} events, in {built:.0f} s; "
            f"read models caught up in {caught_up:.0f} s.\n"
        )
        rows: list[tuple[object, ...]] = []
        with tempfile.TemporaryDirectory(prefix="skirmish-bench-") as logs:
            single: dict[str, float] = {}
            for (game, servers), prefix in zip(runs, groups, strict=True):
                group = groups[prefix]
                resolved, answered, cpu, database_cpu, memory, lag = await _run_group(
                    pool, schema_url, Path(logs), servers, group, prefix, versions[prefix]
                )
                first = single.setdefault(game, resolved)
                due = len(group.starts)
                rows.append(
                    (
                        game,
                        servers,
                        due,
                        resolved,
                        due / resolved,
                        f"{first / resolved:.2f}x",
                        answered,
                        cpu * 1000 / due,
                        "-" if database_cpu is None else f"{database_cpu * 1000 / due:.2f}",
                        memory / 2**20,
                        max(lag.events, default=0),
                        int(percentile(lag.events, 0.99)),
                        max(lag.seconds, default=0.0),
                        percentile(lag.seconds, 0.99),
                    )
                )
        print_table(
            (
                "game",
                "server processes",
                "games due in the minute",
                "all resolved (s)",
                "resolutions/s",
                "speed-up",
                "clock calls answered (s)",
                "servers' CPU ms per resolution",
                "PostgreSQL's",
                "servers' RSS MB (at the end)",
                "read models' lag: max (events)",
                "p99 (events)",
                "max (s)",
                "p99 (s)",
            ),
            rows,
        )


OPTIONS = {
    "games": Option(10_000, "Skirmish Society games of 20 players due in the same minute, per run"),
    "art-of-war-games": Option(
        2_000, "Art of War games of 20 players whose deadlines fall in the same minute (0: none)"
    ),
    "art-of-war-starts": Option("one,fill", "the Art of War's starts, a run for each"),
    "servers": Option("1,3", "server processes on the schema, a run for each count (and game)"),
}


def main(options: Mapping[str, Value]) -> None:
    starts = str(options["art-of-war-starts"]).split(",")
    unknown = sorted(set(starts) - set(ART_OF_WAR))
    if unknown:
        raise SystemExit(f"--art-of-war-starts: no start {unknown[0]!r}; they are one, fill")
    counts = {
        SKIRMISH_SOCIETY: int(options["games"]),
        **{ART_OF_WAR[start]: int(options["art-of-war-games"]) for start in starts},
    }
    server_counts = [int(n) for n in str(options["servers"]).split(",")]
    started = time.perf_counter()
    asyncio.run(_run(counts, server_counts))
    print(f"\n(whole run: {time.perf_counter() - started:.0f} s, on {os.cpu_count()} cores)")
