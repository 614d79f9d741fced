-- Accounts, their settings and channels.  Names are unique ignoring case,
-- as FICS treats them; passwords are salted scrypt strings only.
CREATE TABLE users (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE COLLATE NOCASE,
	password TEXT NOT NULL,
	admin INTEGER NOT NULL DEFAULT 0,
	created INTEGER NOT NULL,
	last_login INTEGER
);

-- FICS variables and ivars a user has changed from the default.
CREATE TABLE user_vars (
	user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY (user_id, name)
) WITHOUT ROWID;

CREATE TABLE user_channels (
	user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	channel INTEGER NOT NULL,
	PRIMARY KEY (user_id, channel)
) WITHOUT ROWID;

CREATE TABLE user_aliases (
	user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	value TEXT NOT NULL,
	PRIMARY KEY (user_id, name)
) WITHOUT ROWID;

CREATE TABLE news (
	id INTEGER PRIMARY KEY,
	posted INTEGER NOT NULL,
	title TEXT NOT NULL
);
