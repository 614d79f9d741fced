/*
 * bench-games: moves per second and move latency on chessd with G games in
 * play at once (and K observers on each), over plain TCP and TLS, next to a
 * bare libevent line-echo server driven over as many connections for as
 * long: the loopback ceiling of this machine.
 *   bench-games [--chessd PATH] [--games G] [--observers K] [--moves M]
 *               [--window S] [--plain-only|--tls-only] [--seconds S]
 * Each phase starts a fresh chessd as a child (fresh data directory, limits
 * raised), logs in 2G + GK guests over 127.0.0.1, pairs them with "match"
 * and "accept" (60 minute clocks, so nobody flags) and lets the observers
 * observe.  Then every game plays M plies of random legal moves, chosen
 * with the rules core from each style 12 board, as fast as replies come;
 * the player to move after ply M resigns, and white challenges black again
 * (the observers observe the new game) until the window of S seconds
 * (--window, 10 by default) is over: a steady state, game starts included.
 * --window 0 plays each game once instead, a burst.  A move's latency runs from its
 * send to the opponent reading the style 12 line that shows it, which the
 * server releases only after the move's COMMIT; an observer's from the same
 * send to the observer's read.  The phase stops by itself after --seconds.
 * The echo ratio is printed for reference: with every game always waiting
 * on a reply, latency is games / throughput, for echo as for chessd.
 * Exit 0 when every run completed (targets are for reading), 1 when a run
 * failed or was cut off, 2 on bad arguments or a server that cannot start.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statfs.h>
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

#define GAMES_DEFAULT 1000
#define GAMES_LIMIT 20000		/* chessd's LIMIT_GAMES */
#define OBSERVERS_DEFAULT 0
#define MOVES_DEFAULT 40
#define MOVES_LIMIT 1000
#define SECONDS_DEFAULT 120
#define WINDOW_DEFAULT 10
/* Connections logging in (or handshaking) at once. */
#define IN_FLIGHT_MAX 200
#define CLOCK_MINUTES 60
/* A run fails when nothing made progress for this long. */
#define STALL_TIMEOUT_MS 30000
#define TICK_MS 50
/* The echo run lasts as long as chessd's playing phase, at least this. */
#define ECHO_MIN_S 1.0
#define ECHO_LINE "e2e4\n"
/* Input without a newline kept while waiting for one. */
#define UNMATCHED_MAX 65536
#define TARGET_OBSERVER_P99_MS 20.0

enum server_kind { SERVER_CHESSD, SERVER_ECHO };
enum role { ROLE_WHITE, ROLE_BLACK, ROLE_OBSERVER };

/* What a client waits for next. */
enum client_state {
	C_CONNECTING,	/* TCP connect, then the TLS handshake */
	C_LOGIN,	/* chessd: the guest login, as far as login.step */
	C_SETUP,	/* chessd: "Style 12 set." after iset ms 1, style 12 */
	C_READY,	/* logged in (chessd) or connected (echo), waiting for the others */
	C_PAIRING,	/* chessd: waiting for the first board of its game */
	C_PLAYING,	/* playing or observing; echo: round trips */
	C_DONE,		/* saw its game's end (echo: its last answer) */
	C_CLOSED,	/* failed or dropped */
};

enum stage { STAGE_LOGIN, STAGE_PAIRING, STAGE_PLAYING, STAGE_FINISHED };

struct run;
struct table;

struct client {
	struct run *run;
	struct bufferevent *bev;
	struct table *table;		/* chessd only */
	enum role role;
	enum client_state state;
	struct bench_login login;
	uint64_t rng;
	double sent_s;			/* echo: when the outstanding line left */
};

/* One game: its players and observers, and when each ply was sent. */
struct table {
	struct client *white, *black, *observers;
	int number;			/* the server's game number, 0 until known */
	int members_ready;
	int members_ended;		/* window: of the game on now */
	int sent_ply;			/* the last ply sent, 1-based */
	int committed;			/* plies the opponent has seen */
	bool resigning, ended;
	double *sent_s;			/* [ply], 1..moves */
};

