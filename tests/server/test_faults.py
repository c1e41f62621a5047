"""Faults end to end, with `skirmish serve` in a subprocess (tests/server/running.py checks
that SIGTERM ends it cleanly within 10 s, with no traceback in its log): its database cut
off, and its embedded PostgreSQL killed, and restarted, under load from loopback clients.
Meanwhile every answer is a 2xx or 4xx, or a 503 with Retry-After in the API's error form,
on the same keep-alive connection; no acknowledged write is lost; the server serves again
within seconds of the database's return, and its embedded PostgreSQL stops with it."""

import asyncio
import contextlib
import os
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from server.ops.database import EmbeddedPostgres, create_pool
from tests.api.support import Account, Api, Live, until
from tests.server.running import (
    CuttableLink,
    kill_9,
    postmaster_pid,
    processes_of,
    running_url,
    serve_subprocess,
)

CLIENTS = 4
RECOVERY_SECONDS = 5.0
# Below the rules' 100 submissions per player and turn.
ORDERS_PER_CLIENT = 80


def _serving(data_dir: Path) -> AbstractAsyncContextManager[str]:
    """`skirmish serve` with its embedded PostgreSQL in `data_dir`."""
    environment = {name: value for name, value in os.environ.items() if name != "DATABASE_URL"}
    return serve_subprocess("--data-dir", str(data_dir), environment=environment)


def _answered_well(response: httpx.Response) -> bool:
    """A 2xx or 4xx, or a 503 that says when to try again, in the API's error form."""
    if response.status_code < 500:
        return True
    return (
        response.status_code == 503
        and response.headers.get("retry-after", "").isdigit()
        and response.json()["error"]["code"] == "database_unavailable"
    )


def _connection_of(response: httpx.Response) -> object:
    """The client's end of the TCP connection that carried the response."""
    return response.extensions["network_stream"].get_extra_info("client_addr")


@dataclass
class Writer:
    """One loopback client writing in a loop on one keep-alive connection (accounts, games,
    and orders as a player of a running game), noting what was acknowledged."""

    client: httpx.AsyncClient
    player: Account
    game_id: str
    accounts: list[str] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    orders: list[int] = field(default_factory=list)
    # When each answer came, and whether it was a success (2xx); when something went wrong.
    answers: list[tuple[float, bool]] = field(default_factory=list)
    wrong: list[tuple[float, str]] = field(default_factory=list)

    def successes_after(self, moment: float) -> list[float]:
        return [at for at, ok in self.answers if ok and at >= moment]

    def refused_after(self, moment: float) -> bool:
        return any(not ok for at, ok in self.answers if at >= moment)

    def wrong_before(self, moment: float) -> list[str]:
        return [problem for at, problem in self.wrong if at < moment]

    async def run(self, stop: asyncio.Event) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                await self._write(n)
            except httpx.HTTPError as error:  # a dropped connection, or no answer in time
                self.wrong.append((time.monotonic(), f"{type(error).__name__}: {error}"))

    async def _write(self, n: int) -> None:
        auth = self.player.auth
        acknowledged: list[Any]
        if n % 3 == 0 and len(self.orders) < ORDERS_PER_CLIENT:
            path = f"/v1/games/{self.game_id}/orders"
            response = await self.client.put(path, headers=auth, json={"orders": f"H {n}"})
            acknowledged, key = self.orders, "position"
        elif n % 3 == 1:
            response = await self.client.post("/v1/games", headers=auth, json={"name": f"G{n}"})
            acknowledged, key = self.games, "id"
        else:
            response = await self.client.post("/v1/accounts", json={"name": f"W{n}"})
            acknowledged, key = self.accounts, "account_id"
        self.answers.append((time.monotonic(), response.is_success))
        if response.is_success:
            acknowledged.append(response.json()[key])
        elif not _answered_well(response):
            self.wrong.append((time.monotonic(), f"{response.status_code} {response.text}"))
        else:
            await asyncio.sleep(0.02)  # soon again, to see the database come back


async def _writers(base: str, clients: contextlib.AsyncExitStack) -> list[Writer]:
    """CLIENTS writers, each with a game of three players it plays in."""
    writers = []
    for n in range(CLIENTS):
        client = await clients.enter_async_context(httpx.AsyncClient(base_url=base))
        api = Api(client, base)
        player = await api.account(f"Player {n}")
        game = await api.new_game(player, fast_mode=False)
        for who in (player, await api.account("Second"), await api.account("Third")):
            await api.join(game.id, who)
        await api.start(game.id, player)
        writers.append(Writer(client, player, game.id))
    return writers


async def _acknowledged_writes_are_stored(data_dir: Path, writers: list[Writer]) -> None:
    url = running_url(data_dir)
    assert url is not None
    pool = await create_pool(url, max_size=2)
    try:
        for query, acknowledged in (
            ("SELECT count(*) FROM accounts WHERE account_id = ANY($1::text[])", "accounts"),
            ("SELECT count(*) FROM streams WHERE stream_id = ANY($1::text[])", "games"),
            ("SELECT count(*) FROM events WHERE position = ANY($1::bigint[])", "orders"),
        ):
            written = [item for writer in writers for item in getattr(writer, acknowledged)]
            if acknowledged == "games":
                written = [f"game-{game_id}" for game_id in written]
            assert written, f"no {acknowledged} acknowledged at all"
            assert await pool.fetchval(query, written) == len(set(written)), acknowledged
    finally:
        await pool.close()


