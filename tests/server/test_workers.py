"""`skirmish serve --workers 2` in a subprocess: two processes on one port, each a whole
server, their metrics added up; workers that die are replaced, at once or after a delay
that grows while they keep dying at once."""

import asyncio
import contextlib
import json
import os
import re
import signal

import httpx
import pytest

from server.ops.cli import main
from server.ops.workers import GIVE_UP, MAX_DELAY, STEADY_SECONDS, Restarts
from tests.api.support import (
    OPERATOR_TOKEN,
    Account,
    Api,
    Live,
    Samples,
    metric_samples,
    until,
    value,
)
from tests.server.running import SKIRMISH, serve_subprocess
from tests.server.worker_processes import (
    alive,
    children,
    environment,
    on_each_worker,
    parent_of,
    served_by,
    workers_in,
)


async def started_game(api: Api) -> tuple[str, Account, Account, str]:
    """A started game of Ann (its admin), Bob and Cy: its id, Ann, Bob and one of Bob's
    armies."""
    ann, bob, cy = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
    game = (await api.new_game(ann, seed=7)).id
    for account in (ann, bob, cy):
        await api.join(game, account)
    await api.start(game, ann)
    state = await api.game(game, bob)
    return game, ann, bob, next(t for t, p in state.board.armies.items() if p == "p2")


async def test_two_workers_share_the_port_the_game_and_the_live_feed(schema_url: str) -> None:
    log: list[str] = []
    async with contextlib.AsyncExitStack() as stack:
        base = await stack.enter_async_context(
            serve_subprocess("--workers", "2", environment=environment(schema_url), log=log)
        )
        workers = workers_in(log)
        assert len(workers) == 2

        # Plain HTTP through either worker.
        async def ask() -> tuple[asyncio.StreamWriter, int]:
            host, port = base.removeprefix("http://").split(":")
            reader, writer = await asyncio.open_connection(host, int(port))
            stack.push_async_callback(writer.wait_closed)
            stack.callback(writer.close)
            writer.write(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert (await reader.readline()).startswith(b"HTTP/1.1 200")
            return writer, await served_by(base, writer.get_extra_info("sockname")[1])

        await on_each_worker(workers, ask)

        client = await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=30))
        api = Api(client, base)
        game, _, bob, army = await started_game(api)

        # Bob follows the game on both workers.
        async def follow() -> tuple[Live, int]:
            live = await stack.enter_async_context(Live.open(base, game, token=bob.token))
            port = live.connection.local_address[1]
            return live, await served_by(base, port)

        feeds = list((await on_each_worker(workers, follow)).values())
        for live in feeds:
            await live.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))

        order = await api.orders(game, bob, f"{army} H")
        await api.admin(game, OPERATOR_TOKEN, "resolve")
        for live in feeds:
            await live.wait_for(lambda ms: any(m["type"] == "resolved" for m in ms))
            mine = [e for e in live.events if e["type"] == "orders_submitted.v1"]
            assert [e["position"] for e in mine] == [order.position]
            assert len(live.of_type("resolved")) == 1
        resolved = [e for e in await api.events(game) if e.type == "turn_resolved.v1"]
        assert len(resolved) == 1

    # serve_subprocess stopped it with SIGTERM, within the bound, status 0; the workers
    # went with it.
    assert not [pid for pid in workers if alive(pid)]


async def test_workers_that_keep_dying_at_once_are_replaced_ever_later(schema_url: str) -> None:
    log: list[str] = []
    async with serve_subprocess(
        "--workers", "2", environment=environment(schema_url), log=log
    ) as base:
        workers = workers_in(log)
        parent = parent_of(min(workers))
        known = set(workers)
        killed = [min(workers)]
        for _ in range(3):
            os.kill(killed[-1], signal.SIGKILL)
            await until(
                lambda: bool(children(parent) - known), what="a worker in the killed one's place"
            )
            (replacement,) = children(parent) - known
            known.add(replacement)
            killed.append(replacement)
        # The other worker served throughout; the last replacement is left to serve too.
        async with httpx.AsyncClient(base_url=base) as client:
            assert (await client.get("/v1/health")).status_code == 200
    said = "".join(log)
    for n, (dead, delay) in enumerate(zip(killed, ("0.5", "1", "2"), strict=False), start=1):
        assert re.search(
            rf"worker {dead} exited \(status -9\) [\d.]+ s after it started, {n} in a row; "
            rf"starting another in its place in {delay} s\n",
            said,
        ), said
        assert f"started worker {killed[n]} in the place of worker {dead}\n" in said


