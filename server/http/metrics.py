"""What `GET /metrics` tells Prometheus (docs/operations.md, "Metrics").

Each application has a registry of its own (never prometheus_client's global one), so that
several apps in one process keep their figures apart. What the hot paths feed (requests,
resolutions, appends) is counted as it happens, through small hooks; everything else is read
when scraped: the process's sockets and pool from memory, the read models' lag and the
webhook outbox from the database, within a timeout, and left out when the database does not
answer (`skirmish_database_up` says so).

Under `skirmish serve --workers N` the workers share their figures through prometheus_client's
multi-process mode: the parent makes a directory for them (SHARED_DIRECTORY, in the
environment before any worker starts, since prometheus_client reads it at import) and every
scrape, whichever worker answers it, adds up the counters and histograms of every worker
that ever ran, and the gauges of those alive (the parent forgets a dead worker's)."""

import asyncio
import os
import time
from collections.abc import Callable, Iterable
from datetime import datetime

import asyncpg
import msgspec
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eventstore.outages import UNREACHABLE
from projections.lag import Lag, read_model_lag
from server.http.routing import template as route_template

# prometheus_client's own variable: where the processes of one server write their figures.
SHARED_DIRECTORY = "PROMETHEUS_MULTIPROC_DIR"
# Read once, at import, as prometheus_client reads it to choose where values live: set in
# the workers of `skirmish serve --workers N` only.
_SHARED = os.environ.get(SHARED_DIRECTORY)
# How often a worker writes its gauges (sockets, pool) for the others' scrapes.
GAUGE_SECONDS = 1.0
# A scrape waits this long for the database before it answers without its figures.
DATABASE_SECONDS = 2.0
# The label of requests that no route matched: their paths are never labels (hostile
# clients would make them unbounded).
UNMATCHED = "unmatched"
# Each count from a partial index of what it counts (schema/sql/0004_webhooks.sql, 0015): the
# table keeps every delivery ever made.
_WEBHOOKS = """
SELECT count(*), count(*) FILTER (WHERE attempts > 0),
       (SELECT count(*) FROM webhook_deliveries WHERE failed_at IS NOT NULL)
FROM webhook_deliveries WHERE delivered_at IS NULL AND failed_at IS NULL"""
_UNANSWERED: tuple[type[Exception], ...] = (*UNREACHABLE, asyncpg.PostgresError, TimeoutError)


class DatabaseFigures(msgspec.Struct, frozen=True):
    lag: Lag
    # Deliveries not yet made; of them, those that failed at least once; those given up.
    webhook_backlog: int
    webhook_retrying: int
    webhook_given_up: int


async def database_figures(pool: asyncpg.Pool, now: datetime) -> DatabaseFigures:
    async with pool.acquire() as connection:
        lag = await read_model_lag(connection, now)
        row = await connection.fetchrow(_WEBHOOKS)
    assert row is not None
    return DatabaseFigures(lag, *row)


class _FromDatabase(Collector):
    """The figures of the latest scrape's queries, or none when they failed."""

    def __init__(self) -> None:
        self.figures: DatabaseFigures | None = None

    def collect(self) -> Iterable[Metric]:
        up = GaugeMetricFamily(
            "skirmish_database_up", "1 if the database answered this scrape in time, else 0"
        )
        up.add_metric([], 0 if self.figures is None else 1)
        yield up
        if self.figures is None:
            return
        found = self.figures
        for name, text, value in (
            (
                "skirmish_read_model_lag_events",
                "events committed that the read models have not applied (counted to 100000)",
                found.lag.events,
            ),
            (
                "skirmish_read_model_lag_seconds",
                "age of the oldest event the read models have not applied",
                found.lag.seconds,
            ),
            ("skirmish_webhook_backlog", "webhook deliveries not yet made", found.webhook_backlog),
            (
                "skirmish_webhook_retrying",
                "webhook deliveries not yet made that failed at least once",
                found.webhook_retrying,
            ),
            (
                "skirmish_webhook_given_up",
                "webhook deliveries given up after too many failures",
                found.webhook_given_up,
            ),
        ):
            yield GaugeMetricFamily(name, text, value=value)


