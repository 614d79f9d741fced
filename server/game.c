#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <event2/event.h>

#include "audience.h"
#include "config.h"
#include "conn.h"
#include "db.h"
#include "examine.h"
#include "fen.h"
#include "fics.h"
#include "game.h"
#include "lists.h"
#include "log.h"
#include "movegen.h"
#include "number.h"
#include "offer.h"
#include "quota.h"
#include "rating.h"
#include "server.h"
#include "session.h"
#include "tournament.h"
#include "unwinnable.h"
#include "verdict.h"
#include "web.h"

/*
 * What a game waits for while its clocks are stopped for a verdict: whether
 * a side can still mate (6.9), decided off the loop (verdict.c).
 */
enum deciding {
	DECIDING_NONE,
	DECIDING_FLAG,		/* the side to move ran out of time */
	DECIDING_FORFEIT,	/* a win is claimed over a player who did not come back */
	DECIDING_CLAIM,		/* a player claims the opponent cannot mate (draw) */
};

/*
 * A position as FIDE 9.2.3 tells positions apart (its Zobrist key: pieces,
 * castling, en passant, side to move), whatever the move counters say.
 */
struct claim_spot {
	uint64_t key;
	enum color side;
	bool set;
};

/* What the game keeps per ply beyond the move itself. */
struct game {
	struct server *srv;
	int number;
	int64_t id;			/* games.id in the database */
	char names[COLOR_NB][DB_NAME_MAX];
	int64_t user_ids[COLOR_NB];	/* 0 for guests */
	/* A guest seat belongs to the reconnect key of the session that sat down. */
	char keys[COLOR_NB][SESSION_KEY_LEN + 1];
	char rating_text[COLOR_NB][8];
	struct session *players[COLOR_NB];	/* NULL while disconnected */
	bool rated;
	bool private_game;		/* a player had "private" set as it began */
	enum clock_category category;
	struct clock_control tc;
	struct clock_side clocks[COLOR_NB];
	struct clock_lag lag[COLOR_NB];	/* timeseal lag allowance of each player */
	struct position *pos;
	struct game_ply *plies;
	int plies_cap;
	char last_verbose[MOVE_TEXT_MAX];
	int last_dpp;			/* file of a double pawn push just made, or -1 */
	int64_t turn_started_ms;	/* when the side to move started thinking */
	int64_t paused_elapsed_ms;	/* while paused: time already used this turn */
	int64_t shown_at_ms;		/* while a turn's first boards go out: its start */
	bool paused;
	bool clock_stopped;		/* paused by the players' agreement ("pause") */
	int64_t grace_until_ms;		/* a player is away until this (0: nobody) */
	bool grace_over;		/* the opponent may now claim, adjourn or abort */
	struct event *timer;		/* the flag, or the end of a grace period */
	unsigned offers[COLOR_NB];	/* offers made by each side */
	int takeback_plies[COLOR_NB];
	struct session **observers;
	int observer_count, observer_cap;
	int64_t started_unix;
	bool over;
	bool must_end;			/* ends even if the database refuses the end */
	bool flag_retrying;		/* the flag fell, its end is not stored yet */
	bool quiet_refusal;		/* the players know already: do not repeat it */
	int aborted_by;			/* who ended it by aborting: a colour, -1 both */
	enum deciding deciding;		/* clocks stopped until the verdict comes */
	enum color deciding_for;	/* the side whose mating chances are judged */
	struct verdict_job *verdict;	/* the decision running; NULL while it waits for room */
	struct session *claimant;	/* DECIDING_CLAIM: whose reply waits, NULL once gone */
	struct claim_spot claim_refused[COLOR_NB];	/* where a side's claim last failed */
	/* Tournament games: where the game is played; 0 otherwise. */
	int64_t tourney_id;
	int tourney_round, tourney_board;
	struct examine *exam;		/* an examined board's examine session, else NULL */
};

struct games {
	struct server *srv;
	struct game *by_number[LIMIT_GAMES + 1];
	int count;
	int lowest_free;		/* a hint: no free number below it */
	struct game **dead;		/* ended this pass; freed by games_reap */
	int dead_count, dead_cap;
	struct quotas *starts;		/* games started lately, per player and address */
};

/* How soon a flag that fell, but whose end the database refused, falls again. */
#define GAME_END_RETRY_MS 1000
/* How soon a game whose verdict found the queue full asks again. */
#define GAME_VERDICT_RETRY_MS 50

static void arm_timer(struct game *g);
static int end_game(struct game *g, enum result r, const char *reason,
    enum game_termination termination, enum game_status status);
static void end_game_forced(struct game *g, enum result r, const char *reason,
    enum game_termination termination, enum game_status status);
static int finish_game(struct game *g, enum result r, const char *reason);
static int adjourn_now(struct game *g, const char *reason);
static void note_last_move(struct game *g);
static void drop_offers(struct game *g, enum color c, unsigned mask);

/* --- registry --- */

struct games *games_new(struct server *srv)
{
	struct games *gs = calloc(1, sizeof *gs);

	if (gs) {
		gs->srv = srv;
		gs->lowest_free = 1;
		if (!(gs->starts = quotas_new(60000))) {
			free(gs);
			return NULL;
		}
	}
	return gs;
}

static void game_free(struct game *g)
{
	if (!g)
		return;
	if (g->timer)
		event_free(g->timer);
	/* The one teardown path: a verdict for a game that is gone is dropped. */
	if (g->verdict)
		verdicts_cancel(server_verdicts(g->srv), g->verdict);
	examine_free(g->exam);
	position_free(g->pos);
	free(g->plies);
	free(g->observers);
	free(g);
}

void games_free(struct games *gs)
{
	if (!gs)
		return;
	games_reap(gs);
	for (int n = 1; n <= LIMIT_GAMES; n++)
		game_free(gs->by_number[n]);
	free(gs->dead);
	quotas_free(gs->starts);
	free(gs);
}

void games_reap(struct games *gs)
{
	for (int i = 0; i < gs->dead_count; i++)
		game_free(gs->dead[i]);
	gs->dead_count = 0;
}

struct game *games_find(struct games *gs, int number)
{
	return number >= 1 && number <= LIMIT_GAMES ? gs->by_number[number] : NULL;
}

int games_count(const struct games *gs)
{
	return gs->count;
}

/* How far ahead games_each asks for a game, and how much of it (what `games` reads). */
#define GAME_PREFETCH 4
#define GAME_PREFETCH_BYTES offsetof(struct game, last_verbose)

void games_each(struct games *gs, void (*fn)(struct game *g, void *arg), void *arg)
{
	for (int n = 1, seen = 0; n <= LIMIT_GAMES && seen < gs->count; n++) {
		struct game *g = gs->by_number[n];
		/* Listings visit thousands: ask for the head of one a few ahead. */
		const char *ahead = n + GAME_PREFETCH <= LIMIT_GAMES ?
		    (const char *)gs->by_number[n + GAME_PREFETCH] : NULL;
		if (ahead)
			for (size_t at = 0; at < GAME_PREFETCH_BYTES; at += 64)
				__builtin_prefetch(ahead + at);
		if (g) {
			seen++;
			fn(g, arg);
		}
	}
}

/*
 * The colour whose empty seat belongs to s, or -1.  A seat is an identity,
 * never a name: the account for registered players, the reconnect key the
 * seated session was given for guests.
 */
static int seat_of(const struct game *g, struct session *s)
{
	for (int c = WHITE; c <= BLACK; c++) {
		if (g->players[c] || strcasecmp(g->names[c], session_name(s)))
			continue;
		if (g->user_ids[c] ? g->user_ids[c] == session_user_id(s) :
		    !session_user_id(s) && session_key_matches(s, g->keys[c]))
			return c;
	}
	return -1;
}

struct game *games_find_absent(struct games *gs, struct session *s)
{
	for (int n = 1, seen = 0; n <= LIMIT_GAMES && seen < gs->count; n++) {
		struct game *g = gs->by_number[n];
		if (!g)
			continue;
		seen++;
		if (!g->over && !g->exam && seat_of(g, s) >= 0)
			return g;
	}
	return NULL;
}

bool games_name_held(struct games *gs, const char *name)
{
	for (int n = 1, seen = 0; n <= LIMIT_GAMES && seen < gs->count; n++) {
		struct game *g = gs->by_number[n];
		if (!g)
			continue;
		seen++;
		for (int c = WHITE; c <= BLACK; c++)
			if (!g->over && !g->exam && !g->players[c] && !strcasecmp(g->names[c], name))
				return true;
	}
	return false;
}

static int take_number(struct games *gs, struct game *g)
{
	for (int n = gs->lowest_free; n <= LIMIT_GAMES; n++) {
		if (!gs->by_number[n]) {
			gs->by_number[n] = g;
			gs->lowest_free = n + 1;
			gs->count++;
			return n;
		}
	}
	return -1;
}

/* Takes the game off the registry; it is freed at the end of the pass. */
static void retire(struct game *g)
{
	struct games *gs = server_games(g->srv);

	gs->by_number[g->number] = NULL;
	if (g->number < gs->lowest_free)
		gs->lowest_free = g->number;
	gs->count--;
	if (gs->dead_count == gs->dead_cap) {
		int cap = gs->dead_cap ? gs->dead_cap * 2 : 16;
		struct game **dead = realloc(gs->dead, (size_t)cap * sizeof *dead);
		if (!dead) {
			log_error("out of memory retiring game %d; leaking it", g->number);
			return;
		}
		gs->dead = dead;
		gs->dead_cap = cap;
	}
	gs->dead[gs->dead_count++] = g;
}

/* --- accessors --- */

int game_number(const struct game *g) { return g->number; }
int64_t game_id(const struct game *g) { return g->id; }
const char *game_player_name(const struct game *g, enum color c) { return g->names[c]; }
struct session *game_player(const struct game *g, enum color c) { return g->players[c]; }
const struct position *game_position(const struct game *g) { return g->pos; }
const struct clock_control *game_clock(const struct game *g) { return &g->tc; }
bool game_rated(const struct game *g) { return g->rated; }
bool game_private(const struct game *g) { return g->private_game; }

bool game_open_to(const struct game *g, const struct session *s)
{
	return !g->private_game || game_color_of(g, s) >= 0 || session_admin(s);
}
int64_t game_started(const struct game *g) { return g->started_unix; }
int game_observer_count(const struct game *g) { return g->observer_count; }
bool game_over(const struct game *g) { return g->over; }
int64_t game_tourney_id(const struct game *g) { return g->tourney_id; }

void game_rating_texts(const struct game *g, char out[COLOR_NB][8])
{
	memcpy(out, g->rating_text, sizeof g->rating_text);
}

int game_color_of(const struct game *g, const struct session *s)
{
	if (s && g->players[WHITE] == s)
		return WHITE;
	if (s && g->players[BLACK] == s)
		return BLACK;
	return -1;
}

static enum color to_move(const struct game *g)
{
	return (enum color)position_board(g->pos)->side;
}

/* Time the side to move has used on this turn. */
static int64_t elapsed_ms(const struct game *g)
{
	if (g->paused || g->clock_stopped || g->over || g->deciding)
		return g->paused_elapsed_ms;
	return (g->shown_at_ms ? g->shown_at_ms : server_now_ms(g->srv)) - g->turn_started_ms;
}

int64_t game_clock_ms(const struct game *g, enum color c)
{
	if (clock_untimed(&g->tc))
		return 0;
	if (c == to_move(g) && !g->over)
		return clock_side_left_ms(&g->tc, &g->clocks[c], elapsed_ms(g));
	return g->clocks[c].remaining_ms;
}

int64_t game_move_clock_ms(const struct game *g, int ply)
{
	return ply >= 0 && ply < position_ply_count(g->pos) ? g->plies[ply].clock_ms : 0;
}

/*
 * What a `games` line shows and no more: it is built for every game each
 * time someone lists them.  The clocks of an examined board are not shown.
 */
void game_list_view(const struct game *g, struct fics_game_view *v)
{
	v->number = g->number;
	v->rated = g->rated;
	v->private_game = g->private_game;
	v->tc = &g->tc;
	v->pos = g->pos;
	v->examined = NULL;
	v->setup_board = NULL;
	for (int c = WHITE; c <= BLACK; c++) {
		v->names[c] = g->names[c];
		v->ratings[c] = g->rating_text[c];
	}
	if (g->exam) {
		v->examined = examine_in_setup(g->exam) ? "Setup" : "Exam.";
		v->setup_board = examine_setup_board(g->exam);
		v->clock_ms[WHITE] = v->clock_ms[BLACK] = 0;
		return;
	}
	for (int c = WHITE; c <= BLACK; c++)
		v->clock_ms[c] = game_clock_ms(g, (enum color)c);
}

