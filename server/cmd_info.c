/* Finding things out: help, who, finger, date, news, uptime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "blkcmd.h"
#include "cmd.h"
#include "config.h"
#include "db.h"
#include "help.h"
#include "limit.h"
#include "rating.h"
#include "server.h"
#include "session.h"

static void print_entry(const struct cmd_entry *e, void *arg)
{
	session_printf(arg, "  %-12s %s\n", e->name, e->summary);
}

static void help_register(struct session *s)
{
	session_printf(s,
	    "Registering gives you a name of your own, rated games, and settings that are kept.\n"
	    "While logged in as a guest, type:\n\n"
	    "  register NAME PASSWORD\n\n"
	    "NAME is 3 to 17 letters; PASSWORD is %d to %d characters.  Then log in again as NAME.\n",
	    4, 64);
}

static void cmd_help(struct session *s, const struct cmd_args *a)
{
	if (a->argc == 0) {
		session_printf(s, "Commands (\"help COMMAND\" for one):\n\n");
		cmd_each(s, print_entry, s);
		session_printf(s, "\nMore help: \"help register\", \"help channel_list\", "
		    "\"help timecontrol\", \"help tourney\", \"help lists\".\n");
		return;
	}
	const char *topic = a->argv[0];
	if (!strcasecmp(topic, "register")) {
		help_register(s);
		return;
	}
	if (!strcasecmp(topic, "channel_list") || !strcasecmp(topic, "channels")) {
		cmd_help_channels(s);
		return;
	}
	if (!strcasecmp(topic, "tourney") || !strcasecmp(topic, "tournaments")) {
		cmd_help_tourney(s);
		return;
	}
	const struct cmd_entry *e = cmd_find(topic);
	const struct help_topic *h = help_find(e ? e->name : topic);
	if (e && (e->flags & CMD_ADMIN) && !session_admin(s))
		e = NULL;
	if (!e && !h) {
		session_printf(s, "No help available on \"%s\".\n", topic);
		return;
	}
	if (e)
		session_printf(s, "%s: %s\nUsage: %s\n%s", e->name, e->summary, e->usage,
		    h ? "\n" : "");
	if (h)
		session_printf(s, "%s", h->text);
}

/* "1 hr 5 mins", "3 mins 2 secs", "12 secs": how FICS prints durations. */
static void format_duration(int64_t ms, char *buf, size_t len)
{
	int64_t secs = ms / 1000, days = secs / 86400, hrs = secs / 3600 % 24,
	    mins = secs / 60 % 60;

	secs %= 60;
	if (days)
		snprintf(buf, len, "%lld day%s %lld hr%s", (long long)days, days == 1 ? "" : "s",
		    (long long)hrs, hrs == 1 ? "" : "s");
	else if (hrs)
		snprintf(buf, len, "%lld hr%s %lld min%s", (long long)hrs, hrs == 1 ? "" : "s",
		    (long long)mins, mins == 1 ? "" : "s");
	else if (mins)
		snprintf(buf, len, "%lld min%s %lld sec%s", (long long)mins, mins == 1 ? "" : "s",
		    (long long)secs, secs == 1 ? "" : "s");
	else
		snprintf(buf, len, "%lld sec%s", (long long)secs, secs == 1 ? "" : "s");
}

struct who_list {
	struct session *s;
	int shown;
};

static void who_line(struct session *who, void *arg)
{
	struct who_list *w = arg;

	/* Rating columns arrive with rated play; guests show ++++ as on FICS. */
	/* FICS's who shows the blitz rating; ^ marks players in a game. */
	session_printf(w->s, "%4s%c%s%s\n", session_rating_text(who, CLOCK_CATEGORY_BLITZ),
	    session_game(who) ? '^' : session_idle_ms(who) > 5 * 60 * 1000 ? '.' : ' ',
	    session_name(who), session_flags(who));
	w->shown++;
}

static void cmd_who(struct session *s, const struct cmd_args *a)
{
	struct who_list w = { s, 0 };

	(void)a;
	server_each_session(session_server(s), who_line, &w);
	session_printf(s, "\n%d players displayed (of %d). (*) indicates system administrator.\n",
	    w.shown, server_session_count(session_server(s)));
}

static void finger_channels(struct session *s, const struct session *who)
{
	if (!session_channel_count(who))
		return;
	session_printf(s, "Channels: ");
	for (int c = 0; c <= 255; c++)
		if (session_in_channel(who, c))
			session_printf(s, "%d ", c);
	session_printf(s, "\n");
}

/* The per-category rating table of finger, FICS style. */
static void finger_ratings(struct session *s, int64_t user_id)
{
	static const enum clock_category categories[] = { CLOCK_CATEGORY_LIGHTNING,
	    CLOCK_CATEGORY_BLITZ, CLOCK_CATEGORY_STANDARD };
	bool header = false;

	for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++) {
		struct rating r;
		char shown[8], name[16];
		if (rating_load(server_db(session_server(s)), user_id, categories[i], &r) < 0 ||
		    !rating_games(&r))
			continue;
		if (!header) {
			session_printf(s, "%-10s %6s %7s %7s %7s %7s %7s\n", "", "rating", "RD", "win",
			    "loss", "draw", "total");
			header = true;
		}
		rating_text(&r, user_id, shown, sizeof shown);
		snprintf(name, sizeof name, "%s", clock_category_name(categories[i]));
		name[0] = (char)(name[0] - 32);
		session_printf(s, "%-10s %6s %7.1f %7d %7d %7d %7d\n", name, shown, r.value.rd, r.wins,
		    r.losses, r.draws, rating_games(&r));
	}
	if (!header)
		session_printf(s, "(No rated games.)\n");
	session_printf(s, "\n");
}

