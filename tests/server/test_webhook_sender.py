"""The webhook sender: a total deadline per delivery, caps on what is in flight, claims that
run out, and private targets refused at delivery. Real loopback receivers, real PostgreSQL."""

import asyncio
import contextlib
import json
from collections import Counter
from datetime import timedelta

import asyncpg
import pytest

from eventstore.postgres import PostgresEventStore
from server.clock import FakeClock
from server.game.handlers import GameService
from server.webhooks.outbox import Webhooks
from server.webhooks.sender import Claim, WebhookSender, backoff, webhook_client
from tests.api.support import until
from tests.server.running import running
from tests.server.scripted import START
from tests.server.tarpit import Tarpit
from tests.server.webhook_support import Receiver, enqueue, hooked_game, send_due

_OUTCOMES = (
    "SELECT attempts, last_error, next_attempt_at, delivered_at, failed_at, claimed_until, "
    "position FROM webhook_deliveries WHERE game_id = $1 ORDER BY position"
)


def _webhooks(store: PostgresEventStore, pool: asyncpg.Pool, clock: FakeClock) -> Webhooks:
    return Webhooks(store, pool, GameService(store), clock)


async def test_a_receiver_that_trickles_is_given_up_at_the_deadline_and_tried_again_later(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    clock = FakeClock(START)
    tarpit = Tarpit(every=2.0)
    sender = WebhookSender(pool, clock, allow_private=True, deadline_seconds=3.0, per_game=1)
    async with tarpit.serving() as url:
        await hooked_game(pool, postgres_store, url)
        await enqueue(_webhooks(postgres_store, pool, clock), postgres_store, pool)
        [claim] = await sender.claim()
        # Each read of the client's gets a byte within 2 s, well inside its 10 s per read:
        # only the deadline on the whole delivery ends it.
        async with webhook_client() as http:
            await sender.deliver(http, claim)
        await until(lambda: tarpit.open == 0, what="the tarpit to be let go")
    assert tarpit.connections == 1
    assert tarpit.trickled >= 1
    outcomes = {row["position"]: row for row in await pool.fetch(_OUTCOMES, "g1")}
    attempts, error, retry, delivered, failed, claimed, _ = outcomes[claim.position]
    assert (attempts, error) == (1, "no complete answer within 3 s")
    assert retry == START + backoff(1)
    assert (delivered, failed, claimed) == (None, None, None)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]"])
async def test_a_private_target_is_refused_at_delivery_and_nothing_connects(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool, host: str
) -> None:
    clock = FakeClock(START)
    listener = Tarpit()
    sender = WebhookSender(pool, clock, deadline_seconds=3.0)
    async with listener.serving() as url:
        port = url.split(":")[2].split("/")[0]
        await hooked_game(pool, postgres_store, f"http://{host}:{port}/hook")
        await enqueue(_webhooks(postgres_store, pool, clock), postgres_store, pool)
        assert await send_due(sender) == 6
    assert listener.connections == 0
    outcomes = await pool.fetch(_OUTCOMES, "g1")
    assert len(outcomes) == 6
    for attempts, error, retry, delivered, failed, claimed, _ in outcomes:
        assert attempts == 1
        assert error.startswith("not sent: the host ")
        assert ", a loopback address" in error
        assert "SKIRMISH_WEBHOOK_ALLOW_PRIVATE=1" in error
        # Retried as any failure is: the host's address may change.
        assert retry == START + backoff(1)
        assert (delivered, failed, claimed) == (None, None, None)


