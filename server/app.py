"""The FastAPI application: `create_app()` wires settings, database, store and routes."""

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from eventstore.migrations import migrate
from eventstore.postgres import PostgresEventStore
from projections.progress import CHANNEL, Progress
from projections.reads import ReadModels
from projections.runner import ReadModelRunner
from server.accounts.store import Accounts
from server.accounts.throttle import Throttle
from server.accounts.trusted_clients import TrustedClients
from server.clock import Clock, FakeClock, SystemClock
from server.game.entropy import Entropy, system_entropy
from server.game.handlers import GameService
from server.game.homes import Homes, Places
from server.http.api import document_games, document_shared, openapi_components
from server.http.cors import Cors
from server.http.errors import install_error_handlers
from server.http.gate import Gate
from server.http.heavy import HeavyReads
from server.http.limits import BodyLimit
from server.http.metrics import Metrics, RequestMetrics
from server.http.routes import (
    accounts,
    adjudicate,
    admin_actions,
    admins,
    clients,
    commands,
    docs,
    fork,
    health,
    history,
    live,
    map_image,
    maps,
    me,
    metrics,
    moves,
    play,
    verify,
    web,
)
from server.http.routes import clock as clock_routes
from server.http.routes import games as games_routes
from server.http.routes import webhooks as webhooks_routes
from server.live.hub import LiveHub
from server.live.limits import OpenSockets
from server.live.revocations import Revocations
from server.ops.clock_store import resume
from server.ops.database import create_pool, dedicated_connections
from server.ops.logs import RequestIds
from server.ops.redaction import redact_query_strings
from server.ops.scheduler import Scheduler
from server.plugins import register_games
from server.services import Services
from server.settings import Settings, SettingsError
from server.webhooks.outbox import Webhooks
from server.webhooks.sender import WebhookSender

# Shutdown waits this long for each of four steps (the background tasks, the live feeds,
# the event store, the pool's connections) before it leaves or cuts what is left: with
# uvicorn's own graceful period (server.ops.serve), SIGTERM ends the server within 10 s
# whatever state the database is in.
STOP_SECONDS = 1.5
_log = logging.getLogger(__name__)


