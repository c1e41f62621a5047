"""One transaction's writes of the read models, game by game: a game whose rows the
database refuses is recorded as failing (projections/failures.py), and the others go on."""

from collections.abc import Awaitable, Callable
from functools import partial

from eventstore.migrations import Connection
from eventstore.outages import UNREACHABLE
from projections import failures
from projections.game import GameState
from projections.rows import GameRows
from projections.rows import write as write_rows

# A game's state as written, and the position of its last event.
Written = tuple[GameState, int]


class Writes:
    """The games of one transaction: those written, those that failed, and those that were
    failing before it."""

    def __init__(self, connection: Connection, failing: set[str]) -> None:
        self.connection = connection
        self.failing = failing
        self.written: dict[str, Written] = {}
        self.failed: dict[str, Exception] = {}

    async def write(
        self, game_id: str, version: int, position: int, write: Callable[[], Awaitable[Written]]
    ) -> None:
        """One game's writes, up to its event at (version, position), under a savepoint: if
        they fail they are undone and the failure is recorded instead. A lost database is
        no game's failure: it ends the whole transaction."""
        try:
            async with self.connection.transaction():
                self.written[game_id] = await write()
        except UNREACHABLE:
            raise
        except Exception as error:
            await self.failed_at(game_id, version, position, error)
            return
        if game_id in self.failing:
            await failures.clear(self.connection, game_id)

    async def write_all(self, games: list[GameRows]) -> None:
        """The rows of games folded in memory, all at once under one savepoint; if the
        database refuses any of them, game by game, so that only that game fails."""
        try:
            async with self.connection.transaction():
                await write_rows(self.connection, games)
        except UNREACHABLE:
            raise
        except Exception:
            for rows in games:
                assert rows.state is not None
                write = partial(_written, self.connection, rows)
                await self.write(rows.game_id, rows.state.version, rows.position, write)
            return
        for rows in games:
            assert rows.state is not None
            self.written[rows.game_id] = (rows.state, rows.position)

    async def failed_at(self, game_id: str, version: int, position: int, error: Exception) -> None:
        """Record that the game's rows could not be written up to (version, position)."""
        self.failed[game_id] = error
        await failures.record(self.connection, game_id, version, position, error)


async def _written(connection: Connection, rows: GameRows) -> Written:
    await write_rows(connection, [rows])
    assert rows.state is not None
    return rows.state, rows.position
