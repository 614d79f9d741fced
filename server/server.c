#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <search.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/rand.h>

#include "address.h"
#include "account.h"
#include "audience.h"
#include "backlog.h"
#include "config.h"
#include "conn.h"
#include "db.h"
#include "game.h"
#include "offer.h"
#include "hasher.h"
#include "limit.h"
#include "lists.h"
#include "log.h"
#include "moderation.h"
#include "server.h"
#include "session.h"
#include "signup.h"
#include "syncer.h"
#include "tls.h"
#include "tournament.h"
#include "verdict.h"
#include "web.h"

/* One party usually holds an IPv4 /24 or an IPv6 /64: failed logins count
 * per block; connections per IPv4 address (NAT puts many people behind one
 * address, and a /24 holds many such) and per IPv6 /64. */
#define SERVER_FAILURE_V4_BITS 24
#define SERVER_CONN_V4_BITS 32
#define SERVER_V6_BITS 64
/* A login waiting for another check of its name asks again this often. */
#define SERVER_LOGIN_RECHECK_MS 100

/* Per-address and per-name records: connections and failed logins. */
struct tally {
	char key[ADDRESS_BLOCK_MAX];
	int conns;
	int failures;			/* including the checks still running */
	int checking;			/* password checks running for this name */
	int64_t last_failure_ms;
	char trusted[ADDRESS_BLOCK_MAX];	/* a name's block of its last good login */
};

/* A growable array of connections (all, dirty this pass, closed this pass). */
struct conn_list {
	struct conn **items;
	size_t count, cap;
};

struct server {
	struct config *cfg;
	struct event_base *base;
	struct evconnlistener *plain, *secure;
	struct event *sig_term, *sig_int, *sig_hup, *accept_resume, *shutdown_timer;
	struct tls *tls;
	struct db *db;
	struct hasher *hasher;
	struct verdicts *verdicts;	/* 6.9 decisions off the loop */
	struct signups *signups;		/* registrations per address */
	struct account_watch *account_watch;	/* accounts deleted beside us */
	struct games *games;
	struct offers *offers;
	struct lists *lists;
	struct tournaments *tournaments;
	struct web *web;
	struct moderation *moderation;	/* shutdown countdown, address bans */
	int lock_fd;
	struct conn_list conns, dirty, closed, holding;
	struct backlog *backlog;	/* output queued on every connection */
	struct syncer *syncer;		/* NULL: commits flush in the loop */
	uint64_t commit_seq;		/* commits made */
	uint64_t durable_seq;		/* commits known to be on disk */
	void *addresses;	/* tsearch tree of struct tally by address */
	void *names;		/* tsearch tree of struct tally by lower-case name */
	void *trusted;		/* the same, holding each name's last good login block */
	int tally_count;
	int trusted_count;	/* entries in trusted */
	void *sessions;		/* tsearch tree of logged-in sessions by name */
	int session_count;
	void *accounts;		/* tsearch tree of the same, registered ones, by account id */
	struct session **by_name;	/* the sessions in name order, rebuilt when stale */
	size_t by_name_count, by_name_cap;
	bool by_name_stale;
	int by_name_walks;	/* server_each_session walks using by_name */
	struct audience *audience;
	int64_t started_ms;
	uint32_t guest_counter;
	bool stopping, done;
};

int64_t server_now_ms(struct server *srv)
{
	struct timespec ts;

	(void)srv;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint32_t server_next_guest(struct server *srv)
{
	return srv->guest_counter++;
}

int64_t server_uptime_s(struct server *srv)
{
	return (server_now_ms(srv) - srv->started_ms) / 1000;
}

struct event_base *server_base(struct server *srv) { return srv->base; }
struct db *server_db(struct server *srv) { return srv->db; }
struct games *server_games(struct server *srv) { return srv->games; }
struct tournaments *server_tournaments(struct server *srv) { return srv->tournaments; }
struct offers *server_offers(struct server *srv) { return srv->offers; }
struct web *server_web(struct server *srv) { return srv->web; }
struct lists *server_lists(struct server *srv) { return srv->lists; }
struct hasher *server_hasher(struct server *srv) { return srv->hasher; }
struct verdicts *server_verdicts(struct server *srv) { return srv->verdicts; }
struct signups *server_signups(struct server *srv) { return srv->signups; }
struct backlog *server_backlog(struct server *srv) { return srv->backlog; }
struct audience *server_audience(struct server *srv) { return srv->audience; }
struct moderation *server_moderation(struct server *srv) { return srv->moderation; }
const struct config *server_config(const struct server *srv) { return srv->cfg; }
int server_session_count(struct server *srv) { return srv->session_count; }
bool server_stopping(const struct server *srv) { return srv->stopping; }
int server_conn_count(struct server *srv) { return (int)srv->conns.count; }

/* Makes room for one more item. */
static int list_reserve(struct conn_list *l)
{
	if (l->count == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct conn **items = realloc(l->items, cap * sizeof *items);
		if (!items)
			return -1;
		l->items = items;
		l->cap = cap;
	}
	return 0;
}

static int list_push(struct conn_list *l, struct conn *c)
{
	if (list_reserve(l) < 0)
		return -1;
	l->items[l->count++] = c;
	return 0;
}

static void list_remove(struct conn_list *l, struct conn *c)
{
	for (size_t i = 0; i < l->count; i++) {
		if (l->items[i] == c) {
			l->items[i] = l->items[--l->count];
			return;
		}
	}
}

/* --- tallies --- */

static int tally_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tally *)a)->key, ((const struct tally *)b)->key);
}

