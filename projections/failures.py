"""Games whose read models could not be written (schema/sql/0006_read_model_failures.sql).

The runner records a game here, in the transaction that moves its checkpoint past the
game's events, and goes on with the others; it clears the row in the transaction that
writes the game's rows again. GET /v1/health lists them.
"""

from datetime import datetime

import asyncpg
import msgspec

from eventstore.migrations import Connection

# What health shows at most; the table holds them all.
LISTED = 100
# An error's message is kept for the operator, cut to this.
_MESSAGE_CHARACTERS = 500


class Failure(msgspec.Struct, frozen=True):
    game_id: str
    # The last event of the game that the runner has passed: the rows are rewritten up to it.
    version: int
    position: int
    # The exception's class, and the first line of its message.
    error: str
    message: str
    since: datetime
    attempts: int


async def failing_among(connection: Connection, game_ids: list[str]) -> set[str]:
    rows = await connection.fetch(
        "SELECT game_id FROM read_model_failures WHERE game_id = ANY($1::text[])", game_ids
    )
    return {row[0] for row in rows}


async def listed(
    connection: Connection | asyncpg.Pool, limit: int | None = LISTED
) -> list[Failure]:
    """The failing games, in the order they failed (all of them with `limit=None`)."""
    rows = await connection.fetch(
        "SELECT game_id, version, position, error, message, since, attempts "
        "FROM read_model_failures ORDER BY since, game_id LIMIT $1",
        limit,
    )
    return [Failure(*row) for row in rows]


async def record(
    connection: Connection, game_id: str, version: int, position: int, error: Exception
) -> None:
    """Note (or note again) that the game's rows could not be written up to `version`."""
    await connection.execute(
        "INSERT INTO read_model_failures (game_id, version, position, error, message) "
        "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO UPDATE SET "
        "version = excluded.version, position = excluded.position, error = excluded.error, "
        "message = excluded.message, attempts = read_model_failures.attempts + 1, "
        "last_attempt_at = excluded.last_attempt_at",
        game_id,
        version,
        position,
        type(error).__name__,
        summary(error),
    )


def summary(error: Exception) -> str:
    """The first line of the error's message, cut short: PostgreSQL's details quote the
    refused row, which may be a whole resolution."""
    return str(error).partition("\n")[0].replace("\x00", "")[:_MESSAGE_CHARACTERS]


async def clear(connection: Connection, game_id: str) -> None:
    await connection.execute("DELETE FROM read_model_failures WHERE game_id = $1", game_id)
