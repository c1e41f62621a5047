-- The head's identity (docs/eventstore.md, "The contract"): an append may expect, with the
-- stream's version, the position of its last event. Versions are reused after a truncation,
-- positions never are, so a caller that kept a state at (version, position) can append on
-- it without reading first: a rewind elsewhere that brought the stream back to that version
-- changed its last event, and the append is refused.

-- The position of the stream's last event, 0 for none. Kept by the trigger below on every
-- insert and set by a truncation with the head version.
ALTER TABLE streams ADD COLUMN position bigint NOT NULL DEFAULT 0 CHECK (position >= 0);

UPDATE streams AS s SET position = e.position
FROM events AS e
WHERE e.stream_id = s.stream_id AND e.version = s.version;

-- Every insert, whichever statement or function makes it (as the hash chain's trigger): the
-- append statements move the head's version before they insert, when the positions are not
-- known yet. AFTER row triggers run at the end of the statement, so the head row holds its
-- final version and only the row of the stream's last event matches; the head row lock the
-- append took keeps it the last until commit.
CREATE FUNCTION move_head_position() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    UPDATE streams AS s SET position = NEW.position
    WHERE s.stream_id = NEW.stream_id AND s.version = NEW.version;
    RETURN NULL;
END
$$;

CREATE TRIGGER events_head_position AFTER INSERT ON events
FOR EACH ROW EXECUTE FUNCTION move_head_position();

-- append_batch as in 0001, with each request's expected head position (NULL: the version
-- alone), checked with its expected version. A stream appended to earlier in the same batch
-- has a head whose position no caller can know yet: a request expecting one there conflicts.
DROP FUNCTION append_batch(
    text[], bigint[], integer[], text[], uuid[], text[], bytea[], timestamptz[], text[],
    uuid[], uuid[]
);

CREATE FUNCTION append_batch(
    request_streams text[],
    request_expected bigint[],
    request_expected_positions bigint[],
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
    -- NULL once this batch appended to the stream: its new head's position is not known yet.
    head_positions bigint[];
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
        SELECT s.stream_id, s.version, s.position FROM streams AS s
        WHERE s.stream_id IN (SELECT w.stream_id FROM wanted AS w)
        ORDER BY s.stream_id
        FOR UPDATE
    )
    SELECT array_agg(w.stream_id), array_agg(coalesce(l.version, 0)), array_agg(l.version),
           array_agg(coalesce(l.position, 0)),
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
    INTO head_ids, head_versions, head_initial, head_positions,
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
        ELSIF (request_expected[r] IS NOT NULL AND request_expected[r] <> head_versions[h])
              OR (request_expected_positions[r] IS NOT NULL
                  AND request_expected_positions[r] IS DISTINCT FROM head_positions[h]) THEN
            out_verdicts := out_verdicts || 'conflict'::text;
            out_versions := out_versions || head_versions[h];
            out_positions := out_positions || head_positions[h];
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
            head_positions[h] := NULL;
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
