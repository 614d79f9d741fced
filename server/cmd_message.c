/* Messages left for registered players: message, messages, clearmessages. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "blkcmd.h"
#include "cmd.h"
#include "config.h"
#include "db.h"
#include "fics.h"
#include "lists.h"
#include "number.h"
#include "server.h"
#include "session.h"

/* What one listing walks: which messages (all, one number, from or to an account). */
struct walk {
	struct session *s;
	int number;			/* of the message being looked at, from 1 */
	int want;			/* 0: all */
	int64_t sender_id;		/* 0: anyone */
	bool numbered;
	const char *heading;		/* a line before the first one shown, or NULL */
	int shown;
	int64_t found_id;		/* the id of message want */
};

static void show_one(void *arg, const struct db_message *m)
{
	struct walk *w = arg;
	char when[64];

	w->number++;
	if ((w->want && w->number != w->want) || (w->sender_id && m->sender_id != w->sender_id))
		return;
	w->found_id = m->id;
	if (w->heading && !w->shown)
		session_printf(w->s, "%s\n", w->heading);
	fics_date(m->sent, when, sizeof when);
	if (w->numbered)
		session_printf(w->s, "%2d. %s at %s: %s\n", w->number, m->sender, when, m->text);
	else
		session_printf(w->s, "%s at %s: %s\n", m->sender, when, m->text);
	w->shown++;
}

/* Why an account is looked up: FICS words a guest's name differently for each. */
enum lookup { LOOKUP_SEND, LOOKUP_READ, LOOKUP_CLEAR };

/* The account a name means, with FICS's line when there is none; false after a line. */
static bool find_account(struct session *s, const char *name, enum lookup why,
    struct db_user *user)
{
	struct session *online = server_find_session(session_server(s), name);
	int found = db_user_find(server_db(session_server(s)), name, user);

	if (found > 0)
		return true;
	if (online && !session_registered(online)) {
		const char *guest = session_name(online);
		switch (why) {
		case LOOKUP_SEND:
			session_printf(s, "Player \"%s\" is unregistered and cannot receive "
			    "messages.\n", guest);
			break;
		case LOOKUP_READ:
			session_printf(s, "Player \"%s\" is unregistered and cannot send or receive "
			    "messages.\n", guest);
			break;
		case LOOKUP_CLEAR:
			session_printf(s, "You have no messages from %s.\n", guest);
			break;
		}
	} else if (found < 0) {
		session_printf(s, "Server error; please try again.\n");
	} else {
		session_printf(s, "There is no player matching that name.\n");
	}
	return false;
}

static void send_message(struct session *s, const char *name, const char *text)
{
	struct server *srv = session_server(s);
	struct db *db = server_db(srv);
	struct db_user to;

	if (!session_registered(s)) {
		session_printf(s, "You are not registered and cannot send messages.\n");
		return;
	}
	if (!find_account(s, name, LOOKUP_SEND, &to))
		return;
	/* The recipient may be offline: its stored censor list decides.  As with
	 * tells, an administrator's message still gets through. */
	if (!session_admin(s) &&
	    lists_account_has(srv, to.id, LIST_CENSOR, session_user_id(s))) {
		session_printf(s, "Player \"%s\" is censoring you.\n", to.name);
		return;
	}
	int held = db_message_count(db, to.id);
	if (held < 0 || (held >= server_config(srv)->limits.messages_per_user && !to.admin)) {
		session_printf(s, "Couldn't send message to %s. Message buffer full.\n", to.name);
		return;
	}
	if (db_message_add(db, to.id, session_user_id(s), session_name(s), (int64_t)time(NULL),
	    text) < 0 || db_commit_now(db) < 0) {
		session_printf(s, "The message could not be saved; it was not sent.\n");
		return;
	}
	session_printf(s, "\nThe following message was sent to %s: \n   %s\n", to.name, text);
	struct session *online = server_find_session(srv, to.name);
	if (online && session_user_id(online) == to.id)
		session_notify(online, "%s just sent you a message:\n    %s", session_name(s), text);
}

static void cmd_message(struct session *s, const struct cmd_args *a)
{
	send_message(s, a->argv[0], a->argv[1]);
}

/* messages NAME: what you sent NAME that NAME still holds, and what NAME sent
 * you; FICS heads a list only when it has a message. */
static void messages_with(struct session *s, const char *name)
{
	struct db *db = server_db(session_server(s));
	struct db_user other;
	char heading[64 + DB_NAME_MAX];

	if (!find_account(s, name, LOOKUP_READ, &other))
		return;
	if (other.id != session_user_id(s)) {
		snprintf(heading, sizeof heading, "Messages to %s:", other.name);
		struct walk to = { .s = s, .sender_id = session_user_id(s), .heading = heading };
		db_message_each(db, other.id, show_one, &to);
		if (!to.shown)
			session_printf(s, "%s has no messages from you.\n", other.name);
	}
	snprintf(heading, sizeof heading, "Messages from %s:", other.name);
	struct walk from = { .s = s, .sender_id = other.id, .numbered = true, .heading = heading };
	db_message_each(db, session_user_id(s), show_one, &from);
	if (!from.shown)
		session_printf(s, "\nYou have no messages from %s.\n", other.name);
}

