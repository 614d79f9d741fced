/*
 * bench-evening: a busy evening on chessd, measured in steady state.  P
 * logged-in guests over several loopback source addresses (a share over
 * TLS): 2G of them play G games at human pace, O watch games chosen by a
 * Zipf law, the rest idle, now and then asking `who`, `games` and
 * `sought`, telling their channel, or leaving and logging in again.
 *   bench-evening [--chessd PATH] [--connections P] [--games G]
 *                 [--observers O] [--pace S] [--sigma X] [--plies N]
 *                 [--window S] [--warmup S] [--reference P] [--tls-share F]
 *                 [--sources K] [--seek-watchers F] [--who-every S]
 *                 [--games-every S] [--sought-every S] [--tell-every S]
 *                 [--relogin-every S]
 * A player thinks for a log-normal time (median --pace, log sigma
 * --sigma) after each board that is its move, then plays a random legal
 * move (rules core).  A game ends after a random number of plies near
 * --plies (the side to move resigns; one game in ten is aborted after the
 * first move instead) and its two players start the next at once, by
 * seek and play or by match and accept in turn, so that G stays about
 * constant; the observers of a table observe each new game on it.  Idle
 * guests act at exponential intervals with the given means per guest.
 * Everyone runs in block mode, so that every reply is framed and any text
 * the benchmark does not expect counts as an error.
 * The guests log in first and the first games begin once all are in,
 * IN_FLIGHT_MAX logins and first games at a time.  After every table has
 * its first game, a
 * --warmup, then the --window is measured: moves offered (sent) and
 * delivered (boards the opponent read), move latency to the opponent and to
 * the last observer of the table, query latency (send to the block's end),
 * the server's user and system CPU (/proc/PID/stat) and RSS
 * (/proc/PID/status).  Unless --reference 0, the same mix scaled to
 * --reference connections runs first, for the CPU-per-move ratio.
 * The configuration lifts chessd's per-user rate limits (said in the
 * output).  Exit 0 when every run completed with no error, 1 when one did
 * not, 2 on bad arguments or a server that cannot start.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/crypto.h>
#include <openssl/err.h>

#include "bench_samples.h"
#include "bench_server.h"
#include "bench_style12.h"
#include "board.h"
#include "move.h"
#include "movegen.h"

#define CONNECTIONS_DEFAULT 19600
#define GAMES_DEFAULT 8000
#define OBSERVERS_DEFAULT 1600
#define REFERENCE_DEFAULT 2000
#define PACE_DEFAULT 0.5
#define SIGMA_DEFAULT 0.5
#define PLIES_DEFAULT 60
#define WINDOW_DEFAULT 30
#define WARMUP_DEFAULT 5
#define TLS_SHARE_DEFAULT 0.1
#define SOURCES_DEFAULT 8
#define SOURCES_MAX 200
#define SEEK_WATCHERS_DEFAULT 0.02
/* Mean seconds between one idle guest's actions of each kind. */
#define WHO_EVERY_DEFAULT 600
#define GAMES_EVERY_DEFAULT 600
#define SOUGHT_EVERY_DEFAULT 300
#define TELL_EVERY_DEFAULT 60
#define RELOGIN_EVERY_DEFAULT 900
#define CHANNEL_FIRST 50
#define CHANNELS 10
#define ABORT_ONE_IN 10
#define CLOCK_MINUTES 60
#define ZIPF_EXPONENT 1.0
/* Connections logging in (or handshaking) at once. */
#define IN_FLIGHT_MAX 200
/* Set-up may take this long before the run counts as failed. */
#define RAMP_MAX_S 1200.0
/* A run fails when no move was delivered for this long after set-up. */
#define STALL_TIMEOUT_S 30.0
#define TICK_MS 100
/* How often set-up says how far it is. */
#define REPORT_EVERY_S 15.0
#define UNMATCHED_MAX 65536
#define ERRORS_SHOWN 5
/* A block id is a sequence number times KIND_SPAN plus what the command was. */
#define KIND_SPAN 16
/* Moves an observer may lag behind and still be timed. */
#define RECENT_PLIES 8
#define TARGET_P99_MS 50.0
#define TARGET_CPU_RATIO 1.25
/* Bytes one read of a client's socket may take. */
#define READ_MAX_BYTES (1024 * 1024)

enum role { ROLE_PLAYER, ROLE_OBSERVER, ROLE_IDLE };

enum client_state {
	C_CONNECTING,	/* TCP and TLS under way, nothing read yet */
	C_LOGIN,	/* the guest login, as far as login.step */
	C_SETUP,	/* block mode, style 12 and the variables */
	C_READY,	/* set up: playing, observing or idling */
	C_LEAVING,	/* sent quit, waiting for the server to close */
	C_CLOSED,	/* failed or dropped */
};

/* What a block answers: the low digits of its id. */
enum kind {
	K_SETUP = 1, K_SETUP_LAST, K_MOVE, K_RESIGN, K_ABORT, K_MATCH, K_ACCEPT, K_SEEK, K_PLAY,
	K_OBSERVE, K_WHO, K_GAMES, K_SOUGHT, K_TELL, K_QUIT,
};

enum query { Q_WHO, Q_GAMES, Q_SOUGHT, Q_TELL, Q_RELOGIN, QUERIES };

static const char *const query_names[QUERIES] = { "who", "games", "sought", "tell", "re-login" };

enum stage { STAGE_RAMP, STAGE_WARMUP, STAGE_WINDOW, STAGE_DONE };

struct run;
struct table;

struct client {
	struct run *run;
	struct bufferevent *bev;
	struct table *table;		/* players and observers */
	enum role role;
	enum client_state state;
	bool tls, watching;		/* observers: seeing the table's game */
	int index, source;
	struct bench_login login;
	long seq;
	int block_kind;			/* the block being read, 0 outside */
	enum query query;		/* idle: the one outstanding, QUERIES for none */
	bool query_complete;		/* its reply's last line has come */
	double query_s, login_s;
	struct event *timer;		/* idle: the next action */
};

/* A move sent, until its table's last observer has seen it. */
struct sent {
	int ply;
	double at_s;
	int observers_pending;
	bool in_window;
};

/* Two players who play one game after another, and the observers of their games. */
struct table {
	struct run *run;
	struct client *players[2];
	struct client **observers;
	int observer_count, observers_cap;
	int number;			/* the game on now, 0 between games */
	int games_played, target_ply, ready, ended, white;	/* white: players index, -1 unknown */
	bool aborting, over;
	struct board board;		/* the position the side to move sees */
	int board_ply;
	int sent_ply;			/* the last move sent, 0 for none */
	struct sent recent[RECENT_PLIES];	/* [ply % RECENT_PLIES] */
	struct event *think;
};

