#include <ctype.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"
#include "migrations.h"

enum stmt {
	ST_BEGIN, ST_COMMIT, ST_ROLLBACK,
	ST_USER_FIND, ST_USER_ADD, ST_USER_REMOVE, ST_USER_PASSWORD, ST_USER_ADMIN,
	ST_USER_TOUCH, ST_USER_COMPUTER,
	ST_USER_DROP_ENTRIES, ST_USER_DROP_BYES, ST_USER_WITHDRAW, ST_USER_FORFEIT_BOARDS,
	ST_USER_DELETED,
	ST_USER_NEXT_STORED, ST_STORED_END, ST_STORED_DROP,
	ST_DELETED_SINCE, ST_DELETED_LAST,
	ST_SAVEPOINT, ST_SAVEPOINT_RELEASE, ST_SAVEPOINT_ROLLBACK,
	ST_VAR_SET, ST_VAR_DEL, ST_VAR_EACH,
	ST_ALIAS_SET, ST_ALIAS_DEL, ST_ALIAS_EACH,
	ST_CHANNEL_ADD, ST_CHANNEL_DEL, ST_CHANNEL_EACH,
	ST_NEWS_ADD, ST_NEWS_EACH,
	ST_GAME_INSERT, ST_GAME_MOVE, ST_GAME_CLOCKS, ST_GAME_TRUNCATE, ST_GAME_UPDATE, ST_GAME_DELETE,
	ST_GAME_SWAP_SIDES,
	ST_GAME_LOAD, ST_GAME_MOVES, ST_GAMES_STATUS, ST_GAMES_OF_STATUS, ST_GAMES_RECENT,
	ST_GAMES_NEXT_ID,
	ST_HISTORY_COUNT, ST_HISTORY_AT, ST_RECORD_LATEST,
	ST_RATING_GET, ST_RATING_PUT, ST_RATING_RANKED, ST_RATING_AHEAD, ST_USER_PREFIX,
	/* messages, notes, comments, the admin log, address bans */
	ST_MESSAGE_ADD, ST_MESSAGE_EACH, ST_MESSAGE_DEL, ST_MESSAGE_COUNT, ST_NOTE_EACH, ST_NOTE_CLEAR,
	ST_NOTE_ADD, ST_COMMENT_ADD, ST_COMMENT_EACH, ST_ADMIN_LOG_ADD, ST_ADMIN_LOG_EACH,
	ST_BAN_ADD, ST_BAN_DEL, ST_BAN_EACH, ST_USER_ADMIN_LEVEL,
	/* tournaments */
	ST_TOURNEY_INSERT, ST_TOURNEY_UPDATE, ST_TOURNEY_EACH, ST_TOURNEY_PLAYER_PUT,
	ST_TOURNEY_PLAYER_DEL, ST_TOURNEY_PLAYERS, ST_TOURNEY_BYE_PUT, ST_TOURNEY_BYE_DEL,
	ST_TOURNEY_BYES, ST_TOURNEY_PAIRING_PUT, ST_TOURNEY_PAIRINGS, ST_GAME_SET_TOURNEY,
	ST_GAME_TOURNEY,
	/* lists */
	ST_LIST_ADD, ST_LIST_DEL, ST_LIST_EACH, ST_PUBLIC_ADD, ST_PUBLIC_DEL, ST_PUBLIC_EACH,
	ST_PUBLIC_HAS, ST_LIST_HAS, ST_ADMIN_EACH, ST_COMPUTER_EACH,
	ST_COUNT
};

/* The columns read_game() reads, in its order. */
/*
 * A player's games: the side under the name (?N) whose id is the account's
 * (?I), or NULL for no account: a new account under an old name owns none
 * of a deleted account's games, which keep the name only.
 */
#define PLAYED_BY(n, i) "((white = ?" #n " COLLATE NOCASE AND white_id IS ?" #i ") OR " \
	"(black = ?" #n " COLLATE NOCASE AND black_id IS ?" #i ")) AND id >= ?5"
/* The start number of account ?1 in the tournament of the row at hand. */
#define START_NO "(SELECT start_no FROM tourney_players p WHERE p.tourney_id = " \
	"tourney_pairings.tourney_id AND p.user_id = ?1)"
#define GAME_SELECT "SELECT id, white, black, white_id, black_id, white_rating, black_rating, " \
	"rated, category, time_control, start_fen, started, ended, status, result, reason, " \
	"termination, white_clock, black_clock, clock_ply FROM games "

