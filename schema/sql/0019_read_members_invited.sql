-- The seat of a real fork waiting for its start that an account is invited to claim, as
-- GET /v1/me shows it (`invited_to`); null otherwise. No game held an invitation before
-- (real forks seated their players), so no read model is rebuilt.
ALTER TABLE read_members ADD COLUMN invited_to text;
