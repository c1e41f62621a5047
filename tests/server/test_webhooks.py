"""Webhooks: signed, retried with backoff, never in the way of a resolution."""

import hashlib
import hmac
import json
from datetime import timedelta

import asyncpg
import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import Response

from eventstore.postgres import PostgresEventStore
from projections.runner import ReadModelRunner
from server.clock import FakeClock
from server.handlers import GameService
from server.webhooks import MAX_ATTEMPTS, Webhooks, backoff, signature
from tests.server.running import running
from tests.server.scripted import START, ScriptedGame
from tests.support import visible_log


class Receiver:
    """A webhook endpoint that fails the first `failures` deliveries."""

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.app = FastAPI()
        self.app.post("/hook")(self.hook)

    async def hook(self, request: Request) -> Response:
        body = await request.body()
        if self.failures > 0:
            self.failures -= 1
            return Response(status_code=500)
        self.received.append((dict(request.headers), body))
        return Response(status_code=204)


async def _hooked_game(pool: asyncpg.Pool, store: PostgresEventStore, url: str) -> str:
    game = ScriptedGame(GameService(store))
    await game.set_up()
    await pool.execute(
        "INSERT INTO webhooks (game_id, url, secret, created_at) "
        "VALUES ('g1', $1, 's3cret', now())",
        url,
    )
    await game.play_turn()
    return "g1"


async def _enqueue(webhooks: Webhooks, store: PostgresEventStore, pool: asyncpg.Pool) -> None:
    """Enqueue from the whole log, once all of it shows (see tests.support.visible_log)."""
    committed = await pool.fetchval("SELECT count(*) FROM events")
    await webhooks.enqueue(await visible_log(store, committed))


async def test_notifications_and_resolutions_are_delivered_signed(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    receiver = Receiver()
    clock = FakeClock(START)
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), clock)
    async with running(receiver.app) as base, httpx.AsyncClient() as http:
        await _hooked_game(pool, postgres_store, f"{base}/hook")
        await _enqueue(webhooks, postgres_store, pool)
        assert await webhooks.send_due(http) == 6  # the resolution, and five players' results
    types = []
    for headers, body in receiver.received:
        expected = "sha256=" + hmac.new(b"s3cret", body, hashlib.sha256).hexdigest()
        assert headers["x-skirmish-signature"] == expected == signature("s3cret", body)
        delivery = json.loads(body)
        assert headers["x-skirmish-delivery"] == f"g1/{delivery['position']}"
        types.append(delivery["type"])
        if delivery["type"] == "player_notified.v1":
            assert delivery["recipients"][0]["account_id"] == delivery["event"][
                "player_id"
            ].replace("p", "acct-")
            assert "turn 1 resolved" in delivery["event"]["text"]
    assert sorted(types) == ["player_notified.v1"] * 5 + ["turn_resolved.v1"]


async def test_enqueuing_twice_delivers_once(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    receiver = Receiver()
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), FakeClock(START))
    async with running(receiver.app) as base, httpx.AsyncClient() as http:
        await _hooked_game(pool, postgres_store, f"{base}/hook")
        await _enqueue(webhooks, postgres_store, pool)
        await _enqueue(webhooks, postgres_store, pool)
        assert await webhooks.send_due(http) == 6
        assert await webhooks.send_due(http) == 0
    assert len(receiver.received) == 6


async def test_a_failing_endpoint_is_retried_with_backoff_then_given_up(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    receiver = Receiver(failures=6 * 2)
    clock = FakeClock(START)
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), clock)
    async with running(receiver.app) as base, httpx.AsyncClient() as http:
        await _hooked_game(pool, postgres_store, f"{base}/hook")
        await _enqueue(webhooks, postgres_store, pool)
        assert await webhooks.send_due(http) == 6  # all fail
        assert await webhooks.send_due(http) == 0  # not yet due again
        clock.advance(backoff(1).total_seconds())
        assert await webhooks.send_due(http) == 6  # all fail again
        clock.advance(backoff(2).total_seconds())
        assert await webhooks.send_due(http) == 6  # delivered
    assert len(receiver.received) == 6
    assert [backoff(n) for n in (1, 2, 3)] == [timedelta(seconds=s) for s in (5, 10, 20)]
    assert backoff(50) == timedelta(hours=1)

    dead = "http://127.0.0.1:9/hook"  # nothing listens on the discard port
    await pool.execute("UPDATE webhooks SET url = $1", dead)
    await pool.execute(
        "UPDATE webhook_deliveries SET delivered_at = NULL, attempts = $1", MAX_ATTEMPTS - 1
    )
    async with httpx.AsyncClient() as http:
        assert await webhooks.send_due(http) == 6
    failed = await pool.fetchval(
        "SELECT count(*) FROM webhook_deliveries WHERE failed_at IS NOT NULL"
    )
    assert failed == 6


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/hook"])
async def test_a_dead_endpoint_never_delays_a_resolution(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, url: str
) -> None:
    game_id = await _hooked_game(pool, postgres_store, url)
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), FakeClock(START))
    await _enqueue(webhooks, postgres_store, pool)
    runner = ReadModelRunner(postgres_store, pool)
    await runner.catch_up()
    # The game resolved regardless, and its deliveries wait in the outbox.
    turn = await pool.fetchval("SELECT turn FROM read_games WHERE game_id = $1", game_id)
    assert turn == 2
    pending = await pool.fetchval(
        "SELECT count(*) FROM webhook_deliveries WHERE delivered_at IS NULL"
    )
    assert pending == 6
