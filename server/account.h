/*
 * Deleting an account: the database (db_user_remove) and everything the
 * running server holds for it.  Its session ends, its live game is lost
 * by forfeit (aborted before move 2) and rates nobody, tournaments it
 * directs lose their director, and it is withdrawn from running ones.
 * `chessd userdel` beside a running server writes a deleted_users row;
 * the server reads new rows every ACCOUNT_WATCH_MS and does the same.
 */
#ifndef CHESSD_ACCOUNT_H
#define CHESSD_ACCOUNT_H

#include <stdint.h>

struct server;
struct account_watch;

#define ACCOUNT_WATCH_MS 1000

/* 1 deleted, 0 no such account, -1 database error. */
int account_delete(struct server *srv, const char *name);
/* What the running server lets go of for a deleted account (safe to repeat). */
void account_forget(struct server *srv, int64_t user_id);

/*
 * The account that holds name now (its session online, else the stored
 * account), for record lookups by name; 0 for none (a guest, a name free).
 */
int64_t account_id_of(struct server *srv, const char *name);
/*
 * Who owns the stored games under a name, as the db's by-name lookups take
 * it: the account's id; for a guest online, minus the first game id of its
 * session (the games it played since it logged in); 0 for nobody.
 */
int64_t account_games_owner(struct server *srv, const char *name);

struct account_watch *account_watch_new(struct server *srv);
void account_watch_free(struct account_watch *w);

#endif
