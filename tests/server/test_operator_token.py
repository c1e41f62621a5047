"""`skirmish serve` without SKIRMISH_OPERATOR_TOKEN: a token made on the first start, kept in
the data directory for its owner only, reused after, and never written to the log."""

import asyncio
import os
import stat
import subprocess
from pathlib import Path

import httpx

from server.ops.database import EmbeddedPostgres
from tests.server.running import SKIRMISH, serve_subprocess

OTHER = "an-operator-token-from-the-environment"


def _environment(schema_url: str, data_dir: Path) -> dict[str, str]:
    environment = {
        name: value for name, value in os.environ.items() if name != "SKIRMISH_OPERATOR_TOKEN"
    }
    return {**environment, "DATABASE_URL": schema_url, "SKIRMISH_DATA_DIR": str(data_dir)}


async def _metrics(base: str, token: str) -> int:
    """GET /metrics, the operator's only: its status."""
    async with httpx.AsyncClient(base_url=base) as client:
        answer = await client.get("/metrics", headers={"Authorization": f"Bearer {token}"})
    return answer.status_code


async def test_serve_makes_the_operator_token_once_keeps_it_private_and_says_where(
    schema_url: str, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    kept = data_dir / "operator-token"
    environment = _environment(schema_url, data_dir)
    logs: list[list[str]] = [[], [], []]
    async with serve_subprocess(environment=environment, log=logs[0]) as base:
        token = kept.read_text().strip()
        first = await _metrics(base, token)
        async with httpx.AsyncClient(base_url=base) as client:
            me = await client.get("/v1/me", headers={"Authorization": f"Bearer {token}"})
        stranger = await _metrics(base, "not-the-operator-token-at-all")
    mode = stat.S_IMODE(kept.stat().st_mode)
    async with serve_subprocess(environment=environment, log=logs[1]) as base:
        again = await _metrics(base, token)
    async with serve_subprocess(
        environment={**environment, "SKIRMISH_OPERATOR_TOKEN": OTHER}, log=logs[2]
    ) as base:
        from_environment = await _metrics(base, OTHER)
        from_file = await _metrics(base, token)

    assert mode == 0o600
    assert me.json()["operator"] is True
    assert len(token) >= 32
    assert (first, stranger, again) == (200, 401, 200)
    assert kept.read_text().strip() == token
    assert (from_environment, from_file) == (200, 401)
    for log in logs[:2]:
        said = [line for line in "".join(log).splitlines() if str(kept) in line]
        assert len(said) == 1, "".join(log)
        assert f"cat {kept}" in said[0]
    for log in logs:
        assert token not in "".join(log)
    assert str(kept) not in "".join(logs[2])


async def test_serve_refuses_a_kept_token_that_others_may_read(
    schema_url: str, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    kept = data_dir / "operator-token"
    kept.write_text("a-token-anyone-on-the-machine-could-read\n")
    kept.chmod(0o644)
    refused = await asyncio.to_thread(
        subprocess.run,
        [str(SKIRMISH), "serve", "--port", "0"],
        env=_environment(schema_url, data_dir),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2
    assert f"chmod 600 {kept}" in refused.stderr
    assert "a-token-anyone" not in refused.stderr + refused.stdout


def test_a_data_directory_holding_only_the_token_still_takes_a_new_postgresql(
    tmp_path: Path,
) -> None:
    """A server run on DATABASE_URL first kept its token in the data directory, which
    initdb wants empty."""
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o700)
    kept = data_dir / "operator-token"
    kept.write_text("the-token-made-while-on-database-url\n")
    kept.chmod(0o600)
    embedded = EmbeddedPostgres(data_dir)
    try:
        embedded.start()
    finally:
        embedded.stop()
    assert (data_dir / "PG_VERSION").exists()
    assert kept.read_text() == "the-token-made-while-on-database-url\n"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
