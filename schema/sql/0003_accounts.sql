-- Who may act: accounts, their bearer tokens (stored as SHA-256 digests, never in clear),
-- and trusted clients (bots) that act for their own users. Small tables: with Citus they
-- become reference tables.

CREATE TABLE accounts (
    account_id text PRIMARY KEY,
    name text NOT NULL,
    -- Set for accounts a trusted client created on first sight of one of its users.
    client_id text,
    external_id text,
    created_at timestamptz NOT NULL,
    UNIQUE (client_id, external_id)
);

CREATE TABLE account_tokens (
    token_digest bytea PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (account_id),
    created_at timestamptz NOT NULL
);

CREATE TABLE clients (
    client_id text PRIMARY KEY,
    name text NOT NULL,
    token_digest bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL
);