static const char *const stmt_sql[ST_COUNT] = {
	/* --- lists --- */
	[ST_LIST_ADD] = "INSERT OR IGNORE INTO user_lists (owner_id, list, member_id) VALUES (?1, ?2, ?3)",
	[ST_LIST_DEL] = "DELETE FROM user_lists WHERE owner_id = ?1 AND list = ?2 AND member_id = ?3",
	[ST_LIST_EACH] = "SELECT u.id, u.name FROM user_lists l JOIN users u ON u.id = l.member_id "
	    "WHERE l.owner_id = ?1 AND l.list = ?2 ORDER BY u.name",
	[ST_PUBLIC_ADD] = "INSERT OR IGNORE INTO public_lists (list, member_id) VALUES (?2, ?3)",
	[ST_PUBLIC_DEL] = "DELETE FROM public_lists WHERE list = ?2 AND member_id = ?3",
	[ST_PUBLIC_EACH] = "SELECT u.id, u.name FROM public_lists l JOIN users u ON u.id = l.member_id "
	    "WHERE l.list = ?2 AND ?1 = 0 ORDER BY u.name",
	[ST_PUBLIC_HAS] = "SELECT 1 FROM public_lists WHERE list = ?1 AND member_id = ?2",
	[ST_LIST_HAS] = "SELECT 1 FROM user_lists WHERE list = ?1 AND member_id = ?2 AND owner_id = ?3",
	[ST_ADMIN_EACH] = "SELECT id, name FROM users WHERE admin != 0 AND ?1 = 0 AND ?2 = ?2 "
	    "ORDER BY name",
	[ST_COMPUTER_EACH] = "SELECT id, name FROM users WHERE computer != 0 AND ?1 = 0 AND ?2 = ?2 "
	    "ORDER BY name",
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
	[ST_USER_FIND] = "SELECT id, name, password, admin, last_login, computer FROM users WHERE name = ?1",
	[ST_USER_ADD] = "INSERT INTO users (name, password, admin, created) "
	    "VALUES (?1, ?2, ?3, strftime('%s','now'))",
	[ST_USER_REMOVE] = "DELETE FROM users WHERE id = ?1",
	/* What refers to an account without a foreign key: entries of tournaments
	 * not started go, those of running ones are withdrawn from the next round. */
	[ST_USER_DROP_ENTRIES] = "DELETE FROM tourney_players WHERE user_id = ?1 AND tourney_id IN "
	    "(SELECT id FROM tourneys WHERE state = 'created')",
	[ST_USER_DROP_BYES] = "DELETE FROM tourney_byes WHERE user_id = ?1 AND tourney_id IN "
	    "(SELECT id FROM tourneys WHERE state != 'finished')",
	[ST_USER_WITHDRAW] = "UPDATE tourney_players SET withdrawn_round = (SELECT current_round + 1 "
	    "FROM tourneys WHERE tourneys.id = tourney_id) WHERE user_id = ?1 AND withdrawn_round = 0 "
	    "AND tourney_id IN (SELECT id FROM tourneys WHERE state IN ('running', 'paused'))",
	/* Its boards of a running round with no result yet are lost by forfeit, with no
	 * game: the one it adjourned there ends below, as any adjourned game does. */
	[ST_USER_FORFEIT_BOARDS] = "UPDATE tourney_pairings SET game_id = NULL, result = "
	    "CASE WHEN white = " START_NO " THEN '-+' ELSE '+-' END WHERE result = '*' AND "
	    "black != 0 AND " START_NO " IN (white, black) AND round = (SELECT current_round "
	    "FROM tourneys WHERE id = tourney_id AND state IN ('running', 'paused'))",
	[ST_USER_DELETED] = "INSERT INTO deleted_users (user_id, name, deleted) "
	    "VALUES (?1, ?2, strftime('%s','now'))",
	/* Nobody can resume them now (resume takes both accounts): each ends by
	 * end_stored() as a forfeit of the account.  ?2: no server runs, so a game
	 * left active (a crash) is the database's to end too. */
	[ST_USER_NEXT_STORED] = "SELECT id, white_id = ?1, "
	    "CASE WHEN white_id = ?1 THEN white ELSE black END FROM games WHERE "
	    "(status = 'adjourned' OR (?2 AND status = 'active')) AND "
	    "(white_id = ?1 OR black_id = ?1) LIMIT 1",
	/* A stored game that can be played no more ends as a live game would: with
	 * its result from move 2 (rating nobody), else (or with no result, ?2 '*')
	 * aborted and not kept. */
	[ST_STORED_END] = "UPDATE games SET status = 'finished', result = ?2, reason = ?3, "
	    "termination = ?4, ended = strftime('%s','now') WHERE id = ?1 AND ?2 != '*' AND "
	    "(status = 'adjourned' OR (?5 AND status = 'active')) AND "
	    "(SELECT count(*) FROM moves WHERE game_id = games.id) >= 2",
	[ST_STORED_DROP] = "DELETE FROM games WHERE id = ?1 AND "
	    "(status = 'adjourned' OR (?2 AND status = 'active'))",
	[ST_DELETED_SINCE] = "SELECT id, user_id FROM deleted_users WHERE id > ?1 ORDER BY id",
	[ST_DELETED_LAST] = "SELECT coalesce(max(id), 0) FROM deleted_users",
	[ST_SAVEPOINT] = "SAVEPOINT one_change",
	[ST_SAVEPOINT_RELEASE] = "RELEASE one_change",
	[ST_SAVEPOINT_ROLLBACK] = "ROLLBACK TO one_change",
	[ST_USER_PASSWORD] = "UPDATE users SET password = ?2 WHERE id = ?1",
	[ST_USER_ADMIN] = "UPDATE users SET admin = ?2 WHERE name = ?1",
	[ST_USER_TOUCH] = "UPDATE users SET last_login = ?2 WHERE id = ?1",
	[ST_USER_COMPUTER] = "UPDATE users SET computer = ?2 WHERE name = ?1",
	[ST_VAR_SET] = "INSERT INTO user_vars (user_id, name, value) VALUES (?1, ?2, ?3) "
	    "ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value",
	[ST_VAR_DEL] = "DELETE FROM user_vars WHERE user_id = ?1 AND name = ?2",
	[ST_VAR_EACH] = "SELECT name, value FROM user_vars WHERE user_id = ?1 ORDER BY name",
	[ST_ALIAS_SET] = "INSERT INTO user_aliases (user_id, name, value) VALUES (?1, ?2, ?3) "
	    "ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value",
	[ST_ALIAS_DEL] = "DELETE FROM user_aliases WHERE user_id = ?1 AND name = ?2",
	[ST_ALIAS_EACH] = "SELECT name, value FROM user_aliases WHERE user_id = ?1 ORDER BY name",
	[ST_CHANNEL_ADD] = "INSERT OR IGNORE INTO user_channels (user_id, channel) VALUES (?1, ?2)",
	[ST_CHANNEL_DEL] = "DELETE FROM user_channels WHERE user_id = ?1 AND channel = ?2",
	[ST_CHANNEL_EACH] = "SELECT channel FROM user_channels WHERE user_id = ?1 ORDER BY channel",
	[ST_NEWS_ADD] = "INSERT INTO news (posted, title) VALUES (?1, ?2)",
	[ST_NEWS_EACH] = "SELECT id, posted, title FROM news ORDER BY id DESC LIMIT ?1",
	[ST_GAME_INSERT] = "INSERT INTO games (white, black, white_id, black_id, white_rating, "
	    "black_rating, rated, category, time_control, start_fen, started, status, white_clock, "
	    "black_clock) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
	[ST_GAME_MOVE] = "INSERT OR REPLACE INTO moves (game_id, ply, uci, san, time_ms, clock_ms) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[ST_GAME_CLOCKS] = "UPDATE games SET white_clock = ?2, black_clock = ?3, clock_ply = ?4 "
	    "WHERE id = ?1",
	/* The right-hand sides read the row as it was: the columns change places. */
	[ST_GAME_SWAP_SIDES] = "UPDATE games SET white = black, black = white, white_id = black_id, "
	    "black_id = white_id, white_rating = black_rating, black_rating = white_rating "
	    "WHERE id = ?1",
	[ST_GAME_TRUNCATE] = "DELETE FROM moves WHERE game_id = ?1 AND ply > ?2",
	[ST_GAME_UPDATE] = "UPDATE games SET status = ?2, result = ?3, reason = ?4, termination = ?5, "
	    "ended = ?6, white_clock = ?7, black_clock = ?8, clock_ply = ?9 WHERE id = ?1",
	[ST_GAME_DELETE] = "DELETE FROM games WHERE id = ?1",
	[ST_GAME_LOAD] = GAME_SELECT "WHERE id = ?1",
	[ST_GAME_MOVES] = "SELECT ply, uci, san, time_ms, clock_ms FROM moves WHERE game_id = ?1 "
	    "ORDER BY ply",
	[ST_GAMES_STATUS] = GAME_SELECT "WHERE status = ?1 ORDER BY id",
	[ST_GAMES_OF_STATUS] = GAME_SELECT "WHERE " PLAYED_BY(1, 4) " AND status = ?3 "
	    "ORDER BY id DESC LIMIT ?2",
	[ST_GAMES_NEXT_ID] = "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0), "
	    "coalesce((SELECT max(id) FROM games), 0)) + 1",
	[ST_GAMES_RECENT] = GAME_SELECT "WHERE status = 'finished' ORDER BY ended DESC, id DESC "
	    "LIMIT ?1",
	/* History: a player's finished games, oldest first; aborted games are not kept in it. */
	[ST_HISTORY_COUNT] = "SELECT count(*) FROM games WHERE " PLAYED_BY(1, 4)
	    " AND status = 'finished'",
	[ST_HISTORY_AT] = GAME_SELECT "WHERE " PLAYED_BY(1, 4) " AND status = 'finished' "
	    "ORDER BY id LIMIT ?2 OFFSET ?3",
	[ST_RECORD_LATEST] = GAME_SELECT "WHERE " PLAYED_BY(1, 4) " AND status IN "
	    "('finished', 'adjourned') ORDER BY id DESC LIMIT 1",
	[ST_RATING_GET] = "SELECT rating, rd, volatility, wins, losses, draws FROM ratings "
	    "WHERE user_id = ?1 AND category = ?2",
	/* Ranked: RD below ?2; ?3 not 0 leaves computers out (both by ratings_by_rank). */
	[ST_RATING_RANKED] = "SELECT r.user_id, u.name, r.rating, r.rd FROM ratings r "
	    "JOIN users u ON u.id = r.user_id WHERE r.category = ?1 AND r.rd < ?2 "
	    "AND (?3 = 0 OR u.computer = 0) ORDER BY r.rating DESC, r.user_id LIMIT ?5 OFFSET ?4",
	[ST_RATING_AHEAD] = "SELECT count(*) FROM ratings r JOIN users u ON u.id = r.user_id "
	    "WHERE r.category = ?1 AND r.rd < ?2 AND (?3 = 0 OR u.computer = 0) "
	    "AND r.rating >= ?4 AND (r.rating > ?4 OR r.user_id < ?5)",
	/* A range of the name index: from the prefix to the same with its last letter raised. */
	[ST_USER_PREFIX] = "SELECT name FROM users WHERE name >= ?1 AND name < ?2 ORDER BY name "
	    "LIMIT ?3",
	[ST_RATING_PUT] = "INSERT INTO ratings (user_id, category, rating, rd, volatility, wins, "
	    "losses, draws) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (user_id, category) "
	    "DO UPDATE SET rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, "
	    "wins = excluded.wins, losses = excluded.losses, draws = excluded.draws",
	[ST_MESSAGE_ADD] = "INSERT INTO messages (recipient_id, sender_id, sender, sent, text) "
	    "VALUES (?1, ?2, ?3, ?4, ?5)",
	[ST_MESSAGE_EACH] = "SELECT id, sender_id, sender, sent, text FROM messages "
	    "WHERE recipient_id = ?1 ORDER BY id",
	[ST_MESSAGE_DEL] = "DELETE FROM messages WHERE id = ?1 AND recipient_id = ?2",
	[ST_MESSAGE_COUNT] = "SELECT count(*) FROM messages WHERE recipient_id = ?1",
	[ST_NOTE_EACH] = "SELECT line, text FROM finger_notes WHERE user_id = ?1 ORDER BY line",
	[ST_NOTE_CLEAR] = "DELETE FROM finger_notes WHERE user_id = ?1",
	[ST_NOTE_ADD] = "INSERT INTO finger_notes (user_id, line, text) VALUES (?1, ?2, ?3)",
	[ST_COMMENT_ADD] = "INSERT INTO comments (user_id, admin_id, admin, added, text) "
	    "VALUES (?1, ?2, ?3, ?4, ?5)",
	[ST_COMMENT_EACH] = "SELECT admin, added, text FROM comments WHERE user_id = ?1 ORDER BY id",
	[ST_ADMIN_LOG_ADD] = "INSERT INTO admin_log (at, admin_id, admin, action, target_id, target, "
	    "detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_ADMIN_LOG_EACH] = "SELECT id, at, admin_id, admin, action, target_id, target, detail "
	    "FROM (SELECT * FROM admin_log ORDER BY id DESC LIMIT ?1) ORDER BY id",
	[ST_BAN_ADD] = "INSERT OR IGNORE INTO address_bans (range, admin_id, added) VALUES (?1, ?2, ?3)",
	[ST_BAN_DEL] = "DELETE FROM address_bans WHERE range = ?1",
	[ST_BAN_EACH] = "SELECT range FROM address_bans ORDER BY range",
	[ST_USER_ADMIN_LEVEL] = "UPDATE users SET admin = ?2 WHERE name = ?1",
	/* --- tournaments --- */
	[ST_TOURNEY_INSERT] = "INSERT INTO tourneys (name, kind, rounds, time_control, rated, "
	    "director_id, director, state, current_round, tiebreaks, bye_half, created) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	[ST_TOURNEY_UPDATE] = "UPDATE tourneys SET state = ?2, current_round = ?3, rounds = ?4, "
	    "tiebreaks = ?5, bye_half = ?6, finished = ?7, web_delay_s = ?8 WHERE id = ?1",
	[ST_TOURNEY_EACH] = "SELECT id, name, kind, rounds, time_control, rated, director_id, "
	    "director, state, current_round, tiebreaks, bye_half, created, finished, web_delay_s "
	    "FROM tourneys "
	    "ORDER BY id",
	[ST_TOURNEY_PLAYER_PUT] = "INSERT OR REPLACE INTO tourney_players (tourney_id, user_id, "
	    "name, joined, start_no, rating, withdrawn_round, paused) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[ST_TOURNEY_PLAYER_DEL] = "DELETE FROM tourney_players WHERE tourney_id = ?1 AND user_id = ?2",
	[ST_TOURNEY_PLAYERS] = "SELECT user_id, name, joined, start_no, rating, withdrawn_round, "
	    "paused FROM tourney_players WHERE tourney_id = ?1 ORDER BY start_no, joined",
	[ST_TOURNEY_BYE_PUT] = "INSERT OR REPLACE INTO tourney_byes (tourney_id, user_id, round, kind) "
	    "VALUES (?1, ?2, ?3, ?4)",
	[ST_TOURNEY_BYE_DEL] = "DELETE FROM tourney_byes WHERE tourney_id = ?1 AND user_id = ?2 "
	    "AND round = ?3",
	[ST_TOURNEY_BYES] = "SELECT user_id, round, kind FROM tourney_byes WHERE tourney_id = ?1 "
	    "ORDER BY round, user_id",
	[ST_TOURNEY_PAIRING_PUT] = "INSERT OR REPLACE INTO tourney_pairings (tourney_id, round, "
	    "board, white, black, result, game_id, absent_deadline_ms) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[ST_TOURNEY_PAIRINGS] = "SELECT round, board, white, black, result, game_id, "
	    "absent_deadline_ms FROM "
	    "tourney_pairings WHERE tourney_id = ?1 ORDER BY round, board",
	[ST_GAME_SET_TOURNEY] = "UPDATE games SET tourney_id = ?2, tourney_round = ?3, "
	    "tourney_board = ?4 WHERE id = ?1",
	[ST_GAME_TOURNEY] = "SELECT tourney_id, tourney_round, tourney_board FROM games "
	    "WHERE id = ?1 AND tourney_id IS NOT NULL",
	/* --- end of tournaments --- */
};