struct figures {
	long offered, delivered, games_started, games_ended, observer_deliveries;
	long queries[QUERIES], observe_races;
	struct samples opponent, observer, query[QUERIES];
	double user_s, sys_s, client_cpu_s, wall_s;
	long rss0_kb, rss_kb;
};

struct config {
	const char *chessd;
	int connections, games, observers, idle;
	double pace_s, sigma, tls_share, seek_watchers;
	int plies, sources;
	double window_s, warmup_s;
	double every_s[QUERIES];
};

struct run {
	struct config cfg;
	struct bench_server *server;
	struct event_base *base;
	struct event *tick;
	struct client *clients;
	struct table *tables;
	int started, in_flight, ready, tables_going, tables_next;
	bool tables_started;
	double login_s;			/* how long the logins took */
	enum stage stage;
	double start_s, ramp_s, stage_s, last_delivery_s, last_report_s;
	uint64_t rng;
	struct figures fig;
	long errors, relogins;
	double user0_s, sys0_s, client_cpu0_s;
	bool broken;
	char why[256];
};

/* The figures of one run, for the side-by-side table. */
struct result {
	bool ran, ok;
	struct config cfg;
	struct figures fig;
	double ramp_s, login_s, stop_s;
	long errors;
	int tls_count, log_issues;
	char why[320];
};

/* --- helpers --- */

static double self_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static uint64_t rng_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform in (0, 1). */
static double rng_unit(uint64_t *state)
{
	return ((double)(rng_next(state) >> 11) + 0.5) / 9007199254740992.0;
}

/* A log-normal think time with the given median. */
static double think_s(struct run *r)
{
	double u1 = rng_unit(&r->rng), u2 = rng_unit(&r->rng);
	double normal = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);

	return r->cfg.pace_s * exp(r->cfg.sigma * normal);
}

static struct timeval timeval_of(double s)
{
	struct timeval tv = { (time_t)s, (suseconds_t)((s - floor(s)) * 1e6) };

	return tv;
}

static void figures_free(struct figures *f)
{
	samples_free(&f->opponent);
	samples_free(&f->observer);
	for (int q = 0; q < QUERIES; q++)
		samples_free(&f->query[q]);
}

static bool measuring(const struct run *r)
{
	return r->stage == STAGE_WINDOW;
}

/* A run that cannot go on: say why (the first reason wins) and leave the loop. */
static void run_break(struct run *r, const char *fmt, const char *detail)
{
	if (!r->why[0])
		snprintf(r->why, sizeof r->why, fmt, detail);
	r->broken = true;
	event_base_loopbreak(r->base);
}

/* Text the server should not have sent: counted, the first few shown. */
static void run_error(struct run *r, const struct client *c, const char *what, const char *line)
{
	if (r->errors++ < ERRORS_SHOWN)
		fprintf(stderr, "bench-evening: error: %s (%s, client %d): %.160s\n", what,
		    c->login.name, c->index, line);
}

/* Sends a command framed as a block whose id says what it is. */
static void client_command(struct client *c, enum kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void client_command(struct client *c, enum kind kind, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n = snprintf(line, sizeof line, "%ld ", ++c->seq * KIND_SPAN + kind);

	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof line - 2)
		n = (int)sizeof line - 2;
	line[n++] = '\n';
	bufferevent_write(c->bev, line, (size_t)n);
}

/* --- tables --- */

static void client_connect(struct run *r, struct client *c);
static void tables_start_more(struct run *r);

static struct client *table_mover(struct table *t)
{
	return t->players[(t->board_ply % 2) ^ t->white];
}

/* The next game on a table: by seek and play, or by match and accept, in turn. */
static void table_start_game(struct table *t)
{
	struct client *starter = t->players[t->games_played % 2];
	struct client *other = t->players[1 - t->games_played % 2];

	t->number = 0;
	t->ready = t->ended = 0;
	t->white = -1;
	t->over = t->aborting = false;
	t->sent_ply = 0;
	memset(t->recent, 0, sizeof t->recent);
	t->target_ply = (int)(rng_next(&t->run->rng) % ABORT_ONE_IN) == 0 ? 1 :
	    t->run->cfg.plies / 2 + (int)(rng_next(&t->run->rng) % (uint64_t)(t->run->cfg.plies + 1));
	t->aborting = t->target_ply == 1;
	/* Every seek asks for white, so that no two tables' seeks match each
	 * other (FICS starts a game between two matching seeks at once). */
	if (t->games_played++ % 4 < 2)
		client_command(starter, K_SEEK, "seek %d 0 u white", CLOCK_MINUTES);
	else
		client_command(starter, K_MATCH, "match %s %d 0 u", other->login.name,
		    CLOCK_MINUTES);
}

/* The side to move's think is over: a random legal move, or the game's planned end. */
static void table_think_cb(evutil_socket_t fd, short what, void *arg)
{
	struct table *t = arg;
	struct run *r = t->run;
	struct client *c = table_mover(t);
	move list[MAX_MOVES];
	char text[MOVE_TEXT_MAX + 2];

	(void)fd;
	(void)what;
	if (t->over || !t->number || c->state != C_READY)
		return;
	if (t->board_ply >= t->target_ply) {
		t->over = true;
		if (t->aborting)
			client_command(c, K_ABORT, "abort");
		else
			client_command(c, K_RESIGN, "resign");
		return;
	}
	int n = movegen_legal(&t->board, list);
	if (n <= 0)
		return;		/* the game ends by itself: its end line follows */
	move_format_uci(list[rng_next(&r->rng) % (uint64_t)n], text);
	struct sent *m = &t->recent[(t->board_ply + 1) % RECENT_PLIES];
	t->sent_ply = m->ply = t->board_ply + 1;
	m->at_s = bench_server_now_s();
	m->in_window = measuring(r);
	m->observers_pending = 0;
	for (int i = 0; i < t->observer_count; i++)
		m->observers_pending += t->observers[i]->watching;
	if (m->in_window)
		r->fig.offered++;
	client_command(c, K_MOVE, "%s", text);
}

static void table_schedule_think(struct table *t)
{
	struct timeval tv = timeval_of(think_s(t->run));

	event_add(t->think, &tv);
}

