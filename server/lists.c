/* Personal and public lists, and the reverse index that finds a player's listeners. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "conn.h"
#include "db.h"
#include "lists.h"
#include "log.h"
#include "server.h"
#include "session.h"

static const struct {
	const char *name;
	bool personal;
} kinds[LIST_KIND_COUNT] = {
	[LIST_NOTIFY] = { "notify", true }, [LIST_GNOTIFY] = { "gnotify", true },
	[LIST_CENSOR] = { "censor", true }, [LIST_NOPLAY] = { "noplay", true },
	[LIST_CHANNEL] = { "channel", true }, [LIST_ADMIN] = { "admin", false },
	[LIST_BAN] = { "ban", false }, [LIST_MUZZLE] = { "muzzle", false },
	[LIST_CMUZZLE] = { "cmuzzle", false }, [LIST_COMPUTER] = { "computer", false },
	[LIST_TD] = { "td", false },
};

/* showlist's order: lasker's, public lists first. */
static const enum list_kind shown_order[] = {
	LIST_ADMIN, LIST_BAN, LIST_MUZZLE, LIST_CMUZZLE, LIST_COMPUTER, LIST_TD,
	LIST_CENSOR, LIST_GNOTIFY, LIST_NOPLAY, LIST_NOTIFY, LIST_CHANNEL,
};

struct list_entry {
	int64_t id;
	char name[SESSION_NAME_MAX + 1];
};

/* One session's personal lists. */
struct list_set {
	struct list_entry *entries[LIST_PERSONAL_COUNT];
	int count[LIST_PERSONAL_COUNT];
	int cap[LIST_PERSONAL_COUNT];
};

/* Who lists (kind, id): the online owners. */
struct listeners {
	int64_t id;
	enum list_kind kind;
	struct session **owners;
	int count, cap;
	struct listeners *next;
};

struct lists {
	struct listeners **buckets;
	size_t bucket_count;	/* a power of two */
	size_t node_count;
};

struct lists *lists_new(void)
{
	struct lists *l = calloc(1, sizeof *l);

	if (!l)
		return NULL;
	l->bucket_count = 256;
	if (!(l->buckets = calloc(l->bucket_count, sizeof *l->buckets))) {
		free(l);
		return NULL;
	}
	return l;
}

void lists_free(struct lists *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->bucket_count; i++) {
		struct listeners *n = l->buckets[i], *next;
		for (; n; n = next) {
			next = n->next;
			free(n->owners);
			free(n);
		}
	}
	free(l->buckets);
	free(l);
}

int lists_find(const char *prefix)
{
	size_t len = strlen(prefix);
	int found = -1;

	if (!len)
		return -1;
	for (int k = 0; k < LIST_KIND_COUNT; k++) {
		if (!strcasecmp(kinds[k].name, prefix))
			return k;
		if (!strncasecmp(kinds[k].name, prefix, len))
			found = found == -1 ? k : -2;
	}
	return found;
}

const char *lists_name(enum list_kind kind) { return kinds[kind].name; }
bool lists_personal(enum list_kind kind) { return kinds[kind].personal; }

void lists_each_kind(void (*fn)(void *arg, enum list_kind kind), void *arg)
{
	for (size_t i = 0; i < sizeof shown_order / sizeof shown_order[0]; i++)
		fn(arg, shown_order[i]);
}

int64_t lists_identity(const struct session *s)
{
	if (session_registered(s))
		return session_user_id(s);
	return -(int64_t)conn_id(session_conn(s));
}

/* --- the reverse index --- */

static size_t bucket_of(const struct lists *l, int64_t id, enum list_kind kind)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15ull ^ (uint64_t)kind * 0xff51afd7ed558ccdull;

	return (size_t)(h >> 17) & (l->bucket_count - 1);
}

static struct listeners **index_slot(struct lists *l, int64_t id, enum list_kind kind)
{
	struct listeners **p = &l->buckets[bucket_of(l, id, kind)];

	while (*p && ((*p)->id != id || (*p)->kind != kind))
		p = &(*p)->next;
	return p;
}