static struct tally *tally_get(struct server *srv, void **tree, const char *key, bool create)
{
	struct tally probe;

	snprintf(probe.key, sizeof probe.key, "%s", key);
	for (char *p = probe.key; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
	void *found = tfind(&probe, tree, tally_cmp);
	if (found || !create)
		return found ? *(struct tally **)found : NULL;
	struct tally *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	memcpy(t->key, probe.key, sizeof t->key);
	if (!tsearch(t, tree, tally_cmp)) {
		free(t);
		return NULL;
	}
	srv->tally_count++;
	return t;
}

static void tally_drop(struct server *srv, void **tree, struct tally *t)
{
	tdelete(t, tree, tally_cmp);
	free(t);
	srv->tally_count--;
}

/* Forgets old failures; drops the record when nothing is left in it. */
static void tally_settle(struct server *srv, void **tree, struct tally *t)
{
	if (t->failures && server_now_ms(srv) - t->last_failure_ms > LIMIT_LOGIN_FAILURE_WINDOW_MS)
		t->failures = 0;
	if (!t->conns && !t->failures && !t->checking)
		tally_drop(srv, tree, t);
}

/* The record of failed logins from addr's block. */
static struct tally *failures_of(struct server *srv, const char *addr, bool create)
{
	char key[ADDRESS_BLOCK_MAX];

	address_block(addr, SERVER_FAILURE_V4_BITS, SERVER_V6_BITS, key, sizeof key);
	return tally_get(srv, &srv->addresses, key, create);
}

/* The record of connections from addr (or from its IPv6 /64). */
static struct tally *conns_of(struct server *srv, const char *addr, bool create)
{
	char key[ADDRESS_BLOCK_MAX];

