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
	ST_USER_TOUCH,
	ST_VAR_SET, ST_VAR_DEL, ST_VAR_EACH,
	ST_ALIAS_SET, ST_ALIAS_DEL, ST_ALIAS_EACH,
	ST_CHANNEL_ADD, ST_CHANNEL_DEL, ST_CHANNEL_EACH,
	ST_NEWS_ADD, ST_NEWS_EACH,
	ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
	[ST_USER_FIND] = "SELECT id, name, password, admin, last_login FROM users WHERE name = ?1",
	[ST_USER_ADD] = "INSERT INTO users (name, password, admin, created) "
	    "VALUES (?1, ?2, ?3, strftime('%s','now'))",
	[ST_USER_REMOVE] = "DELETE FROM users WHERE name = ?1",
	[ST_USER_PASSWORD] = "UPDATE users SET password = ?2 WHERE id = ?1",
	[ST_USER_ADMIN] = "UPDATE users SET admin = ?2 WHERE name = ?1",
	[ST_USER_TOUCH] = "UPDATE users SET last_login = ?2 WHERE id = ?1",
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
};

struct db {
	sqlite3 *handle;
	sqlite3_stmt *stmt[ST_COUNT];
	bool in_transaction;
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
	for (int i = version; i < migration_count; i++) {
		char *msg = NULL, pragma[64];
		snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d;", migrations[i].version);
		if (sqlite3_exec(db->handle, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK ||
		    sqlite3_exec(db->handle, migrations[i].sql, NULL, NULL, &msg) != SQLITE_OK ||
		    sqlite3_exec(db->handle, pragma, NULL, NULL, &msg) != SQLITE_OK ||
		    sqlite3_exec(db->handle, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
			set_err(err, errlen, "migration %s failed: %s", migrations[i].name,
			    msg ? msg : sqlite3_errmsg(db->handle));
			sqlite3_free(msg);
			sqlite3_exec(db->handle, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		log_info("database migrated to version %d (%s)", migrations[i].version,
		    migrations[i].name);
	}
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
	if (!db->in_transaction)
		return 0;
	if (step_done(db, db->stmt[ST_COMMIT]) < 0) {
		step_done(db, db->stmt[ST_ROLLBACK]);
		db->in_transaction = false;
		return -1;
	}
	db->in_transaction = false;
	return 0;
}

bool db_pending(const struct db *db)
{
	return db->in_transaction;
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
		out->last_login = sqlite3_column_int64(st, 4);
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

int db_user_remove(struct db *db, const char *name)
{
	sqlite3_stmt *st = db->stmt[ST_USER_REMOVE];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (step_done(db, st) < 0)
		return -1;
	return sqlite3_changes(db->handle) > 0;
}

int db_user_set_password(struct db *db, int64_t id, const char *password_hash)
{
	return write_id_text(db, ST_USER_PASSWORD, id, password_hash) < 0 ? -1 : 0;
}

int db_user_set_admin(struct db *db, const char *name, bool admin)
{
	sqlite3_stmt *st = db->stmt[ST_USER_ADMIN];

	if (write_begin(db) < 0)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, admin);
	if (step_done(db, st) < 0)
		return -1;
	return sqlite3_changes(db->handle) > 0;
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
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : -1;
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
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : -1;
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
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : -1;
}
