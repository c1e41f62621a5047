"""The SQL of the PostgreSQL store (tables: schema/sql/0001_eventstore.sql).

Every statement names its stream, except the global read; all are unqualified, so they run in
the connection's current schema.
"""

COLUMNS_AFTER_STREAM = (
    "version, position, transaction_id, event_id, type, data, "
    "occurred_at, actor, correlation_id, causation_id, hash"
)
COLUMNS = f"stream_id, {COLUMNS_AFTER_STREAM}"

# --- A lone append: one statement, one round trip, its own transaction. -------------------
# The head row moves by $2 events under its row lock, and events are inserted only if it
# moved; each variant returns the version before the append as `base`.
_HEAD_FOR_NEW_STREAM = """
    INSERT INTO streams AS s (stream_id, version) VALUES ($1, $2::bigint)
    ON CONFLICT (stream_id) DO UPDATE SET version = s.version + $2::bigint WHERE s.version = 0
    RETURNING s.version - $2::bigint AS base"""
_HEAD_ANYWHERE = """
    INSERT INTO streams AS s (stream_id, version) VALUES ($1, $2::bigint)
    ON CONFLICT (stream_id) DO UPDATE SET version = s.version + $2::bigint
    RETURNING s.version - $2::bigint AS base"""
_HEAD_AT_VERSION = """
    UPDATE streams SET version = version + $2::bigint WHERE stream_id = $1 AND version = $10
    RETURNING version - $2::bigint AS base"""
# The position of the stream's last event as well ($11): the head row's, which the
# events_head_position trigger (schema/sql/0013_head_position.sql) keeps.
_HEAD_AT_VERSION_AND_POSITION = """
    UPDATE streams SET version = version + $2::bigint
    WHERE stream_id = $1 AND version = $10 AND position = $11
    RETURNING version - $2::bigint AS base"""

_INSERT_ONE = """
INSERT INTO events (stream_id, version, event_id, type, data, occurred_at, actor,
                    correlation_id, causation_id)
SELECT $1, head.base + 1, $3::uuid, $4::text, $5::bytea, $6::timestamptz, $7::text,
       $8::uuid, $9::uuid
FROM head"""

# Arrays cost more to encode than scalars, so they are only used for several events.
_INSERT_MANY = """
INSERT INTO events (stream_id, version, event_id, type, data, occurred_at, actor,
                    correlation_id, causation_id)
SELECT $1, head.base + e.n, e.event_id, e.type, e.data, e.occurred_at, e.actor,
       e.correlation_id, e.causation_id
FROM head, unnest($3::uuid[], $4::text[], $5::bytea[], $6::timestamptz[], $7::text[],
                  $8::uuid[], $9::uuid[])
     WITH ORDINALITY AS e(event_id, type, data, occurred_at, actor, correlation_id,
                          causation_id, n)"""


_SAVE_SNAPSHOT_ON_CONFLICT = """
ON CONFLICT (stream_id, name, version)
DO UPDATE SET position = EXCLUDED.position, data = EXCLUDED.data"""


def _append(head: str, insert: str, snapshot_parameter: int | None) -> str:
    """With `snapshot_parameter` n, $n is a snapshot's name, $n+1 its data, and $n+2 the
    number of the event (1 for the first of the append) it was folded up to."""
    returning = "\nRETURNING version, position, transaction_id"
    if snapshot_parameter is None:
        return f"WITH head AS ({head}){insert}{returning}"
    n = snapshot_parameter
    return f"""WITH head AS ({head}),
appended AS ({insert}{returning}),
snapshot AS (
    INSERT INTO snapshots (stream_id, name, version, position, data)
    SELECT $1, ${n}::text, a.version, a.position, ${n + 1}::bytea FROM appended AS a, head
    WHERE a.version = head.base + ${n + 2}::bigint{_SAVE_SNAPSHOT_ON_CONFLICT})
SELECT version, position, transaction_id FROM appended"""


# Keyed by (kind of expected version, several events?, a snapshot with them?). The expected
# version, when there is one, is $10, and an expected position $11; a snapshot's parameters
# follow the others.
APPEND = {
    (kind, many, snapshot): _append(
        head, _INSERT_MANY if many else _INSERT_ONE, first_free if snapshot else None
    )
    for kind, head, first_free in (
        ("new", _HEAD_FOR_NEW_STREAM, 10),
        ("anywhere", _HEAD_ANYWHERE, 10),
        ("at", _HEAD_AT_VERSION, 11),
        ("at head", _HEAD_AT_VERSION_AND_POSITION, 12),
    )
    for many in (False, True)
    for snapshot in (False, True)
}

_BATCH_ARGUMENTS = ", ".join(f"${n}" for n in range(1, 13))
APPEND_BATCH = f"SELECT * FROM append_batch({_BATCH_ARGUMENTS})"
# The same, and the snapshots of the requests that are appended ($13: their requests'
# numbers, from 1; $14, $15, $16: their streams, names and data), in the same statement.
APPEND_BATCH_WITH_SNAPSHOTS = f"""
WITH judged AS (
    SELECT * FROM append_batch({_BATCH_ARGUMENTS})
    WITH ORDINALITY AS j(verdict, version, position, transaction_id, clashes, n)
),
snapshot AS (
    INSERT INTO snapshots (stream_id, name, version, position, data)
    SELECT q.stream_id, q.name, j.version, j.position, q.data
    FROM judged AS j
    JOIN unnest($13::bigint[], $14::text[], $15::text[], $16::bytea[])
         AS q(n, stream_id, name, data) ON q.n = j.n
    WHERE j.verdict = 'appended'{_SAVE_SNAPSHOT_ON_CONFLICT}
)
SELECT verdict, version, position, transaction_id, clashes FROM judged ORDER BY n"""

