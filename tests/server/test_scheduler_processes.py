"""With real processes on real PostgreSQL: three `skirmish serve --fake-clock` on one schema
share 200 fast-mode games whose due times are spread over a minute. Their clocks are moved
together, turn after turn, through POST /v1/admin/clock; one server is killed with SIGKILL
while its clock is moving, in the middle of resolutions. The others carry on, and in the
end every game has each turn resolved exactly once, on time, and its reminders and results
sent exactly once."""

import asyncio
import os
import re
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import httpx

from eventstore.postgres import PostgresEventStore
from projections.loading import stream_of
from projections.runner import ReadModelRunner
from schema.game_events import PlayerNotified, TurnResolved, game_codec
from tests.server.scripted import decided_games

SKIRMISH = Path(sys.executable).parent / "skirmish"
TOKEN = "operator-token-for-the-process-test"
SERVERS = 3
GAMES = 200
PLAYERS = 3
TURNS = 4
# The turn during which one server is killed, and how far into its resolutions.
KILLED_DURING = 2
KILLED_AFTER = GAMES // 4
PERIOD = timedelta(minutes=15)
SPREAD = 5


@dataclass
class Server:
    process: asyncio.subprocess.Process
    url: str
    log: Path


def starts(base: datetime) -> dict[str, datetime]:
    """When each game starts: every SPREAD seconds over one minute, so that every turn falls
    due over a minute, several games at each moment."""
    return {f"g{n:03}": base + timedelta(seconds=n * SPREAD % 60) for n in range(GAMES)}


@asynccontextmanager
async def serving(schema_url: str, logs: Path) -> AsyncIterator[list[Server]]:
    """SERVERS `skirmish serve --fake-clock` on the schema; every one of them is stopped
    (SIGTERM, then SIGKILL) on the way out, whatever happened."""
    environment = {
        **os.environ,
        "DATABASE_URL": schema_url,
        "SKIRMISH_OPERATOR_TOKEN": TOKEN,
    }
    processes: list[tuple[asyncio.subprocess.Process, Path]] = []
    try:
        for n in range(SERVERS):
            log = logs / f"server-{n}.log"
            with log.open("wb") as output:
                process = await asyncio.create_subprocess_exec(
                    str(SKIRMISH),
                    *("serve", "--fake-clock", "--port", "0"),
                    env=environment,
                    stdout=output,
                    stderr=output,
                )
            processes.append((process, log))
        yield [
            Server(process, await listening_url(process, log), log) for process, log in processes
        ]
    finally:
        for process, _ in processes:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
        for process, _ in processes:
            try:
                async with asyncio.timeout(30):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()


async def listening_url(process: asyncio.subprocess.Process, log: Path) -> str:
    async with asyncio.timeout(60):
        while (url := announced(log)) is None:
            assert process.returncode is None, f"serve exited early:\n{read(log)}"
            await asyncio.sleep(0.05)
    return url


def announced(log: Path) -> str | None:
    found = re.search(r"Uvicorn running on (http://\S+)", read(log))
    return None if found is None else found[1]


def read(log: Path) -> str:
    return log.read_text()


async def set_clock(client: httpx.AsyncClient, server: Server, to: datetime) -> None:
    response = await client.post(
        f"{server.url}/v1/admin/clock",
        json={"set": to.isoformat()},
        headers={"Authorization": f"Bearer {TOKEN}"},
    )
    assert response.status_code == 200, response.text
    assert response.json() == {"now": to.isoformat().replace("+00:00", "Z")}


async def resolutions(pool: asyncpg.Pool) -> int:
    count: int = await pool.fetchval("SELECT count(*) FROM events WHERE type = 'turn_resolved.v1'")
    return count


async def kill_when(pool: asyncpg.Pool, server: Server, resolved: int) -> int:
    """SIGKILL the server once `resolved` turns are resolved in all; how many were then."""
    async with asyncio.timeout(60):
        # The count lives in the database; there is no event to wait on.
        while (count := await resolutions(pool)) < resolved:  # noqa: ASYNC110
            await asyncio.sleep(0.005)
    server.process.send_signal(signal.SIGKILL)
    await server.process.wait()
    return count


async def all_of(calls: Sequence[Awaitable[None]]) -> list[BaseException | None]:
    return list(await asyncio.gather(*calls, return_exceptions=True))


async def test_three_servers_resolve_every_turn_exactly_once_through_a_kill(
    schema_url: str, pool: asyncpg.Pool, postgres_store: PostgresEventStore, tmp_path: Path
) -> None:
    # In the future of the real time, where the servers' fake clocks start.
    base = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)
    started = starts(base)
    await decided_games(postgres_store, started, players=PLAYERS)
    await ReadModelRunner(postgres_store, pool).catch_up()

    async with serving(schema_url, tmp_path) as servers, httpx.AsyncClient(timeout=60) as client:
        alive = list(servers)
        for turn in range(1, TURNS + 1):
            # Past every game's resolution of this turn, short of the next reminders.
            target = base + turn * PERIOD + timedelta(seconds=60)
            if turn != KILLED_DURING:
                assert await all_of([set_clock(client, s, target) for s in alive]) == [None] * len(
                    alive
                )
                continue
            victim, alive = alive[0], alive[1:]
            moving = [asyncio.create_task(set_clock(client, s, target)) for s in servers]
            resolved_before = GAMES * (turn - 1)
            at_kill = await kill_when(pool, victim, resolved_before + KILLED_AFTER)
            # Killed in the middle: its clock was still moving, resolutions still to come.
            assert at_kill < GAMES * turn
            killed, *others = await all_of(moving)
            assert isinstance(killed, httpx.TransportError)
            assert others == [None] * len(alive)
            assert victim.process.returncode == -signal.SIGKILL
        for server in alive:
            assert server.process.returncode is None
            log = read(server.log)
            assert "Traceback" not in log, log

    resolved: dict[str, list[TurnResolved]] = {game_id: [] for game_id in started}
    notices: Counter[tuple[str, str, int]] = Counter()
    for game_id in started:
        for recorded in await postgres_store.read_stream(stream_of(game_id)):
            event = game_codec.decode_recorded(recorded)
            if isinstance(event, TurnResolved):
                resolved[game_id].append(event)
            elif isinstance(event, PlayerNotified):
                notices[(game_id, event.kind, event.turn)] += 1
    for game_id, start in started.items():
        # Every turn once, in order, each at its time: none missing, none twice.
        assert [(r.turn, r.at) for r in resolved[game_id]] == [
            (turn, start + turn * PERIOD) for turn in range(1, TURNS + 1)
        ], game_id
        for turn in range(1, TURNS + 1):
            assert notices[(game_id, "reminder", turn)] == PLAYERS, (game_id, turn)
            assert notices[(game_id, "results", turn)] == PLAYERS, (game_id, turn)
    assert sum(notices.values()) == GAMES * TURNS * 2 * PLAYERS
    rows = await pool.fetch("SELECT game_id, turn, next_resolution_at FROM read_games")
    assert {row["game_id"]: (row["turn"], row["next_resolution_at"]) for row in rows} == {
        game_id: (TURNS + 1, start + (TURNS + 1) * PERIOD) for game_id, start in started.items()
    }
