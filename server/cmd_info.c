/* Finding things out: help, who, finger, date, news, uptime, handles, limits. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "blkcmd.h"
#include "cmd.h"
#include "config.h"
#include "db.h"
#include "examine.h"
#include "fics.h"
#include "game.h"
#include "glicko2.h"
#include "help.h"
#include "limit.h"
#include "moderation.h"
#include "rating.h"
#include "server.h"
#include "session.h"
#include "var.h"

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

/* Lines gathered before they go to the session: a few thousand bytes per write. */
#define WHO_CHUNK 8192
/* The longest line: a rating (7), the mark, a name and the flags "(*)(C)". */
#define WHO_LINE_MAX (7 + 1 + SESSION_NAME_MAX + 6 + 1)

struct who_list {
	struct session *s;
	int shown;
	int64_t idle_after_ms;	/* a session last active before this is idle */
	size_t used;		/* bytes of text waiting */
	char text[WHO_CHUNK];
};

static void who_flush(struct who_list *w)
{
	if (w->used)
		session_write(w->s, w->text, w->used);
	w->used = 0;
}

/* Appends at most limit bytes of text; the bytes taken. */
static size_t put_text(char *out, const char *text, size_t limit)
{
	size_t n = strnlen(text, limit);

	memcpy(out, text, n);
	return n;
}

/*
 * One line, "%4s%c%s%s\n": the blitz rating (guests ++++ as on FICS), ^
 * for a player in a game or . for one idle five minutes, the name and the
 * flags.  Written without printf: who lists every user, often.
 */
static void who_line(struct session *who, void *arg)
{
	struct who_list *w = arg;
	const char *rating = session_rating_text(who, CLOCK_CATEGORY_BLITZ);
	size_t rating_len = strnlen(rating, 7);

	if (sizeof w->text - w->used < WHO_LINE_MAX)
		who_flush(w);
	char *p = w->text + w->used;
	for (size_t pad = rating_len; pad < 4; pad++)
		*p++ = ' ';
	memcpy(p, rating, rating_len);
	p += rating_len;
	*p++ = session_game(who) ? '^' : session_active_ms(who) < w->idle_after_ms ? '.' : ' ';
	p += put_text(p, session_name(who), SESSION_NAME_MAX);
	p += put_text(p, session_flags(who), 6);
	*p++ = '\n';
	w->used = (size_t)(p - w->text);
	w->shown++;
}

static void cmd_who(struct session *s, const struct cmd_args *a)
{
	struct server *srv = session_server(s);
	struct who_list w = { .s = s, .idle_after_ms = server_now_ms(srv) - 5 * 60 * 1000 };

	(void)a;
	server_each_session(srv, who_line, &w);
	who_flush(&w);
	session_printf(s, "\n%d players displayed (of %d). (*) indicates system administrator.\n",
	    w.shown, server_session_count(srv));
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
static void finger_ratings(struct session *s, const char *name, int64_t user_id)
{
	static const enum clock_category categories[] = { CLOCK_CATEGORY_LIGHTNING,
	    CLOCK_CATEGORY_BLITZ, CLOCK_CATEGORY_STANDARD };
	bool header = false;

	for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++) {
		struct rating r;
		char shown[8], category[16];
		if (rating_load(server_db(session_server(s)), user_id, categories[i], &r) < 0 ||
		    !rating_games(&r))
			continue;
		/* lasker's com_stats table; pychess reads it only under this very header. */
		if (!header) {
			session_printf(s, "         rating     RD     win   loss   draw  total   best\n");
			header = true;
		}
		rating_text(&r, user_id, shown, sizeof shown);
		snprintf(category, sizeof category, "%s", clock_category_name(categories[i]));
		category[0] = (char)(category[0] - 32);
		session_printf(s, "%-10s%4s    %5.1f   %4d   %4d   %4d   %4d\n", category, shown,
		    r.value.rd, r.wins, r.losses, r.draws, rating_games(&r));
	}
	/* lasker prints nothing here; this is the line pychess's FingerManager knows. */
	if (!header)
		session_printf(s, "%s has not played any rated games.\n", name);
	session_printf(s, "\n");
}

