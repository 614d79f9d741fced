#define _GNU_SOURCE
/*
 * The live tournaments: creation, entries, pairing each round, starting and
 * finishing its games, forfeits, and the database rows that let a restart
 * pick everything up again.  See tournament.h for the rules applied.
 *
 * Work that starts games (a new round, a board whose players are now both
 * here, a forfeit falling due) runs from one timer, never from inside a
 * game's ending or a session's teardown: tournament_game_over() only
 * records and schedules.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <event2/event.h>

#include "audience.h"
#include "clock.h"
#include "config.h"
#include "conn.h"
#include "db.h"
#include "game.h"
#include "limit.h"
#include "log.h"
#include "number.h"
#include "pairing.h"
#include "rating.h"
#include "server.h"
#include "session.h"
#include "tournament.h"

/* How often waiting boards look for their players (logins are not signalled). */
#define TOURNAMENT_POLL_MS 250

/* A participant beyond what the core keeps. */
struct entrant {
	int64_t user_id;
	int joined;		/* order of joining */
	bool paused;
	bool deleted;		/* the account is gone: what it had left to play is forfeited */
};

enum board_state { BOARD_WAITING, BOARD_PLAYING, BOARD_DONE };

/* A board of the round being played. */
struct tboard {
	enum board_state state;
	int64_t game_id;	/* the games row played on it; 0 none */
	int game_number;	/* the live game while PLAYING */
	bool adjourned;		/* game_id is to be continued, not replayed */
	int64_t deadline_ms;	/* while WAITING: when the absent forfeit (monotonic) */
	int aborts[COLOR_NB];	/* games of this board each side aborted */
};

/* Who asked to follow: an account, or a guest's connection (never a later guest of the name). */
struct follower {
	int64_t user_id;		/* 0 for a guest */
	uint64_t conn;			/* a guest's connection */
	char name[DB_NAME_MAX];
};

struct change;

struct tournament {
	struct tournaments *owner;
	int64_t id;
	enum tournament_kind kind;
	enum tournament_state state;
	struct clock_control tc;
	char tc_text[CLOCK_TEXT_MAX];
	bool rated;
	int64_t director_id;
	char director[DB_NAME_MAX];
	enum tiebreak tiebreaks[TIEBREAK_MAX];
	int ntiebreaks;
	int64_t created, finished;
	int web_delay_s;		/* -1: the server's public_delay_s */
	struct tourney *core;		/* players by index = start number */
	struct entrant entrants[TOURNEY_PLAYERS_MAX + 1];
	int next_joined;
	struct tboard boards[TOURNEY_GAMES_MAX];
	struct follower *followers;
	int nfollowers;
	struct change *change;		/* a command's change being made, or NULL */
};

/* A line held back until the change it tells of is stored. */
struct held {
	struct session *to;		/* the command's session; NULL: an announcement */
	char *text;
};

/*
 * A command's change to a tournament, made in memory and in the database
 * at once: what it was before, the lines that tell of it, and whether
 * anything went wrong on the way (see change_begin()).
 */
struct change {
	struct session *s;
	char what[160];			/* what the refusal says was not saved */
	bool failed;
	struct held *held;
	int nheld;
	struct tournament before;
	struct tourney core_before;
};

struct tournaments {
	struct server *srv;
	struct tournament **list;
	int count;
	struct event *timer;
};

static const enum tiebreak default_tiebreaks[] = {
	TIEBREAK_BUCHHOLZ, TIEBREAK_BUCHHOLZ_CUT1, TIEBREAK_SONNEBORN_BERGER,
	TIEBREAK_DIRECT_ENCOUNTER, TIEBREAK_WINS,
};

static void tick(evutil_socket_t fd, short what, void *arg);

/* --- names and texts --- */

const char *tournament_kind_name(enum tournament_kind kind)
{
	return kind == TOURNAMENT_RR ? "rr" : kind == TOURNAMENT_DRR ? "drr" : "swiss";
}

const char *tournament_state_name(enum tournament_state state)
{
	switch (state) {
	case TOURNAMENT_CREATED: return "created";
	case TOURNAMENT_RUNNING: return "running";
	case TOURNAMENT_PAUSED: return "paused";
	case TOURNAMENT_FINISHED: return "finished";
	}
	return "?";
}

static int kind_parse(const char *text, enum tournament_kind *out)
{
	for (int k = TOURNAMENT_RR; k <= TOURNAMENT_SWISS; k++)
		if (!strcasecmp(text, tournament_kind_name((enum tournament_kind)k))) {
			*out = (enum tournament_kind)k;
			return 0;
		}
	return -1;
}

static int state_parse(const char *text, enum tournament_state *out)
{
	for (int k = TOURNAMENT_CREATED; k <= TOURNAMENT_FINISHED; k++)
		if (!strcmp(text, tournament_state_name((enum tournament_state)k))) {
			*out = (enum tournament_state)k;
			return 0;
		}
	return -1;
}

static const struct {
	enum tourney_result res;
	const char *text;
} result_texts[] = {
	{ TOURNEY_RESULT_NONE, "*" }, { TOURNEY_RESULT_WHITE_WINS, "1-0" },
	{ TOURNEY_RESULT_BLACK_WINS, "0-1" }, { TOURNEY_RESULT_DRAW, "1/2-1/2" },
	{ TOURNEY_RESULT_WHITE_FORFEIT, "+-" }, { TOURNEY_RESULT_BLACK_FORFEIT, "-+" },
	{ TOURNEY_RESULT_DOUBLE_FORFEIT, "--" },
};

const char *tournament_result_text(enum tourney_result res)
{
	for (size_t i = 0; i < sizeof result_texts / sizeof result_texts[0]; i++)
		if (result_texts[i].res == res)
			return result_texts[i].text;
	return "*";
}

int tournament_result_parse(const char *text, enum tourney_result *out)
{
	if (!strcmp(text, "=") || !strcmp(text, "1/2") || !strcmp(text, "draw")) {
		*out = TOURNEY_RESULT_DRAW;
		return 0;
	}
	for (size_t i = 0; i < sizeof result_texts / sizeof result_texts[0]; i++)
		if (!strcmp(result_texts[i].text, text)) {
			*out = result_texts[i].res;
			return 0;
		}
	return -1;
}

static const char bye_letters[] = { [TOURNEY_BYE_NONE] = '?', [TOURNEY_BYE_PAIRING] = 'U',
	[TOURNEY_BYE_HALF] = 'H', [TOURNEY_BYE_ZERO] = 'Z', [TOURNEY_BYE_FULL] = 'F' };

static enum tourney_bye bye_parse(const char *text)
{
	for (int k = TOURNEY_BYE_PAIRING; k <= TOURNEY_BYE_FULL; k++)
		if (text[0] == bye_letters[k] && !text[1])
			return (enum tourney_bye)k;
	return TOURNEY_BYE_NONE;
}

int tournament_tiebreaks_parse(const char *text, enum tiebreak *order)
{
	char copy[128], *save = NULL;
	int n = 0;

	snprintf(copy, sizeof copy, "%s", text);
	for (char *w = strtok_r(copy, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		int found = -1;
		for (int k = 0; k < TIEBREAK_NB; k++)
			if (!strcasecmp(w, tiebreak_name((enum tiebreak)k)))
				found = k;
		if (found < 0 || n >= TIEBREAK_MAX)
			return -1;
		for (int i = 0; i < n; i++)
			if (order[i] == (enum tiebreak)found)
				return -1;
		order[n++] = (enum tiebreak)found;
	}
	return n;
}

static void tiebreaks_text(const struct tournament *t, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < t->ntiebreaks && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
		    tiebreak_name(t->tiebreaks[i]));
}

/* --- accessors --- */

int64_t tournament_id(const struct tournament *t) { return t->id; }
const char *tournament_name(const struct tournament *t) { return t->core->name; }
enum tournament_kind tournament_kind(const struct tournament *t) { return t->kind; }
enum tournament_state tournament_state(const struct tournament *t) { return t->state; }
const char *tournament_director(const struct tournament *t) { return t->director; }
const char *tournament_time_control(const struct tournament *t) { return t->tc_text; }
int tournament_web_delay_s(const struct tournament *t)
{
	return t->web_delay_s;
}

bool tournament_rated(const struct tournament *t) { return t->rated; }
const struct tourney *tournament_core(const struct tournament *t) { return t->core; }

int tournament_tiebreaks(const struct tournament *t, enum tiebreak *order)
{
	memcpy(order, t->tiebreaks, (size_t)t->ntiebreaks * sizeof *order);
	return t->ntiebreaks;
}

int tournament_board_game(const struct tournament *t, int board)
{
	const struct tourney *c = t->core;

	if (board < 1 || board > c->rounds[c->rounds_paired].ngames ||
	    t->boards[board - 1].state != BOARD_PLAYING)
		return 0;
	return t->boards[board - 1].game_number;
}

bool tournament_player_paused(const struct tournament *t, int player)
{
	return player >= 1 && player <= t->core->nplayers && t->entrants[player].paused;
}

