/* The list commands: addlist (+LIST), sublist (-LIST), showlist (=LIST), znotify. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "blkcmd.h"
#include "cmd.h"
#include "db.h"
#include "limit.h"
#include "lists.h"
#include "moderation.h"
#include "server.h"
#include "session.h"

/* The list a command names, checked against the user's rights; -1 after the line why. */
static int pick_list(struct session *s, const char *word, bool change)
{
	int k = lists_find(word);

	if (k < 0) {
		session_printf(s, "\"%s\" does not match any list name.\n", word);
		return -1;
	}
	if (change && !lists_personal((enum list_kind)k) && !session_admin(s)) {
		session_printf(s, "\"%s\" is not an appropriate list name or you have insufficient "
		    "rights.\n", word);
		return -1;
	}
	return k;
}

struct member {
	int64_t id;
	char name[DB_NAME_MAX];
	struct session *online;		/* the member's session, if logged in */
};

/* A player by name: logged in (guests too, unless account_only), else an account. */
static bool find_member(struct session *s, const char *name, bool account_only, struct member *m)
{
	struct server *srv = session_server(s);
	struct session *o = server_find_session(srv, name);
	struct db_user user;

	memset(m, 0, sizeof *m);
	if (o && (session_registered(o) || !account_only)) {
		m->id = lists_identity(o);
		snprintf(m->name, sizeof m->name, "%s", session_name(o));
		m->online = o;
		return true;
	}
	if (db_user_find(server_db(srv), name, &user) == 1) {
		m->id = user.id;
		snprintf(m->name, sizeof m->name, "%s", user.name);
		if (o && lists_identity(o) == user.id)
			m->online = o;
		return true;
	}
	session_printf(s, "There is no player matching that name.\n");
	return false;
}

/* Whether an account is on a public list now: 1, 0, -1 error. */
static int public_has(struct server *srv, enum list_kind k, const struct member *m)
{
	struct db_user user;

	if (k != LIST_ADMIN && k != LIST_COMPUTER)
		return db_public_has(server_db(srv), lists_name(k), m->id);
	if (db_user_find(server_db(srv), m->name, &user) != 1 || user.id != m->id)
		return -1;
	return k == LIST_ADMIN ? user.admin : user.computer;
}

/*
 * Stores a public list change with its admin log entry, then applies it to
 * the member's session if online.
 */
static int public_set(struct session *admin, enum list_kind k, const struct member *m, bool on)
{
	struct db *db = server_db(session_server(admin));
	int rc;

	db_commit_earlier(db);

	if (k == LIST_ADMIN)
		rc = db_user_set_admin(db, m->name, on) == 1 ? 0 : -1;
	else if (k == LIST_COMPUTER)
		rc = db_user_set_computer(db, m->name, on) == 1 ? 0 : -1;
	else
		rc = db_list_set(db, 0, lists_name(k), m->id, on);
	if (rc == 0)
		moderation_log(admin, on ? "addlist" : "sublist", m->id, m->name, lists_name(k));
	if (rc < 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		return -1;
	}
	if (m->online && k == LIST_ADMIN)
		session_set_admin(m->online, on);
	else if (m->online && k == LIST_COMPUTER)
		session_set_computer(m->online, on);
	return 0;
}

