"""`skirmish serve --workers N` as the tests see it: its workers, and which of them holds a
connection, read from /proc (the process that owns the server's end of it)."""

import contextlib
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from tests.api.support import OPERATOR_TOKEN, until

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
