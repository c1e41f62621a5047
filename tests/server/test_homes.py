"""Each game's home worker (server/game/homes.py): two workers' GameServices on one PostgreSQL
store, in one event loop, talking over real Unix sockets; and a scheduler in one of them."""

import asyncio
import contextlib
import os
import socket
import struct
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import asyncpg
import msgspec
import pytest

from eventstore.base import EventStore
from projections.loading import stream_of
from projections.runner import ReadModelRunner
from projections.schedule import Due
from projections.skirmish.orders import MAX_SUBMISSIONS
from schema import errors as codes
from schema.commands import Actor, GameCommand, SubmitOrders
from schema.errors import Refusal
from server.clock import FakeClock
from server.game import homes
from server.game.handlers import Busy, GameService
from server.game.homes import Homes, Places
from server.game.outcome import Outcome
from server.ops.scheduler import Scheduler, Tick
from tests.api.support import until
from tests.server.scripted import NONCE, ScriptedGame


@dataclass
class Worker:
    games: GameService
    homes: Homes
    outcomes: list[str]


@contextlib.asynccontextmanager
async def worker(
    store: EventStore, directory: Path, place: int, *, start: bool = True
) -> AsyncIterator[Worker]:
    """A worker's GameService in place `place` of two, serving its homes if `start`."""
    games = GameService(store)
    outcomes: list[str] = []
    games.homes = Homes(Places(str(directory), place, 2), games.act_here, outcomes.append)
    if start:
        await games.homes.start()
    try:
        yield Worker(games, games.homes, outcomes)
    finally:
        await games.homes.close()


@contextlib.asynccontextmanager
async def two_workers(
    store: EventStore, directory: Path
) -> AsyncIterator[tuple[Worker, Worker, ScriptedGame]]:
    """Workers in places 0 and 1, and a started game whose home is place 1."""
    async with worker(store, directory, 0) as took, worker(store, directory, 1) as home:
        yield took, home, await set_up(home, game_at_home(1))


def game_at_home(place: int) -> str:
    """A game id whose home is `place` of two."""
    return next(g for g in (f"g{n}" for n in range(100)) if Places("", 0, 2).home_of(g) == place)


async def set_up(worker: Worker, game_id: str) -> ScriptedGame:
    game = ScriptedGame(worker.games, game_id)
    await game.set_up()
    return game


def orders(game: ScriptedGame, **fields: object) -> SubmitOrders:
    command = SubmitOrders(nonce=NONCE, actor=Actor("acct-2"), now=game.now, text="A2 H")
    return msgspec.structs.replace(command, **fields)


