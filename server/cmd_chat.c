/* Talking: tell, xtell, reply, say, shout, and channels. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "audience.h"
#include "blkcmd.h"
#include "cmd.h"
#include "examine.h"
#include "limit.h"
#include "lists.h"
#include "number.h"
#include "server.h"
#include "session.h"
#include "var.h"

/* Channel numbers FICS clients know by name ("help channel_list"). */
static const struct {
	int number;
	const char *name;
} channel_names[] = {
	{ 0, "Admins" }, { 1, "Help" }, { 2, "General" }, { 3, "Tournament directors" },
	{ 4, "Guest help" }, { 49, "Tournaments" }, { 50, "Chat" }, { 53, "Guest chat" },
};

void cmd_help_channels(struct session *s)
{
	session_printf(s, "Channels with a purpose (join with \"+channel N\"):\n\n");
	for (size_t i = 0; i < sizeof channel_names / sizeof channel_names[0]; i++)
		session_printf(s, "%4d  %s\n", channel_names[i].number, channel_names[i].name);
	session_printf(s, "\nAny other number from 0 to %d may be used freely.\n", LIMIT_CHANNEL_MAX);
}

static const char *channel_name(int channel)
{
	for (size_t i = 0; i < sizeof channel_names / sizeof channel_names[0]; i++)
		if (channel_names[i].number == channel)
			return channel_names[i].name;
	return NULL;
}

/* A channel number from text, or -1. */
static int parse_channel(const char *text)
{
	long n;

	return number_parse(text, 0, LIMIT_CHANNEL_MAX, &n) == NUMBER_OK ? (int)n : -1;
}

struct channel_tell {
	struct session *from;
	const char *line;		/* what every member is told, made once */
	size_t len;
	int told;
};

static void tell_member(struct session *to, void *arg)
{
	struct channel_tell *t = arg;

	if (to == t->from)
		return;
	if (!session_registered(t->from) && !session_var(to, VAR_CTELL))
		return;
	if (lists_censors(to, t->from) || !session_offer_chat(to))
		return;
	session_notify_text(to, t->line, t->len);
	t->told++;
}

/* Only members talk in a channel, so no one speaks into a room without hearing it. */
static void tell_channel(struct session *s, int channel, const char *text)
{
	const char *name = channel_name(channel);

	if (channel == 0 && !session_admin(s)) {
		session_printf(s, "Only admins may send tells to channel 0.\n");
		return;
	}
	if (!session_in_channel(s, channel)) {
		session_printf(s, "You are not in channel %d.\n", channel);
		return;
	}
	if (lists_on_public(s, LIST_CMUZZLE)) {
		session_printf(s, "You are c-muzzled.\n");
		return;
	}
	int n = snprintf(NULL, 0, "%s%s(%d): %s", session_name(s), session_flags(s), channel, text);
	char *line = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!line) {
		session_printf(s, "Server out of memory; nothing told.\n");
		return;
	}
	snprintf(line, (size_t)n + 1, "%s%s(%d): %s", session_name(s), session_flags(s), channel, text);
	struct channel_tell t = { s, line, (size_t)n, 0 };
	audience_each_member(session_server(s), channel, tell_member, &t);
	free(line);
	if (name)
		session_printf(s, "(told %d players in channel %d \"%s\")\n", t.told, channel, name);
	else
		session_printf(s, "(told %d players in channel %d)\n", t.told, channel);
}