	address_block(addr, SERVER_CONN_V4_BITS, SERVER_V6_BITS, key, sizeof key);
	return tally_get(srv, &srv->addresses, key, create);
}

static int delay_for(const struct server *srv, const struct tally *t, int64_t now)
{
	const struct limits *lim = &srv->cfg->limits;

	if (!t || t->failures < lim->login_free_failures || now - t->last_failure_ms >
	    LIMIT_LOGIN_FAILURE_WINDOW_MS)
		return 0;
	int64_t delay = lim->login_delay_base_ms;
	for (int i = lim->login_free_failures; i < t->failures && delay < lim->login_delay_max_ms; i++)
		delay *= 2;
	if (delay > lim->login_delay_max_ms)
		delay = lim->login_delay_max_ms;
	int64_t owed = t->last_failure_ms + delay - now;
	return owed > 0 ? (int)owed : 0;
}

/* One failure more on a record: the delay it owes restarts from now. */
static void charge(struct tally *t, int64_t now)
{
	if (t) {
		t->failures++;
		t->last_failure_ms = now;
	}
}

/* Whether addr is in the block that name last logged in from. */
static bool from_trusted_block(struct server *srv, const char *name, const char *addr)
{
	struct tally *t = tally_get(srv, &srv->trusted, name, false);
	char block[ADDRESS_BLOCK_MAX];

	if (!t)
		return false;
	address_block(addr, SERVER_FAILURE_V4_BITS, SERVER_V6_BITS, block, sizeof block);
	return !strcmp(t->trusted, block);
}

/*
 * A password check counts as a failed login from the moment it starts: N
 * connections parked on one name all wake when its delay ends, but only the
 * first starts a check; that check's charge puts the rest back to waiting.
 *
 * A name's own owner would then wait behind every guesser, so a check from
 * the block the name last logged in from answers only to that block's
 * tally: guesses from elsewhere cannot lock the owner out.
 */
int server_login_begin(struct server *srv, const char *name, const char *addr, bool *trusted)
{
	int64_t now = server_now_ms(srv);
	struct tally *a = failures_of(srv, addr, false);
	struct tally *n = tally_get(srv, &srv->names, name, false);
	int owed = delay_for(srv, a, now), owed_name = delay_for(srv, n, now);

	*trusted = from_trusted_block(srv, name, addr);
	if (*trusted) {
		if (owed > 0)
			return owed;
		charge(failures_of(srv, addr, true), now);
		return 0;
	}
	if (owed_name > owed)
		owed = owed_name;
	if (n && n->checking && owed < SERVER_LOGIN_RECHECK_MS)
		owed = SERVER_LOGIN_RECHECK_MS;
	if (owed > 0)
		return owed;
	/* Past the cap, stop tracking new names rather than grow without bound. */
	bool room = srv->tally_count < LIMIT_LOGIN_FAILURE_ENTRIES;
	if (!n)
		n = tally_get(srv, &srv->names, name, room);
	charge(failures_of(srv, addr, true), now);
	charge(n, now);
	if (n)
		n->checking++;
	return 0;
}

void server_login_end(struct server *srv, const char *name, const char *addr, bool trusted,
    bool passed)
{
	int64_t now = server_now_ms(srv);
	struct tally *a = failures_of(srv, addr, false);
	/* A check from the trusted block was charged to its block alone. */
	struct tally *n = trusted ? NULL : tally_get(srv, &srv->names, name, false);

	if (n && n->checking)
		n->checking--;
	if (passed) {
		/* The address paid for a check that was not a failure; the name's
		 * failures are forgotten once the user is in. */
		if (a && a->failures)
			a->failures--;
	} else {
		if (a)
			a->last_failure_ms = now;
		if (n)
			n->last_failure_ms = now;
	}
	if (a)
		tally_settle(srv, &srv->addresses, a);
	if (n)
		tally_settle(srv, &srv->names, n);
}

void server_login_succeeded(struct server *srv, const char *name, const char *addr)
{
	bool trusted = from_trusted_block(srv, name, addr);
	struct tally *n = tally_get(srv, &srv->names, name, false);
	struct tally *t = tally_get(srv, &srv->trusted, name, false);

	/* Trust has a count of its own, so it never crowds out the failure tallies. */
	if (!t && srv->trusted_count < LIMIT_LOGIN_TRUSTED_NAMES &&
	    (t = tally_get(srv, &srv->trusted, name, true))) {
		srv->tally_count--;
		srv->trusted_count++;
	}
	if (t)
		address_block(addr, SERVER_FAILURE_V4_BITS, SERVER_V6_BITS, t->trusted,
		    sizeof t->trusted);
	/*
	 * A login from the trusted block leaves the name's failures standing:
	 * they are other people's guesses, and the owner no longer waits on
	 * them.  Elsewhere the owner has just waited them out; they are reset.
	 */
	if (n && !trusted) {
		n->failures = 0;
		tally_settle(srv, &srv->names, n);
	}
}

/* --- sessions by name --- */

/* Tree nodes start with the name, so a bare `const char *` can be the key. */
struct session_node {
	const char *name;
	struct session *session;
};

static int name_cmp(const void *a, const void *b)
{
	return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

struct session *server_find_session(struct server *srv, const char *name)
{
	void *found = tfind(&name, &srv->sessions, name_cmp);

	return found ? (*(struct session_node **)found)->session : NULL;
}

/* An entry of the accounts tree; user_id first, so a bare id is a key. */
struct account_node {
	int64_t user_id;
	struct session *session;
};

static int account_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

struct session *server_find_account(struct server *srv, int64_t user_id)
{
	void *found = user_id > 0 ? tfind(&user_id, &srv->accounts, account_cmp) : NULL;

	return found ? (*(struct account_node **)found)->session : NULL;
}

/* Files a registered session under its account id; -1 if out of memory or taken. */
static int account_add(struct server *srv, struct session *s)
{
	struct account_node *a = malloc(sizeof *a);

	if (!a)
		return -1;
	a->user_id = session_user_id(s);
	a->session = s;
	void *slot = tsearch(a, &srv->accounts, account_cmp);
	if (!slot || *(struct account_node **)slot != a) {
		free(a);
		return -1;
	}
	return 0;
}

static void account_drop(struct server *srv, struct session *s)
{
	int64_t id = session_user_id(s);
	void *found = tfind(&id, &srv->accounts, account_cmp);

	if (!found || (*(struct account_node **)found)->session != s)
		return;
	struct account_node *a = *(struct account_node **)found;
	tdelete(&id, &srv->accounts, account_cmp);
	free(a);
}

/* Where name goes in the name-ordered list: the first entry not before it. */
static size_t by_name_place(const struct server *srv, const char *name)
{
	size_t lo = 0, hi = srv->by_name_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcasecmp(session_name(srv->by_name[mid]), name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Keeps the name-ordered list in step with a login: a few names compared
 * and the pointers after it moved, rather than the whole tree walked again
 * at the next listing.  While a walk runs (or memory runs out) the list is
 * left as it is and rebuilt before the next walk.
 */
static void by_name_insert(struct server *srv, struct session *s)
{
	if (srv->by_name_stale || srv->by_name_walks || srv->by_name_count == srv->by_name_cap) {
		srv->by_name_stale = true;
		return;
	}
	size_t at = by_name_place(srv, session_name(s));
	memmove(srv->by_name + at + 1, srv->by_name + at,
	    (srv->by_name_count - at) * sizeof *srv->by_name);
	srv->by_name[at] = s;
	srv->by_name_count++;
}

static void by_name_remove(struct server *srv, struct session *s)
{
	if (srv->by_name_stale || srv->by_name_walks) {
		srv->by_name_stale = true;
		return;
	}
	size_t at = by_name_place(srv, session_name(s));
	if (at == srv->by_name_count || srv->by_name[at] != s) {
		srv->by_name_stale = true;
		return;
	}
	memmove(srv->by_name + at, srv->by_name + at + 1,
	    (srv->by_name_count - at - 1) * sizeof *srv->by_name);
	srv->by_name_count--;
}

int server_register_session(struct server *srv, struct session *s)
{
	struct session_node *node = malloc(sizeof *node);

	if (!node)
		return -1;
	node->name = session_name(s);
	node->session = s;
	void *slot = tsearch(node, &srv->sessions, name_cmp);
	if (!slot || *(struct session_node **)slot != node) {
		free(node);
		return -1;
	}
	if (session_user_id(s) > 0 && account_add(srv, s) < 0) {
		tdelete(node, &srv->sessions, name_cmp);
		free(node);
		return -1;
	}
	srv->session_count++;
	by_name_insert(srv, s);
	return 0;
}

void server_unregister_session(struct server *srv, struct session *s)
{
	const char *name = session_name(s);
	void *found = tfind(&name, &srv->sessions, name_cmp);

	if (!found || (*(struct session_node **)found)->session != s)
		return;
	struct session_node *node = *(struct session_node **)found;
	tdelete(&name, &srv->sessions, name_cmp);
	free(node);
	account_drop(srv, s);
	srv->session_count--;
	by_name_remove(srv, s);
}

struct walk {
	struct session **list;
	size_t count;
};

static void collect(const void *nodep, VISIT which, void *closure)
{
	struct walk *w = closure;

	if (which == postorder || which == leaf)
		w->list[w->count++] = (*(struct session_node *const *)nodep)->session;
}

/* Brings the name-ordered list up to date after logins and logouts; -1 if out of memory. */
static int refresh_by_name(struct server *srv)
{
	struct walk w = { NULL, 0 };

	if (!srv->by_name_stale)
		return 0;
	if ((size_t)srv->session_count > srv->by_name_cap) {
		size_t cap = srv->by_name_cap ? srv->by_name_cap : 64;
		while (cap < (size_t)srv->session_count)
			cap *= 2;
		struct session **list = realloc(srv->by_name, cap * sizeof *list);
		if (!list)
			return -1;
		srv->by_name = list;
		srv->by_name_cap = cap;
	}
	w.list = srv->by_name;
	twalk_r(srv->sessions, collect, &w);
	srv->by_name_count = w.count;
	srv->by_name_stale = false;
	return 0;
}

/* How many sessions ahead a walk asks for the next one (a cache miss each). */
#define SESSION_PREFETCH 8

/*
 * Calls fn for each logged-in session in name order.  The order is kept
 * from one call to the next until someone logs in or out, so a walk costs
 * the sessions it visits; fn may log others out (or tell them things)
 * safely: they stay allocated until the pass ends, and are skipped once
 * offline.  A walk begun inside another keeps to the list as it is, so the
 * list never moves under the outer one.
 */
void server_each_session(struct server *srv, void (*fn)(struct session *s, void *arg), void *arg)
{
	if (!srv->by_name_walks && refresh_by_name(srv) < 0)
		return;
	srv->by_name_walks++;
	for (size_t i = 0, n = srv->by_name_count; i < n; i++) {
		/* The sessions lie all over the heap: ask for one a few ahead, its
		 * first two cache lines (where it keeps what listings read). */
		if (i + SESSION_PREFETCH < n) {
			const char *ahead = (const char *)srv->by_name[i + SESSION_PREFETCH];
			__builtin_prefetch(ahead);
			__builtin_prefetch(ahead + 64);
		}
		if (session_online(srv->by_name[i]))
			fn(srv->by_name[i], arg);
	}
	srv->by_name_walks--;
}

/* --- connections --- */

void server_conn_dirty(struct server *srv, struct conn *c)
{
	if (list_push(&srv->dirty, c) < 0)
		log_error("out of memory queueing output");
}

void server_conn_closed(struct server *srv, struct conn *c)
{
	if (list_push(&srv->closed, c) < 0)
		log_error("out of memory recording a closed connection");
}

/* Frees a closed connection and its share of the address tally. */
static void release(struct server *srv, struct conn *c)
{
	struct tally *t = conns_of(srv, conn_address(c), false);

	if (t) {
		t->conns--;
		tally_settle(srv, &srv->addresses, t);
	}
	list_remove(&srv->conns, c);
	list_remove(&srv->holding, c);
	conn_free(c);
}

/*
 * Past the server-wide output budget, the clients furthest behind (the
 * most output their sockets would not take) go first: one slow reader
 * among many cannot make the server hold the output of all.  Output held
 * for the disk or queued this pass is no client's fault and drops no one.
 * Before the commit, so what their going writes (a game adjourned) is in it.
 */
static void enforce_output_budget(struct server *srv)
{
	size_t budget = (size_t)srv->cfg->limits.output_total_bytes;
	struct backlog_entry *largest;

	while (backlog_total(srv->backlog) > budget && (largest = backlog_largest(srv->backlog)) &&
	    largest->bytes) {
		log_warn("output: %zu bytes queued in all, over the budget of %zu; dropping a client "
		    "%zu behind", backlog_total(srv->backlog), budget, largest->bytes);
		conn_abort(largest->owner, "output over the server's total budget (largest backlog)");
	}
}

/*
 * The end of every loop pass: commit what the pass wrote, then release the
 * output it queued, then free the connections it closed.  Nothing about a
 * write reaches a client before its commit is durable: with a syncer the
 * pass's output is held until the syncer has flushed the commit, and the
 * loop goes on meanwhile.  Every pass's output waits for the newest commit,
 * not only the output of the pass that made it: a later pass may show the
 * same state to someone else (a third party's "moves" or "refresh").
 *
 * A commit that fails here cannot take back what the pass already told
 * people, so nothing that is told goes into it: every write whose effect a
 * reply shows at once commits on its own before the reply is queued
 * (db_commit_now: a move; a game's start, resumption, end and ratings; a
 * takeback; set, channels, aliases, register, passwd; a ruling, a news
 * item), and is refused when that commit fails.  What is left for this
 * commit: bookkeeping no reply has claimed (the login time; a tournament's
 * rows after a game's end, which a restart settles again from the game's
 * stored row) and the tournament commands' rows (create, join, withdraw),
 * which a failure loses; both are logged.
 */
static void pass_end(struct server *srv)
{
	enforce_output_budget(srv);
	if (db_pending(srv->db)) {
		/* What a reply showed was committed as it was made (db_commit_now);
		 * what fails here is the rest of the pass, which is lost, not fatal. */
		if (db_commit(srv->db) < 0)
			log_error("database commit failed: this pass's other changes are lost");
		++srv->commit_seq;
		if (srv->syncer)
			syncer_request(srv->syncer, srv->commit_seq);
		else
			srv->durable_seq = srv->commit_seq;
	}
	uint64_t need = srv->commit_seq;
	for (size_t i = 0; i < srv->dirty.count; i++) {
		struct conn *c = srv->dirty.items[i];
		bool was_holding = conn_holding(c);
		conn_flush(c, need, srv->durable_seq);
		if (!was_holding && conn_holding(c) && list_push(&srv->holding, c) < 0)
			fatal("out of memory tracking held output");
	}
	srv->dirty.count = 0;
	web_pass_end(srv->web, need, srv->durable_seq);
	for (size_t i = 0; i < srv->closed.count; i++)
		release(srv, srv->closed.items[i]);
	srv->closed.count = 0;
	games_reap(srv->games);
	if (srv->stopping && !srv->conns.count)
		srv->done = true;
}

/* SQLite's report after a commit: past the limit, the syncer copies the WAL. */
static void wal_grew(void *arg, int pages)
{
	struct server *srv = arg;

	if (pages >= srv->cfg->limits.wal_checkpoint_pages)
		syncer_checkpoint(srv->syncer);
}

/* The syncer's report: send everything held for commits now on disk. */
static void durable(void *arg, uint64_t seq)
{
	struct server *srv = arg;

	srv->durable_seq = seq;
	for (size_t i = 0; i < srv->holding.count;) {
		struct conn *c = srv->holding.items[i];
		conn_release(c, seq);
		if (conn_holding(c))
			i++;
		else
			srv->holding.items[i] = srv->holding.items[--srv->holding.count];
	}
	web_durable(srv->web, seq);
}

static void refuse(int fd, bool tls, const char *why)
{
	char line[160];

	/* A plain client gets a reason; a TLS client could not read one. */
	if (!tls) {
		int n = snprintf(line, sizeof line, "\n\r**** %s ****\n\r", why);
		if (write(fd, line, (size_t)n) < 0) {
			/* It is being refused anyway. */
		}
	}
	close(fd);
}

static void accept_conn(struct server *srv, evutil_socket_t fd, struct sockaddr *sa, bool tls)
{
	const struct limits *lim = &srv->cfg->limits;
	char addr[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)sa)->sin6_addr, addr, sizeof addr);
	else if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)sa)->sin_addr, addr, sizeof addr);
	if (srv->stopping) {
		refuse(fd, tls, "The server is shutting down.");
		return;
	}
	if (moderation_address_banned(srv->moderation, addr)) {
		log_info("refused %s: banned address", addr);
		refuse(fd, tls, "Your address is banned from this server.");
		return;
	}
	if ((int)srv->conns.count >= lim->clients) {
		log_warn("refused %s: %d connections in all", addr, lim->clients);
		refuse(fd, tls, "The server is full; please try again later.");
		return;
	}
	struct tally *t = conns_of(srv, addr, true);
	if (!t || t->conns >= lim->clients_per_address) {
		log_warn("refused %s: %d connections from that address", addr, lim->clients_per_address);
		refuse(fd, tls, "Too many connections from your address; please try again later.");
		return;
	}
	SSL *ssl = NULL;
	if (list_reserve(&srv->conns) < 0 || (tls && !(ssl = tls_accept_ssl(srv->tls)))) {
		tally_settle(srv, &srv->addresses, t);
		close(fd);
		return;
	}
	/* Replies are whole lines queued per pass: Nagle would only delay them. */
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	struct conn *c = conn_new(srv, fd, sa, ssl);
	if (!c) {
		tally_settle(srv, &srv->addresses, t);
		return;
	}
	t->conns++;
	list_push(&srv->conns, c);	/* room was reserved above */
	log_debug("conn %llu from %s%s", (unsigned long long)conn_id(c), addr, tls ? " (TLS)" : "");
}

