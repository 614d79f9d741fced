-- A game's clocks are saved when it starts, stops or has a move taken back,
-- not with every move: clock_ply says after which ply they were saved, and
-- the moves after it (their time_ms) bring them up to date on resume.
-- Until now the clocks were saved with every move.
ALTER TABLE games ADD COLUMN clock_ply INTEGER NOT NULL DEFAULT 0;
UPDATE games SET clock_ply = (SELECT count(*) FROM moves WHERE moves.game_id = games.id);
