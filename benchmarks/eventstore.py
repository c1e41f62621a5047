"""Event store throughput against its ceiling: `python -m benchmarks eventstore`.

Uses DATABASE_URL (or an embedded PostgreSQL in a temporary directory) and a scratch schema
that it drops afterwards. Every figure is events per second; each append carries one event,
so its ceiling is a raw asyncpg loop inserting the same rows one by one (each its own
transaction) with the same number of connections. Catch-up reads compare decoding into
RecordedEvent and game events against the same query fetched raw.
"""

import asyncio
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime

import asyncpg

from benchmarks._database import scratch_database
from benchmarks._options import Option, Value
from benchmarks._table import print_table
from eventstore.migrations import migrate
from eventstore.postgres import PostgresEventStore
from eventstore.postgres_sql import COLUMNS
from eventstore.records import Checkpoint, NewEvent
from schema.events import Event, EventCodec
from server.ops.database import create_pool

WRITERS = (1, 4, 16)
READ_EVENTS = 100_000
READ_BATCH = 1_000


class OrdersSubmitted(Event, frozen=True, tag="orders_submitted.v1"):
    player: str
    turn: int
    orders: tuple[str, ...]


CODEC = EventCodec[OrdersSubmitted](OrdersSubmitted)
WHEN = datetime(2030, 1, 1, tzinfo=UTC)
ORDERS = ("BF to EH", "JN to AE", "CR S BF to EH", "TR H")


def _event(turn: int) -> NewEvent:
    return CODEC.new_event(
        OrdersSubmitted(player="p7", turn=turn, orders=ORDERS),
        occurred_at=WHEN,
        actor="bench",
        correlation_id=uuid.uuid4(),
    )


async def _rate(writers: int, seconds: float, write: Callable[[int], Awaitable[int]]) -> float:
    """Events per second of `writers` concurrent loops; write(writer) returns events done."""
    deadline = time.perf_counter() + seconds

    async def loop(writer: int) -> int:
        done = 0
        while time.perf_counter() < deadline:
            done += await write(writer)
        return done

    started = time.perf_counter()
    counts = await asyncio.gather(*(loop(writer) for writer in range(writers)))
    return sum(counts) / (time.perf_counter() - started)


async def _raw_insert_rate(pool: asyncpg.Pool, writers: int, seconds: float) -> float:
    """The same row as an append writes (every column, a fresh event each time), inserted
    by a bare asyncpg loop into a table with a key and nothing else: no stream head, no
    version check, no idempotency."""
    await pool.execute(
        "CREATE TABLE IF NOT EXISTS raw_inserts (position bigserial PRIMARY KEY, "
        "stream_id text NOT NULL, version bigint NOT NULL, event_id uuid NOT NULL, "
        "type text NOT NULL, data bytea NOT NULL, occurred_at timestamptz NOT NULL, "
        "actor text NOT NULL, correlation_id uuid NOT NULL, causation_id uuid)"
    )
    insert = (
        "INSERT INTO raw_inserts (stream_id, version, event_id, type, data, occurred_at, "
        "actor, correlation_id, causation_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
    )
    connections = [await pool.acquire() for _ in range(writers)]
    turns = [0] * writers
    try:

        async def insert_one(writer: int) -> int:
            turns[writer] += 1
            event = _event(turns[writer])
            await connections[writer].execute(
                insert,
                *("raw", turns[writer], event.event_id, event.type, event.data),
                *(event.occurred_at, event.actor, event.correlation_id, event.causation_id),
            )
            return 1

        return await _rate(writers, seconds, insert_one)
    finally:
        for connection in connections:
            await pool.release(connection)


async def _append_rate(
    store: PostgresEventStore, writers: int, streams: int, seconds: float
) -> float:
    prefix = uuid.uuid4().hex[:8]
    versions: dict[str, int] = {}
    turns = [0] * writers

    async def append(writer: int) -> int:
        turns[writer] += 1
        if streams == 1:
            # Concurrent writers of one stream cannot all know its version: append anywhere.
            expected = None if writers > 1 else versions.get("one", 0)
            stream_id = f"{prefix}-one"
        else:
            # Each writer owns a share of the streams, so it always knows their versions.
            share = streams // writers
            stream_id = f"{prefix}-{writer + writers * (turns[writer] % share)}"
            expected = versions.get(stream_id, 0)
        result = await store.append(stream_id, [_event(turns[writer])], expected)
        versions["one" if streams == 1 else stream_id] = result.version
        return 1

    return await _rate(writers, seconds, append)


