"""Webhooks: signed, retried with backoff, never in the way of a resolution."""

import hashlib
import hmac
import json
from datetime import timedelta

import asyncpg
import pytest

from eventstore.migrations import load_migrations, migrate
from eventstore.postgres import PostgresEventStore
from projections.runner import ReadModelRunner
from schema.commands import Actor, CreateGame, JoinGame, MakeMove, StartGame
from schema.game_events import Settings
from server.clock import FakeClock
from server.game.handlers import GameService
from server.webhooks.outbox import Webhooks
from server.webhooks.sender import MAX_ATTEMPTS, WebhookSender, backoff, signature
from tests.server.running import running
from tests.server.scripted import ADMIN, SECRET, START, ScriptedGame
from tests.server.webhook_support import Receiver, enqueue, hooked_game, send_due


def _sender(pool: asyncpg.Pool, clock: FakeClock) -> WebhookSender:
    """A sender to the loopback receivers of these tests."""
    return WebhookSender(pool, clock, allow_private=True)


async def test_notifications_and_resolutions_are_delivered_signed(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    receiver = Receiver()
    clock = FakeClock(START)
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), clock)
    async with running(receiver.app) as base:
        await hooked_game(pool, postgres_store, f"{base}/hook")
        await enqueue(webhooks, postgres_store, pool)
        assert await send_due(_sender(pool, clock)) == 6  # the resolution, five results
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
    clock = FakeClock(START)
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), clock)
    sender = _sender(pool, clock)
    async with running(receiver.app) as base:
        await hooked_game(pool, postgres_store, f"{base}/hook")
        await enqueue(webhooks, postgres_store, pool)
        await enqueue(webhooks, postgres_store, pool)
        assert await send_due(sender) == 6
        assert await send_due(sender) == 0
    assert len(receiver.received) == 6


async def test_a_failing_endpoint_is_retried_with_backoff_then_given_up(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    receiver = Receiver(failures=6 * 2)
    clock = FakeClock(START)
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), clock)
    sender = _sender(pool, clock)
    async with running(receiver.app) as base:
        await hooked_game(pool, postgres_store, f"{base}/hook")
        await enqueue(webhooks, postgres_store, pool)
        assert await send_due(sender) == 6  # all fail
        assert await send_due(sender) == 0  # not yet due again
        clock.advance(backoff(1).total_seconds())
        assert await send_due(sender) == 6  # all fail again
        clock.advance(backoff(2).total_seconds())
        assert await send_due(sender) == 6  # delivered
    assert len(receiver.received) == 6
    assert [backoff(n) for n in (1, 2, 3)] == [timedelta(seconds=s) for s in (5, 10, 20)]
    assert backoff(50) == timedelta(hours=1)

    dead = "http://127.0.0.1:9/hook"  # nothing listens on the discard port
    await pool.execute("UPDATE webhooks SET url = $1", dead)
    await pool.execute(
        "UPDATE webhook_deliveries SET delivered_at = NULL, attempts = $1", MAX_ATTEMPTS - 1
    )
    assert await send_due(sender) == 6
    failed = await pool.fetchval(
        "SELECT count(*) FROM webhook_deliveries WHERE failed_at IS NOT NULL"
    )
    assert failed == 6


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/hook"])
async def test_a_dead_endpoint_never_delays_a_resolution(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, url: str
) -> None:
    game_id = await hooked_game(pool, postgres_store, url)
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), FakeClock(START))
    await enqueue(webhooks, postgres_store, pool)
    runner = ReadModelRunner(postgres_store, pool)
    await runner.catch_up()
    # The game resolved regardless, and its deliveries wait in the outbox.
    turn = await pool.fetchval("SELECT turn FROM read_games WHERE game_id = $1", game_id)
    assert turn == 2
    pending = await pool.fetchval(
        "SELECT count(*) FROM webhook_deliveries WHERE delivered_at IS NULL"
    )
    assert pending == 6


def _kinds(receiver: Receiver) -> list[str]:
    """What each delivery received was: a resolution, or a player's notification's kind."""
    kinds = []
    for _, body in receiver.received:
        delivery = json.loads(body)
        kinds.append(delivery["event"].get("kind", delivery["type"]))
    return sorted(kinds)