/* --- the registry --- */

struct tournaments *tournaments_new(struct server *srv)
{
	struct tournaments *ts = calloc(1, sizeof *ts);

	if (!ts)
		return NULL;
	ts->srv = srv;
	if (!(ts->list = calloc(TOURNAMENTS_MAX, sizeof *ts->list)) ||
	    !(ts->timer = evtimer_new(server_base(srv), tick, ts))) {
		tournaments_free(ts);
		return NULL;
	}
	return ts;
}

static void tournament_free(struct tournament *t)
{
	if (!t)
		return;
	free(t->core);
	free(t->followers);
	free(t);
}

void tournaments_free(struct tournaments *ts)
{
	if (!ts)
		return;
	for (int i = 0; i < ts->count; i++)
		tournament_free(ts->list[i]);
	if (ts->timer)
		event_free(ts->timer);
	free(ts->list);
	free(ts);
}

struct tournament *tournaments_find(struct tournaments *ts, int64_t id)
{
	for (int i = 0; i < ts->count; i++)
		if (ts->list[i]->id == id)
			return ts->list[i];
	return NULL;
}

void tournaments_each(struct tournaments *ts, void (*fn)(struct tournament *t, void *arg),
    void *arg)
{
	for (int i = 0; i < ts->count; i++)
		fn(ts->list[i], arg);
}

/* Runs the tick after delay_ms (sooner if it is already due sooner). */
static void schedule(struct tournaments *ts, int64_t delay_ms)
{
	struct timeval left, tv = { (time_t)(delay_ms / 1000), (suseconds_t)(delay_ms % 1000 * 1000) };

	if (evtimer_pending(ts->timer, &left)) {
		struct timeval now;
		event_base_gettimeofday_cached(server_base(ts->srv), &now);
		int64_t at_ms = (int64_t)left.tv_sec * 1000 + left.tv_usec / 1000;
		int64_t now_ms = (int64_t)now.tv_sec * 1000 + now.tv_usec / 1000;
		if (at_ms - now_ms <= delay_ms)
			return;
	}
	evtimer_add(ts->timer, &tv);
}

/* Makes room in a full registry by forgetting the oldest finished tournament. */
static void evict_finished(struct tournaments *ts)
{
	for (int i = 0; ts->count >= TOURNAMENTS_MAX && i < ts->count; i++) {
		if (ts->list[i]->state != TOURNAMENT_FINISHED)
			continue;
		log_info("tourney %lld is dropped from memory (registry full)",
		    (long long)ts->list[i]->id);
		tournament_free(ts->list[i]);
		memmove(&ts->list[i], &ts->list[i + 1], (size_t)(ts->count - i - 1) * sizeof ts->list[0]);
		ts->count--;
	}
}

static struct tournament *tournament_alloc(struct tournaments *ts)
{
	struct tournament *t;

	evict_finished(ts);
	if (ts->count >= TOURNAMENTS_MAX)
		return NULL;
	if (!(t = calloc(1, sizeof *t)) || !(t->core = calloc(1, sizeof *t->core))) {
		free(t);
		return NULL;
	}
	t->owner = ts;
	return t;
}

/* --- persistence --- */

static struct db *db_of(const struct tournament *t)
{
	return server_db(t->owner->srv);
}

