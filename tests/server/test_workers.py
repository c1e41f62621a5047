"""`skirmish serve --workers 2` in a subprocess: two processes on one port, each a whole
server. Which worker holds a connection is read from /proc: the process that owns the
server's end of it."""

import asyncio
import contextlib
import os
import re
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import httpx
import pytest

from server.cli import main
from tests.api.support import OPERATOR_TOKEN, Api, Live, until
from tests.server.running import SKIRMISH, serve_subprocess

T = TypeVar("T")


def environment(database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "SKIRMISH_OPERATOR_TOKEN": OPERATOR_TOKEN,
        "SKIRMISH_POOL_SIZE": "4",
        "SKIRMISH_RATE_LIMITS": "off",
    }


def workers_in(log: list[str]) -> set[int]:
    """The workers that the parent says serve."""
    match = re.search(r"Uvicorn running on \S+ .*workers: ([\d ]+)", "".join(log))
    assert match is not None, "".join(log)
    return {int(pid) for pid in match[1].split()}


def owner(server_port: int, client_port: int) -> int | None:
    """The process holding the server's end of the loopback connection from
    `client_port`, or None if it is not accepted yet."""
    wanted = f":{server_port:04X} "
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = fields[1], fields[2]
        if f"{local} ".endswith(wanted) and remote.endswith(f":{client_port:04X}"):
            inode = fields[9]
    if inode is None:
        return None
    for process in Path("/proc").iterdir():
        if not process.name.isdigit():
            continue
        with contextlib.suppress(OSError):  # it ended, or is not ours to look at
            for descriptor in (process / "fd").iterdir():
                if os.readlink(descriptor) == f"socket:[{inode}]":
                    return int(process.name)
    return None


async def served_by(base: str, client_port: int) -> int:
    server_port = int(base.rsplit(":", 1)[1])
    found: list[int] = []

    def accepted() -> bool:
        pid = owner(server_port, client_port)
        found.extend([] if pid is None else [pid])
        return bool(found)

    await until(accepted, what=f"the connection from port {client_port} to be accepted")
    return found[0]


async def on_each_worker(
    workers: set[int], connect: Callable[[], Awaitable[tuple[T, int]]]
) -> dict[int, T]:
    """Connections made one after another until every worker holds one (the kernel gives
    each to whichever worker accepts first); one per worker."""
    held: dict[int, T] = {}
    for _ in range(100):
        connection, pid = await connect()
        assert pid in workers
        held.setdefault(pid, connection)
        if held.keys() == workers:
            return held
    raise AssertionError(f"100 connections reached only {set(held)} of {workers}")


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
        ann, bob, cy = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
        game = (await api.new_game(ann, seed=7)).id
        for account in (ann, bob, cy):
            await api.join(game, account)
        await api.start(game, ann)
        state = await api.game(game, bob)
        army = next(t for t, p in state.board.armies.items() if p == "p2")

        # Bob follows the game on both workers.
        async def follow() -> tuple[Live, int]:
            live = await stack.enter_async_context(Live.open(base, game, token=bob.token))
            port = live.connection.local_address[1]
            return live, await served_by(base, port)

        feeds = list((await on_each_worker(workers, follow)).values())
        for live in feeds:
            await live.wait_for(lambda ms: any(m["type"] == "standings" for m in ms))

        order = await api.orders(game, bob, f"{army} H")
        await api.admin(game, ann, "resolve")
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


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def parent_of(pid: int) -> int:
    # /proc/PID/stat: "pid (command) state ppid ...", the command possibly with spaces.
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def children(parent: int) -> set[int]:
    """The workers of the server whose pid is `parent` (not its resource tracker)."""
    found = set()
    for pid in Path(f"/proc/{parent}/task/{parent}/children").read_text().split():
        with contextlib.suppress(OSError):
            if b"multiprocessing.spawn" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(int(pid))
    return found


async def test_a_worker_that_dies_is_replaced(schema_url: str) -> None:
    log: list[str] = []
    async with serve_subprocess(
        "--workers", "2", environment=environment(schema_url), log=log
    ) as base:
        workers = workers_in(log)
        killed = min(workers)
        parent = parent_of(killed)
        os.kill(killed, signal.SIGKILL)
        await until(
            lambda: len(children(parent) - workers) == 1, what="a worker in the killed one's place"
        )
        async with httpx.AsyncClient(base_url=base) as client:
            assert (await client.get("/v1/health")).status_code == 200
    assert f"worker {killed} exited (status -9); started worker" in "".join(log)


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


def test_a_fake_clock_is_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--fake-clock", "--workers", "2"]) == 2
    assert "--fake-clock runs one process" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--workers", "0"])
    assert "must be a whole number from 1, not '0'" in capsys.readouterr().err
