-- Club tournaments.  Everything needed to rebuild a tournament after a
-- restart in any state: its settings, its players in start-number order,
-- byes asked for in advance, and every round's pairings with their results.
-- Each change is written in the loop pass that makes it.
CREATE TABLE tourneys (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	kind TEXT NOT NULL,			-- rr, drr, swiss
	rounds INTEGER NOT NULL,		-- rounds planned
	time_control TEXT NOT NULL,		-- clock_format() text
	rated INTEGER NOT NULL,
	director_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
	director TEXT NOT NULL,
	state TEXT NOT NULL,			-- created, running, paused, finished
	current_round INTEGER NOT NULL DEFAULT 0,
	tiebreaks TEXT NOT NULL,		-- "BH,BH-C1,SB,DE,WIN"
	bye_half INTEGER NOT NULL DEFAULT 2,	-- a pairing-allocated bye, in half points
	created INTEGER NOT NULL,		-- unix seconds
	finished INTEGER
);

-- start_no is 0 until the tournament starts; players are then numbered by
-- rating at start (highest first), then name.
CREATE TABLE tourney_players (
	tourney_id INTEGER NOT NULL REFERENCES tourneys(id) ON DELETE CASCADE,
	user_id INTEGER NOT NULL,
	name TEXT NOT NULL,
	joined INTEGER NOT NULL,		-- order of joining
	start_no INTEGER NOT NULL DEFAULT 0,
	rating INTEGER NOT NULL DEFAULT 0,	-- at start; 0 unrated
	withdrawn_round INTEGER NOT NULL DEFAULT 0,	-- first round not played; 0 still in
	paused INTEGER NOT NULL DEFAULT 0,	-- not paired while set
	PRIMARY KEY (tourney_id, user_id)
) WITHOUT ROWID;

-- Byes asked for in advance: H (half point), Z (zero), F (full).
CREATE TABLE tourney_byes (
	tourney_id INTEGER NOT NULL REFERENCES tourneys(id) ON DELETE CASCADE,
	user_id INTEGER NOT NULL,
	round INTEGER NOT NULL,
	kind TEXT NOT NULL,
	PRIMARY KEY (tourney_id, user_id, round)
) WITHOUT ROWID;

-- One row per board: white and black are start numbers.  A bye is a row
-- after the games with black 0 and the bye's letter (U, H, Z, F) as result.
-- A game's result is *, 1-0, 0-1, 1/2-1/2, +-, -+ or --; game_id is the
-- games row of the game played on the board (NULL before it starts, and
-- for forfeits).
CREATE TABLE tourney_pairings (
	tourney_id INTEGER NOT NULL REFERENCES tourneys(id) ON DELETE CASCADE,
	round INTEGER NOT NULL,
	board INTEGER NOT NULL,
	white INTEGER NOT NULL,
	black INTEGER NOT NULL,
	result TEXT NOT NULL DEFAULT '*',
	game_id INTEGER REFERENCES games(id) ON DELETE SET NULL,
	PRIMARY KEY (tourney_id, round, board)
) WITHOUT ROWID;

ALTER TABLE games ADD COLUMN tourney_id INTEGER;
ALTER TABLE games ADD COLUMN tourney_round INTEGER;
ALTER TABLE games ADD COLUMN tourney_board INTEGER;