async def _read_rates(
    pool: asyncpg.Pool, store: PostgresEventStore, rounds: int
) -> tuple[float, float, float]:
    """Median raw and decoded rates over the whole log, and the median of their ratios."""
    for stream in range(READ_EVENTS // READ_BATCH):
        await store.append(f"read-{stream}", [_event(turn) for turn in range(READ_BATCH)], 0)
    await _raw_read(pool)  # warm the cache and the prepared statements
    raws, decodeds, ratios = [], [], []
    for _ in range(rounds):
        started = time.perf_counter()
        raw = await _raw_read(pool) / (time.perf_counter() - started)
        started = time.perf_counter()
        count = 0
        after = Checkpoint.START
        while events := await store.read_all(after=after, limit=READ_BATCH):
            count += len(CODEC.decode_all(events))
            after = events[-1].checkpoint
        decoded = count / (time.perf_counter() - started)
        raws.append(raw)
        decodeds.append(decoded)
        ratios.append(decoded / raw)
    return statistics.median(raws), statistics.median(decodeds), statistics.median(ratios)


async def _raw_read(pool: asyncpg.Pool) -> int:
    query = (
        f"SELECT {COLUMNS} FROM events WHERE (transaction_id, position) > ($1::xid8, $2) "
        "AND transaction_id < (SELECT pg_snapshot_xmin(pg_current_snapshot())) "
        "ORDER BY transaction_id, position LIMIT $3"
    )
    count, transaction_id, position = 0, 0, 0
    async with pool.acquire() as connection:
        while rows := await connection.fetch(query, transaction_id, position, READ_BATCH):
            count += len(rows)
            transaction_id, position = rows[-1][3], rows[-1][2]
    return count


async def _run(seconds: float, rounds: int, in_flight: int) -> list[list[object]]:
    async with scratch_database() as url:
        pool = await create_pool(url, max_size=max(WRITERS) + 4)
        try:
            await migrate(pool)
            async with await PostgresEventStore.open(pool, max_in_flight=in_flight) as store:
                rows = await _measure(pool, store, seconds, rounds)
        finally:
            await pool.close()
    return rows


async def _measure(
    pool: asyncpg.Pool, store: PostgresEventStore, seconds: float, rounds: int
) -> list[list[object]]:
    """Each figure is the median of `rounds`, each round measuring the ceiling right before
    the appends it is compared with: a shared machine's disk and CPU come and go."""
    rows: list[list[object]] = []
    for writers in WRITERS:
        ceilings: list[float] = []
        rates: dict[int, list[float]] = {1: [], 1_000: []}
        ratios: dict[int, list[float]] = {1: [], 1_000: []}
        for _ in range(rounds):
            ceiling = await _raw_insert_rate(pool, writers, seconds)
            ceilings.append(ceiling)
            for streams in rates:
                rate = await _append_rate(store, writers, streams, seconds)
                rates[streams].append(rate)
                ratios[streams].append(rate / ceiling)
        ceiling = statistics.median(ceilings)
        rows.append(["raw single-row insert (ceiling)", writers, ceiling, ceiling, 1.0])
        for streams, label in ((1, "append, 1 stream"), (1_000, "append, 1,000 streams")):
            median = statistics.median(rates[streams])
            rows.append([label, writers, median, ceiling, statistics.median(ratios[streams])])
    raw, decoded, ratio = await _read_rates(pool, store, rounds)
    rows.append(["catch-up read, raw rows", 1, raw, raw, 1.0])
    rows.append(["catch-up read, decoded events", 1, decoded, raw, ratio])
    return rows


OPTIONS = {
    "seconds": Option(1.0, "seconds of each measurement"),
    "rounds": Option(3, "rounds of each measurement, of which the median is reported"),
    "in-flight": Option(4, "the store's max_in_flight"),
}


def main(options: Mapping[str, Value]) -> None:
    seconds = float(options["seconds"])
    rounds = int(options["rounds"])
    in_flight = int(options["in-flight"])
    rows = asyncio.run(_run(seconds, rounds, in_flight))
    print_table(["measure", "writers", "events/s", "ceiling/s", "ratio"], rows)