/* A player's board: the start of a game, or the opponent's move that it now answers. */
static void player_board(struct client *c, const struct style12 *s, const char *line)
{
	struct table *t = c->table;
	struct run *r = c->run;
	double now = bench_server_now_s();
	int ply = style12_ply(s);

	if (s->relation != 1 && s->relation != -1)
		return;
	if (ply == 0 && !t->number) {
		/* Either player's first board names the game; the observers follow it. */
		t->number = s->game;
		t->board_ply = 0;
		if (measuring(r))
			r->fig.games_started++;
		for (int i = 0; i < t->observer_count; i++)
			if (t->observers[i]->state == C_READY)
				client_command(t->observers[i], K_OBSERVE, "observe %d", t->number);
		if (t->games_played == 1) {
			r->tables_going++;
			tables_start_more(r);
		}
	}
	if (s->game != t->number)
		return;
	if (ply == 0) {
		if (s->relation == 1)
			t->white = c == t->players[0] ? 0 : 1;
		if (++t->ready < 2)
			return;
	} else if (s->relation != 1 || ply != t->sent_ply) {
		return;		/* the mover's own copy */
	} else {
		const struct sent *m = &t->recent[ply % RECENT_PLIES];
		if (m->in_window && measuring(r))
			samples_add(&r->fig.opponent, (now - m->at_s) * 1000.0);
		if (measuring(r))
			r->fig.delivered++;
		r->last_delivery_s = now;
	}
	if (t->white < 0) {
		run_error(r, c, "no player is white at the start", line);
		return;
	}
	if (style12_board(s, &t->board) < 0) {
		run_error(r, c, "cannot rebuild the board", line);
		return;
	}
	t->board_ply = ply;
	table_schedule_think(t);
}

static void observer_board(struct client *c, const struct style12 *s)
{
	struct table *t = c->table;
	struct run *r = c->run;

	if (s->relation != 0 || s->game != t->number || !t->number)
		return;
	int ply = style12_ply(s);
	if (!c->watching) {
		c->watching = true;	/* the board of the observe reply */
		return;
	}
	struct sent *m = &t->recent[ply % RECENT_PLIES];
	if (ply < 1 || m->ply != ply || m->observers_pending <= 0)
		return;
	if (measuring(r))
		r->fig.observer_deliveries++;
	if (--m->observers_pending == 0 && m->in_window && measuring(r))
		samples_add(&r->fig.observer, (bench_server_now_s() - m->at_s) * 1000.0);
}

/* "{Game N (A vs. B) ...}": a start (Creating) or an end, to players and observers. */
static void on_game_line(struct client *c, const char *line)
{
	struct table *t = c->table;
	struct run *r = c->run;
	int number;

	if (!t || sscanf(line, "{Game %d ", &number) != 1 || strstr(line, ") Creating "))
		return;
	if (number != t->number)
		return;
	if (c->role == ROLE_OBSERVER) {
		c->watching = false;
		return;
	}
	t->over = true;		/* planned, or by itself: mate, stalemate, a draw rule */
	if (++t->ended < 2)
		return;
	if (measuring(r))
		r->fig.games_ended++;
	event_del(t->think);
	table_start_game(t);
}

/* --- lines --- */

static bool starts(const char *line, const char *prefix)
{
	return !strncmp(line, prefix, strlen(prefix));
}

/* A channel tell as others see it: "Name(U)(50): text". */
static bool is_channel_tell(const char *line)
{
	const char *close = strstr(line, "): ");

	if (!close)
		return false;
	const char *open = close;
	while (open > line && open[-1] >= '0' && open[-1] <= '9')
		open--;
	return open < close && open > line && open[-1] == '(';
}

/* The lines a guest in this benchmark sees, other than the ones it acts on. */
static bool line_expected(const char *line)
{
	static const char *const prefixes[] = {
		"Creating: ", "Your reconnect key is ", "You can \"accept\" or \"decline\"",
		"You accept the challenge of ", "Issuing: ", "No ratings adjustment done.",
		"You accept the match offer from ",	/* before lasker's words */
		"You are now observing game ", "Removing game ", "Logging you out.",
		"Thank you for using ", "Style 12 set.", "seek set to ", "block set.",
	};

	if (!line[0])
		return true;
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (starts(line, prefixes[i]))
			return true;
	return strstr(line, " accepts your challenge.") || strstr(line, " accepts the match offer.") ||
	    strstr(line, "player(s) saw the seek.)") ||
	    (strstr(line, " seeking ") && strstr(line, " to respond)")) ||
	    (line[0] == '[' && strstr(line, "] added to your channel list.")) ||
	    is_channel_tell(line);
}

/* The last line of a query's reply, which ends its latency. */
static bool query_end_line(enum kind kind, const char *line)
{
	switch (kind) {
	case K_WHO:
		return strstr(line, " players displayed (of ") != NULL ||
		    strstr(line, " player displayed (of ") != NULL;
	case K_GAMES:
		return strstr(line, " games displayed") != NULL || strstr(line, " game displayed") != NULL;
	case K_SOUGHT:
		return strstr(line, " ads displayed.") != NULL || strstr(line, " ad displayed.") != NULL;
	case K_TELL:
		return starts(line, "(told ");
	default:
		return false;
	}
}

static void idle_schedule(struct client *c);

/*
 * First games, IN_FLIGHT_MAX tables at a time: thousands of seeks at once
 * would flood the seek watchers beyond any evening (and chessd's output
 * budget), where the steady state has a few hundred game starts a second.
 */
static void tables_start_more(struct run *r)
{
	while (r->tables_next < r->cfg.games && r->tables_next - r->tables_going < IN_FLIGHT_MAX)
		table_start_game(&r->tables[r->tables_next++]);
}

static enum query query_of(int kind)
{
	return kind == K_WHO ? Q_WHO : kind == K_GAMES ? Q_GAMES : kind == K_SOUGHT ? Q_SOUGHT :
	    Q_TELL;
}

/* A query's block is over: its latency, and the idle guest's next action. */
static void query_done(struct client *c, int kind, bool complete)
{
	struct run *r = c->run;
	enum query q = query_of(kind);

	if (c->query != q) {
		run_error(r, c, "a reply to no query", query_names[q]);
		return;
	}
	if (!complete)
		run_error(r, c, "a reply without its last line", query_names[q]);
	else if (measuring(r) && c->query_s >= r->stage_s) {
		r->fig.queries[q]++;
		samples_add(&r->fig.query[q], (bench_server_now_s() - c->query_s) * 1000.0);
	}
	c->query = QUERIES;
	idle_schedule(c);
}