def test_every_process_finds_the_same_home_and_the_games_spread_over_the_workers() -> None:
    ids = [f"game-{n}" for n in range(400)]
    here = [Places("", 0, 3).home_of(g) for g in ids]
    # Another interpreter, its str hashes salted otherwise.
    script = (
        "import sys; from server.game.homes import Places; "
        "print(' '.join(str(Places('', 0, 3).home_of(g)) for g in sys.argv[1:]))"
    )
    there = subprocess.run(
        [sys.executable, "-c", script, *ids],
        env={**os.environ, "PYTHONHASHSEED": "12345"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert here == [int(p) for p in there]
    assert all(len(ids) / 3 * 0.8 < here.count(p) < len(ids) / 3 * 1.2 for p in range(3))


async def test_a_command_taken_by_another_worker_runs_in_the_games_home(
    postgres_store: EventStore, tmp_path: Path
) -> None:
    async with two_workers(postgres_store, tmp_path) as (took, home, game):
        acted = await took.games.act(game.game_id, orders(game))
        assert [type(e).__name__ for e in acted.events] == ["OrdersSubmitted"]
        # The home decided and appended it, and keeps the state it left; the worker that
        # took it never loaded the game.
        kept = home.games.states.latest(game.game_id)
        assert kept is not None
        assert kept.position == acted.position
        assert took.games.states.latest(game.game_id) is None
        assert took.outcomes == ["appended"]
        # A game whose home is the worker that took the command runs there.
        ours = await set_up(took, game_at_home(0))
        await took.games.act(ours.game_id, orders(ours))
        assert took.outcomes == ["appended"]
        assert home.games.states.latest(ours.game_id) is None


async def test_a_refusal_comes_back_as_the_home_made_it(
    postgres_store: EventStore, tmp_path: Path
) -> None:
    async with two_workers(postgres_store, tmp_path) as (took, home, game):
        due = (await home.games.load(game.game_id)).state.next_resolution_at()
        assert due is not None
        for _ in range(MAX_SUBMISSIONS):
            await home.games.act_here(game.game_id, orders(game, actor=Actor("acct-3")))
        for command in (
            orders(game, turn=99),
            orders(game, actor=Actor("nobody")),
            # Details beside the code: when the orders open again.
            orders(game, now=due - timedelta(seconds=1)),
            # A Retry-After.
            orders(game, actor=Actor("acct-3")),
        ):
            with pytest.raises(Refusal) as there:
                await took.games.act(game.game_id, command)
            with pytest.raises(Refusal) as here:
                await home.games.act_here(game.game_id, command)
            relayed, made = there.value, here.value
            assert (relayed.entry, relayed.message, relayed.retry_after, relayed.details()) == (
                made.entry,
                made.message,
                made.retry_after,
                made.details(),
            )
        assert took.outcomes == ["refused"] * 4


async def test_a_home_that_cannot_be_reached_leaves_the_command_where_it_came(
    postgres_store: EventStore, tmp_path: Path
) -> None:
    async with (
        worker(postgres_store, tmp_path, 0) as took,
        worker(postgres_store, tmp_path, 1, start=False) as home,
    ):
        game = await set_up(home, game_at_home(1))
        acted = await took.games.act(game.game_id, orders(game))
        kept = took.games.states.latest(game.game_id)
        assert kept is not None
        assert kept.position == acted.position
        assert took.outcomes == ["unreachable"]
        # Once the home serves, the next command goes there.
        await home.homes.start()
        await took.games.act(game.game_id, orders(game))
        assert took.outcomes == ["unreachable", "appended"]


def uncounted(outcome: str) -> None:
    pass


class Stuck:
    """A home whose commands never finish: `started` is set once one arrives."""

    def __init__(self) -> None:
        self.started = asyncio.Event()

    async def __call__(self, game_id: str, command: GameCommand) -> Outcome[Due]:
        self.started.set()
        await asyncio.Event().wait()
        raise AssertionError("never")


async def test_a_home_that_goes_away_with_a_command_under_way_answers_busy(
    postgres_store: EventStore, tmp_path: Path
) -> None:
    stuck = Stuck()
    home = Homes(Places(str(tmp_path), 1, 2), stuck, uncounted)
    await home.start()
    async with worker(postgres_store, tmp_path, 0) as took:
        game_id = game_at_home(1)
        command = orders(ScriptedGame(took.games, game_id))
        sent = asyncio.create_task(took.games.act(game_id, command))
        await stuck.started.wait()
        await home.close()
        with pytest.raises(Refusal) as refused:
            await sent
        assert refused.value.entry == codes.BUSY
        assert took.outcomes == ["failed"]


async def test_a_home_that_does_not_answer_in_time_answers_busy(
    postgres_store: EventStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(homes, "ANSWER_SECONDS", 0.2)
    home = Homes(Places(str(tmp_path), 1, 2), Stuck(), uncounted)
    await home.start()
    try:
        async with worker(postgres_store, tmp_path, 0) as took:
            game_id = game_at_home(1)
            with pytest.raises(Refusal) as refused:
                await took.games.act(game_id, orders(ScriptedGame(took.games, game_id)))
            assert refused.value.entry == codes.BUSY
    finally:
        await home.close()


@pytest.mark.parametrize(
    "frame",
    [
        struct.pack(">I", 5) + b"junk!",
        struct.pack(">I", homes.MAX_FRAME + 1),
        struct.pack(">I", 100) + b"cut short",
    ],
    ids=["not a command", "too long", "cut short"],
)
async def test_a_bad_frame_closes_its_connection_and_nothing_else(
    postgres_store: EventStore, tmp_path: Path, frame: bytes
) -> None:
    async with two_workers(postgres_store, tmp_path) as (took, home, game):
        reader, writer = await asyncio.open_unix_connection(home.homes.places.path(1))
        writer.write(frame)
        writer.write_eof()
        async with asyncio.timeout(5):
            assert await reader.read() == b""
        writer.close()
        await took.games.act(game.game_id, orders(game))
        assert took.outcomes == ["appended"]


async def test_a_command_runs_to_its_end_when_its_senders_connection_goes(
    postgres_store: EventStore, tmp_path: Path
) -> None:
    async with worker(postgres_store, tmp_path, 1, start=False) as home:
        game = await set_up(home, game_at_home(1))
        before = (await home.games.load(game.game_id)).position
        arrived, go_on = asyncio.Event(), asyncio.Event()

        async def slow(game_id: str, command: GameCommand) -> Outcome[Due]:
            arrived.set()
            await go_on.wait()
            return await home.games.act_here(game_id, command)

        serving = Homes(Places(str(tmp_path), 1, 2), slow, uncounted)
        await serving.start()
        try:
            async with worker(postgres_store, tmp_path, 0) as took:
                sent = asyncio.create_task(took.games.act(game.game_id, orders(game)))
                await arrived.wait()
            with pytest.raises(Refusal):
                await sent
            go_on.set()

            async def appended() -> bool:
                return (await home.games.load(game.game_id)).position > before

            await until(appended, what="the command appended by its home")
        finally:
            await serving.close()
        events = await postgres_store.read_stream(stream_of(game.game_id))
        assert events[-1].type == "orders_submitted.v1"


async def read_game(pool: asyncpg.Pool, game_id: str) -> asyncpg.Record:
    """What the scheduler claims a game by."""
    row = await pool.fetchrow(
        "SELECT turn, next_resolution_at, claimed_until FROM read_games WHERE game_id = $1",
        game_id,
    )
    assert row is not None
    return row


async def run_scheduler_when_due(
    store: EventStore, pool: asyncpg.Pool, worker: Worker, game_id: str
) -> tuple[asyncpg.Record, Tick]:
    """A scheduler in `worker` run at the moment the game falls due, once the read models
    know it: the game's row as it was claimed, and what the scheduler did."""
    await ReadModelRunner(store, pool).catch_up()
    due = await read_game(pool, game_id)
    clock = FakeClock(due["next_resolution_at"])
    return due, await Scheduler(worker.games, pool, clock).run_due()


async def test_a_due_game_claimed_by_another_worker_resolves_in_its_home(
    postgres_store: EventStore, pool: asyncpg.Pool, tmp_path: Path
) -> None:
    async with two_workers(postgres_store, tmp_path) as (took, home, game):
        due, tick = await run_scheduler_when_due(postgres_store, pool, took, game.game_id)
        assert (tick.resolved, tick.failed) == (1, 0)
        assert took.outcomes == ["appended"]
        # Resolved from the state the home kept; the worker that claimed it never loaded it.
        kept = home.games.states.latest(game.game_id)
        assert kept is not None
        assert kept.state.turn == due["turn"] + 1
        assert took.games.states.latest(game.game_id) is None
        # What the home answered put the game's next turn in the read model at once.
        after = await read_game(pool, game.game_id)
        assert after["turn"] == kept.state.turn
        assert after["next_resolution_at"] == kept.state.next_resolution_at()
        assert after["claimed_until"] is None


async def test_a_due_game_whose_home_answers_busy_stays_due(
    postgres_store: EventStore, pool: asyncpg.Pool, tmp_path: Path
) -> None:
    async def busy(game_id: str, command: GameCommand) -> Outcome[Due]:
        raise Busy("too busy")

    home = Homes(Places(str(tmp_path), 1, 2), busy, uncounted)
    await home.start()
    try:
        async with worker(postgres_store, tmp_path, 0) as took:
            game = await set_up(took, game_at_home(1))
            due, tick = await run_scheduler_when_due(postgres_store, pool, took, game.game_id)
            assert (tick.resolved, tick.failed) == (0, 1)
            assert took.outcomes == ["refused"]
            # Let go of, as it was: due for the next claim.
            assert await read_game(pool, game.game_id) == due
    finally:
        await home.close()


@pytest.mark.parametrize("long", [False, True], ids=["short", "too long for a socket"])
def test_the_sockets_directory_is_private_and_has_room_for_every_socket(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, long: bool
) -> None:
    with tempfile.TemporaryDirectory(dir="/tmp") as short:
        temporary = Path(short)
        if long:
            temporary = tmp_path_factory.mktemp("t").joinpath(*["a-long-directory-name"] * 4)
            temporary.mkdir(parents=True)
        monkeypatch.setattr(tempfile, "tempdir", str(temporary))
        with homes.sockets_directory() as directory:
            assert Path(directory).parent == (Path("/tmp") if long else temporary)
            assert Path(directory).stat().st_mode & 0o777 == 0o700
            with socket.socket(socket.AF_UNIX) as listening:
                listening.bind(Places(directory, 9999, 10000).path(9999))
