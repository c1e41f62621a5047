"""Skor's actions through HTTP for `python -m benchmarks api`: POST /v1/games/{id}/moves from
a client per seat, in two-player games played at once.

At the start of its turn a client reads the game (GET, not timed), as a player looks at the
board, and plans a few likely actions on its own copy of the state with the chooser of
benchmarks/_skor.py (its dice are not the server's, so now and then the server refuses one:
the row counts them); then it sends them one by one, each timed from its request to its
answer, and ends its turn. Nobody plays a Dictatorship, whose `end` may roll a purge. The
other seat's client waits for that `end`: a game has one action in flight at a time, and the
games as many."""

import asyncio
import time
from collections import Counter
from typing import Any

import msgspec

from benchmarks._api_load import load_row
from benchmarks._api_server import Http, call
from benchmarks._skor import PER_TURN, TRIES, likely
from rules.kit.prng import SeededRandom
from rules.skor.actions import End, Remove
from rules.skor.dice import Dice
from rules.skor.engine import act
from rules.skor.state import State

SEATS = ("p1", "p2")
CULTURES = ("feudal", "theocracy", "nomadic", "alien")


async def skor_submissions(port: int, *, games: int, seconds: float) -> list[object]:
    """The row of the submissions table: `games` games, a client per seat, for `seconds`."""
    rng = SeededRandom(games)
    setup = await Http.open(port)
    tables = await skor_games(setup, games, rng)
    setup.close()
    cpu = time.process_time()
    latencies, refused, elapsed = await skor_actions(port, tables, seconds, rng)
    cpu = time.process_time() - cpu
    return load_row(
        f"Skor: {games} games of 2 players", 2 * games, latencies, refused, elapsed, cpu
    )


class Table:
    """One game and the turn as its two clients see it."""

    def __init__(self, game_id: str, tokens: dict[str, str], first: str) -> None:
        self.game_id = game_id
        self.tokens = tokens
        self.turn = {seat: asyncio.Event() for seat in SEATS}
        self.turn[first].set()


async def skor_games(http: Http, games: int, rng: SeededRandom) -> list[Table]:
    """`games` Skor games started, both setup choices made."""
    tables = []
    for n in range(games):
        tokens = [
            (await call(http, "POST", "/v1/accounts", {"name": f"S{n}x{i}"}))["token"]
            for i in range(2)
        ]
        body = {"name": "Bench", "game": "skor", "options": {"round_limit": 10_000}}
        game_id = (await call(http, "POST", "/v1/games", body, token=tokens[0]))["id"]
        for token in tokens:
            await call(http, "POST", f"/v1/games/{game_id}/join", token=token)
        await call(http, "POST", f"/v1/games/{game_id}/start", token=tokens[0])
        for token in tokens:
            choice = {"culture": rng.choice(CULTURES), "side": rng.between(1, 6)}
            await call(http, "POST", f"/v1/games/{game_id}/moves", {"move": choice}, token=token)
        view = await call(http, "GET", f"/v1/games/{game_id}")
        tables.append(Table(game_id, dict(zip(SEATS, tokens, strict=True)), view["to_move"][0]))
    return tables


async def skor_actions(
    port: int, tables: list[Table], seconds: float, rng: SeededRandom
) -> tuple[list[float], Counter[int], float]:
    """Every action's latency, the statuses of those refused, and the seconds it took."""
    latencies: list[float] = []
    refused: Counter[int] = Counter()
    connections = {
        (table.game_id, seat): await Http.open(port) for table in tables for seat in SEATS
    }
    started = time.perf_counter()
    deadline = started + seconds

    async def send(http: Http, table: Table, seat: str, move: Any) -> int:
        path = f"/v1/games/{table.game_id}/moves"
        begun = time.perf_counter()
        status, _ = await http.call("POST", path, {"move": move}, token=table.tokens[seat])
        latencies.append(time.perf_counter() - begun)
        if status != 200:
            refused[status] += 1
        return status

    async def player(table: Table, seat: str, own: SeededRandom) -> None:
        http = connections[(table.game_id, seat)]
        other = SEATS[1 - SEATS.index(seat)]
        while True:
            await table.turn[seat].wait()
            table.turn[seat].clear()
            if time.perf_counter() >= deadline:
                table.turn[other].set()
                return
            view = await call(http, "GET", f"/v1/games/{table.game_id}")
            state = msgspec.convert(view["play"]["game"], State)
            for action in _plan(own, state, seat):
                await send(http, table, seat, msgspec.to_builtins(action))
            status = await send(http, table, seat, "end")
            assert status == 200, f"`end` refused: {status}"
            table.turn[other].set()

    players = [player(table, seat, rng.fork()) for table in tables for seat in SEATS]
    await asyncio.gather(*players)
    elapsed = time.perf_counter() - started
    for http in connections.values():
        http.close()
    return latencies, refused, elapsed


def _plan(rng: SeededRandom, state: State, seat: str) -> list[Any]:
    """The likely actions a player tries this turn, each accepted on its own copy."""
    dice = Dice(secret=rng.next_u64().to_bytes(8, "big"))
    if state.turn.fed is False:
        # Starving: a piece goes, as benchmarks/_skor.py's players give one up.
        mine = [piece for piece in state.pieces if piece.player == seat]
        return [Remove(piece.at, piece.kind) for piece in mine[:1]]
    planned: list[Any] = []
    for _ in range(TRIES * PER_TURN):
        if len(planned) == PER_TURN:
            break
        action = likely(rng, state, seat)
        if isinstance(action, End):
            break
        result = act(state, seat, action, dice)
        if result.refused is None:
            planned.append(action)
            state = result.state
    return planned
