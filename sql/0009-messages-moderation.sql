-- Messages left for accounts, finger notes, admins' comments on accounts,
-- the log of every admin action, and banned address ranges.  users.admin
-- already holds a number: 0 for players, an admin's level otherwise (an
-- admin acts only on accounts of a lower level).
CREATE TABLE messages (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	recipient_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	sender_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
	sender TEXT NOT NULL,			-- the name as it was sent
	sent INTEGER NOT NULL,			-- unix seconds
	text TEXT NOT NULL
);
CREATE INDEX messages_recipient ON messages(recipient_id, id);

-- "set 1 TEXT" ... "set 10 TEXT": lines shown under finger.
CREATE TABLE finger_notes (
	user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	line INTEGER NOT NULL,
	text TEXT NOT NULL,
	PRIMARY KEY (user_id, line)
) WITHOUT ROWID;

CREATE TABLE comments (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	admin_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
	admin TEXT NOT NULL,
	added INTEGER NOT NULL,
	text TEXT NOT NULL
);
CREATE INDEX comments_user ON comments(user_id, id);

-- Kept when the accounts it names are gone: ids are never reused, and the
-- names are kept beside them.
CREATE TABLE admin_log (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	at INTEGER NOT NULL,			-- unix seconds
	admin_id INTEGER NOT NULL,
	admin TEXT NOT NULL,
	action TEXT NOT NULL,
	target_id INTEGER,			-- NULL: no account
	target TEXT NOT NULL,
	detail TEXT NOT NULL
);

CREATE TABLE address_bans (
	range TEXT PRIMARY KEY,			-- as address_range_format() writes it
	admin_id INTEGER NOT NULL,
	added INTEGER NOT NULL
);
