-- Who belongs to each game, as GET /v1/me lists a caller's games: the accounts of its
-- players and its admins. Kept by projections/runner.py with the other read models.
CREATE TABLE read_members (
    game_id text NOT NULL,
    account_id text NOT NULL,
    -- The seat the account plays; null for an admin who plays none, and in a sandbox (whose
    -- admin plays every seat).
    player_id text,
    player_status text,
    -- On the game's list of admins (a trusted client's vouched admins are not listed).
    admin boolean NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
CREATE INDEX read_members_account ON read_members (account_id, game_id);

-- The trusted client a game was set up through: the users it vouches for are its admins.
ALTER TABLE read_games ADD COLUMN client_id text;

-- The games so far have no members: the runner, under its new checkpoint
-- (read_models.v2), rebuilds every read model from the log.
DELETE FROM read_turns;
DELETE FROM read_games;
DELETE FROM read_model_failures;
DELETE FROM projection_checkpoints WHERE name = 'read_models.v1';