static void index_grow(struct lists *l)
{
	size_t count = l->bucket_count * 2;
	struct listeners **buckets = calloc(count, sizeof *buckets);

	if (!buckets)
		return;		/* longer chains, still correct */
	struct listeners **old = l->buckets;
	size_t old_count = l->bucket_count;
	l->buckets = buckets;
	l->bucket_count = count;
	for (size_t i = 0; i < old_count; i++) {
		struct listeners *n = old[i], *next;
		for (; n; n = next) {
			next = n->next;
			size_t b = bucket_of(l, n->id, n->kind);
			n->next = buckets[b];
			buckets[b] = n;
		}
	}
	free(old);
}

static int index_add(struct lists *l, int64_t id, enum list_kind kind, struct session *owner)
{
	struct listeners **p = index_slot(l, id, kind), *n = *p;

	if (!n) {
		if (!(n = calloc(1, sizeof *n)))
			return -1;
		n->id = id;
		n->kind = kind;
		*p = n;
		if (++l->node_count > l->bucket_count)
			index_grow(l);
	}
	if (n->count == n->cap) {
		int cap = n->cap ? n->cap * 2 : 4;
		struct session **owners = realloc(n->owners, (size_t)cap * sizeof *owners);
		if (!owners)
			return -1;
		n->owners = owners;
		n->cap = cap;
	}
	n->owners[n->count++] = owner;
	return 0;
}

static void index_remove(struct lists *l, int64_t id, enum list_kind kind,
    const struct session *owner)
{
	struct listeners **p = index_slot(l, id, kind), *n = *p;

	if (!n)
		return;
	for (int i = 0; i < n->count; i++) {
		if (n->owners[i] == owner) {
			n->owners[i] = n->owners[--n->count];
			break;
		}
	}
	if (!n->count) {
		*p = n->next;
		free(n->owners);
		free(n);
		l->node_count--;
	}
}

void lists_each_owner(struct server *srv, enum list_kind kind, int64_t id,
    void (*fn)(struct session *owner, void *arg), void *arg)
{
	struct listeners *n = *index_slot(server_lists(srv), id, kind);

	/* fn may not change this list's index entry. */
	for (int i = 0; n && i < n->count; i++)
		fn(n->owners[i], arg);
}

/* --- a session's lists --- */

static struct list_set *set_of(const struct session *s)
{
	return session_list_set(s);
}

static int find_entry(const struct list_set *set, enum list_kind kind, int64_t id)
{
	for (int i = 0; set && i < set->count[kind]; i++)
		if (set->entries[kind][i].id == id)
			return i;
	return -1;
}

bool lists_has(const struct session *owner, enum list_kind kind, int64_t id)
{
	return kind < LIST_PERSONAL_COUNT && find_entry(set_of(owner), kind, id) >= 0;
}

int lists_count(const struct session *owner, enum list_kind kind)
{
	const struct list_set *set = set_of(owner);

	return set && kind < LIST_PERSONAL_COUNT ? set->count[kind] : 0;
}

int64_t lists_find_named(const struct session *owner, enum list_kind kind, const char *name,
    char *stored, size_t len)
{
	const struct list_set *set = set_of(owner);

	for (int i = 0; set && i < set->count[kind]; i++)
		if (!strcasecmp(set->entries[kind][i].name, name)) {
			snprintf(stored, len, "%s", set->entries[kind][i].name);
			return set->entries[kind][i].id;
		}
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcasecmp(((const struct list_entry *)a)->name, ((const struct list_entry *)b)->name);
}

void lists_each(const struct session *owner, enum list_kind kind,
    void (*fn)(void *arg, int64_t id, const char *name), void *arg)
{
	struct list_set *set = set_of(owner);

	if (!set || kind >= LIST_PERSONAL_COUNT)
		return;
	/* Kept in name order lazily: only showing a list needs it. */
	if (set->count[kind] > 1)
		qsort(set->entries[kind], (size_t)set->count[kind], sizeof *set->entries[kind],
		    entry_cmp);
	for (int i = 0; i < set->count[kind]; i++)
		fn(arg, set->entries[kind][i].id, set->entries[kind][i].name);
}

