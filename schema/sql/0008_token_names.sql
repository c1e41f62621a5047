-- Several tokens per account, one per device: each has an id (to list and revoke it by,
-- never the token), a name, when it was last used (to the hour: see server/accounts/store.py), and
-- the order the account's tokens were added in (two may share a time).
ALTER TABLE account_tokens
    ADD COLUMN added bigint GENERATED ALWAYS AS IDENTITY,
    ADD COLUMN token_id text,
    ADD COLUMN name text,
    ADD COLUMN last_used_at timestamptz;
-- The tokens so far are each account's first, made with it.
UPDATE account_tokens
SET token_id = 'tok_' || left(replace(gen_random_uuid()::text, '-', ''), 16), name = 'first';
ALTER TABLE account_tokens
    ALTER COLUMN token_id SET NOT NULL,
    ALTER COLUMN name SET NOT NULL,
    ADD CONSTRAINT account_tokens_token_id UNIQUE (token_id);
CREATE INDEX account_tokens_account ON account_tokens (account_id, created_at);
