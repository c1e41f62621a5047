-- read_games.view, each game's whole public view, was written at every event and read by
-- nothing: GET /v1/games lists the other columns, and a game's own view is built from its
-- state. Its generated map made most of it (23 of 28 KB for 20 players), and PostgreSQL
-- spent some 3 ms on each write of it (jsonb, compressed, out of line) against 0.3 ms for
-- the rest of the row: more than the server's whole work on a resolution.
ALTER TABLE read_games DROP COLUMN view;