/* Latencies in milliseconds. */
struct run {
	enum server_kind kind;
	bool tls;
	int games, observers, moves;
	struct bench_server *server;
	struct event_base *base;
	struct event *tick;
	struct client *clients;
	struct table *tables;
	double window_s;		/* 0: each game once */
	long games_ended, expected_done;	/* window: games over, their observer boards */
	int n, started, in_flight, ready, tables_ready, done;
	enum stage stage;
	double start_s, ready_s, go_s, end_s, last_progress_s, deadline_s;
	double echo_until_s;
	double server_cpu0_s, client_cpu0_s;
	struct samples moves_ms, observers_ms;
	long plies, deliveries, round_trips, refused, natural_endings;
	bool broken, capped;
	char why[256];
};

/* The figures of one run. */
struct result {
	bool ran, ok, capped;
	int conns;
	double login_s, setup_s, wall_s;
	long count;			/* plies committed, or echo round trips */
	long deliveries, expected_deliveries, refused, natural_endings, games_ended;
	long delivery_slack;		/* deliveries the end of a window may cut off */
	double p50_ms, p99_ms, max_ms;
	double obs_p50_ms, obs_p99_ms, obs_max_ms;
	double server_cpu_s, client_cpu_s;
	int log_issues;
	char why[320];
};

static double self_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* The file system a directory lives on, by name where we know it. */
static const char *fs_name(const char *dir)
{
	static const struct { long magic; const char *name; } known[] = {
		{ 0xEF53, "ext4" }, { 0x01021994, "tmpfs" }, { 0x58465342, "xfs" },
		{ 0x9123683E, "btrfs" }, { 0x794c7630, "overlayfs" }, { 0x2FC12FC1, "zfs" },
		{ 0x6969, "nfs" },
	};
	struct statfs st;

	if (statfs(dir, &st) < 0)
		return "?";
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if ((long)st.f_type == known[i].magic)
			return known[i].name;
	return "other";
}

/* --- the clients --- */

static void client_start(struct run *r);
static void play_start(struct run *r);

static uint64_t rng_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static void client_send(struct client *c, const char *text)
{
	bufferevent_write(c->bev, text, strlen(text));
}

static void progress(struct run *r)
{
	r->last_progress_s = bench_server_now_s();
}

/* A run that cannot go on: say why (the first reason wins) and leave the loop. */
static void run_break(struct run *r, const char *fmt, const char *detail)
{
	if (!r->why[0])
		snprintf(r->why, sizeof r->why, fmt, detail);
	r->broken = true;
	event_base_loopbreak(r->base);
}

/* Sends the echo line and notes when. */
static void echo_send(struct client *c)
{
	c->sent_s = bench_server_now_s();
	client_send(c, ECHO_LINE);
}

static void echo_go(struct run *r)
{
	r->stage = STAGE_PLAYING;
	r->server_cpu0_s = bench_server_cpu_s(r->server);
	r->client_cpu0_s = self_cpu_s();
	r->go_s = bench_server_now_s();
	r->echo_until_s += r->go_s;	/* held the duration until now */
	for (int i = 0; i < r->n; i++) {
		r->clients[i].state = C_PLAYING;
		echo_send(&r->clients[i]);
	}
}

/* chessd: every client logged in; each white challenges its black. */
static void pairing_start(struct run *r)
{
	char line[96];

	r->stage = STAGE_PAIRING;
	for (int i = 0; i < r->n; i++)
		r->clients[i].state = C_PAIRING;
	for (int g = 0; g < r->games; g++) {
		struct table *t = &r->tables[g];
		snprintf(line, sizeof line, "match %s %d 0 unrated white\n", t->black->login.name,
		    CLOCK_MINUTES);
		client_send(t->white, line);
	}
}

/* A client finished logging in (chessd) or connecting (echo). */
static void client_ready(struct client *c)
{
	struct run *r = c->run;

	c->state = C_READY;
	r->ready++;
	r->in_flight--;
	progress(r);
	while (r->in_flight < IN_FLIGHT_MAX && r->started < r->n && !r->broken)
		client_start(r);
	if (r->ready < r->n)
		return;
	r->ready_s = bench_server_now_s();
	if (r->kind == SERVER_ECHO)
		echo_go(r);
	else
		pairing_start(r);
}

static void client_done(struct client *c)
{
	struct run *r = c->run;

	c->state = C_DONE;
	progress(r);
	if (++r->done == r->n) {
		r->end_s = r->kind == SERVER_ECHO ? r->echo_until_s : bench_server_now_s();
		r->stage = STAGE_FINISHED;
		event_base_loopbreak(r->base);
	}
}

