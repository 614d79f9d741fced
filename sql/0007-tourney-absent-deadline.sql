-- When a waiting board's absent player loses by forfeit, as unix time in
-- milliseconds, so that a restart keeps the time that was left.  NULL while
-- the board's game is on or the board is settled; a board whose game a
-- restart interrupted gets a fresh period from the restart.
ALTER TABLE tourney_pairings ADD COLUMN absent_deadline_ms INTEGER;
