"""The FastAPI application: `create_app()` wires settings, database, store and routes."""

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from eventstore.migrations import migrate
from eventstore.postgres import PostgresEventStore
from projections.runner import ReadModelRunner
from server.accounts import Accounts
from server.api import document_gate, openapi_components
from server.clock import Clock, FakeClock, SystemClock
from server.database import create_pool, dedicated_connections
from server.entropy import Entropy, system_entropy
from server.errors import install_error_handlers
from server.gate import Gate
from server.handlers import GameService
from server.limits import BodyLimit
from server.live import LiveHub
from server.routes import (
    accounts,
    adjudicate,
    admins,
    commands,
    health,
    history,
    live,
    maps,
    play,
    web,
)
from server.routes import clock as clock_routes
from server.routes import games as games_routes
from server.routes import webhooks as webhooks_routes
from server.scheduler import Scheduler
from server.services import Services
from server.settings import Settings, SettingsError
from server.socket_limits import OpenSockets
from server.throttle import Throttle
from server.webhook_sender import WebhookSender
from server.webhooks import Webhooks

# Past this, closing gives up waiting for borrowed connections and cuts them.
POOL_CLOSE_SECONDS = 10.0


def create_app(
    settings: Settings | None = None,
    *,
    clock: Clock | None = None,
    entropy: Entropy = system_entropy,
) -> FastAPI:
    """The application. On start it opens the pool and migrates the schema; on stop it
    closes them. Without settings it reads the environment (DATABASE_URL must be set: the
    embedded database is `skirmish serve`'s business). Tests inject the clock and the
    source of games' secrets."""
    settings = settings or Settings.from_env(os.environ)
    database_url = settings.database_url
    if database_url is None:
        raise SettingsError("DATABASE_URL is not set (`skirmish serve` starts a database)")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = await create_pool(database_url, max_size=settings.pool_size)
        try:
            await migrate(pool)
            async with await PostgresEventStore.open(pool) as store:
                games = GameService(store)
                the_clock = clock or SystemClock()
                found = Services(
                    pool=pool,
                    store=store,
                    games=games,
                    live=LiveHub(games, store, OpenSockets(settings)),
                    accounts=Accounts(pool, settings.operator_token),
                    clock=the_clock,
                    scheduler=Scheduler(games, pool, the_clock),
                    # Limits count real time, even while a fake clock stands still.
                    throttle=Throttle(settings.rate_limits, SystemClock()),
                    fake_clock=isinstance(clock, FakeClock),
                    entropy=entropy,
                    webhook_allow_private=settings.webhook_allow_private,
                )
                app.state.pool = pool
                app.state.store = store
                app.state.clock = found.clock
                app.state.services = found
                # The leaders' locks live on connections of their own (see server.database).
                own = dedicated_connections(database_url)
                webhooks = Webhooks(store, pool, games, the_clock, lock_connection=own)
                sender = WebhookSender(
                    pool, the_clock, allow_private=settings.webhook_allow_private
                )
                runner = ReadModelRunner(store, pool, lock_connection=own)
                background = [
                    asyncio.create_task(runner.follow()),
                    asyncio.create_task(found.scheduler.run_forever()),
                    asyncio.create_task(webhooks.enqueue_forever()),
                    asyncio.create_task(sender.send_forever()),
                ]
                try:
                    yield
                finally:
                    for task in background:
                        task.cancel()
                    for task in background:
                        with contextlib.suppress(asyncio.CancelledError):
                            await task
                    await found.live.close()
        finally:
            try:
                await asyncio.wait_for(pool.close(), POOL_CLOSE_SECONDS)
            except TimeoutError:
                pool.terminate()

    app = FastAPI(
        title="Skirmish server",
        version="1",
        description="An event-sourced game server for Skirmish Society.",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.add_middleware(Gate)
    app.add_middleware(BodyLimit)
    routers = (
        health,
        accounts,
        games_routes,
        admins,
        play,
        history,
        live,
        adjudicate,
        clock_routes,
        maps,
        web,
    )
    for module in (*routers, webhooks_routes, commands):
        app.include_router(module.router)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema, plus the JSON schemas of the msgspec bodies the routes document."""
    if app.openapi_schema is None:
        schema = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        document_gate(schema)
        schema.setdefault("components", {}).setdefault("schemas", {}).update(openapi_components())
        app.openapi_schema = schema
    return app.openapi_schema
