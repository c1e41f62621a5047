-- What falls due first in each game, its resolution or its reminder: the scheduler claims
-- games in this order, and finds where the clock stops next, from this index. Asked of the
-- two indexes before, each claim read every due game and sorted them all (10,000 games
-- due at once: every claim of five read thousands of rows).
CREATE INDEX read_games_next_due ON read_games (least(next_resolution_at, next_reminder_at))
WHERE least(next_resolution_at, next_reminder_at) IS NOT NULL;
DROP INDEX read_games_due;
DROP INDEX read_games_reminders;

-- The games some scheduler has in hand: a few at a time, out of all the games.
CREATE INDEX read_games_claimed ON read_games (claimed_until) WHERE claimed_until IS NOT NULL;