async def test_claims_keep_to_the_caps_per_game_and_overall(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    clock = FakeClock(START)
    receiver = Receiver()
    sender = WebhookSender(pool, clock, allow_private=True, per_game=2, overall=3)
    async with running(receiver.app) as base, webhook_client() as http:
        for game_id in ("g1", "g2"):
            await hooked_game(pool, postgres_store, f"{base}/hook", game_id=game_id)
        await enqueue(_webhooks(postgres_store, pool, clock), postgres_store, pool)
        rounds = []
        while True:
            # As much as the caps allow: a claim may take less, when one game's backlog
            # fills the rows it looked at; the next one then leaves that game out.
            claims = []
            while more := await sender.claim():
                claims += more
            if not claims:
                break
            rounds.append(Counter(claim.game_id for claim in claims))
            # Another process takes what this one has not claimed.
            elsewhere = WebhookSender(pool, clock, allow_private=True, per_game=1, overall=1)
            others = await elsewhere.claim()
            assert {(c.game_id, c.position) for c in others}.isdisjoint(
                (c.game_id, c.position) for c in claims
            )
            await asyncio.gather(
                *(sender.deliver(http, claim) for claim in claims),
                *(elsewhere.deliver(http, claim) for claim in others),
            )
    assert all(taken.total() <= 3 and max(taken.values()) <= 2 for taken in rounds)
    assert rounds[0].total() == 3
    assert len(receiver.received) == 12
    delivered = await pool.fetchval(
        "SELECT count(*) FROM webhook_deliveries WHERE delivered_at IS NOT NULL"
    )
    assert delivered == 12


async def test_a_slow_receiver_holds_up_only_its_own_games_deliveries(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    clock = FakeClock(START)
    tarpit, receiver = Tarpit(), Receiver()
    webhooks = _webhooks(postgres_store, pool, clock)
    # A deadline long enough that the tarpit holds its two for the whole test.
    sender = WebhookSender(
        pool, clock, allow_private=True, deadline_seconds=25.0, per_game=2, poll_seconds=0.05
    )
    async with tarpit.serving() as slow, running(receiver.app) as base:
        await hooked_game(pool, postgres_store, slow, game_id="slow")
        await enqueue(webhooks, postgres_store, pool)
        sending = asyncio.create_task(sender.send_forever())
        try:
            await until(lambda: tarpit.open == 2, what="the tarpit to hold two deliveries")
            await hooked_game(pool, postgres_store, f"{base}/hook", game_id="quick")
            await enqueue(webhooks, postgres_store, pool)
            await until(lambda: len(receiver.received) == 6, what="the other game's deliveries")
            assert (tarpit.open, tarpit.most_open, tarpit.closed) == (2, 2, 0)
        finally:
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sending
        await until(lambda: tarpit.open == 0, what="the tarpit to be let go")
    assert {json.loads(body)["game"] for _, body in receiver.received} == {"quick"}
    pending = await pool.fetchval(
        "SELECT count(*) FROM webhook_deliveries WHERE game_id = 'slow' AND delivered_at IS NULL"
    )
    assert pending == 6


async def test_a_claim_that_runs_out_is_taken_up_and_its_delivery_recorded_once(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    clock = FakeClock(START)
    receiver = Receiver()
    stalled = WebhookSender(
        pool, clock, allow_private=True, deadline_seconds=0.5, lease=timedelta(seconds=1)
    )
    sender = WebhookSender(pool, clock, allow_private=True, per_game=6)
    async with running(receiver.app) as base, webhook_client() as http:
        await hooked_game(pool, postgres_store, f"{base}/hook")
        await enqueue(_webhooks(postgres_store, pool, clock), postgres_store, pool)
        stale = await stalled.claim()
        assert len(stale) == 4
        taken_up: list[Claim] = []

        async def claimed_again() -> bool:
            taken_up.extend(await sender.claim())
            return len(taken_up) == 6

        # Two are free at once; the other four once the stalled sender's lease runs out.
        await until(claimed_again, what="the lease to run out")
        await asyncio.gather(*(sender.deliver(http, claim) for claim in taken_up))
        # The stalled sender comes back and sends its four again; the receiver fails them,
        # which must not undo what was recorded.
        receiver.failures = 4
        await asyncio.gather(*(stalled.deliver(http, claim) for claim in stale))
    outcomes = await pool.fetch(_OUTCOMES, "g1")
    assert [(row["attempts"], row["last_error"]) for row in outcomes] == [(1, None)] * 6
    assert all(row["delivered_at"] is not None for row in outcomes)
    ids = Counter(headers["x-skirmish-delivery"] for headers, _ in receiver.received)
    assert len(ids) == 6


async def test_a_delivery_pinned_to_an_address_still_names_its_host(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    clock = FakeClock(START)
    receiver = Receiver()
    async with running(receiver.app) as base:
        port = base.rsplit(":", 1)[1]
        await hooked_game(pool, postgres_store, f"http://localhost:{port}/hook")
        await enqueue(_webhooks(postgres_store, pool, clock), postgres_store, pool)
        assert await send_due(WebhookSender(pool, clock, allow_private=True)) == 6
    # The receiver listens on 127.0.0.1 only; the request still says whom it is for.
    assert {headers["host"] for headers, _ in receiver.received} == {f"localhost:{port}"}