static void count_note(void *arg, int line, const char *text)
{
	(void)line;
	(void)text;
	(*(int *)arg)++;
}

static void print_note(void *arg, int line, const char *text)
{
	session_printf(arg, "%2d: %s\n", line, text);
}

/*
 * The finger notes (set 1 .. set 10) as FICS shows them, then a blank line.
 * They follow the rating table directly: pychess reads finger's lines only
 * while each is one it knows.
 */
static void finger_notes(struct session *s, int64_t user_id)
{
	struct db *db = server_db(session_server(s));
	int count = 0;

	if (!user_id)
		return;
	db_notes_each(db, user_id, count_note, &count);
	if (!count)
		return;
	db_notes_each(db, user_id, print_note, s);
	session_printf(s, "\n");
}

/*
 * What an online player is doing, as lasker's com_stats says it and
 * pychess's FingerManager reads it: "(playing game 3: alice vs. bob)",
 * "(Examining game 4: ...)", "(Setting up game 4: ...)" and "(alice BUSY)".
 * lasker's "alice is observing game 5." is left out: pychess stops reading a
 * finger at a line it does not know, and would lose the ratings and notes.
 */
static void finger_doing(struct session *s, struct session *who)
{
	struct game *g = session_game(who);
	struct examine *ex = session_examining(who);

	if (!g && ex)
		g = examine_game(ex);
	if (g)
		session_printf(s, "(%s game %d: %s vs. %s)\n", !ex ? "playing" :
		    examine_in_setup(ex) ? "Setting up" : "Examining", game_number(g),
		    game_player_name(g, WHITE), game_player_name(g, BLACK));
	const char *busy = var_str(session_vars(who), VAR_BUSY);
	if (*busy)
		session_printf(s, "(%s %s)\n", session_name(who), busy);
}

