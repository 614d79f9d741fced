-- Games, their moves and the ratings they change.  A game row is written
-- when the game starts and each move is appended in the same transaction
-- that acknowledges it, so a crash loses nothing a player was shown.
CREATE TABLE games (
	id INTEGER PRIMARY KEY,
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
	black_clock TEXT
);
CREATE INDEX games_status ON games(status) WHERE status != 'finished';
CREATE INDEX games_white ON games(white COLLATE NOCASE, id);
CREATE INDEX games_black ON games(black COLLATE NOCASE, id);

CREATE TABLE moves (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	ply INTEGER NOT NULL,			-- 1 for the first move
	uci TEXT NOT NULL,
	san TEXT NOT NULL,
	time_ms INTEGER NOT NULL,		-- thinking time charged
	clock_ms INTEGER NOT NULL,		-- mover's clock after the move
	PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- Glicko-2 per FICS category.
CREATE TABLE ratings (
	user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	category TEXT NOT NULL,
	rating REAL NOT NULL,
	rd REAL NOT NULL,
	volatility REAL NOT NULL,
	wins INTEGER NOT NULL DEFAULT 0,
	losses INTEGER NOT NULL DEFAULT 0,
	draws INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (user_id, category)
) WITHOUT ROWID;