struct db {
	sqlite3 *handle;
	sqlite3_stmt *stmt[ST_COUNT];
	bool in_transaction;
	bool committed_early;		/* db_commit_now() committed this pass */
	void (*wal_grew)(void *arg, int pages);
	void *wal_arg;
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
}

/* Runs one statement to completion; SQLITE_DONE becomes 0. */
static int step_done(struct db *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		log_error("database: %s", sqlite3_errmsg(db->handle));
		return -1;
	}
	return 0;
}

/* Ends a row loop: resets the statement; 0 when it ran to the end. */
static int step_rows_end(struct db *db, sqlite3_stmt *st, int rc)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		log_error("database: %s", sqlite3_errmsg(db->handle));
		return -1;
	}
	return 0;
}

/* Opens the pass's transaction before its first write. */
static int write_begin(struct db *db)
{
	if (db->in_transaction)
		return 0;
	if (step_done(db, db->stmt[ST_BEGIN]) < 0)
		return -1;
	db->in_transaction = true;
	return 0;
}

/* Whether a migration left a reference to a missing row (msg says which table). */
static bool foreign_keys_broken(struct db *db, char **msg)
{
	sqlite3_stmt *st;
	bool broken = false;

	if (sqlite3_prepare_v2(db->handle, "PRAGMA foreign_key_check", -1, &st, NULL) != SQLITE_OK)
		return false;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*msg = sqlite3_mprintf("foreign key broken in %s", sqlite3_column_text(st, 0));
		broken = true;
	}
	sqlite3_finalize(st);
	return broken;
}