static void cmd_messages(struct session *s, const struct cmd_args *a)
{
	struct db *db = server_db(session_server(s));
	long n;

	if (!session_registered(s)) {
		session_printf(s, "Unregistered players may not send or receive messages.\n");
		return;
	}
	if (a->argc == 2) {
		send_message(s, a->argv[0], a->argv[1]);
		return;
	}
	if (!a->argc) {
		struct walk all = { .s = s, .numbered = true };
		if (db_message_count(db, session_user_id(s)) <= 0) {
			session_printf(s, "You have no messages.\n");
			return;
		}
		session_printf(s, "Messages:\n");
		db_message_each(db, session_user_id(s), show_one, &all);
		return;
	}
	switch (number_parse(a->argv[0], 1, INT_MAX, &n)) {
	case NUMBER_OK: {
		struct walk one = { .s = s, .want = (int)n, .numbered = true };
		db_message_each(db, session_user_id(s), show_one, &one);
		if (!one.shown)
			session_printf(s, "You do not have a message %ld.\n", n);
		return;
	}
	case NUMBER_RANGE:
		session_printf(s, "You do not have a message %s.\n", a->argv[0]);
		return;
	case NUMBER_JUNK:
		messages_with(s, a->argv[0]);
		return;
	}
}

/* Collects ids to delete (a walk's matches). */
struct doomed {
	int64_t *ids;
	int count, cap;
	int number, want;
	int64_t sender_id;
};

static void doom(void *arg, const struct db_message *m)
{
	struct doomed *d = arg;

	d->number++;
	if ((d->want && d->number != d->want) || (d->sender_id && m->sender_id != d->sender_id))
		return;
	if (d->count == d->cap) {
		int cap = d->cap ? d->cap * 2 : 16;
		int64_t *grown = realloc(d->ids, (size_t)cap * sizeof *grown);
		if (!grown)
			return;
		d->ids = grown;
		d->cap = cap;
	}
	d->ids[d->count++] = m->id;
}

static void cmd_clearmessages(struct session *s, const struct cmd_args *a)
{
	struct db *db = server_db(session_server(s));
	struct doomed d = { 0 };
	struct db_user from;
	long n = 0;

	/* A guest holds none: FICS says so rather than refusing. */
	if (!session_registered(s) || db_message_count(db, session_user_id(s)) <= 0) {
		session_printf(s, "You have no messages.\n");
		return;
	}
	const char *which = a->argc ? a->argv[0] : "*";
	bool all = !strcmp(which, "*");
	if (!all) {
		switch (number_parse(which, 1, INT_MAX, &n)) {
		case NUMBER_OK:
			d.want = (int)n;
			break;
		case NUMBER_RANGE:
			session_printf(s, "You do not have a message %s.\n", which);
			return;
		case NUMBER_JUNK:
			if (!find_account(s, which, LOOKUP_CLEAR, &from))
				return;
			d.sender_id = from.id;
			break;
		}
	}
	db_message_each(db, session_user_id(s), doom, &d);
	bool ok = true;
	for (int i = 0; i < d.count && ok; i++)
		ok = db_message_delete(db, session_user_id(s), d.ids[i]) == 0;
	free(d.ids);
	if (!ok || (d.count && db_commit_now(db) < 0)) {
		session_printf(s, "The messages could not be cleared: server error.\n");
		return;
	}
	if (all)
		session_printf(s, "Messages cleared.\n");
	else if (d.want && !d.count)
		session_printf(s, "You do not have a message %ld.\n", n);
	else if (d.want)
		session_printf(s, "Message %ld cleared.\n", n);
	else if (!d.count)
		session_printf(s, "You have no messages from %s.\n", from.name);
	else
		session_printf(s, "Messages from %s cleared.\n", from.name);
}

void cmd_login_notices(struct session *s)
{
	if (!session_registered(s))
		return;
	int n = db_message_count(server_db(session_server(s)), session_user_id(s));
	if (n == 1)
		session_printf(s, "\nYou have 1 message.\nUse \"messages\" to display it, or "
		    "\"clearmessages\" to remove it.\n");
	else if (n > 1)
		session_printf(s, "\nYou have %d messages.\nUse \"messages\" to display them, or "
		    "\"clearmessages\" to remove them.\n", n);
}

const struct cmd_entry cmd_message_entry = {
	.name = "message",
	.args = "wS",
	.code = BLKCMD_MESSAGES,
	.exec = cmd_message,
	.usage = "message <name> <text>",
	.summary = "Leave a message for a registered player",
};
const struct cmd_entry cmd_messages_entry = {
	.name = "messages",
	.args = "oT",
	.code = BLKCMD_MESSAGES,
	.exec = cmd_messages,
	.usage = "messages [N | name [text]]",
	.summary = "Show your messages (or send one)",
};
const struct cmd_entry cmd_clearmessages_entry = {
	.name = "clearmessages",
	.args = "o",
	.code = BLKCMD_CLEARMESSAGES,
	.exec = cmd_clearmessages,
	.usage = "clearmessages [* | N | name]",
	.summary = "Delete your messages",
};
