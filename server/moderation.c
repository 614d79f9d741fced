#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "address.h"
#include "config.h"
#include "conn.h"
#include "db.h"
#include "log.h"
#include "moderation.h"
#include "server.h"
#include "session.h"

/* The remaining times (seconds) at which a countdown is announced, as on FICS. */
static const int countdown_marks[] = { 3600, 2400, 1200, 600, 300, 120, 60, 10 };

struct ban {
	char range[ADDRESS_BLOCK_MAX];
	bool configured;
};

struct moderation {
	struct server *srv;
	struct event *tick;
	int64_t deadline_ms;		/* 0: no shutdown ordered */
	int last_left_s;		/* seconds left at the last tick */
	char by[SESSION_NAME_MAX + 1];
	char reason[256];
	struct ban *bans;
	int ban_count;
};

static void tick(evutil_socket_t fd, short what, void *arg);

static int add_ban(struct moderation *m, const char *range, bool configured)
{
	for (int i = 0; i < m->ban_count; i++)
		if (!strcmp(m->bans[i].range, range))
			return -1;
	if (m->ban_count >= server_config(m->srv)->limits.address_bans)
		return -1;
	struct ban *grown = realloc(m->bans, (size_t)(m->ban_count + 1) * sizeof *grown);
	if (!grown)
		return -1;
	m->bans = grown;
	snprintf(m->bans[m->ban_count].range, sizeof m->bans[0].range, "%s", range);
	m->bans[m->ban_count++].configured = configured;
	return 0;
}

static void load_ban(void *arg, const char *range)
{
	add_ban(arg, range, false);
}

struct moderation *moderation_new(struct server *srv, char *err, size_t errlen)
{
	struct moderation *m = calloc(1, sizeof *m);
	const char *list = server_config(srv)->ban_addresses;

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->srv = srv;
	if (!(m->tick = evtimer_new(server_base(srv), tick, m))) {
		snprintf(err, errlen, "cannot set up the shutdown timer");
		moderation_free(m);
		return NULL;
	}
	/* ban_addresses: ranges separated by commas or blanks. */
	char *copy = strdup(list ? list : "");
	char *save = NULL;
	for (char *word = copy ? strtok_r(copy, ", \t", &save) : NULL; word;
	    word = strtok_r(NULL, ", \t", &save)) {
		char range[ADDRESS_BLOCK_MAX];
		if (address_range_parse(word, range, sizeof range) < 0) {
			snprintf(err, errlen, "ban_addresses: %.64s is no address range", word);
			free(copy);
			moderation_free(m);
			return NULL;
		}
		add_ban(m, range, true);
	}
	free(copy);
	db_address_ban_each(server_db(srv), load_ban, m);
	return m;
}

void moderation_free(struct moderation *m)
{
	if (!m)
		return;
	if (m->tick)
		event_free(m->tick);
	free(m->bans);
	free(m);
}

void moderation_log(struct session *admin, const char *action, int64_t target_id,
    const char *target, const char *detail)
{
	struct db_admin_action a = {
		.at = (int64_t)time(NULL),
		.admin_id = session_user_id(admin),
		.admin = session_name(admin),
		.action = action,
		.target_id = target_id,
		.target = target,
		.detail = detail,
	};

	if (db_admin_log_add(server_db(session_server(admin)), &a) < 0)
		log_error("admin log: %s %s %s not recorded", a.admin, action, target ? target : "");
}

bool moderation_outranks(const struct session *admin, int target_level)
{
	return session_admin_level(admin) > target_level;
}

/* --- the shutdown countdown --- */

static void announce_one(struct session *s, void *arg)
{
	session_notify(s, "%s", (const char *)arg);
}

/* One text to everyone online; each line as FICS frames it (a blank line before). */
static void announce(struct moderation *m, const char *text)
{
	server_each_session(m->srv, announce_one, (void *)text);
}

/* "Server going down in M minutes and S seconds", after who ordered it
 * (when it is ordered) and with the reason if there is one. */
static void announce_left(struct moderation *m, int left_s, bool ordered)
{
	char text[1024], because[320] = "";
	int n = 0;

	if (*m->reason)
		snprintf(because, sizeof because, "    **** We are going down because: %s. ****\n",
		    m->reason);
	if (ordered)
		n = snprintf(text, sizeof text, "\n    **** Server shutdown ordered by %s. ****\n%s",
		    m->by, because);
	snprintf(text + n, sizeof text - (size_t)n,
	    "%s    **** Server going down in %d minutes and %d seconds. ****\n%s",
	    ordered ? "" : "\n", left_s / 60, left_s % 60, ordered ? "" : because);
	announce(m, text);
}