static void accept_plain(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int len, void *arg)
{
	(void)l;
	(void)len;
	accept_conn(arg, fd, sa, false);
}

static void accept_tls(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int len, void *arg)
{
	(void)l;
	(void)len;
	accept_conn(arg, fd, sa, true);
}

static void resume_accepting(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;

	(void)fd;
	(void)what;
	if (srv->stopping)
		return;
	if (srv->plain)
		evconnlistener_enable(srv->plain);
	if (srv->secure)
		evconnlistener_enable(srv->secure);
	log_info("accepting connections again");
}

/* Out of descriptors: stop accepting for a moment instead of spinning. */
static void accept_error(struct evconnlistener *l, void *arg)
{
	struct server *srv = arg;
	int err = EVUTIL_SOCKET_ERROR();
	int ms = srv->cfg->limits.accept_pause_ms;

	(void)l;
	if (err != EMFILE && err != ENFILE && err != ENOBUFS && err != ENOMEM) {
		log_warn("accept: %s", evutil_socket_error_to_string(err));
		return;
	}
	log_warn("accept: %s; pausing accepts for %d ms", evutil_socket_error_to_string(err), ms);
	if (srv->plain)
		evconnlistener_disable(srv->plain);
	if (srv->secure)
		evconnlistener_disable(srv->secure);
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	evtimer_add(srv->accept_resume, &tv);
}

