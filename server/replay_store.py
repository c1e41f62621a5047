"""`skirmish replay`: every game in the store (or one) replayed by server/replay.py."""

import asyncio
from collections.abc import AsyncIterator

from eventstore.base import EventStore
from eventstore.migrations import migrate
from eventstore.postgres import PostgresEventStore
from projections.loading import game_of, stream_of
from schema.game_events import game_codec
from server.database import create_pool
from server.replay import TurnDifference, replay_game


class ReplayReport:
    """What a replay found: games and turns replayed, and the turns that differ."""

    def __init__(self) -> None:
        self.games = 0
        self.turns = 0
        self.differences: list[TurnDifference] = []


async def _games(store: EventStore) -> AsyncIterator[str]:
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
    games = [game_id] if game_id is not None else [g async for g in _games(store)]
    for game in games:
        recorded = await store.read_stream(stream_of(game))
        if not recorded:
            continue
        turns, differences = replay_game(game, game_codec.decode_all(recorded))
        report.games += 1
        report.turns += turns
        report.differences.extend(differences)
    return report


async def _replay(database_url: str, game_id: str | None) -> ReplayReport:
    pool = await create_pool(database_url, max_size=2)
    try:
        await migrate(pool)
        async with await PostgresEventStore.open(pool) as store:
            return await replay_store(store, game_id)
    finally:
        await pool.close()


def run(database_url: str, game_id: str | None) -> ReplayReport:
    return asyncio.run(_replay(database_url, game_id))
