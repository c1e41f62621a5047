"""GameService decides on the state it kept, without reading, against real PostgreSQL: two
services on stores of their own are two server processes."""

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence

import asyncpg

from eventstore.postgres import PostgresEventStore
from eventstore.records import AppendResult, NewEvent, NewSnapshot, RecordedEvent, Snapshot
from projections.loading import stream_of
from schema.commands import Actor, SubmitOrders
from schema.game_events import OrdersSubmitted, TurnRewound, game_codec
from schema.refusals import NotAllowed
from server.game.handlers import GameService
from server.game.outcome import Outcome
from tests.server.scripted import NONCE, ScriptedGame


class CountingStore(PostgresEventStore):
    """The PostgreSQL store, counting its appends and the reads that bring a game's state
    up to date."""

    reads = 0
    appends = 0

    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int | None,
        *,
        expected_position: int | None = None,
        snapshot: NewSnapshot | None = None,
    ) -> AppendResult:
        self.appends += 1
        return await super().append(
            stream_id,
            events,
            expected_version,
            expected_position=expected_position,
            snapshot=snapshot,
        )

    async def read_stream_after_position(
        self, stream_id: str, position: int, *, limit: int = 1000
    ) -> list[RecordedEvent]:
        self.reads += 1
        return await super().read_stream_after_position(stream_id, position, limit=limit)

    async def read_from_snapshot(
        self, stream_id: str, name: str
    ) -> tuple[Snapshot | None, list[RecordedEvent]]:
        self.reads += 1
        return await super().read_from_snapshot(stream_id, name)

    async def read_stream(
        self, stream_id: str, *, after_version: int = 0, limit: int | None = None
    ) -> list[RecordedEvent]:
        self.reads += 1
        return await super().read_stream(stream_id, after_version=after_version, limit=limit)


@contextlib.asynccontextmanager
async def process(pool: asyncpg.Pool) -> AsyncIterator[tuple[GameService, CountingStore]]:
    async with await CountingStore.open(pool) as store:
        yield GameService(store), store


def orders(game: ScriptedGame, account: str) -> SubmitOrders:
    return SubmitOrders(nonce=NONCE, actor=Actor(account), now=game.now, text="anything")


async def test_orders_and_resolutions_on_a_kept_state_read_nothing(pool: asyncpg.Pool) -> None:
    async with process(pool) as (service, store):
        game = ScriptedGame(service)
        await game.set_up()
        await game.play_turn()
        store.reads = 0
        game.tick(0.1)

        for account in game.accounts():
            await game.run(orders(game, account))
        resolved = await game.play_turn()

        # play_turn's own load is one read, and the only one.
        assert store.reads == 1
        assert resolved.state == (await GameService(store).load("g1")).state


async def test_a_kept_state_never_overwrites_a_rewind_made_elsewhere(pool: asyncpg.Pool) -> None:
    async with process(pool) as (players, players_store), process(pool) as (admin, _):
        game = ScriptedGame(players)
        await game.set_up()
        await game.play_turn()
        await game.play_turn()
        game.tick(0.1)
        await game.run(orders(game, "acct-1"))
        kept = players.states.latest("g1")
        assert kept is not None
        assert kept.state.turn == 3

        # Elsewhere: the resolution of turn 2 is rewound, and orders for turn 2 again bring
        # the stream back to the kept version, with other events.
        elsewhere = ScriptedGame(admin)
        elsewhere.now = game.now
        await elsewhere.rewind()
        elsewhere.tick(0.1)
        stream = stream_of("g1")
        accounts = iter(game.accounts() * 2)
        while await players_store.stream_version(stream) < kept.state.version:
            await elsewhere.run(orders(elsewhere, next(accounts)))
        assert await players_store.stream_version(stream) == kept.state.version
        players_store.reads = 0
        game.now = elsewhere.now

        executed = await game.run(orders(game, "acct-2"))

        assert players_store.reads > 0
        [last] = executed.events
        assert isinstance(last, OrdersSubmitted)
        assert last.turn == 2
        events = [game_codec.decode_recorded(e) for e in await players_store.read_stream(stream)]
        assert sum(isinstance(e, TurnRewound) for e in events) == 1
        assert executed.state == (await GameService(players_store).load("g1")).state
        assert executed.state.turn == 2


async def test_commands_that_wait_for_the_game_go_in_together_each_with_its_answer(
    pool: asyncpg.Pool,
) -> None:
    async with process(pool) as (service, store):
        game = ScriptedGame(service)
        await game.set_up()
        game.tick(0.1)
        store.appends = 0

        outcomes = await asyncio.gather(
            *(game.run(orders(game, account)) for account in [*game.accounts(), "acct-x"]),
            return_exceptions=True,
        )

        # The first alone; the others waited for it, and went in as one append.
        assert store.appends == 2
        *submitted, stranger = outcomes
        assert isinstance(stranger, NotAllowed)
        answers = [o for o in submitted if isinstance(o, Outcome)]
        submissions = [e for a in answers for e in a.events if isinstance(e, OrdersSubmitted)]
        assert [e.player_id for e in submissions] == ["p1", "p2", "p3", "p4", "p5"]
        stream = await store.read_stream(stream_of("g1"))
        assert answers[-1].position == stream[-1].position
        assert answers[-1].state == (await GameService(store).load("g1")).state