static void cmd_finger(struct session *s, const struct cmd_args *a)
{
	const char *name = a->argc ? a->argv[0] : session_name(s);
	struct session *who = server_find_session(session_server(s), name);
	char on[64], idle[64];

	if (who) {
		format_duration(server_now_ms(session_server(s)) - session_login_ms(who), on, sizeof on);
		format_duration(session_idle_ms(who), idle, sizeof idle);
		session_printf(s, "Finger of %s%s:\n\nOn for: %s   Idle: %s\n", session_name(who),
		    session_flags(who), on, idle);
		finger_doing(s, who);
		session_printf(s, "\n");
		if (session_registered(who)) {
			finger_ratings(s, session_name(who), session_user_id(who));
			finger_notes(s, session_user_id(who));
		}
		session_printf(s, "%s\n", session_registered(who) ?
		    (session_admin(who) ? "Administrator." : session_computer(who) ?
		    "Computer account." : "Registered player.") : "Unregistered player (guest).");
		finger_channels(s, who);
		return;
	}
	struct db_user user;
	int found = db_user_find(server_db(session_server(s)), name, &user);
	if (found <= 0) {
		session_printf(s, "There is no player matching that name.\n");
		return;
	}
	session_printf(s, "Finger of %s%s%s:\n\n", user.name, user.admin ? "(*)" : "",
	    user.computer ? "(C)" : "");
	if (user.last_login) {
		char when[64];

		fics_date(user.last_login, when, sizeof when);
		session_printf(s, "Last disconnected: %s\n\n", when);
	} else {
		session_printf(s, "Has never logged in.\n\n");
	}
	finger_ratings(s, user.name, user.id);
	finger_notes(s, user.id);
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
	moderation_log(s, "addnews", 0, NULL, a->argv[0]);
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

/* The names found by handles, up to the limit and one more to tell it was passed. */
struct handles {
	char (*names)[DB_NAME_MAX];
	int count, max;
};

static void handle_found(void *arg, const char *name)
{
	struct handles *h = arg;

	if (h->count < h->max)
		snprintf(h->names[h->count++], DB_NAME_MAX, "%s", name ? name : "");
}

/*
 * lasker's multicol: in columns down then across, each as wide as the
 * longest name and a blank, as many as the width variable allows.
 */
static void print_multicol(struct session *s, char (*names)[DB_NAME_MAX], int count)
{
	int widest = 0;

	for (int i = 0; i < count; i++)
		if ((int)strlen(names[i]) > widest)
			widest = (int)strlen(names[i]);
	widest++;
	int per_line = session_var(s, VAR_WIDTH) / widest;
	if (per_line < 1)
		per_line = 1;
	int lines = (count + per_line - 1) / per_line;
	session_printf(s, "\n");
	for (int row = 0; row < lines; row++) {
		for (int col = 0; col < per_line; col++) {
			int i = row + lines * col;
			if (i >= count)
				break;
			int pad = widest - (int)strlen(names[i]) - (col == per_line - 1);
			session_printf(s, "%s%*s", names[i], pad, "");
		}
		session_printf(s, "\n");
	}
}

/* handles PREFIX: registered names beginning with it (lasker's com_handles). */
static void cmd_handles(struct session *s, const struct cmd_args *a)
{
	const char *prefix = a->argv[0];
	size_t n = strlen(prefix);
	int limit = server_config(session_server(s))->limits.handles_shown;

	for (size_t i = 0; i < n; i++) {
		if (!isalpha((unsigned char)prefix[i]) || (unsigned char)prefix[i] >= 0x80) {
			session_printf(s, "Names have letters only; \"%.20s\" begins none.\n", prefix);
			return;
		}
	}
	if (n > SESSION_NAME_MAX) {
		session_printf(s, "Names have at most %d letters; \"%.20s\" begins none.\n",
		    SESSION_NAME_MAX, prefix);
		return;
	}
	struct handles h = { calloc((size_t)limit + 1, DB_NAME_MAX), 0, limit + 1 };
	if (!h.names) {
		session_printf(s, "Server out of memory; no names shown.\n");
		return;
	}
	if (db_user_prefix(server_db(session_server(s)), prefix, limit + 1, handle_found, &h) < 0) {
		session_printf(s, "Server error; no names shown.\n");
		free(h.names);
		return;
	}
	bool more = h.count > limit;
	if (more)
		h.count = limit;
	session_printf(s, "Found %d names.\n", h.count);
	if (h.count > 0)
		print_multicol(s, h.names, h.count);
	if (more)
		session_printf(s, "More names begin with \"%s\"; give a longer beginning to see them.\n",
		    prefix);
	free(h.names);
}

/*
 * lasker's com_limits, with the limits this server has: every one is a
 * setting (or a constant of limit.h), so lasker's "hardcoded" is left out;
 * there are no simuls or shout quotas, and ranking is by RD, not by games.
 */
static void cmd_limits(struct session *s, const struct cmd_args *a)
{
	const struct limits *lim = &server_config(session_server(s))->limits;

	(void)a;
	session_printf(s, "\nCurrent limits:\n");
	session_printf(s, "  Max number of channels and max capacity: %d\n", LIMIT_CHANNEL_MAX + 1);
	session_printf(s, "  Max number of channels one can be in: %d\n", LIMIT_CHANNELS_PER_USER);
	session_printf(s, "  Max number of people on the notify list: %d\n", lim->list_entries);
	session_printf(s, "  Max number of people on the censor list: %d\n", lim->list_entries);
	session_printf(s, "  Max number of messages one can receive: %d\n", lim->messages_per_user);
	session_printf(s, "  Max number of aliases: %d\n", LIMIT_ALIASES);
	session_printf(s, "  Max number of games one can observe: %d\n", LIMIT_OBSERVE_PER_USER);
	session_printf(s, "  Max number of seeks one can have posted: %d\n", lim->seeks_per_user);
	session_printf(s, "  Max number of match requests one can have pending: %d\n",
	    lim->offers_per_user);
	session_printf(s, "  Max number of games one can start in a minute: %d\n",
	    lim->games_per_minute);
	session_printf(s, "  Max length of a line (bytes): %d\n", lim->line_bytes);
	session_printf(s, "  Max number of commands per second: %d (bursts of %d)\n",
	    lim->commands_per_sec, lim->command_burst);
	session_printf(s, "  Max number of names handles shows: %d\n", lim->handles_shown);
	session_printf(s, "  Max number of lines rank shows: %d\n", lim->rank_lines);
	session_printf(s, "  Ranked once the rating's RD is below: %d\n", (int)GLICKO2_PROVISIONAL_RD);
}

const struct cmd_entry cmd_handles_entry = {
	.name = "handles",
	.args = "w",
	.code = BLKCMD_HANDLES,
	.exec = cmd_handles,
	.usage = "handles <beginning of a name>",
	.summary = "Registered names that begin with the letters given",
};
const struct cmd_entry cmd_limits_entry = {
	.name = "limits",
	.args = "",
	.code = BLKCMD_LIMITS,
	.exec = cmd_limits,
	.usage = "limits",
	.summary = "The server's limits",
};

/* lasker's next (also more): the rest of a paged text.  Nothing here is
 * paged, so there is never more. */
static void cmd_next(struct session *s, const struct cmd_args *a)
{
	(void)a;
	session_printf(s, "There is no more.\n");
}

const struct cmd_entry cmd_next_entry = {
	.name = "next",
	.args = "",
	.code = BLKCMD_NEXT,
	.exec = cmd_next,
	.usage = "next",
	.summary = "The rest of a paged text (none is paged here)",
};

/* ping [NAME] (and lag): the round trip to a client as the server sees it. */
static void cmd_ping(struct session *s, const struct cmd_args *a)
{
	struct session *who = a->argc ? server_find_session(session_server(s), a->argv[0]) : s;
	bool timeseal;

	if (!who) {
		session_printf(s, "%s isn't logged in.\n", a->argv[0]);
		return;
	}
	int64_t rtt = session_rtt_ms(who, &timeseal);
	if (rtt < 0) {
		session_printf(s, "Ping time for %s is not known yet; try again in a moment.\n",
		    session_name(who));
		return;
	}
	session_printf(s, "Average ping time for %s is %lldms.\n", session_name(who),
	    (long long)rtt);
	session_printf(s, "(%s)\n", timeseal ? "measured by timeseal pings" :
	    "the TCP round trip the server measures; timeseal gives the client's own view");
}

/* FICS's centring of assess's headings: text in width, padded on the right if pad. */
static void centre(char *out, size_t len, const char *text, int width, bool pad)
{
	int left = (width + 1 - (int)strlen(text)) / 2;

	if (left < 0)
		left = 0;
	if (pad)
		snprintf(out, len, "%*s%-*s", left, "", width - left, text);
	else
		snprintf(out, len, "%*s%s", left, "", text);
}

static const char *const category_titles[CLOCK_CATEGORY_NB] = {
	[CLOCK_CATEGORY_LIGHTNING] = "Lightning",
	[CLOCK_CATEGORY_BLITZ] = "Blitz",
	[CLOCK_CATEGORY_STANDARD] = "Standard",
};

/* One category's assess table, FICS's layout (pychess parses it after "assess A B /type"). */
static void assess_show(struct session *s, const struct db_user *u1, const struct db_user *u2,
    enum clock_category c)
{
	struct db *db = server_db(session_server(s));
	struct rating r1, r2;
	struct rating_assessment as;
	char line[128], head[64], t1[8], t2[8];

	if (rating_load(db, u1->id, c, &r1) < 0 || rating_load(db, u2->id, c, &r2) < 0) {
		session_printf(s, "Server error; please try again.\n");
		return;
	}
	rating_assess(&r1, &r2, &as);
	centre(head, sizeof head, category_titles[c], 35, false);
	session_printf(s, "\n%7s%s\n", "", head);
	centre(line, sizeof line, u1->name, 17, true);
	centre(head, sizeof head, u2->name, 17, false);
	session_printf(s, "%7s%s %s\n", "", line, head);
	rating_text(&r1, u1->id, t1, sizeof t1);
	rating_text(&r2, u2->id, t2, sizeof t2);
	session_printf(s, "%7s (%4s RD %5.1f)   (%4s RD %5.1f)\n", "", t1, r1.value.rd, t2,
	    r2.value.rd);
	session_printf(s, "%7s%9d %17d\n", "Win:", as.first[0], as.second[2]);
	session_printf(s, "%7s%9d %17d\n", "Draw:", as.first[1], as.second[1]);
	session_printf(s, "%7s%9d %17d\n", "Loss:", as.first[2], as.second[0]);
	session_printf(s, "%7s%10.1f %17.1f\n", "New RD:", as.first_rd, as.second_rd);
}

static bool assess_user(struct session *s, const char *name, struct db_user *u)
{
	if (db_user_find(server_db(session_server(s)), name, u) > 0)
		return true;
	session_printf(s, "No user named \"%s\" was found.\n", name);
	return false;
}

/*
 * assess [NAME [NAME2]] [/category]: what a win, draw or loss would change,
 * by Glicko-2 from both players' current ratings.  One name is you against
 * NAME; no category shows all three.
 */
static void cmd_assess(struct session *s, const struct cmd_args *a)
{
	const char *names[2];
	int n = 0, category = -1;

	for (int i = 0; i < a->argc; i++) {
		const char *w = a->argv[i];
		if (*w == '/' || (category < 0 && n == 2)) {
			w += *w == '/';
			for (int c = 0; c < CLOCK_CATEGORY_NB; c++)
				if (category_titles[c] && *w && !strncasecmp(category_titles[c], w, strlen(w)))
					category = c;
			if (category < 0) {
				session_printf(s, "There is no game type %s.\n", w);
				return;
			}
		} else if (n < 2) {
			names[n++] = w;
		}
	}
	if (!n) {
		session_printf(s, "Usage: assess NAME [NAME2] [/lightning|/blitz|/standard]\n");
		return;
	}
	struct db_user u1, u2;
	if (n == 1) {
		if (!session_registered(s)) {
			session_printf(s, "You can only assess games between registered players.\n");
			return;
		}
		if (!assess_user(s, session_name(s), &u1) || !assess_user(s, names[0], &u2))
			return;
	} else if (!assess_user(s, names[0], &u1) || !assess_user(s, names[1], &u2)) {
		return;
	}
	if (u1.id == u2.id) {
		session_printf(s, "You can't assess the same players.\n");
		return;
	}
	if (category >= 0) {
		assess_show(s, &u1, &u2, (enum clock_category)category);
		return;
	}
	assess_show(s, &u1, &u2, CLOCK_CATEGORY_LIGHTNING);
	assess_show(s, &u1, &u2, CLOCK_CATEGORY_BLITZ);
	assess_show(s, &u1, &u2, CLOCK_CATEGORY_STANDARD);
}

const struct cmd_entry cmd_ping_entry = {
	.name = "ping",
	.args = "o",
	.code = BLKCMD_NULL,
	.exec = cmd_ping,
	.usage = "ping [name]",
	.summary = "The round trip to a user's client",
};
const struct cmd_entry cmd_lag_entry = {
	.name = "lag",
	.args = "o",
	.code = BLKCMD_NULL,
	.exec = cmd_ping,
	.usage = "lag [name]",
	.summary = "The same as ping",
};
const struct cmd_entry cmd_assess_entry = {
	.name = "assess",
	.args = "ooo",
	.code = BLKCMD_ASSESS,
	.exec = cmd_assess,
	.usage = "assess <name> [name2] [/lightning|/blitz|/standard]",
	.summary = "Rating changes a win, draw or loss would bring",
};
