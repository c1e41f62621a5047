"""`skirmish bot` and `skirmish demo` as a user runs them, in subprocesses against real
servers: the bot makes its account, joins and plays its turn; the demo plays a game of
bots to its winner on a server of its own."""

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from bots.moving import MoveBot
from bots.play import seat
from client import SkirmishClient
from schema.api import NewGame
from tests.api.support import serving, until
from tests.server.running import SKIRMISH
from tests.support import free_port


async def _line(stream: asyncio.StreamReader | None) -> str:
    assert stream is not None
    async with asyncio.timeout(120):
        return (await stream.readline()).decode().strip()


@contextlib.asynccontextmanager
async def _demo(
    schema_url: str, tmp_path: Path, *args: str
) -> AsyncIterator[tuple[asyncio.subprocess.Process, str]]:
    """`skirmish demo` with `args` on a free port, its files under tmp_path: the process and
    its server's address. Killed at the end if it still runs."""
    port = free_port()
    demo = await asyncio.create_subprocess_exec(
        str(SKIRMISH), "demo", "--port", str(port), "--data-dir", str(tmp_path / "demo"), *args,
        env={**os.environ, "DATABASE_URL": schema_url},
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        yield demo, f"http://127.0.0.1:{port}"
    finally:
        if demo.returncode is None:
            demo.kill()
            await demo.wait()


async def _interrupted(demo: asyncio.subprocess.Process) -> None:
    """Ctrl-C: the demo stops, with the status of an interrupted command."""
    demo.send_signal(signal.SIGINT)
    async with asyncio.timeout(60):
        assert await demo.wait() == 130


async def test_skirmish_bot_makes_an_account_joins_and_plays(schema_url: str) -> None:
    async with serving(schema_url) as server, SkirmishClient(server.base) as anyone:
        people = [anyone.using((await anyone.create_account(n)).token) for n in ("Ann", "Bo")]
        game = await people[0].create_game(NewGame("With a bot", fast_mode=True))
        for person in people:
            await person.join(game.id)
        bot = await asyncio.create_subprocess_exec(
            str(SKIRMISH), "bot", "--api", server.base, "--game", game.id,
            "--strategy", "random", "--seed", "3", "--name", "Robo",
            stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            token = (await _line(bot.stdout)).removeprefix("token: ")
            robo = anyone.using(token)

            async def seated() -> bool:
                return len((await anyone.get_game(game.id)).players) == 3

            await until(seated, seconds=60, what="the bot to join")
            await people[0].start(game.id)

            async def played() -> bool:
                return bool((await robo.my_orders(game.id)).submitted)

            await until(played, seconds=60, what="the bot's orders")
            sent = (await robo.my_orders(game.id)).submitted
            assert len(sent) == 1
            assert [o.text for o in sent[0] if not o.valid] == []
            assert len(sent[0]) == 2  # an order for each army of its home
        finally:
            bot.send_signal(signal.SIGINT)
            async with asyncio.timeout(30):
                status = await bot.wait()
        assert status == 130


async def test_skirmish_bot_plays_skor_to_its_end_against_a_bot_of_the_test(
    schema_url: str,
) -> None:
    async with serving(schema_url) as server, SkirmishClient(server.base) as anyone:
        ann = anyone.using((await anyone.create_account("Ann")).token)
        setup = NewGame("Skor with a bot", game="skor", options={"round_limit": 3})
        game = await ann.create_game(setup)
        mine = await seat(ann, game.id)
        bot = await asyncio.create_subprocess_exec(
            str(SKIRMISH), "bot", "--api", server.base, "--game", game.id,
            "--strategy", "greedy", "--seed", "3", "--name", "Robo",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            await _line(bot.stdout)  # its token

            async def seated() -> bool:
                return len((await anyone.get_game(game.id)).players) == 2

            await until(seated, seconds=60, what="the bot to join")
            await ann.start(game.id)
            async with asyncio.timeout(60):
                await MoveBot(ann, game.id, mine, "random", seed=1, poll=0.5).play()
                _, log = await bot.communicate()
            assert bot.returncode == 0
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
        final = await anyone.get_game(game.id)
        assert final.phase == "finished"
        assert final.ending is not None
        # It played its setup choice and its actions, and saw the end.
        assert b": turn 1: {'culture': 'technocracy'" in log
        assert f"game {game.id}: ".encode() in log


async def test_skirmish_demo_plays_a_game_of_bots_to_its_winner_and_serves_on(
    schema_url: str, tmp_path: Path
) -> None:
    async with _demo(
        schema_url, tmp_path, "--players", "3", "--turn-seconds", "0.3", "--vp", "2", "--seed", "5"
    ) as (demo, base):
        watch = await _line(demo.stdout)
        assert watch == f"watch: {base}/games/{watch.rsplit('/', 1)[1]}"
        game = watch.rsplit("/", 1)[1]
        async with SkirmishClient(base) as anyone:
            playing = await anyone.get_game(game)
            assert playing.phase == "running"
            # The demo moves its server's fake clock by hand: the page shows no countdown.
            assert playing.clock == "fake"
            over = await _line(demo.stdout)
            final = await anyone.get_game(game)
            assert final.phase == "finished"
            winner = next(p.name for p in final.players if p.id == final.winner)
            # The winner by name, as the page shows it.
            assert over == f"game over after turn {final.turn - 1}: {winner} wins"
            assert winner in ("Bot 1", "Bot 2", "Bot 3")
            # The server and its page stay for the watcher, until Ctrl-C.
            await asyncio.sleep(2)
            assert demo.returncode is None
            async with httpx.AsyncClient(base_url=base) as page:
                assert (await page.get(f"/games/{game}")).status_code == 200
            assert (await anyone.get_game(game)).winner == final.winner
        await _interrupted(demo)
        with pytest.raises(httpx.ConnectError):
            async with httpx.AsyncClient(base_url=base) as page:
                await page.get("/v1/health")
    assert "Uvicorn running" in (tmp_path / "demo-server.log").read_text()


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("art-of-war", ["--players", "2", "--map", "aow-mini"]),
        ("skor", ["--round-limit", "3"]),
    ],
)
async def test_skirmish_demo_plays_a_game_of_moves_to_its_end_and_serves_on(
    schema_url: str, tmp_path: Path, game: str, options: list[str]
) -> None:
    async with _demo(
        schema_url, tmp_path, "--game", game, "--turn-seconds", "0", "--seed", "3", *options
    ) as (demo, base):
        watch = await _line(demo.stdout)
        game_id = watch.rsplit("/", 1)[1]
        assert watch == f"watch: {base}/games/{game_id}"
        over = await _line(demo.stdout)
        async with SkirmishClient(base) as anyone:
            final = await anyone.get_game(game_id)
            assert (final.game, final.phase) == (game, "finished")
            assert final.ending is not None
            assert over.startswith(f"game over after turn {final.turn - 1}: ")
            assert final.ending.by.replace("_", " ") in over
            await asyncio.sleep(1)
            assert demo.returncode is None
            assert (await anyone.get_game(game_id)).phase == "finished"
            # The link is the game's page (the shell of a game run by its definition), which
            # stays for the watcher.
            async with httpx.AsyncClient(base_url=base) as page:
                shown = await page.get(f"/games/{game_id}")
                assert shown.status_code == 200
                assert '<script type="module" src="/static/js/play.js">' in shown.text
        await _interrupted(demo)


async def test_sigterm_stops_skirmish_demo_and_its_server_as_ctrl_c_does(
    schema_url: str, tmp_path: Path
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    demo = await asyncio.create_subprocess_exec(
        str(SKIRMISH), "demo", "--game", "skor", "--port", str(port), "--turn-seconds", "0.5",
        "--round-limit", "20", "--seed", "3", "--data-dir", str(tmp_path / "demo"),
        env={**os.environ, "DATABASE_URL": schema_url},
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        watch = await _line(demo.stdout)
        assert watch.startswith(f"watch: {base}/games/")
        # Mid-game: its bots playing, its server serving.
        async with httpx.AsyncClient(base_url=base) as page:
            assert (await page.get("/v1/health")).status_code == 200
        demo.send_signal(signal.SIGTERM)
        async with asyncio.timeout(60):
            assert await demo.wait() == 143
        # Its server (`serve --fake-clock`, a child of its own) stopped with it.
        with pytest.raises(httpx.ConnectError):
            async with httpx.AsyncClient(base_url=base) as page:
                await page.get("/v1/health")
    finally:
        if demo.returncode is None:
            demo.kill()
            await demo.wait()


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        (["--game", "skor", "--players", "3"], b"skor is played by 2 players"),
        # The game's own seats for its options: a map of 9 territories seats 9 at most.
        (["--game", "art-of-war", "--map", "aow-mini", "--players", "12"], b"2 to 9 players"),
        (["--game", "skor", "--round-limit", "0"], b"round_limit (1 to 10000)"),
    ],
)
async def test_skirmish_demo_refuses_what_the_game_does_not_take(
    tmp_path: Path, options: list[str], reason: bytes
) -> None:
    refused = await asyncio.create_subprocess_exec(
        str(SKIRMISH), "demo", *options, "--data-dir", str(tmp_path / "demo"),
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, errors = await refused.communicate()
    assert refused.returncode == 2
    assert reason in errors
