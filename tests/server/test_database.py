"""The embedded PostgreSQL: starts, is reused, stops, and comes back right after a kill -9."""

import asyncio
import os
import select
import signal
from pathlib import Path

import asyncpg

from server.database import EmbeddedPostgres, running_url, with_search_path


async def _answer(url: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval("SELECT 1"))
    finally:
        await connection.close()


def _postmaster_pid(data_dir: Path) -> int:
    return int((data_dir / "postmaster.pid").read_text().split()[0])


def _kill_9(pid: int) -> None:
    """SIGKILL, returning once the process has died (not our child: wait on a pidfd)."""
    descriptor = os.pidfd_open(pid)
    try:
        os.kill(pid, signal.SIGKILL)
        ready, _, _ = select.select([descriptor], [], [], 10)
        assert ready, f"process {pid} survived SIGKILL"
    finally:
        os.close(descriptor)


def test_the_embedded_server_starts_again_right_after_a_kill_9(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    embedded = EmbeddedPostgres(data_dir)
    try:
        embedded.start()
        first_pid = _postmaster_pid(data_dir)
        _kill_9(first_pid)

        url = embedded.start()

        assert asyncio.run(_answer(url)) == 1
        assert _postmaster_pid(data_dir) != first_pid
    finally:
        embedded.stop()
    assert running_url(data_dir) is None


def test_a_second_start_adopts_the_running_server_and_stop_is_idempotent(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    embedded = EmbeddedPostgres(data_dir)
    try:
        url = embedded.start()
        pid = _postmaster_pid(data_dir)
        assert EmbeddedPostgres(data_dir).start() == url
        assert _postmaster_pid(data_dir) == pid
        assert running_url(data_dir) == url
    finally:
        embedded.stop()
    embedded.stop()
    assert running_url(data_dir) is None


def test_with_search_path_keeps_the_other_parameters() -> None:
    url = with_search_path("postgresql://u@/db?host=/run/pg&search_path=old", "game_1")
    assert url == "postgresql://u@/db?host=%2Frun%2Fpg&search_path=game_1"
