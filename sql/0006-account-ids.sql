-- Account ids are never reused.  users.id was a plain INTEGER PRIMARY KEY,
-- so deleting the newest account handed its id to the next registration,
-- and with it whatever still named that id (tourney_players has no foreign
-- key).  AUTOINCREMENT needs a new table; every row keeps its id, and the
-- sequence starts past every id anything ever referred to.  (Migrations
-- run with foreign keys off, so dropping the old table cascades nothing.)
CREATE TABLE users_new (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	name TEXT NOT NULL UNIQUE COLLATE NOCASE,
	password TEXT NOT NULL,
	admin INTEGER NOT NULL DEFAULT 0,
	created INTEGER NOT NULL,
	last_login INTEGER,
	computer INTEGER NOT NULL DEFAULT 0
);
INSERT INTO users_new (id, name, password, admin, created, last_login, computer)
	SELECT id, name, password, admin, created, last_login, computer FROM users;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;
DELETE FROM sqlite_sequence WHERE name = 'users';
INSERT INTO sqlite_sequence (name, seq) SELECT 'users', max(
	(SELECT coalesce(max(id), 0) FROM users),
	(SELECT coalesce(max(user_id), 0) FROM tourney_players),
	(SELECT coalesce(max(user_id), 0) FROM tourney_byes),
	(SELECT coalesce(max(director_id), 0) FROM tourneys),
	(SELECT coalesce(max(white_id), 0) FROM games),
	(SELECT coalesce(max(black_id), 0) FROM games));

-- Accounts deleted, in order: a running server reads the new rows to end
-- the sessions and withdraw the tournament entries of accounts that
-- `chessd userdel` removed beside it.
CREATE TABLE deleted_users (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id INTEGER NOT NULL,
	name TEXT NOT NULL,
	deleted INTEGER NOT NULL		-- unix seconds
);