/* One line inside a block or out, prompt and carriage return already gone. */
static void client_line(struct client *c, const char *line)
{
	struct run *r = c->run;
	struct style12 s;

	if (starts(line, "<12> ")) {
		if (!style12_parse(line, &s))
			run_error(r, c, "unreadable style 12", line);
		else if (c->role == ROLE_PLAYER)
			player_board(c, &s, line);
		else if (c->role == ROLE_OBSERVER)
			observer_board(c, &s);
		return;
	}
	if (starts(line, "{Game ")) {
		on_game_line(c, line);
		return;
	}
	if (starts(line, "Challenge: ") && c->role == ROLE_PLAYER && !c->table->number) {
		client_command(c, K_ACCEPT, "accept");
		return;
	}
	int index;
	if (sscanf(line, "Your seek has been posted with index %d.", &index) == 1 &&
	    c->role == ROLE_PLAYER && c->block_kind == K_SEEK) {
		struct table *t = c->table;
		struct client *other = t->players[t->players[0] == c ? 1 : 0];
		client_command(other, K_PLAY, "play %d", index);
		return;
	}
	if (c->block_kind == K_OBSERVE && starts(line, "There is no such game.")) {
		if (measuring(r))
			r->fig.observe_races++;	/* a game that ended before the observe came */
		return;
	}
	int number;
	char colon;
	if (c->block_kind == K_OBSERVE && sscanf(line, "Game %d%c", &number, &colon) == 2 &&
	    colon == ':')
		return;		/* the observe reply's header */
	if (!line_expected(line))
		run_error(r, c, "unexpected text", line);
}

/* Guest set up: the table may start, the observer follow, the idle guest act. */
static void client_ready(struct client *c)
{
	struct run *r = c->run;

	c->state = C_READY;
	r->in_flight--;
	if (c->login_s > 0 && measuring(r)) {
		r->fig.queries[Q_RELOGIN]++;
		samples_add(&r->fig.query[Q_RELOGIN], (bench_server_now_s() - c->login_s) * 1000.0);
	}
	if (c->login_s > 0)
		r->relogins++;
	else
		r->ready++;
	while (r->in_flight < IN_FLIGHT_MAX && r->started < r->cfg.connections && !r->broken)
		client_connect(r, &r->clients[r->started++]);
	if (r->ready == r->cfg.connections && r->stage == STAGE_RAMP && !r->tables_started) {
		/* Everyone is in: the games begin (a server busy with them logs guests in slowly). */
		r->tables_started = true;
		r->login_s = bench_server_now_s() - r->start_s;
		tables_start_more(r);
	}
	if (c->role == ROLE_OBSERVER) {
		if (c->table->number)
			client_command(c, K_OBSERVE, "observe %d", c->table->number);
	} else if (c->role == ROLE_IDLE) {
		idle_schedule(c);
	}
}

/* The end of a block: set-up done, a query answered. */
static void block_end(struct client *c, int kind, bool complete)
{
	if (kind == K_SETUP_LAST && c->state == C_SETUP)
		client_ready(c);
	else if (kind >= K_WHO && kind <= K_TELL)
		query_done(c, kind, complete);
}

/*
 * Reads a block header at the start of text ("\x15id\x16code\x16") and
 * returns what follows, or NULL when it is not one.
 */
static const char *block_header(struct client *c, const char *text)
{
	char *end;
	long id = strtol(text + 1, &end, 10);

	if (*end != '\x16')
		return NULL;
	strtol(end + 1, &end, 10);
	if (*end != '\x16')
		return NULL;
	c->block_kind = (int)(id % KIND_SPAN);
	return end + 1;
}

/*
 * One line from chessd: prompts and carriage returns off, block framing
 * followed.  A query's reply (up to 20,000 lines of `who`) is only looked
 * at for its last line.
 */
static void client_raw_line(struct client *c, char *line)
{
	for (;;) {
		if (*line == '\r')
			line++;
		else if (!strncmp(line, "fics% ", 6))
			line += 6;
		else
			break;
	}
	if (*line == '\x15') {
		const char *rest = block_header(c, line);
		if (!rest) {
			run_error(c->run, c, "a broken block header", line + 1);
			return;
		}
		line = (char *)rest;
		c->query_complete = false;
	}
	char *end_mark = strchr(line, '\x17');
	if (end_mark)
		*end_mark = '\0';
	int kind = c->block_kind;
	if (kind >= K_WHO && kind <= K_TELL) {
		if (query_end_line((enum kind)kind, line))
			c->query_complete = true;
	} else if (*line || !end_mark) {
		client_line(c, line);
	}
	if (end_mark) {
		c->block_kind = 0;
		block_end(c, kind, c->query_complete);
	}
}

static bool client_open(void *arg)
{
	struct client *c = arg;

	return c->state != C_CLOSED && !c->run->broken;
}

static void line_to_client_raw_line(void *arg, char *line)
{
	client_raw_line(arg, line);
}

static void client_lines(struct client *c, struct evbuffer *in)
{
	bench_server_lines(in, UNMATCHED_MAX, client_open, line_to_client_raw_line, c);
}

/* --- clients --- */

static void client_setup(struct client *c)
{
	struct run *r = c->run;
	bool watches_seeks = rng_unit(&r->rng) < r->cfg.seek_watchers;

	bufferevent_write(c->bev, "iset block 1\n", 13);
	client_command(c, K_SETUP, "style 12");
	if (c->role == ROLE_IDLE)
		client_command(c, K_SETUP, "+channel %d", CHANNEL_FIRST + c->index % CHANNELS);
	client_command(c, K_SETUP_LAST, "set seek %d", watches_seeks);
	c->block_kind = 0;
	c->state = C_SETUP;
}

static void client_read_cb(struct bufferevent *bev, void *arg)
{
	struct client *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	if (c->state == C_CONNECTING)
		c->state = C_LOGIN;
	if (c->state == C_LOGIN) {
		if (!bench_server_guest_login(bev, &c->login, UNMATCHED_MAX))
			return;
		client_setup(c);
	}
	if (c->state == C_CLOSED)
		evbuffer_drain(in, evbuffer_get_length(in));
	else
		client_lines(c, in);
}