/* Puts an entry into the session's set and the index (no database). */
static int set_insert(struct session *owner, enum list_kind kind, int64_t id, const char *name)
{
	struct list_set *set = set_of(owner);

	if (set->count[kind] == set->cap[kind]) {
		int cap = set->cap[kind] ? set->cap[kind] * 2 : 8;
		struct list_entry *e = realloc(set->entries[kind], (size_t)cap * sizeof *e);
		if (!e)
			return -1;
		set->entries[kind] = e;
		set->cap[kind] = cap;
	}
	if (index_add(server_lists(session_server(owner)), id, kind, owner) < 0)
		return -1;
	struct list_entry *e = &set->entries[kind][set->count[kind]++];
	e->id = id;
	snprintf(e->name, sizeof e->name, "%s", name);
	return 0;
}

static void set_delete(struct session *owner, enum list_kind kind, int at)
{
	struct list_set *set = set_of(owner);

	index_remove(server_lists(session_server(owner)), set->entries[kind][at].id, kind, owner);
	set->entries[kind][at] = set->entries[kind][--set->count[kind]];
}

int lists_add(struct session *owner, enum list_kind kind, int64_t id, const char *name)
{
	struct list_set *set = set_of(owner);
	struct server *srv = session_server(owner);

	if (!set || kind >= LIST_PERSONAL_COUNT)
		return -1;
	if (find_entry(set, kind, id) >= 0)
		return 1;
	if (set->count[kind] >= server_config(srv)->limits.list_entries)
		return 2;
	/* A guest's identity ends with its session: such entries are not stored. */
	if (session_registered(owner) && id > 0) {
		struct db *db = server_db(srv);
		if (db_list_set(db, session_user_id(owner), kinds[kind].name, id, true) < 0 ||
		    db_commit_now(db) < 0)
			return -1;
	}
	return set_insert(owner, kind, id, name);
}

int lists_remove(struct session *owner, enum list_kind kind, int64_t id)
{
	struct list_set *set = set_of(owner);
	int at = kind < LIST_PERSONAL_COUNT ? find_entry(set, kind, id) : -1;

	if (at < 0)
		return 1;
	if (session_registered(owner) && id > 0) {
		struct db *db = server_db(session_server(owner));
		if (db_list_set(db, session_user_id(owner), kinds[kind].name, id, false) < 0 ||
		    db_commit_now(db) < 0)
			return -1;
	}
	set_delete(owner, kind, at);
	return 0;
}

struct loading {
	struct session *s;
	enum list_kind kind;
};

static void load_entry(void *arg, int64_t id, const char *name)
{
	struct loading *ld = arg;

	if (set_insert(ld->s, ld->kind, id, name) < 0)
		log_error("lists: out of memory loading %s's %s list", session_name(ld->s),
		    kinds[ld->kind].name);
}

/* --- arrivals and departures --- */

struct presence {
	struct session *who;
	const char *what;	/* "arrived", "departed" */
	int noted;
};

static void tell_listener(struct session *owner, void *arg)
{
	struct presence *p = arg;

	if (owner == p->who)
		return;
	session_notify(owner, "Notification: %s has %s.", session_name(p->who), p->what);
	if (!p->noted++)
		session_printf(p->who, "Your %s was noted by:", !strcmp(p->what, "arrived") ?
		    "arrival" : "departure");
	if (!strcmp(p->what, "arrived"))
		session_printf(p->who, " %s", session_name(owner));
}

/* The online session that is this entry (same name and same identity), or NULL. */
static struct session *entry_online(struct server *srv, const struct list_entry *e)
{
	struct session *s = server_find_session(srv, e->name);

	return s && lists_identity(s) == e->id ? s : NULL;
}

void lists_login(struct session *s)
{
	struct server *srv = session_server(s);
	struct list_set *set = calloc(1, sizeof *set);

	if (!set) {
		log_error("lists: out of memory for %s", session_name(s));
		return;
	}
	session_set_list_set(s, set);
	if (session_registered(s))
		for (int k = 0; k < LIST_PERSONAL_COUNT; k++) {
			struct loading ld = { s, (enum list_kind)k };
			db_list_each(server_db(srv), session_user_id(s), kinds[k].name, load_entry, &ld);
		}
	/* FICS tells only about registered players' comings and goings. */
	if (!session_registered(s))
		return;
	struct presence p = { s, "arrived", 0 };
	lists_each_owner(srv, LIST_NOTIFY, lists_identity(s), tell_listener, &p);
	if (p.noted)
		session_printf(s, ".\n");
	int present = 0;
	for (int i = 0; i < set->count[LIST_NOTIFY]; i++) {
		struct session *o = entry_online(srv, &set->entries[LIST_NOTIFY][i]);
		if (!o || o == s)
			continue;
		session_printf(s, "%s %s", present++ ? "" : "Present company includes:",
		    session_name(o));
	}
	if (present)
		session_printf(s, ".\n");
}

