-- The event store (docs/eventstore.md). Every table carries stream_id and every hot query
-- filters by it, so that each table can be distributed by stream_id with Citus.
-- Objects are created unqualified: they land in the connection's current schema.

-- One row per stream: its head version. The row lock taken by every append serialises the
-- writers of one stream, so within a stream positions commit in version order.
CREATE TABLE streams (
    stream_id text PRIMARY KEY,
    version bigint NOT NULL CHECK (version >= 0)
);

CREATE TABLE events (
    stream_id text NOT NULL,
    version bigint NOT NULL CHECK (version > 0),
    -- Never reused, not even after a truncation; increases within a stream.
    position bigserial NOT NULL,
    -- With position, the global order: readers only see transactions older than the
    -- oldest one still running (pg_snapshot_xmin), so a late commit is never skipped.
    transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
    event_id uuid NOT NULL,
    type text NOT NULL,
    -- The event exactly as msgspec encoded it (JSON in UTF-8); the store never parses it.
    data bytea NOT NULL,
    occurred_at timestamptz NOT NULL,
    actor text NOT NULL,
    correlation_id uuid NOT NULL,
    causation_id uuid,
    PRIMARY KEY (stream_id, version),
    UNIQUE (stream_id, event_id)
);
CREATE INDEX events_stream_position ON events (stream_id, position);
CREATE INDEX events_global_order ON events (transaction_id, position);

CREATE TABLE truncations (
    stream_id text NOT NULL,
    truncation_id bigserial NOT NULL,
    after_version bigint NOT NULL CHECK (after_version >= 0),
    truncated_by text NOT NULL,
    reason text NOT NULL,
    truncated_at timestamptz NOT NULL,
    PRIMARY KEY (stream_id, truncation_id)
);

-- What truncations removed, row for row: nothing is ever destroyed.
CREATE TABLE archived_events (
    stream_id text NOT NULL,
    truncation_id bigint NOT NULL,
    version bigint NOT NULL,
    position bigint NOT NULL,
    transaction_id xid8 NOT NULL,
    event_id uuid NOT NULL,
    type text NOT NULL,
    data bytea NOT NULL,
    occurred_at timestamptz NOT NULL,
    actor text NOT NULL,
    correlation_id uuid NOT NULL,
    causation_id uuid,
    PRIMARY KEY (stream_id, truncation_id, version),
    FOREIGN KEY (stream_id, truncation_id) REFERENCES truncations (stream_id, truncation_id)
);

-- A snapshot names the event it was folded up to by (version, position); loading joins on
-- both, so a snapshot built from events that a truncation has since removed is never used.
CREATE TABLE snapshots (
    stream_id text NOT NULL,
    name text NOT NULL,
    version bigint NOT NULL CHECK (version > 0),
    position bigint NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (stream_id, name, version)
);

-- For people at a psql prompt: the payloads as JSON.
CREATE VIEW events_json AS
SELECT stream_id, version, position, transaction_id, event_id, type,
       convert_from(data, 'UTF8')::jsonb AS data,
       occurred_at, actor, correlation_id, causation_id
FROM events;

-- Many appends from many callers in one call, one transaction, one round trip (see
-- eventstore/batching.py). The heads of the streams involved are locked first, in stream
-- order, the same order in every batch, so two batches can wait for each other but never in
-- a cycle. Then each request is judged in order exactly as a lone append would be, against
-- the heads as the earlier requests left them: 'recorded' (a re-send, nothing written),
-- 'duplicate' (a partial re-send: clashes lists the ids), 'conflict' (version is the actual
-- head) or 'appended'. Returns one row per request, in request order. Two batches creating
-- the same stream at once collide on the events key: the loser fails whole, and the caller
-- sends its requests again one by one.
CREATE FUNCTION append_batch(
    request_streams text[],
    request_expected bigint[],
    request_sizes integer[],
    event_streams text[],
    event_ids uuid[],
    event_types text[],
    event_data bytea[],
    event_times timestamptz[],
    event_actors text[],
    event_correlations uuid[],
    event_causations uuid[]
) RETURNS TABLE (verdict text, version bigint, "position" bigint, transaction_id xid8,
                 clashes text)
LANGUAGE plpgsql
-- Plans are cached from the first call, often on tables still empty, where a scan of the
-- whole table looks cheap, and would stay so as the tables grow. A batch is a handful of
-- keys into big tables: index lookups are always right, and one generic plan is enough.
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    head_ids text[];
    head_versions bigint[];
    head_initial bigint[];
    -- Events already in the streams, keyed by event id || stream id (a uuid's text has a
    -- fixed length, so the key is unambiguous); those appended by this batch join as they go,
    -- with their position still unknown.
    known_keys text[];
    known_versions bigint[];
    known_positions bigint[];
    known_transactions xid8[];
    new_streams text[] := '{}';
    new_versions bigint[] := '{}';
    new_events integer[] := '{}';
    out_verdicts text[] := '{}';
    out_versions bigint[] := '{}';
    out_positions bigint[] := '{}';
    out_transactions xid8[] := '{}';
    out_clashes text[] := '{}';
    first_event integer := 1;
    r integer;
    e integer;
    h integer;
    k integer;
    found uuid[];
    top integer;