/* Picks a random legal move on b and sends it as ply `ply`; false when there is none. */
static bool play_random(struct client *c, const struct board *b, int ply)
{
	move list[MAX_MOVES];
	char text[MOVE_TEXT_MAX + 2];
	int n = movegen_legal(b, list);

	if (n <= 0)
		return false;
	move m = list[rng_next(&c->rng) % (uint64_t)n];
	move_format_uci(m, text);
	strcat(text, "\n");
	c->table->sent_ply = ply;
	c->table->sent_s[ply] = bench_server_now_s();
	client_send(c, text);
	return true;
}

/* One member of a table has its first board; the last one starts the table. */
static void table_member_ready(struct client *c)
{
	struct table *t = c->table;
	struct run *r = c->run;

	c->state = C_PLAYING;
	progress(r);
	if (++t->members_ready < 2 + r->observers)
		return;
	if (r->stage == STAGE_PLAYING) {
		struct board start;
		board_start(&start);
		play_random(t->white, &start, 1);	/* the table's next game */
	} else if (++r->tables_ready == r->games) {
		play_start(r);
	}
}

/* Every table is set: read the server's CPU time, then every white moves. */
static void play_start(struct run *r)
{
	struct board start;

	r->stage = STAGE_PLAYING;
	r->server_cpu0_s = bench_server_cpu_s(r->server);
	r->client_cpu0_s = self_cpu_s();
	r->go_s = bench_server_now_s();
	board_start(&start);
	for (int g = 0; g < r->games; g++)
		play_random(r->tables[g].white, &start, 1);
}

static void resign(struct client *c)
{
	if (c->table->resigning)
		return;
	c->table->resigning = true;
	client_send(c, "resign\n");
}

static void on_style12(struct client *c, const char *line)
{
	struct run *r = c->run;
	struct table *t = c->table;
	struct style12 s;
	double now = bench_server_now_s();

	if (!style12_parse(line, &s)) {
		run_break(r, "unreadable style 12 line: %.120s", line);
		return;
	}
	int ply = style12_ply(&s);
	if (c->state == C_PAIRING) {
		if (c->role == ROLE_OBSERVER ? s.relation != 0 : ply != 0)
			return;
		if (c->role != ROLE_OBSERVER && !t->number) {
			char text[32];
			t->number = s.game;
			snprintf(text, sizeof text, "observe %d\n", s.game);
			for (int i = 0; i < r->observers; i++)
				client_send(&t->observers[i], text);
		}
		table_member_ready(c);
		return;
	}
	if (c->state != C_PLAYING || r->stage != STAGE_PLAYING || ply < 1 || ply > r->moves ||
	    t->sent_s[ply] <= 0)
		return;
	if (c->role == ROLE_OBSERVER) {
		if (s.relation == 0) {
			samples_add(&r->observers_ms, (now - t->sent_s[ply]) * 1000.0);
			r->deliveries++;
		}
		return;
	}
	/* The mover's own copy says the opponent is to move: nothing to do. */
	if (s.relation != 1 || ply != t->sent_ply || t->committed >= ply)
		return;
	samples_add(&r->moves_ms, (now - t->sent_s[ply]) * 1000.0);
	t->committed = ply;
	r->plies++;
	progress(r);
	if (ply >= r->moves) {
		resign(c);
		return;
	}
	struct board b;
	if (style12_board(&s, &b) < 0) {
		run_break(r, "cannot rebuild the board of: %.120s", line);
		return;
	}
	/* No legal move: the game ends by itself and its end line follows. */
	play_random(c, &b, ply + 1);
}

/* Window: every member saw the end; white challenges black again. */
static void table_restart(struct table *t)
{
	struct run *r = t->white->run;
	char line[96];

	r->expected_done += (long)t->committed * r->observers;
	t->number = t->members_ready = t->members_ended = 0;
	t->sent_ply = t->committed = 0;
	t->resigning = t->ended = false;
	memset(t->sent_s, 0, ((size_t)r->moves + 2) * sizeof *t->sent_s);
	snprintf(line, sizeof line, "match %s %d 0 unrated white\n", t->black->login.name,
	    CLOCK_MINUTES);
	client_send(t->white, line);
}

