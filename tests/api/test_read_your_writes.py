"""Reads served by the read models reflect everything the caller was answered before: a
game joined is on /v1/me at once, one started is among the running games of /v1/games,
through the process that wrote it or another; and while the read models cannot catch up
a read is refused with 503 `read_models_behind` and Retry-After, never answered stale."""

import asyncio
import contextlib
from collections.abc import AsyncIterator

import asyncpg

from projections.leading import lead
from projections.runner import READ_MODELS_LOCK
from schema.views import PublicGame
from server.ops.database import dedicated_connections
from tests.api.support import Account, Api, Server, two_serve_processes

ROUNDS = 200
# Each way: the real processes keep their rate limits, 30 games an hour by one account.
ROUNDS_ACROSS_PROCESSES = 15
# A page of /v1/me as long as it gets: every game of a test's player fits on it.
PAGE = 200


async def _joined_and_read(writer: Api, reader: Api, admin: Account, player: Account) -> bool:
    """A new game joined through `writer`, then `player`'s games read through `reader`:
    whether the game is there with the player's seat."""
    game = await writer.new_game(admin)
    joined = await writer.join(game.id, player)
    me = await reader.as_(player).me(limit=PAGE)
    return any(g.id == game.id and g.player == joined.player for g in me.games)


async def test_a_game_joined_is_on_me_at_once_every_time(server: Server) -> None:
    api = server.api
    admin, player = await api.account("Ann"), await api.account("Bob")
    found = [await _joined_and_read(api, api, admin, player) for _ in range(ROUNDS)]
    assert found.count(False) == 0


async def test_a_game_started_is_listed_as_running_at_once(server: Server) -> None:
    api = server.api
    admin, player, third = [await api.account(name) for name in ("Ann", "Bob", "Cy")]
    missed = 0
    for _ in range(ROUNDS // 4):
        game = await _started(api, admin, player, third)
        listed = await api.anyone.list_games(phase="running", limit=200)
        missed += game.id not in {g.id for g in listed.games}
        # The game's own view is read from the store: exact after an order too.
        armies = sorted(t for t, p in game.board.armies.items() if p == "p2")
        accepted = await api.orders(game.id, player, f"{armies[0]} H")
        assert (await api.game(game.id, player)).position >= accepted.position
    assert missed == 0


async def _started(api: Api, *accounts: Account) -> PublicGame:
    admin = accounts[0]
    game = await api.new_game(admin, seed=7)
    for account in accounts:
        await api.join(game.id, account)
    await api.start(game.id, admin)
    return await api.game(game.id)


async def test_a_game_joined_through_one_process_is_on_me_through_another(
    schema_url: str,
) -> None:
    async with two_serve_processes(schema_url) as ((_, api_one), (_, api_two)):
        admin, player = await api_one.account("Ann"), await api_one.account("Bob")
        found = [
            await _joined_and_read(writer, reader, admin, player)
            for _ in range(ROUNDS_ACROSS_PROCESSES)
            for writer, reader in ((api_one, api_two), (api_two, api_one))
        ]
        assert found.count(False) == 0


async def test_reads_are_refused_while_the_read_models_are_held_back(
    server: Server, schema_url: str, pool: asyncpg.Pool
) -> None:
    api = server.api
    admin, player = await api.account("Ann"), await api.account("Bob")
    assert await _joined_and_read(api, api, admin, player)
    game = await api.new_game(admin)
    async with _in_place_of_the_runner(schema_url, pool):
        await api.join(game.id, player)
        for path in ("/v1/me", "/v1/games"):
            response = await api.client.get(path, headers=player.auth)
            assert response.status_code == 503, response.text
            assert response.json()["error"]["code"] == "read_models_behind"
            assert int(response.headers["Retry-After"]) > 0
    me = await api.as_(player).me(limit=PAGE)
    assert game.id in {g.id for g in me.games}


@contextlib.asynccontextmanager
async def _in_place_of_the_runner(schema_url: str, pool: asyncpg.Pool) -> AsyncIterator[None]:
    """The server's runner held back: the test takes the runner's lock from it, as another
    process would that leads but folds nothing. Not by holding a transaction open (a row
    lock on the checkpoint, say): an open transaction holds back what every schema's
    runner may read of the log (docs/operations.md, "Tests"), which stalled the other
    tests beside this one. The test queues for the lock, then cuts the runner's lock
    connection, so that the lock passes to the test and the runner queues behind it; on
    the way out the lock is let go and the runner leads again."""
    holding, release = asyncio.Event(), asyncio.Event()
    connections: list[asyncpg.Connection] = []
    connect = dedicated_connections(schema_url)

    @contextlib.asynccontextmanager
    async def kept() -> AsyncIterator[asyncpg.Connection]:
        async with connect() as connection:
            connections.append(connection)
            yield connection

    async def hold() -> None:
        holding.set()
        await release.wait()

    leading = asyncio.create_task(lead(kept, READ_MODELS_LOCK, hold))
    try:
        async with asyncio.timeout(10):
            runner: list[int] = []
            while not runner:  # a wait seen in the database only
                await asyncio.sleep(0.01)
                if connections:
                    pid = connections[0].get_server_pid()
                    runner = await pool.fetchval("SELECT pg_blocking_pids($1)", pid)
            assert len(runner) == 1, runner  # the runner's lock connection, and nothing else
            await pool.execute("SELECT pg_terminate_backend($1)", runner[0])
            await holding.wait()
        yield
    finally:
        release.set()
        if not holding.is_set():  # still queued for the lock: given up
            leading.cancel()
        await asyncio.wait([leading])
    await leading  # its failure, if any (the lock's connection lost, say)
