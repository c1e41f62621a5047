-- Webhooks: one per game, set by an admin; and an outbox of deliveries, filled from the
-- event log (exactly once, under the projection checkpoint) and emptied by senders that
-- retry with backoff. Both are keyed by the game first, for Citus.

CREATE TABLE webhooks (
    game_id text PRIMARY KEY,
    url text NOT NULL,
    -- Signs every delivery (HMAC-SHA256); shown to the admin once, when set.
    secret text NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
    game_id text NOT NULL,
    position bigint NOT NULL,
    payload bytea NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    delivered_at timestamptz,
    -- Set when the deliveries gave up (after too many attempts).
    failed_at timestamptz,
    last_error text,
    PRIMARY KEY (game_id, position)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE delivered_at IS NULL AND failed_at IS NULL;
