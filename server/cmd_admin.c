/* Administration: adjudicating games stored for it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "account.h"
#include "blkcmd.h"
#include "cmd.h"
#include "db.h"
#include "game.h"
#include "number.h"
#include "rating.h"
#include "server.h"
#include "session.h"

#define ADJUDICATION_REASON "Game adjourned for adjudication"

struct listing {
	struct session *s;
	int shown;
};

static void list_one(void *arg, const struct db_game *g)
{
	struct listing *l = arg;

	if (strcmp(g->reason, ADJUDICATION_REASON))
		return;
	session_printf(l->s, "%6lld: %s vs. %s, %s %s %s\n", (long long)g->id, g->white, g->black,
	    g->rated ? "rated" : "unrated", g->category, g->time_control);
	l->shown++;
}

/* Tells a player of the ruling if they are here. */
static void tell_player(struct server *srv, const char *name, const char *line)
{
	struct session *p = server_find_session(srv, name);

	if (p)
		session_notify(p, "%s", line);
}

/*
 * A player asks (after a disconnected opponent's grace period) with no
 * arguments; an administrator lists the stored requests, or rules on one:
 * adjudicate ID 1-0|0-1|1/2-1/2|abort.
 */
static void cmd_adjudicate(struct session *s, const struct cmd_args *a)
{
	struct server *srv = session_server(s);
	struct db *db = server_db(srv);

	if (!a->argc) {
		if (session_game(s)) {
			game_request_adjudication(session_game(s), s);
			return;
		}
		if (!session_admin(s)) {
			session_printf(s, "You are not playing a game.\n");
			return;
		}
		struct listing l = { s, 0 };
		session_printf(s, "Games waiting for adjudication:\n");
		db_games_with_status(db, GAME_ADJOURNED, list_one, &l);
		session_printf(s, "%d game%s.\n", l.shown, l.shown == 1 ? "" : "s");
		return;
	}
	if (!session_admin(s)) {
		session_printf(s, "Only administrators adjudicate games.\n");
		return;
	}
	if (a->argc != 2) {
		session_printf(s, "Usage: adjudicate [ID 1-0|0-1|1/2-1/2|abort]\n");
		return;
	}
	struct db_game g;
	const char *ruling = a->argv[1];
	double white_score = -1;
	if (!strcmp(ruling, "1-0"))
		white_score = 1;
	else if (!strcmp(ruling, "0-1"))
		white_score = 0;
	else if (!strcmp(ruling, "1/2-1/2"))
		white_score = 0.5;
	else if (strcasecmp(ruling, "abort")) {
		session_printf(s, "The ruling must be 1-0, 0-1, 1/2-1/2 or abort.\n");
		return;
	}
	long id;
	if (number_parse(a->argv[0], 1, LONG_MAX, &id) != NUMBER_OK ||
	    db_game_load(db, id, &g) <= 0 || g.status != GAME_ADJOURNED) {
		session_printf(s, "There is no adjourned game %s.\n", a->argv[0]);
		return;
	}
	char line[256];
	g.status = white_score < 0 ? GAME_ABORTED : GAME_FINISHED;
	snprintf(g.result, sizeof g.result, "%s", white_score < 0 ? "*" : ruling);
	snprintf(g.reason, sizeof g.reason, "Game adjudicated by %s", session_name(s));
	g.termination = TERMINATION_ADJUDICATION;
	g.ended = (int64_t)time(NULL);
	/* The ruling and the ratings it moves are stored together before anyone is told. */
	db_commit_earlier(db);
	int stored = db_game_update(db, &g);
	if (stored == 0 && white_score >= 0 && g.rated && g.white_id && g.black_id) {
		struct clock_control tc;
		struct rating wb, wa, bb, ba;
		char why[80];
		if (clock_parse(&tc, g.time_control, why, sizeof why) == 0)
			stored = rating_apply(db, clock_category(&tc), g.white_id, g.black_id,
			    white_score, &wb, &wa, &bb, &ba);
	}
	if (stored < 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		session_printf(s, "The ruling could not be saved.\n");
		return;
	}
	snprintf(line, sizeof line, "Your game %s vs. %s was adjudicated by %s: %s.", g.white,
	    g.black, session_name(s), white_score < 0 ? "aborted" : ruling);
	tell_player(srv, g.white, line);
	tell_player(srv, g.black, line);
	session_printf(s, "Game %lld (%s vs. %s): %s.\n", (long long)g.id, g.white, g.black,
	    white_score < 0 ? "aborted" : ruling);
}

const struct cmd_entry cmd_adjudicate_entry = {
	.name = "adjudicate",
	.args = "oo",
	.code = BLKCMD_NULL,
	.exec = cmd_adjudicate,
	.usage = "adjudicate [ID 1-0|0-1|1/2-1/2|abort]",
	.summary = "Ask an administrator to decide a game, or (admins) decide one",
};

/* remplayer NAME: FICS's way to delete an account, with all it holds. */
static void cmd_remplayer(struct session *s, const struct cmd_args *a)
{
	const char *name = a->argv[0];
	struct db_user user;

	if (db_user_find(server_db(session_server(s)), name, &user) <= 0) {
		session_printf(s, "There is no account named %s.\n", name);
		return;
	}
	if (user.id == session_user_id(s)) {
		session_printf(s, "You cannot delete your own account.\n");
		return;
	}
	if (account_delete(session_server(s), user.name) != 1) {
		session_printf(s, "%s was not deleted: server error.\n", user.name);
		return;
	}
	session_printf(s, "Account %s deleted.\n", user.name);
}

const struct cmd_entry cmd_remplayer_entry = {
	.name = "remplayer",
	.args = "w",
	.flags = CMD_ADMIN | CMD_HIDDEN,
	.code = BLKCMD_NULL,
	.exec = cmd_remplayer,
	.usage = "remplayer <name>",
	.summary = "Delete an account (admins)",
};