static int migrate(struct db *db, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int version = 0;

	if (sqlite3_prepare_v2(db->handle, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK) {
		set_err(err, errlen, "%s", sqlite3_errmsg(db->handle));
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);

	if (version > migration_count) {
		set_err(err, errlen, "database schema version %d is newer than this chessd "
		    "understands (%d); run a newer chessd", version, migration_count);
		return -1;
	}
	/*
	 * A migration may rebuild a table (SQLite's only way to change a column):
	 * with foreign keys on, dropping the old table would cascade.  They are
	 * off while migrating (it cannot change inside a transaction), and
	 * checked before each commit.
	 */
	if (version < migration_count)
		sqlite3_exec(db->handle, "PRAGMA foreign_keys=OFF", NULL, NULL, NULL);
	for (int i = version; i < migration_count; i++) {
		char *msg = NULL, pragma[64];
		snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d;", migrations[i].version);
		if (sqlite3_exec(db->handle, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK ||
		    sqlite3_exec(db->handle, migrations[i].sql, NULL, NULL, &msg) != SQLITE_OK ||
		    sqlite3_exec(db->handle, pragma, NULL, NULL, &msg) != SQLITE_OK ||
		    foreign_keys_broken(db, &msg) ||
		    sqlite3_exec(db->handle, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
			set_err(err, errlen, "migration %s failed: %s", migrations[i].name,
			    msg ? msg : sqlite3_errmsg(db->handle));
			sqlite3_free(msg);
			sqlite3_exec(db->handle, "ROLLBACK", NULL, NULL, NULL);
			sqlite3_exec(db->handle, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
			return -1;
		}
		log_info("database migrated to version %d (%s)", migrations[i].version,
		    migrations[i].name);
	}
	sqlite3_exec(db->handle, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
	return 0;
}

struct db *db_open(const char *path, char *err, size_t errlen)
{
	struct db *db = calloc(1, sizeof *db);
	char *msg = NULL;

	if (!db) {
		set_err(err, errlen, "out of memory");
		return NULL;
	}
	if (sqlite3_open_v2(path, &db->handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		set_err(err, errlen, "%s: %s", path, db->handle ? sqlite3_errmsg(db->handle) :
		    "cannot open");
		db_close(db);
		return NULL;
	}
	/* A short wait covers an admin command writing between our passes. */
	sqlite3_busy_timeout(db->handle, 2000);
	/* WAL with synchronous=FULL: a commit survives power loss. */
	if (sqlite3_exec(db->handle, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; "
	    "PRAGMA foreign_keys=ON;", NULL, NULL, &msg) != SQLITE_OK) {
		int code = sqlite3_errcode(db->handle);
		set_err(err, errlen, "%s: %s", path,
		    code == SQLITE_BUSY ? "database is locked by another process" :
		    code == SQLITE_NOTADB || code == SQLITE_CORRUPT ?
		    "not a chessd database, or corrupt" : msg ? msg : "cannot configure");
		sqlite3_free(msg);
		db_close(db);
		return NULL;
	}
	sqlite3_stmt *check;
	if (sqlite3_prepare_v2(db->handle, "PRAGMA quick_check", -1, &check, NULL) != SQLITE_OK) {
		set_err(err, errlen, "%s: corrupt database (%s)", path, sqlite3_errmsg(db->handle));
		db_close(db);
		return NULL;
	}
	int rc = sqlite3_step(check);
	bool ok = rc == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(check, 0), "ok");
	sqlite3_finalize(check);
	if (!ok) {
		set_err(err, errlen, "%s: corrupt database (%s)", path,
		    rc == SQLITE_ROW ? "quick_check failed" : sqlite3_errmsg(db->handle));
		db_close(db);
		return NULL;
	}
	if (migrate(db, err, errlen) < 0) {
		db_close(db);
		return NULL;
	}
	/* Reading works beside another writer in WAL mode; make sure we can write. */
	if (sqlite3_exec(db->handle, "BEGIN IMMEDIATE; COMMIT;", NULL, NULL, &msg) != SQLITE_OK) {
		set_err(err, errlen, "%s: %s", path, sqlite3_errcode(db->handle) == SQLITE_BUSY ?
		    "database is locked by another process" : msg ? msg : "cannot write");
		sqlite3_free(msg);
		db_close(db);
		return NULL;
	}
	for (int i = 0; i < ST_COUNT; i++) {
		if (sqlite3_prepare_v3(db->handle, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
		    &db->stmt[i], NULL) != SQLITE_OK) {
			set_err(err, errlen, "prepare failed: %s (%s)", sqlite3_errmsg(db->handle),
			    stmt_sql[i]);
			db_close(db);
			return NULL;
		}
	}
	return db;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	if (db->in_transaction)
		db_commit(db);
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(db->stmt[i]);
	sqlite3_close(db->handle);
	free(db);
}

int db_commit(struct db *db)
{
	db->committed_early = false;
	if (!db->in_transaction)
		return 0;
	if (step_done(db, db->stmt[ST_COMMIT]) < 0) {
		db_rollback(db);
		return -1;
	}
	db->in_transaction = false;
	return 0;
}

int db_commit_now(struct db *db)
{
	if (!db->in_transaction)
		return 0;
	if (step_done(db, db->stmt[ST_COMMIT]) < 0) {
		db_rollback(db);
		return -1;
	}
	db->in_transaction = false;
	db->committed_early = true;
	return 0;
}

void db_commit_earlier(struct db *db)
{
	if (db_commit_now(db) < 0)
		log_error("the database refused this pass's earlier writes; they are lost");
}

void db_rollback(struct db *db)
{
	if (!db->in_transaction)
		return;
	/* A failed COMMIT (disk full, I/O error) may have rolled back already. */
	if (!sqlite3_get_autocommit(db->handle))
		step_done(db, db->stmt[ST_ROLLBACK]);
	db->in_transaction = false;
}

static int wal_hook(void *arg, sqlite3 *handle, const char *name, int pages)
{
	struct db *db = arg;

	(void)handle;
	(void)name;
	db->wal_grew(db->wal_arg, pages);
	return SQLITE_OK;
}

void db_watch_wal(struct db *db, void (*grew)(void *arg, int pages), void *arg)
{
	db->wal_grew = grew;
	db->wal_arg = arg;
	/* Our hook replaces SQLite's automatic checkpoint. */
	sqlite3_wal_hook(db->handle, wal_hook, db);
}

int db_set_deferred_sync(struct db *db, bool deferred)
{
	return sqlite3_exec(db->handle, deferred ? "PRAGMA synchronous=NORMAL" :
	    "PRAGMA synchronous=FULL", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

bool db_pending(const struct db *db)
{
	return db->in_transaction || db->committed_early;
}

int db_user_find(struct db *db, const char *name, struct db_user *out)
{
	sqlite3_stmt *st = db->stmt[ST_USER_FIND];
	int found = 0;

	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		snprintf(out->name, sizeof out->name, "%s", sqlite3_column_text(st, 1));
		snprintf(out->password, sizeof out->password, "%s", sqlite3_column_text(st, 2));
		out->admin = sqlite3_column_int(st, 3) != 0;
		out->admin_level = sqlite3_column_int(st, 3);
		out->last_login = sqlite3_column_int64(st, 4);
		out->computer = sqlite3_column_int(st, 5) != 0;
		found = 1;
	} else if (rc != SQLITE_DONE) {
		log_error("database: %s", sqlite3_errmsg(db->handle));
		found = -1;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return found;
}

int db_user_add(struct db *db, const char *name, const char *password_hash, bool admin)
{
	sqlite3_stmt *st = db->stmt[ST_USER_ADD];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, password_hash, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, admin);
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_CONSTRAINT)
		return 1;
	if (rc != SQLITE_DONE) {
		log_error("database: %s", sqlite3_errmsg(db->handle));
		return -1;
	}
	return 0;
}

/* Binds (int64, text) and steps; returns rows changed or -1. */
static int write_id_text(struct db *db, enum stmt which, int64_t id, const char *text)
{
	sqlite3_stmt *st = db->stmt[which];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (text)
		sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	if (step_done(db, st) < 0)
		return -1;
	return sqlite3_changes(db->handle);
}

/* Binds one id and steps; -1 on error. */
static int write_id(struct db *db, enum stmt which, int64_t id)
{
	sqlite3_stmt *st = db->stmt[which];

	sqlite3_bind_int64(st, 1, id);
	return step_done(db, st);
}

/*
 * Ends stored game id for good (see ST_STORED_END): 1 finished with result,
 * 0 dropped (or not stored), -1 error.  active_too: a game left active by a
 * crash, when no server runs.
 */
static int end_stored(struct db *db, int64_t id, const char *result, const char *reason,
    enum game_termination termination, bool active_too)
{
	sqlite3_stmt *st = db->stmt[ST_STORED_END];

	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, result, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, db_game_termination_name(termination), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, active_too);
	if (step_done(db, st) < 0)
		return -1;
	int kept = sqlite3_changes(db->handle) > 0;
	st = db->stmt[ST_STORED_DROP];
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, active_too);
	return step_done(db, st) < 0 ? -1 : kept;
}

int db_game_end_stored(struct db *db, int64_t id, const char *result, const char *reason,
    enum game_termination termination)
{
	if (write_begin(db) < 0)
		return -1;
	return end_stored(db, id, result, reason, termination, false);
}

/* The account's games nobody can resume any more end, one at a time, as its forfeits. */
static int end_games(struct db *db, int64_t user_id, bool no_server)
{
	sqlite3_stmt *st = db->stmt[ST_USER_NEXT_STORED];
	int rc;

	sqlite3_bind_int64(st, 1, user_id);
	sqlite3_bind_int(st, 2, no_server);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		bool white = sqlite3_column_int(st, 1);
		char reason[DB_NAME_MAX + 48];
		snprintf(reason, sizeof reason, "%s forfeits: the account was deleted",
		    (const char *)sqlite3_column_text(st, 2));
		sqlite3_reset(st);
		if (end_stored(db, id, white ? "0-1" : "1-0", reason, TERMINATION_ABANDONED,
		    no_server) < 0)
			break;
	}
	if (rc == SQLITE_ROW) {		/* end_stored() failed and said why */
		sqlite3_clear_bindings(st);
		return -1;
	}
	return step_rows_end(db, st, rc);
}

int db_user_remove(struct db *db, const char *name, bool no_server, int64_t *id_out)
{
	struct db_user user;
	int found = db_user_find(db, name, &user);

	if (found <= 0)
		return found;
	if (db_savepoint(db) < 0)
		return -1;
	sqlite3_stmt *st = db->stmt[ST_USER_DELETED];
	sqlite3_bind_int64(st, 1, user.id);
	sqlite3_bind_text(st, 2, user.name, -1, SQLITE_STATIC);
	/* The account row last: its foreign keys clear ratings, settings, game and director ids. */
	if (write_id(db, ST_USER_DROP_ENTRIES, user.id) < 0 ||
	    write_id(db, ST_USER_DROP_BYES, user.id) < 0 ||
	    write_id(db, ST_USER_WITHDRAW, user.id) < 0 ||
	    write_id(db, ST_USER_FORFEIT_BOARDS, user.id) < 0 ||
	    end_games(db, user.id, no_server) < 0 || step_done(db, st) < 0 ||
	    write_id(db, ST_USER_REMOVE, user.id) < 0) {
		db_savepoint_end(db, false);
		return -1;
	}
	if (db_savepoint_end(db, true) < 0)
		return -1;
	if (id_out)
		*id_out = user.id;
	return 1;
}

int db_deleted_last(struct db *db, int64_t *last)
{
	sqlite3_stmt *st = db->stmt[ST_DELETED_LAST];
	int rc = sqlite3_step(st);

	*last = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

int db_deleted_since(struct db *db, int64_t *last, void (*fn)(void *arg, int64_t user_id),
    void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_DELETED_SINCE];
	int rc;

	sqlite3_bind_int64(st, 1, *last);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*last = sqlite3_column_int64(st, 0);
		fn(arg, sqlite3_column_int64(st, 1));
	}
	return step_rows_end(db, st, rc);
}

int db_savepoint(struct db *db)
{
	if (write_begin(db) < 0)
		return -1;
	return step_done(db, db->stmt[ST_SAVEPOINT]);
}

int db_savepoint_end(struct db *db, bool keep)
{
	if (!keep && step_done(db, db->stmt[ST_SAVEPOINT_ROLLBACK]) < 0)
		return -1;
	return step_done(db, db->stmt[ST_SAVEPOINT_RELEASE]);
}

int db_user_set_password(struct db *db, int64_t id, const char *password_hash)
{
	return write_id_text(db, ST_USER_PASSWORD, id, password_hash) < 0 ? -1 : 0;
}

/* Sets a yes/no column of a user by name; 1 changed, 0 no such user. */
static int set_user_flag(struct db *db, enum stmt which, const char *name, int on)
{
	sqlite3_stmt *st = db->stmt[which];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, on);
	if (step_done(db, st) < 0)
		return -1;
	return sqlite3_changes(db->handle) > 0;
}