static void client_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct client *c = arg;
	struct run *r = c->run;
	char text[160], detail[220];

	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) || c->state == C_CLOSED)
		return;
	if (c->state == C_LEAVING) {
		/* A re-login: a new connection, maybe from another address, a new guest. */
		bench_server_close(r->server, bev);
		c->bev = NULL;
		c->login_s = bench_server_now_s();
		r->in_flight++;
		client_connect(r, c);
		return;
	}
	unsigned long ssl_err = c->tls ? bufferevent_get_openssl_error(bev) : 0;
	if (ssl_err)
		ERR_error_string_n(ssl_err, text, sizeof text);
	else if (what & BEV_EVENT_ERROR && EVUTIL_SOCKET_ERROR())
		snprintf(text, sizeof text, "%s", evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	else
		snprintf(text, sizeof text, "closed by the server");
	snprintf(detail, sizeof detail, "%.160s (client %d, state %d)", text, c->index,
	    (int)c->state);
	c->state = C_CLOSED;
	bufferevent_disable(bev, EV_READ | EV_WRITE);
	r->errors++;
	run_break(r, "connection lost: %s", detail);
}

/* An idle guest's next action: exponential, at the sum of the rates. */
static void idle_schedule(struct client *c)
{
	struct run *r = c->run;
	double rate = 0;

	for (int q = 0; q < QUERIES; q++)
		rate += r->cfg.every_s[q] > 0 ? 1.0 / r->cfg.every_s[q] : 0;
	if (rate <= 0)
		return;
	struct timeval tv = timeval_of(-log(rng_unit(&r->rng)) / rate);
	event_add(c->timer, &tv);
}

static void idle_act_cb(evutil_socket_t fd, short what, void *arg)
{
	struct client *c = arg;
	struct run *r = c->run;
	double rate = 0, pick;
	int q = 0;

	(void)fd;
	(void)what;
	if (c->state != C_READY || c->query != QUERIES)
		return;
	for (int i = 0; i < QUERIES; i++)
		rate += r->cfg.every_s[i] > 0 ? 1.0 / r->cfg.every_s[i] : 0;
	pick = rng_unit(&r->rng) * rate;
	for (q = 0; q < QUERIES - 1; q++) {
		double share = r->cfg.every_s[q] > 0 ? 1.0 / r->cfg.every_s[q] : 0;
		if (pick < share)
			break;
		pick -= share;
	}
	c->query = (enum query)q;
	c->query_s = bench_server_now_s();
	switch ((enum query)q) {
	case Q_WHO:
		client_command(c, K_WHO, "who");
		break;
	case Q_GAMES:
		client_command(c, K_GAMES, "games");
		break;
	case Q_SOUGHT:
		client_command(c, K_SOUGHT, "sought");
		break;
	case Q_TELL:
		client_command(c, K_TELL, "tell %d anyone for a game of bughouse later?",
		    CHANNEL_FIRST + c->index % CHANNELS);
		break;
	default:
		c->query = QUERIES;
		c->state = C_LEAVING;
		client_command(c, K_QUIT, "quit");
		break;
	}
}

/* Opens a client's connection from its next source address. */
static void client_connect(struct run *r, struct client *c)
{
	char source[32], why[160];

	c->source = (c->source + 1) % r->cfg.sources;
	snprintf(source, sizeof source, "127.0.0.%d", 2 + c->source);
	memset(&c->login, 0, sizeof c->login);
	c->state = C_CONNECTING;
	c->block_kind = 0;
	c->watching = false;
	c->query = QUERIES;
	c->query_s = 0;
	c->bev = bench_server_connect_from(r->server, source, c->tls, client_read_cb,
	    client_event_cb, c, why, sizeof why);
	if (!c->bev) {
		run_break(r, "%s", why);
		return;
	}
	/* A listing (who, games) is read whole in one pass, as a client would:
	 * libevent's default, 16 KB a pass, would time this loop, not chessd. */
	bufferevent_set_max_single_read(c->bev, READ_MAX_BYTES);
	if (!c->login_s)
		r->in_flight++;
}

/* --- the run --- */

/* Lays out the clients: players table by table, then observers by Zipf rank, then idle. */
static int run_build(struct run *r)
{
	const struct config *cfg = &r->cfg;
	double *cdf = calloc((size_t)cfg->games, sizeof *cdf);

	r->clients = calloc((size_t)cfg->connections, sizeof *r->clients);
	r->tables = calloc((size_t)cfg->games, sizeof *r->tables);
	if (!cdf || !r->clients || !r->tables) {
		free(cdf);
		return -1;
	}
	double sum = 0;
	for (int g = 0; g < cfg->games; g++)
		cdf[g] = sum += pow(g + 1, -ZIPF_EXPONENT);
	for (int i = 0; i < cfg->connections; i++) {
		struct client *c = &r->clients[i];
		c->run = r;
		c->index = i;
		c->source = i % cfg->sources;
		c->tls = floor((i + 1) * cfg->tls_share) > floor(i * cfg->tls_share);
		c->query = QUERIES;
		if (i < 2 * cfg->games) {
			c->role = ROLE_PLAYER;
			c->table = &r->tables[i / 2];
			c->table->players[i % 2] = c;
		} else if (i < 2 * cfg->games + cfg->observers) {
			c->role = ROLE_OBSERVER;
			double u = rng_unit(&r->rng) * sum;
			int lo = 0, hi = cfg->games - 1;
			while (lo < hi) {
				int mid = (lo + hi) / 2;
				if (cdf[mid] < u)
					lo = mid + 1;
				else
					hi = mid;
			}
			struct table *t = c->table = &r->tables[lo];
			if (t->observer_count == t->observers_cap) {
				int cap = t->observers_cap ? t->observers_cap * 2 : 2;
				struct client **grown = realloc(t->observers, (size_t)cap * sizeof *grown);
				if (!grown) {
					free(cdf);
					return -1;
				}
				t->observers = grown;
				t->observers_cap = cap;
			}
			t->observers[t->observer_count++] = c;
		} else {
			c->role = ROLE_IDLE;
			if (!(c->timer = event_new(r->base, -1, 0, idle_act_cb, c))) {
				free(cdf);
				return -1;
			}
		}
	}
	free(cdf);
	for (int g = 0; g < cfg->games; g++) {
		r->tables[g].run = r;
		if (!(r->tables[g].think = event_new(r->base, -1, 0, table_think_cb, &r->tables[g])))
			return -1;
	}
	return 0;
}

static void run_free(struct run *r)
{
	for (int i = 0; r->clients && i < r->cfg.connections; i++)
		if (r->clients[i].timer)
			event_free(r->clients[i].timer);
	for (int g = 0; r->tables && g < r->cfg.games; g++) {
		if (r->tables[g].think)
			event_free(r->tables[g].think);
		free(r->tables[g].observers);
	}
	free(r->clients);
	free(r->tables);
}

