-- event_content (0009) was declared IMMUTABLE, but convert_to and extract(epoch FROM a
-- timestamptz) are STABLE in PostgreSQL, and a SQL function whose body is more volatile than
-- its declaration is never inlined: every event's hash ran it through the function-call
-- machinery (and its nine chain_field calls with it), 12.4 µs an event against 2.8 µs
-- inlined, measured on the 2-core machine over 22,000 rows. Declared STABLE, as its body
-- is, the hash chain's trigger plans it into its own expression. Same body, same hashes.
ALTER FUNCTION event_content(text, bigint, uuid, text, bytea, timestamptz, text, uuid, uuid)
    STABLE;