/* lasker's hms_desc: "5 secs", "3 mins", "1 hr, 2 mins, 3 secs", "2 days, 1 hour, ...". */
static void idle_text(int64_t ms, char *buf, size_t len)
{
	long long t = ms / 1000, days = t / 86400, hrs = t % 86400 / 3600, mins = t % 3600 / 60,
	    secs = t % 60;

	if (!days && !hrs && !mins)
		snprintf(buf, len, "%lld sec%s", secs, secs == 1 ? "" : "s");
	else if (!days && !hrs)
		snprintf(buf, len, "%lld min%s", mins, mins == 1 ? "" : "s");
	else if (!days)
		snprintf(buf, len, "%lld hr%s, %lld min%s, %lld sec%s", hrs, hrs == 1 ? "" : "s",
		    mins, mins == 1 ? "" : "s", secs, secs == 1 ? "" : "s");
	else
		snprintf(buf, len, "%lld day%s, %lld hour%s, %lld minute%s and %lld second%s", days,
		    days == 1 ? "" : "s", hrs, hrs == 1 ? "" : "s", mins, mins == 1 ? "" : "s", secs,
		    secs == 1 ? "" : "s");
}

/*
 * What lasker's tell adds to "(told NAME...)": what the one told is busy
 * with (examining, setting up, playing a game not the teller's), else their
 * "busy" string, else how long they have been idle past two minutes.
 */
static void told_note(struct session *s, struct session *to, char *buf, size_t len)
{
	struct examine *ex = session_examining(to);
	const char *busy = var_str(session_vars(to), VAR_BUSY);
	int64_t idle_ms = session_idle_ms(to);
	char idle[96];

	buf[0] = '\0';
	idle_text(idle_ms, idle, sizeof idle);
	if (ex)
		snprintf(buf, len, examine_in_setup(ex) ? ", who is setting up a position" :
		    ", who is examining a game");
	else if (session_game(to) && session_game(to) != session_game(s))
		snprintf(buf, len, ", who is playing");
	else if (*busy)
		snprintf(buf, len, ", who %s (idle: %s)", busy, idle);
	else if (idle_ms / 1000 % 3600 / 60 > 2)
		snprintf(buf, len, ", who has been idle %s", idle);
}

/* A tell to one player found: their screens and lists, then the line. */
static void tell_session(struct session *s, struct session *to, const char *text, bool remember)
{
	if (!session_registered(s) && !session_var(to, VAR_TELL)) {
		session_printf(s, "Player \"%s\" isn't listening to unregistered tells.\n",
		    session_name(to));
		return;
	}
	/* As on FICS, an admin's tell still reaches someone censoring them. */
	bool censored = lists_censors(to, s);
	if (censored && !session_admin(s)) {
		session_printf(s, "Player \"%s\" is censoring you.\n", session_name(to));
		return;
	}
	if (censored && remember)
		session_printf(s, "Told \"%s\", who is censoring you.\n", session_name(to));
	session_notify(to, "%s%s tells you: %s", session_name(s), session_flags(s), text);
	char note[SESSION_NAME_MAX + VAR_STRING_MAX + 128];
	told_note(s, to, note, sizeof note);
	session_printf(s, "(told %s%s)\n", session_name(to), note);
	session_set_last_teller(to, s);
	if (remember)
		session_set_last_tell(s, to);
}

/* tell and xtell: to a player by name, "." for the last one, or a channel. */
static void tell(struct session *s, const struct cmd_args *a, bool remember)
{
	const char *target = a->argv[0], *text = a->argv[1];
	int channel = parse_channel(target);

	if (channel >= 0) {
		tell_channel(s, channel, text);
		return;
	}
	/* As lasker's chtell: a number is a channel, never a name, even out of range. */
	long n;
	enum number_status st = number_parse(target, LONG_MIN, LONG_MAX, &n);
	if (st != NUMBER_JUNK) {
		if ((st == NUMBER_OK && n < 0) || target[strspn(target, " ")] == '-')
			session_printf(s, "The lowest channel number is 0.\n");
		else
			session_printf(s, "The maximum channel number is %d.\n", LIMIT_CHANNEL_MAX);
		return;
	}
	struct session *to;
	if (!strcmp(target, ".")) {
		target = session_last_tell(s);
		if (!*target) {
			session_printf(s, "No previous tell.\n");
			return;
		}
		/* The person told, not whoever has the name now. */
		if (!(to = session_last_tell_online(s))) {
			session_printf(s, "%s, whom you last told, is not logged in.\n", target);
			return;
		}
	} else {
		to = server_find_session(session_server(s), target);
	}
	if (!to && remember) {
		/* As lasker's tell_s, which lowers the name first; xtell keeps it as typed. */
		char lower[SESSION_NAME_MAX + 1];
		size_t i;
		for (i = 0; target[i] && i < SESSION_NAME_MAX; i++)
			lower[i] = (char)tolower((unsigned char)target[i]);
		lower[i] = '\0';
		session_printf(s, "No user named '%s' is logged in.\n", lower);
		return;
	}
	if (!to) {
		session_printf(s, "No user named \"%s\" is logged in.\n", target);
		return;
	}
	tell_session(s, to, text, remember);
}

