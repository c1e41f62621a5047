-- Webhook deliveries are claimed with a lease instead of a row lock held across the POST
-- (server/webhooks/sender.py), and reminders go to trusted webhooks only (docs/api.md).

-- Set by the operator or through a trusted client. Webhooks set before this migration are
-- taken as set by a plain account: they stop receiving reminders until set again.
ALTER TABLE webhooks ADD COLUMN trusted boolean NOT NULL DEFAULT false;

-- Until when a sender has the delivery in hand (by the database's clock); once past, a
-- sender that crashed has let go of it and another takes it up.
ALTER TABLE webhook_deliveries ADD COLUMN claimed_until timestamptz;

-- A reminder: private information before a resolution, for a trusted webhook only.
ALTER TABLE webhook_deliveries ADD COLUMN private boolean NOT NULL DEFAULT false;
UPDATE webhook_deliveries SET private = true
WHERE delivered_at IS NULL AND failed_at IS NULL
  AND convert_from(payload, 'UTF8')::jsonb #>> '{event,kind}' = 'reminder';
