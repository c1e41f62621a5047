"""`skirmish bot` and `skirmish demo`: bots against a server, from the command line.

The demo runs `skirmish serve --fake-clock` in a subprocess and moves its clock itself, a
turn every few seconds, so that a fast-mode game of bots can be watched as it plays out;
the server stays up once the game is won, for its page, until Ctrl-C (or SIGTERM).
"""

import asyncio
import contextlib
import os
import secrets
import signal
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

import projections.skirmish  # noqa: F401  (registers Skirmish Society, the demo's default)
from bots.games import SKIRMISH_TURN_SECONDS
from bots.games import STRATEGIES as STRATEGY_NAMES
from bots.moving import MoveBot
from bots.play import OVER, Bot, outcome, seat
from bots.strategies import STRATEGIES
from client import ApiError, SkirmishClient
from rules.house import Demoed
from rules.registry import DEFAULT_GAME, newest
from schema.api import NewGame

# After a resolution, fast-mode orders stay locked for a minute: the demo steps past it.
PAST_THE_LOCK = 61.0


def default_demo_dir() -> Path:
    """The demo's own embedded PostgreSQL: its clock runs ahead of the real one, which
    would stall the games of a real server's database."""
    return platformdirs.user_data_path("skirmish-server") / "demo"


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


async def play_bot(
    api: str, game: str, strategy: str, seed: int, token: str | None, name: str | None
) -> int:
    """One bot in one game until it ends (or the bot is out): the exit status."""
    async with SkirmishClient(api) as anyone:
        try:
            if token is None:
                created = await anyone.create_account(name or f"{strategy} bot {seed}")
                token = created.token
                print(f"token: {token}", flush=True)
            client = anyone.using(token)
            player = await seat(client, game)
            _say(f"playing game {game} as {player} ({strategy}, seed {seed})")
            kind = (await client.get_game(game)).game
            if kind == DEFAULT_GAME:
                final = await Bot(client, game, player, strategy, seed, say=_say).play()
            else:
                final = await MoveBot(client, game, player, strategy, seed, say=_say).play()
        except ApiError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    _say(f"game {game}: {outcome(final)}" if final.phase in OVER else f"{player} is out")
    return 0


@dataclass(frozen=True)
class Demo:
    """What `skirmish demo` plays: the game, its players, and its own options."""

    game: str = DEFAULT_GAME
    players: int = 4
    turn_seconds: float = SKIRMISH_TURN_SECONDS
    seed: int = 0
    vp_target: int = 10  # Skirmish Society's
    # Another game's own demo flags by name (its definition's `Demoed`); one left out is its
    # default.
    flags: Mapping[str, Any] = field(default_factory=dict)

    def options(self) -> dict[str, Any]:
        rules = newest(self.game)
        if not isinstance(rules, Demoed):
            return {}
        given = {flag.name: self.flags.get(flag.name, flag.default) for flag in rules.demo_flags}
        return rules.demo_options(given, self.seed)


def seat_range(demo: Demo) -> tuple[int, int]:
    """How few and how many bots the demo's game seats with its options, as the game says;
    its OptionsRefused (a ValueError) for options it does not take."""
    rules = newest(demo.game)
    return rules.seat_range(rules.check_options(demo.options()))


async def run_demo(demo: Demo, port: int, data_dir: Path) -> int:
    """A server with a game of `demo.players` bots (random and greedy by turns): Skirmish
    Society's a turn every `turn_seconds` until the game is won, another game's bots each
    waiting `turn_seconds` before each step; then the server serves on, for the game,
    until Ctrl-C (or until it stops: an error). SIGTERM stops it as Ctrl-C does, its
    server with it: 143 (128 + SIGTERM), as a shell reports a process it ended."""
    loop, running = asyncio.get_running_loop(), asyncio.current_task()
    assert running is not None
    terminated: list[int] = []

    def terminate() -> None:
        terminated.append(signal.SIGTERM)
        running.cancel()

    # asyncio.run cancels its task on SIGINT; SIGTERM's default would end the process at
    # once, without the way out that stops the server.
    loop.add_signal_handler(signal.SIGTERM, terminate)
    try:
        return await _demo(demo, port, data_dir)
    except asyncio.CancelledError:
        if not terminated:
            raise
        return 128 + signal.SIGTERM
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