static void window_start(struct run *r, double now)
{
	fprintf(stderr, "bench-evening: measuring %.0f s\n", r->cfg.window_s);
	r->stage = STAGE_WINDOW;
	r->stage_s = now;
	bench_server_cpu_split(r->server, &r->user0_s, &r->sys0_s);
	r->client_cpu0_s = self_cpu_s();
}

static void window_end(struct run *r, double now)
{
	double user, sys;

	r->fig.wall_s = now - r->stage_s;
	if (bench_server_cpu_split(r->server, &user, &sys) == 0) {
		r->fig.user_s = user - r->user0_s;
		r->fig.sys_s = sys - r->sys0_s;
	}
	r->fig.client_cpu_s = self_cpu_s() - r->client_cpu0_s;
	r->fig.rss_kb = bench_server_rss_kb(r->server);
	r->stage = STAGE_DONE;
	event_base_loopbreak(r->base);
}

/* Every tick: the stages, and a stop on Ctrl-C, a dead server or a stalled run. */
static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct run *r = arg;
	double now = bench_server_now_s();
	char text[128];

	(void)fd;
	(void)what;
	if (bench_server_interrupted()) {
		snprintf(text, sizeof text, "%d", bench_server_interrupted());
		run_break(r, "interrupted by signal %s", text);
	} else if (bench_server_exited(r->server, text, sizeof text)) {
		run_break(r, "the server %s", text);
	} else if (r->stage == STAGE_RAMP) {
		if (r->ready == r->cfg.connections && r->tables_going == r->cfg.games) {
			r->ramp_s = now - r->start_s;
			r->stage = STAGE_WARMUP;
			fprintf(stderr, "bench-evening: %d connections set up in %.1f s, %d games going "
			    "%.1f s later; warming up\n", r->cfg.connections, r->login_s, r->cfg.games,
			    r->ramp_s - r->login_s);
			r->stage_s = r->last_delivery_s = now;
		} else if (now - r->last_report_s >= REPORT_EVERY_S) {
			r->last_report_s = now;
			fprintf(stderr, "bench-evening: %.0f s: %d of %d set up (%d logging in), %d of %d "
			    "games going\n", now - r->start_s, r->ready, r->cfg.connections, r->in_flight,
			    r->tables_going, r->cfg.games);
		}
		if (r->stage == STAGE_RAMP && now - r->start_s > RAMP_MAX_S) {
			snprintf(text, sizeof text, "%d of %d guests set up, %d of %d tables playing",
			    r->ready, r->cfg.connections, r->tables_going, r->cfg.games);
			run_break(r, "set-up not done after 1200 s: %s", text);
		}
	} else if (r->cfg.games && now - r->last_delivery_s > STALL_TIMEOUT_S) {
		run_break(r, "no move delivered for 30 s%s", "");
	} else if (r->stage == STAGE_WARMUP && now - r->stage_s >= r->cfg.warmup_s) {
		window_start(r, now);
	} else if (r->stage == STAGE_WINDOW && now - r->stage_s >= r->cfg.window_s) {
		window_end(r, now);
	}
}

/* One run: start chessd, set everyone up, warm up, measure the window, stop. */
static void run_measure(const struct config *cfg, struct result *res)
{
	struct run r = { .cfg = *cfg, .server = bench_server_new(), .rng = 0x9E3779B97F4A7C15ULL };
	char how[128];

	memset(res, 0, sizeof *res);
	res->ran = true;
	res->cfg = *cfg;
	for (int i = 0; i < cfg->connections; i++)
		res->tls_count += floor((i + 1) * cfg->tls_share) > floor(i * cfg->tls_share);
	/* A load generator, not a flood: the per-user limits would only measure themselves. */
	bench_server_config_add(r.server, "games_per_minute = 100000\n"
	    "offers_per_user = 10000\noffers_total = 50000\n");
	if (bench_server_start_chessd(r.server, cfg->chessd, cfg->connections, false,
	    BENCH_READY_LISTENING, res->why, sizeof res->why) < 0)
		goto out;
	r.base = bench_server_base(r.server);
	r.tick = event_new(r.base, -1, EV_PERSIST, tick_cb, &r);
	if (!r.tick || run_build(&r) < 0) {
		snprintf(res->why, sizeof res->why, "out of memory for the clients");
		goto out;
	}
	r.fig.rss0_kb = bench_server_rss_kb(r.server);
	struct timeval tick = { 0, TICK_MS * 1000 };
	event_add(r.tick, &tick);
	r.start_s = r.last_report_s = bench_server_now_s();
	while (r.started < cfg->connections && r.in_flight < IN_FLIGHT_MAX && !r.broken)
		client_connect(&r, &r.clients[r.started++]);
	if (!r.broken)
		event_base_dispatch(r.base);
	res->ok = r.stage == STAGE_DONE && !r.broken && !r.errors;
	res->ramp_s = r.ramp_s;
	res->login_s = r.login_s;
	res->errors = r.errors;
	res->fig = r.fig;
	memset(&r.fig, 0, sizeof r.fig);	/* the samples are the result's now */
	if (r.broken)
		snprintf(res->why, sizeof res->why, "%s", r.why);
	else if (r.errors)
		snprintf(res->why, sizeof res->why, "%ld errors", r.errors);
out:
	if (r.tick)
		event_free(r.tick);
	run_free(&r);
	if (bench_server_stop(r.server, &res->stop_s, how, sizeof how) < 0 &&
	    !bench_server_interrupted()) {
		fprintf(stderr, "bench-evening: chessd on SIGTERM: %s\n", how);
		res->ok = false;
	}
	res->log_issues = bench_server_log_issues(r.server, "evening");
	bench_server_free(r.server);
	figures_free(&r.fig);
}

/* --- output --- */

/* The 1, 5 and 15 minute load averages, as /proc/loadavg says them. */
static void load_average(char *buf, size_t len)
{
	char a[16], b[16], c[16];
	FILE *f = fopen("/proc/loadavg", "r");

	snprintf(buf, len, "?");
	if (!f)
		return;
	if (fscanf(f, "%15s %15s %15s", a, b, c) == 3)
		snprintf(buf, len, "%s %s %s", a, b, c);
	fclose(f);
}

static double per_s(long count, double wall_s)
{
	return wall_s > 0 ? (double)count / wall_s : 0;
}

static double cpu_per_move_us(const struct result *res)
{
	const struct figures *f = &res->fig;

	return f->delivered ? (f->user_s + f->sys_s) * 1e6 / (double)f->delivered : -1;
}