void lists_logout(struct session *s)
{
	struct list_set *set = set_of(s);

	if (!set)
		return;
	if (session_registered(s)) {
		struct presence p = { s, "departed", 1 };
		lists_each_owner(session_server(s), LIST_NOTIFY, lists_identity(s), tell_listener, &p);
	}
	for (int k = 0; k < LIST_PERSONAL_COUNT; k++) {
		while (set->count[k])
			set_delete(s, (enum list_kind)k, set->count[k] - 1);
		free(set->entries[k]);
	}
	free(set);
	session_set_list_set(s, NULL);
	/* A guest on a list is this session only: no one's list shows it after it, as
	 * if a later guest under the name were on it. */
	if (!session_registered(s))
		lists_forget(session_server(s), lists_identity(s));
}

/* --- effects --- */

bool lists_censors(const struct session *to, const struct session *from)
{
	return to != from && lists_has(to, LIST_CENSOR, lists_identity(from));
}

bool lists_may_play(struct session *s, const struct session *other)
{
	if (lists_has(other, LIST_NOPLAY, lists_identity(s))) {
		session_printf(s, "You are on %s's noplay list.\n", session_name(other));
		return false;
	}
	if (lists_censors(other, s)) {
		session_printf(s, "Player \"%s\" is censoring you.\n", session_name(other));
		return false;
	}
	if (lists_censors(s, other)) {
		session_printf(s, "You are censoring \"%s\".\n", session_name(other));
		return false;
	}
	if (lists_has(s, LIST_NOPLAY, lists_identity(other))) {
		session_printf(s, "You have %s on your noplay list.\n", session_name(other));
		return false;
	}
	return true;
}

bool lists_account_has(struct server *srv, int64_t owner_id, enum list_kind kind,
    int64_t member_id)
{
	if (owner_id <= 0 || member_id <= 0 || kind >= LIST_PERSONAL_COUNT)
		return false;
	return db_list_has(server_db(srv), owner_id, kinds[kind].name, member_id) == 1;
}

bool lists_on_public(const struct session *s, enum list_kind kind)
{
	if (!session_registered(s) || kind == LIST_ADMIN || kind == LIST_COMPUTER ||
	    lists_personal(kind))
		return false;
	return db_public_has(server_db(session_server(s)), kinds[kind].name,
	    session_user_id(s)) == 1;
}

bool lists_banned(struct server *srv, int64_t user_id)
{
	return user_id > 0 && db_public_has(server_db(srv), kinds[LIST_BAN].name, user_id) == 1;
}

struct game_news {
	struct session *players[2];
	const char *text;
	bool second;		/* telling black's listeners: skip those white's told */
};

static void tell_game(struct session *owner, void *arg)
{
	struct game_news *n = arg;

	if (owner == n->players[0] || owner == n->players[1])
		return;
	if (n->second && lists_has(owner, LIST_GNOTIFY, lists_identity(n->players[0])))
		return;
	session_notify(owner, "Game notification: %s", n->text);
}

void lists_game_started(struct session *white, struct session *black, const char *text)
{
	struct server *srv = session_server(white);
	struct game_news n = { { white, black }, text, false };

	lists_each_owner(srv, LIST_GNOTIFY, lists_identity(white), tell_game, &n);
	n.second = true;
	lists_each_owner(srv, LIST_GNOTIFY, lists_identity(black), tell_game, &n);
}

void lists_forget(struct server *srv, int64_t user_id)
{
	struct lists *l = server_lists(srv);

	for (int k = 0; k < LIST_PERSONAL_COUNT; k++) {
		struct listeners *n;
		/* Each removal may free the index entry: look it up again. */
		while ((n = *index_slot(l, user_id, (enum list_kind)k))) {
			struct session *owner = n->owners[0];
			int at = find_entry(set_of(owner), (enum list_kind)k, user_id);
			if (at >= 0)
				set_delete(owner, (enum list_kind)k, at);
			else
				index_remove(l, user_id, (enum list_kind)k, owner);
		}
	}
}