BEGIN
    WITH wanted AS (
        SELECT DISTINCT w.stream_id FROM unnest(request_streams) AS w(stream_id)
    ),
    locked AS (
        SELECT s.stream_id, s.version FROM streams AS s
        WHERE s.stream_id IN (SELECT w.stream_id FROM wanted AS w)
        ORDER BY s.stream_id
        FOR UPDATE
    )
    SELECT array_agg(w.stream_id), array_agg(coalesce(l.version, 0)), array_agg(l.version),
           (SELECT coalesce(array_agg(ev.event_id::text || ev.stream_id), '{}')
            FROM unnest(event_streams, event_ids) AS q(stream_id, event_id)
            JOIN events AS ev ON ev.stream_id = q.stream_id AND ev.event_id = q.event_id),
           (SELECT coalesce(array_agg(ev.version), '{}')
            FROM unnest(event_streams, event_ids) AS q(stream_id, event_id)
            JOIN events AS ev ON ev.stream_id = q.stream_id AND ev.event_id = q.event_id),
           (SELECT coalesce(array_agg(ev.position), '{}')
            FROM unnest(event_streams, event_ids) AS q(stream_id, event_id)
            JOIN events AS ev ON ev.stream_id = q.stream_id AND ev.event_id = q.event_id),
           (SELECT coalesce(array_agg(ev.transaction_id), '{}')
            FROM unnest(event_streams, event_ids) AS q(stream_id, event_id)
            JOIN events AS ev ON ev.stream_id = q.stream_id AND ev.event_id = q.event_id)
    INTO head_ids, head_versions, head_initial,
         known_keys, known_versions, known_positions, known_transactions
    FROM wanted AS w LEFT JOIN locked AS l ON l.stream_id = w.stream_id;

    FOR r IN 1 .. cardinality(request_streams) LOOP
        h := array_position(head_ids, request_streams[r]);
        found := '{}';
        top := NULL;
        FOR e IN first_event .. first_event + request_sizes[r] - 1 LOOP
            k := array_position(known_keys, event_ids[e]::text || request_streams[r]);
            IF k IS NOT NULL THEN
                found := found || event_ids[e];
                IF top IS NULL OR known_versions[k] > known_versions[top] THEN
                    top := k;
                END IF;
            END IF;
        END LOOP;
        IF cardinality(found) = request_sizes[r] THEN
            out_verdicts := out_verdicts || 'recorded'::text;
            out_versions := out_versions || known_versions[top];
            out_positions := out_positions || known_positions[top];
            out_transactions := out_transactions || known_transactions[top];
            out_clashes := out_clashes || NULL::text;
        ELSIF cardinality(found) > 0 THEN
            out_verdicts := out_verdicts || 'duplicate'::text;
            out_versions := out_versions || NULL::bigint;
            out_positions := out_positions || NULL::bigint;
            out_transactions := out_transactions || NULL::xid8;
            out_clashes := out_clashes || array_to_string(found, ',');
        ELSIF request_expected[r] IS NOT NULL AND request_expected[r] <> head_versions[h] THEN
            out_verdicts := out_verdicts || 'conflict'::text;
            out_versions := out_versions || head_versions[h];
            out_positions := out_positions || NULL::bigint;
            out_transactions := out_transactions || NULL::xid8;
            out_clashes := out_clashes || NULL::text;
        ELSE
            FOR e IN first_event .. first_event + request_sizes[r] - 1 LOOP
                head_versions[h] := head_versions[h] + 1;
                new_streams := new_streams || request_streams[r];
                new_versions := new_versions || head_versions[h];
                new_events := new_events || e;
                known_keys := known_keys || (event_ids[e]::text || request_streams[r]);
                known_versions := known_versions || head_versions[h];
                known_positions := known_positions || NULL::bigint;
                known_transactions := known_transactions || NULL::xid8;
            END LOOP;
            out_verdicts := out_verdicts || 'appended'::text;
            out_versions := out_versions || head_versions[h];
            out_positions := out_positions || NULL::bigint;
            out_transactions := out_transactions || NULL::xid8;
            out_clashes := out_clashes || NULL::text;
        END IF;
        first_event := first_event + request_sizes[r];
    END LOOP;

    RETURN QUERY
    WITH inserted AS (
        INSERT INTO events AS ev (stream_id, version, event_id, type, data, occurred_at, actor,
                                  correlation_id, causation_id)
        SELECT n.s, n.v, event_ids[n.i], event_types[n.i], event_data[n.i], event_times[n.i],
               event_actors[n.i], event_correlations[n.i], event_causations[n.i]
        FROM unnest(new_streams, new_versions, new_events) AS n(s, v, i)
        RETURNING ev.stream_id, ev.version, ev.position, ev.transaction_id
    ),
    moved AS (
        INSERT INTO streams AS s (stream_id, version)
        SELECT m.stream_id, m.version
        FROM unnest(head_ids, head_versions, head_initial) AS m(stream_id, version, initial)
        WHERE m.version IS DISTINCT FROM m.initial
        ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version
    )
    SELECT o.verdict, o.version, coalesce(o.position, i.position),
           coalesce(o.transaction_id, i.transaction_id), o.clashes
    FROM unnest(out_verdicts, request_streams, out_versions, out_positions, out_transactions,
                out_clashes) WITH ORDINALITY
         AS o(verdict, stream_id, version, position, transaction_id, clashes, n)
    LEFT JOIN inserted AS i ON i.stream_id = o.stream_id AND i.version = o.version
    ORDER BY o.n;
END
$$;