/* One row of the side-by-side table: the label, then each run's text. */
static void row(const char *label, const char *a, const char *b)
{
	printf("%-34s %22s %22s\n", label, a, b);
}

static void latency_text(struct samples *s, char *buf, size_t len)
{
	double p50, p99, max;

	samples_summary(s, &p50, &p99, &max);
	if (p50 < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f/%.1f/%.0f", p50, p99, max);
}

static void print_table(struct result *res, int runs)
{
	char t[2][64], lat[40];
	const char *label[2] = { "", "" };

#define ROW(name, ...) do { \
	for (int i_ = 0; i_ < 2; i_++) { \
		struct result *x = &res[i_]; \
		if (i_ < runs && x->ran && x->fig.wall_s > 0) \
			snprintf(t[i_], sizeof t[i_], __VA_ARGS__); \
		else \
			snprintf(t[i_], sizeof t[i_], "%s", i_ < runs && x->ran ? "failed" : ""); \
	} \
	row(name, t[0], t[1]); \
} while (0)
	for (int i = 0; i < runs; i++)
		label[i] = runs == 2 && i == 0 ? "reference" : "measured";
	row("", label[0], label[1]);
	ROW("connections (TLS)", "%d (%d)", x->cfg.connections, x->tls_count);
	ROW("games / observers / idle", "%d / %d / %d", x->cfg.games, x->cfg.observers, x->cfg.idle);
	ROW("logins s, all games going s", "%.1f, %.1f", x->login_s, x->ramp_s - x->login_s);
	ROW("window s", "%.1f", x->fig.wall_s);
	ROW("moves/s nominal (G / mean think)", "%.0f", x->cfg.games /
	    (x->cfg.pace_s * exp(x->cfg.sigma * x->cfg.sigma / 2)));
	ROW("moves/s offered", "%.0f", per_s(x->fig.offered, x->fig.wall_s));
	ROW("moves/s delivered", "%.0f", per_s(x->fig.delivered, x->fig.wall_s));
	ROW("move->opponent p50/p99/max ms", "%s", (latency_text(&x->fig.opponent, lat,
	    sizeof lat), lat));
	ROW("move->last observer p50/p99/max", "%s", (latency_text(&x->fig.observer, lat,
	    sizeof lat), lat));
	ROW("observer boards/s", "%.0f", per_s(x->fig.observer_deliveries, x->fig.wall_s));
	ROW("games started/s, ended/s", "%.1f, %.1f", per_s(x->fig.games_started, x->fig.wall_s),
	    per_s(x->fig.games_ended, x->fig.wall_s));
	for (int q = 0; q < QUERIES; q++) {
		char name[48];
		snprintf(name, sizeof name, "%s: count, p50/p99/max ms", query_names[q]);
		ROW(name, "%ld, %s", x->fig.queries[q], (latency_text(&x->fig.query[q], lat,
		    sizeof lat), lat));
	}
	ROW("server CPU user s, system s", "%.2f, %.2f", x->fig.user_s, x->fig.sys_s);
	ROW("server CPU % of one core", "%.0f%%", 100 * (x->fig.user_s + x->fig.sys_s) /
	    x->fig.wall_s);
	ROW("all server CPU per move us", "%.1f", cpu_per_move_us(x));
	ROW("all server CPU per idle conn-s us", "%.2f", x->cfg.idle ? (x->fig.user_s +
	    x->fig.sys_s) * 1e6 / ((double)x->cfg.idle * x->fig.wall_s) : 0);
	ROW("all server CPU per conn-s us", "%.2f", (x->fig.user_s + x->fig.sys_s) * 1e6 /
	    ((double)x->cfg.connections * x->fig.wall_s));
	ROW("server RSS MB, KB per connection", "%.1f, %.2f", (double)x->fig.rss_kb / 1024,
	    (double)(x->fig.rss_kb - x->fig.rss0_kb) / x->cfg.connections);
	ROW("generator CPU % of one core", "%.0f%%", 100 * x->fig.client_cpu_s / x->fig.wall_s);
	ROW("observe races (game gone first)", "%ld", x->fig.observe_races);
	ROW("chessd stop (adjourns every game) s", "%.1f", x->stop_s);
	ROW("errors", "%ld", x->errors);
#undef ROW
}

static int usage(void)
{
	fprintf(stderr, "usage: bench-evening [--chessd PATH] [--connections P] [--games G] "
	    "[--observers O] [--pace S] [--sigma X] [--plies N] [--window S] [--warmup S] "
	    "[--reference P] [--tls-share F] [--sources K] [--seek-watchers F] [--who-every S] "
	    "[--games-every S] [--sought-every S] [--tell-every S] [--relogin-every S]\n");
	return 2;
}

