"""GET /v1/health: is the server up, and can it reach its database?"""

import asyncio
from typing import Literal

import asyncpg
from fastapi import APIRouter, Request
from pydantic import BaseModel

from eventstore.notifications import CONNECTION_ERRORS
from server.errors import ApiError, ErrorBody

router = APIRouter()

# Long enough for a busy database, short enough for a load balancer's health check.
PING_TIMEOUT_SECONDS = 2.0

_UNREACHABLE: tuple[type[Exception], ...] = (
    *CONNECTION_ERRORS,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
)


class Health(BaseModel):
    status: Literal["ok"]
    database: Literal["ok"]


@router.get(
    "/v1/health",
    response_model=Health,
    responses={503: {"model": ErrorBody, "description": "the database is unreachable"}},
)
async def health(request: Request) -> Health:
    pool: asyncpg.Pool = request.app.state.pool
    try:
        async with asyncio.timeout(PING_TIMEOUT_SECONDS):
            await pool.fetchval("SELECT 1")
    except TimeoutError:
        raise ApiError(503, "database_unavailable", "the database did not answer in time") from None
    except _UNREACHABLE as error:
        raise ApiError(503, "database_unavailable", f"database unreachable: {error}") from error
    return Health(status="ok", database="ok")
