"""Verifying a game's history against what PostgreSQL holds: a game played through the
service verifies, and a row changed, reordered or removed by hand is found, as is a history
rewritten with a consistent chain whose resolutions no longer follow from the rules."""

import asyncpg
import msgspec
import pytest

from eventstore import chain
from eventstore.postgres import PostgresEventStore
from projections.loading import stream_of
from schema.game_events import TurnResolved, game_codec
from schema.verification import Anchor
from server.game.handlers import GameService
from server.ops.verify import describe, verify_stored
from tests.server.running import run_skirmish
from tests.server.scripted import ScriptedGame

STREAM = stream_of("g1")


@pytest.fixture
async def played(postgres_store: PostgresEventStore) -> PostgresEventStore:
    """Game g1: three turns played, one of them rewound and played again."""
    game = ScriptedGame(GameService(postgres_store))
    await game.set_up()
    await game.play_turn()
    await game.play_turn()
    await game.rewind()
    await game.play_turn()
    await game.play_turn()
    return postgres_store


async def _version_of(pool: asyncpg.Pool, type_: str, which: str = "min") -> int:
    """The first (or with "max", the last) version of an event of the type."""
    version: int = await pool.fetchval(
        f"SELECT {which}(version) FROM events WHERE stream_id = $1 AND type = $2", STREAM, type_
    )
    return version


async def test_a_game_played_with_a_rewind_verifies(played: PostgresEventStore) -> None:
    found = await verify_stored(played, "g1")

    stream = await played.read_stream(STREAM)
    assert found.ok, describe(found)
    assert (found.events, found.head) == (len(stream), stream[-1].hash.hex())
    assert found.archived > 0
    assert found.turns_replayed == 3
    assert describe(found).endswith(f": ok, head {found.head}")