static struct evconnlistener *listen_on(struct server *srv, int port, evconnlistener_cb cb,
    char *err, size_t errlen)
{
	const char *bind_to = srv->cfg->bind;
	struct sockaddr_storage ss;
	int sslen = sizeof ss;
	unsigned flags = LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC;
	char text[96];

	/* Default: every IPv6 and IPv4 address, or IPv4 only where IPv6 is off. */
	const char *tries[2] = { bind_to ? bind_to : "[::]", bind_to ? NULL : "0.0.0.0" };
	for (int i = 0; i < 2 && tries[i]; i++) {
		snprintf(text, sizeof text, strchr(tries[i], ':') && tries[i][0] != '[' ?
		    "[%s]:%d" : "%s:%d", tries[i], port);
		memset(&ss, 0, sizeof ss);
		sslen = sizeof ss;
		if (evutil_parse_sockaddr_port(text, (struct sockaddr *)&ss, &sslen) < 0) {
			snprintf(err, errlen, "cannot parse bind address %s", tries[i]);
			return NULL;
		}
		struct evconnlistener *l = evconnlistener_new_bind(srv->base, cb, srv, flags,
		    srv->cfg->limits.listen_backlog,
		    (struct sockaddr *)&ss, sslen);
		if (l) {
			evconnlistener_set_error_cb(l, accept_error);
			log_info("listening on %s%s", text, cb == accept_tls ? " (TLS)" : "");
			return l;
		}
		snprintf(err, errlen, "cannot listen on %s: %s", text,
		    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	}
	return NULL;
}

static void begin_shutdown(struct server *srv, const char *why);

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct server *srv = arg;
	char err[256];

	(void)what;
	if (sig == SIGHUP) {
		if (!srv->tls)
			return;
		if (tls_reload(srv->tls, err, sizeof err) < 0)
			log_error("certificate reload failed, keeping the old one: %s", err);
		else
			log_info("certificate reloaded: %s", tls_fingerprint(srv->tls));
		return;
	}
	begin_shutdown(srv, sig == SIGTERM ? "SIGTERM" : "SIGINT");
}