void game_view(const struct game *g, struct fics_game_view *v)
{
	*v = (struct fics_game_view){ .plies = g->plies, .last_verbose = g->last_verbose,
	    .last_dpp = g->last_dpp, .started_unix = g->started_unix };
	game_list_view(g, v);
	if (g->exam) {
		for (int c = WHITE; c <= BLACK; c++)
			v->clock_ms[c] = game_clock_ms(g, (enum color)c);
		if (v->setup_board) {
			v->last_verbose = "none";
			v->last_dpp = -1;
		}
	}
	v->clock_stopped = g->clock_stopped;
	for (int c = WHITE; c <= BLACK; c++) {
		struct session *p = g->players[c];
		v->seated[c] = p != NULL;
		v->guest[c] = p && !session_registered(p);
		v->timeseal[c] = p && conn_timeseal(session_conn(p));
	}
}

/* "remaining:moves:period:period_moves", as the database keeps a clock. */
static void clock_save(const struct clock_side *c, char *buf, size_t len)
{
	snprintf(buf, len, "%lld:%d:%d:%d", (long long)c->remaining_ms, c->moves, c->period,
	    c->period_moves);
}

static bool clock_restore(struct clock_side *c, const char *text)
{
	long long remaining;

	return sscanf(text, "%lld:%d:%d:%d", &remaining, &c->moves, &c->period,
	    &c->period_moves) == 4 && (c->remaining_ms = remaining, true);
}

/* The game's row gets both clocks as they stand now, and the ply they stand after. */
static void row_clocks(const struct game *g, struct db_game *row)
{
	clock_save(&g->clocks[WHITE], row->white_clock, sizeof row->white_clock);
	clock_save(&g->clocks[BLACK], row->black_clock, sizeof row->black_clock);
	row->clock_ply = position_ply_count(g->pos);
}

/* Saves both clocks as they stand now, for moves to be replayed onto. */
static int save_clocks(struct game *g)
{
	struct db_game row;

	row_clocks(g, &row);
	if (db_game_clocks(server_db(g->srv), g->id, row.white_clock, row.black_clock,
	    row.clock_ply) < 0) {
		log_error("game %d: could not save the clocks", g->number);
		return -1;
	}
	return 0;
}

/*
 * Before a write that must stand or fall alone (a move, a new game, a
 * takeback): commits what the pass wrote so far, so that its failure
 * cannot take those writes with it.
 */
static void commit_earlier(struct db *db)
{
	if (db_commit_now(db) < 0)
		log_error("the database refused this pass's earlier writes; they are lost");
}

/* --- output --- */

/*
 * Sends the board to a viewer: as part of its command's reply when it is
 * the one acting, else as a notification with a fresh prompt.
 */
static void send_board(struct game *g, struct session *viewer, enum fics_relation rel)
{
	char board[FICS_BOARD_MAX];
	struct fics_game_view v;

	game_view(g, &v);
	if (session_var(viewer, VAR_STYLE) != 12) {
		/* People on telnet: black at the bottom for Black, or when flipped. */
		bool flip = (game_color_of(g, viewer) == BLACK) != !!session_var(viewer, VAR_FLIP);
		fics_style1(&v, flip, board, sizeof board);
	} else {
		fics_style12(&v, rel, session_var(viewer, IVAR_MS), session_var(viewer, VAR_FLIP),
		    board, sizeof board);
	}
	session_notify_text(viewer, board, strlen(board));
}

static enum fics_relation relation_of(const struct game *g, enum color c)
{
	return to_move(g) == c ? REL_MY_MOVE : REL_THEIR_MOVE;
}

/* How an onlooker of g sees it: observing a played game, or an examined one. */
static enum fics_relation onlooker_relation(const struct game *g, struct session *s)
{
	if (!g->exam)
		return REL_OBSERVING;
	return examine_is_examiner(g->exam, s) ? REL_EXAMINER : REL_OBSERVING_EXAMINED;
}

/* A new turn's board has gone out: a timeseal client is asked to stamp its arrival. */
static void stamp_turn(struct game *g)
{
	struct session *p = g->players[to_move(g)];

	web_game_changed(server_web(g->srv), g);
	if (p && !g->over)
		session_board_sent(p);
}

/*
 * Every way into observing (observe, follow, a tournament's followers) ends
 * here, so clients see one header: the optional <g1> line, "You are now
 * observing", the "Game N:" line, a blank line and the board, all in one
 * piece with no prompt inside it.
 */
int game_watch(struct game *g, struct session *s, char *err, size_t errlen)
{
	char header[FICS_LINE_MAX], info[FICS_LINE_MAX] = "", board[FICS_BOARD_MAX];

	if (session_examining(s)) {
		snprintf(err, errlen, "You are still examining a game.");
		return -1;
	}
	/* As lasker: every way in (observe, follow, tourney observe) meets this refusal. */
	if (!game_open_to(g, s)) {
		snprintf(err, errlen, "Sorry, game %d is a private game.", g->number);
		return -1;
	}
	if (game_color_of(g, s) >= 0) {
		snprintf(err, errlen, "You cannot observe a game that you are playing.");
		return -1;
	}
	int rc = session_observe(s, g);
	if (rc == 1) {
		snprintf(err, errlen, "You are already observing game %d.", g->number);
		return -1;
	}
	if (rc < 0) {
		snprintf(err, errlen, "You are observing as many games as you may (%d).",
		    LIMIT_OBSERVE_PER_USER);
		return -1;
	}
	struct fics_game_view v;
	game_view(g, &v);
	fics_game_header(&v, header, sizeof header);
	if (session_var(s, IVAR_GAMEINFO)) {
		fics_gameinfo(&v, info, sizeof info - 1);
		strcat(info, "\n");
	}
	if (session_var(s, VAR_STYLE) != 12)
		fics_style1(&v, !!session_var(s, VAR_FLIP), board, sizeof board);
	else
		fics_style12(&v, onlooker_relation(g, s), session_var(s, IVAR_MS),
		    session_var(s, VAR_FLIP), board, sizeof board);
	session_notify(s, "%sYou are now observing game %d.\n%s\n\n%s", info, g->number, header,
	    board);
	return 0;
}

void game_send_board(struct game *g, struct session *viewer)
{
	int c = game_color_of(g, viewer);

	send_board(g, viewer, c < 0 ? onlooker_relation(g, viewer) : relation_of(g, (enum color)c));
}

/*
 * One style 12 update to players and observers.  Observers share a line
 * per (ms, flip) setting, so a thousand observers cost four formattings.
 */
static void broadcast_board(struct game *g)
{
	char lines[2][2][FICS_LINE_MAX];
	size_t lens[2][2] = { { 0, 0 }, { 0, 0 } };	/* 0: not made yet */

	/* Sent as a turn begins: everyone sees the clocks as it began. */
	g->shown_at_ms = g->turn_started_ms;
	struct fics_game_view v;
	game_view(g, &v);
	enum fics_relation rel = g->exam ? REL_OBSERVING_EXAMINED : REL_OBSERVING;
	for (int c = WHITE; c <= BLACK; c++)
		if (g->players[c])
			send_board(g, g->players[c], relation_of(g, (enum color)c));
	for (int i = 0; i < g->observer_count; i++) {
		struct session *o = g->observers[i];
		int ms = !!session_var(o, IVAR_MS), flip = !!session_var(o, VAR_FLIP);
		if (session_var(o, VAR_STYLE) != 12) {
			send_board(g, o, rel);
			continue;
		}
		if (!lens[ms][flip]) {
			fics_style12(&v, rel, ms, flip, lines[ms][flip], FICS_LINE_MAX);
			lens[ms][flip] = strlen(lines[ms][flip]);
		}
		session_notify_text(o, lines[ms][flip], lens[ms][flip]);
	}
	g->shown_at_ms = 0;
	stamp_turn(g);
}

/* --- creation --- */

static struct game *game_alloc(struct server *srv)
{
	struct game *g = calloc(1, sizeof *g);

	if (!g)
		return NULL;
	g->srv = srv;
	g->last_dpp = -1;
	strcpy(g->last_verbose, "none");
	g->timer = evtimer_new(server_base(srv), NULL, NULL);
	if (!g->timer) {
		free(g);
		return NULL;
	}
	return g;
}

static int ensure_plies(struct game *g, int n)
{
	if (n <= g->plies_cap)
		return 0;
	int cap = g->plies_cap ? g->plies_cap * 2 : 128;
	while (cap < n)
		cap *= 2;
	struct game_ply *p = realloc(g->plies, (size_t)cap * sizeof *p);
	if (!p)
		return -1;
	g->plies = p;
	g->plies_cap = cap;
	return 0;
}

static void fill_player(struct game *g, enum color c, struct session *s)
{
	struct rating r;

	g->players[c] = s;
	snprintf(g->names[c], sizeof g->names[c], "%s", session_name(s));
	g->user_ids[c] = session_user_id(s);
	if (!g->user_ids[c])
		snprintf(g->keys[c], sizeof g->keys[c], "%s", session_reconnect_key(s));
	rating_load(server_db(g->srv), g->user_ids[c], g->category, &r);
	rating_text(&r, g->user_ids[c], g->rating_text[c], sizeof g->rating_text[c]);
}

/* The four lines that open a game, then its first board, to each player. */
static void announce_start(struct game *g, bool continuing)
{
	char creating[FICS_LINE_MAX], intro[FICS_LINE_MAX], board[FICS_BOARD_MAX];
	struct fics_game_view v;

	game_view(g, &v);
	fics_creating(&v, creating, sizeof creating);
	fics_game_intro(&v, continuing, intro, sizeof intro);
	for (int c = WHITE; c <= BLACK; c++) {
		struct session *s = g->players[c];
		if (!s)
			continue;
		if (session_var(s, VAR_STYLE) != 12)
			fics_style1(&v, (c == BLACK) != !!session_var(s, VAR_FLIP), board,
			    sizeof board);
		else
			fics_style12(&v, relation_of(g, (enum color)c), session_var(s, IVAR_MS),
			    session_var(s, VAR_FLIP), board, sizeof board);
		char key[FICS_LINE_MAX] = "";
		if (!g->user_ids[c] && g->keys[c][0])
			snprintf(key, sizeof key, "Your reconnect key is %s: if you lose contact, log in "
			    "as %s and give it as the password.\n", g->keys[c], g->names[c]);
		if (session_var(s, IVAR_GAMEINFO)) {
			char info[FICS_LINE_MAX];
			fics_gameinfo(&v, info, sizeof info);
			session_notify(s, "%s\n%s%s\n%s\n\n%s", info, key, creating, intro, board);
		} else {
			session_notify(s, "%s%s\n%s\n\n%s", key, creating, intro, board);
		}
	}
	stamp_turn(g);
}

static void game_timer(evutil_socket_t fd, short what, void *arg);

struct start_news {
	struct game *g;
	char intro[FICS_LINE_MAX];
};

/* A game starts or resumes: "set gin 1" hears its intro line, as in FICS. */
static void tell_start(struct session *s, void *arg)
{
	struct start_news *n = arg;

	if (game_color_of(n->g, s) < 0)
		session_notify(s, "%s", n->intro);
}

/*
 * ... and sessions following either player start observing it.  As in
 * lasker, where following is an "observe" made for the follower, a refusal
 * (a private game, say) is told to the follower as observe would tell it.
 */
static void start_following(struct session *s, void *arg)
{
	struct start_news *n = arg;
	char err[FICS_LINE_MAX];

	if (game_color_of(n->g, s) < 0 && game_watch(n->g, s, err, sizeof err) < 0)
		session_notify(s, "%s", err);
}

static void announce_watchers(struct game *g, bool continuing)
{
	struct start_news n = { .g = g };
	struct fics_game_view v;

	game_view(g, &v);
	fics_game_intro(&v, continuing, n.intro, sizeof n.intro);
	audience_each(g->srv, AUDIENCE_GAME_START, tell_start, &n);
	for (int c = WHITE; c <= BLACK; c++)
		if (g->players[c])
			session_each_follower(g->players[c], start_following, &n);
}

