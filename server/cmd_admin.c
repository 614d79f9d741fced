/* Administration: adjudication, accounts, moderation (nuke, comments, announcements,
 * shutdown, passwords, address bans) and the log of it all. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/crypto.h>

#include "account.h"
#include "address.h"
#include "blkcmd.h"
#include "cmd.h"
#include "config.h"
#include "conn.h"
#include "db.h"
#include "fics.h"
#include "game.h"
#include "moderation.h"
#include "number.h"
#include "password.h"
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

/* Tells a player of the ruling if they are here: the account that played, never
 * whoever has the name now (a guest's seat ended with its session). */
static void tell_player(struct server *srv, const char *name, int64_t user_id, const char *line)
{
	struct session *p = server_find_session(srv, name);

	if (p && user_id && session_user_id(p) == user_id)
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
	/* The ruling, its log entry and the ratings it moves are stored together
	 * before anyone is told. */
	db_commit_earlier(db);
	int stored = db_game_update(db, &g);
	if (stored == 0) {
		char ruled[64];
		snprintf(ruled, sizeof ruled, "game %lld: %s", (long long)g.id, g.result);
		moderation_log(s, "adjudicate", 0, NULL, ruled);
	}
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
	tell_player(srv, g.white, g.white_id, line);
	tell_player(srv, g.black, g.black_id, line);
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
	moderation_log(s, "remplayer", user.id, user.name, "");
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

/* An online session that is that account (not a guest under a freed name). */
static struct session *online_account(struct server *srv, const struct db_user *u)
{
	struct session *p = server_find_session(srv, u->name);

	return p && session_user_id(p) == u->id ? p : NULL;
}

/* nuke NAME: the session ends now. */
static void cmd_nuke(struct session *s, const struct cmd_args *a)
{
	struct server *srv = session_server(s);
	struct session *p = server_find_session(srv, a->argv[0]);

	if (!p) {
		session_printf(s, "%s isn't logged in.\n", a->argv[0]);
		return;
	}
	if (!moderation_outranks(s, session_admin_level(p))) {
		session_printf(s, "You need a higher adminlevel to nuke %s!\n", session_name(p));
		return;
	}
	char name[SESSION_NAME_MAX + 1];
	snprintf(name, sizeof name, "%s", session_name(p));
	if (session_user_id(p))
		db_comment_add(server_db(srv), session_user_id(p), session_user_id(s), session_name(s),
		    (int64_t)time(NULL), "Nuked");
	moderation_log(s, "nuke", session_user_id(p), name, "");
	if (db_commit_now(server_db(srv)) < 0) {
		session_printf(s, "%s was not nuked: the server could not record it.\n", name);
		return;
	}
	session_notify(p, "\n**** You have been kicked out by %s! ****\n", session_name(s));
	conn_close(session_conn(p), "nuked");
	session_printf(s, "Nuking: %s\n", name);
	session_printf(s, "Please leave a comment explaining why %s was nuked.\n", name);
}

/* The account comments are about: registered; false after the line saying why. */
static bool find_commentable(struct session *s, const char *name, struct db_user *u)
{
	struct server *srv = session_server(s);

	if (db_user_find(server_db(srv), name, u) > 0)
		return true;
	struct session *p = server_find_session(srv, name);
	if (p)
		session_printf(s, "Player \"%s\" is unregistered and cannot have comments.\n",
		    session_name(p));
	else
		session_printf(s, "There is no player matching that name.\n");
	return false;
}

static void cmd_addcomment(struct session *s, const struct cmd_args *a)
{
	struct server *srv = session_server(s);
	struct db *db = server_db(srv);
	struct db_user u;

	if (!find_commentable(s, a->argv[0], &u))
		return;
	if (!moderation_outranks(s, u.admin_level)) {
		session_printf(s, "You need a higher adminlevel to comment on %s.\n", u.name);
		return;
	}
	if (db_comment_add(db, u.id, session_user_id(s), session_name(s), (int64_t)time(NULL),
	    a->argv[1]) < 0) {
		session_printf(s, "Error adding comment!\n");
		return;
	}
	moderation_log(s, "addcomment", u.id, u.name, a->argv[1]);
	if (db_commit_now(db) < 0) {
		session_printf(s, "Error adding comment!\n");
		return;
	}
	session_printf(s, "Comment added for %s.\n", u.name);
}

struct comment_list {
	struct session *s;
	int shown;
};

static void comment_line(void *arg, const char *admin, int64_t when, const char *text)
{
	struct comment_list *l = arg;
	char date[64];

	fics_date(when, date, sizeof date);
	session_printf(l->s, "%s at %s: %s\n", admin, date, text);
	l->shown++;
}

static void cmd_showcomment(struct session *s, const struct cmd_args *a)
{
	struct server *srv = session_server(s);
	struct db_user u;
	struct comment_list l = { s, 0 };

	if (!find_commentable(s, a->argv[0], &u))
		return;
	db_comment_each(server_db(srv), u.id, comment_line, &l);
	if (!l.shown)
		session_printf(s, "There are no comments to show for %s.\n", u.name);
}

struct announcement {
	struct session *from;
	const char *text;
	int count;
};

static void announce_to(struct session *p, void *arg)
{
	struct announcement *an = arg;

	if (p == an->from)
		return;
	session_notify(p, "\n    **ANNOUNCEMENT** from %s: %s\n", session_name(an->from), an->text);
	an->count++;
}

/* announce TEXT: to everyone online, whatever their settings. */
static void cmd_announce(struct session *s, const struct cmd_args *a)
{
	struct announcement an = { s, a->argv[0], 0 };

	moderation_log(s, "announce", 0, NULL, a->argv[0]);
	server_each_session(session_server(s), announce_to, &an);
	session_printf(s, "\n(%d) **ANNOUNCEMENT** from %s: %s\n\n", an.count, session_name(s),
	    a->argv[0]);
}

/* FICS's shutdown time: minutes, or M:SS; -1 if it is neither. */
static int shutdown_seconds(const char *text)
{
	const char *colon = strchr(text, ':');
	char minutes[16];
	long m, sec = 0;

	if (colon) {
		size_t n = (size_t)(colon - text);
		if (n == 0 || n >= sizeof minutes ||
		    number_parse(colon + 1, 0, 59, &sec) != NUMBER_OK || strlen(colon + 1) != 2)
			return -1;
		memcpy(minutes, text, n);
		minutes[n] = '\0';
		text = minutes;
	}
	if (number_parse(text, 0, 24 * 60, &m) != NUMBER_OK)
		return -1;
	return (int)(m * 60 + sec);
}

/* Default countdown of a bare "shutdown", as on FICS. */
#define SHUTDOWN_DEFAULT_S 300

/* shutdown [now|cancel|MINUTES|M:SS] [reason]: a countdown, announced to all. */
static void cmd_shutdown(struct session *s, const struct cmd_args *a)
{
	struct moderation *m = server_moderation(session_server(s));
	const char *when = a->argc ? a->argv[0] : "";
	const char *reason = a->argc > 1 ? a->argv[1] : "";

	if (!strcasecmp(when, "cancel")) {
		if (!moderation_shutdown_cancel(m, session_name(s)))
			session_printf(s, "No shutdown currently in progress\n");
		else
			moderation_log(s, "shutdown", 0, NULL, "cancel");
		return;
	}
	int seconds = !*when ? SHUTDOWN_DEFAULT_S : !strcasecmp(when, "now") ? 0 :
	    shutdown_seconds(when);
	if (seconds < 0) {
		session_printf(s, "I don't know what you mean by %s\n", when);
		return;
	}
	char detail[320];
	snprintf(detail, sizeof detail, "in %d:%02d%s%s", seconds / 60, seconds % 60,
	    *reason ? ": " : "", reason);
	moderation_log(s, "shutdown", 0, NULL, detail);
	db_commit_now(server_db(session_server(s)));
	moderation_shutdown_cancel(m, session_name(s));
	moderation_shutdown_in(m, session_name(s), seconds, reason);
}

static void cmd_whenshut(struct session *s, const struct cmd_args *a)
{
	const struct moderation *m = server_moderation(session_server(s));
	int left = moderation_shutdown_left(m);

	(void)a;
	if (left < 0) {
		session_printf(s, "No shutdown currently in progress\n");
		return;
	}
	session_printf(s, "\n    **** Server going down in %d minutes and %d seconds. ****\n",
	    left / 60, left % 60);
	if (*moderation_shutdown_reason(m))
		session_printf(s, "\n    **** We are going down because: %s. ****\n",
		    moderation_shutdown_reason(m));
}

/* asetpasswd: the account whose password is being set, between the two lines. */
static void asetpasswd_done(struct session *s, int result, const char *hash)
{
	struct server *srv = session_server(s);
	struct db *db = server_db(srv);
	struct db_user u;

	/* The name found the account when it was asked for; the id is what counts. */
	if (db_user_find(db, session_job_note(s), &u) <= 0 || u.id != session_job_account(s)) {
		session_notify(s, "Password not changed: the account %s is gone.", session_job_note(s));
		return;
	}
	if (result != 0 || !hash || db_user_set_password(db, u.id, hash) < 0) {
		session_notify(s, "Password not changed: server error.");
		return;
	}
	moderation_log(s, "asetpasswd", u.id, u.name, "");
	if (db_commit_now(db) < 0) {
		session_notify(s, "Password not changed: server error.");
		return;
	}
	session_notify(s, "Password of %s changed.", u.name);
	struct session *p = online_account(srv, &u);
	if (p && p != s)
		session_notify(p, "CHESSD: %s has changed your password.", session_name(s));
}

static void asetpasswd_line(struct session *s, char *line)
{
	char why[160];

	if (!password_acceptable(line, why, sizeof why)) {
		session_printf(s, "%s  Password not changed.\n", why);
		return;
	}
	if (session_password_job(s, line, NULL, NULL, asetpasswd_done) < 0) {
		session_printf(s, "The server is busy; please try again in a moment.\n");
		return;
	}
	session_defer_reply(s);
}

/* asetpasswd NAME: the new password comes on the next line, unechoed. */
static void cmd_asetpasswd(struct session *s, const struct cmd_args *a)
{
	struct db_user u;

	if (db_user_find(server_db(session_server(s)), a->argv[0], &u) <= 0) {
		if (server_find_session(session_server(s), a->argv[0]))
			session_printf(s, "You cannot set the password of an unregistered player!\n");
		else
			session_printf(s, "There is no player matching that name.\n");
		return;
	}
	OPENSSL_cleanse(u.password, sizeof u.password);
	if (!moderation_outranks(s, u.admin_level)) {
		session_printf(s, "You can only set password for players below your adminlevel.\n");
		return;
	}
	session_set_job_note(s, u.name);
	session_set_job_account(s, u.id);
	char prompt[96];
	snprintf(prompt, sizeof prompt, "New password for %s: ", u.name);
	session_read_secret(s, prompt, asetpasswd_line);
}

static void list_ban(void *arg, const char *range, bool configured)
{
	session_printf(arg, "  %s%s\n", range, configured ? " (configuration)" : "");
}

/* banaddress [RANGE]: refuse connections from a range (none: list them). */
static void cmd_banaddress(struct session *s, const struct cmd_args *a)
{
	struct server *srv = session_server(s);
	char range[ADDRESS_BLOCK_MAX];

	if (!a->argc) {
		session_printf(s, "Banned addresses:\n");
		moderation_each_ban(server_moderation(srv), list_ban, s);
		return;
	}
	if (address_range_parse(a->argv[0], range, sizeof range) < 0) {
		session_printf(s, "%.64s is not an address or address range (like 192.0.2.0/24).\n",
		    a->argv[0]);
		return;
	}
	if (db_address_ban_set(server_db(srv), range, session_user_id(s), (int64_t)time(NULL),
	    true) != 1) {
		session_printf(s, "%s is banned already.\n", range);
		return;
	}
	moderation_log(s, "banaddress", 0, range, "");
	if (db_commit_now(server_db(srv)) < 0 ||
	    moderation_ban_address(server_moderation(srv), range) < 0) {
		db_address_ban_set(server_db(srv), range, 0, 0, false);
		db_commit_now(server_db(srv));
		session_printf(s, "%s could not be banned: it is banned already, or all %d bans "
		    "allowed (address_bans) are in use.\n", range,
		    server_config(srv)->limits.address_bans);
		return;
	}
	session_printf(s, "%s is banned.\n", range);
}

static void cmd_unbanaddress(struct session *s, const struct cmd_args *a)
{
	struct server *srv = session_server(s);
	char range[ADDRESS_BLOCK_MAX];

	if (address_range_parse(a->argv[0], range, sizeof range) < 0) {
		session_printf(s, "%.64s is not an address or address range (like 192.0.2.0/24).\n",
		    a->argv[0]);
		return;
	}
	if (moderation_unban_address(server_moderation(srv), range) < 0) {
		session_printf(s, "%s is not banned by an admin.\n", range);
		return;
	}
	db_address_ban_set(server_db(srv), range, 0, 0, false);
	moderation_log(s, "unbanaddress", 0, range, "");
	db_commit_now(server_db(srv));
	session_printf(s, "%s is no longer banned.\n", range);
}

static void log_line(void *arg, int64_t id, const struct db_admin_action *a)
{
	time_t t = (time_t)a->at;
	struct tm tm;
	char date[32];

	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", &tm);
	session_printf(arg, "%4lld %s UTC %s (#%lld) %s%s%s%s%s\n", (long long)id, date, a->admin,
	    (long long)a->admin_id, a->action, *a->target ? " " : "", a->target,
	    *a->detail ? ": " : "", a->detail);
}

/* Default and largest number of entries adminlog shows. */
#define ADMINLOG_DEFAULT 20
#define ADMINLOG_MAX 1000

static void cmd_adminlog(struct session *s, const struct cmd_args *a)
{
	int n = a->argc ? a->number[0] : ADMINLOG_DEFAULT;

	if (n < 1 || n > ADMINLOG_MAX) {
		session_printf(s, "adminlog shows 1 to %d entries.\n", ADMINLOG_MAX);
		return;
	}
	session_printf(s, "Admin actions, oldest first:\n");
	db_admin_log_each(server_db(session_server(s)), n, log_line, s);
}

const struct cmd_entry cmd_nuke_entry = {
	.name = "nuke",
	.args = "w",
	.flags = CMD_ADMIN_TOLD,
	.code = BLKCMD_NULL,
	.exec = cmd_nuke,
	.usage = "nuke <name>",
	.summary = "Disconnect a user now (admins)",
};
const struct cmd_entry cmd_addcomment_entry = {
	.name = "addcomment",
	.args = "wS",
	.flags = CMD_ADMIN_TOLD,
	.code = BLKCMD_NULL,
	.exec = cmd_addcomment,
	.usage = "addcomment <name> <text>",
	.summary = "Note something on an account (admins)",
};
const struct cmd_entry cmd_showcomment_entry = {
	.name = "showcomment",
	.args = "w",
	.flags = CMD_ADMIN_TOLD,
	.code = BLKCMD_NULL,
	.exec = cmd_showcomment,
	.usage = "showcomment <name>",
	.summary = "The comments on an account (admins)",
};
const struct cmd_entry cmd_announce_entry = {
	.name = "announce",
	.args = "S",
	.flags = CMD_ADMIN_TOLD,
	.code = BLKCMD_NULL,
	.exec = cmd_announce,
	.usage = "announce <text>",
	.summary = "Tell everyone (admins)",
};
const struct cmd_entry cmd_shutdown_entry = {
	.name = "shutdown",
	.args = "oT",
	.flags = CMD_ADMIN_TOLD,
	.code = BLKCMD_NULL,
	.exec = cmd_shutdown,
	.usage = "shutdown [now|cancel|minutes|m:ss] [reason]",
	.summary = "Shut the server down after a countdown (admins)",
};
const struct cmd_entry cmd_whenshut_entry = {
	.name = "whenshut",
	.args = "",
	.code = BLKCMD_WHENSHUT,
	.exec = cmd_whenshut,
	.usage = "whenshut",
	.summary = "When the server shuts down, if it does",
};
const struct cmd_entry cmd_asetpasswd_entry = {
	.name = "asetpasswd",
	.args = "w",
	.flags = CMD_ADMIN_TOLD,
	.code = BLKCMD_NULL,
	.exec = cmd_asetpasswd,
	.usage = "asetpasswd <name> (the password on the next line)",
	.summary = "Set a player's password (admins)",
};
const struct cmd_entry cmd_banaddress_entry = {
	.name = "banaddress",
	.args = "o",
	.flags = CMD_ADMIN_TOLD,
	.code = BLKCMD_NULL,
	.exec = cmd_banaddress,
	.usage = "banaddress [address[/bits]]",
	.summary = "Refuse connections from an address range (admins)",
};
const struct cmd_entry cmd_unbanaddress_entry = {
	.name = "unbanaddress",
	.args = "w",
	.flags = CMD_ADMIN_TOLD,
	.code = BLKCMD_NULL,
	.exec = cmd_unbanaddress,
	.usage = "unbanaddress <address[/bits]>",
	.summary = "Lift an address ban (admins)",
};
const struct cmd_entry cmd_adminlog_entry = {
	.name = "adminlog",
	.args = "n",
	.flags = CMD_ADMIN_TOLD,
	.code = BLKCMD_NULL,
	.exec = cmd_adminlog,
	.usage = "adminlog [count]",
	.summary = "The latest admin actions: who, what, when (admins)",
};
