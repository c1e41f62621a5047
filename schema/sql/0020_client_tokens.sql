-- A trusted client keeps its identity across tokens: its users' accounts are keyed by
-- (client_id, external_id), so a client replaced by a new one (a new client_id) would leave
-- every user's seats with accounts nobody can act for. Rotating gives the same client a new
-- token (the digest replaced); revoking takes its token away (the digest null) and keeps the
-- client, its users' accounts and their seats, for a later rotation to bring back. The
-- operator lists clients in the order they were made (two may share a time).
ALTER TABLE clients
    ADD COLUMN added bigint GENERATED ALWAYS AS IDENTITY,
    ALTER COLUMN token_digest DROP NOT NULL,
    ADD COLUMN rotated_at timestamptz,
    ADD COLUMN revoked_at timestamptz;