int db_user_set_computer(struct db *db, const char *name, bool computer)
{
	return set_user_flag(db, ST_USER_COMPUTER, name, computer);
}

int db_user_set_admin(struct db *db, const char *name, bool admin)
{
	return set_user_flag(db, ST_USER_ADMIN, name, admin);
}

int db_user_set_admin_level(struct db *db, const char *name, int level)
{
	return set_user_flag(db, ST_USER_ADMIN_LEVEL, name, level);
}

int db_user_touch(struct db *db, int64_t id, int64_t when)
{
	sqlite3_stmt *st = db->stmt[ST_USER_TOUCH];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, when);
	return step_done(db, st);
}

/* Upserts (id, name) -> value, or deletes the row when value is NULL. */
static int set_pair(struct db *db, enum stmt set, enum stmt del, int64_t id,
    const char *name, const char *value)
{
	sqlite3_stmt *st = db->stmt[value ? set : del];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (value)
		sqlite3_bind_text(st, 3, value, -1, SQLITE_STATIC);
	return step_done(db, st);
}

static int each_pair(struct db *db, enum stmt which, int64_t id,
    void (*fn)(void *, const char *, const char *), void *arg)
{
	sqlite3_stmt *st = db->stmt[which];
	int rc;

	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(arg, (const char *)sqlite3_column_text(st, 0),
		    (const char *)sqlite3_column_text(st, 1));
	return step_rows_end(db, st, rc);
}

int db_var_set(struct db *db, int64_t user_id, const char *name, const char *value)
{
	return set_pair(db, ST_VAR_SET, ST_VAR_DEL, user_id, name, value);
}

int db_var_each(struct db *db, int64_t user_id,
    void (*fn)(void *arg, const char *name, const char *value), void *arg)
{
	return each_pair(db, ST_VAR_EACH, user_id, fn, arg);
}

int db_alias_set(struct db *db, int64_t user_id, const char *name, const char *value)
{
	return set_pair(db, ST_ALIAS_SET, ST_ALIAS_DEL, user_id, name, value);
}

int db_alias_each(struct db *db, int64_t user_id,
    void (*fn)(void *arg, const char *name, const char *value), void *arg)
{
	return each_pair(db, ST_ALIAS_EACH, user_id, fn, arg);
}

int db_channel_set(struct db *db, int64_t user_id, int channel, bool member)
{
	sqlite3_stmt *st = db->stmt[member ? ST_CHANNEL_ADD : ST_CHANNEL_DEL];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, user_id);
	sqlite3_bind_int(st, 2, channel);
	return step_done(db, st);
}

int db_channel_each(struct db *db, int64_t user_id, void (*fn)(void *arg, int channel), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_CHANNEL_EACH];
	int rc;

	sqlite3_bind_int64(st, 1, user_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(arg, sqlite3_column_int(st, 0));
	return step_rows_end(db, st, rc);
}

int db_news_add(struct db *db, int64_t when, const char *title)
{
	sqlite3_stmt *st = db->stmt[ST_NEWS_ADD];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, when);
	sqlite3_bind_text(st, 2, title, -1, SQLITE_STATIC);
	return step_done(db, st);
}

int db_news_each(struct db *db, int limit,
    void (*fn)(void *arg, int64_t id, int64_t when, const char *title), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_NEWS_EACH];
	int rc;

	sqlite3_bind_int(st, 1, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(arg, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
		    (const char *)sqlite3_column_text(st, 2));
	return step_rows_end(db, st, rc);
}

/* --- messages, finger notes, comments, the admin log, address bans --- */

int db_message_add(struct db *db, int64_t recipient_id, int64_t sender_id, const char *sender,
    int64_t when, const char *text)
{
	sqlite3_stmt *st = db->stmt[ST_MESSAGE_ADD];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, recipient_id);
	sqlite3_bind_int64(st, 2, sender_id);
	sqlite3_bind_text(st, 3, sender, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, when);
	sqlite3_bind_text(st, 5, text, -1, SQLITE_STATIC);
	return step_done(db, st);
}

int db_message_count(struct db *db, int64_t recipient_id)
{
	sqlite3_stmt *st = db->stmt[ST_MESSAGE_COUNT];
	int n = -1;

	sqlite3_bind_int64(st, 1, recipient_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return n;
}

int db_message_each(struct db *db, int64_t recipient_id,
    void (*fn)(void *arg, const struct db_message *m), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_MESSAGE_EACH];
	struct db_message m;
	int rc;

	sqlite3_bind_int64(st, 1, recipient_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		m.id = sqlite3_column_int64(st, 0);
		m.sender_id = sqlite3_column_int64(st, 1);
		snprintf(m.sender, sizeof m.sender, "%s", sqlite3_column_text(st, 2));
		m.sent = sqlite3_column_int64(st, 3);
		m.text = (const char *)sqlite3_column_text(st, 4);
		fn(arg, &m);
	}
	return step_rows_end(db, st, rc);
}

int db_message_delete(struct db *db, int64_t recipient_id, int64_t id)
{
	sqlite3_stmt *st = db->stmt[ST_MESSAGE_DEL];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, recipient_id);
	return step_done(db, st);
}

int db_notes_each(struct db *db, int64_t user_id,
    void (*fn)(void *arg, int line, const char *text), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_NOTE_EACH];
	int rc;

	sqlite3_bind_int64(st, 1, user_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(arg, sqlite3_column_int(st, 0), (const char *)sqlite3_column_text(st, 1));
	return step_rows_end(db, st, rc);
}

int db_notes_put(struct db *db, int64_t user_id, const char *const *lines, int n)
{
	if (write_begin(db) < 0 || db_savepoint(db) < 0)
		return -1;
	sqlite3_bind_int64(db->stmt[ST_NOTE_CLEAR], 1, user_id);
	bool ok = step_done(db, db->stmt[ST_NOTE_CLEAR]) == 0;
	for (int i = 0; ok && i < n; i++) {
		sqlite3_stmt *st = db->stmt[ST_NOTE_ADD];
		sqlite3_bind_int64(st, 1, user_id);
		sqlite3_bind_int(st, 2, i + 1);
		sqlite3_bind_text(st, 3, lines[i], -1, SQLITE_STATIC);
		ok = step_done(db, st) == 0;
	}
	return db_savepoint_end(db, ok) < 0 || !ok ? -1 : 0;
}

int db_comment_add(struct db *db, int64_t user_id, int64_t admin_id, const char *admin,
    int64_t when, const char *text)
{
	sqlite3_stmt *st = db->stmt[ST_COMMENT_ADD];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, user_id);
	sqlite3_bind_int64(st, 2, admin_id);
	sqlite3_bind_text(st, 3, admin, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, when);
	sqlite3_bind_text(st, 5, text, -1, SQLITE_STATIC);
	return step_done(db, st);
}

int db_comment_each(struct db *db, int64_t user_id,
    void (*fn)(void *arg, const char *admin, int64_t when, const char *text), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_COMMENT_EACH];
	int rc;

	sqlite3_bind_int64(st, 1, user_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(arg, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1),
		    (const char *)sqlite3_column_text(st, 2));
	return step_rows_end(db, st, rc);
}

int db_admin_log_add(struct db *db, const struct db_admin_action *a)
{
	sqlite3_stmt *st = db->stmt[ST_ADMIN_LOG_ADD];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, a->at);
	sqlite3_bind_int64(st, 2, a->admin_id);
	sqlite3_bind_text(st, 3, a->admin, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, a->action, -1, SQLITE_STATIC);
	if (a->target_id)
		sqlite3_bind_int64(st, 5, a->target_id);
	else
		sqlite3_bind_null(st, 5);
	sqlite3_bind_text(st, 6, a->target ? a->target : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, a->detail ? a->detail : "", -1, SQLITE_STATIC);
	return step_done(db, st);
}

