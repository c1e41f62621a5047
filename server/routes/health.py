"""GET /v1/health: is the server up, can it reach its database, are its read models whole?"""

import asyncio

import asyncpg
from fastapi import APIRouter, Request
from fastapi.responses import Response

from eventstore.outages import UNREACHABLE
from projections import failures
from schema import errors as codes
from schema.api import FailingGame, Health
from server.api import documented, json_response
from server.errors import ApiError

router = APIRouter()

# Long enough for a busy database, short enough for a load balancer's health check.
PING_TIMEOUT_SECONDS = 2.0
_UNANSWERED: tuple[type[Exception], ...] = (*UNREACHABLE, asyncpg.PostgresError)


@router.get(
    "/v1/health",
    **documented(responses={200: Health}, summary="Is the server up, and its read models whole?"),
)
async def health(request: Request) -> Response:
    # The pool alone, not the services: a health check needs nothing else.
    pool: asyncpg.Pool = request.app.state.pool
    try:
        async with asyncio.timeout(PING_TIMEOUT_SECONDS):
            failing = await failures.listed(pool)
    except TimeoutError:
        raise ApiError(codes.DATABASE_UNAVAILABLE, "the database did not answer in time") from None
    except _UNANSWERED as error:
        raise ApiError(codes.DATABASE_UNAVAILABLE, f"database unreachable: {error}") from error
    if not failing:
        return json_response(Health(status="ok", database="ok", read_models="ok"))
    games = [
        FailingGame(
            game=failure.game_id,
            version=failure.version,
            error=failure.error,
            since=failure.since,
            attempts=failure.attempts,
        )
        for failure in failing
    ]
    return json_response(Health(status="degraded", database="ok", read_models=games))