static void shutdown_deadline(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;

	(void)fd;
	(void)what;
	log_warn("shutdown: %zu connections did not drain in time", srv->conns.count);
	for (size_t i = 0; i < srv->conns.count; i++)
		conn_abort(srv->conns.items[i], "server shutdown");
}

/* Stop accepting, tell everyone, close every connection once its output is out. */
static void begin_shutdown(struct server *srv, const char *why)
{
	if (srv->stopping)
		return;
	srv->stopping = true;
	log_info("shutting down (%s)", why);
	if (srv->plain)
		evconnlistener_disable(srv->plain);
	if (srv->secure)
		evconnlistener_disable(srv->secure);
	/* Before the players' connections close, which would abort guests' games. */
	games_adjourn_all(srv->games, "Game adjourned when the server shut down");
	for (size_t i = 0; i < srv->conns.count; i++) {
		struct conn *c = srv->conns.items[i];
		struct session *s = conn_session(c);
		if (s && session_online(s))
			session_notify(s, "**** %s is shutting down now. ****", srv->cfg->server_name);
	}
	/* Closing moves each connection to the closed list; copy the set first. */
	size_t n = srv->conns.count;
	struct conn **all = malloc(n * sizeof *all + 1);
	if (all && n) {
		memcpy(all, srv->conns.items, n * sizeof *all);
		for (size_t i = 0; i < n; i++) {
			/* One that is far behind would only hold the exit up to the deadline. */
			if (conn_backlogged(all[i]))
				conn_abort(all[i], "server shutdown (too far behind to drain)");
			else
				conn_close(all[i], "server shutdown");
		}
	}
	free(all);
	struct timeval tv = { LIMIT_SHUTDOWN_DRAIN_MS / 1000,
	    (LIMIT_SHUTDOWN_DRAIN_MS % 1000) * 1000 };
	evtimer_add(srv->shutdown_timer, &tv);
	if (!srv->conns.count)
		srv->done = true;
}

