"""The async shell on every store: a whole game, rewinds, races, snapshots."""

import asyncio
from datetime import datetime
from typing import Any, cast

import pytest
from msgspec.structs import replace

from eventstore.base import EventStore
from eventstore.records import Truncation
from projections.game import SNAPSHOT_NAME, GameState
from projections.loading import stream_of
from schema.commands import (
    Actor,
    CreateGame,
    GameCommand,
    JoinGame,
    MakeMove,
    ResolveTurn,
    RewindTurn,
    StartGame,
    SubmitOrders,
)
from schema.game_events import OrdersSubmitted, Settings, TurnResolved, TurnRewound, game_codec
from schema.refusals import Conflict, NotAllowed, WrongTurn
from server.game.handlers import GameService
from tests.server.scripted import ADMIN, NONCE, SECRET, START, ScriptedGame

# The clock, as each process's scheduler resolves: at once, whoever has sent orders.
SCHEDULER = Actor("scheduler", operator=True)


async def test_a_five_player_game_is_played_to_a_winner(store: EventStore) -> None:
    game = ScriptedGame(GameService(store))
    await game.set_up()
    results = [await game.play_turn() for _ in range(4)]
    final = results[-1].state
    assert [r.events[0].turn for r in results if isinstance(r.events[0], TurnResolved)] == [
        1,
        2,
        3,
        4,
    ]
    assert final.phase == "finished"
    assert final.skirmish.winner == "p1"
    assert final.skirmish.vp_of("p1") == 6
    assert len(final.skirmish.board.farms) == 2
    # A finished game refuses orders.
    with pytest.raises(Exception, match="finished"):
        await game.run(
            SubmitOrders(nonce=NONCE, actor=Actor("acct-2"), now=game.tick(0.1), text="XX H")
        )


async def test_the_state_reloaded_from_the_store_equals_the_live_one(store: EventStore) -> None:
    game = ScriptedGame(GameService(store))
    await game.set_up()
    for _ in range(3):
        live = await game.play_turn()
    fresh = await GameService(store).load("g1")
    assert fresh.state == live.state
    assert fresh.position == live.position


async def test_a_rewind_undoes_the_last_resolution_and_archives_it(store: EventStore) -> None:
    service = GameService(store)
    game = ScriptedGame(service)
    await game.set_up()
    await game.play_turn()
    before_turn_2 = (await service.load("g1")).state
    resolved_2 = await game.play_turn()
    assert resolved_2.state.turn == 3

    rewound = await game.rewind()
    assert rewound.state.turn == 2
    assert rewound.state.skirmish.board == before_turn_2.skirmish.board
    # The orders of turn 2 are submitted orders again, and can be replaced.
    assert set(rewound.state.skirmish.submissions) == set(before_turn_2.players)
    archive = await store.read_archive(stream_of("g1"))
    assert len(archive) == 1
    assert archive[0].truncated_by == ADMIN
    # The resolution and the five players' results notices sent with it.
    assert [e.type for e in archive[0].events] == ["turn_resolved.v1"] + ["player_notified.v1"] * 5

    # Rewinding again goes one more turn back.
    again = await game.rewind()
    assert again.state.turn == 1
    assert len(await store.read_archive(stream_of("g1"))) == 2
    stream = await store.read_stream(stream_of("g1"))
    decoded = [game_codec.decode_recorded(e) for e in stream]
    assert sum(isinstance(e, TurnRewound) for e in decoded) == 1
    assert not any(isinstance(e, TurnResolved) for e in decoded)

    # The game plays on from there to the same end.
    for _ in range(4):
        last = await game.play_turn()
    assert last.state.skirmish.winner == "p1"


async def test_a_snapshot_is_taken_at_every_resolution(store: EventStore) -> None:
    game = ScriptedGame(GameService(store))
    await game.set_up()
    resolved = await game.play_turn()
    snapshot = await store.load_snapshot(stream_of("g1"), SNAPSHOT_NAME)
    assert snapshot is not None
    assert snapshot.version == resolved.state.version
    # After a rewind the snapshot of the undone resolution is no longer used.
    await game.rewind()
    assert await store.load_snapshot(stream_of("g1"), SNAPSHOT_NAME) is None


async def test_a_snapshot_of_an_older_shape_is_passed_over_for_the_whole_stream(
    store: EventStore,
) -> None:
    game = ScriptedGame(GameService(store))
    await game.set_up()
    resolved = await game.play_turn()
    snapshot = await store.load_snapshot(stream_of("g1"), SNAPSHOT_NAME)
    assert snapshot is not None
    await store.save_snapshot(replace(snapshot, data=b'{"an": "older shape"}'))
    reloaded = await GameService(store).load("g1")
    assert reloaded.state == resolved.state