static void on_game_end(struct client *c, const char *line)
{
	struct table *t = c->table;
	struct run *r = c->run;
	int number;

	if (sscanf(line, "{Game %d ", &number) != 1 || number != t->number || c->state != C_PLAYING)
		return;
	if (!t->ended) {
		t->ended = true;
		r->games_ended++;
		if (!strstr(line, " resigns}"))
			r->natural_endings++;
	}
	if (!r->window_s) {
		client_done(c);
		return;
	}
	c->state = C_PAIRING;
	progress(r);
	if (++t->members_ended == 2 + r->observers)
		table_restart(t);
}

/* One line from chessd, without its line ending. */
static void chessd_line(struct client *c, char *line)
{
	struct run *r = c->run;

	/* Server lines end "\n\r"; a prompt may sit in front of the next line. */
	for (;;) {
		if (*line == '\r')
			line++;
		else if (!strncmp(line, "fics% ", 6))
			line += 6;
		else
			break;
	}
	if (!strncmp(line, "<12> ", 5)) {
		on_style12(c, line);
	} else if (!strncmp(line, "{Game ", 6)) {
		on_game_end(c, line);
	} else if (c->state == C_SETUP && !strcmp(line, "Style 12 set.")) {
		client_ready(c);
	} else if (!strncmp(line, "Challenge: ", 11)) {
		if (c->role == ROLE_BLACK && c->state == C_PAIRING)
			client_send(c, "accept\n");
	} else if (!strncmp(line, "Illegal move", 12) || !strncmp(line, "Ambiguous move", 14) ||
	    !strncmp(line, "It is not your move", 19)) {
		/* Our board disagreed with the server's: note it and end the game. */
		r->refused++;
		if (!r->why[0])
			snprintf(r->why, sizeof r->why, "refused: %.120s", line);
		if (c->state == C_PLAYING && c->role != ROLE_OBSERVER)
			resign(c);
	} else if (c->state == C_PAIRING && c->role == ROLE_WHITE && (strstr(line, "declines") ||
	    strstr(line, "No user named") || strstr(line, "is playing a game") ||
	    strstr(line, "not open to match"))) {
		run_break(r, "match refused: %.160s", line);
	}
}

/* Hands each complete line in the input to chessd_line. */
static bool client_open(void *arg)
{
	struct client *c = arg;

	return c->state != C_CLOSED && !c->run->broken;
}

static void line_to_chessd_line(void *arg, char *line)
{
	chessd_line(arg, line);
}

static void chessd_lines(struct client *c, struct evbuffer *in)
{
	bench_server_lines(in, UNMATCHED_MAX, client_open, line_to_chessd_line, c);
}

/* The guest login dialogue of session.c, then lines. */
static void chessd_read_cb(struct bufferevent *bev, void *arg)
{
	struct client *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	if (c->state == C_LOGIN) {
		if (!bench_server_guest_login(bev, &c->login, UNMATCHED_MAX))
			return;
		client_send(c, "iset ms 1\nstyle 12\n");
		c->state = C_SETUP;
	}
	if (c->state == C_CONNECTING || c->state == C_CLOSED)
		evbuffer_drain(in, evbuffer_get_length(in));
	else
		chessd_lines(c, in);
}

static void echo_read_cb(struct bufferevent *bev, void *arg)
{
	struct client *c = arg;
	struct run *r = c->run;
	struct evbuffer *in = bufferevent_get_input(bev);

	for (size_t len; (len = bench_server_line_bytes(in));) {
		evbuffer_drain(in, len);
		if (c->state != C_PLAYING)
			continue;
		double now = bench_server_now_s();
		if (now <= r->echo_until_s) {
			r->round_trips++;
			samples_add(&r->moves_ms, (now - c->sent_s) * 1000.0);
			echo_send(c);
		} else {
			client_done(c);
		}
	}
}

