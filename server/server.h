/*
 * The server: one event loop, its listeners, every connection, and the
 * per-pass hook that commits the database before releasing any output.
 */
#ifndef CHESSD_SERVER_H
#define CHESSD_SERVER_H

#include <stdbool.h>
#include <stdint.h>

struct config;
struct conn;
struct db;
struct games;
struct tournaments;
struct offers;
struct lists;
struct event_base;
struct hasher;
struct verdicts;
struct signups;
struct backlog;
struct audience;
struct session;
struct tls;
struct web;

struct server;

/* Sets up listeners, TLS and the database; NULL with a reason on failure. */
struct server *server_new(struct config *cfg, char *err, size_t errlen);
/* Runs until SIGTERM/SIGINT and a graceful shutdown; returns the exit code. */
int server_run(struct server *srv);
/* Whether no chessd holds the data directory now (for the shell's account commands). */
bool server_lock_free(const char *data_dir);
void server_free(struct server *srv);

struct event_base *server_base(struct server *srv);
struct db *server_db(struct server *srv);
struct games *server_games(struct server *srv);
/* Tournaments. */
struct tournaments *server_tournaments(struct server *srv);
struct offers *server_offers(struct server *srv);
/* The web listeners and streams (web.h). */
struct web *server_web(struct server *srv);
/* Who lists whom (lists.h). */
struct lists *server_lists(struct server *srv);
struct hasher *server_hasher(struct server *srv);
struct verdicts *server_verdicts(struct server *srv);
/* Registrations per address per hour (signup.h). */
struct signups *server_signups(struct server *srv);
/* Every connection's pending output, for the server-wide budget. */
struct backlog *server_backlog(struct server *srv);
/* The shutdown countdown and address bans (moderation.h). */
struct moderation *server_moderation(struct server *srv);
const struct config *server_config(const struct server *srv);
/* Who hears what: the sessions kept per kind of news (audience.h). */
struct audience *server_audience(struct server *srv);
/* Milliseconds on a monotonic clock, cached per loop pass. */
int64_t server_now_ms(struct server *srv);
/* The next number for a guest name (the sequence starts at a random point). */
uint32_t server_next_guest(struct server *srv);
/* Seconds since the server started. */
int64_t server_uptime_s(struct server *srv);

/* Bookkeeping the connections call into. */
void server_conn_dirty(struct server *srv, struct conn *c);
void server_conn_closed(struct server *srv, struct conn *c);
/*
 * A password check for name from addr may start: returns 0 and counts it as
 * a failure until server_login_end() says it passed; or returns the ms to
 * wait before asking again (a delay is owed, or the name is being checked).
 * *trusted: addr is in the block name last logged in from, which only its
 * own block's failures hold back; pass it on to server_login_end().
 */
int server_login_begin(struct server *srv, const char *name, const char *addr, bool *trusted);
/* The check that server_login_begin() allowed is over (or abandoned). */
void server_login_end(struct server *srv, const char *name, const char *addr, bool trusted,
    bool passed);
/* Someone logged in as name from addr: its failed logins are forgotten, and addr's block trusted. */
void server_login_succeeded(struct server *srv, const char *name, const char *addr);

/* The logged-in session with this name (any case), or NULL. */
struct session *server_find_session(struct server *srv, const char *name);
/* The logged-in session of this account, or NULL. */
struct session *server_find_account(struct server *srv, int64_t user_id);
int server_register_session(struct server *srv, struct session *s);
void server_unregister_session(struct server *srv, struct session *s);
/* Calls fn for each logged-in session, in name order (for listings of everyone). */
void server_each_session(struct server *srv, void (*fn)(struct session *s, void *arg), void *arg);
int server_session_count(struct server *srv);
/* Shuts down as on SIGTERM (games adjourned, everyone told, output drained). */
void server_shutdown(struct server *srv, const char *why);
/* Whether the server has begun to shut down. */
bool server_stopping(const struct server *srv);
int server_conn_count(struct server *srv);

#endif
