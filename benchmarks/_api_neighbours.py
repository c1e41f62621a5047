"""The API benchmark's third part (benchmarks/api.py): what idle neighbours cost other
games. Order submissions while another game resolves once a second: alone, beside a game
whose webhook is a tarpit, then beside that and thousands of idle spectators of a fourth."""

import asyncio
import contextlib
import statistics
import sys
import time
from collections.abc import AsyncIterator

from benchmarks._api_load import submissions
from benchmarks._api_server import OPERATOR, Http, call, new_game
from benchmarks._processes import cpu_seconds, rss

NEIGHBOUR_SECONDS = 25.0
# Enough players that none meets the quota of 100 submissions a turn in NEIGHBOUR_SECONDS.
NEIGHBOUR_GAMES = 40


_SPECTATING = """
import asyncio, sys
from benchmarks._api_load import spectate
from benchmarks._api_server import Http
async def main(port, game_id, count):
    spectators = await spectate(port, await Http.open(port), game_id, count)
    print("connected", flush=True)
    await asyncio.Event().wait()  # until terminated
asyncio.run(main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
"""


async def beside_idle_spectators(port: int, pids: list[int], count: int) -> list[list[object]]:
    """The same traffic alone, beside a game whose webhook is a tarpit, then beside that
    and `count` idle spectators of another game; the last row is the change from the first
    to the third (for memory, in MB)."""
    alone, refused_alone = await _traffic(port, pids)
    async with _tarpit_webhook(port):
        tarpitted, refused_tarpitted = await _traffic(port, pids)
        async with _idle_spectators(port, count):
            beside, refused_beside = await _traffic(port, pids)
    change = [f"{(b - a) / a:+.0%}" for a, b in zip(alone[:-1], beside[:-1], strict=True)]
    return [
        ["no other load", *alone[:4], refused_alone, *alone[4:]],
        ["a tarpit webhook", *tarpitted[:4], refused_tarpitted, *tarpitted[4:]],
        [f"tarpit + {count:,} idle spectators", *beside[:4], refused_beside, *beside[4:]],
        ["change (third to first)", *change[:4], "", *change[4:], f"{beside[-1] - alone[-1]:+.0f}"],
    ]


_TARPIT = """
import asyncio, sys
async def hold(reader, writer):
    answer = b"HTTP/1.1 200 OK\\r\\nX-Trickle: " + b"a" * 10_000
    try:
        for byte in answer:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(2)
    except ConnectionError:
        pass  # the server gave up on it, as it should
async def main():
    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await asyncio.Event().wait()  # until terminated
asyncio.run(main())
"""
# Resolutions of the tarpitted game before the measurements: each queues a delivery per
# player and one for the resolution, and each delivery holds a slot until its deadline.
TARPIT_RESOLUTIONS = 10


@contextlib.asynccontextmanager
async def _tarpit_webhook(port: int) -> AsyncIterator[None]:
    """A game of its own whose webhook is a tarpit in a process of its own, with deliveries
    queued for it throughout."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _TARPIT, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    try:
        tarpit = int(await process.stdout.readline())
        http = await Http.open(port)
        game_id, admin, _ = await new_game(http, 3)
        hook = {"url": f"http://127.0.0.1:{tarpit}/hook"}
        await call(http, "PUT", f"/v1/games/{game_id}/webhook", hook, token=admin)
        for _ in range(TARPIT_RESOLUTIONS):
            await call(http, "POST", f"/v1/games/{game_id}/admin/resolve", token=OPERATOR)
        http.close()
        yield
    finally:
        process.terminate()
        await process.wait()


@contextlib.asynccontextmanager
async def _idle_spectators(port: int, count: int) -> AsyncIterator[None]:
    """`count` spectators of a game of their own, connected by a process of their own, so
    that answering the server's pings does not slow this process's clients."""
    http = await Http.open(port)
    game_id, _, _ = await new_game(http, 3)
    http.close()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _SPECTATING,
        str(port),
        game_id,
        str(count),
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    try:
        async with asyncio.timeout(300):
            assert await process.stdout.readline() == b"connected\n", "the spectators failed"
        yield
    finally:
        process.terminate()
        await process.wait()


async def _traffic(port: int, pids: list[int]) -> tuple[list[float], object]:
    """Order submissions over NEIGHBOUR_GAMES games for NEIGHBOUR_SECONDS while another game is
    resolved once a second: requests, per second, p50 and p99 ms, the server's CPU time per
    request (resolutions and pings included); resolutions, their p50 and max ms; and the
    server's memory in MB after. Beside them, the refusals (the players stay below the
    quota: with several workers, a game too busy to take another writer)."""
    http = await Http.open(port)
    game_id, _, _ = await new_game(http, 10)
    resolutions: list[float] = []
    done = asyncio.Event()

    async def resolve_every_second() -> None:
        while not done.is_set():
            started = time.perf_counter()
            await call(http, "POST", f"/v1/games/{game_id}/admin/resolve", token=OPERATOR)
            resolutions.append(time.perf_counter() - started)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), 1.0)

    resolving = asyncio.create_task(resolve_every_second())
    cpu = cpu_seconds(pids)
    try:
        orders = await submissions(
            port, games=NEIGHBOUR_GAMES, players=10, seconds=NEIGHBOUR_SECONDS
        )
    finally:
        done.set()
        await resolving
        http.close()
    cpu = cpu_seconds(pids) - cpu
    figures = [float(f) for f in orders[2:6] if isinstance(f, int | float)]
    assert len(figures) == 4, orders
    measured = [
        *figures,
        cpu * 1000 / figures[0],
        len(resolutions),
        statistics.median(resolutions) * 1000,
        max(resolutions) * 1000,
        rss(pids) / 2**20,
    ]
    return measured, orders[6]