static void client_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct client *c = arg;
	struct run *r = c->run;
	char text[160], detail[200];

	if (c->state == C_CLOSED)
		return;
	if (what & BEV_EVENT_CONNECTED) {
		/* Our small lines must not wait for an ACK (Nagle). */
		int one = 1;
		setsockopt(bufferevent_getfd(bev), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		if (r->kind == SERVER_ECHO)
			client_ready(c);
		else
			c->state = C_LOGIN;
		return;
	}
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	unsigned long ssl_err = r->tls ? bufferevent_get_openssl_error(bev) : 0;
	if (ssl_err)
		ERR_error_string_n(ssl_err, text, sizeof text);
	else if (what & BEV_EVENT_ERROR && EVUTIL_SOCKET_ERROR())
		snprintf(text, sizeof text, "%s", evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	else
		snprintf(text, sizeof text, "closed by the server");
	bool was_done = c->state == C_DONE;
	snprintf(detail, sizeof detail, "%.160s (client state %d)", text, (int)c->state);
	c->state = C_CLOSED;
	bufferevent_disable(bev, EV_READ | EV_WRITE);
	if (!was_done)
		run_break(r, "connection lost: %s", detail);
}

static void client_start(struct run *r)
{
	struct client *c = &r->clients[r->started++];
	char why[160];

	c->state = C_CONNECTING;
	r->in_flight++;
	c->bev = bench_server_connect(r->server, r->kind == SERVER_CHESSD ? chessd_read_cb :
	    echo_read_cb, client_event_cb, c, why, sizeof why);
	if (!c->bev)
		run_break(r, "%s", why);
}

/* Every tick: stop on Ctrl-C, a server that died, a stalled run and the time cap. */
static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct run *r = arg;
	double now = bench_server_now_s();
	char text[96];

	(void)fd;
	(void)what;
	if (bench_server_interrupted()) {
		snprintf(text, sizeof text, "%d", bench_server_interrupted());
		run_break(r, "interrupted by signal %s", text);
	} else if (bench_server_exited(r->server, text, sizeof text)) {
		run_break(r, "the server %s", text);
	} else if (r->window_s && r->stage == STAGE_PLAYING && now - r->go_s >= r->window_s) {
		r->end_s = now;
		r->stage = STAGE_FINISHED;
		event_base_loopbreak(r->base);
	} else if (now >= r->deadline_s) {
		r->capped = true;
		r->end_s = now;
		event_base_loopbreak(r->base);
	} else if (now - r->last_progress_s > STALL_TIMEOUT_MS / 1000.0) {
		static const char *const stages[] = { "logging in", "pairing", "playing", "finished" };
		snprintf(text, sizeof text, "%s (%d of %d clients ready)", stages[r->stage],
		    r->ready, r->n);
		run_break(r, "no progress for 30 s while %s", text);
	}
}

/* Lays the clients out table by table: white, black, then the observers. */
static int tables_build(struct run *r)
{
	int per = 2 + r->observers;

	r->tables = calloc((size_t)r->games, sizeof *r->tables);
	if (!r->tables)
		return -1;
	for (int g = 0; g < r->games; g++) {
		struct table *t = &r->tables[g];
		struct client *first = &r->clients[g * per];
		if (!(t->sent_s = calloc((size_t)r->moves + 2, sizeof *t->sent_s)))
			return -1;
		t->white = first;
		t->black = first + 1;
		t->observers = first + 2;
		for (int i = 0; i < per; i++) {
			first[i].table = t;
			first[i].role = i == 0 ? ROLE_WHITE : i == 1 ? ROLE_BLACK : ROLE_OBSERVER;
		}
	}
	return 0;
}

/* Turns the run's counters into a result. */
static void run_result(struct run *r, struct result *res)
{
	res->conns = r->n;
	res->capped = r->capped;
	if (r->ready_s)
		res->login_s = r->ready_s - r->start_s;
	if (r->go_s && r->ready_s)
		res->setup_s = r->go_s - r->ready_s;
	if (r->go_s && r->end_s)
		res->wall_s = r->end_s - r->go_s;
	res->count = r->kind == SERVER_ECHO ? r->round_trips : r->plies;
	res->deliveries = r->deliveries;
	res->refused = r->refused;
	res->natural_endings = r->natural_endings;
	/* A window may end with a board on its way to the observers: at most one ply a table. */
	res->expected_deliveries = r->expected_done;
	for (int g = 0; g < r->games && r->tables; g++)
		res->expected_deliveries += (long)r->tables[g].committed * r->observers;
	res->games_ended = r->games_ended;
	res->delivery_slack = r->window_s ? (long)r->games * r->observers : 0;
	samples_summary(&r->moves_ms, &res->p50_ms, &res->p99_ms, &res->max_ms);
	samples_summary(&r->observers_ms, &res->obs_p50_ms, &res->obs_p99_ms, &res->obs_max_ms);
	res->ok = !r->broken && !r->capped && r->stage == STAGE_FINISHED && !r->refused;
	if (r->broken || r->refused)
		snprintf(res->why, sizeof res->why, "%s", r->why[0] ? r->why : "?");
	else if (r->capped)
		snprintf(res->why, sizeof res->why, "stopped by the --seconds cap while %s",
		    r->stage == STAGE_PLAYING ? "playing" : "setting up");
}

