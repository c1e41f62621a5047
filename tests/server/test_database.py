"""The embedded PostgreSQL: starts, is reused, stops, and comes back right after a kill -9."""

import asyncio
from pathlib import Path

import asyncpg

from server.database import EmbeddedPostgres, running_url, with_search_path
from tests.server.running import kill_9, postmaster_pid


async def _answer(url: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval("SELECT 1"))
    finally:
        await connection.close()


def test_the_embedded_server_starts_again_right_after_akill_9(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
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


def test_a_second_start_adopts_the_running_server_and_stop_is_idempotent(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    embedded = EmbeddedPostgres(data_dir)
    try:
        url = embedded.start()
        pid = postmaster_pid(data_dir)
        assert EmbeddedPostgres(data_dir).start() == url
        assert postmaster_pid(data_dir) == pid
        assert running_url(data_dir) == url
    finally:
        embedded.stop()
    embedded.stop()
    assert running_url(data_dir) is None


def test_with_search_path_keeps_the_other_parameters() -> None:
    url = with_search_path("postgresql://u@/db?host=/run/pg&search_path=old", "game_1")
    assert url == "postgresql://u@/db?host=%2Frun%2Fpg&search_path=game_1"