static void change_public(struct session *s, enum list_kind k, const char *name, bool add)
{
	struct server *srv = session_server(s);
	struct member m;

	if (!find_member(s, name, true, &m))
		return;
	/*
	 * Muzzling or banning is acting against someone, as nuke is: only on
	 * lower admin levels.  The role lists (admin, td, computer) may not
	 * touch a higher level.
	 */
	struct db_user user;
	bool against = k == LIST_MUZZLE || k == LIST_CMUZZLE || k == LIST_BAN;
	if (db_user_find(server_db(srv), m.name, &user) == 1 && user.id == m.id &&
	    user.admin_level > 0 && (against ? !moderation_outranks(s, user.admin_level) :
	    user.admin_level > session_admin_level(s))) {
		session_printf(s, "You need a higher adminlevel to change %s's place on the %s list.\n",
		    m.name, lists_name(k));
		return;
	}
	int now = public_has(srv, k, &m);
	if (now < 0) {
		session_printf(s, "The %s list could not be read; nothing changed.\n", lists_name(k));
		return;
	}
	if (add && now) {
		session_printf(s, "[%s] is already on the %s list.\n", m.name, lists_name(k));
		return;
	}
	if (!add && !now) {
		session_printf(s, "[%s] is not in the %s list.\n", m.name, lists_name(k));
		return;
	}
	if (public_set(s, k, &m, add) < 0) {
		session_printf(s, "The %s list could not be saved; nothing changed.\n", lists_name(k));
		return;
	}
	const char *verb = add ? "added to" : "removed from";
	session_printf(s, "[%s] %s the %s list.\n", m.name, verb, lists_name(k));
	if (m.online && m.online != s)
		session_notify(m.online, "You have been %s the %s list by %s.", verb, lists_name(k),
		    session_name(s));
}

static void change_personal(struct session *s, enum list_kind k, const char *name, bool add)
{
	struct member m;
	int rc;

	/* Removing works by the name shown, also for a player since gone; the
	 * answer names the entry as the list has it, as lasker does. */
	if ((add || !(m.id = lists_find_named(s, k, name, m.name, sizeof m.name))) &&
	    !find_member(s, name, false, &m))
		return;
	if (add) {
		rc = lists_add(s, k, m.id, m.name);
		if (rc == 1)
			session_printf(s, "[%s] is already on your %s list.\n", m.name, lists_name(k));
		else if (rc == 2)
			session_printf(s, "Sorry, your %s list is full.\n", lists_name(k));
	} else {
		rc = lists_remove(s, k, m.id);
		if (rc == 1)
			session_printf(s, "[%s] is not in your %s list.\n", m.name, lists_name(k));
	}
	if (rc < 0)
		session_printf(s, "Your %s list could not be saved; nothing changed.\n", lists_name(k));
	if (rc)
		return;
	session_printf(s, "[%s] %s your %s list.\n", m.name, add ? "added to" : "removed from",
	    lists_name(k));
}

/* The channel list is session.c's: the +channel and -channel commands run it. */
static void change_channel(struct session *s, const char *number, bool add)
{
	struct cmd_args a = { .argc = 1, .argv = { number } };

	cmd_find(add ? "+channel" : "-channel")->exec(s, &a);
}

static void change(struct session *s, const struct cmd_args *a, bool add)
{
	int k = pick_list(s, a->argv[0], true);

	if (k < 0)
		return;
	if (k == LIST_CHANNEL)
		change_channel(s, a->argv[1], add);
	else if (lists_personal((enum list_kind)k))
		change_personal(s, (enum list_kind)k, a->argv[1], add);
	else
		change_public(s, (enum list_kind)k, a->argv[1], add);
}

static void cmd_addlist(struct session *s, const struct cmd_args *a)
{
	change(s, a, true);
}

static void cmd_sublist(struct session *s, const struct cmd_args *a)
{
	change(s, a, false);
}

static void print_kind(void *arg, enum list_kind k)
{
	session_printf(arg, "%-20s is %s\n", lists_name(k), lists_personal(k) ? "PERSONAL" : "PUBLIC");
}

/* The names of a list, in rows as FICS prints them. */
struct names {
	struct session *s;
	int count;
	char buf[4096];
	size_t len;
};

static void collect_name(void *arg, int64_t id, const char *name)
{
	struct names *n = arg;
	int w = snprintf(n->buf + n->len, sizeof n->buf - n->len, "%s%s",
	    !n->count ? "" : n->count % 8 ? " " : "\n", name);

	(void)id;
	if (w > 0 && (size_t)w < sizeof n->buf - n->len)
		n->len += (size_t)w;
	n->count++;
}

