/*
 * The database: the only owner of the sqlite3 handle.  Writes join one
 * transaction per event-loop pass, committed by db_commit() before any
 * reply of that pass leaves the server (group commit, persist then reply).
 */
#ifndef CHESSD_DB_H
#define CHESSD_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DB_NAME_MAX 18		/* 17 letters and the NUL */
#define DB_PASSWORD_MAX 192

struct db;

struct db_user {
	int64_t id;
	char name[DB_NAME_MAX];
	char password[DB_PASSWORD_MAX];
	bool admin;
	int64_t last_login;	/* 0: never */
};

/* Opens (creating and migrating) the database; NULL with a one-line reason. */
struct db *db_open(const char *path, char *err, size_t errlen);
void db_close(struct db *db);
/* Commits the open transaction, if any.  A failure here is fatal to the caller. */
int db_commit(struct db *db);
/* Whether writes are waiting for db_commit(). */
bool db_pending(const struct db *db);

/* 1 found, 0 not found, -1 error. */
int db_user_find(struct db *db, const char *name, struct db_user *out);
/* 0 added, 1 the name is taken, -1 error. */
int db_user_add(struct db *db, const char *name, const char *password_hash, bool admin);
/* 1 removed, 0 no such user, -1 error. */
int db_user_remove(struct db *db, const char *name);
int db_user_set_password(struct db *db, int64_t id, const char *password_hash);
/* 1 changed, 0 no such user, -1 error. */
int db_user_set_admin(struct db *db, const char *name, bool admin);
int db_user_touch(struct db *db, int64_t id, int64_t when);

/* A variable's value, NULL to return it to the default. */
int db_var_set(struct db *db, int64_t user_id, const char *name, const char *value);
int db_var_each(struct db *db, int64_t user_id,
    void (*fn)(void *arg, const char *name, const char *value), void *arg);
int db_alias_set(struct db *db, int64_t user_id, const char *name, const char *value);
int db_alias_each(struct db *db, int64_t user_id,
    void (*fn)(void *arg, const char *name, const char *value), void *arg);
int db_channel_set(struct db *db, int64_t user_id, int channel, bool member);
int db_channel_each(struct db *db, int64_t user_id, void (*fn)(void *arg, int channel), void *arg);
int db_news_add(struct db *db, int64_t when, const char *title);
int db_news_each(struct db *db, int limit,
    void (*fn)(void *arg, int64_t id, int64_t when, const char *title), void *arg);

#endif