static void cmd_finger(struct session *s, const struct cmd_args *a)
{
	const char *name = a->argc ? a->argv[0] : session_name(s);
	struct session *who = server_find_session(session_server(s), name);
	char on[64], idle[64];

	if (who) {
		format_duration(server_now_ms(session_server(s)) - session_login_ms(who), on, sizeof on);
		format_duration(session_idle_ms(who), idle, sizeof idle);
		session_printf(s, "Finger of %s%s:\n\nOn for: %s   Idle: %s\n\n", session_name(who),
		    session_flags(who), on, idle);
		if (session_registered(who))
			finger_ratings(s, session_user_id(who));
		session_printf(s, "%s\n", session_registered(who) ?
		    (session_admin(who) ? "Administrator." : session_computer(who) ?
		    "Computer account." : "Registered player.") : "Unregistered player (guest).");
		finger_channels(s, who);
		return;
	}
	struct db_user user;
	int found = db_user_find(server_db(session_server(s)), name, &user);
	if (found <= 0) {
		session_printf(s, "There is no player matching the name %s.\n", name);
		return;
	}
	session_printf(s, "Finger of %s%s%s:\n\n", user.name, user.admin ? "(*)" : "",
	    user.computer ? "(C)" : "");
	if (user.last_login) {
		char when[64];
		time_t t = (time_t)user.last_login;
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(when, sizeof when, "%a %b %e, %H:%M UTC %Y", &tm);
		session_printf(s, "Last disconnected: %s\n\n", when);
	} else {
		session_printf(s, "Has never logged in.\n\n");
	}
	finger_ratings(s, user.id);
	session_printf(s, "%s\n", user.admin ? "Administrator." : user.computer ?
	    "Computer account." : "Registered player.");
}

static void cmd_date(struct session *s, const struct cmd_args *a)
{
	time_t now = time(NULL);
	struct tm tm;
	char buf[64];

	(void)a;
	gmtime_r(&now, &tm);
	strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm);
	session_printf(s, "Local time     - %s UTC\nServer time    - %s UTC\nGMT            - %s GMT\n",
	    buf, buf, buf);
}

struct news_list {
	struct session *s;
	int shown;
};

static void news_line(void *arg, int64_t id, int64_t when, const char *title)
{
	struct news_list *n = arg;
	time_t t = (time_t)when;
	struct tm tm;
	char date[32];

	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%a, %b %d", &tm);
	session_printf(n->s, "%4lld (%s) %s\n", (long long)id, date, title);
	n->shown++;
}

static void cmd_news(struct session *s, const struct cmd_args *a)
{
	struct news_list n = { s, 0 };

	(void)a;
	session_printf(s, "Index of recent news items:\n");
	db_news_each(server_db(session_server(s)), 10, news_line, &n);
	if (!n.shown)
		session_printf(s, "(no news)\n");
}

static void cmd_addnews(struct session *s, const struct cmd_args *a)
{
	struct db *db = server_db(session_server(s));

	db_commit_earlier(db);
	if (db_news_add(db, (int64_t)time(NULL), a->argv[0]) < 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		session_printf(s, "Could not save the news item.\n");
		return;
	}
	session_printf(s, "News item added.\n");
}

/* xboard sends "gameend" after each game (an ICC habit); there is nothing to do. */
static void cmd_gameend(struct session *s, const struct cmd_args *a)
{
	(void)s;
	(void)a;
}

static void cmd_uptime(struct session *s, const struct cmd_args *a)
{
	char up[64];

	(void)a;
	format_duration(server_uptime_s(session_server(s)) * 1000, up, sizeof up);
	session_printf(s, "%s has been up for %s.\nPlayers online: %d; connections: %d.\n",
	    server_config(session_server(s))->server_name, up,
	    server_session_count(session_server(s)), server_conn_count(session_server(s)));
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.args = "o",
	.code = BLKCMD_HELP,
	.exec = cmd_help,
	.usage = "help [command|topic]",
	.summary = "Commands and topics",
};
const struct cmd_entry cmd_who_entry = {
	.name = "who",
	.args = "T",
	.code = BLKCMD_WHO,
	.exec = cmd_who,
	.usage = "who",
	.summary = "Players online",
};
const struct cmd_entry cmd_finger_entry = {
	.name = "finger",
	.args = "o",
	.code = BLKCMD_FINGER,
	.exec = cmd_finger,
	.usage = "finger [name]",
	.summary = "About a player",
};
const struct cmd_entry cmd_date_entry = {
	.name = "date",
	.args = "",
	.code = BLKCMD_DATE,
	.exec = cmd_date,
	.usage = "date",
	.summary = "The time here",
};
const struct cmd_entry cmd_news_entry = {
	.name = "news",
	.args = "o",
	.code = BLKCMD_NEWS,
	.exec = cmd_news,
	.usage = "news",
	.summary = "Recent news items",
};
const struct cmd_entry cmd_addnews_entry = {
	.name = "addnews",
	.args = "S",
	.flags = CMD_ADMIN,
	.code = BLKCMD_NULL,
	.exec = cmd_addnews,
	.usage = "addnews <title>",
	.summary = "Post a news item",
};
const struct cmd_entry cmd_gameend_entry = {
	.name = "gameend",
	.args = "T",
	.flags = CMD_HIDDEN,
	.code = BLKCMD_NULL,
	.exec = cmd_gameend,
	.usage = "gameend",
	.summary = "Nothing (sent by xboard)",
};
const struct cmd_entry cmd_uptime_entry = {
	.name = "uptime",
	.args = "",
	.code = BLKCMD_UPTIME,
	.exec = cmd_uptime,
	.usage = "uptime",
	.summary = "How long the server has run",
};
