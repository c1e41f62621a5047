-- The hash chain (docs/eventstore.md, "The hash chain"): every event carries
-- hash = SHA-256(previous event's hash || SHA-256(its content)), the previous event being the
-- one of the same stream at the version before, as it stood when this one was appended (32
-- zero bytes before the first). The content is the event's fields, each as a 4-byte
-- big-endian length and its bytes; eventstore/chain.py computes the same in Python, and
-- verifies. A truncation moves events with their hash; the next append continues the chain
-- from the event the stream was truncated to.

CREATE FUNCTION chain_field(value bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT int4send(octet_length(value)) || value $$;

CREATE FUNCTION event_content(
    stream_id text, version bigint, event_id uuid, type text, data bytea,
    occurred_at timestamptz, actor text, correlation_id uuid, causation_id uuid
) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT chain_field(convert_to(stream_id, 'UTF8'))
    || chain_field(int8send(version))
    || chain_field(uuid_send(event_id))
    || chain_field(convert_to(type, 'UTF8'))
    || chain_field(data)
    -- Microseconds since 1970 (exact: extract gives a numeric).
    || chain_field(int8send((extract(epoch FROM occurred_at) * 1000000)::bigint))
    || chain_field(convert_to(actor, 'UTF8'))
    || chain_field(uuid_send(correlation_id))
    || chain_field(coalesce(uuid_send(causation_id), ''::bytea))
$$;

ALTER TABLE events ADD COLUMN hash bytea;
ALTER TABLE archived_events ADD COLUMN hash bytea;

-- Events appended before this migration: every event ever appended, live or archived, in
-- the order appended (positions are never reused), each chained to the latest one before it
-- of its stream at the version before.
CREATE TEMPORARY TABLE chain_heads (
    stream_id text, version bigint, hash bytea, PRIMARY KEY (stream_id, version)
) ON COMMIT DROP;

DO $$
DECLARE
    e record;
    previous bytea;
    chained bytea;
BEGIN
    FOR e IN
        SELECT NULL::bigint AS truncation_id, stream_id, version, position, event_id, type,
               data, occurred_at, actor, correlation_id, causation_id
        FROM events
        UNION ALL
        SELECT truncation_id, stream_id, version, position, event_id, type, data,
               occurred_at, actor, correlation_id, causation_id
        FROM archived_events
        ORDER BY position
    LOOP
        IF e.version = 1 THEN
            previous := decode(repeat('00', 32), 'hex');
        ELSE
            SELECT h.hash INTO previous FROM chain_heads AS h
            WHERE h.stream_id = e.stream_id AND h.version = e.version - 1;
        END IF;
        chained := sha256(previous || sha256(event_content(
            e.stream_id, e.version, e.event_id, e.type, e.data, e.occurred_at, e.actor,
            e.correlation_id, e.causation_id)));
        INSERT INTO chain_heads VALUES (e.stream_id, e.version, chained)
        ON CONFLICT (stream_id, version) DO UPDATE SET hash = EXCLUDED.hash;
        IF e.truncation_id IS NULL THEN
            UPDATE events SET hash = chained
            WHERE stream_id = e.stream_id AND version = e.version;
        ELSE
            UPDATE archived_events SET hash = chained
            WHERE stream_id = e.stream_id AND truncation_id = e.truncation_id
              AND version = e.version;
        END IF;
    END LOOP;
END
$$;

ALTER TABLE events ALTER COLUMN hash SET NOT NULL;
ALTER TABLE archived_events ALTER COLUMN hash SET NOT NULL;

-- Every insert, whichever statement or function makes it. A row-level BEFORE trigger sees
-- the rows its statement inserted before (an append of several events chains within
-- itself), and the stream's head row lock, taken by every append first, orders the
-- appends of one stream. Citus: the lookup stays within the row's stream, so it is
-- colocated (docs/eventstore.md, "Scaling out with Citus").
CREATE FUNCTION chain_event() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    previous bytea;
BEGIN
    IF NEW.version = 1 THEN
        previous := decode(repeat('00', 32), 'hex');
    ELSE
        SELECT e.hash INTO previous FROM events AS e
        WHERE e.stream_id = NEW.stream_id AND e.version = NEW.version - 1;
        IF previous IS NULL THEN
            RAISE EXCEPTION 'stream % has no event % to chain event % to',
                NEW.stream_id, NEW.version - 1, NEW.version;
        END IF;
    END IF;
    NEW.hash := sha256(previous || sha256(event_content(
        NEW.stream_id, NEW.version, NEW.event_id, NEW.type, NEW.data, NEW.occurred_at,
        NEW.actor, NEW.correlation_id, NEW.causation_id)));
    RETURN NEW;
END
$$;

CREATE TRIGGER events_hash_chain BEFORE INSERT ON events
FOR EACH ROW EXECUTE FUNCTION chain_event();
