"""`skirmish replay`: every game in the store (or one) replayed by server/ops/replay.py; and
how `skirmish replay` and `skirmish verify` open the store and go through its games."""

import asyncio
import contextlib
from collections.abc import AsyncIterator

from eventstore.base import EventStore
from eventstore.migrations import migrate
from eventstore.postgres import PostgresEventStore
from projections.loading import game_of, stream_of
from schema.game_events import game_codec
from schema.verification import TurnDifference
from server.ops.database import create_pool
from server.ops.replay import replay_game


class ReplayReport:
    """What a replay found: games and turns replayed, and the turns that differ."""

    def __init__(self) -> None:
        self.games = 0
        self.turns = 0
        self.differences: list[TurnDifference] = []


async def stored_games(store: EventStore) -> AsyncIterator[str]:
    """The id of every game in the store, in id order."""
    after = ""
    while streams := await store.list_streams(after=after, limit=500):
        for stream in streams:
            game_id = game_of(stream.stream_id)
            if game_id is not None:
                yield game_id
        after = streams[-1].stream_id


async def replay_store(store: EventStore, game_id: str | None = None) -> ReplayReport:
    """Replay every game of the store, or only `game_id` (none if it has no events)."""
    report = ReplayReport()
    games = [game_id] if game_id is not None else [g async for g in stored_games(store)]
    for game in games:
        recorded = await store.read_stream(stream_of(game))
        if not recorded:
            continue
        turns, differences = replay_game(game, game_codec.decode_all(recorded))
        report.games += 1
        report.turns += turns
        report.differences.extend(differences)
    return report


@contextlib.asynccontextmanager
async def opened_store(database_url: str) -> AsyncIterator[EventStore]:
    """The store of `database_url`, migrated, for a command line tool."""
    pool = await create_pool(database_url, max_size=2)
    try:
        await migrate(pool)
        async with await PostgresEventStore.open(pool) as store:
            yield store
    finally:
        await pool.close()


async def _replay(database_url: str, game_id: str | None) -> ReplayReport:
    async with opened_store(database_url) as store:
        return await replay_store(store, game_id)


def run(database_url: str, game_id: str | None) -> ReplayReport:
    return asyncio.run(_replay(database_url, game_id))
