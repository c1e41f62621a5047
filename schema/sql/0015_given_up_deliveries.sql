-- The webhook deliveries given up, which /metrics counts at every scrape: a few, out of
-- every delivery ever made (the pending ones have webhook_deliveries_due).
CREATE INDEX webhook_deliveries_given_up ON webhook_deliveries (game_id)
WHERE failed_at IS NOT NULL;
