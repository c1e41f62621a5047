"""Games built fast for the benchmarks: played by the pure decider (no GameService, clock or
read model in the way) and appended in batches straight to the store."""

import asyncio
import random
import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

import msgspec

from eventstore.base import EventStore
from eventstore.records import NewEvent, Snapshot
from projections.evolve import fold
from projections.game import SNAPSHOT_NAME, GameState, encode_snapshot
from projections.loading import stream_of
from schema.commands import (
    Actor,
    CreateGame,
    GameCommand,
    JoinGame,
    RemindPlayers,
    ResolveTurn,
    StartGame,
    SubmitOrders,
)
from schema.game_events import GameEvent, GameStarted, Settings, TurnResolved, game_codec
from server.game.decide import decide

ADMIN = "acct-admin"
# Every game's secret: the benchmarks replay the same draws run after run.
SECRET = bytes(32)
# Orders go in this long after a turn began, clear of the lock windows of fast mode.
ORDERS_AFTER = timedelta(minutes=5)
# Events per append request, and append requests under way at once.
CHUNK = 500
IN_FLIGHT = 32


class BuiltGame:
    """One game as the decider plays it: its events as the store will keep them, and its
    state. With `snapshots`, the state after each resolution, encoded as GameService saves
    it, by version."""

    def __init__(self, game_id: str, *, snapshots: bool = False) -> None:
        self.game_id = game_id
        self.state = GameState()
        self.events: list[NewEvent] = []
        self.snapshots: dict[int, bytes] | None = {} if snapshots else None

    def run(self, command: GameCommand, decided: list[GameEvent] | None = None) -> None:
        """Decide the command (or take events already decided for it) and fold them in."""
        events = decide(self.state, command) if decided is None else decided
        self.state = fold(self.state, enumerate(events, start=self.state.version + 1))
        correlation = uuid.uuid4()
        self.events.extend(
            game_codec.new_event(
                event,
                occurred_at=command.now,
                actor=command.actor.account,
                correlation_id=correlation,
            )
            for event in events
        )
        if self.snapshots is not None and any(isinstance(e, TurnResolved) for e in events):
            self.snapshots[self.state.version] = encode_snapshot(self.state)

    def set_up(
        self,
        settings: Settings,
        *,
        players: int,
        seed: int,
        at: datetime,
        starts: dict[tuple[int, int], GameStarted] | None = None,
    ) -> None:
        """Create, join and start. `starts` caches the start of each (seed, players): the
        decider is pure, so a game with the same seed and players starts the same way, and
        the map is generated once instead of once per game."""
        self.run(
            CreateGame(
                actor=Actor(ADMIN), now=at, game_id=self.game_id, settings=settings, seed=seed
            )
        )
        for i in range(1, players + 1):
            self.run(JoinGame(actor=Actor(f"acct-{i}"), now=at, name=f"Player {i}"))
        start = StartGame(actor=Actor(ADMIN), now=at, secret=SECRET)
        cached = None if starts is None else starts.get((seed, players))
        if cached is not None:
            self.run(start, [msgspec.structs.replace(cached, at=at)])
            return
        decided = decide(self.state, start)
        self.run(start, decided)
        if starts is not None:
            [started] = decided
            assert isinstance(started, GameStarted)
            starts[(seed, players)] = started

    def order_every_army(self, at: datetime, rng: random.Random) -> None:
        for player_id, text in static_orders(self.state, rng).items():
            account = self.state.players[player_id].accounts[0]
            self.run(SubmitOrders(nonce=bytes(32), actor=Actor(account), now=at, text=text))

    def remind(self, at: datetime) -> None:
        self.run(
            RemindPlayers(actor=Actor("scheduler", operator=True), now=at, turn=self.state.turn)
        )

    def resolve(self, at: datetime) -> None:
        self.run(ResolveTurn(actor=Actor("scheduler", operator=True), now=at, turn=self.state.turn))

    def play_turns(self, turns: int, rng: random.Random) -> None:
        """Whole fast-mode turns: every army ordered, then the resolution on time."""
        for _ in range(turns):
            began = self.state.wait_began_at
            due = self.state.next_resolution_at()
            assert began is not None, "the game has not started"
            assert due is not None, "the game is not running"
            self.order_every_army(began + ORDERS_AFTER, rng)
            self.resolve(due)


def static_orders(state: GameState, rng: random.Random) -> dict[str, str]:
    """An order for every army, by player, that leaves who controls what unchanged, so that
    a game runs as long as wanted with nobody scoring: about half the armies step into an
    empty territory of their own player, and about half of the others attack an enemy army
    that holds (one against one: it bounces); the rest hold. No army that moves is attacked,
    and no attacker is attacked, so no move can succeed by a chain or a circle."""
    assert state.skirmish.map is not None
    neighbours = state.skirmish.map.board.neighbours
    armies, control = state.skirmish.board.armies, state.skirmish.board.control
    orders: dict[str, str] = {}
    stepped_into: set[str] = set()
    for territory in sorted(armies):
        owner = armies[territory]
        free = sorted(
            n
            for n in neighbours[territory]
            if control.get(n) == owner and n not in armies and n not in stepped_into
        )
        if free and rng.random() < 0.5:
            target = rng.choice(free)
            stepped_into.add(target)
            orders[territory] = f"{territory} to {target}"
    attacked: set[str] = set()
    attackers: set[str] = set()
    for territory in sorted(armies):
        if territory in orders or territory in attacked:
            continue
        enemies = sorted(
            n
            for n in neighbours[territory]
            if n in armies
            and armies[n] != armies[territory]
            and n not in orders
            and n not in attackers
        )
        if enemies and rng.random() < 0.5:
            target = rng.choice(enemies)
            attacked.add(target)
            attackers.add(territory)
            orders[territory] = f"{territory} to {target}"
    by_player: dict[str, list[str]] = {}
    for territory in sorted(armies):
        text = orders.get(territory, f"{territory} H")
        by_player.setdefault(armies[territory], []).append(text)
    return {player: ", ".join(texts) for player, texts in by_player.items()}


async def append_games(store: EventStore, games: Iterable[BuiltGame]) -> int:
    """Append every game's events, in chunks, many games at once (the store combines
    concurrent appends to different streams into one transaction); the events written."""
    gate = asyncio.Semaphore(IN_FLIGHT)

    async def append(game: BuiltGame) -> int:
        stream = stream_of(game.game_id)
        for start in range(0, len(game.events), CHUNK):
            async with gate:
                await store.append(
                    stream, game.events[start : start + CHUNK], expected_version=start
                )
        return len(game.events)

    return sum(await asyncio.gather(*(append(game) for game in games)))


async def save_snapshots(store: EventStore, game: BuiltGame) -> int:
    """Save the game's snapshots as GameService would have, at the place of each
    resolution's last event; how many."""
    assert game.snapshots is not None
    stream = stream_of(game.game_id)
    positions = {e.version: e.position for e in await store.read_stream(stream)}
    for version, data in game.snapshots.items():
        await store.save_snapshot(
            Snapshot(
                stream_id=stream,
                name=SNAPSHOT_NAME,
                version=version,
                position=positions[version],
                data=data,
            )
        )
    return len(game.snapshots)


def count_events(games: Sequence[BuiltGame]) -> int:
    return sum(len(game.events) for game in games)
