"""Beyond one machine (docs/operations.md): two `skirmish serve --workers 2`, each as a
machine of its own (its own working and temporary directories, data directory and
application_name; nothing shared but PostgreSQL), on one schema. A game made on one is
played on the other; games fall due on the real clock and are resolved exactly once by
whichever schedulers claim them, seen by spectators of the other machine; and when the
machine leading the read models dies (every process of it at once, SIGKILL), the other takes
over the read models and the webhook outbox and resolves what falls due next."""

import asyncio
import contextlib
import os
import signal
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import httpx

from eventstore.postgres import PostgresEventStore
from projections.loading import stream_of
from projections.schedule import FAST_PERIOD
from tests.api.support import OPERATOR_TOKEN, Api, Live, metric_samples, until, value
from tests.server.running import serve_subprocess
from tests.server.scripted import decided_games
from tests.server.worker_processes import environment, parent_of, workers_in

MACHINES = ("machine-a", "machine-b")
GAMES = 8
PLAYERS = 3
# How soon after they are made the decided games fall due.
DUE_IN = timedelta(seconds=4)
# The advisory locks' second keys (projections/runner.py, server/webhooks/outbox.py).
READ_MODELS = 0x5EAD_0001
WEBHOOK_ENQUEUER = 0x5EAD_0002
# Who holds a leader's lock in this schema (the first key is the schema's hash, as oid).
_LEADER = """
SELECT a.application_name FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.objid = $1::bigint::oid
  AND l.classid::bigint = hashtext(current_schema())::bigint & 4294967295"""


def named(url: str, name: str) -> str:
    """The URL with `name` as the connections' application_name."""
    parts = urlsplit(url)
    query = [*parse_qsl(parts.query), ("application_name", name)]
    return urlunsplit(parts._replace(query=urlencode(query)))


async def leader(pool: asyncpg.Pool, key: int) -> str | None:
    found: str | None = await pool.fetchval(_LEADER, key)
    return found


async def due_soon(store: PostgresEventStore, prefix: str) -> list[str]:
    """GAMES fast-mode games whose first turn falls due DUE_IN from now."""
    began = datetime.now(UTC) - FAST_PERIOD + DUE_IN
    games = {f"{prefix}{n}": began for n in range(GAMES)}
    await decided_games(store, games, players=PLAYERS)
    return list(games)


async def resolved_once(pool: asyncpg.Pool, games: list[str]) -> bool:
    """Whether each game's first turn has been resolved; asserts never twice."""
    rows = await pool.fetch(
        "SELECT stream_id, count(*) FROM events WHERE type = 'turn_resolved.v1' "
        "AND stream_id = ANY($1::text[]) GROUP BY stream_id",
        [stream_of(game) for game in games],
    )
    assert all(count == 1 for _, count in rows), rows
    return len(rows) == len(games)


async def resolutions(api: Api) -> float:
    """The turns one machine has resolved, by its metrics (all its workers')."""
    scraped = await api.client.get(
        "/metrics", headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    )
    assert scraped.status_code == 200, scraped.text
    return value(metric_samples(scraped.text), "skirmish_resolution_seconds_count")


async def test_two_machines_share_games_resolutions_and_leadership(
    schema_url: str, pool: asyncpg.Pool, postgres_store: PostgresEventStore, tmp_path: Path
) -> None:
    logs: dict[str, list[str]] = {name: [] for name in MACHINES}
    bases: dict[str, str] = {}
    async with contextlib.AsyncExitStack() as stack:

        async def machine(name: str) -> Api:
            home = tmp_path / name
            (home / "tmp").mkdir(parents=True)
            base = await stack.enter_async_context(
                serve_subprocess(
                    *("--workers", "2", "--data-dir", str(home / "data")),
                    environment={
                        **environment(named(schema_url, name)),
                        "TMPDIR": str(home / "tmp"),
                    },
                    log=logs[name],
                    cwd=home,
                    killable=True,
                )
            )
            bases[name] = base
            client = await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=30))
            return Api(client, base)

        apis = dict(zip(MACHINES, await asyncio.gather(*map(machine, MACHINES)), strict=True))
        a, b = apis.values()

        # Accounts and a game made on one machine; joined, started and played on the other
        # (tokens are looked up in the database at every request).
        ann, bob, cy = [await a.account(name) for name in ("Ann", "Bob", "Cy")]
        game = (await a.new_game(ann, seed=7)).id
        for account in (ann, bob, cy):
            await b.join(game, account)
        await b.start(game, ann)
        army = next(t for t, p in (await b.game(game, bob)).board.armies.items() if p == "p2")
        order = await b.orders(game, bob, f"{army} H")
        assert order.position in [e.position for e in await a.events(game, bob)]

        # Games falling due on the real clock, followed from machine B: whichever scheduler
        # claims each, B's spectators see it resolved, and it is resolved once.
        first = await due_soon(postgres_store, "first-")
        watching = [
            await stack.enter_async_context(Live.open(bases["machine-b"], g)) for g in first
        ]
        for live in watching:
            await live.wait_for(lambda ms: any(m["type"] == "resolved" for m in ms))
        assert await resolved_once(pool, first)
        # Each resolver counts its resolution right after its append, which spectators may
        # see first.
        counted: dict[str, float] = {}

        async def counted_all() -> bool:
            counted.update({name: await resolutions(api) for name, api in apis.items()})
            return sum(counted.values()) >= GAMES

        await until(counted_all, what="both machines' metrics to count every resolution")
        assert sum(counted.values()) == GAMES

        # The machine leading the read models dies whole; the other takes over.
        leading = await leader(pool, READ_MODELS)
        assert leading in MACHINES
        (survivor,) = set(MACHINES) - {leading}
        os.killpg(parent_of(min(workers_in(logs[leading]))), signal.SIGKILL)
        await until(lambda: _led_by(pool, survivor), what=f"{survivor} to lead the read models")

        # What falls due next is read, resolved and seen on the survivor alone.
        then = await due_soon(postgres_store, "then-")
        watching = [await stack.enter_async_context(Live.open(bases[survivor], g)) for g in then]
        for live in watching:
            await live.wait_for(lambda ms: any(m["type"] == "resolved" for m in ms))
        assert await resolved_once(pool, [*first, *then])
        await until(
            lambda: _counted(apis[survivor], counted[survivor] + GAMES),
            what=f"{survivor}'s metrics to count the resolutions since",
        )

    # serve_subprocess saw the survivor stop cleanly, and no traceback in either log. Each
    # machine's workers shared their metrics in its own temporary directory, which a clean
    # stop removes and a kill leaves behind.
    assert not list((tmp_path / survivor / "tmp").iterdir())
    assert [p.name[:17] for p in (tmp_path / leading / "tmp").iterdir()] == ["skirmish-metrics-"]


async def _led_by(pool: asyncpg.Pool, survivor: str) -> bool:
    return all([await leader(pool, key) == survivor for key in (READ_MODELS, WEBHOOK_ENQUEUER)])


async def _counted(api: Api, resolved: float) -> bool:
    found = await resolutions(api)
    assert found <= resolved
    return found == resolved