/* The keys a new game counts against: each player, and each address once. */
static int start_keys(struct session *const players[COLOR_NB], char keys[4][80], int per[4],
    const struct limits *lim)
{
	int n = 0;

	for (int c = WHITE; c <= BLACK; c++) {
		struct session *s = players[c];
		/* An account, or for a guest the session itself. */
		if (session_user_id(s))
			snprintf(keys[n], sizeof keys[n], "u%lld", (long long)session_user_id(s));
		else
			snprintf(keys[n], sizeof keys[n], "s%p.%lld", (void *)s,
			    (long long)session_login_ms(s));
		per[n++] = lim->games_per_minute;
	}
	const char *white = conn_address(session_conn(players[WHITE]));
	const char *black = conn_address(session_conn(players[BLACK]));
	snprintf(keys[n], sizeof keys[n], "a%s", white);
	per[n++] = lim->games_per_minute_per_address;
	if (strcmp(white, black)) {
		snprintf(keys[n], sizeof keys[n], "a%s", black);
		per[n++] = lim->games_per_minute_per_address;
	}
	return n;
}

/*
 * Counts a new game against both players and their addresses, or says who
 * has started too many in the last minute.  Tournament games are not
 * counted: the tournament starts them, not the players.
 */
static bool start_allowed(struct server *srv, struct session *white, struct session *black,
    char *err, size_t errlen)
{
	struct quotas *q = server_games(srv)->starts;
	const struct limits *lim = &server_config(srv)->limits;
	struct session *players[COLOR_NB] = { white, black };
	char keys[4][80];
	int per[4], n = start_keys(players, keys, per, lim);
	int64_t now = server_now_ms(srv);

	for (int i = 0; i < n; i++) {
		if (quotas_left(q, keys[i], per[i], now))
			continue;
		if (i < 2)
			snprintf(err, errlen, "%s has started %d games in the last minute, the most "
			    "allowed; try again shortly.", session_name(players[i]), per[i]);
		else
			snprintf(err, errlen, "%d games have been started from %s's address in the last "
			    "minute, the most allowed; try again shortly.", per[i],
			    session_name(players[i - 2]));
		return false;
	}
	for (int i = 0; i < n; i++)
		quotas_take(q, keys[i], per[i], now);
	return true;
}

struct game *game_start(struct server *srv, struct session *white, struct session *black,
    const struct game_params *p, char *err, size_t errlen)
{
	if (session_examining(white) || session_examining(black)) {
		snprintf(err, errlen, "%s is examining a game.",
		    session_name(session_examining(white) ? white : black));
		return NULL;
	}
	if (!p->tourney_id && !start_allowed(srv, white, black, err, errlen))
		return NULL;
	struct game *g = game_alloc(srv);

	if (!g) {
		snprintf(err, errlen, "Out of memory.");
		return NULL;
	}
	event_assign(g->timer, server_base(srv), -1, 0, game_timer, g);
	g->tc = p->tc;
	g->rated = p->rated;
	g->private_game = session_var(white, VAR_PRIVATE) || session_var(black, VAR_PRIVATE);
	g->category = clock_category(&p->tc);
	fill_player(g, WHITE, white);
	fill_player(g, BLACK, black);
	g->pos = position_new(p->fen, err, errlen);
	if (!g->pos || ensure_plies(g, 128) < 0) {
		game_free(g);
		return NULL;
	}
	for (int c = WHITE; c <= BLACK; c++) {
		clock_side_init(&g->tc, &g->clocks[c]);
		clock_lag_init(&g->lag[c], &g->tc);
	}
	g->started_unix = (int64_t)time(NULL);
	struct db_game row = { .white_id = g->user_ids[WHITE], .black_id = g->user_ids[BLACK],
	    .rated = g->rated, .started = g->started_unix };
	snprintf(row.white, sizeof row.white, "%s", g->names[WHITE]);
	snprintf(row.black, sizeof row.black, "%s", g->names[BLACK]);
	snprintf(row.white_rating, sizeof row.white_rating, "%s", g->rating_text[WHITE]);
	snprintf(row.black_rating, sizeof row.black_rating, "%s", g->rating_text[BLACK]);
	snprintf(row.category, sizeof row.category, "%s", clock_category_name(g->category));
	clock_format(&g->tc, row.time_control, sizeof row.time_control);
	if (p->fen)
		snprintf(row.start_fen, sizeof row.start_fen, "%s", position_start_fen(g->pos));
	row.status = GAME_ACTIVE;
	row_clocks(g, &row);
	if (games_count(server_games(srv)) >= LIMIT_GAMES) {
		snprintf(err, errlen, "There are too many games in progress.");
		game_free(g);
		return NULL;
	}
	/* Its moves need the row: a game that cannot be stored does not start. */
	struct db *db = server_db(srv);
	commit_earlier(db);
	if ((g->id = db_game_insert(db, &row)) < 0 || (p->tourney_id &&
	    db_game_set_tourney(db, g->id, p->tourney_id, p->tourney_round, p->tourney_board) < 0) ||
	    db_commit_now(db) < 0) {
		db_rollback(db);
		snprintf(err, errlen, "The server could not save the game; it was not started.");
		game_free(g);
		return NULL;
	}
	g->number = take_number(server_games(srv), g);
	/* Tournament games. */
	g->tourney_id = p->tourney_id;
	g->tourney_round = p->tourney_round;
	g->tourney_board = p->tourney_board;
	session_set_game(white, g);
	session_set_game(black, g);
	/* Playing ends the players' seeks and challenges, and ("set unobserve 1"
	 * or 3) what they were watching. */
	offers_drop_session(server_offers(srv), white);
	offers_drop_session(server_offers(srv), black);
	for (int c = WHITE; c <= BLACK; c++) {
		struct session *player = c == WHITE ? white : black;
		if (session_var(player, VAR_UNOBSERVE) & 1)
			while (session_observed_count(player))
				session_unobserve(player, session_observed_at(player, 0));
	}
	for (int c = WHITE; c <= BLACK; c++) {
		struct match_terms t = { .tc = g->tc, .rated = g->rated, .color = c };
		session_set_last_terms(g->players[c], &t);
	}
	g->turn_started_ms = server_now_ms(srv);
	g->shown_at_ms = g->turn_started_ms;
	announce_start(g, false);
	announce_watchers(g, false);
	struct fics_game_view view;
	char news[FICS_LINE_MAX];
	game_view(g, &view);
	fics_game_notification(&view, news, sizeof news);
	lists_game_started(white, black, news);
	g->shown_at_ms = 0;
	arm_timer(g);
	log_info("game %d (#%lld) started: %s vs %s", g->number, (long long)g->id, g->names[WHITE],
	    g->names[BLACK]);
	return g;
}

struct replay {
	struct game *g;
	bool ok;
	int clock_ply;			/* the saved clocks stood after this ply */
};

static void replay_move(void *arg, const struct db_move *m)
{
	struct replay *r = arg;
	struct game *g = r->g;
	move mv;
	int ply = position_ply_count(g->pos);

	if (!r->ok || m->ply != ply + 1 || ensure_plies(g, ply + 1) < 0 ||
	    san_parse(position_board(g->pos), m->uci, SAN_ENGLISH, NO_TYPE, &mv) != SAN_OK) {
		r->ok = false;
		return;
	}
	move_format_verbose(position_board(g->pos), mv, g->last_verbose);
	const struct board *b = position_board(g->pos);
	g->last_dpp = piece_type_of(b->squares[move_from(mv)]) == PAWN &&
	    (move_from(mv) ^ move_to(mv)) == 16 ? square_file(move_from(mv)) : -1;
	/* Moves after the saved clocks bring them up to date, as when they were made. */
	if (m->ply > r->clock_ply && !clock_untimed(&g->tc))
		clock_side_move(&g->tc, &g->clocks[b->side], m->time_ms);
	position_play(g->pos, mv, SAN_ENGLISH, NULL);
	struct game_ply *p = &g->plies[ply];
	snprintf(p->san, sizeof p->san, "%s", m->san);
	snprintf(p->uci, sizeof p->uci, "%s", m->uci);
	p->time_ms = m->time_ms;
	p->clock_ms = m->clock_ms;
}

struct game *game_resume(struct server *srv, int64_t id, struct session *a, struct session *b,
    char *err, size_t errlen)
{
	struct db_game row;
	struct game *g;

	if (session_examining(a) || session_examining(b)) {
		snprintf(err, errlen, "%s is examining a game.",
		    session_name(session_examining(a) ? a : b));
		return NULL;
	}
	if (db_game_load(server_db(srv), id, &row) <= 0 || row.status != GAME_ADJOURNED) {
		snprintf(err, errlen, "There is no such adjourned game.");
		return NULL;
	}
	struct session *white = !strcasecmp(row.white, session_name(a)) ? a : b;
	struct session *black = white == a ? b : a;
	if (strcasecmp(row.white, session_name(white)) || strcasecmp(row.black, session_name(black))) {
		snprintf(err, errlen, "That game is not between you two.");
		return NULL;
	}
	/* A stored seat belongs to its account; a guest's seat ended with its session. */
	if (!row.white_id || !row.black_id || row.white_id != session_user_id(white) ||
	    row.black_id != session_user_id(black)) {
		snprintf(err, errlen, "Only the accounts that played a stored game can resume it.");
		return NULL;
	}
	if (!(g = game_alloc(srv))) {
		snprintf(err, errlen, "Out of memory.");
		return NULL;
	}
	event_assign(g->timer, server_base(srv), -1, 0, game_timer, g);
	g->id = id;
	g->rated = row.rated;
	g->private_game = session_var(white, VAR_PRIVATE) || session_var(black, VAR_PRIVATE);
	if (clock_parse(&g->tc, row.time_control, err, errlen) < 0) {
		game_free(g);
		return NULL;
	}
	g->category = clock_category(&g->tc);
	clock_lag_init(&g->lag[WHITE], &g->tc);
	clock_lag_init(&g->lag[BLACK], &g->tc);
	g->players[WHITE] = white;
	g->players[BLACK] = black;
	snprintf(g->names[WHITE], sizeof g->names[WHITE], "%s", row.white);
	snprintf(g->names[BLACK], sizeof g->names[BLACK], "%s", row.black);
	g->user_ids[WHITE] = row.white_id;
	g->user_ids[BLACK] = row.black_id;
	snprintf(g->rating_text[WHITE], sizeof g->rating_text[WHITE], "%s", row.white_rating);
	snprintf(g->rating_text[BLACK], sizeof g->rating_text[BLACK], "%s", row.black_rating);
	g->started_unix = row.started;
	/* Tournament games keep their board when resumed. */
	if (db_game_tourney(server_db(srv), id, &g->tourney_id, &g->tourney_round,
	    &g->tourney_board) < 0)
		g->tourney_id = 0;
	struct replay r = { g, true, row.clock_ply };
	if (!(g->pos = position_new(row.start_fen[0] ? row.start_fen : NULL, err, errlen)) ||
	    !clock_restore(&g->clocks[WHITE], row.white_clock) ||
	    !clock_restore(&g->clocks[BLACK], row.black_clock) ||
	    db_game_moves(server_db(srv), id, replay_move, &r) < 0 || !r.ok) {
		if (g->pos)
			snprintf(err, errlen, "The stored game is damaged and cannot be resumed.");
		game_free(g);
		return NULL;
	}
	if ((g->number = take_number(server_games(srv), g)) < 0) {
		snprintf(err, errlen, "There are too many games in progress.");
		game_free(g);
		return NULL;
	}
	row.status = GAME_ACTIVE;
	row.reason[0] = '\0';
	row.termination = TERMINATION_NONE;
	snprintf(row.result, sizeof row.result, "*");
	row_clocks(g, &row);
	/* Stored as active before anyone is told, as a new game is. */
	struct db *db = server_db(srv);
	commit_earlier(db);
	if (db_game_update(db, &row) < 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		snprintf(err, errlen, "The server could not save the game; it was not resumed.");
		retire(g);	/* freed at the end of the pass */
		return NULL;
	}
	session_set_game(white, g);
	session_set_game(black, g);
	offers_drop_session(server_offers(srv), white);
	offers_drop_session(server_offers(srv), black);
	g->turn_started_ms = server_now_ms(srv);
	g->shown_at_ms = g->turn_started_ms;
	announce_start(g, true);
	announce_watchers(g, true);
	g->shown_at_ms = 0;
	arm_timer(g);
	if (g->tourney_id)
		tournament_game_resumed(srv, g->tourney_id, g->tourney_round, g->tourney_board, id,
		    g->number);
	log_info("game %d (#%lld) resumed: %s vs %s", g->number, (long long)id, g->names[WHITE],
	    g->names[BLACK]);
	return g;
}

struct orphans {
	struct server *srv;
	int count;
};

static void adjourn_orphan(void *arg, const struct db_game *row)
{
	struct orphans *o = arg;
	struct db_game g = *row;

	g.status = GAME_ADJOURNED;
	snprintf(g.reason, sizeof g.reason, "Game adjourned when the server stopped");
	db_game_update(server_db(o->srv), &g);
	o->count++;
}

