"""A game's webhook (admin): where its notifications and resolutions are POSTed."""

import asyncio
import secrets

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import Response

from schema import errors as codes
from schema.api import WebhookBody, WebhookSet, WebhookView
from schema.errors import Refusal
from server.accounts.store import Identity
from server.game.application import administered
from server.http.api import documented, json_response, read_body
from server.http.identity import required_caller
from server.http.routes.games import GameId
from server.services import Services, services
from server.webhooks.targets import TargetRefused, host_and_port, target_address

router = APIRouter(prefix="/v1/games/{game}", tags=["webhooks"])
_ERRORS = (401, 403, 404)
MAX_URL = 2000
RESOLVE_SECONDS = 5.0


async def _admin(request: Request, game: str) -> tuple[Identity, Services]:
    who = await required_caller(request)
    found = services(request)
    await administered(found, who, game)
    return who, found


async def _check(text: str, *, allow_private: bool) -> None:
    """Refuse (422) anything but an http(s) URL whose host resolves to public addresses only
    (unless private ones are allowed: then the host is not looked up)."""
    try:
        url = httpx.URL(text) if len(text) <= MAX_URL else None
    except httpx.InvalidURL:
        url = None
    if url is None or url.scheme not in ("http", "https") or not url.host:
        raise Refusal(
            codes.INVALID_WEBHOOK_URL, f"the webhook must be an http(s) URL of {MAX_URL} or less"
        )
    if allow_private:
        return
    host, port = host_and_port(url)
    try:
        async with asyncio.timeout(RESOLVE_SECONDS):
            await target_address(host, port, allow_private=False)
    except TimeoutError:
        message = f"the host {host} did not resolve within {RESOLVE_SECONDS:g} s"
        raise Refusal(codes.WEBHOOK_TARGET_REFUSED, message) from None
    except TargetRefused as refused:
        raise Refusal(codes.WEBHOOK_TARGET_REFUSED, str(refused)) from None


@router.put(
    "/webhook",
    **documented(
        body=WebhookBody,
        responses={200: WebhookSet},
        errors=_ERRORS,
        summary="Set the game's webhook (admin)",
    ),
)
async def set_webhook(request: Request, game: GameId) -> Response:
    who = await required_caller(request)
    found = services(request)
    state = await administered(found, who, game)
    body = await read_body(request, WebhookBody)
    await _check(body.url, allow_private=found.webhook_allow_private)
    # Reminders are private before a resolution: they go only where the trusted client the
    # game was set up through (its bot, which DMs each player their own) asked; not where
    # the operator or a plain admin did (rules.md, "Who sees what").
    trusted = who.client_id is not None and who.client_id == state.client_id
    secret = secrets.token_urlsafe(32)
    await found.pool.execute(
        "INSERT INTO webhooks (game_id, url, secret, created_at, trusted) "
        "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO UPDATE "
        "SET url = excluded.url, secret = excluded.secret, trusted = excluded.trusted",
        game,
        body.url,
        secret,
        found.clock.now(),
        trusted,
    )
    return json_response(WebhookSet(body.url, secret, trusted))


@router.get(
    "/webhook",
    **documented(
        responses={200: WebhookView},
        errors=_ERRORS,
        summary="The webhook and its deliveries (admin)",
    ),
)
async def get_webhook(request: Request, game: GameId) -> Response:
    _, found = await _admin(request, game)
    hook = await found.pool.fetchrow("SELECT url, trusted FROM webhooks WHERE game_id = $1", game)
    counts = await found.pool.fetchrow(
        "SELECT count(*) FILTER (WHERE delivered_at IS NULL AND failed_at IS NULL), "
        "count(*) FILTER (WHERE delivered_at IS NOT NULL), "
        "count(*) FILTER (WHERE failed_at IS NOT NULL), "
        "(SELECT last_error FROM webhook_deliveries WHERE game_id = $1 AND last_error IS NOT NULL "
        "ORDER BY next_attempt_at DESC LIMIT 1) "
        "FROM webhook_deliveries WHERE game_id = $1",
        game,
    )
    assert counts is not None
    url, trusted = (None, False) if hook is None else hook
    pending, delivered, failed, last_error = counts
    return json_response(WebhookView(url, pending, delivered, failed, trusted, last_error))


@router.delete(
    "/webhook",
    status_code=204,
    **documented(responses={204: None}, errors=_ERRORS, summary="Remove the webhook (admin)"),
)
async def delete_webhook(request: Request, game: GameId) -> Response:
    _, found = await _admin(request, game)
    await found.pool.execute("DELETE FROM webhooks WHERE game_id = $1", game)
    return Response(status_code=204)
