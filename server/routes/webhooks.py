"""A game's webhook (admin): where its notifications and resolutions are POSTed."""

import secrets
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import Response

from schema.api import WebhookBody, WebhookSet, WebhookView
from server.api import documented, json_response, read_body
from server.errors import ApiError
from server.identity import required_caller
from server.routes.games import GameId, readable
from server.routes.history import require_admin_identity
from server.services import Services, services

router = APIRouter(prefix="/v1/games/{game}", tags=["webhooks"])
_ERRORS = (401, 403, 404, 410)


async def _admin(request: Request, game: str) -> Services:
    who = await required_caller(request)
    found = services(request)
    state, _ = await readable(found, game)
    require_admin_identity(state, who)
    return found


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
    found = await _admin(request, game)
    body = await read_body(request, WebhookBody)
    parts = urlsplit(body.url)
    if parts.scheme not in ("http", "https") or not parts.hostname or len(body.url) > 2000:
        raise ApiError(422, "invalid", "the webhook must be an http(s) URL")
    secret = secrets.token_urlsafe(32)
    await found.pool.execute(
        "INSERT INTO webhooks (game_id, url, secret, created_at) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (game_id) DO UPDATE SET url = excluded.url, secret = excluded.secret",
        game,
        body.url,
        secret,
        found.clock.now(),
    )
    return json_response(WebhookSet(body.url, secret))


@router.get(
    "/webhook",
    **documented(
        responses={200: WebhookView},
        errors=_ERRORS,
        summary="The webhook and its deliveries (admin)",
    ),
)
async def get_webhook(request: Request, game: GameId) -> Response:
    found = await _admin(request, game)
    url = await found.pool.fetchval("SELECT url FROM webhooks WHERE game_id = $1", game)
    counts = await found.pool.fetchrow(
        "SELECT count(*) FILTER (WHERE delivered_at IS NULL AND failed_at IS NULL), "
        "count(*) FILTER (WHERE delivered_at IS NOT NULL), "
        "count(*) FILTER (WHERE failed_at IS NOT NULL) "
        "FROM webhook_deliveries WHERE game_id = $1",
        game,
    )
    assert counts is not None
    return json_response(WebhookView(url, counts[0], counts[1], counts[2]))


@router.delete(
    "/webhook",
    status_code=204,
    **documented(responses={204: None}, errors=_ERRORS, summary="Remove the webhook (admin)"),
)
async def delete_webhook(request: Request, game: GameId) -> Response:
    found = await _admin(request, game)
    await found.pool.execute("DELETE FROM webhooks WHERE game_id = $1", game)
    return Response(status_code=204)
