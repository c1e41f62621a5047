"""The read-model runner's batches on real PostgreSQL: a batch of many games and events
writes the rows that its events write one at a time, and a batch that fails leaves the rows
and the checkpoint as they were."""

import asyncio
from collections.abc import Awaitable
from typing import Any

import asyncpg
import pytest

from eventstore.postgres import PostgresEventStore
from eventstore.records import RecordedEvent
from projections import failures
from projections.runner import ReadModelRunner
from server.game.handlers import GameService
from tests.server.scripted import ScriptedGame
from tests.support import visible_log


async def _tables(pool: asyncpg.Pool) -> dict[str, list[dict[str, Any]]]:
    queries = {
        "games": "SELECT * FROM read_games ORDER BY game_id",
        "turns": "SELECT * FROM read_turns ORDER BY game_id, turn",
        "members": "SELECT * FROM read_members ORDER BY game_id, account_id",
    }
    return {name: [dict(r) for r in await pool.fetch(sql)] for name, sql in queries.items()}


async def _played(store: PostgresEventStore, pool: asyncpg.Pool) -> list[RecordedEvent]:
    """Three games whose events interleave in the log, rewound now and then (twice in a
    row once), with votes every turn so that turns have effects; and the log as a follower
    saw it, with the resolutions that the rewinds took out of it since."""
    service = GameService(store)
    games = [ScriptedGame(service, f"g{n}", players=3 + n) for n in range(3)]
    seen: list[RecordedEvent] = []
    async with store.subscribe() as log, asyncio.timeout(30):

        async def see(action: Awaitable[object]) -> None:
            await action
            last = await pool.fetchval("SELECT max(position) FROM events")
            while not seen or seen[-1].position < last:
                seen.extend(await log.next_batch())

        for game in games:
            await see(game.set_up(votes="every_turn", vote_start_turn=1))
        for round_ in range(3):
            for game in games:
                await see(game.play_turn())
            await see(games[round_].rewind())
        await see(games[0].rewind())
        await see(games[0].rewind())
        await see(games[0].play_turn())
    return seen


async def _rebuilt(store: PostgresEventStore, pool: asyncpg.Pool) -> dict[str, list[Any]]:
    runner = ReadModelRunner(store, pool)
    await runner.reset()
    await runner.catch_up()
    return await _tables(pool)