@pytest.mark.parametrize("trusted", [True, False])
async def test_reminders_go_to_trusted_webhooks_only(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, trusted: bool
) -> None:
    receiver = Receiver()
    clock = FakeClock(START)
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), clock)
    async with running(receiver.app) as base:
        await hooked_game(pool, postgres_store, f"{base}/hook", trusted=trusted, reminded=True)
        await enqueue(webhooks, postgres_store, pool)
        assert await send_due(_sender(pool, clock)) == (11 if trusted else 6)
    reminders = ["reminder"] * 5 if trusted else []
    assert _kinds(receiver) == [*reminders, *["results"] * 5, "turn_resolved.v1"]


async def test_reminders_queued_for_a_trusted_webhook_wait_when_an_account_sets_it_again(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    receiver = Receiver()
    clock = FakeClock(START)
    webhooks = Webhooks(postgres_store, pool, GameService(postgres_store), clock)
    sender = _sender(pool, clock)
    async with running(receiver.app) as base:
        await hooked_game(pool, postgres_store, f"{base}/hook", trusted=True, reminded=True)
        await enqueue(webhooks, postgres_store, pool)
        # Set again by the game's admin through a plain account, before anything was sent.
        await pool.execute("UPDATE webhooks SET trusted = false")
        assert await send_due(sender) == 6
        assert _kinds(receiver) == [*["results"] * 5, "turn_resolved.v1"]
        waiting = await pool.fetchval(
            "SELECT count(*) FROM webhook_deliveries WHERE private AND delivered_at IS NULL"
        )
        assert waiting == 5
        # They go out if a trusted caller sets it once more.
        await pool.execute("UPDATE webhooks SET trusted = true")
        assert await send_due(sender) == 5
    assert _kinds(receiver) == [*["reminder"] * 5, *["results"] * 5, "turn_resolved.v1"]


async def test_reminders_already_queued_become_private_when_the_schema_learns_trust(
    schema_url: str,
) -> None:
    """Migration 0005: deliveries queued before it are marked private when they are
    reminders, and webhooks set before it are not trusted, so queued reminders stay put."""
    connection = await asyncpg.connect(schema_url)
    try:
        await migrate(connection, [m for m in load_migrations() if m.version <= 4])
        await connection.execute(
            "INSERT INTO webhooks (game_id, url, secret, created_at) "
            "VALUES ('g1', 'http://127.0.0.1:9/hook', 's', now())"
        )
        for position, kind in ((1, "reminder"), (2, "results")):
            payload = json.dumps({"type": "player_notified.v1", "event": {"kind": kind}})
            await connection.execute(
                "INSERT INTO webhook_deliveries (game_id, position, payload, next_attempt_at) "
                "VALUES ('g1', $1, $2, now())",
                position,
                payload.encode(),
            )
        await migrate(connection)
        private = await connection.fetch(
            "SELECT position, private FROM webhook_deliveries ORDER BY position"
        )
        trusted = await connection.fetchval("SELECT trusted FROM webhooks")
    finally:
        await connection.close()
    assert [tuple(row) for row in private] == [(1, True), (2, False)]
    assert trusted is False


@pytest.mark.parametrize("trusted", [True, False])
async def test_a_private_message_notice_goes_to_trusted_webhooks_only(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, trusted: bool
) -> None:
    """Who wrote to whom in private is theirs: the notice goes only where the bot DMs it."""
    receiver = Receiver()
    clock = FakeClock(START)
    service = GameService(postgres_store)
    webhooks = Webhooks(postgres_store, pool, service, clock)
    game = ScriptedGame(service, players=2)
    await game.run(
        CreateGame(
            actor=Actor(ADMIN),
            now=START,
            game_id="g1",
            settings=Settings(name="Intrigue"),
            seed=1,
            game="art-of-war",
            options={"map": "aow-mini", "intrigue": True},
        )
    )
    for account in game.accounts():
        await game.run(JoinGame(actor=Actor(account), now=START, name=account))
    await game.run(StartGame(actor=Actor(ADMIN), now=START, secret=SECRET))
    async with running(receiver.app) as base:
        await pool.execute(
            "INSERT INTO webhooks (game_id, url, secret, created_at, trusted) "
            "VALUES ('g1', $1, 's3cret', now(), $2)",
            f"{base}/hook",
            trusted,
        )
        message = {"message": "psst", "to": "p2"}
        await game.run(MakeMove(actor=Actor("acct-1"), now=START, move=message))
        await enqueue(webhooks, postgres_store, pool)
        # Beside the start's your-turn notices, public, for any webhook.
        assert await send_due(_sender(pool, clock)) == (3 if trusted else 2)
    told = ["your_turn", "your_turn"]
    assert _kinds(receiver) == (["message", *told] if trusted else told)
