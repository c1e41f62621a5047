"""GET /v1/health: is the server up, can it reach its database, are its read models whole?"""

import asyncio
from datetime import datetime
from typing import Literal

import asyncpg
from fastapi import APIRouter, Request
from pydantic import BaseModel

from eventstore.outages import UNREACHABLE
from projections import failures
from schema import errors as codes
from server.errors import ApiError, ErrorBody

router = APIRouter()

# Long enough for a busy database, short enough for a load balancer's health check.
PING_TIMEOUT_SECONDS = 2.0
_UNANSWERED: tuple[type[Exception], ...] = (*UNREACHABLE, asyncpg.PostgresError)


class FailingGame(BaseModel):
    """A game whose read models could not be written: its list entry, public view and turn
    history stay as they were until a retry succeeds (docs/operations.md)."""

    game: str
    # The event up to which its read models are being rewritten.
    version: int
    # The exception's class only: its message may quote a game's secrets, and is in the log.
    error: str
    since: datetime
    attempts: int


class Health(BaseModel):
    # "degraded" while some game's read models fail: the server still serves (200).
    status: Literal["ok", "degraded"]
    database: Literal["ok"]
    # The failing games, the oldest failures first (at most 100 listed).
    read_models: Literal["ok"] | list[FailingGame]


@router.get(
    "/v1/health",
    response_model=Health,
    responses={503: {"model": ErrorBody, "description": "the database is unreachable"}},
)
async def health(request: Request) -> Health:
    pool: asyncpg.Pool = request.app.state.pool
    try:
        async with asyncio.timeout(PING_TIMEOUT_SECONDS):
            failing = await failures.listed(pool)
    except TimeoutError:
        raise ApiError(codes.DATABASE_UNAVAILABLE, "the database did not answer in time") from None
    except _UNANSWERED as error:
        raise ApiError(codes.DATABASE_UNAVAILABLE, f"database unreachable: {error}") from error
    if not failing:
        return Health(status="ok", database="ok", read_models="ok")
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
    return Health(status="degraded", database="ok", read_models=games)
