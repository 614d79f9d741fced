#include <stdlib.h>

#include <event2/event.h>

#include "account.h"
#include "conn.h"
#include "db.h"
#include "game.h"
#include "lists.h"
#include "log.h"
#include "server.h"
#include "session.h"
#include "tournament.h"

struct account_watch {
	struct server *srv;
	struct event *timer;
	int64_t last_seen;		/* deleted_users rows up to this one are handled */
};

static void forget_in_game(struct game *g, void *arg)
{
	game_account_deleted(g, *(const int64_t *)arg);
}

void account_forget(struct server *srv, int64_t user_id)
{
	if (user_id <= 0)
		return;
	/* The tournaments first, so that a game the account is playing there ends
	 * as the forfeit its board becomes; then the games, while the player is
	 * still there to be told how they ended. */
	tournaments_account_deleted(server_tournaments(srv), user_id);
	games_each(server_games(srv), forget_in_game, &user_id);
	lists_forget(srv, user_id);
	/* One session per account: a new login of the same account replaces the old. */
	struct session *found = server_find_account(srv, user_id);
	if (found) {
		session_notify(found, "**** Your account has been deleted; goodbye. ****");
		conn_close(session_conn(found), "account deleted");
	}
	log_info("account %lld deleted", (long long)user_id);
}

int account_delete(struct server *srv, const char *name)
{
	int64_t id = 0;
	int rc = db_user_remove(server_db(srv), name, false, &id);

	if (rc == 1)
		account_forget(srv, id);
	return rc;
}

int64_t account_id_of(struct server *srv, const char *name)
{
	struct session *s = server_find_session(srv, name);
	struct db_user user;

	if (s)
		return session_user_id(s);
	return db_user_find(server_db(srv), name, &user) > 0 ? user.id : 0;
}

int64_t account_games_owner(struct server *srv, const char *name)
{
	struct session *s = server_find_session(srv, name);

	if (s && !session_user_id(s))
		return session_games_from(s) > 0 ? -session_games_from(s) : 0;
	return account_id_of(srv, name);
}

static void forget_row(void *arg, int64_t user_id)
{
	account_forget(arg, user_id);
}

static void watch(evutil_socket_t fd, short what, void *arg)
{
	struct account_watch *w = arg;

	(void)fd;
	(void)what;
	db_deleted_since(server_db(w->srv), &w->last_seen, forget_row, w->srv);
}

struct account_watch *account_watch_new(struct server *srv)
{
	struct account_watch *w = calloc(1, sizeof *w);
	struct timeval tv = { ACCOUNT_WATCH_MS / 1000, ACCOUNT_WATCH_MS % 1000 * 1000 };

	if (!w)
		return NULL;
	w->srv = srv;
	/* Deletions before the start are in the database already. */
	if (db_deleted_last(server_db(srv), &w->last_seen) < 0 ||
	    !(w->timer = event_new(server_base(srv), -1, EV_PERSIST, watch, w)) ||
	    event_add(w->timer, &tv) < 0) {
		account_watch_free(w);
		return NULL;
	}
	return w;
}

void account_watch_free(struct account_watch *w)
{
	if (!w)
		return;
	if (w->timer)
		event_free(w->timer);
	free(w);
}