int games_adjourn_orphans(struct server *srv)
{
	struct orphans o = { srv, 0 };

	if (db_games_with_status(server_db(srv), GAME_ACTIVE, adjourn_orphan, &o) < 0 ||
	    db_commit(server_db(srv)) < 0)
		return -1;
	if (o.count)
		log_info("%d games in progress at the last stop are now adjourned", o.count);
	return o.count;
}

void games_adjourn_all(struct games *gs, const char *reason)
{
	/* Examined boards are no games to adjourn: they end first. */
	for (int n = 1; n <= LIMIT_GAMES; n++)
		if (gs->by_number[n] && gs->by_number[n]->exam)
			examine_end(gs->by_number[n]->exam);

	/* Ending a game takes it off by_number, so walk every number. */
	for (int n = 1; n <= LIMIT_GAMES && gs->count; n++)
		if (gs->by_number[n])
			end_game_forced(gs->by_number[n], RESULT_NONE, reason,
			    TERMINATION_UNTERMINATED, GAME_ADJOURNED);
}

/* --- clocks --- */

/*
 * How long past the deadline the flag of the side to move waits: its lag
 * grace if it plays through timeseal (its move may have left in time), else 0.
 */
static int64_t flag_grace_ms(const struct game *g)
{
	enum color c = to_move(g);
	struct session *p = g->players[c];

	return p && conn_timeseal(session_conn(p)) ? clock_lag_grace_ms(&g->lag[c]) : 0;
}

static void arm_timer(struct game *g)
{
	int64_t now = server_now_ms(g->srv), at;

	event_del(g->timer);
	if (g->over)
		return;
	if (g->deciding) {
		/* No clock runs; only a decision waiting for room in the queue asks again. */
		if (!g->verdict) {
			struct timeval retry = { .tv_sec = 0, .tv_usec = GAME_VERDICT_RETRY_MS * 1000 };
			event_add(g->timer, &retry);
		}
		return;
	}
	if (g->paused) {
		if (!g->grace_until_ms || g->grace_over)
			return;
		at = g->grace_until_ms;
	} else {
		if (clock_untimed(&g->tc) || g->clock_stopped)
			return;
		int64_t deadline = clock_side_deadline_ms(&g->tc, &g->clocks[to_move(g)]);
		if (deadline == CLOCK_NO_DEADLINE)
			return;
		at = g->turn_started_ms + deadline + flag_grace_ms(g);
	}
	int64_t delay = at - now;
	if (delay < 0)
		delay = 0;
	struct timeval tv = { .tv_sec = delay / 1000, .tv_usec = (delay % 1000) * 1000 };
	event_add(g->timer, &tv);
}

static void decide(struct game *g, enum deciding what, enum color side);

/* The side to move ran out of time: the clocks stop while 6.9 is decided. */
static void flag_fell(struct game *g)
{
	decide(g, DECIDING_FLAG, color_other(to_move(g)));
}

/* The flag's end: a loss, or a draw when the winner cannot mate.  -1: not stored. */
static int flag_end(struct game *g, bool drawn)
{
	enum color loser = to_move(g);
	char reason[96];

	if (drawn)
		snprintf(reason, sizeof reason, "%s ran out of time and %s has no material to mate",
		    g->names[loser], g->names[color_other(loser)]);
	else
		snprintf(reason, sizeof reason, "%s forfeits on time", g->names[loser]);
	/* The clock shows what was left: nothing. */
	int64_t left_ms = g->clocks[loser].remaining_ms;
	g->clocks[loser].remaining_ms = 0;
	if (end_game(g, drawn ? RESULT_DRAW : loser == WHITE ? RESULT_BLACK_WINS :
	    RESULT_WHITE_WINS, reason, TERMINATION_TIME_FORFEIT, GAME_FINISHED) < 0) {
		g->clocks[loser].remaining_ms = left_ms;
		return -1;
	}
	return 0;
}

static bool flagged_now(const struct game *g)
{
	return !clock_untimed(&g->tc) && !g->paused && !g->clock_stopped && !g->over &&
	    !g->deciding &&
	    clock_side_flagged(&g->tc, &g->clocks[to_move(g)], elapsed_ms(g) - flag_grace_ms(g));
}

static void verdict_request(struct game *g);

static void game_timer(evutil_socket_t fd, short what, void *arg)
{
	struct game *g = arg;

	(void)fd;
	(void)what;
	if (g->over)
		return;
	if (g->deciding) {
		if (!g->verdict)
			verdict_request(g);	/* the queue was full: try again */
		return;
	}
	if (g->paused && g->grace_until_ms && server_now_ms(g->srv) >= g->grace_until_ms) {
		g->grace_over = true;
		for (int c = WHITE; c <= BLACK; c++)
			if (g->players[c])
				session_notify(g->players[c], "%s has not come back.  You may claim the win "
				    "with \"flag\", adjourn the game with \"adjourn\", abort it with "
				    "\"abort\", or ask an administrator to decide with \"adjudicate\".",
				    g->names[color_other((enum color)c)]);
		return;
	}
	if (flagged_now(g)) {
		flag_fell(g);
		return;
	}
	arm_timer(g);	/* woke a little early */
}

static void retry_in(struct game *g, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 };

	event_del(g->timer);
	event_add(g->timer, &tv);
}

/* --- verdicts: whether a side can still mate, decided off the loop --- */

static void decided(struct game *g, bool unwinnable);

static void verdict_arrived(void *arg, enum unwinnable_verdict v)
{
	struct game *g = arg;

	g->verdict = NULL;
	if (g->over || !g->deciding)
		return;
	/* Only a proof of "no helpmate" draws: an undetermined search counts as winnable. */
	decided(g, v == UNWINNABLE_UNWINNABLE);
}

static void verdict_request(struct game *g)
{
	g->verdict = verdicts_submit(server_verdicts(g->srv), position_board(g->pos),
	    g->deciding_for, server_config(g->srv)->limits.unwinnable_nodes, verdict_arrived, g);
	if (!g->verdict)
		arm_timer(g);	/* asks again in a moment */
}

/*
 * Stops the clocks and asks whether `side` can still mate; what follows the
 * answer depends on `what`.  The static check answers at once when it can;
 * the full decision runs on a worker, and the game waits for it.
 */
static void decide(struct game *g, enum deciding what, enum color side)
{
	if (g->deciding)
		return;
	g->paused_elapsed_ms = elapsed_ms(g);
	g->deciding = what;
	g->deciding_for = side;
	event_del(g->timer);
	if (unwinnable_quick(position_board(g->pos), side) == UNWINNABLE_UNWINNABLE) {
		decided(g, true);
		return;
	}
	verdict_request(g);
}

/*
 * The clocks go on from where the decision stopped them; but a claim made
 * on the claimant's own turn was decided on the claimant's time, or "draw"
 * over and over would stop their clock for free.
 */
static void undecided(struct game *g)
{
	bool own_turn_claim = g->deciding == DECIDING_CLAIM && g->deciding_for != to_move(g);

	g->deciding = DECIDING_NONE;
	if (!g->paused && !own_turn_claim)
		g->turn_started_ms = server_now_ms(g->srv) - g->paused_elapsed_ms;
	arm_timer(g);
}

/* A player's action while the clocks are stopped for a verdict: one line. */
static bool deciding_refuses(struct game *g, struct session *s)
{
	if (!g->deciding)
		return false;
	session_printf(s, "Game %d: the server is deciding whether %s can still checkmate; "
	    "please wait.\n", g->number, g->names[g->deciding_for]);
	return true;
}

/* --- ending --- */

/* How an ending goes: what it writes first, what it shows once that is stored. */
struct ending {
	enum result r;
	char reason[160];
	enum game_termination termination;
	enum game_status status;
	char rating_lines[COLOR_NB][128];	/* "Your blitz rating: ..." or "" */
	char rating_now[COLOR_NB][8];		/* the new rating text, "" if unchanged */
};

/* Writes both ratings' update into the open transaction; the lines for after. */
static int store_ratings(struct game *g, struct ending *e)
{
	struct rating wb, wa, bb, ba;
	double score = e->r == RESULT_WHITE_WINS ? 1.0 : e->r == RESULT_BLACK_WINS ? 0.0 : 0.5;
	const char *cat = clock_category_name(g->category);

	if (rating_apply(server_db(g->srv), g->category, g->user_ids[WHITE], g->user_ids[BLACK], score,
	    &wb, &wa, &bb, &ba) < 0) {
		log_error("game %d: rating update failed", g->number);
		return -1;
	}
	struct rating *before[2] = { &wb, &bb }, *after[2] = { &wa, &ba };
	for (int c = WHITE; c <= BLACK; c++) {
		char was[8];
		rating_text(before[c], g->user_ids[c], was, sizeof was);
		rating_text(after[c], g->user_ids[c], e->rating_now[c], sizeof e->rating_now[c]);
		snprintf(e->rating_lines[c], sizeof e->rating_lines[c], "Your %s rating: %s -> %s", cat,
		    was, e->rating_now[c]);
	}
	return 0;
}

/*
 * Writes the ending into the open transaction: the game's row (or its
 * removal) and both ratings.  Nothing is shown and nothing in memory
 * changes, so a write that fails leaves the game as it was.
 */
static int store_ending(struct game *g, struct ending *e)
{
	struct db *db = server_db(g->srv);
	struct db_game row;

	/*
	 * A game aborted before both sides moved leaves no row: throwaway games
	 * by the thousand would fill the disk and tell nobody anything.  The
	 * row was written in this pass or an earlier one; either way it goes.
	 */
	if (e->status == GAME_ABORTED && position_ply_count(g->pos) < 2) {
		if (db_game_delete(db, g->id) < 0)
			return -1;
	} else {
		int found = db_game_load(db, g->id, &row);
		if (found < 0)
			return -1;
		if (found) {
			row.status = e->status;
			snprintf(row.result, sizeof row.result, "%s",
			    e->status == GAME_FINISHED ? result_text(e->r) : "*");
			snprintf(row.reason, sizeof row.reason, "%.*s", (int)sizeof row.reason - 1,
			    e->reason);
			row.termination = e->termination;
			row.ended = (int64_t)time(NULL);
			row_clocks(g, &row);
			if (db_game_update(db, &row) < 0)
				return -1;
		}
	}
	/* A deleted account (id 0 now) rates nobody: there is no rating to change. */
	if (g->rated && g->user_ids[WHITE] && g->user_ids[BLACK] && e->status == GAME_FINISHED &&
	    e->r != RESULT_NONE)
		return store_ratings(g, e);
	if (e->status == GAME_FINISHED)
		for (int c = WHITE; c <= BLACK; c++)
			snprintf(e->rating_lines[c], sizeof e->rating_lines[c],
			    "No ratings adjustment done.");
	return 0;
}

struct result_news {
	struct game *g;
	const char *line;
};

/* "iset allresults 1" or "set gin 1": the end of every game, for those not already told. */
static void tell_result(struct session *s, void *arg)
{
	struct result_news *n = arg;

	if (game_color_of(n->g, s) < 0 &&
	    !session_observing(s, n->g))
		session_notify(s, "%s", n->line);
}

/*
 * Shows a stored ending: the end line to everyone, the new ratings, players
 * and observers released, the tournament told.  The game is freed at the
 * end of the pass, so callers may still read it.
 */