int db_admin_log_each(struct db *db, int limit,
    void (*fn)(void *arg, int64_t id, const struct db_admin_action *a), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_ADMIN_LOG_EACH];
	struct db_admin_action a;
	int rc;

	sqlite3_bind_int(st, 1, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		a.at = sqlite3_column_int64(st, 1);
		a.admin_id = sqlite3_column_int64(st, 2);
		a.admin = (const char *)sqlite3_column_text(st, 3);
		a.action = (const char *)sqlite3_column_text(st, 4);
		a.target_id = sqlite3_column_int64(st, 5);
		a.target = (const char *)sqlite3_column_text(st, 6);
		a.detail = (const char *)sqlite3_column_text(st, 7);
		fn(arg, sqlite3_column_int64(st, 0), &a);
	}
	return step_rows_end(db, st, rc);
}

int db_address_ban_set(struct db *db, const char *range, int64_t admin_id, int64_t when, bool on)
{
	sqlite3_stmt *st = db->stmt[on ? ST_BAN_ADD : ST_BAN_DEL];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_text(st, 1, range, -1, SQLITE_STATIC);
	if (on) {
		sqlite3_bind_int64(st, 2, admin_id);
		sqlite3_bind_int64(st, 3, when);
	}
	if (step_done(db, st) < 0)
		return -1;
	return sqlite3_changes(db->handle) > 0;
}

int db_address_ban_each(struct db *db, void (*fn)(void *arg, const char *range), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_BAN_EACH];
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(arg, (const char *)sqlite3_column_text(st, 0));
	return step_rows_end(db, st, rc);
}

/* Binds text, or NULL for an empty string. */
static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s && *s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void copy_column(sqlite3_stmt *st, int col, char *out, size_t len)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	snprintf(out, len, "%s", s ? (const char *)s : "");
}

/* The texts the games table holds; the SQL above names them too. */
static const char *const status_names[GAME_STATUS_COUNT] = {
	[GAME_ACTIVE] = "active",
	[GAME_ADJOURNED] = "adjourned",
	[GAME_FINISHED] = "finished",
	[GAME_ABORTED] = "aborted",
};

static const char *const termination_names[TERMINATION_COUNT] = {
	[TERMINATION_NONE] = NULL,
	[TERMINATION_NORMAL] = "normal",
	[TERMINATION_TIME_FORFEIT] = "time forfeit",
	[TERMINATION_ABANDONED] = "abandoned",
	[TERMINATION_ADJUDICATION] = "adjudication",
	[TERMINATION_UNTERMINATED] = "unterminated",
};

const char *db_game_status_name(enum game_status status)
{
	return (unsigned)status < GAME_STATUS_COUNT ? status_names[status] : "aborted";
}

const char *db_game_termination_name(enum game_termination termination)
{
	return (unsigned)termination < TERMINATION_COUNT ? termination_names[termination] : NULL;
}

/* A row no release wrote reads as aborted: neither resumable nor in a history. */
static enum game_status read_status(sqlite3_stmt *st, int col)
{
	const char *text = (const char *)sqlite3_column_text(st, col);

	for (int i = 0; text && i < GAME_STATUS_COUNT; i++)
		if (!strcmp(text, status_names[i]))
			return (enum game_status)i;
	return GAME_ABORTED;
}

/* An unknown or missing Termination leaves the tag out. */
static enum game_termination read_termination(sqlite3_stmt *st, int col)
{
	const char *text = (const char *)sqlite3_column_text(st, col);

	for (int i = TERMINATION_NONE + 1; text && i < TERMINATION_COUNT; i++)
		if (!strcmp(text, termination_names[i]))
			return (enum game_termination)i;
	return TERMINATION_NONE;
}

static void read_game(sqlite3_stmt *st, struct db_game *g)
{
	memset(g, 0, sizeof *g);
	g->id = sqlite3_column_int64(st, 0);
	copy_column(st, 1, g->white, sizeof g->white);
	copy_column(st, 2, g->black, sizeof g->black);
	g->white_id = sqlite3_column_int64(st, 3);
	g->black_id = sqlite3_column_int64(st, 4);
	copy_column(st, 5, g->white_rating, sizeof g->white_rating);
	copy_column(st, 6, g->black_rating, sizeof g->black_rating);
	g->rated = sqlite3_column_int(st, 7) != 0;
	copy_column(st, 8, g->category, sizeof g->category);
	copy_column(st, 9, g->time_control, sizeof g->time_control);
	copy_column(st, 10, g->start_fen, sizeof g->start_fen);
	g->started = sqlite3_column_int64(st, 11);
	g->ended = sqlite3_column_int64(st, 12);
	g->status = read_status(st, 13);
	copy_column(st, 14, g->result, sizeof g->result);
	copy_column(st, 15, g->reason, sizeof g->reason);
	g->termination = read_termination(st, 16);
	copy_column(st, 17, g->white_clock, sizeof g->white_clock);
	copy_column(st, 18, g->black_clock, sizeof g->black_clock);
	g->clock_ply = sqlite3_column_int(st, 19);
}

int64_t db_game_insert(struct db *db, const struct db_game *g)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_INSERT];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_text(st, 1, g->white, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, g->black, -1, SQLITE_STATIC);
	if (g->white_id)
		sqlite3_bind_int64(st, 3, g->white_id);
	if (g->black_id)
		sqlite3_bind_int64(st, 4, g->black_id);
	sqlite3_bind_text(st, 5, g->white_rating, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, g->black_rating, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, g->rated);
	sqlite3_bind_text(st, 8, g->category, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, g->time_control, -1, SQLITE_STATIC);
	bind_text_or_null(st, 10, g->start_fen);
	sqlite3_bind_int64(st, 11, g->started);
	sqlite3_bind_text(st, 12, db_game_status_name(g->status), -1, SQLITE_STATIC);
	bind_text_or_null(st, 13, g->white_clock);
	bind_text_or_null(st, 14, g->black_clock);
	if (step_done(db, st) < 0)
		return -1;
	return sqlite3_last_insert_rowid(db->handle);
}

int db_game_move(struct db *db, int64_t id, const struct db_move *m)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_MOVE];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, m->ply);
	sqlite3_bind_text(st, 3, m->uci, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, m->san, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, m->time_ms);
	sqlite3_bind_int64(st, 6, m->clock_ms);
	return step_done(db, st);
}

int db_game_clocks(struct db *db, int64_t id, const char *white_clock, const char *black_clock,
    int ply)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_CLOCKS];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, white_clock, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, black_clock, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, ply);
	return step_done(db, st);
}

int db_game_swap_sides(struct db *db, int64_t id)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_SWAP_SIDES];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	return step_done(db, st);
}

int db_game_truncate(struct db *db, int64_t id, int keep)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_TRUNCATE];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, keep);
	return step_done(db, st);
}

int db_game_update(struct db *db, const struct db_game *g)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_UPDATE];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, g->id);
	sqlite3_bind_text(st, 2, db_game_status_name(g->status), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, g->result, -1, SQLITE_STATIC);
	bind_text_or_null(st, 4, g->reason);
	bind_text_or_null(st, 5, db_game_termination_name(g->termination));
	if (g->ended)
		sqlite3_bind_int64(st, 6, g->ended);
	bind_text_or_null(st, 7, g->white_clock);
	bind_text_or_null(st, 8, g->black_clock);
	sqlite3_bind_int(st, 9, g->clock_ply);
	return step_done(db, st);
}

int db_game_delete(struct db *db, int64_t id)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_DELETE];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	return step_done(db, st);
}

int db_game_load(struct db *db, int64_t id, struct db_game *out)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_LOAD];
	int found = 0;

	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		read_game(st, out);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		found = -1;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return found;
}

int db_game_moves(struct db *db, int64_t id, void (*fn)(void *arg, const struct db_move *m), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_MOVES];
	int rc;

	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_move m = { .ply = sqlite3_column_int(st, 0) };
		copy_column(st, 1, m.uci, sizeof m.uci);
		copy_column(st, 2, m.san, sizeof m.san);
		m.time_ms = sqlite3_column_int64(st, 3);
		m.clock_ms = sqlite3_column_int64(st, 4);
		fn(arg, &m);
	}
	return step_rows_end(db, st, rc);
}

/* Steps a prepared game query, handing each row to fn. */
static int each_game(struct db *db, sqlite3_stmt *st,
    void (*fn)(void *arg, const struct db_game *g), void *arg)
{
	struct db_game g;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		read_game(st, &g);
		fn(arg, &g);
	}
	return step_rows_end(db, st, rc);
}

int db_games_with_status(struct db *db, enum game_status status,
    void (*fn)(void *arg, const struct db_game *g), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_GAMES_STATUS];

	sqlite3_bind_text(st, 1, db_game_status_name(status), -1, SQLITE_STATIC);
	return each_game(db, st, fn, arg);
}

