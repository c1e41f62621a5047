"""The read-model queries the routes run (projections/queries.py), over read models the
runner wrote on real PostgreSQL."""

import asyncpg
import msgspec
import pytest

from eventstore.postgres import PostgresEventStore
from projections import queries
from projections.runner import ReadModelRunner
from schema.accounts import MyGame
from schema.api import GameSummary
from schema.commands import Actor, AddAdmin, CreateGame, JoinGame, KillGame, Resign
from schema.game_events import Settings, TurnResolved
from server.game.handlers import GameService
from tests.server.scripted import ADMIN, ScriptedGame


async def test_the_game_list_pages_by_id_and_leaves_killed_games_out(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    service = GameService(postgres_store)
    for game_id in ("a", "b", "c"):
        await ScriptedGame(service, game_id, players=3).set_up()
    killed = ScriptedGame(service, "d", players=3)
    await killed.set_up()
    await killed.run(KillGame(actor=Actor(ADMIN), now=killed.now))
    await ReadModelRunner(postgres_store, pool).catch_up()

    first = await queries.games(pool, None, "", 2)
    assert [g.id for g in first.items] == ["a", "b"]
    assert first.next == "b"
    rest = await queries.games(pool, None, "b", 2)
    assert [g.id for g in rest.items] == ["c"]
    assert rest.next is None
    assert all(isinstance(g, GameSummary) and g.phase == "running" for g in rest.items)
    assert (await queries.games(pool, "joining", "", 10)).items == []


async def test_a_callers_games_carry_their_seat_and_whether_they_are_an_admin(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    service = GameService(postgres_store)
    runner = ReadModelRunner(postgres_store, pool)
    played = ScriptedGame(service, "played", players=3)
    await played.set_up()
    await played.play_turn()
    # acct-2 resigns; acct-9 is made an admin without a seat.
    await played.run(Resign(actor=Actor("acct-2"), now=played.tick(0.1)))
    await played.run(AddAdmin(actor=Actor(ADMIN), now=played.now, accounts=("acct-9",)))
    # Through a trusted client, whose vouched users are admins of the games set up through it.
    joining = ScriptedGame(service, "joining")
    await joining.run(
        CreateGame(
            actor=Actor("acct-5"),
            now=joining.now,
            game_id="joining",
            settings=Settings(name="Open"),
            seed=1,
            client_id="client_1",
        )
    )
    await joining.run(JoinGame(actor=Actor("acct-2"), now=joining.now, name="Two"))
    sandbox = ScriptedGame(service, "sandbox")
    await sandbox.run(
        CreateGame(
            actor=Actor("acct-2"),
            now=sandbox.now,
            game_id="sandbox",
            settings=Settings(name="Alone", sandbox=True),
            seed=1,
        )
    )
    await sandbox.run(JoinGame(actor=Actor("acct-2"), now=sandbox.now, name="Red"))
    await sandbox.run(JoinGame(actor=Actor("acct-2"), now=sandbox.now, name="Blue"))
    await runner.catch_up()

    page = await queries.games_of(pool, "acct-2", None, "", 10)
    assert page.next is None
    by_id = {game.id: game for game in page.items}
    assert list(by_id) == ["joining", "played", "sandbox"]
    assert by_id["played"].player == "p2"
    assert by_id["played"].player_status == "resigned"
    assert not by_id["played"].admin
    assert by_id["played"].turn == 2
    assert (by_id["joining"].player, by_id["joining"].admin) == ("p1", False)
    # A sandbox's admin plays every seat: none is named.
    assert (by_id["sandbox"].player, by_id["sandbox"].admin) == (None, True)
    assert all(isinstance(g, MyGame) and g.position > 0 for g in page.items)

    vouched = await queries.games_of(pool, "acct-2", "client_1", "", 10)
    assert [g.admin for g in vouched.items] == [True, False, True]
    # Another client's vouching is nothing here.
    other = await queries.games_of(pool, "acct-2", "client_2", "", 10)
    assert [g.admin for g in other.items] == [False, False, True]

    (listed_admin,) = (await queries.games_of(pool, "acct-9", None, "", 10)).items
    assert (listed_admin.id, listed_admin.player, listed_admin.admin) == ("played", None, True)
    first = await queries.games_of(pool, "acct-2", None, "", 1)
    assert ([g.id for g in first.items], first.next) == (["joining"], "joining")

    await played.run(KillGame(actor=Actor(ADMIN), now=played.now))
    await runner.catch_up()
    assert [g.id for g in (await queries.games_of(pool, "acct-2", None, "", 10)).items] == [
        "joining",
        "sandbox",
    ]


async def test_members_follow_rewinds_and_a_rebuild_gives_the_same_rows(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    service = GameService(postgres_store)
    runner = ReadModelRunner(postgres_store, pool)
    game = ScriptedGame(service, players=3)
    await game.set_up()
    await runner.catch_up()
    await game.run(AddAdmin(actor=Actor(ADMIN), now=game.now, accounts=("acct-3",)))
    await runner.catch_up()
    assert [g.admin for g in (await queries.games_of(pool, "acct-3", None, "", 5)).items] == [True]
    live = await pool.fetch("SELECT * FROM read_members ORDER BY game_id, account_id")
    await runner.reset()
    await runner.catch_up()
    assert await pool.fetch("SELECT * FROM read_members ORDER BY game_id, account_id") == live


async def test_a_turn_is_read_only_once_the_read_models_hold_the_position_asked_for(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    service = GameService(postgres_store)
    runner = ReadModelRunner(postgres_store, pool)
    game = ScriptedGame(service, players=3)
    await game.set_up()
    resolved = await game.play_turn()
    await runner.catch_up()

    first = await queries.turn(pool, "g1", 1, position=resolved.position)
    assert first is not None
    assert first.resolution is not None
    assert first.resolution.turn == 1
    assert first.position == resolved.position
    second = await queries.turn(pool, "g1", 2, position=resolved.position)
    assert second is not None
    assert second.resolution is None
    assert second.start_board == first.resolution.board
    assert await queries.turn(pool, "g1", 3, position=resolved.position) is None

    # Asked for before the runner gets there: refused, never answered as it was (reads.py
    # waits for the runner first).
    ahead = await game.play_turn()
    with pytest.raises(queries.ReadModelsBehind):
        await queries.turn(pool, "g1", 2, position=ahead.position)
    await runner.catch_up()
    caught_up = await queries.turn(pool, "g1", 2, position=ahead.position)
    assert caught_up is not None
    assert caught_up.resolution is not None
    assert caught_up.position == ahead.position

    # A game whose read models fail is refused, never answered as it was.
    await pool.execute(
        "ALTER TABLE read_games ADD CONSTRAINT refused CHECK (game_id <> 'g1' OR turn < 4) "
        "NOT VALID"
    )
    failing = await game.play_turn()
    await runner.catch_up()
    with pytest.raises(queries.ReadModelsBehind):
        await queries.turn(pool, "g1", 3, position=failing.position)


async def test_a_turn_is_kept_as_the_json_the_runner_wrote_compressed_where_lz4_is_built_in(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    """Stored as written (json), not parsed into jsonb, which costs PostgreSQL several times
    as much on every write and read and would give back other text."""
    service = GameService(postgres_store)
    game = ScriptedGame(service, players=3)
    await game.set_up()
    resolved = await game.play_turn()
    await ReadModelRunner(postgres_store, pool).catch_up()

    (resolution,) = [e for e in resolved.events if isinstance(e, TurnResolved)]
    stored = await pool.fetchval("SELECT resolution::text FROM read_turns WHERE turn = 1")
    assert stored == msgspec.json.encode(resolution).decode()
    columns = await pool.fetch(
        "SELECT a.attname, format_type(a.atttypid, NULL), a.attcompression::text "
        "FROM pg_attribute a WHERE a.attrelid = 'read_turns'::regclass "
        "AND a.attname IN ('start_board', 'resolution')"
    )
    lz4 = await pool.fetchval(
        "SELECT EXISTS (SELECT 1 FROM pg_settings "
        "WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals))"
    )
    assert sorted(tuple(c) for c in columns) == [
        ("resolution", "json", "l" if lz4 else ""),
        ("start_board", "json", "l" if lz4 else ""),
    ]
