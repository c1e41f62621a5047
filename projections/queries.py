"""What the routes read from the read models that projections/runner.py writes (the game
list, a caller's games, a turn's history), beside the code that writes them. Each answer
is as of the last event the runner has folded in, which may lag an append by milliseconds
(and for as long as a game's read models fail: projections/failures.py).
"""

from collections.abc import Callable
from typing import Generic, TypeVar

import asyncpg
import msgspec

from schema.accounts import MyGame
from schema.api import GameSummary, TurnView
from schema.game_events import RecordedPosition, TurnResolved

T = TypeVar("T")
_decode_position = msgspec.json.Decoder(RecordedPosition).decode
_decode_resolution = msgspec.json.Decoder(TurnResolved).decode


class Page(msgspec.Struct, Generic[T], frozen=True):
    items: list[T]
    # The `after` of the next page; None on the last one.
    next: str | None


class ReadModelsBehind(Exception):
    """The read models did not reach the position asked for in time (a 503 with
    Retry-After, server/http/errors.py)."""


async def games(pool: asyncpg.Pool, phase: str | None, after: str, limit: int) -> Page[GameSummary]:
    """The games after `after` by id, killed ones left out, of one phase if given."""
    rows = await pool.fetch(
        "SELECT game_id, name, phase, turn, players, position FROM read_games "
        "WHERE phase <> 'killed' AND ($1::text IS NULL OR phase = $1) AND game_id > $2 "
        "ORDER BY game_id LIMIT $3",
        phase,
        after,
        limit + 1,
    )
    return _page([GameSummary(*row) for row in rows], limit, lambda game: game.id)


async def games_of(
    pool: asyncpg.Pool, account_id: str, vouched_by: str | None, after: str, limit: int
) -> Page[MyGame]:
    """The games the account plays a seat of, is an admin of or is invited to (a real fork's
    seat), after `after` by id, killed ones left out. A user whom the trusted client
    `vouched_by` vouches for is an admin of the games set up through that client (listed if
    the user plays or is listed there)."""
    rows = await pool.fetch(
        "SELECT g.game_id, g.name, g.phase, g.turn, m.player_id, m.player_status, "
        "m.admin OR coalesce(g.client_id = $2, false), g.position, m.invited_to "
        "FROM read_members m JOIN read_games g USING (game_id) "
        "WHERE m.account_id = $1 AND g.phase <> 'killed' AND m.game_id > $3 "
        "ORDER BY m.game_id LIMIT $4",
        account_id,
        vouched_by,
        after,
        limit + 1,
    )
    return _page([MyGame(*row) for row in rows], limit, lambda game: game.id)


async def turn(pool: asyncpg.Pool, game_id: str, number: int, *, position: int) -> TurnView | None:
    """Turn `number` of the game as the read models hold it, if they hold the game's events
    up to `position` (projections/reads.py waits for that first); None if the game has not
    reached that turn. ReadModelsBehind if they do not hold the game so far, which is at
    once the case while the game's read models fail (projections/failures.py)."""
    row = await pool.fetchrow(
        "SELECT g.position, t.start_board::text, t.effect, t.resolution::text "
        "FROM read_games g LEFT JOIN read_turns t "
        "ON t.game_id = g.game_id AND t.turn = $2 WHERE g.game_id = $1",
        game_id,
        number,
    )
    if row is None or row[0] < position:
        raise ReadModelsBehind("the game's history is not up to date yet")
    read_position, start_board, effect, resolution = row
    if start_board is None:
        return None
    return TurnView(
        turn=number,
        start_board=_decode_position(start_board),
        effect=effect,
        resolution=None if resolution is None else _decode_resolution(resolution),
        position=read_position,
    )


def _page(rows: list[T], limit: int, key: Callable[[T], str]) -> Page[T]:
    """A page of `limit` from `limit + 1` rows: the extra one says there is a next page."""
    items = rows[:limit]
    return Page(items, key(items[-1]) if len(rows) > limit else None)
