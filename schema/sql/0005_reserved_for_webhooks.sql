-- A stand-in: the webhooks branch adds the real 0005 (migrations run 1, 2, 3... without
-- gaps, and 0006 follows it). Drop this file when the two branches meet. (A statement that
-- does nothing, since asyncpg cannot run an empty one.)
SELECT 1;
