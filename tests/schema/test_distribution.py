"""The migrated schema keeps the path to Citus open (docs/eventstore.md, "Scaling out with
Citus"): every table is declared here as distributed (by which column) or as a reference
table, and every distributed table has its column in each primary key, unique index and
foreign key, as Citus requires. A new table, key or trigger that would close the path
fails here with what to do about it."""

import asyncpg

# The event store, one colocation group: a game's stream and everything of it on one shard.
BY_STREAM = ("streams", "events", "truncations", "archived_events", "snapshots")
# The per-game tables (read models, webhooks), another group: keyed by the game's id, which
# is not its stream's id (`game-` + id), so they are colocated with one another only.
BY_GAME = (
    "read_games",
    "read_turns",
    "read_members",
    "read_model_failures",
    "webhooks",
    "webhook_deliveries",
)
DISTRIBUTED = dict.fromkeys(BY_STREAM, "stream_id") | dict.fromkeys(BY_GAME, "game_id")
# Small tables read by every node: copied whole to each (create_reference_table).
REFERENCE = frozenset(
    (
        "accounts",
        "account_tokens",
        "clients",
        "projection_checkpoints",
        "schema_migrations",
        "fake_clock",
    )
)
# Triggers on distributed tables, each of which reads or writes rows of its own row's
# stream only (so runs on the row's shard). 0009: the hash chain looks up the same stream's
# previous event; 0013: the head position's updates the same stream's head row.
WITHIN_ONE_STREAM = frozenset(("events_hash_chain", "events_head_position"))

_TABLES = """
SELECT c.relname FROM pg_class AS c
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')"""
_COLUMN_TYPES = """
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull
FROM pg_attribute AS a JOIN pg_class AS c ON c.oid = a.attrelid
WHERE c.relnamespace = current_schema()::regnamespace AND a.attnum > 0 AND NOT a.attisdropped"""
# Primary keys, unique constraints and unique indexes alike; expressions name no column.
_UNIQUE = """
SELECT t.relname, i.relname,
       array(SELECT a.attname FROM unnest(x.indkey) AS k
             JOIN pg_attribute AS a ON a.attrelid = x.indrelid AND a.attnum = k)
FROM pg_index AS x
JOIN pg_class AS t ON t.oid = x.indrelid
JOIN pg_class AS i ON i.oid = x.indexrelid
WHERE x.indisunique AND t.relnamespace = current_schema()::regnamespace"""
# Each foreign key as pairs of (referencing column, referenced column).
_FOREIGN = """
SELECT f.conname, t.relname, r.relname,
       array(SELECT a.attname FROM unnest(f.conkey) WITH ORDINALITY AS k(n, i)
             JOIN pg_attribute AS a ON a.attrelid = f.conrelid AND a.attnum = k.n ORDER BY k.i),
       array(SELECT a.attname FROM unnest(f.confkey) WITH ORDINALITY AS k(n, i)
             JOIN pg_attribute AS a ON a.attrelid = f.confrelid AND a.attnum = k.n ORDER BY k.i)
FROM pg_constraint AS f
JOIN pg_class AS t ON t.oid = f.conrelid
JOIN pg_class AS r ON r.oid = f.confrelid
WHERE f.contype = 'f' AND f.connamespace = current_schema()::regnamespace"""
_TRIGGERS = """
SELECT t.relname, g.tgname FROM pg_trigger AS g JOIN pg_class AS t ON t.oid = g.tgrelid
WHERE NOT g.tgisinternal AND t.relnamespace = current_schema()::regnamespace"""


async def test_every_table_is_declared_distributed_or_reference(pool: asyncpg.Pool) -> None:
    tables = {row[0] for row in await pool.fetch(_TABLES)}
    undeclared = tables - DISTRIBUTED.keys() - REFERENCE
    assert not undeclared, (
        f"tables {sorted(undeclared)} are neither in DISTRIBUTED (by stream_id or game_id) "
        "nor in REFERENCE: say how Citus would hold them (docs/eventstore.md)"
    )
    assert not (DISTRIBUTED.keys() | REFERENCE) - tables, "declared tables that do not exist"


async def test_distribution_columns_are_text_and_never_null(pool: asyncpg.Pool) -> None:
    # Colocated tables must hash one type of value alike; a null has no shard.
    columns = {(row[0], row[1]): (row[2], row[3]) for row in await pool.fetch(_COLUMN_TYPES)}
    for table, column in DISTRIBUTED.items():
        assert columns.get((table, column)) == ("text", True), (
            f"{table}.{column} must be text NOT NULL, not {columns.get((table, column))}"
        )


async def test_every_unique_key_of_a_distributed_table_has_its_column(
    pool: asyncpg.Pool,
) -> None:
    # Citus enforces uniqueness within a shard only, so a key must include the column that
    # picks the shard.
    for table, index, columns in await pool.fetch(_UNIQUE):
        if table in DISTRIBUTED:
            assert DISTRIBUTED[table] in columns, (
                f"unique index {index} on {table} {columns} lacks {DISTRIBUTED[table]}: "
                "Citus could not enforce it across shards"
            )


async def test_foreign_keys_stay_within_a_shard(pool: asyncpg.Pool) -> None:
    for name, table, referenced, columns, referenced_columns in await pool.fetch(_FOREIGN):
        pairs = set(zip(columns, referenced_columns, strict=True))
        if table in REFERENCE:
            assert referenced in REFERENCE, (
                f"{name}: reference table {table} may not refer to distributed {referenced}"
            )
        elif referenced in DISTRIBUTED:
            # Between colocated tables, on the distribution column to itself.
            assert (DISTRIBUTED[table], DISTRIBUTED[referenced]) in pairs, (
                f"{name}: {table} -> {referenced} must join {DISTRIBUTED[table]} to "
                f"{DISTRIBUTED[referenced]}, so that both rows are on one shard"
            )
            assert DISTRIBUTED[table] == DISTRIBUTED[referenced], (
                f"{name}: {table} and {referenced} are in different colocation groups"
            )


async def test_triggers_on_distributed_tables_are_declared_within_one_stream(
    pool: asyncpg.Pool,
) -> None:
    for table, trigger in await pool.fetch(_TRIGGERS):
        if table in DISTRIBUTED:
            assert trigger in WITHIN_ONE_STREAM, (
                f"trigger {trigger} on {table}: if it touches only its own row's stream (or "
                "game), list it in WITHIN_ONE_STREAM; otherwise Citus cannot run it on a shard"
            )