async def _demo(demo: Demo, port: int, data_dir: Path) -> int:
    operator_token = secrets.token_urlsafe(24)
    async with (
        _server(port, data_dir, operator_token) as server,
        SkirmishClient(server.base) as anyone,
    ):
        base = server.base
        accounts = [
            anyone.using((await anyone.create_account(f"Bot {n + 1}")).token)
            for n in range(demo.players)
        ]
        if demo.game == DEFAULT_GAME:
            game = await _play_turns(demo, base, anyone.using(operator_token), accounts)
        else:
            game = await _play_moves(demo, base, accounts)
        final = await anyone.get_game(game)
        print(f"game over after turn {final.turn - 1}: {outcome(final)}", flush=True)
        _say(f"the game's page stays at {base}/games/{game}; Ctrl-C stops the server")
        await server.process.wait()
    raise RuntimeError("the demo's server stopped; its log says why")


def _watch(base: str, game: str) -> None:
    """Where to watch: the game's page, which every game has (/games/{game})."""
    print(f"watch: {base}/games/{game}", flush=True)


async def _play_turns(
    demo: Demo, base: str, operator: SkirmishClient, accounts: list[SkirmishClient]
) -> str:
    """A Skirmish Society game, played by bots to its winner, its clock moved a turn every
    `turn_seconds`; the game's id."""
    turn_seconds, seed = demo.turn_seconds, demo.seed
    setup = NewGame("Bot demo", fast_mode=True, vp_target=demo.vp_target, seed=seed)
    game = await accounts[0].create_game(setup)
    names = list(STRATEGIES)
    bots = [
        Bot(client, game.id, await seat(client, game.id), names[n % len(names)], seed + n,
            poll=1.0, say=_say)
        for n, client in enumerate(accounts)
    ]  # fmt: skip
    await accounts[0].start(game.id)
    _watch(base, game.id)
    playing = [asyncio.create_task(bot.play()) for bot in bots]
    try:
        await _step_turns(operator, game.id, turn_seconds)
    finally:
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
    return game.id


async def _step_turns(operator: SkirmishClient, game: str, turn_seconds: float) -> None:
    """Every `turn_seconds`, the clock to the turn's resolution, then past the lock after."""
    while True:
        await asyncio.sleep(turn_seconds)
        seen = await operator.get_game(game)
        if seen.phase in ("finished", "killed"):
            return
        if seen.next_resolution_at is None or seen.now is None:
            continue
        due = max(0.0, (seen.next_resolution_at - seen.now).total_seconds())
        await operator.move_clock(advance_seconds=due)
        while True:  # the server's scheduler resolves the turn on its own
            now = await operator.get_game(game)
            if now.turn != seen.turn or now.phase != "running":
                break
            await asyncio.sleep(0.2)
        await operator.move_clock(advance_seconds=PAST_THE_LOCK)


async def _play_moves(demo: Demo, base: str, accounts: list[SkirmishClient]) -> str:
    """A game run by its definition, played by bots to its end (no clock to move: each
    step comes when its bots have moved); the game's id."""
    setup = NewGame(f"Bot demo: {demo.game}", game=demo.game, options=demo.options())
    game = await accounts[0].create_game(setup)
    bots = [
        MoveBot(client, game.id, await seat(client, game.id), STRATEGY_NAMES[n % 2],
                demo.seed + n, poll=1.0, pace=demo.turn_seconds, say=_say)
        for n, client in enumerate(accounts)
    ]  # fmt: skip
    await accounts[0].start(game.id)
    _watch(base, game.id)
    await asyncio.gather(*(bot.play() for bot in bots))
    return game.id


@dataclass(frozen=True)
class _Served:
    base: str
    process: asyncio.subprocess.Process


@contextlib.asynccontextmanager
async def _server(port: int, data_dir: Path, operator_token: str) -> AsyncIterator[_Served]:
    """`skirmish serve --fake-clock` in a subprocess (its log in a file beside its data
    directory), once it answers; stopped on the way out."""
    environment = {**os.environ, "SKIRMISH_OPERATOR_TOKEN": operator_token}
    log_path = data_dir.with_name(f"{data_dir.name}-server.log")
    log_path.parent.mkdir(parents=True, exist_ok=True)
    _say(f"the server's log: {log_path}")
    with log_path.open("ab") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.ops.cli", "serve", "--fake-clock",
            "--port", str(port), "--data-dir", str(data_dir),
            env=environment, stdout=log, stderr=log,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        await _until_up(base, lambda: process.returncode is None)
        yield _Served(base, process)
    finally:
        if process.returncode is None:
            process.terminate()
        await process.wait()


async def _until_up(base: str, alive: Callable[[], bool]) -> None:
    async with SkirmishClient(base) as anyone:
        # The embedded PostgreSQL's first start (initdb) takes a while.
        async with asyncio.timeout(120):
            while alive():
                with contextlib.suppress(ApiError):  # unreachable, or 503 while starting
                    await anyone.health()
                    return
                await asyncio.sleep(0.2)
    raise RuntimeError("the server stopped before it answered")