static void cmd_tell(struct session *s, const struct cmd_args *a)
{
	tell(s, a, true);
}

static void cmd_xtell(struct session *s, const struct cmd_args *a)
{
	tell(s, a, false);
}

/* "reply": a tell to whoever last told you, that account or guest session only. */
static void cmd_reply(struct session *s, const struct cmd_args *a)
{
	const char *who = session_last_teller(s);
	struct session *to;

	if (!*who) {
		session_printf(s, "No one has told you anything.\n");
		return;
	}
	if (!(to = session_last_teller_online(s))) {
		session_printf(s, "%s, who last told you, is not logged in.\n", who);
		return;
	}
	tell_session(s, to, a->argv[0], true);
}

/* One shout, c-shout or "it" on its way: the line is made once for everyone. */
struct shout {
	struct session *from;
	const char *line;
	int told;
};

static void shout_to(struct session *to, void *arg)
{
	struct shout *sh = arg;

	if (to == sh->from || lists_censors(to, sh->from) || !session_offer_chat(to))
		return;
	session_notify(to, "%s", sh->line);
	sh->told++;
}

/* Tells k's audience line; how many heard it. */
static int shout_send(struct session *s, enum audience_kind k, const char *line)
{
	struct shout sh = { s, line, 0 };

	audience_each(session_server(s), k, shout_to, &sh);
	return sh.told;
}

/* A whole typed line, the name and its flags fit. */
#define SHOUT_LINE_MAX (LIMIT_LINE_BYTES + SESSION_NAME_MAX + 32)

/* "alice shouts: hi", "alice c-shouts: hi": as lasker's com_shout and com_cshout say them. */
static void shout_kind(struct session *s, const char *text, bool cshout)
{
	enum list_kind muzzle = cshout ? LIST_CMUZZLE : LIST_MUZZLE;
	const char *verb = cshout ? "c-shouts" : "shouts";
	char line[SHOUT_LINE_MAX];

	if (lists_on_public(s, muzzle)) {
		session_printf(s, cshout ? "You are c-muzzled.\n" : "You are muzzled.\n");
		return;
	}
	snprintf(line, sizeof line, "%s%s %s: %s", session_name(s), session_flags(s), verb, text);
	int told = shout_send(s, cshout ? AUDIENCE_CSHOUT : AUDIENCE_SHOUT, line);
	session_printf(s, "(%d) %s %s: %s\n", told, session_name(s), verb, text);
	if (!session_var(s, cshout ? VAR_CSHOUT : VAR_SHOUT))
		session_printf(s, "You are not listening to %s.\n", cshout ? "c-shouts" : "shouts");
}

static void cmd_shout(struct session *s, const struct cmd_args *a)
{
	shout_kind(s, a->argv[0], false);
}

static void cmd_cshout(struct session *s, const struct cmd_args *a)
{
	shout_kind(s, a->argv[0], true);
}