/*
 * One run: start the server, connect n clients (logging in for chessd),
 * pair and play (chessd) or bounce lines for echo_s seconds (echo), read
 * the server's CPU time, then close the clients and stop the server.
 */
static void run_measure(enum server_kind kind, bool tls, const char *chessd, int games,
    int observers, int moves, double window_s, double cap_s, double echo_s, struct result *res)
{
	struct run r = { .kind = kind, .tls = tls, .games = games, .observers = observers,
	    .moves = moves, .n = games * (2 + observers), .server = bench_server_new(),
	    .window_s = kind == SERVER_CHESSD ? window_s : 0 };
	char how[128];

	memset(res, 0, sizeof *res);
	res->ran = true;
	int started = kind == SERVER_CHESSD ?
	    bench_server_start_chessd(r.server, chessd, r.n, tls, BENCH_READY_LISTENING, res->why,
	    sizeof res->why) :
	    bench_server_start_reference(r.server, BENCH_REPLY_ECHO, tls, NULL, res->why,
	    sizeof res->why);
	if (started < 0)
		goto out;
	r.base = bench_server_base(r.server);
	r.clients = calloc((size_t)r.n, sizeof *r.clients);
	r.tick = event_new(r.base, -1, EV_PERSIST, tick_cb, &r);
	if (!r.clients || !r.tick || (kind == SERVER_CHESSD && tables_build(&r) < 0)) {
		snprintf(res->why, sizeof res->why, "out of memory for the clients");
		goto out;
	}
	for (int i = 0; i < r.n; i++) {
		r.clients[i].run = &r;
		r.clients[i].rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
	}
	r.echo_until_s = echo_s;
	struct timeval tick = { 0, TICK_MS * 1000 };
	event_add(r.tick, &tick);

	r.start_s = r.last_progress_s = bench_server_now_s();
	r.deadline_s = r.start_s + cap_s;
	while (r.started < r.n && r.in_flight < IN_FLIGHT_MAX && !r.broken)
		client_start(&r);
	if (!r.broken)
		event_base_dispatch(r.base);
	if (r.stage == STAGE_PLAYING || r.stage == STAGE_FINISHED) {
		double server_cpu = bench_server_cpu_s(r.server);
		if (server_cpu >= 0 && r.server_cpu0_s >= 0)
			res->server_cpu_s = server_cpu - r.server_cpu0_s;
		res->client_cpu_s = self_cpu_s() - r.client_cpu0_s;
	}
	run_result(&r, res);
out:
	if (r.tick)
		event_free(r.tick);
	if (kind == SERVER_ECHO) {
		bench_server_kill(r.server);
	} else if (bench_server_stop(r.server, NULL, how, sizeof how) < 0 &&
	    !bench_server_interrupted()) {
		fprintf(stderr, "bench-games: chessd on SIGTERM: %s\n", how);
		res->ok = false;
	}
	res->log_issues = bench_server_log_issues(r.server, tls ? "TLS" : "plain");
	bench_server_free(r.server);
	free(r.clients);
	if (r.tables) {
		for (int g = 0; g < r.games; g++)
			free(r.tables[g].sent_s);
		free(r.tables);
	}
	samples_free(&r.moves_ms);
	samples_free(&r.observers_ms);
}

/* --- main --- */

static int usage(void)
{
	fprintf(stderr, "usage: bench-games [--chessd PATH] [--games G] [--observers K] "
	    "[--moves M] [--window S] [--plain-only|--tls-only] [--seconds S]\n");
	return 2;
}