class Metrics:
    """The instruments of one application, and its scrape."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.shared = _SHARED
        self.requests = Counter(
            "skirmish_http_requests",
            "HTTP requests answered, by method, route template and status",
            ["method", "route", "status"],
            registry=registry,
        )
        self.request_seconds = Histogram(
            "skirmish_http_request_seconds",
            "time to answer an HTTP request (to its headers), by method and route template",
            ["method", "route"],
            registry=registry,
        )
        self.resolution_seconds = Histogram(
            "skirmish_resolution_seconds",
            "turns resolved by this server, and how long each took (loading to appending)",
            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
            registry=registry,
        )
        self.append_seconds = Histogram(
            "skirmish_event_store_append_seconds",
            "time to append to the event store (waiting for a combined write included)",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
            registry=registry,
        )
        self.forwarded = Counter(
            "skirmish_forwarded_commands",
            "commands sent to their game's home worker (server/game/homes.py), by outcome: "
            "appended, refused (by the game), unreachable (run where they came), failed (503 busy)",
            ["outcome"],
            registry=registry,
        )
        # Of the processes alive, summed (the mode matters only when shared).
        self.open_sockets = Gauge(
            "skirmish_open_sockets",
            "websockets the server holds open",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self.pool_size = Gauge(
            "skirmish_pool_connections",
            "database connections the pools hold",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self.pool_idle = Gauge(
            "skirmish_pool_idle_connections",
            "of the pools' connections, those not lent out",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self.pool_max = Gauge(
            "skirmish_pool_max_connections",
            "the most the pools may hold",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self._gauges: list[tuple[Gauge, Callable[[], int]]] = []
        self._database = _FromDatabase()
        registry.register(self._database)

    def forwarded_command(self, outcome: str) -> None:
        self.forwarded.labels(outcome).inc()

    def watch(self, pool: asyncpg.Pool, open_sockets: Callable[[], int]) -> None:
        """Read the pool and the sockets when scraped (nothing on their paths), and, when
        shared, every GAUGE_SECONDS for the other workers' scrapes (`share_gauges`)."""
        self._gauges = [
            (self.pool_size, pool.get_size),
            (self.pool_idle, pool.get_idle_size),
            (self.pool_max, pool.get_max_size),
            (self.open_sockets, open_sockets),
        ]

    def _read_gauges(self) -> None:
        for gauge, read in self._gauges:
            gauge.set(read())

    async def share_gauges(self) -> None:
        """A worker's loop: its gauges written where the others' scrapes read them."""
        while True:
            self._read_gauges()
            await asyncio.sleep(GAUGE_SECONDS)

    async def scrape(self, pool: asyncpg.Pool, now: datetime) -> bytes:
        """The text exposition of everything (of every worker, when shared); the database's
        figures only if it answered within DATABASE_SECONDS."""
        try:
            async with asyncio.timeout(DATABASE_SECONDS):
                self._database.figures = await database_figures(pool, now)
        except _UNANSWERED:
            self._database.figures = None
        self._read_gauges()
        if self.shared is None:
            return generate_latest(self.registry)
        every_worker = CollectorRegistry()
        MultiProcessCollector(every_worker, self.shared)  # type: ignore[no-untyped-call]
        every_worker.register(self._database)
        return generate_latest(every_worker)


class RequestMetrics:
    """Counts every HTTP request by its route's template (`/v1/games/{game}/orders`), never
    its path, and times it to its answer's headers."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        answered = False

        async def send_and_count(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                answered = True
                self._record(scope, message["status"], time.perf_counter() - started)
            await send(message)

        try:
            await self.app(scope, receive, send_and_count)
        except Exception:
            # Starlette's outermost layer answers it with a 500, outside this one.
            if not answered:
                self._record(scope, 500, time.perf_counter() - started)
            raise

    def _record(self, scope: Scope, status: int, seconds: float) -> None:
        route = scope.get("route")
        if isinstance(route, BaseRoute):
            template = getattr(route, "path", None)
        else:
            # Answered before routing (the gate's 401 and 429): under the route it was for.
            template = route_template(scope)
        # Only methods that routes serve; anything else one label, for the same reason.
        method = scope["method"] if scope["method"] in _METHODS else "other"
        labels = (method, template or UNMATCHED)
        self.metrics.requests.labels(*labels, str(status)).inc()
        self.metrics.request_seconds.labels(*labels).observe(seconds)


_METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