def create_app(
    settings: Settings | None = None,
    *,
    clock: Clock | None = None,
    entropy: Entropy = system_entropy,
    places: Places | None = None,
) -> FastAPI:
    """The application. On start it opens the pool and migrates the schema; on stop it
    closes them. Without settings it reads the environment (DATABASE_URL must be set: the
    embedded database is `skirmish serve`'s business). Tests inject the clock and the
    source of games' secrets."""
    settings = settings or Settings.from_env(os.environ)
    database_url = settings.database_url
    if database_url is None:
        raise SettingsError("DATABASE_URL is not set (`skirmish serve` starts a database)")
    # Here rather than in `skirmish serve`, so that `uvicorn --factory` keeps tokens out of
    # its logs too.
    redact_query_strings()
    register_games(settings.games)
    measured = Metrics()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = await create_pool(database_url, max_size=settings.pool_size)
        try:
            await migrate(pool)
            if isinstance(clock, FakeClock):
                await resume(clock, pool)
            store = await PostgresEventStore.open(
                pool, observe_append=measured.append_seconds.observe
            )
            heavy = HeavyReads(
                at_once=settings.heavy_at_once,
                per_caller=settings.heavy_per_caller,
                games=settings.games,
            )
            try:
                games = GameService(store, on_resolved=measured.resolution_seconds.observe)
                progress = Progress(pool)
                await store.listen(await pool.fetchval(CHANNEL), progress.heard)
                read_models = ReadModels(pool, progress)
                the_clock = clock or SystemClock()
                the_accounts = Accounts(pool, settings.operator_token)
                revocations = Revocations(the_accounts.known)
                await revocations.start(store, pool)
                found = Services(
                    pool=pool,
                    store=store,
                    games=games,
                    live=LiveHub(games, store, OpenSockets(settings)),
                    accounts=the_accounts,
                    clients=TrustedClients(pool),
                    revocations=revocations,
                    clock=the_clock,
                    scheduler=Scheduler(games, pool, the_clock, read_models=read_models),
                    # Limits count real time, even while a fake clock stands still.
                    throttle=Throttle(settings.rate_limits, SystemClock()),
                    read_models=read_models,
                    heavy=heavy,
                    fake_clock=isinstance(clock, FakeClock),
                    entropy=entropy,
                    webhook_allow_private=settings.webhook_allow_private,
                )
                app.state.pool = pool
                app.state.services = found
                measured.watch(pool, lambda: found.live.sockets.total)
                # The leaders' locks live on connections of their own (see server.ops.database).
                own = dedicated_connections(database_url)
                webhooks = Webhooks(store, pool, games, the_clock, lock_connection=own)
                sender = WebhookSender(
                    pool, the_clock, allow_private=settings.webhook_allow_private
                )
                runner = ReadModelRunner(store, pool, lock_connection=own, states=games.states)
                background = [
                    asyncio.create_task(runner.follow(), name="the read models"),
                    asyncio.create_task(found.scheduler.run_forever(), name="the scheduler"),
                    asyncio.create_task(webhooks.enqueue_forever(), name="the webhook enqueuer"),
                    asyncio.create_task(sender.send_forever(), name="the webhook sender"),
                ]
                if measured.shared is not None:
                    background.append(
                        asyncio.create_task(measured.share_gauges(), name="the shared gauges")
                    )
                # For /v1/health, which says when one is not running.
                app.state.background = background
                homes = None
                if places is not None:
                    homes = Homes(places, games.act_here, measured.forwarded_command)
                try:
                    if homes is not None:
                        await homes.start()
                        games.homes = homes
                    yield
                finally:
                    await _stop(background)
                    if homes is not None:
                        await _within(STOP_SECONDS, homes.close(), "the workers' sockets")
                    await _within(STOP_SECONDS, found.live.close(), "the live feeds")
                    await revocations.close()
            finally:
                heavy.close()
                await _within(STOP_SECONDS, store.close(), "the event store")
        finally:
            if not await _within(STOP_SECONDS, pool.close(), "the database pool"):
                pool.terminate()

    app = FastAPI(
        title="Skirmish server",
        version="1",
        description="An event-sourced game server for Skirmish Society.",
        lifespan=lifespan,
        # server/http/routes/docs.py serves them, without a CDN.
        docs_url=None,
        redoc_url=None,
    )
    app.state.metrics = measured
    install_error_handlers(app)
    # The last added is the outermost: Cors answers preflights before the others see them,
    # and adds its headers to everything they answer.
    app.add_middleware(Gate)
    app.add_middleware(BodyLimit)
    if settings.cors_origins:
        app.add_middleware(Cors, origins=settings.cors_origins)
    # Outermost: every request is counted and has its id, whoever answers it.
    app.add_middleware(RequestMetrics, metrics=measured)
    app.add_middleware(RequestIds)
    # A request is matched against the routes in this order, one by one: the busiest
    # (players' orders, then the games' pages) come first.
    routers = (
        play,
        moves,
        games_routes,
        history,
        health,
        accounts,
        clients,
        me,
        fork,
        admin_actions,
        admins,
        verify,
        map_image,
        live,
        adjudicate,
        clock_routes,
        maps,
        web,
        docs,
        metrics,
    )
    for module in (*routers, webhooks_routes, commands):
        app.include_router(module.router)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


async def _stop(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel the background tasks and wait for them, STOP_SECONDS at most."""
    for task in tasks:
        task.cancel()
    done, pending = await asyncio.wait(tasks, timeout=STOP_SECONDS)
    for task in pending:
        _log.warning("%s did not stop within %g s; left behind", task.get_name(), STOP_SECONDS)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            _log.error("%s had stopped", task.get_name(), exc_info=task.exception())


async def _within(seconds: float, closing: Awaitable[None], what: str) -> bool:
    """Whether `closing` finished in time; if not, it is cancelled."""
    try:
        async with asyncio.timeout(seconds):
            await closing
    except TimeoutError:
        _log.warning("%s did not close within %g s; cut", what, seconds)
        return False
    return True


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema, plus the JSON schemas of the msgspec bodies the routes document."""
    if app.openapi_schema is None:
        by_game = document_games()
        schema = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        document_shared(schema)
        schema.setdefault("components", {}).setdefault("schemas", {}).update(
            openapi_components(by_game)
        )
        app.openapi_schema = schema
    return app.openapi_schema