/* "it": "--> alice waves", or "--> alice's turn" with no space before ' , or . (lasker's com_it). */
static void cmd_it(struct session *s, const struct cmd_args *a)
{
	const char *text = a->argv[0];
	const char *gap = strchr("',.", text[0]) && text[0] ? "" : " ";
	char line[SHOUT_LINE_MAX];

	if (lists_on_public(s, LIST_MUZZLE)) {
		session_printf(s, "You are muzzled.\n");
		return;
	}
	snprintf(line, sizeof line, "--> %s%s%s", session_name(s), gap, text);
	shout_send(s, AUDIENCE_SHOUT, line);
	session_printf(s, "%s\n", line);
}

static void cmd_join(struct session *s, const struct cmd_args *a)
{
	int channel = parse_channel(a->argv[0]);

	if (channel < 0) {
		session_printf(s, "The channel number must be from 0 to %d.\n", LIMIT_CHANNEL_MAX);
		return;
	}
	if (channel == 0 && !session_admin(s)) {
		session_printf(s, "Only admins may join channel 0.\n");
		return;
	}
	if (session_in_channel(s, channel)) {
		session_printf(s, "[%d] is already on your channel list.\n", channel);
		return;
	}
	int rc = session_set_channel(s, channel, true);
	if (rc == -2) {
		session_printf(s, "The server could not save your channel list; [%d] was not added.\n",
		    channel);
		return;
	}
	if (rc < 0) {
		session_printf(s, "You cannot be in more than %d channels.\n", LIMIT_CHANNELS_PER_USER);
		return;
	}
	session_printf(s, "[%d] added to your channel list.\n", channel);
}

static void cmd_leave(struct session *s, const struct cmd_args *a)
{
	int channel = parse_channel(a->argv[0]);

	if (channel < 0 || !session_in_channel(s, channel)) {
		session_printf(s, "[%s] is not in your channel list.\n", a->argv[0]);
		return;
	}
	if (session_set_channel(s, channel, false) < 0) {
		session_printf(s, "The server could not save your channel list; [%d] was not "
		    "removed.\n", channel);
		return;
	}
	session_printf(s, "[%d] removed from your channel list.\n", channel);
}

static void list_channels(struct session *s, const struct session *who)
{
	session_printf(s, "%s is in the following channels:\n", session_name(who));
	if (!session_channel_count(who)) {
		session_printf(s, "(none)\n");
		return;
	}
	for (int c = 0; c <= LIMIT_CHANNEL_MAX; c++)
		if (session_in_channel(who, c))
			session_printf(s, "%d ", c);
	session_printf(s, "\n");
}

static void cmd_mychannels(struct session *s, const struct cmd_args *a)
{
	(void)a;
	list_channels(s, s);
}

struct members {
	struct session **list;
	int count;
};

static void collect_member(struct session *who, void *arg)
{
	struct members *m = arg;

	m->list[m->count++] = who;
}

static int by_name(const void *a, const void *b)
{
	return strcasecmp(session_name(*(struct session *const *)a),
	    session_name(*(struct session *const *)b));
}

/* One channel's members in name order: the work is the members', not everyone's. */
static void show_channel(struct session *s, int channel)
{
	struct server *srv = session_server(s);
	int most = audience_member_count(srv, channel);
	struct members m = { most ? malloc((size_t)most * sizeof *m.list) : NULL, 0 };

	if (most && !m.list) {
		session_printf(s, "Out of memory.\n");
		return;
	}
	audience_each_member(srv, channel, collect_member, &m);
	if (m.count)
		qsort(m.list, (size_t)m.count, sizeof *m.list, by_name);
	/*
	 * lasker's com_inchannel lines, but the count line in the words pychess
	 * reads to the end of the list ("3 players are in channel 4."), where
	 * lasker's "people are" would leave it reading on.
	 */
	if (!m.count) {
		session_printf(s, "Channel %d is empty.\n", channel);
		free(m.list);
		return;
	}
	session_printf(s, "Channel %d:", channel);
	for (int i = 0; i < m.count; i++)
		session_printf(s, " %s%s", session_name(m.list[i]), session_flags(m.list[i]));
	session_printf(s, "\n%d player%s in channel %d.\n", m.count, m.count == 1 ? " is" : "s are",
	    channel);
	free(m.list);
}

