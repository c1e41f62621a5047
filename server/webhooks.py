"""Webhooks: each game's notifications and resolutions, POSTed to a URL its admin sets.

Deliveries go through an outbox. One enqueuer (under an advisory lock, across processes)
follows the event log and records a delivery for every `player_notified` and
`turn_resolved` of a game with a webhook, in one transaction with its checkpoint, so that
none is lost or doubled. Senders in every process claim due deliveries with
`FOR UPDATE SKIP LOCKED` and POST them, signed; a failure is retried with exponential
backoff, and after `MAX_ATTEMPTS` the delivery is given up. None of this runs inside a
resolution, so a slow or dead endpoint never delays a game.
"""

import asyncio
import hashlib
import hmac
import logging
from datetime import timedelta

import asyncpg
import httpx
import msgspec

from eventstore.base import Checkpoint, EventStore, RecordedEvent
from eventstore.outages import Backoff
from projections.leading import Connect, lead
from projections.loading import game_of
from projections.visibility import Viewer, shown
from schema.game_events import game_codec
from server.clock import Clock
from server.handlers import GameService

CHECKPOINT = "webhooks.v1"
MAX_ATTEMPTS = 10
TIMEOUT_SECONDS = 5.0
FIRST_RETRY = timedelta(seconds=5)
LONGEST_RETRY = timedelta(hours=1)
# With the schema's hash (see projections.leading).
_LOCK_KEY = 0x5EAD_0002
_TYPES = ("player_notified.v1", "turn_resolved.v1")
_ADMIN = Viewer(admin=True)
_encode = msgspec.json.Encoder().encode
_log = logging.getLogger(__name__)


class Recipient(msgspec.Struct, frozen=True):
    account_id: str
    # The user's id at the trusted client that created the account (a Discord id, say).
    external_id: str | None


class Delivery(msgspec.Struct, frozen=True):
    """The body POSTed. `recipients` is set for a player's notification: whom to DM."""

    game: str
    position: int
    type: str
    event: dict[str, object]
    recipients: list[Recipient] = []