static bool parse_long(const char *text, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static bool parse_double(const char *text, double lo, double hi, double *out)
{
	char *end;

	errno = 0;
	double v = strtod(text, &end);
	if (errno || end == text || *end || !(v >= lo && v <= hi))
		return false;
	*out = v;
	return true;
}

/* The mix scaled to n connections, for the reference run. */
static struct config config_scaled(const struct config *cfg, int n)
{
	struct config s = *cfg;
	double k = (double)n / cfg->connections;

	s.connections = n;
	s.games = (int)lround(cfg->games * k);
	if (s.games < 1 && cfg->games)
		s.games = 1;
	s.observers = (int)lround(cfg->observers * k);
	s.idle = n - 2 * s.games - s.observers;
	if (s.idle < 0) {
		s.observers += s.idle;
		s.idle = 0;
	}
	return s;
}

int main(int argc, char **argv)
{
	char chessd[PATH_MAX], load[64];
	struct config cfg = { .connections = CONNECTIONS_DEFAULT, .games = GAMES_DEFAULT,
	    .observers = OBSERVERS_DEFAULT, .pace_s = PACE_DEFAULT, .sigma = SIGMA_DEFAULT,
	    .tls_share = TLS_SHARE_DEFAULT, .seek_watchers = SEEK_WATCHERS_DEFAULT,
	    .plies = PLIES_DEFAULT, .sources = SOURCES_DEFAULT, .window_s = WINDOW_DEFAULT,
	    .warmup_s = WARMUP_DEFAULT,
	    .every_s = { WHO_EVERY_DEFAULT, GAMES_EVERY_DEFAULT, SOUGHT_EVERY_DEFAULT,
	    TELL_EVERY_DEFAULT, RELOGIN_EVERY_DEFAULT } };
	long reference = REFERENCE_DEFAULT;
	static const char *const every_options[QUERIES] = { "--who-every", "--games-every",
	    "--sought-every", "--tell-every", "--relogin-every" };

	bench_server_init("bench-evening");
	bench_server_default_chessd(chessd, sizeof chessd);
	/* Every option takes a value: they go in pairs. */
	for (int i = 1; i < argc; i += 2) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		long n;
		bool every = false;
		if (!val)
			return usage();
		for (int q = 0; q < QUERIES; q++)
			if (!strcmp(arg, every_options[q]) &&
			    parse_double(val, 0, 1e6, &cfg.every_s[q]))
				every = true;
		if (every)
			;
		else if (!strcmp(arg, "--chessd"))
			snprintf(chessd, sizeof chessd, "%s", val);
		else if (!strcmp(arg, "--connections") && parse_long(val, 1, 1000000, &n))
			cfg.connections = (int)n;
		else if (!strcmp(arg, "--games") && parse_long(val, 0, 100000, &n))
			cfg.games = (int)n;
		else if (!strcmp(arg, "--observers") && parse_long(val, 0, 1000000, &n))
			cfg.observers = (int)n;
		else if (!strcmp(arg, "--plies") && parse_long(val, 2, 1000, &n))
			cfg.plies = (int)n;
		else if (!strcmp(arg, "--sources") && parse_long(val, 1, SOURCES_MAX, &n))
			cfg.sources = (int)n;
		else if (!strcmp(arg, "--reference") && parse_long(val, 0, 1000000, &reference))
			;
		else if (!strcmp(arg, "--pace") && parse_double(val, 0.001, 3600, &cfg.pace_s))
			;
		else if (!strcmp(arg, "--sigma") && parse_double(val, 0, 3, &cfg.sigma))
			;
		else if (!strcmp(arg, "--window") && parse_double(val, 1, 86400, &cfg.window_s))
			;
		else if (!strcmp(arg, "--warmup") && parse_double(val, 0, 3600, &cfg.warmup_s))
			;
		else if (!strcmp(arg, "--tls-share") && parse_double(val, 0, 1, &cfg.tls_share))
			;
		else if (!strcmp(arg, "--seek-watchers") &&
		    parse_double(val, 0, 1, &cfg.seek_watchers))
			;
		else
			return usage();
	}
	cfg.chessd = chessd;
	cfg.idle = cfg.connections - 2 * cfg.games - cfg.observers;
	if (cfg.idle < 0 || (cfg.observers && !cfg.games)) {
		fprintf(stderr, "bench-evening: %d games and %d observers need more than %d "
		    "connections (and observers need games)\n", cfg.games, cfg.observers,
		    cfg.connections);
		return 2;
	}
	if (access(chessd, X_OK) < 0) {
		fprintf(stderr, "bench-evening: cannot run chessd at %s (build it, or pass --chessd "
		    "PATH)\n", chessd);
		return 2;
	}
	/*
	 * chessd and this program are two processes, each with its own limit,
	 * and each holds one end of every connection: each needs P and spares.
	 */
	if (bench_server_raise_fd_limit(cfg.connections) < 0) {
		fprintf(stderr, "bench-evening: refusing %d connections: chessd and this generator "
		    "are two processes, each under that hard limit, and each holds one end of every "
		    "connection\n", cfg.connections);
		return 2;
	}
	int runs = reference > 0 && reference < cfg.connections ? 2 : 1;
	struct config cfgs[2] = { cfg, cfg };
	if (runs == 2)
		cfgs[0] = config_scaled(&cfg, (int)reference);

	load_average(load, sizeof load);
	printf("bench-evening: %d connections over %d loopback addresses (127.0.0.2-%d), %.0f%% "
	    "TLS: %d games at pace %.2f s (log-normal, sigma %.2f), ~%d plies, %d Zipf observers, "
	    "%d idle\n", cfg.connections, cfg.sources, 1 + cfg.sources, cfg.tls_share * 100,
	    cfg.games, cfg.pace_s, cfg.sigma, cfg.plies, cfg.observers, cfg.idle);
	printf("idle guest, mean s between: who %.0f, games %.0f, sought %.0f, channel tell %.0f, "
	    "re-login %.0f; %.0f%% watch seek ads\n", cfg.every_s[Q_WHO], cfg.every_s[Q_GAMES],
	    cfg.every_s[Q_SOUGHT], cfg.every_s[Q_TELL], cfg.every_s[Q_RELOGIN],
	    cfg.seek_watchers * 100);
	printf("window %.0f s after set-up and %.0f s warm-up; chessd %s with per-user rate limits "
	    "lifted (commands, games, offers); %ld CPUs, load average %s\n", cfg.window_s,
	    cfg.warmup_s, chessd, sysconf(_SC_NPROCESSORS_ONLN), load);
	printf("libevent %s, %s\n", event_get_version(), OpenSSL_version(OPENSSL_VERSION));
	fflush(stdout);

	struct result res[2];
	memset(res, 0, sizeof res);
	for (int i = 0; i < runs && !bench_server_interrupted(); i++) {
		run_measure(&cfgs[i], &res[i]);
		if (!res[i].fig.wall_s && strstr(res[i].why, "before it listened")) {
			fprintf(stderr, "bench-evening: %s\n", res[i].why);
			return 2;
		}
		if (!res[i].ok)
			fprintf(stderr, "bench-evening: run at %d connections: %s\n",
			    cfgs[i].connections, res[i].why[0] ? res[i].why : "failed");
	}
	if (bench_server_interrupted()) {
		fprintf(stderr, "bench-evening: interrupted\n");
		return 1;
	}
	load_average(load, sizeof load);
	printf("\n");
	print_table(res, runs);
	printf("latency: send to receipt (opponent's board; the table's last observer's board; "
	    "a query's last line)\n");
	if (runs == 2 && cpu_per_move_us(&res[0]) > 0 && cpu_per_move_us(&res[1]) > 0) {
		double ratio = cpu_per_move_us(&res[1]) / cpu_per_move_us(&res[0]);
		printf("server CPU per move at %d vs %d connections: %.2fx (target <= %.2fx: %s)\n",
		    cfg.connections, cfgs[0].connections, ratio, TARGET_CPU_RATIO,
		    ratio <= TARGET_CPU_RATIO ? "met" : "missed");
	}
	printf("load average at the end: %s\n", load);
	int status = 0;
	for (int i = 0; i < runs; i++) {
		figures_free(&res[i].fig);
		if (!res[i].ok || res[i].log_issues)
			status = 1;
	}
	return status;
}