void server_shutdown(struct server *srv, const char *why)
{
	begin_shutdown(srv, why);
}

/* One chessd per data directory: a second would corrupt nothing, but would
 * confuse everyone; the lock says so plainly. */
static int lock_data_dir(struct server *srv, char *err, size_t errlen)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/chessd.lock", srv->cfg->data_dir);
	srv->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (srv->lock_fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(srv->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		snprintf(err, errlen, "%s is in use by another chessd", srv->cfg->data_dir);
		return -1;
	}
	return 0;
}

bool server_lock_free(const char *data_dir)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/chessd.lock", data_dir);
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;	/* no server ever ran here */
	bool free_now = flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);			/* and the lock with it */
	return free_now;
}

/* Password workers: as configured, else one per core up to a few. */
static int hasher_thread_count(const struct config *cfg)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	if (cfg->limits.hasher_threads > 0)
		return cfg->limits.hasher_threads;
	return cores < 1 ? 1 : cores > LIMIT_HASHER_THREADS_AUTO ? LIMIT_HASHER_THREADS_AUTO :
	    (int)cores;
}

struct server *server_new(struct config *cfg, char *err, size_t errlen)
{
	struct server *srv = calloc(1, sizeof *srv);
	char path[4096];

	if (!srv) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	srv->cfg = cfg;
	srv->lock_fd = -1;
	srv->started_ms = server_now_ms(srv);
	if (!(srv->backlog = backlog_new()) || !(srv->audience = audience_new())) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	RAND_bytes((unsigned char *)&srv->guest_counter, sizeof srv->guest_counter);
	signal(SIGPIPE, SIG_IGN);