def signature(secret: str, body: bytes) -> str:
    """The `X-Skirmish-Signature` header: `sha256=` and the HMAC of the raw body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def backoff(attempts: int) -> timedelta:
    """5 s after the first failure, doubling, at most an hour (2**10 * 5 s is past that)."""
    return min(FIRST_RETRY * (1 << min(max(attempts - 1, 0), 10)), LONGEST_RETRY)


class Webhooks:
    def __init__(
        self,
        store: EventStore,
        pool: asyncpg.Pool,
        games: GameService,
        clock: Clock,
        *,
        poll_seconds: float = 1.0,
        lock_connection: Connect | None = None,
    ) -> None:
        self._lock_connection = lock_connection or pool.acquire
        self._store = store
        self._pool = pool
        self._games = games
        self._clock = clock
        self._poll = poll_seconds

    async def enqueue_forever(self) -> None:
        backoff = Backoff("webhook enqueuer", _log)

        async def enqueue_following() -> None:
            after = await self._checkpoint()
            async with self._store.subscribe(after=after) as events:
                while batch := await events.next_batch():
                    await self.enqueue(batch)
                    backoff.succeeded()

        while True:
            try:
                await lead(self._lock_connection, _LOCK_KEY, enqueue_following)
            except Exception as error:
                await backoff.failed(error)

    async def enqueue(self, batch: list[RecordedEvent]) -> None:
        wanted = [r for r in batch if r.type in _TYPES and game_of(r.stream_id) is not None]
        games = {game_of(r.stream_id) for r in wanted}
        hooked = set()
        if games:
            rows = await self._pool.fetch(
                "SELECT game_id FROM webhooks WHERE game_id = ANY($1::text[])", list(games)
            )
            hooked = {row[0] for row in rows}
        deliveries = [await self._delivery(r) for r in wanted if game_of(r.stream_id) in hooked]
        last = batch[-1].checkpoint
        now = self._clock.now()
        async with self._pool.acquire() as connection, connection.transaction():
            for delivery in deliveries:
                await connection.execute(
                    "INSERT INTO webhook_deliveries (game_id, position, payload, next_attempt_at) "
                    "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                    delivery.game,
                    delivery.position,
                    _encode(delivery),
                    now,
                )
            await connection.execute(
                "INSERT INTO projection_checkpoints (name, transaction_id, position) "
                "VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE "
                "SET transaction_id = excluded.transaction_id, position = excluded.position",
                CHECKPOINT,
                last.transaction_id,
                last.position,
            )

    async def _delivery(self, recorded: RecordedEvent) -> Delivery:
        game_id = game_of(recorded.stream_id)
        assert game_id is not None
        state = (await self._games.load(game_id)).state
        event = game_codec.decode_recorded(recorded)
        data = shown(_ADMIN, event, state.settings) or {}
        recipients: list[Recipient] = []
        player = state.players.get(str(data.get("player_id", "")))
        if player is not None:
            rows = await self._pool.fetch(
                "SELECT account_id, external_id FROM accounts WHERE account_id = ANY($1::text[])",
                list(player.accounts),
            )
            external = {row[0]: row[1] for row in rows}
            recipients = [Recipient(a, external.get(a)) for a in player.accounts]
        return Delivery(game_id, recorded.position, recorded.type, data, recipients)

    async def _checkpoint(self) -> Checkpoint:
        row = await self._pool.fetchrow(
            "SELECT transaction_id, position FROM projection_checkpoints WHERE name = $1",
            CHECKPOINT,
        )
        return Checkpoint.START if row is None else Checkpoint(row[0], row[1])

    async def send_forever(self) -> None:
        backoff = Backoff("webhook sender", _log)
        async with httpx.AsyncClient(timeout=TIMEOUT_SECONDS) as http:
            while True:
                try:
                    sent = await self.send_due(http)
                except Exception as error:
                    await backoff.failed(error)
                    continue
                backoff.succeeded()
                if not sent:
                    await asyncio.sleep(self._poll)

    async def send_due(self, http: httpx.AsyncClient, limit: int = 20) -> int:
        """POST the deliveries due now; return how many were tried."""
        now = self._clock.now()
        async with self._pool.acquire() as connection, connection.transaction():
            rows = await connection.fetch(
                "SELECT d.game_id, d.position, d.payload, d.attempts, w.url, w.secret "
                "FROM webhook_deliveries d JOIN webhooks w USING (game_id) "
                "WHERE d.delivered_at IS NULL AND d.failed_at IS NULL "
                "AND d.next_attempt_at <= $1 ORDER BY d.next_attempt_at LIMIT $2 "
                "FOR UPDATE OF d SKIP LOCKED",
                now,
                limit,
            )
            results = await asyncio.gather(*(self._post(http, row) for row in rows))
            for row, error in zip(rows, results, strict=True):
                await self._record(connection, row, error)
        return len(rows)

    async def _post(self, http: httpx.AsyncClient, row: asyncpg.Record) -> str | None:
        game_id, position, payload, _, url, secret = row
        headers = {
            "content-type": "application/json",
            "x-skirmish-signature": signature(secret, payload),
            "x-skirmish-delivery": f"{game_id}/{position}",
        }
        try:
            response = await http.post(url, content=payload, headers=headers)
        except httpx.HTTPError as error:
            return f"{type(error).__name__}: {error}"[:500]
        return None if response.is_success else f"HTTP {response.status_code}"

    async def _record(
        self, connection: asyncpg.pool.PoolConnectionProxy, row: asyncpg.Record, error: str | None
    ) -> None:
        game_id, position, _, attempts, _, _ = row
        now = self._clock.now()
        if error is None:
            await connection.execute(
                "UPDATE webhook_deliveries SET delivered_at = $3, attempts = attempts + 1, "
                "last_error = NULL WHERE game_id = $1 AND position = $2",
                game_id,
                position,
                now,
            )
            return
        tried = attempts + 1
        await connection.execute(
            "UPDATE webhook_deliveries SET attempts = $3::integer, last_error = $4, "
            "next_attempt_at = $5, failed_at = CASE WHEN $3::integer >= $6::integer "
            "THEN $7::timestamptz END "
            "WHERE game_id = $1 AND position = $2",
            game_id,
            position,
            tried,
            error,
            now + backoff(tried),
            MAX_ATTEMPTS,
            now,
        )
