"""GET /v1/health: is the server up, can it reach its database, are its read models whole
and up to date, are its background loops running?"""

import asyncio
from datetime import datetime

import asyncpg
from fastapi import APIRouter, Request
from fastapi.responses import Response

from eventstore.outages import UNREACHABLE
from projections import failures
from projections.lag import read_model_lag
from schema import errors as codes
from schema.api import FailingGame, Health, ReadModelLag
from schema.errors import Refusal
from server.clock import SystemClock
from server.http.api import documented, json_response

router = APIRouter()

# Long enough for a busy database, short enough for a load balancer's health check.
PING_TIMEOUT_SECONDS = 2.0
_UNANSWERED: tuple[type[Exception], ...] = (*UNREACHABLE, asyncpg.PostgresError)
# The read models are "lagging" when the oldest event they have not applied is older than
# this: they normally follow within milliseconds.
LAGGING_SECONDS = 10.0


@router.get(
    "/v1/health",
    **documented(
        responses={200: Health},
        summary="Is the server up, its read models whole and current, its loops running?",
    ),
)
async def health(request: Request) -> Response:
    # The pool (and the clock, if there are services): a health check needs nothing else.
    pool: asyncpg.Pool = request.app.state.pool
    try:
        async with asyncio.timeout(PING_TIMEOUT_SECONDS):
            failing = await failures.listed(pool)
            lag = await read_model_lag(pool, _now(request))
    except TimeoutError:
        raise Refusal(codes.DATABASE_UNAVAILABLE, "the database did not answer in time") from None
    except _UNANSWERED as error:
        raise Refusal(codes.DATABASE_UNAVAILABLE, f"database unreachable: {error}") from error
    lagging = lag.seconds > LAGGING_SECONDS
    # A loop runs for ever, pausing through outages: one that is done has stopped.
    loops: list[asyncio.Task[None]] = getattr(request.app.state, "background", [])
    stopped = [task.get_name() for task in loops if task.done()]
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
    return json_response(
        Health(
            status="degraded" if games or lagging or stopped else "ok",
            database="ok",
            read_models=games or "ok",
            lag=ReadModelLag(events=lag.events, seconds=round(lag.seconds, 3), lagging=lagging),
            stopped=stopped,
        )
    )


def _now(request: Request) -> datetime:
    """The server's clock, which dates the events (a fake one in tests and --fake-clock)."""
    found = getattr(request.app.state, "services", None)
    return SystemClock().now() if found is None else found.clock.now()
