-- read_turns' board and resolution were jsonb, which PostgreSQL parses into its binary form on
-- every write and prints back on every read, though nothing queries inside them: the server
-- writes them as JSON text and reads them back as text. Measured on the 2-core machine with
-- a 41 KB document: an insert cost PostgreSQL 1.7 ms of CPU as jsonb, 0.36-0.54 ms as json
-- (checked to be JSON, stored as written) and reading it back as text a tenth as much. `json`
-- keeps them valid JSON and queryable by hand (`->`, `->>`, or a cast to jsonb).
-- Rewriting the table converts the stored rows once; the type change drops the columns'
-- compression, which is set again as 0012 did.
ALTER TABLE read_turns
    ALTER COLUMN start_board TYPE json USING start_board::json,
    ALTER COLUMN resolution TYPE json USING resolution::json;
DO $$
BEGIN
    ALTER TABLE read_turns ALTER COLUMN resolution SET COMPRESSION lz4;
    ALTER TABLE read_turns ALTER COLUMN start_board SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this PostgreSQL has no lz4: its values stay compressed with pglz';
END
$$;
