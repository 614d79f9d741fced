-- Personal lists (notify, gnotify, censor, noplay) and the public lists an
-- admin keeps (td, muzzle, cmuzzle, ban; admin and computer are columns of
-- users).  Entries name accounts by id, never by name: a deleted account's
-- entries go with it, and ids are never reused, so an account made later
-- under the same name inherits none of them.
CREATE TABLE user_lists (
	owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	list TEXT NOT NULL,
	member_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	PRIMARY KEY (owner_id, list, member_id)
) WITHOUT ROWID;
CREATE INDEX user_lists_member ON user_lists(member_id);

CREATE TABLE public_lists (
	list TEXT NOT NULL,
	member_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	PRIMARY KEY (list, member_id)
) WITHOUT ROWID;
CREATE INDEX public_lists_member ON public_lists(member_id);