static void show_ending(struct game *g, const struct ending *e)
{
	char line[FICS_LINE_MAX];

	g->paused_elapsed_ms = elapsed_ms(g);
	/* Offers end with the game: their <pr> lines go before the end line. */
	drop_offers(g, WHITE, ~0u);
	drop_offers(g, BLACK, ~0u);
	g->over = true;
	event_del(g->timer);
	/* A claim cut short by another ending: its reply closes before the end line. */
	struct session *claimant = g->claimant;
	g->claimant = NULL;
	if (claimant)
		session_reply_resume(claimant, NULL, NULL);
	const char *result = e->status == GAME_FINISHED ? result_text(e->r) : "*";
	struct fics_game_view v;
	game_view(g, &v);
	fics_end_line(&v, e->reason, result, line, sizeof line);

	/* Each player gets the end line and what it did to their rating together. */
	for (int c = WHITE; c <= BLACK; c++) {
		if (!g->players[c])
			continue;
		if (e->rating_now[c][0])
			session_set_rating_text(g->players[c], g->category, e->rating_now[c]);
		session_notify(g->players[c], "%s%s%s", line, e->rating_lines[c][0] ? "\n" : "",
		    e->rating_lines[c]);
	}
	for (int i = 0; i < g->observer_count; i++)
		session_notify(g->observers[i], "%s", line);
	struct result_news news = { g, line };
	audience_each(g->srv, AUDIENCE_GAME_END, tell_result, &news);

	for (int c = WHITE; c <= BLACK; c++)
		if (g->players[c])
			session_set_game(g->players[c], NULL);
	for (int i = 0; i < g->observer_count; i++)
		session_unobserved(g->observers[i], g);
	g->observer_count = 0;
	log_info("game %d (#%lld) %s: %s %s", g->number, (long long)g->id,
	    db_game_status_name(e->status), e->reason, result);
	web_game_over(server_web(g->srv), g, e->r, e->termination, e->status);
	retire(g);
	/*
	 * Tournament games: the tournament records the result.  Its own rows
	 * follow in the pass's commit; the game's row, stored already, is what
	 * a restart settles the board from should that commit fail.
	 */
	if (g->tourney_id && e->status == GAME_ABORTED)
		tournament_game_aborted(g->srv, g->tourney_id, g->tourney_round, g->tourney_board,
		    g->aborted_by);
	else if (g->tourney_id)
		tournament_game_over(g->srv, g->tourney_id, g->tourney_round, g->tourney_board, g->id,
		    e->r, e->status);
}

/*
 * Ends the game, stored first: the row and the ratings are committed in a
 * transaction of their own before anybody is told.  When the database
 * refuses them the game goes on as it was and its players read one line
 * saying so; -1.  An ending nobody can refuse (the players are gone, the
 * server stops: must_end) is shown all the same, and a restart adjourns
 * the game its row still calls active.
 */
static int end_game(struct game *g, enum result r, const char *reason,
    enum game_termination termination, enum game_status status)
{
	struct db *db = server_db(g->srv);
	struct ending e = { .r = r, .termination = termination, .status = status };

	if (g->over)
		return 0;
	snprintf(e.reason, sizeof e.reason, "%s", reason);
	commit_earlier(db);
	if (store_ending(g, &e) < 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		log_error("game %d: could not save its end (%s)%s", g->number, reason,
		    g->must_end ? "; ended all the same" : "; it goes on");
		if (!g->must_end) {
			for (int c = WHITE; c <= BLACK; c++)
				if (g->players[c] && !g->quiet_refusal)
					session_notify(g->players[c], "The server could not save the end of "
					    "game %d (%s); the game goes on.", g->number, reason);
			return -1;
		}
		memset(e.rating_lines, 0, sizeof e.rating_lines);
		memset(e.rating_now, 0, sizeof e.rating_now);
	}
	show_ending(g, &e);
	return 0;
}

/* An ending that cannot wait for the database: the game cannot go on. */
static void end_game_forced(struct game *g, enum result r, const char *reason,
    enum game_termination termination, enum game_status status)
{
	g->must_end = true;
	end_game(g, r, reason, termination, status);
}

/* The usual ending: a result on the board or by the players' agreement. */
static int finish_game(struct game *g, enum result r, const char *reason)
{
	return end_game(g, r, reason, TERMINATION_NORMAL, GAME_FINISHED);
}

/* The ending the board itself decides (mate, stalemate, ...): false if none. */
static bool board_ending(struct game *g, struct ending *e)
{
	enum termination t = position_termination(g->pos);
	enum color side = to_move(g);

	*e = (struct ending){ .r = RESULT_DRAW, .termination = TERMINATION_NORMAL,
	    .status = GAME_FINISHED };
	switch (t) {
	case TERM_CHECKMATE:
		snprintf(e->reason, sizeof e->reason, "%s checkmated", g->names[side]);
		e->r = position_result(g->pos);
		return true;
	case TERM_STALEMATE:
		snprintf(e->reason, sizeof e->reason, "Game drawn by stalemate");
		return true;
	case TERM_DEAD_POSITION:
		/* FICS's line for a dead position, whatever makes it dead. */
		snprintf(e->reason, sizeof e->reason, "Neither player has mating material");
		return true;
	case TERM_FIVEFOLD:
		snprintf(e->reason, sizeof e->reason, "Game drawn by fivefold repetition");
		return true;
	case TERM_SEVENTY_FIVE_MOVES:
		snprintf(e->reason, sizeof e->reason, "Game drawn by the 75 move rule");
		return true;
	case TERM_NONE:
		return false;
	}
	return false;
}

/* --- the move path --- */

/*
 * Stores a move in a transaction of its own, so that a full disk or a
 * failing one is known before anybody sees the move: a move that is not
 * stored is not played.  A move that ends the game (e) is stored with
 * the ending, so that both stand or neither does.
 */
static int store_move(struct game *g, const struct db_move *row, struct ending *e)
{
	struct db *db = server_db(g->srv);

	commit_earlier(db);
	if (db_game_move(db, g->id, row) < 0 || (e && store_ending(g, e) < 0) ||
	    db_commit_now(db) < 0) {
		db_rollback(db);
		log_error("game %d: could not save move %d; not played", g->number, row->ply);
		return -1;
	}
	return 0;
}

/*
 * The colour s plays in g.  The command table hands a player's verbs only
 * the caller's own live game (CMD_PLAYING), so anything else is a bug.
 */
static enum color mover_color(const struct game *g, const struct session *s)
{
	int c = game_color_of(g, s);

	if (c < 0 || g->over)
		fatal("game %d: %s acted in a game it does not play", g->number, session_name(s));
	return (enum color)c;
}

/* The colour s plays in g; -1 (after saying so) when s is not playing it. */
static int player_color(struct game *g, struct session *s)
{
	int c = g->over ? -1 : game_color_of(g, s);

	if (c < 0)
		session_printf(s, "You are not playing a game.\n");
	return c;
}

bool game_move(struct game *g, struct session *s, const char *text)
{
	char san[MOVE_TEXT_MAX], uci[MOVE_TEXT_MAX], verbose[MOVE_TEXT_MAX];
	move m;
	enum color c = mover_color(g, s);
	if (deciding_refuses(g, s))
		return false;
	if (g->paused) {
		session_printf(s, "The game is paused until %s returns.\n",
		    g->names[color_other(c)]);
		return false;
	}
	if (c != to_move(g)) {
		session_printf(s, "It is not your move.\n");
		return false;
	}
	if (g->clock_stopped) {
		session_printf(s, "Game clock is paused, use \"unpause\" to resume.\n");
		return false;
	}
	int64_t now = server_now_ms(g->srv), used = now - g->turn_started_ms;
	/*
	 * Timeseal: charge the thinking time the client reports, crediting the
	 * difference as lag only within the player's quota, so a forged stamp
	 * cannot buy time.  The quota changes only if the move is played.
	 */
	struct clock_lag lag = g->lag[c];
	if (!clock_untimed(&g->tc) && conn_timeseal(session_conn(s)))
		used = clock_lag_credit(&lag, &g->tc, used, session_client_think_ms(s));
	if (!clock_untimed(&g->tc) && clock_side_flagged(&g->tc, &g->clocks[c], used)) {
		flag_fell(g);
		return false;
	}
	/* Parse in the player's letters; play and record in English for clients. */
	static const enum piece_type promote_types[] = { QUEEN, ROOK, BISHOP, KNIGHT };
	enum piece_type promote = promote_types[session_var(s, VAR_PROMOTE) & 3];
	enum san_lang lang = session_var(s, VAR_LANG) == 1 ? SAN_SPANISH : SAN_ENGLISH;
	const struct board *before = position_board(g->pos);
	int ply = position_ply_count(g->pos);
	if (ensure_plies(g, ply + 1) < 0) {
		session_printf(s, "Server out of memory; move not made.\n");
		return false;
	}
	move legal[MAX_MOVES];
	int nlegal;
	enum san_status st = san_parse_typed(before, text, lang, promote, &m, legal, &nlegal);
	if (st != SAN_OK) {
		session_printf(s, st == SAN_AMBIGUOUS ? "Ambiguous move (%s).\n" : "Illegal move (%s).\n",
		    text);
		return false;
	}
	move_format_verbose(before, m, verbose);
	int dpp = piece_type_of(before->squares[move_from(m)]) == PAWN &&
	    (move_from(m) ^ move_to(m)) == 16 ? square_file(move_from(m)) : -1;
	move_format_uci(m, uci);
	struct clock_side clock_after = g->clocks[c];
	if (!clock_untimed(&g->tc))
		clock_side_move(&g->tc, &clock_after, used);
	position_play_listed(g->pos, m, legal, nlegal, SAN_ENGLISH, san);
	struct db_move row = { .ply = ply + 1, .time_ms = used, .clock_ms = clock_after.remaining_ms };
	snprintf(row.uci, sizeof row.uci, "%s", uci);
	snprintf(row.san, sizeof row.san, "%s", san);
	/* The ending's row takes the clocks as the move leaves them. */
	struct clock_side clock_before = g->clocks[c];
	struct ending e;
	bool ends = board_ending(g, &e);
	g->clocks[c] = clock_after;
	if (store_move(g, &row, ends ? &e : NULL) < 0) {
		g->clocks[c] = clock_before;
		position_undo(g->pos, 1);
		session_printf(s, "The server could not save your move (%s); it was not played.  "
		    "Please try again.\n", text);
		return false;
	}

	g->lag[c] = lag;
	struct game_ply *p = &g->plies[ply];
	snprintf(p->san, sizeof p->san, "%s", san);
	snprintf(p->uci, sizeof p->uci, "%s", uci);
	p->time_ms = row.time_ms;
	p->clock_ms = row.clock_ms;
	snprintf(g->last_verbose, sizeof g->last_verbose, "%s", verbose);
	g->last_dpp = dpp;
	g->turn_started_ms = now;
	/* Moving answers the opponent's offers with a no. */
	drop_offers(g, color_other(c), ~0u);

	broadcast_board(g);
	if (ends) {
		show_ending(g, &e);
		return true;
	}
	arm_timer(g);
	return true;
}

void game_resign(struct game *g, struct session *s)
{
	char reason[64];
	enum color c = mover_color(g, s);
	if (deciding_refuses(g, s))
		return;
	snprintf(reason, sizeof reason, "%s resigns", g->names[c]);
	finish_game(g, c == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, reason);
}

/*
 * Each kind of offer (in bit order) with lasker's words for it: its name
 * (<pf> t=, "decline pause"), the line to the one offering, what "pending"
 * says it offers, and what "withdraw" calls it ("the" where lasker has it).
 */
static const struct offer_words {
	const char *name, *sent, *pending, *withdrawn;
} offer_words[GAME_OFFER_KINDS] = {
	{ "draw", "Draw request sent.", "a draw.", "draw request" },
	{ "abort", "Abort request sent.", "to abort the game.", "abort request" },
	{ "adjourn", "Adjourn request sent.", "an adjournment.", "the adjourn request" },
	{ "takeback", "Takeback request sent.", "to takeback the last %d half moves.",
	  "the takeback request" },
	{ "pause", "Pause request sent.", "to pause the clock.", "pause request" },
	{ "unpause", "Unpause request sent.", "to unpause the clock.", "unpause request" },
	{ "switch", "Switch request sent.", "to switch sides.", "the switch sides request" },
};

static const struct offer_words *words_of(enum game_offer kind)
{
	return &offer_words[__builtin_ctz((unsigned)kind)];
}

static const char *offer_name(enum game_offer kind)
{
	return words_of(kind)->name;
}

/*
 * The number <pf>, "pending", "accept N" and "decline N" know an offer in a
 * game by: above every challenge's, one per game, offering side and kind,
 * so that it needs no table and no two live offers share one.
 */
static long offer_number(const struct game *g, enum color c, enum game_offer kind)
{
	return OFFER_ID_MAX + 1L + ((long)(g->number - 1) * COLOR_NB + c) * GAME_OFFER_KINDS +
	    __builtin_ctz((unsigned)kind);
}

/* The <pr> line for an offer gone, to both players who asked for pendinfo. */
static void tell_offer_gone(struct game *g, enum color c, enum game_offer kind)
{
	for (int k = WHITE; k <= BLACK; k++)
		if (g->players[k] && session_var(g->players[k], IVAR_PENDINFO))
			session_notify(g->players[k], "<pr> %ld", offer_number(g, c, kind));
}

/* Takes side c's offers of the kinds in mask off the game, with their <pr> lines. */
static void drop_offers(struct game *g, enum color c, unsigned mask)
{
	unsigned gone = g->offers[c] & mask;

	g->offers[c] &= ~mask;
	for (int i = 0; i < GAME_OFFER_KINDS; i++)
		if (gone & (1u << i))
			tell_offer_gone(g, c, (enum game_offer)(1u << i));
}