/* Binds an owner for PLAYED_BY: an account's id, or NULL and a guest's first game id (?5). */
static void bind_owner(sqlite3_stmt *st, int index, int64_t user_id)
{
	if (user_id > 0)
		sqlite3_bind_int64(st, index, user_id);
	else
		sqlite3_bind_null(st, index);
	sqlite3_bind_int64(st, 5, user_id < 0 ? -user_id : 0);
}

int64_t db_games_next_id(struct db *db)
{
	sqlite3_stmt *st = db->stmt[ST_GAMES_NEXT_ID];
	int64_t next = -1;

	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		next = sqlite3_column_int64(st, 0);
		rc = SQLITE_DONE;
	}
	return step_rows_end(db, st, rc) < 0 ? -1 : next;
}

int db_games_of(struct db *db, const char *name, int64_t user_id, enum game_status status,
    int limit, void (*fn)(void *arg, const struct db_game *g), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_GAMES_OF_STATUS];

	if (!user_id)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	bind_owner(st, 4, user_id);
	sqlite3_bind_int(st, 2, limit);
	sqlite3_bind_text(st, 3, db_game_status_name(status), -1, SQLITE_STATIC);
	return each_game(db, st, fn, arg);
}

int db_games_recent(struct db *db, int limit, void (*fn)(void *arg, const struct db_game *g),
    void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_GAMES_RECENT];

	sqlite3_bind_int(st, 1, limit);
	return each_game(db, st, fn, arg);
}

/* How many games a player's history holds in all; -1 on an error. */
static int history_count(struct db *db, const char *name, int64_t user_id)
{
	sqlite3_stmt *st = db->stmt[ST_HISTORY_COUNT];
	int count = 0;

	if (!user_id)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	bind_owner(st, 4, user_id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		count = sqlite3_column_int(st, 0);
		rc = SQLITE_DONE;
	}
	return step_rows_end(db, st, rc) < 0 ? -1 : count;
}

/* Steps ST_HISTORY_AT for `limit` games from place `first` (0: the oldest). */
static int history_from(struct db *db, const char *name, int64_t user_id, int first, int limit,
    void (*fn)(void *arg, int number, const struct db_game *g), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_HISTORY_AT];
	struct db_game g;
	int rc, place = first;

	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	bind_owner(st, 4, user_id);
	sqlite3_bind_int(st, 2, limit);
	sqlite3_bind_int(st, 3, first);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		read_game(st, &g);
		fn(arg, place++ % DB_HISTORY_NUMBERS, &g);
	}
	return step_rows_end(db, st, rc);
}

int db_history_each(struct db *db, const char *name, int64_t user_id, int limit,
    void (*fn)(void *arg, int number, const struct db_game *g), void *arg)
{
	int count = history_count(db, name, user_id);

	if (count <= 0)
		return count;
	return history_from(db, name, user_id, count > limit ? count - limit : 0, limit, fn, arg);
}

static void copy_found(void *arg, int number, const struct db_game *g)
{
	(void)number;
	*(struct db_game *)arg = *g;
}

int db_record_find(struct db *db, const char *name, int64_t user_id, int number,
    struct db_game *out)
{
	if (!user_id)
		return 0;
	if (number == DB_RECORD_LATEST) {
		sqlite3_stmt *st = db->stmt[ST_RECORD_LATEST];
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		bind_owner(st, 4, user_id);
		int rc = sqlite3_step(st), found = rc == SQLITE_ROW;
		if (found) {
			read_game(st, out);
			rc = SQLITE_DONE;
		}
		return step_rows_end(db, st, rc) < 0 ? -1 : found;
	}
	int count = history_count(db, name, user_id);
	if (count < 0)
		return -1;
	/* The latest game to carry the number; a negative one counts back. */
	int place = number < 0 ? count + number : number < DB_HISTORY_NUMBERS && number < count ?
	    number + (count - 1 - number) / DB_HISTORY_NUMBERS * DB_HISTORY_NUMBERS : -1;
	if (place < 0)
		return 0;
	out->id = 0;
	if (history_from(db, name, user_id, place, 1, copy_found, out) < 0)
		return -1;
	return out->id != 0;
}

int db_rating_get(struct db *db, int64_t user_id, const char *category, struct db_rating *out)
{
	sqlite3_stmt *st = db->stmt[ST_RATING_GET];
	int found = 0;

	sqlite3_bind_int64(st, 1, user_id);
	sqlite3_bind_text(st, 2, category, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->rating = sqlite3_column_double(st, 0);
		out->rd = sqlite3_column_double(st, 1);
		out->volatility = sqlite3_column_double(st, 2);
		out->wins = sqlite3_column_int(st, 3);
		out->losses = sqlite3_column_int(st, 4);
		out->draws = sqlite3_column_int(st, 5);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		found = -1;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return found;
}

int db_rating_put(struct db *db, int64_t user_id, const char *category, const struct db_rating *r)
{
	sqlite3_stmt *st = db->stmt[ST_RATING_PUT];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, user_id);
	sqlite3_bind_text(st, 2, category, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 3, r->rating);
	sqlite3_bind_double(st, 4, r->rd);
	sqlite3_bind_double(st, 5, r->volatility);
	sqlite3_bind_int(st, 6, r->wins);
	sqlite3_bind_int(st, 7, r->losses);
	sqlite3_bind_int(st, 8, r->draws);
	return step_done(db, st);
}

int db_rating_ranked(struct db *db, const char *category, double max_rd, bool humans,
    int offset, int count, void (*fn)(void *arg, const struct db_ranked *r), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_RATING_RANKED];
	int rc;

	sqlite3_bind_text(st, 1, category, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 2, max_rd);
	sqlite3_bind_int(st, 3, humans);
	sqlite3_bind_int(st, 4, offset);
	sqlite3_bind_int(st, 5, count);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_ranked r = { .user_id = sqlite3_column_int64(st, 0),
			.rating = sqlite3_column_double(st, 2), .rd = sqlite3_column_double(st, 3) };
		copy_column(st, 1, r.name, sizeof r.name);
		fn(arg, &r);
	}
	return step_rows_end(db, st, rc);
}

int db_rating_ahead(struct db *db, const char *category, double max_rd, bool humans,
    double rating, int64_t user_id)
{
	sqlite3_stmt *st = db->stmt[ST_RATING_AHEAD];
	int n = -1;

	sqlite3_bind_text(st, 1, category, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 2, max_rd);
	sqlite3_bind_int(st, 3, humans);
	sqlite3_bind_double(st, 4, rating);
	sqlite3_bind_int64(st, 5, user_id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		n = sqlite3_column_int(st, 0);
		rc = SQLITE_DONE;
	}
	if (step_rows_end(db, st, rc) < 0)
		return -1;
	return n;
}

int db_user_prefix(struct db *db, const char *prefix, int count,
    void (*fn)(void *arg, const char *name), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_USER_PREFIX];
	char past[DB_NAME_MAX];
	size_t n = strlen(prefix);
	int rc;

	if (!n || n >= sizeof past)
		return 0;
	/* NOCASE compares lower case: "al" to "am"; after "z" comes "{". */
	for (size_t i = 0; i < n; i++)
		past[i] = (char)tolower((unsigned char)prefix[i]);
	past[n - 1]++;
	past[n] = '\0';
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, past, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, count);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(arg, (const char *)sqlite3_column_text(st, 0));
	return step_rows_end(db, st, rc);
}

/* --- tournaments --- */

/* Steps a prepared read, resetting it; -1 on an error. */
int64_t db_tourney_insert(struct db *db, const struct db_tourney *t)
{
	sqlite3_stmt *st = db->stmt[ST_TOURNEY_INSERT];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, t->kind, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, t->rounds);
	sqlite3_bind_text(st, 4, t->time_control, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, t->rated);
	if (t->director_id)
		sqlite3_bind_int64(st, 6, t->director_id);
	sqlite3_bind_text(st, 7, t->director, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, t->state, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 9, t->current_round);
	sqlite3_bind_text(st, 10, t->tiebreaks, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 11, t->bye_half);
	sqlite3_bind_int64(st, 12, t->created);
	if (step_done(db, st) < 0)
		return -1;
	return sqlite3_last_insert_rowid(db->handle);
}

int db_tourney_update(struct db *db, const struct db_tourney *t)
{
	sqlite3_stmt *st = db->stmt[ST_TOURNEY_UPDATE];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_bind_text(st, 2, t->state, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, t->current_round);
	sqlite3_bind_int(st, 4, t->rounds);
	sqlite3_bind_text(st, 5, t->tiebreaks, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, t->bye_half);
	if (t->finished)
		sqlite3_bind_int64(st, 7, t->finished);
	if (t->web_delay_s >= 0)
		sqlite3_bind_int(st, 8, t->web_delay_s);
	return step_done(db, st);
}