FIND_RECORDED = """
SELECT event_id, version, position, transaction_id FROM events
WHERE stream_id = $1 AND event_id = ANY($2::uuid[])"""

# The version and the position of the last event.
HEAD = "SELECT version, position FROM streams WHERE stream_id = $1"

# Why an append found nothing to do, in one round trip: the stream's head on every row, and
# on each further row one of the append's events already recorded (a re-send).
REFUSAL = """
SELECT head.version, head.position, e.event_id, e.version, e.position, e.transaction_id
FROM (SELECT 1) AS one
LEFT JOIN streams AS head ON head.stream_id = $1
LEFT JOIN events AS e ON e.stream_id = $1 AND e.event_id = ANY($2::uuid[])"""

# --- Reads. ---------------------------------------------------------------------------------
# Only transactions older than every running one: none of them can still commit, so nothing
# can later appear before the last event returned.
_READ_ALL = """
SELECT {} FROM events
WHERE (transaction_id, position) > ($1::xid8, $2::bigint)
  AND transaction_id < (SELECT pg_snapshot_xmin(pg_current_snapshot()))
ORDER BY transaction_id, position
LIMIT $3"""
READ_ALL = _READ_ALL.format(COLUMNS)
# What a BriefEvent holds.
READ_ALL_BRIEF = _READ_ALL.format("stream_id, version, position, transaction_id, type, data")

# Committed events beyond the horizon: a reader that found nothing should look again soon.
# Asked of the log's last event, found at the end of its index: "is there any event past the
# horizon" is planned as a scan of the table, which reads all of it when there is none (the
# usual answer).
HELD_BACK = """
SELECT coalesce(
    (SELECT transaction_id FROM events ORDER BY transaction_id DESC LIMIT 1)
        >= pg_snapshot_xmin(pg_current_snapshot()),
    false)"""

# No snapshot guard needed: the head row lock makes a stream's positions commit in order.
READ_STREAM_AFTER_POSITION = f"""
SELECT {COLUMNS} FROM events WHERE stream_id = $1 AND position > $2 ORDER BY position LIMIT $3"""

READ_STREAM = f"""
SELECT {COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version LIMIT $3"""

LIST_STREAMS = """
SELECT stream_id, version FROM streams WHERE stream_id > $1 ORDER BY stream_id LIMIT $2"""

# --- Truncation, archive, snapshots. --------------------------------------------------------
# The head row locked until the transaction ends: the stream's version, then its position.
LOCK_HEAD = "SELECT version, position FROM streams WHERE stream_id = $1 FOR UPDATE"

INSERT_TRUNCATION = """
INSERT INTO truncations (stream_id, after_version, truncated_by, reason, truncated_at)
VALUES ($1, $2, $3, $4, $5) RETURNING truncation_id"""

ARCHIVE = f"""
WITH moved AS (DELETE FROM events WHERE stream_id = $1 AND version > $2 RETURNING *)
INSERT INTO archived_events (truncation_id, {COLUMNS})
SELECT $3, {COLUMNS} FROM moved
RETURNING {COLUMNS}"""

DROP_LATER_SNAPSHOTS = "DELETE FROM snapshots WHERE stream_id = $1 AND version > $2"

SET_HEAD = """
UPDATE streams SET version = $2,
    position = coalesce((SELECT position FROM events WHERE stream_id = $1 AND version = $2), 0)
WHERE stream_id = $1"""

READ_TRUNCATIONS = """
SELECT truncation_id, stream_id, after_version, truncated_by, reason, truncated_at
FROM truncations WHERE stream_id = $1 ORDER BY truncation_id"""

READ_ARCHIVED_EVENTS = f"""
SELECT truncation_id, {COLUMNS} FROM archived_events WHERE stream_id = $1
ORDER BY truncation_id, version"""

SAVE_SNAPSHOT = f"""
INSERT INTO snapshots (stream_id, name, version, position, data) VALUES ($1, $2, $3, $4, $5)
{_SAVE_SNAPSHOT_ON_CONFLICT}"""

# A snapshot counts only while the event it was folded up to is still in the stream.
LOAD_SNAPSHOT = """
SELECT s.stream_id, s.name, s.version, s.position, s.data
FROM snapshots s
JOIN events e ON e.stream_id = s.stream_id AND e.version = s.version AND e.position = s.position
WHERE s.stream_id = $1 AND s.name = $2 AND ($3::bigint IS NULL OR s.version <= $3)
ORDER BY s.version DESC
LIMIT 1"""

# The latest valid snapshot (as above), as a first row whose `data` is the snapshot's and
# whose event columns are empty, then the stream's events after it, in one statement.
READ_FROM_SNAPSHOT = f"""
WITH snapshot AS (
    SELECT s.version, s.position, s.data
    FROM snapshots s
    JOIN events e
      ON e.stream_id = s.stream_id AND e.version = s.version AND e.position = s.position
    WHERE s.stream_id = $1 AND s.name = $2
    ORDER BY s.version DESC
    LIMIT 1
)
SELECT true AS snapshot, version, position, NULL::xid8, NULL::uuid, NULL::text, data,
       NULL::timestamptz, NULL::text, NULL::uuid, NULL::uuid, NULL::bytea
FROM snapshot
UNION ALL
SELECT false, {COLUMNS_AFTER_STREAM} FROM events
WHERE stream_id = $1 AND version > coalesce((SELECT version FROM snapshot), 0)
ORDER BY 2"""