async def _noticed(check: Callable[[], bool], what: str) -> None:
    await until(check, seconds=30, what=what)


async def test_the_embedded_database_killed_and_restarted_under_load(embedded_dir: Path) -> None:
    data_dir = embedded_dir / "postgres"
    checking = EmbeddedPostgres(data_dir)
    stop = asyncio.Event()
    try:
        async with contextlib.AsyncExitStack() as clients:
            async with _serving(data_dir) as base:
                writers = await _writers(base, clients)
                load = [asyncio.create_task(writer.run(stop)) for writer in writers]
                await _noticed(
                    lambda: all(len(w.successes_after(0)) >= 10 for w in writers), "the load"
                )
                killed = time.monotonic()
                await asyncio.to_thread(kill_9, postmaster_pid(data_dir))
                await _noticed(lambda: all(w.refused_after(killed) for w in writers), "the outage")
                # Started again by another process, which lets go: the server holds it.
                restarted = EmbeddedPostgres(data_dir)
                await asyncio.to_thread(restarted.start)
                assert await asyncio.to_thread(restarted.stop) is False
                back = time.monotonic()
                await _noticed(
                    lambda: all(len(w.successes_after(back)) >= 10 for w in writers), "the recovery"
                )
                # Out of this block: SIGTERM, under load.
                stopping = time.monotonic()
            stop.set()
            await asyncio.gather(*load)
        # It stopped its embedded PostgreSQL.
        assert running_url(data_dir) is None
        assert processes_of(data_dir) == []
        await asyncio.to_thread(checking.start)
        await _acknowledged_writes_are_stored(data_dir, writers)
    finally:
        checking.stop()

    assert [problem for writer in writers for problem in writer.wrong_before(stopping)] == []
    recovered = min(writer.successes_after(back)[0] for writer in writers) - back
    assert recovered < RECOVERY_SECONDS


async def test_sigterm_ends_the_server_at_once_with_its_database_down_and_websockets_open(
    embedded_dir: Path,
) -> None:
    data_dir = embedded_dir / "postgres"
    try:
        async with contextlib.AsyncExitStack() as sockets:
            async with _serving(data_dir) as base, httpx.AsyncClient(base_url=base) as client:
                api = Api(client, base)
                alice = await api.account("Alice")
                game = await api.new_game(alice)
                lives = [
                    await sockets.enter_async_context(Live.open(base, game.id, token=alice.token))
                    for _ in range(3)
                ]
                for live in lives:
                    await live.wait_for(lambda messages: bool(messages))
                await asyncio.to_thread(kill_9, postmaster_pid(data_dir))
                # The server has noticed: it answers 503 now.
                down = await client.get("/v1/games")
            # SIGTERM went with the sockets still open.
            await until(lambda: all(live.close_code is not None for live in lives))
            closed = [live.close_code for live in lives]
        assert processes_of(data_dir) == []
        assert running_url(data_dir) is None
    finally:
        EmbeddedPostgres(data_dir).stop()

    assert down.status_code == 503
    assert closed == [1012, 1012, 1012]


async def test_with_the_database_cut_off_every_request_is_a_503_on_the_same_connection(
    schema_url: str,
) -> None:
    link = CuttableLink(schema_url)
    await link.restore()
    environment = {**os.environ, "DATABASE_URL": link.url}
    connections: set[object] = set()

    async def note_connection(response: httpx.Response) -> None:
        connections.add(_connection_of(response))

    hooks = {"response": [note_connection]}
    try:
        async with (
            serve_subprocess(environment=environment) as base,
            httpx.AsyncClient(base_url=base, event_hooks=hooks) as client,
        ):
            api = Api(client, base)
            alice = await api.account("Alice")
            game = (await api.new_game(alice)).id
            await link.cut()
            down = [
                await client.post("/v1/accounts", json={"name": "Bob"}),
                await client.get("/v1/games"),
                await client.get(f"/v1/games/{game}/orders", headers=alice.auth),
                await client.get(f"/v1/games/{game}", headers=alice.auth),
                await client.get("/v1/health"),
            ]
            await link.restore()
            cut_off_until = time.monotonic()
            again = None
            async with asyncio.timeout(RECOVERY_SECONDS):
                while again is None or again.status_code != 200:
                    again = await client.get(f"/v1/games/{game}", headers=alice.auth)
            recovered = time.monotonic() - cut_off_until
    finally:
        await link.cut()

    for response in down:
        assert response.status_code == 503, response.text
        assert response.headers["retry-after"] == "2"
        assert response.json()["error"]["code"] == "database_unavailable"
    # One keep-alive connection carried every request, across the cut.
    assert len(connections) == 1
    assert recovered < RECOVERY_SECONDS