int db_tourney_each(struct db *db, void (*fn)(void *arg, const struct db_tourney *t), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_TOURNEY_EACH];
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_tourney t = { .id = sqlite3_column_int64(st, 0) };
		copy_column(st, 1, t.name, sizeof t.name);
		copy_column(st, 2, t.kind, sizeof t.kind);
		t.rounds = sqlite3_column_int(st, 3);
		copy_column(st, 4, t.time_control, sizeof t.time_control);
		t.rated = sqlite3_column_int(st, 5) != 0;
		t.director_id = sqlite3_column_int64(st, 6);
		copy_column(st, 7, t.director, sizeof t.director);
		copy_column(st, 8, t.state, sizeof t.state);
		t.current_round = sqlite3_column_int(st, 9);
		copy_column(st, 10, t.tiebreaks, sizeof t.tiebreaks);
		t.bye_half = sqlite3_column_int(st, 11);
		t.created = sqlite3_column_int64(st, 12);
		t.finished = sqlite3_column_int64(st, 13);
		t.web_delay_s = sqlite3_column_type(st, 14) == SQLITE_NULL ? -1 :
		    sqlite3_column_int(st, 14);
		fn(arg, &t);
	}
	return step_rows_end(db, st, rc);
}

int db_tourney_player_put(struct db *db, int64_t tourney_id, const struct db_tourney_player *p)
{
	sqlite3_stmt *st = db->stmt[ST_TOURNEY_PLAYER_PUT];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, tourney_id);
	sqlite3_bind_int64(st, 2, p->user_id);
	sqlite3_bind_text(st, 3, p->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, p->joined);
	sqlite3_bind_int(st, 5, p->start_no);
	sqlite3_bind_int(st, 6, p->rating);
	sqlite3_bind_int(st, 7, p->withdrawn_round);
	sqlite3_bind_int(st, 8, p->paused);
	return step_done(db, st);
}

int db_tourney_player_remove(struct db *db, int64_t tourney_id, int64_t user_id)
{
	sqlite3_stmt *st = db->stmt[ST_TOURNEY_PLAYER_DEL];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, tourney_id);
	sqlite3_bind_int64(st, 2, user_id);
	return step_done(db, st);
}

int db_tourney_players(struct db *db, int64_t tourney_id,
    void (*fn)(void *arg, const struct db_tourney_player *p), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_TOURNEY_PLAYERS];
	int rc;

	sqlite3_bind_int64(st, 1, tourney_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_tourney_player p = { .user_id = sqlite3_column_int64(st, 0) };
		copy_column(st, 1, p.name, sizeof p.name);
		p.joined = sqlite3_column_int(st, 2);
		p.start_no = sqlite3_column_int(st, 3);
		p.rating = sqlite3_column_int(st, 4);
		p.withdrawn_round = sqlite3_column_int(st, 5);
		p.paused = sqlite3_column_int(st, 6) != 0;
		fn(arg, &p);
	}
	return step_rows_end(db, st, rc);
}

int db_tourney_bye_set(struct db *db, int64_t tourney_id, int64_t user_id, int round,
    const char *kind)
{
	sqlite3_stmt *st = db->stmt[kind ? ST_TOURNEY_BYE_PUT : ST_TOURNEY_BYE_DEL];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, tourney_id);
	sqlite3_bind_int64(st, 2, user_id);
	sqlite3_bind_int(st, 3, round);
	if (kind)
		sqlite3_bind_text(st, 4, kind, -1, SQLITE_STATIC);
	return step_done(db, st);
}

int db_tourney_byes(struct db *db, int64_t tourney_id,
    void (*fn)(void *arg, int64_t user_id, int round, const char *kind), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_TOURNEY_BYES];
	int rc;

	sqlite3_bind_int64(st, 1, tourney_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(arg, sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1),
		    (const char *)sqlite3_column_text(st, 2));
	return step_rows_end(db, st, rc);
}

int db_tourney_pairing_put(struct db *db, int64_t tourney_id, const struct db_tourney_pairing *p)
{
	sqlite3_stmt *st = db->stmt[ST_TOURNEY_PAIRING_PUT];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, tourney_id);
	sqlite3_bind_int(st, 2, p->round);
	sqlite3_bind_int(st, 3, p->board);
	sqlite3_bind_int(st, 4, p->white);
	sqlite3_bind_int(st, 5, p->black);
	sqlite3_bind_text(st, 6, p->result, -1, SQLITE_STATIC);
	if (p->game_id)
		sqlite3_bind_int64(st, 7, p->game_id);
	if (p->absent_deadline_ms)
		sqlite3_bind_int64(st, 8, p->absent_deadline_ms);
	return step_done(db, st);
}

int db_tourney_pairings(struct db *db, int64_t tourney_id,
    void (*fn)(void *arg, const struct db_tourney_pairing *p), void *arg)
{
	sqlite3_stmt *st = db->stmt[ST_TOURNEY_PAIRINGS];
	int rc;

	sqlite3_bind_int64(st, 1, tourney_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_tourney_pairing p = { .round = sqlite3_column_int(st, 0),
		    .board = sqlite3_column_int(st, 1), .white = sqlite3_column_int(st, 2),
		    .black = sqlite3_column_int(st, 3), .game_id = sqlite3_column_int64(st, 5),
		    .absent_deadline_ms = sqlite3_column_int64(st, 6) };
		copy_column(st, 4, p.result, sizeof p.result);
		fn(arg, &p);
	}
	return step_rows_end(db, st, rc);
}

int db_game_set_tourney(struct db *db, int64_t game_id, int64_t tourney_id, int round, int board)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_SET_TOURNEY];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, game_id);
	sqlite3_bind_int64(st, 2, tourney_id);
	sqlite3_bind_int(st, 3, round);
	sqlite3_bind_int(st, 4, board);
	return step_done(db, st);
}

int db_game_tourney(struct db *db, int64_t game_id, int64_t *tourney_id, int *round, int *board)
{
	sqlite3_stmt *st = db->stmt[ST_GAME_TOURNEY];
	int found = 0;

	sqlite3_bind_int64(st, 1, game_id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*tourney_id = sqlite3_column_int64(st, 0);
		*round = sqlite3_column_int(st, 1);
		*board = sqlite3_column_int(st, 2);
		found = 1;
		rc = SQLITE_DONE;
	}
	if (step_rows_end(db, st, rc) < 0)
		return -1;
	return found;
}

/* --- end of tournaments --- */

/* --- lists --- */

int db_list_set(struct db *db, int64_t owner_id, const char *list, int64_t member_id, bool on)
{
	enum stmt which = owner_id ? (on ? ST_LIST_ADD : ST_LIST_DEL) :
	    (on ? ST_PUBLIC_ADD : ST_PUBLIC_DEL);
	sqlite3_stmt *st = db->stmt[which];

	if (write_begin(db) < 0)
		return -1;
	if (owner_id)
		sqlite3_bind_int64(st, 1, owner_id);
	sqlite3_bind_text(st, 2, list, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, member_id);
	return step_done(db, st);
}

int db_list_each(struct db *db, int64_t owner_id, const char *list,
    void (*fn)(void *arg, int64_t member_id, const char *name), void *arg)
{
	enum stmt which = owner_id ? ST_LIST_EACH : !strcmp(list, "admin") ? ST_ADMIN_EACH :
	    !strcmp(list, "computer") ? ST_COMPUTER_EACH : ST_PUBLIC_EACH;
	sqlite3_stmt *st = db->stmt[which];
	int rc;

	sqlite3_bind_int64(st, 1, owner_id);
	sqlite3_bind_text(st, 2, list, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(arg, sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1));
	return step_rows_end(db, st, rc);
}

/* Whether a one-row query of (list, member[, owner]) finds its row. */
static int list_row(struct db *db, enum stmt which, const char *list, int64_t member_id,
    int64_t owner_id)
{
	sqlite3_stmt *st = db->stmt[which];
	int rc;

	sqlite3_bind_text(st, 1, list, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, member_id);
	if (owner_id)
		sqlite3_bind_int64(st, 3, owner_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		return 1;
	}
	return step_rows_end(db, st, rc) < 0 ? -1 : 0;
}

int db_public_has(struct db *db, const char *list, int64_t member_id)
{
	return list_row(db, ST_PUBLIC_HAS, list, member_id, 0);
}

int db_list_has(struct db *db, int64_t owner_id, const char *list, int64_t member_id)
{
	return list_row(db, ST_LIST_HAS, list, member_id, owner_id);
}