async def test_batches_of_any_size_write_what_the_events_write_one_at_a_time(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    events = await _played(postgres_store, pool)
    runner = ReadModelRunner(postgres_store, pool)
    for event in events:
        await runner.apply([event])
    one_at_a_time = await _tables(pool)
    assert one_at_a_time == await _rebuilt(postgres_store, pool)

    for size in (2, 3, 7, 20, len(events)):
        batched = ReadModelRunner(postgres_store, pool)
        await batched.reset()
        for start in range(0, len(events), size):
            await batched.apply(events[start : start + size])
        assert await _tables(pool) == one_at_a_time, f"batches of {size}"

    turns = [(r["game_id"], r["turn"], r["resolution"] is None) for r in one_at_a_time["turns"]]
    # g0: 3 turns played, rewound twice, played again; g1, g2: 3 played, 1 rewound.
    assert turns == [
        ("g0", 1, False),
        ("g0", 2, True),
        ("g1", 1, False),
        ("g1", 2, False),
        ("g1", 3, True),
        ("g2", 1, False),
        ("g2", 2, False),
        ("g2", 3, True),
    ]
    # Each game's players and its admin.
    members = [m["game_id"] for m in one_at_a_time["members"]]
    assert [members.count(f"g{n}") for n in range(3)] == [4, 5, 6]
    # With votes every turn, every turn after the first has an effect.
    effects = [r["effect"] for r in one_at_a_time["turns"] if r["turn"] > 1]
    assert len(effects) == 5
    assert None not in effects


async def test_a_runner_that_folded_none_of_the_games_writes_what_the_events_write(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    """As when another process resolved them (the runner leads in one only): each batch's
    games are read from the store, their snapshots together."""
    events = await _played(postgres_store, pool)
    expected = await _rebuilt(postgres_store, pool)
    for size in (7, 20):
        await ReadModelRunner(postgres_store, pool).reset()
        for start in range(0, len(events), size):
            await ReadModelRunner(postgres_store, pool).apply(events[start : start + size])
        assert await _tables(pool) == expected, f"batches of {size}"


async def test_a_batch_that_fails_midway_leaves_the_rows_and_the_checkpoint_as_they_were(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    events = await _played(postgres_store, pool)
    half = len(events) // 2
    runner = ReadModelRunner(postgres_store, pool)
    await runner.apply(events[:half])
    before, checkpoint = await _tables(pool), await runner.checkpoint()
    # The checkpoint is written last, after every row of the batch: refuse it.
    await _refuse_checkpoint_updates(pool)

    with pytest.raises(asyncpg.RaiseError, match="crashed"):
        await runner.apply(events[half:])

    assert await _tables(pool) == before
    assert await runner.checkpoint() == checkpoint
    await pool.execute("DROP TRIGGER refuse ON projection_checkpoints")
    # The same runner goes on from where it was: it remembers nothing of the failed batch.
    assert await runner.catch_up() > 0
    assert await _tables(pool) == await _rebuilt(postgres_store, pool)


async def test_a_game_refused_within_a_batch_fails_alone(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    service = GameService(postgres_store)
    good, bad = ScriptedGame(service, "good"), ScriptedGame(service, "bad")
    for _ in range(2):
        for game in (good, bad):
            if not await postgres_store.stream_version(f"game-{game.game_id}"):
                await game.set_up()
            await game.play_turn()
    await pool.execute(
        "ALTER TABLE read_games ADD CONSTRAINT refused CHECK (game_id <> 'bad' OR turn < 2)"
    )
    runner = ReadModelRunner(postgres_store, pool)
    events = await visible_log(postgres_store, await pool.fetchval("SELECT count(*) FROM events"))

    # Both games in one batch: the batch's statements are refused, so it is written again
    # game by game.
    await runner.apply(events)

    assert await runner.caught_up()
    turns = await pool.fetch("SELECT game_id, turn FROM read_games")
    assert [tuple(row) for row in turns] == [("good", 3)]
    [failing] = await failures.listed(pool)
    assert failing.game_id == "bad"
    assert failing.version == await postgres_store.stream_version("game-bad")
    await pool.execute("ALTER TABLE read_games DROP CONSTRAINT refused")
    await runner.retry_failed()
    assert await failures.listed(pool) == []
    mended = await pool.fetch("SELECT game_id, turn FROM read_games ORDER BY game_id")
    assert [tuple(row) for row in mended] == [("bad", 3), ("good", 3)]


async def test_a_catch_up_in_batches_of_any_size_writes_what_one_batch_writes(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    # Each batch is folded while the one before is written, the rewinds' included.
    await _played(postgres_store, pool)
    whole = await _rebuilt(postgres_store, pool)
    total = await pool.fetchval("SELECT count(*) FROM events")

    for size in (1, 2, 3, 7):
        runner = ReadModelRunner(postgres_store, pool, catch_up_batch=size)
        await runner.reset()
        assert await runner.catch_up() == total
        assert await _tables(pool) == whole, f"batches of {size}"


async def test_a_catch_up_whose_write_fails_stops_there_and_goes_on_from_there(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    await _played(postgres_store, pool)
    whole = await _rebuilt(postgres_store, pool)
    runner = ReadModelRunner(postgres_store, pool, catch_up_batch=3)
    await runner.reset()
    # The first batch inserts the checkpoint; the second one's update is refused, while the
    # third one is folded.
    await _refuse_checkpoint_updates(pool)

    with pytest.raises(asyncpg.RaiseError, match="crashed"):
        await runner.catch_up()

    log = await postgres_store.read_all(limit=3)
    assert await runner.checkpoint() == log[-1].checkpoint
    await pool.execute("DROP TRIGGER refuse ON projection_checkpoints")
    assert await runner.catch_up() > 0
    assert await _tables(pool) == whole


async def test_a_game_refused_midway_through_a_catch_up_fails_alone(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    service = GameService(postgres_store)
    good, bad = ScriptedGame(service, "good"), ScriptedGame(service, "bad")
    for game in (good, bad):
        await game.set_up()
    for _ in range(2):
        for game in (good, bad):
            await game.play_turn()
    whole = await _rebuilt(postgres_store, pool)
    runner = ReadModelRunner(postgres_store, pool, catch_up_batch=3)
    await runner.reset()
    await pool.execute(
        "ALTER TABLE read_games ADD CONSTRAINT refused CHECK (game_id <> 'bad' OR turn < 2)"
    )

    # The batches after the one refused were folded on from it: the game is written afresh
    # from its stream in each, and refused again.
    await runner.catch_up()

    [failing] = await failures.listed(pool)
    assert (failing.game_id, failing.version) == (
        "bad",
        await postgres_store.stream_version("game-bad"),
    )
    good_rows = await _tables(pool)
    assert [g for g in good_rows["games"] if g["game_id"] == "good"] == [
        g for g in whole["games"] if g["game_id"] == "good"
    ]
    await pool.execute("ALTER TABLE read_games DROP CONSTRAINT refused")
    await runner.retry_failed()
    assert await failures.listed(pool) == []
    assert await _tables(pool) == whole


async def test_a_long_game_in_one_batch_is_folded_as_one_event_at_a_time(
    postgres_store: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    # More events than a slice of the fold (projections/folding.py), rewinds among them.
    game = ScriptedGame(GameService(postgres_store), "long", players=5)
    await game.set_up(vp_target=50)
    for turn in range(27):
        await game.play_turn()
        if turn % 8 == 7:
            await game.rewind()
    events = await visible_log(postgres_store, await pool.fetchval("SELECT count(*) FROM events"))
    assert len(events) > 2 * 128
    runner = ReadModelRunner(postgres_store, pool)
    await runner.reset()
    for event in events:
        await runner.apply([event])
    one_at_a_time = await _tables(pool)

    assert one_at_a_time == await _rebuilt(postgres_store, pool)


async def _refuse_checkpoint_updates(pool: asyncpg.Pool) -> None:
    """Make every update of the checkpoint fail with 'crashed' (DROP TRIGGER refuse ON
    projection_checkpoints lifts it)."""
    await pool.execute(
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'crashed'; END $$; "
        "CREATE TRIGGER refuse BEFORE UPDATE ON projection_checkpoints "
        "FOR EACH ROW EXECUTE FUNCTION refuse()"
    )
