-- Due games are claimed with a lease instead of row locks held while they are carried out
-- (server/ops/scheduler.py): a claim is one short statement, so that it neither keeps a
-- connection of the pool nor holds the gap-safe log back, and the read models follow the
-- resolutions as they are appended.

-- Until when a scheduler has the game in hand (by the database's clock); once past, a
-- scheduler that stopped has let go of it and another takes it up.
ALTER TABLE read_games ADD COLUMN claimed_until timestamptz;