/* Records an offer and tells the opponent, with <pt> and <pf> to those who set pendinfo. */
static void make_offer(struct game *g, struct session *s, enum game_offer kind, const char *text)
{
	enum color c = (enum color)game_color_of(g, s);
	struct session *opp = g->players[color_other(c)];
	long number = offer_number(g, c, kind);
	char param[16] = "#";

	/* Made again (a takeback of other plies): the old one goes, the new one comes. */
	drop_offers(g, c, (unsigned)kind);
	g->offers[c] |= (unsigned)kind;
	if (kind == OFFER_TAKEBACK)
		snprintf(param, sizeof param, "%d", g->takeback_plies[c]);
	session_printf(s, "%s\n", words_of(kind)->sent);
	if (session_var(s, IVAR_PENDINFO))
		session_printf(s, "<pt> %ld w=%s t=%s p=%s\n", number, g->names[color_other(c)],
		    offer_name(kind), param);
	if (opp) {
		session_notify(opp, "%s", text);
		if (session_var(opp, IVAR_PENDINFO))
			session_notify(opp, "<pf> %ld w=%s t=%s p=%s", number, g->names[c],
			    offer_name(kind), param);
	}
}

/* The move a draw claim names, read in the player's letters as game_move() reads it. */
static int read_intended_move(const struct game *g, struct session *s, const char *text, move *m)
{
	static const enum piece_type promote_types[] = { QUEEN, ROOK, BISHOP, KNIGHT };
	enum piece_type promote = promote_types[session_var(s, VAR_PROMOTE) & 3];
	enum san_lang lang = session_var(s, VAR_LANG) == 1 ? SAN_SPANISH : SAN_ENGLISH;
	move legal[MAX_MOVES];
	int nlegal;

	return san_parse_typed(position_board(g->pos), text, lang, promote, m, legal, &nlegal) ==
	    SAN_OK ? 0 : -1;
}

static void offer_draw(struct session *s, void *arg);

void game_draw(struct game *g, struct session *s, const char *move_text)
{
	enum color c = mover_color(g, s);
	if (deciding_refuses(g, s))
		return;
	/*
	 * A claim with an intended move (9.2.1, 9.3.1): the move is read once, as
	 * the player's moves are read, and that very move is played, named by its
	 * coordinates (which read alike in every language).  The draw stands only
	 * if the move was made (not refused by a paused game or a fallen flag).
	 */
	if (move_text && *move_text) {
		move m;
		if (c != to_move(g) || read_intended_move(g, s, move_text, &m) < 0) {
			session_printf(s, "Illegal move (%s).\n", move_text);
			return;
		}
		unsigned claims = position_claimable_after(g->pos, m);
		if (!claims) {
			session_printf(s, "After %s you could not claim a draw.\n", move_text);
			return;
		}
		char uci[MOVE_TEXT_MAX];
		int ply = position_ply_count(g->pos);
		move_format_uci(m, uci);
		if (game_move(g, s, uci) && !g->over && position_ply_count(g->pos) == ply + 1)
			finish_game(g, RESULT_DRAW, claims & CLAIM_THREEFOLD ?
			    "Game drawn by repetition" : "Game drawn by the 50 move rule");
		return;
	}
	unsigned claims = c == to_move(g) ? position_claimable(g->pos) : 0;
	if (claims & CLAIM_THREEFOLD) {
		finish_game(g, RESULT_DRAW, "Game drawn by repetition");
		return;
	}
	if (claims & CLAIM_FIFTY_MOVES) {
		finish_game(g, RESULT_DRAW, "Game drawn by the 50 move rule");
		return;
	}
	if (g->offers[color_other(c)] & OFFER_DRAW) {
		finish_game(g, RESULT_DRAW, "Game drawn by mutual agreement");
		return;
	}
	/*
	 * Else a claim that the opponent cannot mate by any series of legal
	 * moves, decided as a flag is (the clocks stop, as when a player stops
	 * them to call the arbiter); if it fails, the draw is an ordinary offer.
	 * The reply waits for the verdict.  A position's verdict is the same every
	 * time: where the claim failed, another is an offer at once, so that "draw"
	 * over and over cannot keep the clocks stopped and the opponent waiting.
	 */
	const struct board *b = position_board(g->pos);
	const struct claim_spot *refused = &g->claim_refused[c];
	if (refused->set && refused->key == b->key && refused->side == b->side) {
		offer_draw(s, g);
		return;
	}
	g->claimant = s;
	decide(g, DECIDING_CLAIM, color_other(c));
	if (g->claimant == s)
		session_defer_reply(s);
}

/* The draw offered when a claim fails: the reply to the claimant's "draw". */
static void offer_draw(struct session *s, void *arg)
{
	struct game *g = arg;
	char text[128];

	snprintf(text, sizeof text, "%s offers you a draw.", g->names[mover_color(g, s)]);
	make_offer(g, s, OFFER_DRAW, text);
}

struct claim_end {
	struct game *g;
	const char *reason;
	int rc;
};

static void end_claimed(struct session *s, void *arg)
{
	struct claim_end *e = arg;

	(void)s;
	e->rc = finish_game(e->g, RESULT_DRAW, e->reason);
}

/* A claimed draw, once the verdict is in; the claimant's reply closes with it. */
static void claim_decided(struct game *g, bool drawn)
{
	struct session *s = g->claimant;
	char reason[96];

	g->claimant = NULL;
	if (!drawn) {
		const struct board *b = position_board(g->pos);
		g->claim_refused[color_other(g->deciding_for)] =
		    (struct claim_spot){ b->key, (enum color)b->side, true };
		undecided(g);
		if (s)
			session_reply_resume(s, offer_draw, g);
		return;
	}
	snprintf(reason, sizeof reason, "Game drawn because %s has no material to mate",
	    g->names[g->deciding_for]);
	struct claim_end e = { g, reason, 0 };
	if (s)
		session_reply_resume(s, end_claimed, &e);
	else
		end_claimed(NULL, &e);
	if (e.rc < 0)
		undecided(g);	/* not stored: the game goes on, its players told */
}

void game_abort(struct game *g, struct session *s)
{
	char text[128];

	enum color c = mover_color(g, s);
	if (deciding_refuses(g, s))
		return;
	/* Before a player has moved, either player may abort alone. */
	int plies = position_ply_count(g->pos);
	bool first_move = plies < 2;
	if (first_move || (g->paused && g->grace_over) || (g->offers[color_other(c)] & OFFER_ABORT)) {
		/* Agreed, both; alone on move 1, c; over an absent opponent, the one away. */
		g->aborted_by = g->offers[color_other(c)] & OFFER_ABORT ? -1 : first_move ? (int)c :
		    (int)color_other(c);
		end_game(g, RESULT_NONE, first_move && !(g->offers[color_other(c)] & OFFER_ABORT) ?
		    "Game aborted on move 1" : "Game aborted by mutual agreement",
		    TERMINATION_ABANDONED, GAME_ABORTED);
		return;
	}
	snprintf(text, sizeof text, "%s would like to abort the game; type \"abort\" to accept.",
	    g->names[c]);
	make_offer(g, s, OFFER_ABORT, text);
}

/* Saves the game for `resume` later. */
static int adjourn_now(struct game *g, const char *reason)
{
	return end_game(g, RESULT_NONE, reason, TERMINATION_UNTERMINATED, GAME_ADJOURNED);
}

void game_adjourn(struct game *g, struct session *s)
{
	char text[128];

	enum color c = mover_color(g, s);
	if (deciding_refuses(g, s))
		return;
	if (g->paused && g->grace_over) {
		adjourn_now(g, "Game adjourned by disconnection");
		return;
	}
	if (g->offers[color_other(c)] & OFFER_ADJOURN) {
		adjourn_now(g, "Game adjourned by mutual agreement");
		return;
	}
	snprintf(text, sizeof text, "%s would like to adjourn the game; type \"adjourn\" to accept.",
	    g->names[c]);
	make_offer(g, s, OFFER_ADJOURN, text);
}

/* Takes back n plies: the position, the record and the clocks' move counts. */
static void take_back(struct game *g, int n)
{
	int plies = position_ply_count(g->pos);

	if (n > plies)
		n = plies;
	/* Stored first, as a move is: a takeback the database refused is not made. */
	struct db *db = server_db(g->srv);
	struct position *before = position_copy(g->pos);
	if (!before) {
		for (int c = WHITE; c <= BLACK; c++)
			if (g->players[c])
				session_notify(g->players[c], "Server out of memory; no takeback.");
		return;
	}
	commit_earlier(db);
	position_undo(g->pos, n);
	plies -= n;
	/* The clocks are not taken back: replaying what is left would not give them. */
	if (db_game_truncate(db, g->id, plies) < 0 || save_clocks(g) < 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		position_free(g->pos);
		g->pos = before;
		for (int c = WHITE; c <= BLACK; c++)
			if (g->players[c])
				session_notify(g->players[c], "The server could not save the takeback; "
				    "the game goes on without it.");
		return;
	}
	position_free(before);
	note_last_move(g);
	drop_offers(g, WHITE, ~0u);
	drop_offers(g, BLACK, ~0u);
	g->turn_started_ms = server_now_ms(g->srv);
	broadcast_board(g);
	arm_timer(g);
}

void game_takeback(struct game *g, struct session *s, int plies)
{
	char text[160];

	enum color c = mover_color(g, s);
	if (deciding_refuses(g, s))
		return;
	int have = position_ply_count(g->pos);
	if (plies < 1 || plies > have) {
		session_printf(s, "There are only %d half-moves to take back.\n", have);
		return;
	}
	enum color o = color_other(c);
	if ((g->offers[o] & OFFER_TAKEBACK) && g->takeback_plies[o] == plies) {
		take_back(g, plies);
		return;
	}
	g->takeback_plies[c] = plies;
	snprintf(text, sizeof text, "%s would like to take back %d half move(s); type \"takeback %d\" "
	    "to accept.", g->names[c], plies, plies);
	make_offer(g, s, OFFER_TAKEBACK, text);
}

bool game_answer_offer(struct game *g, struct session *s, enum game_offer kind, bool accept)
{
	int ci = game_color_of(g, s);

	if (g->over || ci < 0)
		return false;
	if (deciding_refuses(g, s))
		return true;
	enum color o = color_other((enum color)ci);
	if (!(g->offers[o] & (unsigned)kind))
		return false;
	if (!accept) {
		drop_offers(g, o, (unsigned)kind);
		/* In the words pychess reads ("declines the draw request."), where
		 * lasker drops "the" before some of them. */
		const char *what = kind == OFFER_SWITCH ? "switch sides" : offer_name(kind);
		session_printf(s, "You decline the %s request from %s.\n", what, g->names[o]);
		if (g->players[o])
			session_notify(g->players[o], "%s declines the %s request.", g->names[ci], what);
		return true;
	}
	switch (kind) {
	case OFFER_DRAW:
		game_draw(g, s, NULL);
		break;
	case OFFER_ABORT:
		game_abort(g, s);
		break;
	case OFFER_ADJOURN:
		game_adjourn(g, s);
		break;
	case OFFER_TAKEBACK:
		game_takeback(g, s, g->takeback_plies[o]);
		break;
	case OFFER_PAUSE:
		game_pause(g, s);
		break;
	case OFFER_UNPAUSE:
		game_unpause(g, s);
		break;
	case OFFER_SWITCH:
		game_switch(g, s);
		break;
	}
	return true;
}

bool game_answer_kinds(struct game *g, struct session *s, unsigned kinds, bool accept)
{
	int ci = g->over ? -1 : game_color_of(g, s);

	if (ci < 0)
		return false;
	unsigned present = g->offers[color_other((enum color)ci)] & kinds;
	if (!present)
		return false;
	if (accept)
		return game_answer_offer(g, s, (enum game_offer)(present & -present), true);
	if (deciding_refuses(g, s))
		return true;
	for (int i = 0; i < GAME_OFFER_KINDS; i++)
		if (present & (1u << i))
			game_answer_offer(g, s, (enum game_offer)(1u << i), false);
	return true;
}

/* The side and kind of g's offer numbered so; false when it is no offer of g's. */
static bool offer_of_number(const struct game *g, long number, enum color *c,
    enum game_offer *kind)
{
	long n = number - (OFFER_ID_MAX + 1L);