static int left_s(const struct moderation *m)
{
	int64_t left_ms = m->deadline_ms - server_now_ms(m->srv);

	return left_ms <= 0 ? 0 : (int)((left_ms + 999) / 1000);
}

static void arm(struct moderation *m)
{
	int64_t left_ms = m->deadline_ms - server_now_ms(m->srv);
	int64_t wait_ms = left_ms <= 0 ? 0 : left_ms % 1000 ? left_ms % 1000 : 1000;
	struct timeval tv = { (time_t)(wait_ms / 1000), (suseconds_t)(wait_ms % 1000) * 1000 };

	evtimer_add(m->tick, &tv);
}

static void go_down(struct moderation *m)
{
	m->deadline_ms = 0;
	char text[128];
	snprintf(text, sizeof text, "\n    **** Server shutdown ordered by %s. ****", m->by);
	announce(m, text);
	server_shutdown(m->srv, "shutdown command");
}

static void tick(evutil_socket_t fd, short what, void *arg)
{
	struct moderation *m = arg;

	(void)fd;
	(void)what;
	if (!m->deadline_ms)
		return;
	int left = left_s(m);
	if (left <= 0) {
		go_down(m);
		return;
	}
	for (size_t i = 0; i < sizeof countdown_marks / sizeof countdown_marks[0]; i++)
		if (m->last_left_s > countdown_marks[i] && left <= countdown_marks[i]) {
			announce_left(m, left, false);
			break;
		}
	m->last_left_s = left;
	arm(m);
}

void moderation_shutdown_in(struct moderation *m, const char *by, int seconds,
    const char *reason)
{
	snprintf(m->by, sizeof m->by, "%s", by);
	snprintf(m->reason, sizeof m->reason, "%s", reason ? reason : "");
	log_info("shutdown in %d s ordered by %s", seconds, by);
	if (seconds <= 0) {
		go_down(m);
		return;
	}
	m->deadline_ms = server_now_ms(m->srv) + (int64_t)seconds * 1000;
	m->last_left_s = seconds;
	announce_left(m, seconds, true);
	arm(m);
}

bool moderation_shutdown_cancel(struct moderation *m, const char *by)
{
	if (!m->deadline_ms)
		return false;
	m->deadline_ms = 0;
	evtimer_del(m->tick);
	log_info("shutdown cancelled by %s", by);
	char text[128];
	snprintf(text, sizeof text, "\n    **** Server shutdown canceled by %s. ****", by);
	announce(m, text);
	return true;
}

int moderation_shutdown_left(const struct moderation *m)
{
	return m->deadline_ms ? left_s(m) : -1;
}

const char *moderation_shutdown_reason(const struct moderation *m)
{
	return m->reason;
}

/* --- address bans --- */

bool moderation_address_banned(const struct moderation *m, const char *address)
{
	for (int i = 0; i < m->ban_count; i++)
		if (address_in_range(address, m->bans[i].range))
			return true;
	return false;
}

static void drop_banned(struct session *s, void *arg)
{
	const char *range = arg;

	/* Admins stay: a ban is for the players behind a range. */
	if (session_admin(s) || !address_in_range(conn_address(session_conn(s)), range))
		return;
	session_notify(s, "**** Your address has been banned from this server. ****");
	conn_close(session_conn(s), "address banned");
}

int moderation_ban_address(struct moderation *m, const char *range)
{
	if (add_ban(m, range, false) < 0)
		return -1;
	server_each_session(m->srv, drop_banned, (void *)range);
	return 0;
}

int moderation_unban_address(struct moderation *m, const char *range)
{
	for (int i = 0; i < m->ban_count; i++) {
		if (strcmp(m->bans[i].range, range) || m->bans[i].configured)
			continue;
		m->bans[i] = m->bans[--m->ban_count];
		return 0;
	}
	return -1;
}

void moderation_each_ban(const struct moderation *m,
    void (*fn)(void *arg, const char *range, bool configured), void *arg)
{
	for (int i = 0; i < m->ban_count; i++)
		fn(arg, m->bans[i].range, m->bans[i].configured);
}
