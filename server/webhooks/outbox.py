"""Webhooks: each game's notifications and resolutions, POSTed to a URL its admin sets.

Deliveries go through an outbox. One enqueuer (under an advisory lock, across processes)
follows the event log and records a delivery for every `player_notified` and
`turn_resolved` of a game with a webhook, in one transaction with its checkpoint, so that
none is lost or doubled. A reminder is private before the resolution or the wait's
deadline, and the notice of a private message for ever: they are recorded for a trusted
webhook only (set through the trusted client the game was set up through, its bot, which DMs
each player their own).
Senders in every process claim, POST and record the deliveries (server.webhooks.sender).
None of this runs inside a resolution, so a slow or dead endpoint never delays a game.
"""

import logging

import asyncpg
import msgspec

from eventstore.base import EventStore
from eventstore.outages import Backoff
from eventstore.records import Checkpoint, RecordedEvent
from projections.leading import Connect, lead
from projections.loading import game_of
from projections.visibility import Viewer, shown
from schema.game_events import PlayerNotified, game_codec
from server.clock import Clock
from server.game.handlers import GameService

CHECKPOINT = "webhooks.v1"
# With the schema's hash (see projections.leading).
_LOCK_KEY = 0x5EAD_0002
_TYPES = ("player_notified.v1", "turn_resolved.v1")
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
        trusted: dict[str, bool] = {}
        if games:
            rows = await self._pool.fetch(
                "SELECT game_id, trusted FROM webhooks WHERE game_id = ANY($1::text[])",
                list(games),
            )
            trusted = {row[0]: row[1] for row in rows}
        deliveries: list[tuple[Delivery, bool]] = []
        for recorded in wanted:
            game_id = game_of(recorded.stream_id)
            if game_id not in trusted:
                continue
            delivery, private = await self._delivery(recorded)
            # Checked again when a delivery is claimed: the webhook may be set again, by
            # someone else, in between.
            if trusted[game_id] or not private:
                deliveries.append((delivery, private))
        last = batch[-1].checkpoint
        now = self._clock.now()
        async with self._pool.acquire() as connection, connection.transaction():
            for delivery, private in deliveries:
                await connection.execute(
                    "INSERT INTO webhook_deliveries "
                    "(game_id, position, payload, next_attempt_at, private) "
                    "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                    delivery.game,
                    delivery.position,
                    _encode(delivery),
                    now,
                    private,
                )
            await connection.execute(
                "INSERT INTO projection_checkpoints (name, transaction_id, position) "
                "VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE "
                "SET transaction_id = excluded.transaction_id, position = excluded.position",
                CHECKPOINT,
                last.transaction_id,
                last.position,
            )

    async def _delivery(self, recorded: RecordedEvent) -> tuple[Delivery, bool]:
        """The delivery of an event, and whether it is private (a reminder, a message's
        notice)."""
        game_id = game_of(recorded.stream_id)
        assert game_id is not None
        state = (await self._games.load(game_id)).state
        event = game_codec.decode_recorded(recorded)
        # A notice is shown as its player sees it: it is delivered for them (a reminder
        # only to a trusted client, which DMs them); a resolution as everyone sees it.
        seats = frozenset({event.player_id}) if isinstance(event, PlayerNotified) else frozenset()
        data = shown(Viewer(players=seats), event, state) or {}
        recipients: list[Recipient] = []
        player = state.players.get(str(data.get("player_id", "")))
        if player is not None:
            rows = await self._pool.fetch(
                "SELECT account_id, external_id FROM accounts WHERE account_id = ANY($1::text[])",
                list(player.accounts),
            )
            external = {row[0]: row[1] for row in rows}
            recipients = [Recipient(a, external.get(a)) for a in player.accounts]
        # Who wrote to whom in private is as private as a reminder.
        private = isinstance(event, PlayerNotified) and event.kind in ("reminder", "message")
        return Delivery(game_id, recorded.position, recorded.type, data, recipients), private

    async def _checkpoint(self) -> Checkpoint:
        row = await self._pool.fetchrow(
            "SELECT transaction_id, position FROM projection_checkpoints WHERE name = $1",
            CHECKPOINT,
        )
        return Checkpoint.START if row is None else Checkpoint(row[0], row[1])
