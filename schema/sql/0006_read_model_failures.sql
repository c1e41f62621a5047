-- Games whose read models the runner could not write (projections/runner.py): it records
-- the game here and goes on with the others, in the transaction that moves its checkpoint.
-- The game is written afresh from its stream on its next event and periodically; its row
-- goes in the transaction that succeeds. GET /v1/health lists them.
CREATE TABLE read_model_failures (
    game_id text PRIMARY KEY,
    -- The last event of the game that the runner has passed: rewritten up to it.
    version bigint NOT NULL,
    position bigint NOT NULL,
    -- The exception's class and message.
    error text NOT NULL,
    message text NOT NULL,
    attempts integer NOT NULL DEFAULT 1,
    -- The database's clock: when the game first failed, and when it was last tried.
    since timestamptz NOT NULL DEFAULT now(),
    last_attempt_at timestamptz NOT NULL DEFAULT now()
);