/* A row the database refused: the change being made, if any, fails with it. */
static void write_failed(struct tournament *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void write_failed(struct tournament *t, const char *fmt, ...)
{
	char what[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (t->change)
		t->change->failed = true;
	log_error("tourney %lld: could not save %s", (long long)t->id, what);
}

static void save_tourney(struct tournament *t)
{
	struct db_tourney row = { .id = t->id, .rounds = t->core->nrounds,
	    .current_round = t->core->rounds_paired, .bye_half = t->core->pairing_bye_half,
	    .finished = t->finished, .web_delay_s = t->web_delay_s };

	snprintf(row.state, sizeof row.state, "%s", tournament_state_name(t->state));
	tiebreaks_text(t, row.tiebreaks, sizeof row.tiebreaks);
	if (db_tourney_update(db_of(t), &row) < 0)
		write_failed(t, "its settings");
}

static void save_player(struct tournament *t, int p)
{
	const struct tourney_player *pl = &t->core->players[p];
	struct db_tourney_player row = { .user_id = t->entrants[p].user_id,
	    .joined = t->entrants[p].joined, .start_no = t->state == TOURNAMENT_CREATED ? 0 : p,
	    .rating = pl->rating, .withdrawn_round = pl->withdrawn_round,
	    .paused = t->entrants[p].paused };

	snprintf(row.name, sizeof row.name, "%.*s", (int)sizeof row.name - 1, pl->name);
	if (db_tourney_player_put(db_of(t), t->id, &row) < 0)
		write_failed(t, "player %s", pl->name);
}

/*
 * A waiting board's deadline as the database keeps it: wall-clock unix ms,
 * which means the same after a restart (the monotonic clock does not); 0
 * when there is none to keep.
 */
static int64_t board_deadline_wall(const struct tournament *t, const struct tboard *bd)
{
	struct timespec ts;

	/* A board a shutdown leaves waiting gets a fresh period after the restart. */
	if (bd->state != BOARD_WAITING || !bd->deadline_ms || server_stopping(t->owner->srv))
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	int64_t wall = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	int64_t at = wall + (bd->deadline_ms - server_now_ms(t->owner->srv));
	return at > 0 ? at : 1;
}

/* The monotonic deadline of a stored wall-clock one. */
static int64_t board_deadline_mono(const struct tournament *t, int64_t wall_deadline_ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	int64_t wall = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	return server_now_ms(t->owner->srv) + (wall_deadline_ms - wall);
}

/* Saves board b (0-based) of round r: a game, or a bye after the games. */
static void save_board(struct tournament *t, int r, int b)
{
	const struct tourney_round *rd = &t->core->rounds[r];
	struct db_tourney_pairing row = { .round = r, .board = b + 1 };

	if (b < rd->ngames) {
		row.white = rd->games[b].white;
		row.black = rd->games[b].black;
		snprintf(row.result, sizeof row.result, "%s", tournament_result_text(rd->games[b].result));
		if (r == t->core->rounds_paired) {
			row.game_id = t->boards[b].game_id;
			row.absent_deadline_ms = board_deadline_wall(t, &t->boards[b]);
		}
	} else {
		const struct tourney_bye_entry *e = &rd->byes[b - rd->ngames];
		row.white = e->player;
		snprintf(row.result, sizeof row.result, "%c", bye_letters[e->kind]);
	}
	if (db_tourney_pairing_put(db_of(t), t->id, &row) < 0)
		write_failed(t, "round %d board %d", r, b + 1);
}

/* --- talking --- */

struct announce {
	struct tournament *t;
	const char *text;
};

static bool is_participant(const struct tournament *t, const struct session *s)
{
	for (int p = 1; p <= t->core->nplayers; p++)
		if (t->entrants[p].user_id == session_user_id(s))
			return session_registered(s);
	return false;
}

static bool follower_is(const struct follower *f, const struct session *s)
{
	if (f->user_id)
		return f->user_id == session_user_id(s);
	return !session_user_id(s) && f->conn == conn_id(session_conn(s));
}

/* The follower's session while it is online, whatever else now bears the name. */
static struct session *follower_session(struct server *srv, const struct follower *f)
{
	struct session *s = f->user_id ? server_find_account(srv, f->user_id) :
	    server_find_session(srv, f->name);

	return s && follower_is(f, s) ? s : NULL;
}

static void announce_one(struct session *s, void *arg)
{
	session_notify(s, "%s", ((const struct announce *)arg)->text);
}

/* Each participant and follower once, unless the channel already told them. */
static void announce_others(const struct announce *a)
{
	const struct tournament *t = a->t;
	struct server *srv = t->owner->srv;

	for (int p = 1; p <= t->core->nplayers; p++) {
		struct session *s = server_find_account(srv, t->entrants[p].user_id);
		if (s && session_registered(s) && !session_in_channel(s, TOURNAMENT_CHANNEL))
			session_notify(s, "%s", a->text);
	}
	for (int i = 0; i < t->nfollowers; i++) {
		struct session *s = follower_session(srv, &t->followers[i]);
		bool told = !s || session_in_channel(s, TOURNAMENT_CHANNEL) || is_participant(t, s);
		for (int j = 0; j < i && !told; j++)
			told = follower_is(&t->followers[j], s);
		if (!told)
			session_notify(s, "%s", a->text);
	}
}

/* Tells everyone concerned: the participants, the followers and the tournament channel. */
static void broadcast(struct tournament *t, const char *text)
{
	struct announce a = { t, text };

	audience_each_member(t->owner->srv, TOURNAMENT_CHANNEL, announce_one, &a);
	announce_others(&a);
}

/*
 * A line for later, when a change is open: true if it is held (or lost
 * for want of memory, which fails the change), false to send it now.
 */
static bool hold(struct tournament *t, struct session *to, const char *text)
{
	struct change *ch = t->change;

	if (!ch)
		return false;
	struct held *h = realloc(ch->held, (size_t)(ch->nheld + 1) * sizeof *h);
	if (h)
		ch->held = h;
	if (!h || !(h[ch->nheld].text = strdup(text))) {
		ch->failed = true;
		log_error("tourney %lld: out of memory for a held line", (long long)t->id);
		return true;
	}
	h[ch->nheld++].to = to;
	return true;
}

/* An announcement, held back while a change is being made (see change_begin()). */
static void announce(struct tournament *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void announce(struct tournament *t, const char *fmt, ...)
{
	char text[1024];
	int n;
	va_list ap;

	n = snprintf(text, sizeof text, "Tourney %lld (%s): ", (long long)t->id, t->core->name);
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
	va_end(ap);
	if (!hold(t, NULL, text))
		broadcast(t, text);
}

/* The answer to the command making a change: held with its announcements. */
static void reply(struct tournament *t, struct session *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void reply(struct tournament *t, struct session *s, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	if (!hold(t, s, text))
		session_printf(s, "%s", text);
}

/* --- changes: persist, then reply --- */

/*
 * Every command that changes what is stored of a tournament runs between
 * change_begin() and change_end(), which alone decide its fate.  In
 * between, the command changes memory, writes its rows and says what it
 * did with reply() and announce(), which hold their lines.  change_end()
 * commits the rows in a transaction of their own (the pass's earlier
 * writes were committed first, so the failure is this change's): stored,
 * the lines go out; refused, the rows are rolled back, memory is put back
 * as it was at change_begin() and the command's session reads one line,
 * "The server could not save WHAT; nothing was changed."  Nothing inside
 * may start a game (its commit would take the change's rows with it).
 * Returns false, having said so, when there is no memory for the change.
 */
static bool change_begin(struct tournament *t, struct session *s, const char *what, ...)
    __attribute__((format(printf, 3, 4)));

static bool change_begin(struct tournament *t, struct session *s, const char *what, ...)
{
	struct change *ch = calloc(1, sizeof *ch);
	va_list ap;

	if (!ch) {
		session_printf(s, "Out of memory.\n");
		return false;
	}
	ch->s = s;
	va_start(ap, what);
	vsnprintf(ch->what, sizeof ch->what, what, ap);
	va_end(ap);
	ch->before = *t;
	ch->core_before = *t->core;
	db_commit_earlier(db_of(t));
	t->change = ch;
	return true;
}

/* Puts memory back as it was before the change; who follows is not part of it. */
static void change_undo(struct tournament *t, const struct change *ch)
{
	struct tourney *core = t->core;
	struct follower *followers = t->followers;
	int nfollowers = t->nfollowers;

	*t = ch->before;
	*core = ch->core_before;
	t->core = core;
	t->followers = followers;
	t->nfollowers = nfollowers;
}

/* Stores the change and tells of it (true), or undoes it and says so (false). */
static bool change_end(struct tournament *t)
{
	struct change *ch = t->change;
	struct db *db = db_of(t);
	bool stored = !ch->failed && db_commit_now(db) == 0;

	t->change = NULL;
	if (!stored) {
		log_error("tourney %lld: could not save %s; undone", (long long)t->id, ch->what);
		db_rollback(db);
		change_undo(t, ch);
		session_printf(ch->s, "The server could not save %s; nothing was changed.\n", ch->what);
	}
	for (int i = 0; i < ch->nheld; i++) {
		if (stored && ch->held[i].to)
			session_printf(ch->held[i].to, "%s", ch->held[i].text);
		else if (stored)
			broadcast(t, ch->held[i].text);
		free(ch->held[i].text);
	}
	free(ch->held);
	free(ch);
	return stored;
}

static bool may_direct(const struct tournament *t, const struct session *s)
{
	return session_admin(s) || (session_registered(s) && t->director_id &&
	    session_user_id(s) == t->director_id);
}

bool tournament_may_direct(const struct tournament *t, const struct session *s)
{
	return may_direct(t, s);
}

/* The start number of the registered user, or 0. */
static int player_of_user(const struct tournament *t, int64_t user_id)
{
	for (int p = 1; p <= t->core->nplayers; p++)
		if (t->entrants[p].user_id == user_id)
			return p;
	return 0;
}

static int player_named(const struct tournament *t, const char *name)
{
	for (int p = 1; p <= t->core->nplayers; p++)
		if (!strcasecmp(t->core->players[p].name, name))
			return p;
	return 0;
}

/* The player's session when logged in and free to play (not playing or examining), else NULL. */
static struct session *ready_session(struct tournament *t, int p)
{
	struct session *s = server_find_session(t->owner->srv, t->core->players[p].name);

	if (!s || !session_online(s) || !session_registered(s) ||
	    session_user_id(s) != t->entrants[p].user_id || session_game(s) ||
	    session_examining(s))
		return NULL;
	return s;
}

/* --- rounds --- */

static int64_t now_ms(const struct tournament *t)
{
	return server_now_ms(t->owner->srv);
}

static int forfeit_ms(const struct tournament *t)
{
	return server_config(t->owner->srv)->limits.tourney_forfeit_ms;
}

static bool round_complete(const struct tournament *t)
{
	const struct tourney_round *rd = &t->core->rounds[t->core->rounds_paired];

	for (int b = 0; b < rd->ngames; b++)
		if (rd->games[b].result == TOURNEY_RESULT_NONE)
			return false;
	return true;
}

/* Whether p sits this round out: withdrawn by then, or paused. */
static bool sits_out(const struct tournament *t, int p, int r)
{
	const struct tourney_player *pl = &t->core->players[p];

	return (pl->withdrawn_round > 0 && r >= pl->withdrawn_round) || t->entrants[p].paused;
}

int tournament_rounds_done(const struct tournament *t)
{
	int r = t->core->rounds_paired;

	return r > 0 && !round_complete(t) ? r - 1 : r;
}

/*
 * The stored game of board b belongs to it: the board settled some other
 * way (a forfeit, the director), the game ends with the board's result in
 * the same change, as lasker's adjudication ends one, so that nobody can
 * resume it; it rates nobody, as the board's result with no game does.  A
 * forfeit, or a game that could not be kept, leaves no game linked to the
 * board, as account deletion's forfeits do.
 */
static void end_stored_game(struct tournament *t, int b, enum tourney_result res)
{
	const struct tourney *c = t->core;
	const struct tourney_game *g = &c->rounds[c->rounds_paired].games[b];
	struct tboard *bd = &t->boards[b];
	bool white = res == TOURNEY_RESULT_WHITE_WINS || res == TOURNEY_RESULT_WHITE_FORFEIT;
	bool black = res == TOURNEY_RESULT_BLACK_WINS || res == TOURNEY_RESULT_BLACK_FORFEIT;
	char reason[TOURNEY_NAME_MAX + 32];

	if (white || black)
		snprintf(reason, sizeof reason, "%s wins by adjudication",
		    c->players[white ? g->white : g->black].name);
	else
		snprintf(reason, sizeof reason, "Game %s by adjudication",
		    res == TOURNEY_RESULT_DRAW ? "drawn" : "aborted");
	int kept = db_game_end_stored(db_of(t), bd->game_id, white ? "1-0" : black ? "0-1" :
	    res == TOURNEY_RESULT_DRAW ? "1/2-1/2" : "*", reason, TERMINATION_ADJUDICATION);
	if (kept < 0)
		write_failed(t, "the end of game #%lld", (long long)bd->game_id);
	if (kept <= 0 || res == TOURNEY_RESULT_WHITE_FORFEIT ||
	    res == TOURNEY_RESULT_BLACK_FORFEIT || res == TOURNEY_RESULT_DOUBLE_FORFEIT)
		bd->game_id = 0;
	bd->adjourned = false;
}

/* Records a result on board b of the current round, and says so. */
static void record_result(struct tournament *t, int b, enum tourney_result res, const char *why)
{
	struct tourney *c = t->core;
	struct tourney_game *g = &c->rounds[c->rounds_paired].games[b];

	if (t->boards[b].adjourned && t->boards[b].game_id)
		end_stored_game(t, b, res);
	g->result = res;
	t->boards[b].state = BOARD_DONE;
	t->boards[b].game_number = 0;
	save_board(t, c->rounds_paired, b);
	announce(t, "round %d board %d: %s - %s %s%s%s", c->rounds_paired, b + 1,
	    c->players[g->white].name, c->players[g->black].name, tournament_result_text(res),
	    why ? " " : "", why ? why : "");
}

/* Lists the round's pairings to everyone concerned. */
static void announce_round(struct tournament *t)
{
	const struct tourney *c = t->core;
	const struct tourney_round *rd = &c->rounds[c->rounds_paired];
	char text[900];
	size_t used = 0;

	for (int b = 0; b < rd->ngames && used < sizeof text; b++)
		used += (size_t)snprintf(text + used, sizeof text - used, "%s%s-%s", b ? ", " : "",
		    c->players[rd->games[b].white].name, c->players[rd->games[b].black].name);
	for (int i = 0; i < rd->nbyes && used < sizeof text; i++)
		used += (size_t)snprintf(text + used, sizeof text - used, "; bye (%c) %s",
		    bye_letters[rd->byes[i].kind], c->players[rd->byes[i].player].name);
	announce(t, "round %d of %d paired: %s", c->rounds_paired, c->nrounds, text);
}

/* Appends rows[from..to-1]'s names as "a, b and c". */
static void join_names(const struct tourney *c, const struct tiebreak_row *rows, int from, int to,
    char *buf, size_t len)
{
	size_t used = strlen(buf);

	for (int i = from; i < to && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i == from ? "" :
		    i == to - 1 ? " and " : ", ", c->players[rows[i].player].name);
}

/*
 * First place as the end announces it: one winner; a winner on tie-break,
 * naming the tie-break and who was level on points; or, when the
 * tie-breaks do not separate them either, first place shared, naming all.
 */
static void first_place_text(const struct tournament *t, const struct tiebreak_row *rows,
    char *buf, size_t len)
{
	const struct tourney *c = t->core;
	int level = 1, shared = 1;
	double points = rows[0].points_half / 2.0;
	const char *unit = rows[0].points_half == 2 ? "point" : "points";

	while (level < c->nplayers && rows[level].points_half == rows[0].points_half)
		level++;
	while (shared < c->nplayers && rows[shared].rank == rows[0].rank)
		shared++;
	if (shared > 1) {
		snprintf(buf, len, "First place is shared by ");
		join_names(c, rows, 0, shared, buf, len);
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, " with %g %s each.", points, unit);
		return;
	}
	snprintf(buf, len, "Winner: %s with %g %s", c->players[rows[0].player].name, points, unit);
	if (level == 1) {
		strncat(buf, ".", len - strlen(buf) - 1);
		return;
	}
	/* Level on points but not on rank: a tie-break decided (the first that differs). */
	int k = 0;
	while (k < t->ntiebreaks - 1 && rows[0].value[k] == rows[1].value[k])
		k++;
	strncat(buf, ", ahead of ", len - strlen(buf) - 1);
	join_names(c, rows, 1, level, buf, len);
	size_t used = strlen(buf);
	snprintf(buf + used, len - used, " on tie-break (%s).", tiebreak_name(t->tiebreaks[k]));
}

static void finish(struct tournament *t)
{
	struct tiebreak_row *rows = calloc((size_t)t->core->nplayers + 1, sizeof *rows);
	char err[128];

	t->state = TOURNAMENT_FINISHED;
	t->finished = (int64_t)time(NULL);
	save_tourney(t);
	if (rows && tiebreak_standings(t->core, t->core->rounds_paired, t->tiebreaks, t->ntiebreaks,
	    rows, err, sizeof err) == 0 && t->core->nplayers > 0) {
		char first[800];
		first_place_text(t, rows, first, sizeof first);
		announce(t, "finished.  %s  See \"tourney show %lld\".", first, (long long)t->id);
	} else {
		announce(t, "finished.");
	}
	free(rows);
	log_info("tourney %lld finished", (long long)t->id);
}

/* Fills round r by the Berger tables; withdrawn and paused players forfeit. */
static int pair_berger(struct tournament *t, int r, char *err, size_t errlen)
{
	struct tourney *c = t->core;
	struct pairing_pair pairs[PAIRING_BERGER_MAX / 2 + 1];
	int bye;
	int n = pairing_berger(c->nplayers, r, t->kind == TOURNAMENT_DRR, pairs, &bye, err, errlen);

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		bool w_out = sits_out(t, pairs[i].white, r), b_out = sits_out(t, pairs[i].black, r);
		enum tourney_result res = w_out && b_out ? TOURNEY_RESULT_DOUBLE_FORFEIT :
		    w_out ? TOURNEY_RESULT_BLACK_FORFEIT : b_out ? TOURNEY_RESULT_WHITE_FORFEIT :
		    TOURNEY_RESULT_NONE;
		tourney_game_add(c, r, pairs[i].white, pairs[i].black, res);
	}
	return 0;
}

/* Fills round r by the Dutch system; paused players get a zero-point bye. */
static int pair_dutch(struct tournament *t, int r, char *err, size_t errlen)
{
	struct tourney *c = t->core;
	struct tourney_round *out = calloc(1, sizeof *out);

	if (!out) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int p = 1; p <= c->nplayers; p++)
		if (t->entrants[p].paused && c->players[p].requested[r] == TOURNEY_BYE_NONE)
			c->players[p].requested[r] = TOURNEY_BYE_ZERO;
	if (pairing_dutch(c, r, out, err, errlen) < 0) {
		free(out);
		return -1;
	}
	for (int i = 0; i < out->ngames; i++)
		tourney_game_add(c, r, out->games[i].white, out->games[i].black, TOURNEY_RESULT_NONE);
	for (int i = 0; i < out->nbyes; i++)
		tourney_bye_add(c, r, out->byes[i].player, out->byes[i].kind);
	free(out);
	return 0;
}

/* Pairs the next round and saves it; on failure the tournament pauses. */
static void pair_next(struct tournament *t)
{
	struct tourney *c = t->core;
	int r = c->rounds_paired + 1;
	char err[256];

	memset(&c->rounds[r], 0, sizeof c->rounds[r]);
	int rc = t->kind == TOURNAMENT_SWISS ? pair_dutch(t, r, err, sizeof err) :
	    pair_berger(t, r, err, sizeof err);
	if (rc < 0) {
		memset(&c->rounds[r], 0, sizeof c->rounds[r]);
		c->rounds_paired = r - 1;
		t->state = TOURNAMENT_PAUSED;
		save_tourney(t);
		announce(t, "round %d could not be paired (%s); the tournament is paused.", r, err);
		log_error("tourney %lld: round %d: %s", (long long)t->id, r, err);
		return;
	}
	c->rounds_paired = r;
	const struct tourney_round *rd = &c->rounds[r];
	int64_t deadline = now_ms(t) + forfeit_ms(t);
	for (int b = 0; b < rd->ngames; b++)
		t->boards[b] = (struct tboard){ .state = rd->games[b].result == TOURNEY_RESULT_NONE ?
		    BOARD_WAITING : BOARD_DONE, .deadline_ms = deadline };
	for (int b = 0; b < rd->ngames + rd->nbyes; b++)
		save_board(t, r, b);
	save_tourney(t);
	announce_round(t);
	for (int b = 0; b < rd->ngames; b++)
		if (rd->games[b].result != TOURNEY_RESULT_NONE)
			announce(t, "round %d board %d: %s - %s %s (withdrawn or paused)", r, b + 1,
			    c->players[rd->games[b].white].name, c->players[rd->games[b].black].name,
			    tournament_result_text(rd->games[b].result));
	log_info("tourney %lld: round %d paired (%d games, %d byes)", (long long)t->id, r,
	    rd->ngames, rd->nbyes);
}

static void follow_board(struct tournament *t, struct game *g)
{
	for (int i = 0; i < t->nfollowers; i++) {
		struct session *s = follower_session(t->owner->srv, &t->followers[i]);
		char err[128];
		if (s && session_online(s) && game_color_of(g, s) < 0)
			game_watch(g, s, err, sizeof err);
	}
}

/* Starts (or continues) the game on board b when both players are here. */
static bool start_board(struct tournament *t, int b)
{
	struct tourney *c = t->core;
	int r = c->rounds_paired;
	struct tourney_game *tg = &c->rounds[r].games[b];
	struct tboard *bd = &t->boards[b];
	struct session *w = ready_session(t, tg->white), *k = ready_session(t, tg->black);
	char err[160];
	struct game *g = NULL;

	if (!w || !k)
		return false;
	if (bd->adjourned && bd->game_id) {
		g = game_resume(t->owner->srv, bd->game_id, w, k, err, sizeof err);
		if (!g) {
			log_warn("tourney %lld: round %d board %d: cannot resume game #%lld (%s); "
			    "replaying it", (long long)t->id, r, b + 1, (long long)bd->game_id, err);
			bd->adjourned = false;
		}
	}
	if (!g) {
		struct game_params p = { .tc = t->tc, .rated = t->rated, .tourney_id = t->id,
		    .tourney_round = r, .tourney_board = b + 1 };
		g = game_start(t->owner->srv, w, k, &p, err, sizeof err);
	}
	if (!g) {
		log_error("tourney %lld: round %d board %d: %s", (long long)t->id, r, b + 1, err);
		return false;
	}
	bd->state = BOARD_PLAYING;
	bd->adjourned = false;
	bd->game_id = game_id(g);
	bd->game_number = game_number(g);
	save_board(t, r, b);
	follow_board(t, g);
	return true;
}

/*
 * Moves one running tournament on: starts the games whose players are here,
 * forfeits those whose time to appear is up, pairs the next round when this
 * one is complete.  Returns the earliest deadline still pending, or 0.
 */
static int64_t advance(struct tournament *t)
{
	struct tourney *c = t->core;
	int64_t next = 0;

	for (int guard = 0; guard <= TOURNEY_ROUNDS_MAX; guard++) {
		if (t->state != TOURNAMENT_RUNNING && t->state != TOURNAMENT_PAUSED)
			return 0;
		if (c->rounds_paired > 0) {
			const struct tourney_round *rd = &c->rounds[c->rounds_paired];
			int64_t now = now_ms(t);
			for (int b = 0; b < rd->ngames; b++) {
				struct tboard *bd = &t->boards[b];
				if (bd->state != BOARD_WAITING || start_board(t, b))
					continue;
				if (now < bd->deadline_ms) {
					if (!next || bd->deadline_ms < next)
						next = bd->deadline_ms;
					continue;
				}
				bool w = ready_session(t, rd->games[b].white) != NULL;
				bool k = ready_session(t, rd->games[b].black) != NULL;
				record_result(t, b, !w && !k ? TOURNEY_RESULT_DOUBLE_FORFEIT :
				    !w ? TOURNEY_RESULT_BLACK_FORFEIT : TOURNEY_RESULT_WHITE_FORFEIT,
				    "(forfeit: absent)");
			}
			if (!round_complete(t))
				return next;
			if (c->rounds_paired >= c->nrounds) {
				finish(t);
				return 0;
			}
		}
		if (t->state != TOURNAMENT_RUNNING)
			return next;
		pair_next(t);
	}
	return next;
}

static void tick(evutil_socket_t fd, short what, void *arg)
{
	struct tournaments *ts = arg;
	int64_t next = 0;

	(void)fd;
	(void)what;
	/* Shutting down: the boards a shutdown adjourns wait for the restart. */
	if (server_stopping(ts->srv))
		return;
	for (int i = 0; i < ts->count; i++) {
		int64_t at = advance(ts->list[i]);
		if (at && (!next || at < next))
			next = at;
	}
	if (next) {
		int64_t delay = next - server_now_ms(ts->srv);
		schedule(ts, delay < 0 ? 0 : delay < TOURNAMENT_POLL_MS ? delay : TOURNAMENT_POLL_MS);
	}
}

/*
 * Settles board b by forfeit when a side's account was deleted, whatever its
 * game's state: not begun, adjourned, or just ended by the deletion (a
 * forfeit, not a game: no game is linked to the board).  False when both
 * accounts are still there.
 */
static bool deleted_forfeit(struct tournament *t, int b)
{
	const struct tourney_game *g = &t->core->rounds[t->core->rounds_paired].games[b];
	bool w_gone = t->entrants[g->white].deleted, b_gone = t->entrants[g->black].deleted;

	if (!w_gone && !b_gone)
		return false;
	t->boards[b].game_id = 0;
	record_result(t, b, w_gone && b_gone ? TOURNEY_RESULT_DOUBLE_FORFEIT :
	    w_gone ? TOURNEY_RESULT_BLACK_FORFEIT : TOURNEY_RESULT_WHITE_FORFEIT,
	    "(forfeit: the account was deleted)");
	return true;
}

void tournament_game_over(struct server *srv, int64_t tourney_id, int round, int board,
    int64_t game_id, enum result r, enum game_status status)
{
	struct tournaments *ts = server_tournaments(srv);
	struct tournament *t = ts ? tournaments_find(ts, tourney_id) : NULL;

	if (!t || round != t->core->rounds_paired || board < 1 ||
	    board > t->core->rounds[round].ngames || t->boards[board - 1].state == BOARD_DONE) {
		log_info("tourney %lld: game #%lld (round %d board %d) ended after the board was "
		    "settled; ignored", (long long)tourney_id, (long long)game_id, round, board);
		return;
	}
	struct tboard *bd = &t->boards[board - 1];
	if (deleted_forfeit(t, board - 1)) {
		schedule(ts, 0);
		return;
	}
	if (status == GAME_FINISHED && r != RESULT_NONE) {
		bd->game_id = game_id;
		bd->adjourned = false;
		record_result(t, board - 1, r == RESULT_WHITE_WINS ? TOURNEY_RESULT_WHITE_WINS :
		    r == RESULT_BLACK_WINS ? TOURNEY_RESULT_BLACK_WINS : TOURNEY_RESULT_DRAW, NULL);
	} else {
		bool adjourned = status == GAME_ADJOURNED;
		*bd = (struct tboard){ .state = BOARD_WAITING, .adjourned = adjourned,
		    .game_id = adjourned ? game_id : 0,
		    .deadline_ms = server_now_ms(srv) + forfeit_ms(t) };
		save_board(t, round, board - 1);
		announce(t, "round %d board %d: the game was %s; it %s when both players are here.",
		    round, board, db_game_status_name(status), adjourned ? "continues" : "starts again");
	}
	schedule(ts, 0);
}

void tournament_game_resumed(struct server *srv, int64_t tourney_id, int round, int board,
    int64_t game_id, int game_number)
{
	struct tournaments *ts = server_tournaments(srv);
	struct tournament *t = ts ? tournaments_find(ts, tourney_id) : NULL;

	if (!t || round != t->core->rounds_paired || board < 1 ||
	    board > t->core->rounds[round].ngames || t->boards[board - 1].state != BOARD_WAITING)
		return;
	struct tboard *bd = &t->boards[board - 1];
	bd->state = BOARD_PLAYING;
	bd->adjourned = false;
	bd->game_id = game_id;
	bd->game_number = game_number;
	save_board(t, round, board - 1);
}

/*
 * A game of the board was aborted.  Aborting buys no time: the board waits
 * again with the deadline of its pairing, and a side that has aborted
 * tourney_aborts games of the board loses it by forfeit.
 */
void tournament_game_aborted(struct server *srv, int64_t tourney_id, int round, int board, int by)
{
	struct tournaments *ts = server_tournaments(srv);
	struct tournament *t = ts ? tournaments_find(ts, tourney_id) : NULL;

	if (!t || round != t->core->rounds_paired || board < 1 ||
	    board > t->core->rounds[round].ngames || t->boards[board - 1].state == BOARD_DONE) {
		log_info("tourney %lld: an aborted game of round %d board %d came after the board was "
		    "settled; ignored", (long long)tourney_id, round, board);
		return;
	}
	struct tboard *bd = &t->boards[board - 1];
	int limit = server_config(srv)->limits.tourney_aborts;
	if (deleted_forfeit(t, board - 1)) {
		schedule(ts, 0);
		return;
	}
	for (int c = WHITE; c <= BLACK; c++)
		if (by < 0 || by == c)
			bd->aborts[c]++;
	bool white_out = bd->aborts[WHITE] >= limit, black_out = bd->aborts[BLACK] >= limit;
	if (white_out || black_out) {
		record_result(t, board - 1, white_out && black_out ? TOURNEY_RESULT_DOUBLE_FORFEIT :
		    white_out ? TOURNEY_RESULT_BLACK_FORFEIT : TOURNEY_RESULT_WHITE_FORFEIT,
		    "(forfeit: aborted too often)");
	} else {
		bd->state = BOARD_WAITING;
		bd->adjourned = false;
		bd->game_id = 0;
		bd->game_number = 0;
		save_board(t, round, board - 1);
		announce(t, "round %d board %d: the game was aborted; it starts again when both "
		    "players are here.", round, board);
	}
	schedule(ts, 0);
}

/* --- loading --- */

struct load {
	struct tournaments *ts;
	struct tournament *t;
	int failed;
};

static void load_player(void *arg, const struct db_tourney_player *row)
{
	struct load *l = arg;
	struct tournament *t = l->t;
	int p = tourney_player_add(t->core, row->name, row->rating);

	if (p < 0) {
		l->failed = 1;
		return;
	}
	t->core->players[p].withdrawn_round = row->withdrawn_round;
	t->entrants[p] = (struct entrant){ .user_id = row->user_id, .joined = row->joined,
	    .paused = row->paused };
	if (row->joined >= t->next_joined)
		t->next_joined = row->joined + 1;
}

static void load_bye(void *arg, int64_t user_id, int round, const char *kind)
{
	struct load *l = arg;
	int p = player_of_user(l->t, user_id);

	if (p && round >= 1 && round <= TOURNEY_ROUNDS_MAX)
		l->t->core->players[p].requested[round] = bye_parse(kind);
}

static void load_pairing(void *arg, const struct db_tourney_pairing *row)
{
	struct load *l = arg;
	struct tourney *c = l->t->core;
	enum tourney_result res;

	if (row->black == 0) {
		if (tourney_bye_add(c, row->round, row->white, bye_parse(row->result)) < 0)
			l->failed = 1;
		return;
	}
	if (tournament_result_parse(row->result, &res) < 0)
		res = TOURNEY_RESULT_NONE;
	if (tourney_game_add(c, row->round, row->white, row->black, res) < 0) {
		l->failed = 1;
		return;
	}
	if (row->board >= 1 && row->board <= TOURNEY_GAMES_MAX) {
		/* The last round's row wins; load_boards() makes its deadline monotonic. */
		l->t->boards[row->board - 1].game_id = row->game_id;
		l->t->boards[row->board - 1].deadline_ms = row->absent_deadline_ms;
	}
}

/*
 * A board whose game's end is stored, but not the board's result (that row
 * follows the game's in a later commit, which may have failed): the game's
 * row decides, as it decided what the players were told.
 */
static void settle_from_game(struct tournament *t, int b)
{
	struct tourney_game *tg = &t->core->rounds[t->core->rounds_paired].games[b];
	struct tboard *bd = &t->boards[b];
	enum tourney_result res;
	struct db_game row;

	if (tg->result != TOURNEY_RESULT_NONE || !bd->game_id ||
	    db_game_load(db_of(t), bd->game_id, &row) <= 0 || row.status != GAME_FINISHED ||
	    tournament_result_parse(row.result, &res) < 0 || res == TOURNEY_RESULT_NONE)
		return;
	tg->result = res;
	save_board(t, t->core->rounds_paired, b);
	log_info("tourney %lld: round %d board %d settled from game #%lld: %s", (long long)t->id,
	    t->core->rounds_paired, b + 1, (long long)bd->game_id, row.result);
}

/*
 * The state of each board of the current round after a restart: settled,
 * or waiting for its players (to continue an adjourned game, or to start).
 * A board that was waiting keeps the deadline it had, but not earlier than
 * the reconnect grace from now (a restart drops everyone); one whose game
 * the restart interrupted gets a fresh period, saved so that the next
 * restart does not renew it.
 */
static void load_boards(struct tournament *t)
{
	const struct tourney *c = t->core;
	const struct tourney_round *rd = &c->rounds[c->rounds_paired];
	int64_t fresh = now_ms(t) + forfeit_ms(t);
	/* A deadline that fell while the server was down waits for those it dropped. */
	int grace = server_config(t->owner->srv)->limits.reconnect_grace_ms;
	int64_t back = now_ms(t) + (grace < forfeit_ms(t) ? grace : forfeit_ms(t));

	for (int b = 0; b < rd->ngames; b++) {
		struct tboard *bd = &t->boards[b];
		struct db_game row;
		settle_from_game(t, b);
		if (rd->games[b].result != TOURNEY_RESULT_NONE) {
			bd->state = BOARD_DONE;
			bd->deadline_ms = 0;
			continue;
		}
		bd->state = BOARD_WAITING;
		bd->deadline_ms = bd->deadline_ms ? board_deadline_mono(t, bd->deadline_ms) : fresh;
		if (bd->deadline_ms < back)
			bd->deadline_ms = back;
		bd->adjourned = bd->game_id && db_game_load(db_of(t), bd->game_id, &row) > 0 &&
		    row.status == GAME_ADJOURNED;
		if (!bd->adjourned)
			bd->game_id = 0;
		save_board(t, c->rounds_paired, b);
	}
}

static void load_tourney(void *arg, const struct db_tourney *row)
{
	struct load *l = arg;
	struct tournament *t = tournament_alloc(l->ts);
	char err[160];

	if (!t) {
		log_error("tourney %lld: no room in memory; not loaded", (long long)row->id);
		return;
	}
	tourney_init(t->core, row->name, row->rounds);
	t->id = row->id;
	t->rated = row->rated;
	t->director_id = row->director_id;
	snprintf(t->director, sizeof t->director, "%s", row->director);
	snprintf(t->tc_text, sizeof t->tc_text, "%s", row->time_control);
	t->created = row->created;
	t->finished = row->finished;
	t->web_delay_s = row->web_delay_s;
	t->core->pairing_bye_half = row->bye_half == 1 ? 1 : 2;
	t->ntiebreaks = tournament_tiebreaks_parse(row->tiebreaks, t->tiebreaks);
	if (kind_parse(row->kind, &t->kind) < 0 || state_parse(row->state, &t->state) < 0 ||
	    t->ntiebreaks < 0 || clock_parse(&t->tc, row->time_control, err, sizeof err) < 0) {
		log_error("tourney %lld: bad stored settings; skipped", (long long)row->id);
		tournament_free(t);
		return;
	}
	t->core->system = t->kind == TOURNAMENT_SWISS ? TOURNEY_SWISS : TOURNEY_ROUND_ROBIN;
	l->ts->list[l->ts->count++] = t;
}

int tournaments_load(struct tournaments *ts)
{
	struct load l = { ts, NULL, 0 };
	char err[160];

	if (db_tourney_each(server_db(ts->srv), load_tourney, &l) < 0)
		return -1;
	for (int i = 0; i < ts->count; i++) {
		struct tournament *t = l.t = ts->list[i];
		l.failed = 0;
		if (db_tourney_players(server_db(ts->srv), t->id, load_player, &l) < 0 ||
		    db_tourney_byes(server_db(ts->srv), t->id, load_bye, &l) < 0 ||
		    db_tourney_pairings(server_db(ts->srv), t->id, load_pairing, &l) < 0 || l.failed ||
		    tourney_validate(t->core, err, sizeof err) < 0) {
			log_error("tourney %lld: stored rounds are inconsistent", (long long)t->id);
			return -1;
		}
		if (t->state == TOURNAMENT_RUNNING || t->state == TOURNAMENT_PAUSED) {
			load_boards(t);
			log_info("tourney %lld (%s) resumes in round %d", (long long)t->id, t->core->name,
			    t->core->rounds_paired);
		}
	}
	if (ts->count)
		schedule(ts, 0);
	return 0;
}

/* --- the verbs --- */

struct tournament *tournament_create(struct tournaments *ts, struct session *director,
    const char *name, enum tournament_kind kind, int rounds, const char *time_control,
    bool rated)
{
	struct tournament *t;
	char err[160];

	if (!session_registered(director)) {
		session_printf(director, "Only registered players can create tournaments.\n");
		return NULL;
	}
	int open = 0;
	for (int i = 0; i < ts->count; i++)
		if (ts->list[i]->director_id == session_user_id(director) &&
		    ts->list[i]->state != TOURNAMENT_FINISHED)
			open++;
	if (open >= LIMIT_TOURNEYS_PER_DIRECTOR && !session_admin(director)) {
		session_printf(director, "You already direct %d tournaments that are not finished.\n",
		    open);
		return NULL;
	}
	if (!(t = tournament_alloc(ts))) {
		session_printf(director, "No more tournaments can be created.\n");
		return NULL;
	}
	if (clock_parse(&t->tc, time_control, err, sizeof err) < 0) {
		session_printf(director, "Bad time control: %s\n", err);
		tournament_free(t);
		return NULL;
	}
	tourney_init(t->core, name, rounds);
	t->kind = kind;
	t->core->system = kind == TOURNAMENT_SWISS ? TOURNEY_SWISS : TOURNEY_ROUND_ROBIN;
	clock_format(&t->tc, t->tc_text, sizeof t->tc_text);
	t->rated = rated;
	t->state = TOURNAMENT_CREATED;
	t->director_id = session_user_id(director);
	snprintf(t->director, sizeof t->director, "%s", session_name(director));
	memcpy(t->tiebreaks, default_tiebreaks, sizeof default_tiebreaks);
	t->ntiebreaks = (int)(sizeof default_tiebreaks / sizeof default_tiebreaks[0]);
	t->created = (int64_t)time(NULL);
	t->next_joined = 1;
	t->web_delay_s = -1;

	struct db_tourney row = { .rounds = t->core->nrounds, .rated = rated,
	    .director_id = t->director_id, .bye_half = t->core->pairing_bye_half,
	    .created = t->created };
	snprintf(row.name, sizeof row.name, "%s", t->core->name);
	snprintf(row.kind, sizeof row.kind, "%s", tournament_kind_name(kind));
	snprintf(row.time_control, sizeof row.time_control, "%s", t->tc_text);
	snprintf(row.director, sizeof row.director, "%s", t->director);
	snprintf(row.state, sizeof row.state, "created");
	tiebreaks_text(t, row.tiebreaks, sizeof row.tiebreaks);
	if (!change_begin(t, director, "the new tourney \"%s\"", t->core->name)) {
		tournament_free(t);
		return NULL;
	}
	if ((t->id = db_tourney_insert(server_db(ts->srv), &row)) < 0) {
		write_failed(t, "the new tourney");
	} else {
		reply(t, director, "Created tourney %lld \"%s\": %s, %d rounds, %s %s.  Players join "
		    "with \"tourney join %lld\"; start it with \"tourney start %lld\".\n",
		    (long long)t->id, t->core->name, tournament_kind_name(kind), t->core->nrounds,
		    rated ? "rated" : "unrated", t->tc_text, (long long)t->id, (long long)t->id);
		announce(t, "created by %s: %s, %s %s.  \"tourney join %lld\" to play.", t->director,
		    tournament_kind_name(kind), rated ? "rated" : "unrated", t->tc_text,
		    (long long)t->id);
	}
	if (!change_end(t)) {
		tournament_free(t);
		return NULL;
	}
	ts->list[ts->count++] = t;
	log_info("tourney %lld created by %s", (long long)t->id, t->director);
	return t;
}

void tournament_join(struct tournament *t, struct session *s)
{
	struct tourney *c = t->core;
	struct rating r;

	if (!session_registered(s)) {
		session_printf(s, "Only registered players can play in tournaments.\n");
		return;
	}
	if (t->state != TOURNAMENT_CREATED) {
		session_printf(s, "Tourney %lld has already started.\n", (long long)t->id);
		return;
	}
	if (player_of_user(t, session_user_id(s))) {
		session_printf(s, "You are already in tourney %lld.\n", (long long)t->id);
		return;
	}
	int max = t->kind == TOURNAMENT_SWISS ? TOURNEY_PLAYERS_MAX : PAIRING_BERGER_MAX;
	if (c->nplayers >= max) {
		session_printf(s, "Tourney %lld is full (%d players).\n", (long long)t->id, max);
		return;
	}
	rating_load(db_of(t), session_user_id(s), clock_category(&t->tc), &r);
	if (!change_begin(t, s, "your entry to tourney %lld", (long long)t->id))
		return;
	int p = tourney_player_add(c, session_name(s),
	    rating_games(&r) ? (int)(r.value.rating + 0.5) : 0);
	t->entrants[p] = (struct entrant){ .user_id = session_user_id(s),
	    .joined = t->next_joined++ };
	save_player(t, p);
	reply(t, s, "You join tourney %lld (%s); %d players so far.\n", (long long)t->id, c->name,
	    c->nplayers);
	announce(t, "%s joins (%d players).", session_name(s), c->nplayers);
	change_end(t);
}

/* Takes player p out before the start, closing the gap in the numbering. */
static void remove_entrant(struct tournament *t, int p)
{
	struct tourney *c = t->core;

	if (db_tourney_player_remove(db_of(t), t->id, t->entrants[p].user_id) < 0)
		write_failed(t, "the departure of %s", c->players[p].name);
	for (int r = 1; r <= TOURNEY_ROUNDS_MAX; r++)
		if (c->players[p].requested[r] != TOURNEY_BYE_NONE &&
		    db_tourney_bye_set(db_of(t), t->id, t->entrants[p].user_id, r, NULL) < 0)
			write_failed(t, "the byes of %s", c->players[p].name);
	memmove(&c->players[p], &c->players[p + 1], (size_t)(c->nplayers - p) * sizeof c->players[0]);
	memmove(&t->entrants[p], &t->entrants[p + 1], (size_t)(c->nplayers - p) * sizeof t->entrants[0]);
	c->nplayers--;
}

static int rating_order(const void *a, const void *b, void *arg)
{
	const struct tourney *c = arg;
	const struct tourney_player *x = &c->players[*(const int *)a];
	const struct tourney_player *y = &c->players[*(const int *)b];

	if (x->rating != y->rating)
		return x->rating > y->rating ? -1 : 1;
	return strcasecmp(x->name, y->name);
}

/*
 * Numbers the players by their ratings now, then name.  Only inside a
 * change: its copy of the tournament from before holds the old order.
 */
static void seed_players(struct tournament *t)
{
	struct tourney *c = t->core;
	const struct change *ch = t->change;
	int order[TOURNEY_PLAYERS_MAX], rating[TOURNEY_PLAYERS_MAX + 1];

	for (int p = 1; p <= c->nplayers; p++) {
		struct rating r;
		order[p - 1] = p;
		rating_load(db_of(t), t->entrants[p].user_id, clock_category(&t->tc), &r);
		rating[p] = c->players[p].rating = rating_games(&r) ? (int)(r.value.rating + 0.5) : 0;
	}
	qsort_r(order, (size_t)c->nplayers, sizeof order[0], rating_order, c);
	for (int i = 0; i < c->nplayers; i++) {
		c->players[i + 1] = ch->core_before.players[order[i]];
		c->players[i + 1].rating = rating[order[i]];
		t->entrants[i + 1] = ch->before.entrants[order[i]];
	}
}

void tournament_start(struct tournament *t, struct session *s)
{
	struct tourney *c = t->core;
	int nrounds = c->nrounds;

	if (t->state != TOURNAMENT_CREATED) {
		session_printf(s, "Tourney %lld has already started.\n", (long long)t->id);
		return;
	}
	int min = t->kind == TOURNAMENT_SWISS ? 2 : PAIRING_BERGER_MIN;
	if (c->nplayers < min) {
		session_printf(s, "Tourney %lld needs at least %d players.\n", (long long)t->id, min);
		return;
	}
	if (t->kind != TOURNAMENT_SWISS) {
		nrounds = pairing_berger_rounds(c->nplayers, t->kind == TOURNAMENT_DRR);
		if (nrounds > TOURNEY_ROUNDS_MAX) {
			session_printf(s, "A round robin of %d players needs more than %d rounds.\n",
			    c->nplayers, TOURNEY_ROUNDS_MAX);
			return;
		}
	} else if (nrounds < 1) {
		session_printf(s, "Tourney %lld has no rounds; set them when creating it.\n",
		    (long long)t->id);
		return;
	}
	/* The start and round 1's pairings stand or fall together; its games start after. */
	if (!change_begin(t, s, "the start of tourney %lld", (long long)t->id))
		return;
	c->nrounds = nrounds;
	seed_players(t);
	t->state = TOURNAMENT_RUNNING;
	for (int p = 1; p <= c->nplayers; p++)
		save_player(t, p);
	reply(t, s, "Tourney %lld starts: %d players, %d rounds.\n", (long long)t->id, c->nplayers,
	    c->nrounds);
	announce(t, "starts with %d players, %d rounds.", c->nplayers, c->nrounds);
	pair_next(t);		/* which saves the tournament's row */
	if (!change_end(t))
		return;
	log_info("tourney %lld started with %d players", (long long)t->id, c->nplayers);
	advance(t);
	schedule(t->owner, TOURNAMENT_POLL_MS);
}

/* The player a command names (NULL: the session's own), or 0 after saying why not. */
static int named_player(struct tournament *t, struct session *s, const char *name)
{
	int p = name ? player_named(t, name) : player_of_user(t, session_user_id(s));

	if (!p) {
		if (name)
			session_printf(s, "%s is not in tourney %lld.\n", name, (long long)t->id);
		else
			session_printf(s, "You are not in tourney %lld.\n", (long long)t->id);
		return 0;
	}
	if (name && !may_direct(t, s) && p != player_of_user(t, session_user_id(s))) {
		session_printf(s, "Only the director (%s) or an admin can do that for %s.\n",
		    t->director, t->core->players[p].name);
		return 0;
	}
	return p;
}

/*
 * Withdraws player p of a tournament under way from the next round on (told
 * to s, who asked, if any); a game of this round not begun yet is lost by
 * forfeit.
 */
static void withdraw(struct tournament *t, int p, struct session *s)
{
	struct tourney *c = t->core;
	int r = c->rounds_paired;

	c->players[p].withdrawn_round = r + 1;
	save_player(t, p);
	if (s)
		reply(t, s, "%s is withdrawn from tourney %lld from round %d.\n", c->players[p].name,
		    (long long)t->id, r + 1);
	announce(t, "%s withdraws; not paired from round %d.", c->players[p].name, r + 1);
	const struct tourney_round *rd = &c->rounds[r];
	for (int b = 0; r > 0 && b < rd->ngames; b++)
		if (t->boards[b].state == BOARD_WAITING &&
		    (rd->games[b].white == p || rd->games[b].black == p))
			record_result(t, b, rd->games[b].white == p ? TOURNEY_RESULT_BLACK_FORFEIT :
			    TOURNEY_RESULT_WHITE_FORFEIT, "(forfeit: withdrawn)");
	schedule(t->owner, 0);
}

/*
 * The database side (db_user_remove()) has already ended the account's
 * adjourned games and forfeited its boards of the current round; memory
 * follows: each board of the round it has not finished is a forfeit now,
 * and a game it is playing becomes one as it ends (account_forget() ends
 * it next, through tournament_game_over() or tournament_game_aborted()).
 */
void tournaments_account_deleted(struct tournaments *ts, int64_t user_id)
{
	for (int i = 0; ts && i < ts->count; i++) {
		struct tournament *t = ts->list[i];
		if (t->director_id == user_id)
			t->director_id = 0;	/* the database cleared it (foreign key) */
		int p = player_of_user(t, user_id);
		if (!p || t->state == TOURNAMENT_FINISHED)
			continue;
		if (t->state == TOURNAMENT_CREATED) {
			announce(t, "%s leaves: the account was deleted.", t->core->players[p].name);
			remove_entrant(t, p);
			continue;
		}
		/* The entry stays (withdrawn) under the old id, which is never reused;
		 * the byes it asked for went with the account's rows. */
		t->entrants[p].deleted = true;
		memset(t->core->players[p].requested, 0, sizeof t->core->players[p].requested);
		const struct tourney_round *rd = &t->core->rounds[t->core->rounds_paired];
		for (int b = 0; t->core->rounds_paired && b < rd->ngames; b++)
			if (t->boards[b].state == BOARD_WAITING)
				deleted_forfeit(t, b);
		if (!t->core->players[p].withdrawn_round)
			withdraw(t, p, NULL);
	}
}

void tournament_withdraw(struct tournament *t, struct session *s, const char *name)
{
	struct tourney *c = t->core;
	int p = named_player(t, s, name);

	if (!p)
		return;
	char who[TOURNEY_NAME_MAX];
	snprintf(who, sizeof who, "%s", c->players[p].name);
	if (t->state == TOURNAMENT_CREATED) {
		if (!change_begin(t, s, "%s leaving tourney %lld", who, (long long)t->id))
			return;
		remove_entrant(t, p);
		reply(t, s, "%s left tourney %lld.\n", who, (long long)t->id);
		announce(t, "%s leaves (%d players).", who, c->nplayers);
		change_end(t);
		return;
	}
	if (t->state == TOURNAMENT_FINISHED || c->players[p].withdrawn_round) {
		session_printf(s, "%s cannot withdraw from tourney %lld now.\n", who, (long long)t->id);
		return;
	}
	if (!change_begin(t, s, "the withdrawal of %s from tourney %lld", who, (long long)t->id))
		return;
	withdraw(t, p, s);
	change_end(t);
}

void tournament_pause_player(struct tournament *t, struct session *s, const char *name,
    bool paused)
{
	int p = named_player(t, s, name);

	if (!p)
		return;
	if (t->state == TOURNAMENT_FINISHED) {
		session_printf(s, "Tourney %lld is over.\n", (long long)t->id);
		return;
	}
	if (!change_begin(t, s, "the %s of %s in tourney %lld", paused ? "pause" : "return",
	    t->core->players[p].name, (long long)t->id))
		return;
	t->entrants[p].paused = paused;
	save_player(t, p);
	reply(t, s, "%s is %s in tourney %lld.\n", t->core->players[p].name,
	    paused ? "paused (not paired)" : "back (paired again)", (long long)t->id);
	announce(t, "%s %s.", t->core->players[p].name,
	    paused ? "is paused and will not be paired" : "is back and will be paired");
	change_end(t);
}

void tournament_pause(struct tournament *t, struct session *s, bool paused)
{
	if (t->state != (paused ? TOURNAMENT_RUNNING : TOURNAMENT_PAUSED)) {
		session_printf(s, "Tourney %lld is %s.\n", (long long)t->id, tournament_state_name(t->state));
		return;
	}
	if (!change_begin(t, s, "the %s of tourney %lld", paused ? "pause" : "resumption",
	    (long long)t->id))
		return;
	t->state = paused ? TOURNAMENT_PAUSED : TOURNAMENT_RUNNING;
	save_tourney(t);
	reply(t, s, "Tourney %lld is %s.\n", (long long)t->id, tournament_state_name(t->state));
	announce(t, "%s.", paused ? "paused: no new round will be paired" : "running again");
	if (change_end(t))
		schedule(t->owner, 0);
}

void tournament_request_bye(struct tournament *t, struct session *s, int round)
{
	struct tourney *c = t->core;
	int p = player_of_user(t, session_user_id(s));

	if (!p) {
		session_printf(s, "You are not in tourney %lld.\n", (long long)t->id);
		return;
	}
	if (t->kind != TOURNAMENT_SWISS) {
		session_printf(s, "Byes are for Swiss tournaments; in a round robin ask the director.\n");
		return;
	}
	if (round <= c->rounds_paired || round < 1 || round > c->nrounds ||
	    t->state == TOURNAMENT_FINISHED) {
		session_printf(s, "Round %d is not to come in tourney %lld.\n", round, (long long)t->id);
		return;
	}
	if (!change_begin(t, s, "your bye in round %d of tourney %lld", round, (long long)t->id))
		return;
	c->players[p].requested[round] = TOURNEY_BYE_HALF;
	if (db_tourney_bye_set(db_of(t), t->id, t->entrants[p].user_id, round, "H") < 0)
		write_failed(t, "a bye of %s", c->players[p].name);
	reply(t, s, "You will have a half-point bye in round %d of tourney %lld.\n", round,
	    (long long)t->id);
	change_end(t);
}

void tournament_set_result(struct tournament *t, struct session *s, int round, int board,
    enum tourney_result res)
{
	struct tourney *c = t->core;

	if (round < 1 || round > c->rounds_paired || board < 1 || board > c->rounds[round].ngames) {
		session_printf(s, "There is no board %d in round %d of tourney %lld.\n", board, round,
		    (long long)t->id);
		return;
	}
	if (res == TOURNEY_RESULT_NONE) {
		session_printf(s, "Give a result: 1-0, 0-1, 1/2-1/2, +-, -+ or --.\n");
		return;
	}
	if (round == c->rounds_paired && t->boards[board - 1].state == BOARD_PLAYING) {
		session_printf(s, "Game %d is still being played on that board.\n",
		    t->boards[board - 1].game_number);
		return;
	}
	if (!change_begin(t, s, "the result of round %d board %d of tourney %lld", round, board,
	    (long long)t->id))
		return;
	if (round == c->rounds_paired) {
		record_result(t, board - 1, res, "(set by the director)");
	} else {
		c->rounds[round].games[board - 1].result = res;
		save_board(t, round, board - 1);
		announce(t, "round %d board %d corrected to %s by the director.", round, board,
		    tournament_result_text(res));
	}
	reply(t, s, "Round %d board %d: %s.\n", round, board, tournament_result_text(res));
	if (change_end(t))
		schedule(t->owner, 0);
}

void tournament_set(struct tournament *t, struct session *s, const char *key, const char *value)
{
	enum tiebreak order[TIEBREAK_MAX];
	int ntiebreaks = t->ntiebreaks, bye_half = t->core->pairing_bye_half;
	int web_delay_s = t->web_delay_s;

	memcpy(order, t->tiebreaks, sizeof order);
	if (!strcasecmp(key, "tiebreaks")) {
		if ((ntiebreaks = tournament_tiebreaks_parse(value, order)) < 0) {
			session_printf(s, "Tie-breaks are a list of BH, BH-C1, SB, DE, WIN, WON.\n");
			return;
		}
	} else if (!strcasecmp(key, "byevalue")) {
		if (t->state != TOURNAMENT_CREATED || (strcmp(value, "1") && strcmp(value, "0.5"))) {
			session_printf(s, "The pairing bye is worth 1 or 0.5, set before the start.\n");
			return;
		}
		bye_half = !strcmp(value, "1") ? 2 : 1;
	} else if (!strcasecmp(key, "delay")) {
		/* From now on: moves already queued for the web keep their time. */
		int max = server_config(t->owner->srv)->limits.tourney_delay_max_s;
		long v;
		if (!strcasecmp(value, "default")) {
			web_delay_s = -1;
		} else if (number_parse(value, 0, max, &v) == NUMBER_OK) {
			web_delay_s = (int)v;
		} else {
			session_printf(s, "The web delay is a whole number of seconds from 0 to %d "
			    "(tourney_delay_max_s), or default.\n", max);
			return;
		}
	} else {
		session_printf(s, "Settings: tiebreaks LIST, byevalue 1|0.5, delay SECONDS|default.\n");
		return;
	}
	if (!change_begin(t, s, "the %s of tourney %lld", key, (long long)t->id))
		return;
	memcpy(t->tiebreaks, order, sizeof order);
	t->ntiebreaks = ntiebreaks;
	t->core->pairing_bye_half = bye_half;
	t->web_delay_s = web_delay_s;
	save_tourney(t);
	reply(t, s, "Tourney %lld: %s set to %s.\n", (long long)t->id, key, value);
	change_end(t);
}

void tournament_follow(struct tournament *t, struct session *s, bool follow)
{
	int found = -1;

	for (int i = 0; i < t->nfollowers; i++)
		if (follower_is(&t->followers[i], s))
			found = i;
	if (!follow) {
		if (found < 0) {
			session_printf(s, "You are not following tourney %lld.\n", (long long)t->id);
			return;
		}
		t->followers[found] = t->followers[--t->nfollowers];
		session_printf(s, "You no longer follow tourney %lld.\n", (long long)t->id);
		return;
	}
	if (found < 0) {
		struct follower *f = realloc(t->followers, (size_t)(t->nfollowers + 1) * sizeof *f);
		if (!f) {
			session_printf(s, "Out of memory.\n");
			return;
		}
		t->followers = f;
		f[t->nfollowers] = (struct follower){ session_user_id(s), conn_id(session_conn(s)), "" };
		snprintf(f[t->nfollowers++].name, sizeof f->name, "%s", session_name(s));
	}
	session_printf(s, "You follow tourney %lld: you observe every board as its game starts.\n",
	    (long long)t->id);
	const struct tourney_round *rd = &t->core->rounds[t->core->rounds_paired];
	for (int b = 0; t->core->rounds_paired && b < rd->ngames; b++) {
		struct game *g = t->boards[b].state == BOARD_PLAYING ?
		    games_find(server_games(t->owner->srv), t->boards[b].game_number) : NULL;
		char err[128];
		if (g && game_color_of(g, s) < 0)
			game_watch(g, s, err, sizeof err);
	}
}
