-- Read models kept by projections/runner.py, rebuilt by `skirmish rebuild`. Like the event
-- tables, every table is keyed by the game first, to be distributed by it with Citus.

-- Every game's public view, as GET /v1/games lists it.
CREATE TABLE read_games (
    game_id text PRIMARY KEY,
    name text NOT NULL,
    phase text NOT NULL,
    turn integer NOT NULL,
    players integer NOT NULL,
    -- The global position of the last event folded in.
    position bigint NOT NULL,
    view jsonb NOT NULL,
    -- What the scheduler looks for: when the game resolves next (null unless running), and
    -- when its players are due a reminder (null once sent, or when nobody wants one).
    next_resolution_at timestamptz,
    next_reminder_at timestamptz
);
CREATE INDEX read_games_phase ON read_games (phase, game_id);
CREATE INDEX read_games_due ON read_games (next_resolution_at) WHERE next_resolution_at IS NOT NULL;
CREATE INDEX read_games_reminders ON read_games (next_reminder_at)
    WHERE next_reminder_at IS NOT NULL;

-- Per turn: the board at its start and, once resolved, everything it produced.
CREATE TABLE read_turns (
    game_id text NOT NULL,
    turn integer NOT NULL CHECK (turn > 0),
    start_board jsonb NOT NULL,
    effect text,
    resolution jsonb,
    PRIMARY KEY (game_id, turn)
);

-- How far each projection has read the global log; written in the same transaction as
-- the read models, so every event is applied exactly once.
CREATE TABLE projection_checkpoints (
    name text PRIMARY KEY,
    transaction_id bigint NOT NULL,
    position bigint NOT NULL
);