	if (n < 0 || n / (COLOR_NB * GAME_OFFER_KINDS) != g->number - 1)
		return false;
	*c = (enum color)(n / GAME_OFFER_KINDS % COLOR_NB);
	*kind = (enum game_offer)(1u << (n % GAME_OFFER_KINDS));
	return (g->offers[*c] & (unsigned)*kind) != 0;
}

bool game_answer_offer_number(struct game *g, struct session *s, long number, bool accept)
{
	enum color c;
	enum game_offer kind;
	int mine = game_color_of(g, s);

	/* Only the player the offer was made to answers it: by session, not by name. */
	if (g->over || mine < 0 || !offer_of_number(g, number, &c, &kind) ||
	    c == (enum color)mine)
		return false;
	return game_answer_offer(g, s, kind, accept);
}

bool game_withdraw_offers(struct game *g, struct session *s, long number)
{
	int ci = g->over ? -1 : game_color_of(g, s);
	enum color numbered = WHITE;
	enum game_offer only = 0;

	if (ci < 0 || (number && (!offer_of_number(g, number, &numbered, &only) ||
	    numbered != (enum color)ci)))
		return false;
	return game_withdraw_kinds(g, s, number ? (unsigned)only : g->offers[ci]);
}

bool game_withdraw_kinds(struct game *g, struct session *s, unsigned mask)
{
	int ci = g->over ? -1 : game_color_of(g, s);

	if (ci < 0)
		return false;
	enum color c = (enum color)ci;
	if (!(g->offers[c] & mask))
		return false;
	struct session *opp = g->players[color_other(c)];
	for (int i = 0; i < GAME_OFFER_KINDS; i++) {
		if (!(g->offers[c] & mask & (1u << i)))
			continue;
		const char *what = offer_words[i].withdrawn;
		const char *bare = strncmp(what, "the ", 4) ? what : what + 4;
		session_printf(s, "You withdraw the %s to %s.\n", bare, g->names[color_other(c)]);
		if (opp)
			session_notify(opp, "%s withdraws %s.", g->names[c], what);
	}
	drop_offers(g, c, mask);
	return true;
}

bool game_has_offers(const struct game *g, struct session *s, bool incoming)
{
	int ci = g->over ? -1 : game_color_of(g, s);

	return ci >= 0 && g->offers[incoming ? color_other((enum color)ci) : (enum color)ci] != 0;
}

void game_each_offer(struct game *g, struct session *s, bool incoming,
    void (*fn)(long number, const char *other, const char *what, void *arg), void *arg)
{
	int ci = g->over ? -1 : game_color_of(g, s);

	if (ci < 0)
		return;
	enum color by = incoming ? color_other((enum color)ci) : (enum color)ci;
	for (int i = 0; i < GAME_OFFER_KINDS; i++) {
		enum game_offer kind = (enum game_offer)(1u << i);
		char what[64];
		if (!(g->offers[by] & (unsigned)kind))
			continue;
		if (kind == OFFER_TAKEBACK)
			snprintf(what, sizeof what, "to takeback the last %d half moves.",
			    g->takeback_plies[by]);
		else
			snprintf(what, sizeof what, "%s", offer_words[i].pending);
		fn(offer_number(g, by, kind), g->names[color_other((enum color)ci)], what, arg);
	}
}

bool game_clock_paused(const struct game *g)
{
	return g->clock_stopped;
}

/* "Game 7: Game clock paused." to players and observers: the line pychess stops its clocks on. */
static void tell_clock(struct game *g, const char *state)
{
	for (int c = WHITE; c <= BLACK; c++)
		if (g->players[c])
			session_notify(g->players[c], "Game %d: Game clock %s.", g->number, state);
	for (int i = 0; i < g->observer_count; i++)
		session_notify(g->observers[i], "Game %d: Game clock %s.", g->number, state);
}

/* A pause or unpause asked for (false: the request is made) or agreed to,
 * the opponent having asked first: both sides' clock requests go. */
static bool clock_agreed(struct game *g, struct session *s, enum game_offer kind,
    const char *verb)
{
	enum color c = mover_color(g, s), o = color_other(c);

	if (!(g->offers[o] & (unsigned)kind)) {
		char text[96];
		snprintf(text, sizeof text, "%s requests to %s the game.", g->names[c], verb);
		make_offer(g, s, kind, text);
		return false;
	}
	drop_offers(g, o, OFFER_PAUSE | OFFER_UNPAUSE);
	drop_offers(g, c, OFFER_PAUSE | OFFER_UNPAUSE);
	g->paused_elapsed_ms = 0;
	return true;
}

/*
 * As lasker's com_pause: a request, which the opponent accepts with
 * "pause" or "accept".  Accepted, the clocks stop, and as lasker the time
 * of the turn so far is given back: they stand as the last move left them.
 */
void game_pause(struct game *g, struct session *s)
{
	enum color c = mover_color(g, s), o = color_other(c);

	if (deciding_refuses(g, s))
		return;
	if (clock_untimed(&g->tc)) {
		session_printf(s, "You can't pause untimed games.\n");
		return;
	}
	if (g->clock_stopped) {
		session_printf(s, "Game is already paused, use \"unpause\" to resume.\n");
		return;
	}
	if (!clock_agreed(g, s, OFFER_PAUSE, "pause"))
		return;
	g->clock_stopped = true;
	arm_timer(g);
	broadcast_board(g);
	if (g->players[o])
		session_notify(g->players[o], "%s accepted pause. Game clock paused.", g->names[c]);
	session_printf(s, "Game clock paused.\n");
	tell_clock(g, "paused");
}

/* As lasker's com_unpause: a request too; accepted, the turn starts afresh. */
void game_unpause(struct game *g, struct session *s)
{
	enum color c = mover_color(g, s), o = color_other(c);

	if (deciding_refuses(g, s))
		return;
	/* FICS's words, which pychess reads (lasker: "Game is not paused."). */
	if (!g->clock_stopped) {
		session_printf(s, "The clock is not paused.\n");
		return;
	}
	if (!clock_agreed(g, s, OFFER_UNPAUSE, "unpause"))
		return;
	g->clock_stopped = false;
	/* A player away keeps the clocks stopped until back (game_player_back). */
	if (!g->paused)
		g->turn_started_ms = server_now_ms(g->srv);
	broadcast_board(g);
	arm_timer(g);
	session_printf(s, "Game clock resumed.\n");
	if (g->players[o])
		session_notify(g->players[o], "Game clock resumed.");
	tell_clock(g, "resumed");
}

/* Colours change places before the first move: the seats, the clocks and the stored row. */
static int swap_sides(struct game *g)
{
	struct db *db = server_db(g->srv);

	commit_earlier(db);
	if (db_game_swap_sides(db, g->id) < 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		return -1;
	}
	char name[DB_NAME_MAX], key[SESSION_KEY_LEN + 1], rating[8];
	memcpy(name, g->names[WHITE], sizeof name);
	memcpy(g->names[WHITE], g->names[BLACK], sizeof name);
	memcpy(g->names[BLACK], name, sizeof name);
	memcpy(key, g->keys[WHITE], sizeof key);
	memcpy(g->keys[WHITE], g->keys[BLACK], sizeof key);
	memcpy(g->keys[BLACK], key, sizeof key);
	memcpy(rating, g->rating_text[WHITE], sizeof rating);
	memcpy(g->rating_text[WHITE], g->rating_text[BLACK], sizeof rating);
	memcpy(g->rating_text[BLACK], rating, sizeof rating);
	int64_t id = g->user_ids[WHITE];
	g->user_ids[WHITE] = g->user_ids[BLACK];
	g->user_ids[BLACK] = id;
	struct session *p = g->players[WHITE];
	g->players[WHITE] = g->players[BLACK];
	g->players[BLACK] = p;
	struct clock_lag lag = g->lag[WHITE];
	g->lag[WHITE] = g->lag[BLACK];
	g->lag[BLACK] = lag;
	for (int c = WHITE; c <= BLACK; c++) {
		if (!g->players[c])
			continue;
		struct match_terms t = { .tc = g->tc, .rated = g->rated, .color = c };
		session_set_last_terms(g->players[c], &t);
	}
	return 0;
}

/*
 * As lasker's com_switch, a request the opponent accepts with "switch" or
 * "accept"; but only before the first move (a game here starts at once,
 * with no setting-up phase, so "underway" is the first move made).
 */
void game_switch(struct game *g, struct session *s)
{
	char text[128];
	enum color c = mover_color(g, s), o = color_other(c);

	if (deciding_refuses(g, s))
		return;
	if (position_ply_count(g->pos) > 0) {
		session_printf(s, "You cannot switch sides once a game is underway.\n");
		return;
	}
	if (g->tourney_id) {
		session_printf(s, "You cannot switch sides in a tournament game.\n");
		return;
	}
	if (!(g->offers[o] & OFFER_SWITCH)) {
		snprintf(text, sizeof text, "%s would like to switch sides.\n"
		    "Type \"accept\" to switch sides, or \"decline\" to refuse.", g->names[c]);
		make_offer(g, s, OFFER_SWITCH, text);
		return;
	}
	drop_offers(g, WHITE, ~0u);
	drop_offers(g, BLACK, ~0u);
	if (swap_sides(g) < 0) {
		for (int k = WHITE; k <= BLACK; k++)
			if (g->players[k])
				session_notify(g->players[k], "The server could not save the switch; "
				    "the colours stay as they were.");
		return;
	}
	/* As lasker, the time of the turn so far is given back. */
	g->paused_elapsed_ms = 0;
	g->turn_started_ms = server_now_ms(g->srv);
	broadcast_board(g);
	arm_timer(g);
}

/*
 * As lasker's com_moretime: seconds on the opponent's clock (the caller
 * caps them).  Stored before anyone is told, so that a crash after the
 * reply cannot take the time back.
 */
void game_moretime(struct game *g, struct session *s, long seconds)
{
	enum color c = mover_color(g, s), o = color_other(c);
	struct db *db = server_db(g->srv);

	if (deciding_refuses(g, s))
		return;
	if (clock_untimed(&g->tc)) {
		session_printf(s, "Your game is untimed: there is no clock to add time to.\n");
		return;
	}
	int64_t before = g->clocks[o].remaining_ms;
	g->clocks[o].remaining_ms += (int64_t)seconds * 1000;
	commit_earlier(db);
	if (save_clocks(g) < 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		g->clocks[o].remaining_ms = before;
		session_printf(s, "The server could not save the added time; no time was added.\n");
		return;
	}
	arm_timer(g);
	session_printf(s, "%ld seconds were added to your opponents clock\n", seconds);
	if (g->players[o])
		session_notify(g->players[o], "Your opponent has added %ld seconds to your clock.",
		    seconds);
}

/* A win claimed over a player who did not come back: a draw if the claimant cannot mate (6.9). */
static void forfeit_decided(struct game *g, bool drawn)
{
	enum color c = g->deciding_for, away = color_other(c);
	char reason[96];

	if (drawn)
		snprintf(reason, sizeof reason, "Game drawn because %s disconnected and %s has "
		    "no material to mate", g->names[away], g->names[c]);
	else
		snprintf(reason, sizeof reason, "%s forfeits by disconnection", g->names[away]);
	if (end_game(g, drawn ? RESULT_DRAW : away == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS,
	    reason, TERMINATION_ABANDONED, GAME_FINISHED) < 0)
		undecided(g);	/* not stored: still paused, the claim may be made again */
}

/* A flag's end once 6.9 is decided; not stored, it falls again a little later. */
static void flag_decided(struct game *g, bool drawn)
{
	/* Nobody left to tell: the end stands even if the database refuses it. */
	if (!g->players[WHITE] && !g->players[BLACK])
		g->must_end = true;
	g->quiet_refusal = g->flag_retrying;
	int rc = flag_end(g, drawn);
	g->quiet_refusal = false;
	if (rc < 0) {
		g->flag_retrying = true;
		undecided(g);
		retry_in(g, GAME_END_RETRY_MS);
	}
}

/* What a verdict decides, once it is in; the clocks were stopped until now. */
static void decided(struct game *g, bool unwinnable)
{
	switch (g->deciding) {
	case DECIDING_FLAG:
		flag_decided(g, unwinnable);
		break;
	case DECIDING_FORFEIT:
		forfeit_decided(g, unwinnable);
		break;
	case DECIDING_CLAIM:
		claim_decided(g, unwinnable);
		break;
	case DECIDING_NONE:
		break;
	}
}

void game_flag(struct game *g, struct session *s)
{
	int ci = player_color(g, s);

	if (ci < 0 || deciding_refuses(g, s))
		return;
	enum color c = (enum color)ci;
	if (g->paused && g->grace_over) {
		decide(g, DECIDING_FORFEIT, c);
		return;
	}
	if (flagged_now(g) && to_move(g) != c) {
		flag_fell(g);
		return;
	}
	session_printf(s, "Your opponent is not out of time.\n");
}