static void show_channels(struct session *s)
{
	int n = session_channel_count(s);

	session_printf(s, "-- channel list: %d channel%s --\n", n, n == 1 ? "" : "s");
	for (int c = 0; c <= LIMIT_CHANNEL_MAX; c++)
		if (session_in_channel(s, c))
			session_printf(s, "%d ", c);
	if (n)
		session_printf(s, "\n");
}

static void show_list(struct session *s, enum list_kind k)
{
	struct names n = { .s = s };

	if (k == LIST_CHANNEL) {
		show_channels(s);
		return;
	}
	if (lists_personal(k))
		lists_each(s, k, collect_name, &n);
	else if (db_list_each(server_db(session_server(s)), 0, lists_name(k), collect_name, &n) < 0) {
		session_printf(s, "The %s list could not be read.\n", lists_name(k));
		return;
	}
	session_printf(s, "-- %s list: %d name%s --\n", lists_name(k), n.count,
	    n.count == 1 ? "" : "s");
	if (n.count)
		session_printf(s, "%.*s\n", (int)n.len, n.buf);
}

static void cmd_showlist(struct session *s, const struct cmd_args *a)
{
	if (!a->argc) {
		session_printf(s, "Lists:\n\n");
		lists_each_kind(print_kind, s);
		return;
	}
	int k = pick_list(s, a->argv[0], false);
	if (k >= 0)
		show_list(s, (enum list_kind)k);
}

struct znotify {
	struct session *s;
	int count;
};

static void show_present(void *arg, int64_t id, const char *name)
{
	struct znotify *z = arg;
	struct session *o = server_find_session(session_server(z->s), name);

	if (!o || o == z->s || lists_identity(o) != id)
		return;
	if (!z->count++)
		session_printf(z->s, "Present company on your notify list:\n  ");
	session_printf(z->s, " %s", session_name(o));
}

static void show_listener(struct session *owner, void *arg)
{
	struct znotify *z = arg;

	if (owner == z->s)
		return;
	if (!z->count++)
		session_printf(z->s, "The following players have you on their notify list:\n  ");
	session_printf(z->s, " %s", session_name(owner));
}

static void cmd_znotify(struct session *s, const struct cmd_args *a)
{
	struct znotify z = { s, 0 };

	(void)a;
	lists_each(s, LIST_NOTIFY, show_present, &z);
	if (!z.count)
		session_printf(s, "No one from your notify list is logged on.");
	session_printf(s, "\n");
	z.count = 0;
	lists_each_owner(session_server(s), LIST_NOTIFY, lists_identity(s), show_listener, &z);
	if (!z.count)
		session_printf(s, "No one logged in has you on their notify list.");
	session_printf(s, "\n");
}

const struct cmd_entry cmd_addlist_entry = {
	.name = "addlist",
	.args = "ww",
	.code = BLKCMD_ADDLIST,
	.exec = cmd_addlist,
	.usage = "addlist <list> <name>   (or +<list> <name>)",
	.summary = "Add a name to a list",
};
const struct cmd_entry cmd_sublist_entry = {
	.name = "sublist",
	.args = "ww",
	.code = BLKCMD_SUBLIST,
	.exec = cmd_sublist,
	.usage = "sublist <list> <name>   (or -<list> <name>)",
	.summary = "Remove a name from a list",
};
const struct cmd_entry cmd_showlist_entry = {
	.name = "showlist",
	.args = "o",
	.code = BLKCMD_SHOWLIST,
	.exec = cmd_showlist,
	.usage = "showlist [list]   (or =<list>)",
	.summary = "The lists there are, or one list",
};
const struct cmd_entry cmd_znotify_entry = {
	.name = "znotify",
	.args = "",
	.code = BLKCMD_ZNOTIFY,
	.exec = cmd_znotify,
	.usage = "znotify",
	.summary = "Who of your notify list is here, and who has you on theirs",
};
