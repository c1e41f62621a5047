"""Helpers for the webhook tests: a receiver, a game with a webhook, and sending what is due."""

import asyncio

import asyncpg
from fastapi import FastAPI, Request
from fastapi.responses import Response

from eventstore.postgres import PostgresEventStore
from schema.commands import Actor, RemindPlayers
from server.game.handlers import GameService
from server.webhooks.outbox import Webhooks
from server.webhooks.sender import WebhookSender, webhook_client
from tests.server.scripted import ScriptedGame
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


async def hooked_game(
    pool: asyncpg.Pool,
    store: PostgresEventStore,
    url: str,
    *,
    game_id: str = "g1",
    trusted: bool = False,
    reminded: bool = False,
) -> str:
    """A game of five with a webhook, whose first turn resolved: six deliveries (the
    resolution and each player's results), and five reminders before them if `reminded`."""
    game = ScriptedGame(GameService(store), game_id)
    await game.set_up()
    await pool.execute(
        "INSERT INTO webhooks (game_id, url, secret, created_at, trusted) "
        "VALUES ($1, $2, 's3cret', now(), $3)",
        game_id,
        url,
        trusted,
    )
    if reminded:
        await game.run(RemindPlayers(actor=Actor("scheduler", operator=True), now=game.now, turn=1))
    await game.play_turn()
    return game_id


async def enqueue(webhooks: Webhooks, store: PostgresEventStore, pool: asyncpg.Pool) -> None:
    """Enqueue from the whole log, once all of it shows (see tests.support.visible_log)."""
    committed = await pool.fetchval("SELECT count(*) FROM events")
    await webhooks.enqueue(await visible_log(store, committed))


async def send_due(sender: WebhookSender) -> int:
    """Claim and deliver until nothing is due (each round as many as the caps allow); how
    many deliveries were tried."""
    tried = 0
    async with webhook_client() as http:
        while claims := await sender.claim():
            await asyncio.gather(*(sender.deliver(http, claim) for claim in claims))
            tried += len(claims)
    return tried