async def test_a_row_changed_by_hand_is_found(
    played: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    version = await _version_of(pool, "turn_resolved.v1")
    await pool.execute(
        "UPDATE events SET actor = 'someone else' WHERE stream_id = $1 AND version = $2",
        STREAM,
        version,
    )

    found = await verify_stored(played, "g1")

    assert not found.ok
    assert found.chain_break is not None
    assert (found.chain_break.version, found.chain_break.type) == (version, "turn_resolved.v1")
    assert found.chain_break.reason == (
        "its hash does not follow from its content and the events before it"
    )
    assert f"the hash chain breaks at version {version}" in describe(found)


async def test_a_reordered_row_is_found(played: PostgresEventStore, pool: asyncpg.Pool) -> None:
    # Two events trade places (through a free version: the key is checked row by row).
    moved = (await played.read_stream(STREAM))[3].position
    async with pool.acquire() as connection, connection.transaction():
        for old, new in ((3, 1_000_000), (4, 3), (1_000_000, 4)):
            await connection.execute(
                "UPDATE events SET version = $3 WHERE stream_id = $1 AND version = $2",
                STREAM,
                old,
                new,
            )

    found = await verify_stored(played, "g1")

    assert found.chain_break is not None
    assert (found.chain_break.version, found.chain_break.position) == (3, moved)


async def test_a_deleted_row_is_found(played: PostgresEventStore, pool: asyncpg.Pool) -> None:
    await pool.execute("DELETE FROM events WHERE stream_id = $1 AND version = 5", STREAM)

    found = await verify_stored(played, "g1")

    assert found.chain_break is not None
    assert found.chain_break.version == 5
    assert found.chain_break.reason == "the event at version 5 is missing"


async def test_a_deleted_last_row_is_found_by_the_head(
    played: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    last = await played.stream_version(STREAM)
    await pool.execute("DELETE FROM events WHERE stream_id = $1 AND version = $2", STREAM, last)

    found = await verify_stored(played, "g1")

    assert found.chain_break is not None
    assert found.chain_break.version == last
    assert found.chain_break.reason == f"the stream's head says {last} events, {last - 1} remain"


async def test_an_archived_row_changed_by_hand_is_found(
    played: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    (truncation,) = await played.read_archive(STREAM)
    archived = truncation.events[0]
    await pool.execute(
        "UPDATE archived_events SET data = $3 WHERE stream_id = $1 AND version = $2",
        STREAM,
        archived.version,
        archived.data.replace(b"}", b" }", 1),
    )

    found = await verify_stored(played, "g1")

    assert found.chain_break is not None
    assert (found.chain_break.version, found.chain_break.truncation_id) == (
        archived.version,
        truncation.truncation_id,
    )


async def _rewrite_from(pool: asyncpg.Pool, played: PostgresEventStore, version: int) -> None:
    """Give one more VP to a player in the resolution at `version`, and recompute the hash
    of every event from there on, as someone who knows the chain would."""
    stream = await played.read_stream(STREAM)
    resolved = game_codec.decode_recorded(stream[version - 1])
    assert isinstance(resolved, TurnResolved)
    player = min(resolved.vp)
    vp = {**resolved.vp, player: resolved.vp[player] + 1}
    stream[version - 1] = msgspec.structs.replace(
        stream[version - 1], data=game_codec.encode(msgspec.structs.replace(resolved, vp=vp))
    )
    previous = stream[version - 2].hash
    async with pool.acquire() as connection, connection.transaction():
        for event in stream[version - 1 :]:
            previous = chain.link(previous, STREAM, event.version, event)
            await connection.execute(
                "UPDATE events SET data = $3, hash = $4 WHERE stream_id = $1 AND version = $2",
                *(STREAM, event.version, event.data, previous),
            )


async def test_a_history_rewritten_with_its_chain_is_found_by_the_replay(
    played: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    # The last resolution: the archive (which chains from before the rewind) stays true.
    version = await _version_of(pool, "turn_resolved.v1", "max")
    await _rewrite_from(pool, played, version)

    found = await verify_stored(played, "g1")

    assert found.chain_break is None
    assert not found.ok
    assert [d.turn for d in found.differences] == [3]
    assert found.differences[0].changes[0].field.startswith("vp.")


async def test_skirmish_verify_exits_1_for_a_game_that_differs_and_0_for_one_that_does_not(
    played: PostgresEventStore, pool: asyncpg.Pool, schema_url: str
) -> None:
    other = ScriptedGame(GameService(played), game_id="g2")
    await other.set_up()
    await other.play_turn()
    await pool.execute("DELETE FROM events WHERE stream_id = $1 AND version = 2", STREAM)

    done = await run_skirmish(schema_url, "verify")
    assert done.returncode == 1, done.stderr
    assert "game g1: " in done.stdout
    assert "DIFFERS\n  the hash chain breaks at version 2" in done.stdout
    assert "game g2: " in done.stdout
    assert "verified 2 games: 1 differ" in done.stderr
    one = await run_skirmish(schema_url, "verify", "--game", "g2")
    assert one.returncode == 0, one.stderr
    assert one.stdout.startswith("game g2: ")
    assert ": ok, head " in one.stdout
    missing = await run_skirmish(schema_url, "verify", "--game", "nosuch")
    assert (missing.returncode, missing.stdout) == (2, "")
    assert "error: there is no game nosuch" in missing.stderr


async def test_skirmish_verify_stops_at_a_game_of_skirmish_games_it_cannot_load(
    schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It registers them as the server does (tests/games replays such games through it).
    monkeypatch.setenv("SKIRMISH_GAMES", "no_such_module:GAME")
    done = await run_skirmish(schema_url, "verify")
    assert (done.returncode, done.stdout) == (2, ""), done
    assert "error: SKIRMISH_GAMES: cannot load 'no_such_module:GAME'" in done.stderr


async def test_a_history_rewritten_before_a_rewind_is_found_by_the_archives_chain(
    played: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    # The first resolution, which the rewound turn's archived events follow on from.
    version = await _version_of(pool, "turn_resolved.v1")
    await _rewrite_from(pool, played, version)

    found = await verify_stored(played, "g1")

    (truncation,) = await played.read_archive(STREAM)
    assert version < truncation.after_version
    assert found.chain_break is not None
    assert (found.chain_break.version, found.chain_break.truncation_id) == (
        truncation.after_version + 1,
        truncation.truncation_id,
    )


async def _cut_tail(pool: asyncpg.Pool, stream: str, events: int) -> None:
    """Delete the stream's last `events` rows and rewrite its head to match: the remaining
    chain is whole, so that only an anchor can tell."""
    async with pool.acquire() as connection, connection.transaction():
        kept: int = await connection.fetchval(
            "SELECT version FROM streams WHERE stream_id = $1", stream
        )
        kept -= events
        await connection.execute(
            "DELETE FROM events WHERE stream_id = $1 AND version > $2", stream, kept
        )
        await connection.execute(
            "UPDATE streams SET version = $2, position = (SELECT position FROM events "
            "WHERE stream_id = $1 AND version = $2) WHERE stream_id = $1",
            stream,
            kept,
        )


async def test_an_anchor_finds_a_tail_cut_that_the_chain_alone_cannot(
    played: PostgresEventStore, pool: asyncpg.Pool
) -> None:
    stream = await played.read_stream(STREAM)
    head = stream[-1].hash
    (truncation,) = await played.read_archive(STREAM)
    rewound = truncation.events[-1]

    kept = await verify_stored(played, "g1", expected_head=stream[-3].hash)
    assert kept.ok, describe(kept)
    assert kept.anchor == Anchor(
        hash=stream[-3].hash.hex(), found="live", version=len(stream) - 2, reason=None
    )
    archived = await verify_stored(played, "g1", expected_head=rewound.hash)
    assert archived.ok, describe(archived)
    assert archived.anchor == Anchor(
        hash=rewound.hash.hex(), found="archived", version=rewound.version, reason=None
    )

    await _cut_tail(pool, STREAM, 2)
    plain = await verify_stored(played, "g1")
    anchored = await verify_stored(played, "g1", expected_head=head)

    assert plain.ok, describe(plain)
    assert plain.anchor is None
    assert not anchored.ok
    assert anchored.chain_break is None
    assert anchored.anchor == Anchor(
        hash=head.hex(),
        found=None,
        version=None,
        reason="the history holds no event of this hash: events were removed or rewritten",
    )
    assert f"the head {head.hex()} seen before is missing" in describe(anchored)
    still = await verify_stored(played, "g1", expected_head=stream[-3].hash)
    assert still.ok


async def test_skirmish_verify_takes_an_expected_head(
    played: PostgresEventStore, pool: asyncpg.Pool, schema_url: str
) -> None:
    head = (await played.read_stream(STREAM))[-1].hash.hex()
    seen = await run_skirmish(schema_url, "verify", "--game", "g1", "--expected-head", head)
    assert seen.returncode == 0, seen.stderr
    await _cut_tail(pool, STREAM, 1)

    cut = await run_skirmish(schema_url, "verify", "--game", "g1", "--expected-head", head)
    plain = await run_skirmish(schema_url, "verify", "--game", "g1")
    alone = await run_skirmish(schema_url, "verify", "--expected-head", head)
    bad = await run_skirmish(schema_url, "verify", "--game", "g1", "--expected-head", "xyz")

    assert cut.returncode == 1, cut.stderr
    assert f"the head {head} seen before is missing" in cut.stdout
    assert plain.returncode == 0, plain.stderr
    assert alone.returncode == bad.returncode == 2
    assert "--expected-head needs --game" in alone.stderr
    assert "64 hexadecimal digits" in bad.stderr