def test_restarts_wait_longer_for_each_quick_death_in_a_row_and_give_up() -> None:
    restarts = Restarts()
    delays = [restarts.delay(0, lived=1.0) for _ in range(GIVE_UP)]
    assert delays[:6] == [0.5, 1, 2, 4, 8, 16]
    assert delays[6:-1] == [MAX_DELAY] * (GIVE_UP - 7)
    assert delays[-1] is None
    # Each place counts its own; one that served a while is replaced at once, and its place
    # counts afresh.
    other = Restarts()
    assert [other.delay(1, lived=5.0), other.delay(1, lived=5.0)] == [0.5, 1]
    assert other.delay(2, lived=0.0) == 0.5
    assert other.delay(1, lived=STEADY_SECONDS) == 0
    assert other.delay(1, lived=5.0) == 0.5


async def ask(base: str, path: str) -> tuple[bytes, int]:
    """GET `path` as the operator on a connection of its own: the answer's body, and the
    worker that answered."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        worker = await served_by(base, writer.get_extra_info("sockname")[1])
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            f"Authorization: Bearer {OPERATOR_TOKEN}\r\n\r\n".encode()
        )
        head, _, body = (await reader.read()).partition(b"\r\n\r\n")
    finally:
        writer.close()
        await writer.wait_closed()
    assert head.startswith(b"HTTP/1.1 200"), head
    return body, worker


async def test_metrics_add_up_every_worker_whichever_answers(schema_url: str) -> None:
    log: list[str] = []
    async with contextlib.AsyncExitStack() as stack:
        base = await stack.enter_async_context(
            serve_subprocess("--workers", "2", environment=environment(schema_url), log=log)
        )
        workers = workers_in(log)
        asked = 0

        async def health() -> tuple[None, int]:
            nonlocal asked
            asked += 1
            return None, (await ask(base, "/v1/health"))[1]

        await on_each_worker(workers, health)

        async def scrape() -> tuple[Samples, int]:
            body, worker = await ask(base, "/metrics")
            return metric_samples(body.decode()), worker

        healths = {"method": "GET", "route": "/v1/health", "status": "200"}
        for samples in (await on_each_worker(workers, scrape)).values():
            assert value(samples, "skirmish_http_requests_total", **healths) == asked
            assert value(samples, "skirmish_pool_max_connections") == 2 * 4

        client = await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=30))
        api = Api(client, base)
        game = (await api.new_game(await api.account("Ann"))).id
        sockets: dict[int, int] = dict.fromkeys(workers, 0)

        async def follow() -> tuple[Live, int]:
            live = await stack.enter_async_context(Live.open(base, game))
            worker = await served_by(base, live.connection.local_address[1])
            sockets[worker] += 1
            return live, worker

        await on_each_worker(workers, follow)

        async def scraped(name: str, expected: float) -> bool:
            return value((await scrape())[0], name) == expected

        # A worker writes its gauges every second for the others' scrapes.
        await until(
            lambda: scraped("skirmish_open_sockets", sum(sockets.values())),
            what="the sockets of both workers in a scrape",
        )
        for samples in (await on_each_worker(workers, scrape)).values():
            assert value(samples, "skirmish_open_sockets") == sum(sockets.values())

        # A worker that dies takes its gauges with it, and leaves its counts.
        dead = min(workers)
        os.kill(dead, signal.SIGKILL)
        await until(
            lambda: scraped("skirmish_open_sockets", sockets[max(workers)]),
            what="the dead worker's sockets gone from the sum",
        )
        await until(
            lambda: scraped("skirmish_pool_max_connections", 2 * 4),
            what="the replacement's pool in the sum, not the dead worker's",
        )
        samples, _ = await scrape()
        assert value(samples, "skirmish_http_requests_total", **healths) == asked


async def test_workers_that_cannot_start_stop_the_server_with_a_message() -> None:
    process = await asyncio.create_subprocess_exec(
        str(SKIRMISH),
        *("serve", "--port", "0", "--workers", "2"),
        # Nothing listens on port 1.
        env=environment("postgresql://postgres@127.0.0.1:1/nothing"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    async with asyncio.timeout(60):
        output, _ = await process.communicate()
    assert process.returncode == 1
    assert b"a worker could not start (above); stopping the server" in output


async def test_a_worker_killed_before_it_serves_is_awaited_in_its_replacement(
    schema_url: str,
) -> None:
    process = await asyncio.create_subprocess_exec(
        str(SKIRMISH),
        *("serve", "--port", "0", "--workers", "2"),
        env=environment(schema_url),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert process.stdout is not None
    said: list[str] = []
    try:
        # Killed as soon as it runs, long before it could serve.
        await until(lambda: len(children(process.pid)) == 2, what="two workers")
        killed = min(children(process.pid))
        os.kill(killed, signal.SIGKILL)
        async with asyncio.timeout(60):
            while not said or "Uvicorn running on" not in said[-1]:
                said.append((await process.stdout.readline()).decode())
                assert said[-1], "".join(said)
    finally:
        process.terminate()
        await process.communicate()
    announced = workers_in(said)
    assert len(announced) == 2
    assert killed not in announced


def test_a_fake_clock_is_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--fake-clock", "--workers", "2"]) == 2
    assert "--fake-clock runs one process" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--workers", "0"])
    assert "must be a whole number from 1, not '0'" in capsys.readouterr().err


Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def put_orders(connection: Connection, game: str, token: str, text: str) -> int:
    """PUT the orders on a keep-alive connection of the test's own; the answer's status."""
    reader, writer = connection
    body = json.dumps({"orders": text}).encode()
    writer.write(
        f"PUT /v1/games/{game}/orders HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n"
        f"Content-Type: application/json\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
        + body
    )
    head = await reader.readuntil(b"\r\n\r\n")
    length = re.search(rb"(?i)content-length: (\d+)", head)
    assert length is not None, head
    await reader.readexactly(int(length[1]))
    return int(head[9:12])


async def test_orders_through_either_worker_run_in_the_games_home(schema_url: str) -> None:
    log: list[str] = []
    async with contextlib.AsyncExitStack() as stack:
        base = await stack.enter_async_context(
            serve_subprocess("--workers", "2", environment=environment(schema_url), log=log)
        )
        workers = workers_in(log)
        client = await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=30))
        api = Api(client, base)
        game, _, bob, army = await started_game(api)
        host, port = base.removeprefix("http://").split(":")

        async def connect() -> tuple[Connection, int]:
            reader, writer = await asyncio.open_connection(host, int(port))
            stack.callback(writer.close)
            return (reader, writer), await served_by(base, writer.get_extra_info("sockname")[1])

        async def forwarded() -> float:
            samples = metric_samples((await ask(base, "/metrics"))[0].decode())
            return value(samples, "skirmish_forwarded_commands_total", outcome="appended")

        held = await on_each_worker(workers, connect)
        # The game was set up through whichever worker its client's connection reached.
        before = await forwarded()
        for connection in held.values():
            assert await put_orders(connection, game, bob.token, f"{army} H") == 200
        # One of the two is the game's home; the other sent its command there.
        assert await forwarded() == before + 1
        submitted = [e for e in await api.events(game, bob) if e.type == "orders_submitted.v1"]
        assert len(submitted) == 2

        # With either worker gone, the game's orders go in through the other: to the home,
        # or, when the home is the one gone, run where they came.
        dead = min(workers)
        os.kill(dead, signal.SIGKILL)
        await until(lambda: not alive(dead), what="the killed worker gone")
        survivor = held[max(workers)]
        statuses = [await put_orders(survivor, game, bob.token, f"{army} H")]
        if statuses == [503]:  # sent to the home as it died: not known if it went in
            statuses.append(await put_orders(survivor, game, bob.token, f"{army} H"))
        assert statuses[-1] == 200