/* inchannel: every occupied channel; inchannel N: one; inchannel NAME: a player's. */
static void cmd_inchannel(struct session *s, const struct cmd_args *a)
{
	if (a->argc == 1) {
		int channel = parse_channel(a->argv[0]);
		if (channel >= 0) {
			show_channel(s, channel);
			return;
		}
		struct session *who = server_find_session(session_server(s), a->argv[0]);
		if (!who) {
			session_printf(s, "No user named \"%s\" is logged in.\n", a->argv[0]);
			return;
		}
		list_channels(s, who);
		return;
	}
	for (int c = 0; c <= LIMIT_CHANNEL_MAX; c++)
		if (audience_member_count(session_server(s), c))
			show_channel(s, c);
}

const struct cmd_entry cmd_tell_entry = {
	.name = "tell",
	.args = "wS",
	.code = BLKCMD_TELL,
	.exec = cmd_tell,
	.usage = "tell <name|channel|.> <message>",
	.summary = "Send a message to a player or a channel",
};
const struct cmd_entry cmd_xtell_entry = {
	.name = "xtell",
	.args = "wS",
	.code = BLKCMD_XTELL,
	.exec = cmd_xtell,
	.usage = "xtell <name|channel> <message>",
	.summary = "Tell without changing who \"tell .\" goes to",
};
const struct cmd_entry cmd_reply_entry = {
	.name = "reply",
	.args = "S",
	.code = BLKCMD_REPLY,
	.exec = cmd_reply,
	.usage = "reply <message>",
	.summary = "Tell the last player who told you",
};
const struct cmd_entry cmd_shout_entry = {
	.name = "shout",
	.args = "S",
	.flags = CMD_REGISTERED,
	.code = BLKCMD_SHOUT,
	.exec = cmd_shout,
	.usage = "shout <message>",
	.summary = "Send a message to everyone listening to shouts",
};
const struct cmd_entry cmd_cshout_entry = {
	.name = "cshout",
	.args = "S",
	.flags = CMD_REGISTERED,
	.code = BLKCMD_CSHOUT,
	.exec = cmd_cshout,
	.usage = "cshout <message>",
	.summary = "Send a message to everyone listening to c-shouts",
};
const struct cmd_entry cmd_it_entry = {
	.name = "it",
	.args = "S",
	.flags = CMD_REGISTERED,
	.code = BLKCMD_IT,
	.exec = cmd_it,
	.usage = "it <action>",
	.summary = "Shout an action: \"it waves\" shows \"--> alice waves\"",
};
const struct cmd_entry cmd_join_entry = {
	.name = "+channel",
	.args = "w",
	.code = BLKCMD_ADDLIST,
	.exec = cmd_join,
	.usage = "+channel <number>",
	.summary = "Join a channel",
};
const struct cmd_entry cmd_leave_entry = {
	.name = "-channel",
	.args = "w",
	.code = BLKCMD_SUBLIST,
	.exec = cmd_leave,
	.usage = "-channel <number>",
	.summary = "Leave a channel",
};
const struct cmd_entry cmd_mychannels_entry = {
	.name = "=channel",
	.args = "",
	.code = BLKCMD_SHOWLIST,
	.exec = cmd_mychannels,
	.usage = "=channel",
	.summary = "List your channels",
};
const struct cmd_entry cmd_inchannel_entry = {
	.name = "inchannel",
	.args = "o",
	.code = BLKCMD_INCHANNEL,
	.exec = cmd_inchannel,
	.usage = "inchannel [number|name]",
	.summary = "Who is in which channel",
};