static bool parse_count(const char *text, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* A latency in ms, or "-" when there were no samples. */
static const char *ms_text(double ms, char *buf, size_t len)
{
	if (ms < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", ms);
	return buf;
}

static void print_run(const char *phase, const char *server, const struct result *res,
    const char *unit)
{
	char a[16], b[16], c[16], cpu[32] = "-", client[16] = "-";

	if (!res->ran)
		return;
	if (res->wall_s <= 0 || !res->count) {
		printf("%-6s %-7s FAILED: %s\n", phase, server, res->why[0] ? res->why : "no figures");
		return;
	}
	if (res->server_cpu_s >= 0 && res->count)
		snprintf(cpu, sizeof cpu, "%.1f us/%s", res->server_cpu_s * 1e6 / (double)res->count,
		    unit);
	snprintf(client, sizeof client, "%.0f%%", 100.0 * res->client_cpu_s / res->wall_s);
	printf("%-6s %-7s %6d %8.2f %8.2f %8.2f %9ld %10.0f %8s %8s %8s %16s %7s\n", phase, server,
	    res->conns, res->login_s, res->setup_s, res->wall_s, res->count,
	    (double)res->count / res->wall_s, ms_text(res->p50_ms, a, sizeof a),
	    ms_text(res->p99_ms, b, sizeof b), ms_text(res->max_ms, c, sizeof c), cpu, client);
	if (!res->ok && res->why[0])
		printf("%-6s %-7s   (%s)\n", "", "", res->why);
}

static void print_observers(const char *phase, const struct result *res)
{
	char a[16], b[16], c[16];

	if (!res->ran || res->wall_s <= 0)
		return;
	printf("%-6s %12ld %12ld %14.0f %8s %8s %8s\n", phase, res->deliveries,
	    res->expected_deliveries, (double)res->deliveries / res->wall_s,
	    ms_text(res->obs_p50_ms, a, sizeof a), ms_text(res->obs_p99_ms, b, sizeof b),
	    ms_text(res->obs_max_ms, c, sizeof c));
}

static const char *verdict(bool have, bool met)
{
	return !have ? "-" : met ? "met" : "MISSED";
}

/* The echo ratio is a reference (CPU per move against CPU per round trip), not a target. */
static void print_summary(const char *phase, const struct result *ours, const struct result *echo,
    int observers)
{
	double moves_s = ours->wall_s > 0 ? (double)ours->count / ours->wall_s : -1;
	double echo_s = echo->wall_s > 0 && echo->count ? (double)echo->count / echo->wall_s : -1;
	double ratio = moves_s > 0 && echo_s > 0 ? moves_s / echo_s : -1;
	char m[24] = "failed", e[24] = "failed", q[16] = "-", p[16];

	if (moves_s > 0)
		snprintf(m, sizeof m, "%.0f", moves_s);
	if (echo_s > 0)
		snprintf(e, sizeof e, "%.0f", echo_s);
	if (ratio > 0)
		snprintf(q, sizeof q, "%.3f", ratio);
	printf("%-6s %12s %12s %8s %10s", phase, m, e, q, ms_text(ours->p99_ms, p, sizeof p));
	if (observers)
		printf("   observer p99 <= %.0f ms: %s", TARGET_OBSERVER_P99_MS,
		    verdict(ours->obs_p99_ms >= 0 &&
		    ours->deliveries + ours->delivery_slack >= ours->expected_deliveries,
		    ours->obs_p99_ms <= TARGET_OBSERVER_P99_MS));
	printf("\n");
}

int main(int argc, char **argv)
{
	char chessd[PATH_MAX];
	long games = GAMES_DEFAULT, observers = OBSERVERS_DEFAULT, moves = MOVES_DEFAULT;
	long seconds = SECONDS_DEFAULT, window = WINDOW_DEFAULT;
	bool plain = true, tls = true;

	bench_server_init("bench-games");
	bench_server_default_chessd(chessd, sizeof chessd);
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(arg, "--chessd") && val) {
			snprintf(chessd, sizeof chessd, "%s", val);
			i++;
		} else if (!strcmp(arg, "--games") && val && parse_count(val, 1, GAMES_LIMIT, &games)) {
			i++;
		} else if (!strcmp(arg, "--observers") && val &&
		    parse_count(val, 0, 100000, &observers)) {
			i++;
		} else if (!strcmp(arg, "--moves") && val && parse_count(val, 1, MOVES_LIMIT, &moves)) {
			i++;
		} else if (!strcmp(arg, "--seconds") && val && parse_count(val, 1, 86400, &seconds)) {
			i++;
		} else if (!strcmp(arg, "--window") && val && parse_count(val, 0, 86400, &window)) {
			i++;
		} else if (!strcmp(arg, "--plain-only") && tls && plain) {
			tls = false;
		} else if (!strcmp(arg, "--tls-only") && tls && plain) {
			plain = false;
		} else {
			return usage();
		}
	}
	long conns = games * (2 + observers);
	if (conns > 1000000) {
		fprintf(stderr, "bench-games: %ld connections is too many\n", conns);
		return 2;
	}
	if (access(chessd, X_OK) < 0) {
		fprintf(stderr, "bench-games: cannot run chessd at %s (build it, or pass --chessd PATH)\n",
		    chessd);
		return 2;
	}
	if (bench_server_raise_fd_limit((int)conns) < 0)
		return 2;

	if (window)
		printf("bench-games: %ld games of %ld plies, one after another for a %ld s window, "
		    "%ld observers per game: %ld connections over 127.0.0.1 per run, cap %ld s per "
		    "run\n", games, moves, window, observers, conns, seconds);
	else
		printf("bench-games: %ld games x %ld plies once (a burst), %ld observers per game: "
		    "%ld connections over 127.0.0.1 per run, cap %ld s per run\n", games, moves,
		    observers, conns, seconds);
	printf("chessd: %s; data in %s (%s), SQLite WAL synchronous=FULL\n", chessd, bench_server_temp_parent(),
	    fs_name(bench_server_temp_parent()));
	printf("echo:   libevent %s line echo, %s; %ld CPUs online\n", event_get_version(),
	    OpenSSL_version(OPENSSL_VERSION), sysconf(_SC_NPROCESSORS_ONLN));
	fflush(stdout);

	struct result res[2][2];	/* [tls][echo] */
	memset(res, 0, sizeof res);
	for (int t = 0; t < 2 && !bench_server_interrupted(); t++) {
		if (!(t ? tls : plain))
			continue;
		run_measure(SERVER_CHESSD, t, chessd, (int)games, (int)observers, (int)moves,
		    (double)window, (double)seconds, 0, &res[t][0]);
		if (!res[t][0].wall_s && !bench_server_interrupted() &&
		    strstr(res[t][0].why, "before it listened")) {
			fprintf(stderr, "bench-games: %s\n", res[t][0].why);
			return 2;
		}
		double echo_s = res[t][0].wall_s > ECHO_MIN_S ? res[t][0].wall_s : ECHO_MIN_S;
		if (!bench_server_interrupted())
			run_measure(SERVER_ECHO, t, chessd, (int)games, (int)observers, (int)moves,
			    0, (double)seconds + echo_s, echo_s, &res[t][1]);
	}
	if (bench_server_interrupted()) {
		fprintf(stderr, "bench-games: interrupted\n");
		return 1;
	}

	printf("\n%-6s %-7s %6s %8s %8s %8s %9s %10s %8s %8s %8s %16s %7s\n", "phase", "server",
	    "conns", "login s", "setup s", "wall s", "count", "per s", "p50 ms", "p99 ms", "max ms",
	    "server CPU", "client");
	for (int t = 0; t < 2; t++) {
		print_run(t ? "TLS" : "plain", "chessd", &res[t][0], "move");
		print_run(t ? "TLS" : "plain", "echo", &res[t][1], "rt");
	}
	printf("count: chessd plies committed (seen by the opponent), echo round trips; latency: "
	    "send to receipt\n");
	for (int t = 0; t < 2; t++) {
		const struct result *x = &res[t][0];
		if (x->ran && x->wall_s > 0)
			printf("%-6s games ended %ld (%ld by themselves), moves refused %ld\n",
			    t ? "TLS" : "plain", x->games_ended, x->natural_endings, x->refused);
	}
	if (observers) {
		printf("\n%-6s %12s %12s %14s %8s %8s %8s\n", "phase", "deliveries", "expected",
		    "deliveries/s", "p50 ms", "p99 ms", "max ms");
		for (int t = 0; t < 2; t++)
			print_observers(t ? "TLS" : "plain", &res[t][0]);
		printf("observer latency: the mover's send to the observer's receipt of the board\n");
	}
	printf("\n%-6s %12s %12s %8s %10s\n", "phase", "moves/s", "echo rt/s",
	    "ratio", "p99 ms");
	for (int t = 0; t < 2; t++)
		if (res[t][0].ran)
			print_summary(t ? "TLS" : "plain", &res[t][0], &res[t][1], (int)observers);

	int status = 0;
	for (int t = 0; t < 2; t++)
		for (int s = 0; s < 2; s++)
			if (res[t][s].ran && (!res[t][s].ok || (s == 0 && res[t][s].log_issues)))
				status = 1;
	return status;
}
