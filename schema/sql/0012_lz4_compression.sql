-- The values that PostgreSQL compresses on every resolution (its snapshot, some 37 KB for
-- 20 players; the resolution event; the turn's resolution and board in the read models) are
-- compressed with lz4 rather than the default pglz, where the server is built with lz4:
-- measured on the 2-core machine, a 37 KB snapshot inserted in 0.5 ms against 1.2 ms. A
-- server built without it (the embedded one) keeps pglz. Values already stored stay as they
-- are; both kinds read alike.
DO $$
BEGIN
    ALTER TABLE snapshots ALTER COLUMN data SET COMPRESSION lz4;
    ALTER TABLE events ALTER COLUMN data SET COMPRESSION lz4;
    ALTER TABLE archived_events ALTER COLUMN data SET COMPRESSION lz4;
    ALTER TABLE read_turns ALTER COLUMN resolution SET COMPRESSION lz4;
    ALTER TABLE read_turns ALTER COLUMN start_board SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this PostgreSQL has no lz4: its values stay compressed with pglz';
END
$$;