void game_request_adjudication(struct game *g, struct session *s)
{
	if (player_color(g, s) < 0 || deciding_refuses(g, s))
		return;
	if (!g->paused || !g->grace_over) {
		session_printf(s, "You can ask for adjudication only when your opponent has not come "
		    "back in time.\n");
		return;
	}
	if (adjourn_now(g, "Game adjourned for adjudication") == 0)
		session_printf(s, "The game is stored for an administrator to adjudicate.\n");
}

/* --- players coming and going --- */

void game_player_left(struct game *g, struct session *s)
{
	int c = game_color_of(g, s);

	if (c < 0 || g->over)
		return;
	g->players[c] = NULL;
	session_set_game(s, NULL);
	if (g->claimant == s)
		g->claimant = NULL;
	/* A flag fell or a forfeit was claimed before: the verdict ends the game. */
	if (g->deciding == DECIDING_FLAG || g->deciding == DECIDING_FORFEIT)
		return;
	struct session *opp = g->players[color_other((enum color)c)];
	if (!opp) {
		/* Both gone: keep it for later if it can be resumed, else drop it. */
		g->aborted_by = -1;
		if (g->user_ids[WHITE] && g->user_ids[BLACK])
			end_game_forced(g, RESULT_NONE, "Game adjourned when both players disconnected",
			    TERMINATION_UNTERMINATED, GAME_ADJOURNED);
		else
			end_game_forced(g, RESULT_NONE, "Game aborted when both players disconnected",
			    TERMINATION_ABANDONED, GAME_ABORTED);
		return;
	}
	if (position_ply_count(g->pos) < 2) {
		g->aborted_by = c;
		end_game_forced(g, RESULT_NONE, "Game aborted on move 1", TERMINATION_ABANDONED,
		    GAME_ABORTED);
		return;
	}
	/* Clocks stop while a player is away (both kinds of game), for the grace period. */
	if (!g->paused) {
		g->paused_elapsed_ms = elapsed_ms(g);
		g->paused = true;
	}
	int grace_ms = server_config(g->srv)->limits.reconnect_grace_ms;
	g->grace_until_ms = server_now_ms(g->srv) + grace_ms;
	g->grace_over = false;
	session_notify(opp, "Your opponent, %s, has lost contact or quit.  The clocks are stopped; "
	    "they have %d seconds to return.", g->names[c], (grace_ms + 999) / 1000);
	for (int i = 0; i < g->observer_count; i++)
		session_notify(g->observers[i], "%s has lost contact; game %d is paused.", g->names[c],
		    g->number);
	arm_timer(g);
}

void game_player_back(struct game *g, struct session *s)
{
	int c = seat_of(g, s);

	if (c < 0 || g->over)
		return;
	g->players[c] = s;
	session_set_game(s, g);
	g->paused = false;
	g->grace_until_ms = 0;
	g->grace_over = false;
	g->turn_started_ms = server_now_ms(g->srv) - g->paused_elapsed_ms;
	struct session *opp = g->players[color_other((enum color)c)];
	if (opp)
		session_notify(opp, "%s has returned; the game continues.", g->names[c]);
	announce_start(g, true);
	arm_timer(g);
}

void game_account_deleted(struct game *g, int64_t user_id)
{
	char reason[160];

	for (int c = WHITE; c <= BLACK; c++) {
		if (g->user_ids[c] != user_id)
			continue;
		g->user_ids[c] = 0;
		if (g->over)
			continue;
		if (position_ply_count(g->pos) < 2) {
			snprintf(reason, sizeof reason, "Game aborted: %s's account was deleted",
			    g->names[c]);
			end_game_forced(g, RESULT_NONE, reason, TERMINATION_ABANDONED, GAME_ABORTED);
		} else {
			snprintf(reason, sizeof reason, "%s forfeits: the account was deleted", g->names[c]);
			end_game_forced(g, c == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, reason,
			    TERMINATION_ABANDONED, GAME_FINISHED);
		}
	}
}

/* --- observers --- */

int game_observe(struct game *g, struct session *s)
{
	for (int i = 0; i < g->observer_count; i++)
		if (g->observers[i] == s)
			return 1;
	if (g->observer_count >= LIMIT_GAME_OBSERVERS)
		return -1;
	if (g->observer_count == g->observer_cap) {
		int cap = g->observer_cap ? g->observer_cap * 2 : 8;
		struct session **o = realloc(g->observers, (size_t)cap * sizeof *o);
		if (!o)
			return -1;
		g->observers = o;
		g->observer_cap = cap;
	}
	g->observers[g->observer_count++] = s;
	return 0;
}

void game_unobserve(struct game *g, struct session *s)
{
	for (int i = 0; i < g->observer_count; i++) {
		if (g->observers[i] == s) {
			g->observers[i] = g->observers[--g->observer_count];
			return;
		}
	}
}

void game_each_observer(struct game *g, void (*fn)(struct session *s, void *arg), void *arg)
{
	for (int i = 0; i < g->observer_count; i++)
		fn(g->observers[i], arg);
}

/* A rating text's number ("1520P" is 1520), 0 for "----" and "++++". */
static int rating_number(const char *text)
{
	char digits[8];
	size_t n = strspn(text, "0123456789");
	long v;

	if (!n || n >= sizeof digits)
		return 0;
	memcpy(digits, text, n);
	digits[n] = '\0';
	return number_parse(digits, 0, 9999, &v) == NUMBER_OK ? (int)v : 0;
}

/*
 * As lasker's tell() for kibitzes and whispers: a "set kiblevel N" reader
 * hears only talkers rated N or more (the better of blitz and standard);
 * an admin is always heard.
 */
static bool kiblevel_hears(struct session *to, struct session *from)
{
	int blitz = rating_number(session_rating_text(from, CLOCK_CATEGORY_BLITZ)),
	    standard = rating_number(session_rating_text(from, CLOCK_CATEGORY_STANDARD));

	return session_admin(from) || (blitz > standard ? blitz : standard) >=
	    session_var(to, VAR_KIBLEVEL);
}

/*
 * As lasker's com_kibitz and com_whisper: a kibitz goes to players and
 * observers with "set kibitz 1", a whisper to observers whatever their
 * kibitz variable; the talker reads "kibitzed to N." or "whispered to N.".
 */
void game_chat(struct game *g, struct session *from, const char *text, bool whisper)
{
	char rating[8] = "++++";
	int c = game_color_of(g, from);
	int told = 0;

	if (c >= 0)
		snprintf(rating, sizeof rating, "%s", g->rating_text[c]);
	else if (session_registered(from))
		snprintf(rating, sizeof rating, "----");
	const char *verb = whisper ? "whispers" : "kibitzes";
	if (!whisper && g->exam)
		told += examine_tell_examiners(g->exam, from, "%s(%s)[%d] %s: %s", session_name(from),
		    rating, g->number, verb, text);
	if (!whisper) {
		for (int k = WHITE; k <= BLACK; k++)
			if (g->players[k] && g->players[k] != from &&
			    session_var(g->players[k], VAR_KIBITZ) &&
			    kiblevel_hears(g->players[k], from) &&
			    !lists_censors(g->players[k], from)) {
				session_notify(g->players[k], "%s(%s)[%d] %s: %s", session_name(from), rating,
				    g->number, verb, text);
				told++;
			}
	}
	for (int i = 0; i < g->observer_count; i++) {
		struct session *o = g->observers[i];
		if (o == from)
			continue;
		if ((!whisper && !session_var(o, VAR_KIBITZ)) || !kiblevel_hears(o, from) ||
		    lists_censors(o, from) || !session_offer_chat(o))
			continue;
		session_notify(o, "%s(%s)[%d] %s: %s", session_name(from), rating, g->number, verb, text);
		told++;
	}
	session_printf(from, "%s to %d.\n", whisper ? "whispered" : "kibitzed", told);
}

/* --- examined boards --- */

struct examine *game_examine(const struct game *g) { return g->exam; }
const char *game_ply_san(const struct game *g, int ply) { return g->plies[ply].san; }

/* The clocks an examined board shows: each side's as of its last move shown. */
static void examined_clocks(struct game *g)
{
	for (int c = WHITE; c <= BLACK; c++)
		clock_side_init(&g->tc, &g->clocks[c]);
	int plies = position_ply_count(g->pos);
	enum color mover = (plies % 2) ? color_other(to_move(g)) : to_move(g);
	for (int i = 0; i < plies; i++, mover = color_other(mover))
		if (g->plies[i].clock_ms >= 0 && !clock_untimed(&g->tc))
			g->clocks[mover].remaining_ms = g->plies[i].clock_ms;
}

/* The last move's verbose form and double-push file, from the board before it. */
static void note_last_move(struct game *g)
{
	int plies = position_ply_count(g->pos);

	g->last_dpp = -1;
	strcpy(g->last_verbose, "none");
	if (!plies)
		return;
	struct position *copy = position_copy(g->pos);
	if (copy && position_undo(copy, 1) == 0) {
		move last = position_move_at(g->pos, plies - 1);
		const struct board *b = position_board(copy);
		move_format_verbose(b, last, g->last_verbose);
		if (piece_type_of(b->squares[move_from(last)]) == PAWN &&
		    (move_from(last) ^ move_to(last)) == 16)
			g->last_dpp = square_file(move_from(last));
	}
	position_free(copy);
}

struct game *game_open_examined(struct server *srv, struct examine *ex,
    const struct game_examined *p, char *err, size_t errlen)
{
	if (games_count(server_games(srv)) >= LIMIT_GAMES) {
		snprintf(err, errlen, "There are too many games in progress.");
		return NULL;
	}
	struct game *g = game_alloc(srv);
	if (!g) {
		snprintf(err, errlen, "Out of memory.");
		return NULL;
	}
	g->tc = p->tc;
	g->rated = p->rated;
	g->category = clock_category(&p->tc);
	/* The clock never runs: the side to move has used no time, ever. */
	g->paused = true;
	g->started_unix = p->started_unix ? p->started_unix : (int64_t)time(NULL);
	for (int c = WHITE; c <= BLACK; c++) {
		snprintf(g->names[c], sizeof g->names[c], "%s", p->names[c]);
		snprintf(g->rating_text[c], sizeof g->rating_text[c], "%s", p->ratings[c]);
	}
	g->pos = position_new(p->fen, err, errlen);
	if (!g->pos || ensure_plies(g, 128) < 0) {
		if (g->pos)
			snprintf(err, errlen, "Out of memory.");
		game_free(g);
		return NULL;
	}
	examined_clocks(g);
	g->number = take_number(server_games(srv), g);
	g->exam = ex;
	return g;
}

int game_examined_reset(struct game *g, const char *fen, char *err, size_t errlen)
{
	struct position *pos = position_new(fen, err, errlen);

	if (!pos)
		return -1;
	position_free(g->pos);
	g->pos = pos;
	note_last_move(g);
	examined_clocks(g);
	return 0;
}

int game_examined_play(struct game *g, move m, int64_t time_ms, int64_t clock_ms)
{
	int ply = position_ply_count(g->pos);
	enum color mover = to_move(g);

	if (ensure_plies(g, ply + 1) < 0)
		return -1;
	struct game_ply *p = &g->plies[ply];
	const struct board *before = position_board(g->pos);
	move_format_verbose(before, m, g->last_verbose);
	g->last_dpp = piece_type_of(before->squares[move_from(m)]) == PAWN &&
	    (move_from(m) ^ move_to(m)) == 16 ? square_file(move_from(m)) : -1;
	move_format_uci(m, p->uci);
	position_play(g->pos, m, SAN_ENGLISH, p->san);
	p->time_ms = time_ms;
	p->clock_ms = clock_ms >= 0 ? clock_ms : g->clocks[mover].remaining_ms;
	g->clocks[mover].remaining_ms = p->clock_ms;
	return 0;
}

void game_examined_undo(struct game *g, int plies)
{
	position_undo(g->pos, plies);
	note_last_move(g);
	examined_clocks(g);
}

void game_examined_set_name(struct game *g, enum color c, const char *name)
{
	snprintf(g->names[c], sizeof g->names[c], "%s", name);
}

void game_examined_show(struct game *g)
{
	broadcast_board(g);
}

void game_examined_close(struct game *g)
{
	while (g->observer_count)
		session_unobserve(g->observers[g->observer_count - 1], g);
	g->over = true;
	retire(g);
}
