"""The embedded PostgreSQL: starts, is reused, comes back right after a kill -9, and is stopped
by the last process out, never under another (server/ops/holders.py)."""

import asyncio
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg

from server.ops.database import EmbeddedPostgres, with_search_path
from tests.server.running import kill_9, postmaster_pid, running_url


async def _answer(url: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval("SELECT 1"))
    finally:
        await connection.close()


def test_the_embedded_server_starts_again_right_after_akill_9(embedded_dir: Path) -> None:
    data_dir = embedded_dir / "data"
    embedded = EmbeddedPostgres(data_dir)
    try:
        embedded.start()
        first_pid = postmaster_pid(data_dir)
        kill_9(first_pid)

        url = embedded.start()

        assert asyncio.run(_answer(url)) == 1
        assert postmaster_pid(data_dir) != first_pid
    finally:
        embedded.stop()
    assert running_url(data_dir) is None


def test_a_second_start_adopts_the_running_server_and_the_last_one_out_stops_it(
    embedded_dir: Path,
) -> None:
    data_dir = embedded_dir / "data"
    first, second = EmbeddedPostgres(data_dir), EmbeddedPostgres(data_dir)
    try:
        url = first.start()
        pid = postmaster_pid(data_dir)
        assert second.start() == url
        assert postmaster_pid(data_dir) == pid

        assert first.stop() is False
        assert running_url(data_dir) == url
        assert asyncio.run(_answer(url)) == 1
        assert second.stop() is True
        assert running_url(data_dir) is None
    finally:
        first.stop()
        second.stop()
    assert first.stop() is True


class Holder:
    """Another process holding the embedded server of a data directory (server/ops/holders.py)
    until told to let go, or killed."""

    def __init__(self, data_dir: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _HOLDER, str(data_dir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def url(self) -> str:
        """The server's URL, once it holds it."""
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the holder exited"
        return line.strip()

    def let_go(self) -> str:
        """What its stop() said: stopped, or left to others."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.close()
        said = self.process.stdout.read().strip()
        assert self.process.wait(60) == 0
        return said

    def kill(self) -> None:
        """Killed with SIGKILL, if still there; its pipes closed either way."""
        self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            assert pipe is not None
            pipe.close()


_HOLDER = """
import sys
from pathlib import Path
from server.ops.database import EmbeddedPostgres

embedded = EmbeddedPostgres(Path(sys.argv[1]))
print(embedded.start(), flush=True)
sys.stdin.read()
print("stopped" if embedded.stop() else "left", flush=True)
"""


def test_a_process_that_did_not_start_the_server_never_stops_it_under_its_holder(
    embedded_dir: Path,
) -> None:
    data_dir = embedded_dir / "data"
    holder = Holder(data_dir)
    try:
        url = holder.url()
        tool = EmbeddedPostgres(data_dir)
        assert tool.start() == url
        assert tool.stop() is False
        # Nor does one that never held it, cleaning up.
        assert EmbeddedPostgres(data_dir).stop() is False
        assert asyncio.run(_answer(url)) == 1
        # The holder, last out, stops it, though a tool took hold of it meanwhile.
        assert holder.let_go() == "stopped"
        assert running_url(data_dir) is None
    finally:
        holder.kill()
        EmbeddedPostgres(data_dir).stop()


def test_the_server_started_by_a_tool_is_left_to_a_later_holder_and_a_killed_one_holds_nothing(
    embedded_dir: Path,
) -> None:
    data_dir = embedded_dir / "data"
    tool, server = Holder(data_dir), Holder(data_dir)
    try:
        url = tool.url()
        assert server.url() == url
        assert tool.let_go() == "left"
        assert asyncio.run(_answer(url)) == 1
        # Killed with its hold: it holds nothing, and its server is adopted as it is.
        pid = postmaster_pid(data_dir)
        server.kill()
        adopting = EmbeddedPostgres(data_dir)
        assert adopting.start() == url
        assert postmaster_pid(data_dir) == pid
        assert adopting.stop() is True
        assert running_url(data_dir) is None
    finally:
        tool.kill()
        server.kill()
        EmbeddedPostgres(data_dir).stop()


def test_processes_starting_and_stopping_at_once_share_one_server(embedded_dir: Path) -> None:
    """Three processes start on a fresh directory at once (one initdb, one server); then
    one lets go while another starts again: nothing stops under a holder."""
    data_dir = embedded_dir / "data"
    holders = [Holder(data_dir) for _ in range(3)]
    try:
        urls = {holder.url() for holder in holders}
        assert len(urls) == 1
        pid = postmaster_pid(data_dir)
        with ThreadPoolExecutor(2) as both:
            letting_go = both.submit(holders[0].let_go)
            holders.append(Holder(data_dir))
            assert both.submit(holders[-1].url).result() in urls
            assert letting_go.result() == "left"
        assert postmaster_pid(data_dir) == pid
        said = [holder.let_go() for holder in holders[1:]]
        assert said == ["left", "left", "stopped"]
        assert running_url(data_dir) is None
    finally:
        for holder in holders:
            holder.kill()
        EmbeddedPostgres(data_dir).stop()


def test_with_search_path_keeps_the_other_parameters() -> None:
    url = with_search_path("postgresql://u@/db?host=/run/pg&search_path=old", "game_1")
    assert url == "postgresql://u@/db?host=%2Frun%2Fpg&search_path=game_1"