async def test_twenty_concurrent_submitters_lose_nothing(store: EventStore) -> None:
    # Two services, as two server processes would be, each with its own cache.
    services = [GameService(store), GameService(store)]
    game = ScriptedGame(services[0], players=20)
    await game.set_up()
    state = (await services[0].load("g1")).state
    now = game.tick(0.1)

    async def submit(i: int, player_id: str) -> None:
        player = state.players[player_id]
        mine = [t for t, owner in state.skirmish.board.armies.items() if owner == player_id]
        text = ", ".join(f"{t} H" for t in mine)
        await services[i % 2].execute(
            "g1", SubmitOrders(nonce=NONCE, actor=Actor(player.accounts[0]), now=now, text=text)
        )

    await asyncio.gather(*(submit(i, pid) for i, pid in enumerate(state.players)))
    stream = await store.read_stream(stream_of("g1"))
    submitted = [
        e for e in map(game_codec.decode_recorded, stream) if isinstance(e, OrdersSubmitted)
    ]
    assert sorted(e.player_id for e in submitted) == sorted(state.players)
    assert [e.version for e in stream] == list(range(1, len(stream) + 1))


async def test_a_turn_never_resolves_twice_when_two_processes_race(store: EventStore) -> None:
    services = [GameService(store) for _ in range(4)]
    game = ScriptedGame(services[0])
    await game.set_up()
    now = game.tick(0.3)
    outcomes = await asyncio.gather(
        *(s.execute("g1", ResolveTurn(actor=SCHEDULER, now=now, turn=1)) for s in services),
        return_exceptions=True,
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert all(isinstance(o, WrongTurn) for o in outcomes if isinstance(o, BaseException))
    stream = [game_codec.decode_recorded(e) for e in await store.read_stream(stream_of("g1"))]
    assert sum(isinstance(e, TurnResolved) for e in stream) == 1


async def test_a_refused_command_appends_nothing(store: EventStore) -> None:
    game = ScriptedGame(GameService(store))
    await game.set_up()
    version = await store.stream_version(stream_of("g1"))
    with pytest.raises(NotAllowed):
        await game.run(
            SubmitOrders(nonce=NONCE, actor=Actor("acct-stranger"), now=game.tick(0.1), text="AB H")
        )
    with pytest.raises(Exception, match="running"):
        await game.run(JoinGame(actor=Actor("acct-late"), now=game.now, name="Late"))
    assert await store.stream_version(stream_of("g1")) == version


class TruncatesTogether:
    """The store, except that `truncate` waits until `parties` callers reach it: every
    rewind has made its plan before any truncates, the race at its worst."""

    def __init__(self, store: EventStore, parties: int) -> None:
        self._store = store
        self._barrier = asyncio.Barrier(parties)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def truncate(self, *args: Any, **kwargs: Any) -> Truncation:
        await self._barrier.wait()
        return await self._store.truncate(*args, **kwargs)


async def test_two_admins_rewinding_at_once_undo_one_turn(store: EventStore) -> None:
    game = ScriptedGame(GameService(store))
    await game.set_up()
    await game.play_turn()
    await game.play_turn()
    racing = cast(EventStore, TruncatesTogether(store, parties=2))
    # Two services, as two server processes would be.
    services = [GameService(racing), GameService(racing)]
    now = game.tick(0.01)
    outcomes = await asyncio.gather(
        *(s.rewind("g1", RewindTurn(actor=Actor(ADMIN), now=now, secret=SECRET)) for s in services),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(refused) == 1
    assert isinstance(refused[0], Conflict)
    assert "nothing was undone" in refused[0].message
    assert (await GameService(store).load("g1")).state.turn == 2
    assert len(await store.read_archive(stream_of("g1"))) == 1


class OrdersSlipIn:
    """A store where another player's orders land just before each of the first `times`
    truncations, so that each of those rewinds finds the stream moved on."""

    def __init__(self, store: EventStore, players: GameService, orders: SubmitOrders) -> None:
        self._store = store
        self._players = players
        self._orders = orders
        self.slipped = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def truncate(self, *args: Any, **kwargs: Any) -> Truncation:
        if self.slipped < 3:
            self.slipped += 1
            await self._players.execute("g1", self._orders)
        return await self._store.truncate(*args, **kwargs)


async def test_a_rewind_lands_while_players_keep_submitting(store: EventStore) -> None:
    """Players writing from another process only move the stream on: the rewind plans
    again and retries until it lands, instead of answering 409."""
    game = ScriptedGame(GameService(store))
    await game.set_up()
    await game.play_turn()
    await game.play_turn()
    players = GameService(store)
    state = (await players.load("g1")).state
    now = game.tick(0.05)
    orders = SubmitOrders(
        nonce=NONCE, actor=Actor(state.players["p2"].accounts[0]), now=now, text="anything"
    )
    slipping = OrdersSlipIn(store, players, orders)
    rewound = asyncio.Event()

    async def keep_submitting(account: str) -> None:
        for _ in range(40):
            if rewound.is_set():
                return
            await players.execute(
                "g1", SubmitOrders(nonce=NONCE, actor=Actor(account), now=now, text="anything")
            )

    submitters = [
        asyncio.create_task(keep_submitting(p.accounts[0])) for p in state.players.values()
    ]
    admin = GameService(cast(EventStore, slipping))
    executed = await admin.rewind("g1", RewindTurn(actor=Actor(ADMIN), now=now, secret=SECRET))
    rewound.set()
    await asyncio.gather(*submitters)
    assert slipping.slipped == 3
    assert isinstance(executed.events[0], TurnRewound)
    assert executed.state.turn == 2
    assert len(await store.read_archive(stream_of("g1"))) == 1


class AlwaysBeaten:
    """The store, except that before each of this process's appends another process
    appends a submission of its own: every race this process runs, it loses."""

    def __init__(self, store: EventStore, rival: ScriptedGame) -> None:
        self._store = store
        self._rival = rival
        self.beaten = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def append(self, *args: Any, **kwargs: Any) -> Any:
        self.beaten += 1
        rival = self._rival
        await rival.run(_holds((await rival.service.load("g1")).state, "p2", rival.now))
        return await self._store.append(*args, **kwargs)


def _holds(state: GameState, player_id: str, now: datetime) -> SubmitOrders:
    mine = [t for t, owner in state.skirmish.board.armies.items() if owner == player_id]
    account = state.players[player_id].accounts[0]
    text = ", ".join(f"{t} H" for t in mine)
    return SubmitOrders(nonce=NONCE, actor=Actor(account), now=now, text=text)


async def test_a_process_that_loses_every_race_still_gets_its_command_in(
    store: EventStore,
) -> None:
    rival = ScriptedGame(GameService(store))
    await rival.set_up()
    now = rival.tick(0.1)
    beaten = AlwaysBeaten(store, rival)
    loser = GameService(cast(EventStore, beaten))

    done = await loser.execute("g1", _holds((await loser.load("g1")).state, "p3", now))

    recorded = await store.read_stream(stream_of("g1"))
    events = [game_codec.decode_recorded(e) for e in recorded]
    submitted = [e.player_id for e in events if isinstance(e, OrdersSubmitted)]
    # Beaten on its kept state and on three states just read, not a hundred times: then it
    # holds the stream, and goes in after the rival's.
    assert beaten.beaten == 4
    assert submitted == ["p2"] * beaten.beaten + ["p3"]
    assert done.position == recorded[-1].position
    assert done.state == (await GameService(store).load("g1")).state


async def test_an_art_of_war_turn_leaves_a_snapshot_that_loads_as_the_live_state(
    store: EventStore,
) -> None:
    """Its resolution is some 90 kB of events on a large map: a game loaded afresh folds
    from its last turn, not from its start."""
    service = GameService(store)

    async def run(command: GameCommand) -> GameState:
        return (await service.execute("g1", command)).state

    now = START
    options = {"map": "aow-mini", "deadline": None}
    await run(
        CreateGame(
            actor=Actor(ADMIN),
            now=now,
            game_id="g1",
            settings=Settings(name="War"),
            seed=1,
            game="art-of-war",
            options=options,
        )
    )
    for n in (1, 2):
        await run(JoinGame(actor=Actor(f"acct-{n}"), now=now, name=f"Player {n}"))
    await run(StartGame(actor=Actor(ADMIN), now=now, secret=SECRET))
    assert await store.load_snapshot(stream_of("g1"), SNAPSHOT_NAME) is None
    await run(MakeMove(actor=Actor("acct-1"), now=now, move=""))
    live = await run(MakeMove(actor=Actor("acct-2"), now=now, move=""))
    assert live.turn == 2
    snapshot = await store.load_snapshot(stream_of("g1"), SNAPSHOT_NAME)
    assert snapshot is not None
    assert snapshot.version == live.version
    fresh = await GameService(store).load("g1")
    assert fresh.state == live
