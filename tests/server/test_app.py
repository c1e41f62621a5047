"""The application over a real uvicorn server: start-up, health, errors."""

import contextlib
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from eventstore.base import MAX_EVENT_BYTES
from eventstore.memory import MemoryEventStore
from eventstore.migrations import migrate
from server.app import create_app
from server.http.errors import install_error_handlers
from server.http.routes import health
from server.ops.clock_steps import read_models_caught_up
from server.ops.database import create_pool
from server.settings import Settings, SettingsError
from tests.server.running import HEALTHY, CuttableLink, running
from tests.server.scripted import ScriptedGame
from tests.support import new_event


async def test_the_app_migrates_starts_and_is_healthy(schema_url: str) -> None:
    app = create_app(Settings(database_url=schema_url))
    async with running(app) as base, httpx.AsyncClient(base_url=base) as client:
        response = await client.get("/v1/health")
        missing = await client.get("/v1/nothing-here")
        wrong = await client.delete("/v1/health")
        # Two routes serve this path, one method each: the Allow names both.
        wrong_of_two = await client.delete("/v1/games/some-game/orders")
        schema = await client.get("/openapi.json")
        migrated = await app.state.pool.fetchval("SELECT to_regclass('events') IS NOT NULL")
    assert response.status_code == 200
    assert response.json() == HEALTHY
    assert missing.status_code == 404
    assert missing.json() == {"error": {"code": "not_found", "message": "Not Found"}}
    assert wrong.status_code == 405
    assert wrong.json()["error"]["code"] == "method_not_allowed"
    assert wrong.headers["allow"] == "GET"
    assert wrong_of_two.status_code == 405
    assert wrong_of_two.headers["allow"] == "GET, PUT"
    assert "/v1/health" in schema.json()["paths"]
    assert migrated


def _health_only(database_url: str) -> FastAPI:
    """Just the health route over a pool: what it reports, without the rest of the server
    reacting to the outage as well."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.pool = await create_pool(database_url, max_size=2)
        await migrate(app.state.pool)
        try:
            yield
        finally:
            app.state.pool.terminate()

    app = FastAPI(lifespan=lifespan)
    install_error_handlers(app)
    app.include_router(health.router)
    return app


async def test_health_is_503_while_the_database_is_unreachable(schema_url: str) -> None:
    link = CuttableLink(schema_url)
    await link.restore()
    try:
        app = _health_only(link.url)
        async with running(app) as base, httpx.AsyncClient(base_url=base) as client:
            up = await client.get("/v1/health")
            await link.cut()
            down = await client.get("/v1/health")
            await link.restore()
            back = await client.get("/v1/health")
    finally:
        await link.cut()
    assert up.status_code == 200
    assert down.status_code == 503
    assert down.headers["retry-after"] == "2"
    assert down.json()["error"]["code"] == "database_unavailable"
    assert down.json()["error"]["message"]
    assert back.status_code == 200


def test_the_app_needs_a_database_url() -> None:
    with pytest.raises(SettingsError, match="DATABASE_URL"):
        create_app(Settings(database_url=None))


async def test_health_lists_a_game_whose_read_models_fail_and_stays_200(schema_url: str) -> None:
    app = create_app(Settings(database_url=schema_url))
    async with running(app) as base, httpx.AsyncClient(base_url=base) as client:
        assert (await client.get("/v1/health")).status_code == 200  # started
        pool, store = app.state.pool, app.state.services.store
        service = app.state.services.games
        good, bad = ScriptedGame(service, "good"), ScriptedGame(service, "bad")
        await good.set_up()
        await bad.set_up()
        await read_models_caught_up(pool, store)
        # PostgreSQL refuses the game's list entry from turn 2 on: this test schema's rule.
        await pool.execute(
            "ALTER TABLE read_games ADD CONSTRAINT refused CHECK (game_id <> 'bad' OR turn < 2)"
        )
        await bad.play_turn()
        await good.play_turn()
        await read_models_caught_up(pool, store)
        degraded = await client.get("/v1/health")
        listed = await client.get("/v1/games")
        version = await store.stream_version("game-bad")

        await pool.execute("ALTER TABLE read_games DROP CONSTRAINT refused")
        await bad.play_turn()
        await read_models_caught_up(pool, store)
        healthy = await client.get("/v1/health")

    assert degraded.status_code == 200
    body = degraded.json()
    assert (body["status"], body["database"]) == ("degraded", "ok")
    [failing] = body["read_models"]
    assert (failing["game"], failing["error"]) == ("bad", "CheckViolationError")
    assert failing["version"] == version
    assert {(g["id"], g["turn"]) for g in listed.json()["games"]} == {("good", 2), ("bad", 1)}
    assert healthy.json() == HEALTHY


async def test_an_event_past_the_stores_bound_is_a_413_and_nothing_is_written() -> None:
    store = MemoryEventStore()
    app = FastAPI()
    install_error_handlers(app)

    @app.post("/append")
    async def append() -> None:
        await store.append("s", [new_event(b"x" * (MAX_EVENT_BYTES + 1))], expected_version=0)

    async with running(app) as base, httpx.AsyncClient(base_url=base) as client:
        response = await client.post("/append")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "event_too_large"
    assert await store.stream_version("s") == 0
