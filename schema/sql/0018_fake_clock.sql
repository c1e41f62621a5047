-- Where the fake clock (`skirmish serve --fake-clock`) stands: one row at most, moved only
-- forward (server/ops/clock_store.py), so that a restarted server resumes there rather than at
-- the real time, and the clock never goes back, not even across restarts.
CREATE TABLE fake_clock (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    stands_at timestamptz NOT NULL
);