	if (mkdir(cfg->data_dir, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", cfg->data_dir, strerror(errno));
		goto fail;
	}
	if (lock_data_dir(srv, err, errlen) < 0)
		goto fail;
	snprintf(path, sizeof path, "%s/chess.db", cfg->data_dir);
	if (!(srv->db = db_open(path, err, errlen)))
		goto fail;
	if (cfg->tls_port || cfg->https_port) {
		if (!(srv->tls = tls_new(cfg->data_dir, cfg->cert_file, cfg->key_file, err, errlen)))
			goto fail;
		log_info("TLS certificate %s", tls_fingerprint(srv->tls));
	}
	if (!(srv->base = event_base_new())) {
		snprintf(err, errlen, "cannot create the event loop");
		goto fail;
	}
	/* Flush the WAL on a thread; without one, every commit flushes in the loop. */
	snprintf(path, sizeof path, "%s/chess.db", cfg->data_dir);
	if ((srv->syncer = syncer_new(srv->base, path, durable, srv)) &&
	    db_set_deferred_sync(srv->db, true) < 0) {
		syncer_free(srv->syncer);
		srv->syncer = NULL;
	}
	if (srv->syncer)
		db_watch_wal(srv->db, wal_grew, srv);
	if (!(srv->verdicts = verdicts_new(srv->base, cfg->limits.verdict_threads,
	    cfg->limits.verdict_queue))) {
		snprintf(err, errlen, "cannot start the verdict worker");
		goto fail;
	}
	if (!(srv->games = games_new(srv)) || !(srv->offers = offers_new(srv)) ||
	    !(srv->lists = lists_new()) ||
	    games_adjourn_orphans(srv) < 0) {
		snprintf(err, errlen, "cannot set up games");
		goto fail;
	}
	/* Tournaments: after the orphans are adjourned, so their boards resume them. */
	if (!(srv->tournaments = tournaments_new(srv)) || tournaments_load(srv->tournaments) < 0) {
		snprintf(err, errlen, "cannot load tournaments");
		goto fail;
	}
	if (!(srv->hasher = hasher_new(srv->base, hasher_thread_count(cfg),
	    cfg->limits.hasher_queue)) ||
	    !(srv->signups = signups_new()) || !(srv->account_watch = account_watch_new(srv))) {
		snprintf(err, errlen, "cannot start the password worker");
		goto fail;
	}
	if (!(srv->moderation = moderation_new(srv, err, errlen)))
		goto fail;
	if (cfg->port && !(srv->plain = listen_on(srv, cfg->port, accept_plain, err, errlen)))
		goto fail;
	if (cfg->tls_port && !(srv->secure = listen_on(srv, cfg->tls_port, accept_tls, err, errlen)))
		goto fail;
	if (!(srv->web = web_new(srv, srv->tls, err, errlen)))
		goto fail;
	srv->sig_term = evsignal_new(srv->base, SIGTERM, on_signal, srv);
	srv->sig_int = evsignal_new(srv->base, SIGINT, on_signal, srv);
	srv->sig_hup = evsignal_new(srv->base, SIGHUP, on_signal, srv);
	srv->accept_resume = evtimer_new(srv->base, resume_accepting, srv);
	srv->shutdown_timer = evtimer_new(srv->base, shutdown_deadline, srv);
	if (!srv->sig_term || !srv->sig_int || !srv->sig_hup || !srv->accept_resume ||
	    !srv->shutdown_timer) {
		snprintf(err, errlen, "cannot set up signal handling");
		goto fail;
	}
	evsignal_add(srv->sig_term, NULL);
	evsignal_add(srv->sig_int, NULL);
	evsignal_add(srv->sig_hup, NULL);
	return srv;
fail:
	server_free(srv);
	return NULL;
}

int server_run(struct server *srv)
{
	log_info("chessd ready");
	while (!srv->done) {
		if (event_base_loop(srv->base, EVLOOP_ONCE) < 0) {
			log_error("event loop failed");
			return 1;
		}
		pass_end(srv);
	}
	if (db_commit(srv->db) < 0 || (srv->syncer && syncer_flush_now(srv->syncer) < 0))
		return 1;
	log_info("stopped");
	return 0;
}

static void free_tally(void *p)
{
	free(p);
}

void server_free(struct server *srv)
{
	if (!srv)
		return;
	while (srv->conns.count)
		release(srv, srv->conns.items[srv->conns.count - 1]);
	backlog_free(srv->backlog);
	tdestroy(srv->sessions, free);
	tdestroy(srv->accounts, free);
	free(srv->by_name);
	audience_free(srv->audience);
	tdestroy(srv->addresses, free_tally);
	tdestroy(srv->names, free_tally);
	tdestroy(srv->trusted, free_tally);
	web_free(srv->web);
	srv->web = NULL;	/* games and tournaments below call no hook while freed */
	if (srv->plain)
		evconnlistener_free(srv->plain);
	if (srv->secure)
		evconnlistener_free(srv->secure);
	struct event *events[] = { srv->sig_term, srv->sig_int, srv->sig_hup, srv->accept_resume,
	    srv->shutdown_timer };
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
		if (events[i])
			event_free(events[i]);
	tournaments_free(srv->tournaments);
	if (srv->syncer) {
		db_commit(srv->db);
		syncer_flush_now(srv->syncer);
		syncer_free(srv->syncer);
		srv->syncer = NULL;
		db_set_deferred_sync(srv->db, false);
	}
	moderation_free(srv->moderation);
	games_free(srv->games);	/* cancels their verdicts: before the workers go */
	verdicts_free(srv->verdicts);
	offers_free(srv->offers);
	lists_free(srv->lists);
	hasher_free(srv->hasher);
	signups_free(srv->signups);
	account_watch_free(srv->account_watch);
	if (srv->base)
		event_base_free(srv->base);
	tls_free(srv->tls);
	db_close(srv->db);
	if (srv->lock_fd >= 0)
		close(srv->lock_fd);
	free(srv->conns.items);
	free(srv->dirty.items);
	free(srv->closed.items);
	free(srv->holding.items);
	free(srv);
}
