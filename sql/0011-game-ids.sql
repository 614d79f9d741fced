-- Game ids are never reused.  games.id was a plain INTEGER PRIMARY KEY, and
-- a game aborted before both sides moved leaves no row, so the newest such
-- game handed its id to the next: a web link, a stream, a tournament board
-- or a guest's own range that named it would name another game.
-- AUTOINCREMENT needs a new table; every row keeps its id, and the sequence
-- starts at the highest (foreign keys leave nothing naming a higher one).
-- Migrations run with foreign keys off, so dropping the old table cascades
-- nothing to moves.
CREATE TABLE games_new (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	white TEXT NOT NULL,
	black TEXT NOT NULL,
	white_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
	black_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
	white_rating TEXT NOT NULL,		-- as shown at the start: 1500, 1500P, ++++
	black_rating TEXT NOT NULL,
	rated INTEGER NOT NULL,
	category TEXT NOT NULL,			-- lightning, blitz, standard, untimed
	time_control TEXT NOT NULL,		-- clock_format() text
	start_fen TEXT,				-- NULL: the standard start
	started INTEGER NOT NULL,		-- unix seconds
	ended INTEGER,
	status TEXT NOT NULL,			-- active, adjourned, finished
	result TEXT NOT NULL DEFAULT '*',
	reason TEXT,				-- FICS end text: "bob resigns"
	termination TEXT,			-- PGN Termination tag value
	white_clock TEXT,			-- clock_side state when last saved
	black_clock TEXT,
	tourney_id INTEGER,
	tourney_round INTEGER,
	tourney_board INTEGER,
	clock_ply INTEGER NOT NULL DEFAULT 0
);
INSERT INTO games_new (id, white, black, white_id, black_id, white_rating, black_rating, rated,
	category, time_control, start_fen, started, ended, status, result, reason, termination,
	white_clock, black_clock, tourney_id, tourney_round, tourney_board, clock_ply)
	SELECT id, white, black, white_id, black_id, white_rating, black_rating, rated,
	category, time_control, start_fen, started, ended, status, result, reason, termination,
	white_clock, black_clock, tourney_id, tourney_round, tourney_board, clock_ply FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE INDEX games_status ON games(status) WHERE status != 'finished';
CREATE INDEX games_white ON games(white COLLATE NOCASE, id);
CREATE INDEX games_black ON games(black COLLATE NOCASE, id);
CREATE INDEX games_ended ON games(ended) WHERE status = 'finished';
DELETE FROM sqlite_sequence WHERE name = 'games';
INSERT INTO sqlite_sequence (name, seq) SELECT 'games', coalesce(max(id), 0) FROM games;
