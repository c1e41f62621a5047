"""The game as events: `python -m benchmarks domain`.

1. A full rebuild of the read models (ReadModelRunner.reset, then catch_up, with the
   garbage collector's thresholds of `skirmish rebuild` and the server) from a log of
   `--games` games (default 100) of `--turns` turns (default 200): events per second.
2. Loading a game of `--long-turns` turns (default 1,000) cold, in a fresh GameService:
   with its snapshots (one per resolution, as GameService saves them), and without (the
   same GameService over a store that never finds a snapshot, so it folds the whole stream).
3. Rewinding one turn of that game (GameService.rewind in a fresh GameService: load,
   truncate and archive, reload).

The games are played by the pure decider and appended in batches straight to the store
(benchmarks._games): 5 players, fast mode, votes off, every army ordered every turn with
orders that leave the board as it is, so that nobody wins however long the game. Runs in
a scratch schema of DATABASE_URL, or of an embedded PostgreSQL when it is unset
(benchmarks._database), dropped at the end.
"""

import asyncio
import gc
import random
import statistics
import time
from collections.abc import Awaitable, Mapping
from datetime import UTC, datetime, timedelta

from benchmarks._database import migrated_pool, scratch_database
from benchmarks._games import ADMIN, SECRET, BuiltGame, append_games, count_events, save_snapshots
from benchmarks._options import Option, Value
from benchmarks._table import print_table
from eventstore.postgres import PostgresEventStore
from eventstore.records import RecordedEvent, Snapshot
from projections.runner import ReadModelRunner
from schema.commands import Actor, RewindTurn
from schema.game_events import Settings
from server.game.handlers import GameService
from server.ops.serve import GC_THRESHOLDS

PLAYERS = 5
REPEATS = 5
START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
SETTINGS = Settings(name="Benchmark", fast_mode=True, votes="disabled", vp_target=50)


class SnapshotBlindStore(PostgresEventStore):
    """The store as it would be without snapshots: none is ever found."""

    async def load_snapshot(
        self, stream_id: str, name: str, *, at_or_below: int | None = None
    ) -> Snapshot | None:
        return None

    async def read_from_snapshot(
        self, stream_id: str, name: str
    ) -> tuple[Snapshot | None, list[RecordedEvent]]:
        return None, await self.read_stream(stream_id)


def _build(game_id: str, turns: int, seed: int, *, snapshots: bool = False) -> BuiltGame:
    game = BuiltGame(game_id, snapshots=snapshots)
    game.set_up(SETTINGS, players=PLAYERS, seed=seed, at=START)
    game.play_turns(turns, random.Random(seed))
    return game


async def _timed(seconds: list[float], work: Awaitable[object]) -> None:
    started = time.perf_counter()
    await work
    seconds.append(time.perf_counter() - started)


def _ms(seconds: list[float]) -> tuple[float, float]:
    return statistics.median(seconds) * 1000, min(seconds) * 1000


async def _run(games: int, turns: int, long_turns: int) -> None:
    async with (
        scratch_database() as schema_url,
        migrated_pool(schema_url) as pool,
        await PostgresEventStore.open(pool) as store,
        await SnapshotBlindStore.open(pool) as blind_store,
    ):
        # 1. A full rebuild.
        started = time.perf_counter()
        built = [_build(f"r{n:03}", turns, seed=n) for n in range(games)]
        decided = time.perf_counter() - started
        written = await append_games(store, built)
        appended = time.perf_counter() - started - decided
        assert written == count_events(built)
        del built
        print(
            f"Rebuild log: {games} games x {turns} turns, {PLAYERS} players: {written:,} events "
            f"(decided in {decided:.1f} s, appended in {appended:.1f} s)\n"
        )
        runner = ReadModelRunner(store, pool)
        # With the garbage collector's thresholds of the server and `skirmish rebuild`.
        thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        started = time.perf_counter()
        await runner.reset()
        read = await runner.catch_up()
        rebuild_seconds = time.perf_counter() - started
        gc.set_threshold(*thresholds)
        assert read == written
        print_table(
            ("full rebuild (reset + catch_up)", "games", "turns", "events", "seconds", "events/s"),
            [("read models", games, turns, read, rebuild_seconds, read / rebuild_seconds)],
        )

        # 2. Loading a long game, with and without snapshots.
        long = _build("long", long_turns, seed=1000, snapshots=True)
        await append_games(store, [long])
        saved = await save_snapshots(store, long)
        events = len(long.events)
        print(
            f"\nLong game: {long_turns:,} turns, {PLAYERS} players, {events:,} events, "
            f"{saved:,} snapshots\n"
        )
        with_snapshots: list[float] = []
        without: list[float] = []
        for _ in range(REPEATS):
            await _timed(without, GameService(blind_store).load("long"))
            await _timed(with_snapshots, GameService(store).load("long"))
        loaded = (await GameService(store).load("long")).state
        assert loaded == (await GameService(blind_store).load("long")).state == long.state
        rows: list[tuple[object, ...]] = [
            ("with snapshots", 0, *_ms(with_snapshots)),
            ("without snapshots", events, *_ms(without)),
        ]
        print_table(
            (f"cold load, {long_turns:,}-turn game", "events folded", "median ms", "best ms"),
            rows,
        )

        # 3. Rewinding one turn of it, each time in a fresh GameService.
        rewinds: list[float] = []
        turn = loaded.turn
        for n in range(REPEATS):
            later = START + timedelta(days=30, minutes=n)
            command = RewindTurn(actor=Actor(ADMIN), now=later, secret=SECRET)
            await _timed(rewinds, GameService(store).rewind("long", command))
            turn -= 1
            assert (await GameService(store).load("long")).state.turn == turn
        archived = sum(len(t.events) for t in await store.read_archive("game-long"))
        print()
        print_table(
            (
                f"rewind one turn, {long_turns:,}-turn game",
                "rewinds",
                "events archived",
                "median ms",
                "best ms",
            ),
            [("GameService.rewind, cold", REPEATS, archived, *_ms(rewinds))],
        )


OPTIONS = {
    "games": Option(100, "games in the log that the read models rebuild from"),
    "turns": Option(200, "turns of each of those games"),
    "long-turns": Option(1000, "turns of the long game that is loaded and rewound"),
}


def main(options: Mapping[str, Value]) -> None:
    games = int(options["games"])
    turns = int(options["turns"])
    long_turns = int(options["long-turns"])
    started = time.perf_counter()
    asyncio.run(_run(games, turns, long_turns))
    print(f"\n(whole run: {time.perf_counter() - started:.0f} s)")
