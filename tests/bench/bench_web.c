/*
 * bench-web: the web's live streams under load.  Two scenarios, each on
 * a fresh chessd and then on a bare evhttp server forked from this program
 * (the same bytes to as many viewers, in the same run):
 *   one:  one game watched by --viewers V SSE streams (10,000 by default);
 *   many: --games G live games (1,000) with --per-game K streams each (10).
 *   bench-web [--chessd PATH] [--scenario one|many|both] [--viewers V]
 *             [--games G] [--per-game K] [--moves M] [--warmup S]
 *             [--window S] [--seconds S]
 * On chessd two guests per game log in over telnet (127.0.0.1), one
 * challenges the other (60 minute clocks) and, once both see the first
 * board, every viewer asks GET /api/stream/game/N with Accept:
 * text/event-stream.  When a game's viewers all have its description,
 * the side to move plays a random legal move (rules core), and the next
 * one as soon as every viewer of the game has read the last: a closed
 * loop per game.  After M plies the side to move resigns (a game may end
 * by itself sooner); the players start the next game and the viewers ask
 * for it on the same connections.  The bare server takes "game ply" lines
 * on a socket pair in place of moves, answers each once it has queued the
 * event to the game's viewers, and streams the SSE events chessd sent in
 * its run, with the ply as id, through evhttp_send_reply_chunk as chessd
 * does; its games never end.
 * Figures cover a steady window (--window S, 10 by default, after --warmup
 * S, 2): deliveries (move events read by viewers) per second; latency from
 * the move's commit to the last viewer of the game reading the event, the
 * commit marked by whichever came first, the mover's reading of its move
 * acknowledged (chessd shows it only once committed; bare: the answer
 * line) or the first viewer's reading of the event; the server's user and
 * system CPU (/proc/PID/stat) per delivery.  Each run stops by itself after --seconds (300).  chessd's
 * configuration lifts its per-user rate limits and its stream limits to
 * the run's size; output_hard_bytes stays as shipped (a slow reader is
 * dropped, and the run says so).
 * Exit 0 when every run completed, 1 when one failed, 2 on bad arguments,
 * a descriptor limit too low for the viewers, or a server that cannot start.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "bench_samples.h"
#include "bench_server.h"
#include "bench_style12.h"
#include "board.h"
#include "move.h"
#include "movegen.h"
#include "number.h"

#define VIEWERS_DEFAULT 10000
#define GAMES_DEFAULT 1000
#define PER_GAME_DEFAULT 10
#define MOVES_DEFAULT 300
#define MOVES_LIMIT 5000
#define WARMUP_DEFAULT 2
#define WINDOW_DEFAULT 10
#define WINDOW_MIN 10
#define SECONDS_DEFAULT 300
#define GAMES_LIMIT 20000		/* chessd's LIMIT_GAMES */
#define VIEWERS_LIMIT 1000000
/* Connections logging in or opening a stream at once. */
#define IN_FLIGHT_MAX 200
#define CLOCK_MINUTES 60
#define STALL_S 30.0
#define TICK_MS 50
#define READ_BYTES 65536
/* What a viewer keeps of a line to tell what it is. */
#define LINE_KEEP 24
/* Events of chessd's first game kept for the bare server to send again. */
#define EVENTS_KEPT 1024
#define DATA_MAX 4096
#define UNMATCHED_MAX 65536
/* Streams and sockets beyond the viewers in chessd's limits. */
#define STREAMS_SPARE 100
#define TARGET_P99_MS 50.0
#define TARGET_CPU_US 2.0
/* When the bare server has no event of chessd's to send: one of about the size. */
#define FALLBACK_DATA "{\"fen\":\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"," \
	"\"lm\":\"e2e4\",\"wc\":3600,\"bc\":3600,\"san\":\"e4\"}"

enum server_kind { SERVER_CHESSD, SERVER_BARE };
enum stage { STAGE_SETUP, STAGE_WARMUP, STAGE_WINDOW, STAGE_DONE };

/* What a table waits for before its next move. */
enum table_state {
	T_PAIRING,	/* chessd: the match, then both players' first board */
	T_STARTING,	/* every viewer's first event (the game's description) */
	T_PLAYING,	/* the ply's ack, its viewers and (chessd) the opponent's board */
	T_OVER,		/* chessd: the game's end line, to both players */
};

enum viewer_state { V_QUEUED, V_CONNECTING, V_HEAD, V_BODY, V_IDLE };

struct run;
struct table;

struct player {
	struct run *run;
	struct table *table;
	struct bufferevent *bev;
	struct bench_login login;
	bool white, logging_in, ready;
};

struct viewer {
	struct run *run;
	struct table *table;
	struct event *ev;
	int fd;
	enum viewer_state state;
	int gen;			/* the table's game this stream is of */
	int last_id;			/* the last SSE id read on it, -1 for none */
	bool first_seen;		/* the game's description came */
	bool status_seen;		/* the reply's status line came */
	bool opening;			/* counted in the streams on their way */
	bool capture;			/* keeps chessd's events for the bare server */
	char line[LINE_KEEP + 1];
	size_t line_len;		/* of the whole line, LINE_KEEP at most kept */
};

struct table {
	struct run *run;
	int index;
	struct player *white, *black;
	struct viewer *viewers;
	enum table_state state;
	int gen;			/* games started on it */
	int number;			/* chessd's game number, 0 until known */
	int players_in, players_ended;
	int ply;			/* the last ply sent */
	int got;			/* viewers that read it (or the description) */
	bool acked, have_board, resigned;
	struct board board;		/* the opponent's, for the next move */
	double ack_s, first_s, last_s;	/* the ply's ack, its first and last viewer's read */
};

/* The SSE events of chessd's first game: data lines by id. */
struct capture {
	char *data[EVENTS_KEPT];
	int count;			/* ids 0..count-1 are there */
	int id;				/* of the event being read */
	char line[DATA_MAX];
	size_t len;
};

struct figures {
	double wall_s, user_s, sys_s, client_s;
	long deliveries, plies, games_started;
	double p50_ms, p99_ms, max_ms;
	bool ran, ok;
	char why[320];
};

struct run {
	enum server_kind kind;
	int games, per_game, moves, viewer_count;
	double warmup_s, window_s;
	struct bench_server *server;
	struct event_base *base;
	struct event *tick;
	int http_port;
	struct table *tables;
	struct player *players;
	struct viewer *viewers;
	struct viewer **queue;		/* streams to open, in order */
	int queued, opened, in_flight, players_started, players_in_flight;
	int tables_playing;
	struct bufferevent *control;	/* bare: the move lines */
	int control_child_fd;		/* bare: the other end of the pair, the child's */
	struct capture *cap;
	enum stage stage;
	double go_s, window_start_s, last_progress_s, deadline_s;
	double user0_s, sys0_s, client0_s;
	long deliveries, plies, games_started;
	struct samples latency_ms;
	bool broken, capped;
	char why[256];
	char buf[READ_BYTES];
};

static double process_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress(struct run *r)
{
	r->last_progress_s = bench_server_now_s();
}

/* A run that cannot go on: the first reason wins, and the loop ends. */
static void run_fail(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void run_fail(struct run *r, const char *fmt, ...)
{
	va_list ap;

	r->broken = true;
	event_base_loopbreak(r->base);
	if (r->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof r->why, fmt, ap);
	va_end(ap);
}

static bool measuring(const struct run *r)
{
	return r->stage == STAGE_WINDOW;
}

/* --- the viewers --- */

static void viewer_cb(evutil_socket_t fd, short what, void *arg);
static void table_check(struct table *t);

/* Opens queued streams while fewer than IN_FLIGHT_MAX are on their way. */
static void viewers_pump(struct run *r)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	    .sin_port = htons((uint16_t)r->http_port) };

	while (r->in_flight < IN_FLIGHT_MAX && r->opened < r->queued && !r->broken) {
		struct viewer *v = r->queue[r->opened++];
		v->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (v->fd < 0 || (connect(v->fd, (struct sockaddr *)&to, sizeof to) < 0 &&
		    errno != EINPROGRESS)) {
			run_fail(r, "a viewer cannot connect: %s", strerror(errno));
			return;
		}
		v->ev = event_new(r->base, v->fd, EV_WRITE, viewer_cb, v);
		if (!v->ev || event_add(v->ev, NULL) < 0) {
			run_fail(r, "out of memory for the viewers");
			return;
		}
		v->state = V_CONNECTING;
		v->opening = true;
		r->in_flight++;
	}
}

/* Asks for the table's game on the viewer's connection. */
static void viewer_request(struct viewer *v)
{
	struct table *t = v->table;
	char req[192];
	int n = v->run->kind == SERVER_CHESSD ?
	    snprintf(req, sizeof req, "GET /api/stream/game/%d HTTP/1.1\r\nHost: 127.0.0.1\r\n"
	    "Accept: text/event-stream\r\n\r\n", t->number) :
	    snprintf(req, sizeof req, "GET /stream/%d HTTP/1.1\r\nHost: 127.0.0.1\r\n"
	    "Accept: text/event-stream\r\n\r\n", t->index);

	v->gen = t->gen;
	v->last_id = -1;
	v->first_seen = v->status_seen = false;
	v->state = V_HEAD;
	if (write(v->fd, req, (size_t)n) != n)
		run_fail(v->run, "a viewer's request did not go: %s", strerror(errno));
}

/* The table has a game to watch: idle viewers ask for it, new ones queue. */
static void table_viewers_go(struct table *t)
{
	struct run *r = t->run;

	for (int i = 0; i < r->per_game; i++) {
		struct viewer *v = &t->viewers[i];
		if (v->state == V_IDLE)
			viewer_request(v);
		else if (v->state == V_QUEUED && v->fd < 0 && !v->ev)
			r->queue[r->queued++] = v;
	}
	viewers_pump(r);
}

/* One SSE id read by a viewer at now. */
static void viewer_event(struct viewer *v, int id, double now)
{
	struct table *t = v->table;
	struct run *r = v->run;

	if (id <= v->last_id || v->gen != t->gen)
		return;
	v->last_id = id;
	if (!v->first_seen) {
		v->first_seen = true;
		if (v->opening) {
			v->opening = false;
			r->in_flight--;
			viewers_pump(r);
		}
		if (t->state == T_STARTING && ++t->got == r->per_game) {
			progress(r);
			table_check(t);
		}
		return;
	}
	if (t->state != T_PLAYING || id != t->ply)
		return;
	t->last_s = now;
	if (!t->got)
		t->first_s = now;
	if (measuring(r))
		r->deliveries++;
	if (++t->got == r->per_game)
		table_check(t);
}

/* The capturing viewer's data line of event cap->id, whole. */
static void capture_line(struct capture *cap)
{
	if (cap->id < 0 || cap->id != cap->count || cap->count >= EVENTS_KEPT ||
	    cap->len < 6 || strncmp(cap->line, "data: ", 6))
		return;
	cap->data[cap->count] = strndup(cap->line + 6, cap->len - 6);
	if (cap->data[cap->count])
		cap->count++;
}

/* One whole line of a viewer's connection, its first LINE_KEEP bytes in v->line. */
static void viewer_line(struct viewer *v, double now)
{
	struct run *r = v->run;
	size_t kept = v->line_len < LINE_KEEP ? v->line_len : LINE_KEEP;
	const char *l = v->line;

	v->line[kept] = '\0';

	if (v->state == V_HEAD) {
		if (kept >= 12 && !strncmp(l, "HTTP/1.", 7)) {
			v->status_seen = true;
			v->line[kept - 1] = '\0';
			if (strncmp(l + 8, " 200", 4))
				run_fail(r, "a stream was refused: %s", l);
		} else if (v->line_len <= 1 && v->status_seen) {
			v->state = V_BODY;
		}
		return;
	}
	if (kept >= 5 && !strncmp(l, "id: ", 4)) {
		long id;
		if (number_parse(l + 4, 0, INT_MAX, &id) != NUMBER_OK) {
			run_fail(r, "a bad SSE id: %s", l);
			return;
		}
		if (v->capture)
			r->cap->id = (int)id;
		viewer_event(v, (int)id, now);
	} else if (v->line_len == 2 && l[0] == '0' && l[1] == '\r') {
		/* The chunked reply's end: the game is over; the next one comes on this connection. */
		v->state = V_IDLE;
		if (v->capture)
			v->capture = false;
		if (v->table->number && v->table->state != T_PAIRING && v->gen != v->table->gen)
			viewer_request(v);
	} else if (v->capture) {
		capture_line(r->cap);
	}
}

/* Splits what a viewer read into lines. */
static void viewer_bytes(struct viewer *v, const char *p, size_t n, double now)
{
	struct capture *cap = v->capture ? v->run->cap : NULL;

	while (n && !v->run->broken) {
		const char *nl = memchr(p, '\n', n);
		size_t seg = nl ? (size_t)(nl - p) : n;
		if (v->line_len < LINE_KEEP)
			memcpy(v->line + v->line_len, p, seg < LINE_KEEP - v->line_len ? seg :
			    LINE_KEEP - v->line_len);
		v->line_len += seg;
		if (cap && cap->len + seg < DATA_MAX) {
			memcpy(cap->line + cap->len, p, seg);
			cap->len += seg;
		}
		if (!nl)
			return;
		viewer_line(v, now);
		v->line_len = 0;
		if (cap)
			cap->len = 0;
		cap = v->capture ? cap : NULL;
		p = nl + 1;
		n -= seg + 1;
	}
}

static void viewer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct viewer *v = arg;
	struct run *r = v->run;

	(void)what;
	if (v->state == V_CONNECTING) {
		int err = 0;
		socklen_t len = sizeof err;
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
		if (err) {
			run_fail(r, "a viewer cannot connect: %s", strerror(err));
			return;
		}
		event_free(v->ev);
		v->ev = event_new(r->base, fd, EV_READ | EV_PERSIST, viewer_cb, v);
		if (!v->ev || event_add(v->ev, NULL) < 0) {
			run_fail(r, "out of memory for the viewers");
			return;
		}
		viewer_request(v);
		return;
	}
	ssize_t got = read(fd, r->buf, sizeof r->buf);
	if (got > 0) {
		viewer_bytes(v, r->buf, (size_t)got, bench_server_now_s());
	} else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
		run_fail(r, "a stream was closed by the server (%s): a slow reader dropped?",
		    got == 0 ? "end of file" : strerror(errno));
	}
}

static void viewers_close(struct run *r)
{
	for (int i = 0; i < r->viewer_count; i++) {
		struct viewer *v = &r->viewers[i];
		if (v->ev)
			event_free(v->ev);
		if (v->fd >= 0)
			close(v->fd);
		v->ev = NULL;
		v->fd = -1;
	}
}

/* --- the games --- */

static void players_start(struct run *r);

static void player_send(struct player *p, const char *text)
{
	bufferevent_write(p->bev, text, strlen(text));
}

static void table_match(struct table *t)
{
	char line[96];

	t->state = T_PAIRING;
	snprintf(line, sizeof line, "match %s %d 0 unrated white\n", t->black->login.name,
	    CLOCK_MINUTES);
	player_send(t->white, line);
}

/* The next ply, sent: a random legal move on chessd, a line to the bare server. */
static void table_move(struct table *t)
{
	struct run *r = t->run;
	char text[MOVE_TEXT_MAX + 24];

	t->ply++;
	t->got = 0;
	t->acked = t->have_board = false;
	if (r->kind == SERVER_BARE) {
		snprintf(text, sizeof text, "%d %d\n", t->index, t->ply);
		bufferevent_write(r->control, text, strlen(text));
		return;
	}
	move list[MAX_MOVES];
	int n = movegen_legal(&t->board, list);
	if (n <= 0)
		return;		/* the game ended by itself: its end line comes */
	move_format_uci(list[random() % n], text);
	strcat(text, "\n");
	player_send(t->ply % 2 ? t->white : t->black, text);
}

/* Moves the table on when what it waits for has come. */
static void table_check(struct table *t)
{
	struct run *r = t->run;

	if (t->state == T_STARTING) {
		if (t->got < r->per_game || (r->kind == SERVER_CHESSD && t->players_in < 2))
			return;
		t->state = T_PLAYING;
		if (t->gen == 0)
			r->tables_playing++;
		table_move(t);
		return;
	}
	if (t->state != T_PLAYING || !t->acked || t->got < r->per_game ||
	    (r->kind == SERVER_CHESSD && !t->have_board))
		return;
	progress(r);
	if (measuring(r)) {
		/* Which of the ack and the first viewer is served first is the server's
		 * choice: the earlier marks the commit. */
		double from = t->ack_s < t->first_s ? t->ack_s : t->first_s;
		samples_add(&r->latency_ms, (t->last_s - from) * 1000.0);
		r->plies++;
	}
	if (r->kind == SERVER_CHESSD && t->ply >= r->moves) {
		if (!t->resigned)
			player_send(t->ply % 2 ? t->black : t->white, "resign\n");
		t->resigned = true;
		return;
	}
	table_move(t);
}

/* Both players saw the game end: the next one on this table. */
static void table_restart(struct table *t)
{
	t->gen++;
	t->number = t->ply = t->got = t->players_in = t->players_ended = 0;
	t->acked = t->have_board = t->resigned = false;
	if (measuring(t->run))
		t->run->games_started++;
	table_match(t);
}

static void player_board(struct player *p, const char *line)
{
	struct table *t = p->table;
	struct style12 s;

	if (!style12_parse(line, &s)) {
		run_fail(p->run, "unreadable style 12 line: %.120s", line);
		return;
	}
	int ply = style12_ply(&s);
	if (t->state == T_PAIRING && ply == 0) {
		t->number = s.game;
		if (p->white && style12_board(&s, &t->board) < 0)
			run_fail(p->run, "cannot rebuild the board of: %.120s", line);
		if (++t->players_in == 2) {
			t->state = T_STARTING;
			t->got = 0;
			table_viewers_go(t);
			table_check(t);
		}
		return;
	}
	if (t->state != T_PLAYING || ply != t->ply || s.game != t->number)
		return;
	if (s.relation == -1 && !t->acked) {
		t->acked = true;
		t->ack_s = bench_server_now_s();
	} else if (s.relation == 1 && !t->have_board) {
		if (style12_board(&s, &t->board) < 0)
			run_fail(p->run, "cannot rebuild the board of: %.120s", line);
		t->have_board = true;
	}
	table_check(t);
}

static void player_line(struct player *p, char *line)
{
	struct table *t = p->table;
	int number;

	while (*line == '\r' || !strncmp(line, "fics% ", 6))
		line += *line == '\r' ? 1 : 6;
	if (!strncmp(line, "<12> ", 5)) {
		player_board(p, line);
	} else if (sscanf(line, "{Game " NUMBER_SCAN_INT " ", &number) == 1) {
		if (number != t->number || t->state == T_PAIRING)
			return;
		t->state = T_OVER;
		if (++t->players_ended == 2)
			table_restart(t);
	} else if (!strcmp(line, "Style 12 set.")) {
		struct run *r = p->run;
		p->ready = true;
		r->players_in_flight--;
		progress(r);
		players_start(r);
		if (t->white->ready && t->black->ready)
			table_match(t);
	} else if (!strncmp(line, "Challenge: ", 11)) {
		if (!p->white)
			player_send(p, "accept\n");
	} else if (!strncmp(line, "Illegal move", 12) || !strncmp(line, "It is not your move", 19) ||
	    strstr(line, "declines") || strstr(line, "No user named") ||
	    strstr(line, "not open to match")) {
		run_fail(p->run, "chessd refused: %.160s", line);
	}
}

static bool player_open(void *arg)
{
	return !((struct player *)arg)->run->broken;
}

static void line_to_player(void *arg, char *line)
{
	player_line(arg, line);
}

static void player_read_cb(struct bufferevent *bev, void *arg)
{
	struct player *p = arg;

	if (p->logging_in) {
		if (!bench_server_guest_login(bev, &p->login, UNMATCHED_MAX))
			return;
		p->logging_in = false;
		player_send(p, "style 12\n");
	}
	bench_server_lines(bufferevent_get_input(bev), UNMATCHED_MAX, player_open, line_to_player,
	    p);
}

static void player_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct player *p = arg;

	(void)bev;
	if (what & BEV_EVENT_CONNECTED) {
		players_start(p->run);
		return;
	}
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		run_fail(p->run, "a player's connection was lost");
}

/* Logs players in, IN_FLIGHT_MAX at a time. */
static void players_start(struct run *r)
{
	char why[160];

	while (r->players_in_flight < IN_FLIGHT_MAX && r->players_started < 2 * r->games &&
	    !r->broken) {
		struct player *p = &r->players[r->players_started++];
		p->logging_in = true;
		r->players_in_flight++;
		p->bev = bench_server_connect(r->server, player_read_cb, player_event_cb, p, why,
		    sizeof why);
		if (!p->bev)
			run_fail(r, "%s", why);
	}
}

/* --- the bare server (the child) --- */

struct bare_event {
	int refs;
	size_t len;
	char text[];
};

struct bare_viewer {
	struct bare *bare;
	struct evhttp_request *req;
	struct bare_viewer *next, **prevp;
};

struct bare {
	const struct run *run;		/* the parent's, as forked: games and events */
	struct event_base *base;
	struct bufferevent *control;
	struct evbuffer *scratch;
	struct bare_viewer **groups;	/* by game */
};

static void bare_event_unref(const void *data, size_t len, void *arg)
{
	struct bare_event *ev = arg;

	(void)data;
	(void)len;
	if (--ev->refs == 0)
		free(ev);
}

/* The data of chessd's event for ply (0: the description), sent again. */
static const char *bare_data(const struct capture *cap, int ply)
{
	if (ply == 0)
		return cap->count > 0 ? cap->data[0] : FALLBACK_DATA;
	return cap->count > 1 ? cap->data[1 + (ply - 1) % (cap->count - 1)] : FALLBACK_DATA;
}

static struct bare_event *bare_event_new(const struct capture *cap, int ply)
{
	const char *data = bare_data(cap, ply);
	size_t room = strlen(data) + 32;
	struct bare_event *ev = malloc(sizeof *ev + room);

	if (!ev)
		return NULL;
	ev->len = (size_t)snprintf(ev->text, room, "id: %d\ndata: %s\n\n", ply, data);
	ev->refs = 1;
	return ev;
}

static void bare_send(struct bare *b, struct evhttp_request *req, struct bare_event *ev)
{
	if (evbuffer_add_reference(b->scratch, ev->text, ev->len, bare_event_unref, ev) == 0)
		ev->refs++;
	evhttp_send_reply_chunk(req, b->scratch);
	evbuffer_drain(b->scratch, evbuffer_get_length(b->scratch));
}

static void bare_viewer_closed(struct evhttp_connection *evcon, void *arg)
{
	struct bare_viewer *v = arg;

	(void)evcon;
	*v->prevp = v->next;
	if (v->next)
		v->next->prevp = v->prevp;
	free(v);
}

static void bare_stream(struct evhttp_request *req, void *arg)
{
	struct bare *b = arg;
	const char *path = evhttp_request_get_uri(req);
	char *end;
	long game = strncmp(path, "/stream/", 8) ? -1 : strtol(path + 8, &end, 10);
	struct bare_viewer *v = game >= 0 && game < b->run->games && !*end ?
	    calloc(1, sizeof *v) : NULL;
	struct bare_event *ev = v ? bare_event_new(b->run->cap, 0) : NULL;

	if (!ev) {
		free(v);
		evhttp_send_error(req, 404, NULL);
		return;
	}
	v->bare = b;
	v->req = req;
	v->next = b->groups[game];
	if (v->next)
		v->next->prevp = &v->next;
	v->prevp = &b->groups[game];
	b->groups[game] = v;
	evhttp_connection_set_closecb(evhttp_request_get_connection(req), bare_viewer_closed, v);
	evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
	    "text/event-stream");
	evhttp_send_reply_start(req, 200, "OK");
	bare_send(b, req, ev);
	bare_event_unref(NULL, 0, ev);
}

/* The next "game ply" line of a game below games in `in`; false when none is complete. */
static bool move_line(struct evbuffer *in, int games, int *game, int *ply)
{
	char *line;

	while ((line = evbuffer_readln(in, NULL, EVBUFFER_EOL_LF))) {
		bool ok = sscanf(line, NUMBER_SCAN_INT " " NUMBER_SCAN_INT, game, ply) == 2 && *game >= 0 && *game < games;
		free(line);
		if (ok)
			return true;
	}
	return false;
}

/* "game ply": the event to the game's viewers, then the same line back. */
static void bare_control_cb(struct bufferevent *bev, void *arg)
{
	struct bare *b = arg;
	int game, ply;

	while (move_line(bufferevent_get_input(bev), b->run->games, &game, &ply)) {
		struct bare_event *ev = bare_event_new(b->run->cap, ply);
		for (struct bare_viewer *v = b->groups[game]; v && ev; v = v->next)
			bare_send(b, v->req, ev);
		if (ev)
			bare_event_unref(NULL, 0, ev);
		evbuffer_add_printf(bufferevent_get_output(bev), "%d %d\n", game, ply);
	}
}

static void bare_control_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct bare *b = arg;

	(void)bev;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		event_base_loopbreak(b->base);
}

/* The bare server's main: evhttp on 127.0.0.1, the move lines on the socket pair. */
static int bare_serve(void *arg, int port_fd)
{
	struct run *r = arg;
	struct bare b = { .run = r };
	struct evhttp_bound_socket *bound = NULL;
	struct sockaddr_in sin;
	socklen_t len = sizeof sin;

	b.base = event_base_new();
	b.scratch = evbuffer_new();
	b.groups = calloc((size_t)r->games, sizeof *b.groups);
	struct evhttp *http = b.base ? evhttp_new(b.base) : NULL;
	if (http)
		bound = evhttp_bind_socket_with_handle(http, "127.0.0.1", 0);
	if (!bound || !b.scratch || !b.groups || getsockname(evhttp_bound_socket_get_fd(bound),
	    (struct sockaddr *)&sin, &len) < 0) {
		dprintf(port_fd, "cannot listen on 127.0.0.1\n");
		return 1;
	}
	b.control = bufferevent_socket_new(b.base, r->control_child_fd, 0);
	evhttp_set_timeout(http, 3600);
	evhttp_set_gencb(http, bare_stream, &b);
	bufferevent_setcb(b.control, bare_control_cb, NULL, bare_control_event_cb, &b);
	bufferevent_enable(b.control, EV_READ | EV_WRITE);
	dprintf(port_fd, "port %d\n", ntohs(sin.sin_port));
	event_base_dispatch(b.base);
	return 0;
}

/* The bare server's answer to a move line: the ply's ack. */
static void control_read_cb(struct bufferevent *bev, void *arg)
{
	struct run *r = arg;
	int game, ply;

	while (move_line(bufferevent_get_input(bev), r->games, &game, &ply)) {
		if (r->tables[game].ply != ply)
			continue;
		r->tables[game].acked = true;
		r->tables[game].ack_s = bench_server_now_s();
		table_check(&r->tables[game]);
	}
}

static void control_event_cb(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		run_fail(arg, "the bare server's move lines were closed");
}

/* --- a run --- */

static void window_start(struct run *r, double now)
{
	r->stage = STAGE_WINDOW;
	r->window_start_s = now;
	r->client0_s = process_cpu_s();
	if (bench_server_cpu_split(r->server, &r->user0_s, &r->sys0_s) < 0)
		r->user0_s = r->sys0_s = -1;
}

static void window_end(struct run *r, double now, struct figures *f)
{
	double user, sys;

	r->stage = STAGE_DONE;
	f->wall_s = now - r->window_start_s;
	f->client_s = process_cpu_s() - r->client0_s;
	if (r->user0_s >= 0 && bench_server_cpu_split(r->server, &user, &sys) == 0) {
		f->user_s = user - r->user0_s;
		f->sys_s = sys - r->sys0_s;
	} else {
		f->user_s = f->sys_s = -1;
	}
	f->deliveries = r->deliveries;
	f->plies = r->plies;
	f->games_started = r->games_started;
	samples_summary(&r->latency_ms, &f->p50_ms, &f->p99_ms, &f->max_ms);
	event_base_loopbreak(r->base);
}

struct tick {
	struct run *run;
	struct figures *fig;
};

/* Every tick: the stages, Ctrl-C, a server that died, a stall and the time cap. */
static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct tick *k = arg;
	struct run *r = k->run;
	double now = bench_server_now_s();
	char text[96];

	(void)fd;
	(void)what;
	if (bench_server_interrupted()) {
		run_fail(r, "interrupted");
	} else if (bench_server_exited(r->server, text, sizeof text)) {
		run_fail(r, "the server %s", text);
	} else if (now >= r->deadline_s) {
		r->capped = true;
		run_fail(r, "stopped by the --seconds cap");
	} else if (now - r->last_progress_s > STALL_S) {
		snprintf(text, sizeof text, "%d of %d tables playing, %d of %d streams open",
		    r->tables_playing, r->games, r->opened, r->viewer_count);
		run_fail(r, "no progress for 30 s (%s)", text);
	} else if (r->stage == STAGE_SETUP && r->tables_playing == r->games) {
		r->stage = STAGE_WARMUP;
		r->go_s = now;
	} else if (r->stage == STAGE_WARMUP && now - r->go_s >= r->warmup_s) {
		window_start(r, now);
	} else if (r->stage == STAGE_WINDOW && now - r->window_start_s >= r->window_s) {
		window_end(r, now, k->fig);
	}
}

static int run_build(struct run *r)
{
	r->viewer_count = r->games * r->per_game;
	r->tables = calloc((size_t)r->games, sizeof *r->tables);
	r->viewers = calloc((size_t)r->viewer_count, sizeof *r->viewers);
	r->queue = calloc((size_t)r->viewer_count, sizeof *r->queue);
	if (r->kind == SERVER_CHESSD)
		r->players = calloc((size_t)r->games * 2, sizeof *r->players);
	if (!r->tables || !r->viewers || !r->queue || (r->kind == SERVER_CHESSD && !r->players))
		return -1;
	for (int g = 0; g < r->games; g++) {
		struct table *t = &r->tables[g];
		t->run = r;
		t->index = g;
		t->viewers = &r->viewers[g * r->per_game];
		t->state = r->kind == SERVER_CHESSD ? T_PAIRING : T_STARTING;
		for (int i = 0; i < r->per_game; i++) {
			t->viewers[i].run = r;
			t->viewers[i].table = t;
			t->viewers[i].fd = -1;
		}
		if (r->kind == SERVER_CHESSD) {
			t->white = &r->players[2 * g];
			t->black = &r->players[2 * g + 1];
			*t->white = (struct player){ .run = r, .table = t, .white = true };
			*t->black = (struct player){ .run = r, .table = t };
		}
	}
	/* chessd's first game's events, for the bare server to send again. */
	r->viewers[0].capture = r->kind == SERVER_CHESSD;
	return 0;
}

static void run_free(struct run *r)
{
	viewers_close(r);
	free(r->tables);
	free(r->viewers);
	free(r->queue);
	free(r->players);
	samples_free(&r->latency_ms);
}

/* Starts the run's server; -1 with why. */
static int run_server(struct run *r, const char *chessd, char *why, size_t whylen)
{
	char extra[256];
	int pair[2];

	if (r->kind == SERVER_CHESSD) {
		r->http_port = bench_server_free_port();
		snprintf(extra, sizeof extra, "http_port = %d\nhttps_port = 0\nweb_streams = %d\n"
		    "web_streams_per_address = %d\nhttp_request_ms = 3600000\n", r->http_port,
		    r->viewer_count + STREAMS_SPARE, r->viewer_count + STREAMS_SPARE);
		bench_server_config_add(r->server, extra);
		return r->http_port < 0 ? -1 : bench_server_start_chessd(r->server, chessd,
		    2 * r->games, false, BENCH_READY_LISTENING, why, whylen);
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0) {
		snprintf(why, whylen, "socketpair: %s", strerror(errno));
		return -1;
	}
	evutil_make_socket_nonblocking(pair[0]);
	evutil_make_socket_nonblocking(pair[1]);
	r->control_child_fd = pair[1];
	r->control = bufferevent_socket_new(r->base, pair[0], BEV_OPT_CLOSE_ON_FREE);
	if (!r->control) {
		close(pair[0]);
		close(pair[1]);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	r->http_port = bench_server_start_fork(r->server, bare_serve, r, "bare evhttp", why,
	    whylen);
	close(pair[1]);
	bufferevent_setcb(r->control, control_read_cb, NULL, control_event_cb, r);
	bufferevent_enable(r->control, EV_READ | EV_WRITE);
	return r->http_port < 0 ? -1 : 0;
}

/* One run on chessd or the bare server: set up, warm up, measure the window. */
static void run_measure(enum server_kind kind, const char *chessd, int games, int per_game,
    int moves, double warmup_s, double window_s, double cap_s, struct capture *cap,
    struct figures *f)
{
	struct run *r = calloc(1, sizeof *r);
	struct tick k = { .run = r, .fig = f };
	char how[128];

	memset(f, 0, sizeof *f);
	f->ran = true;
	if (!r) {
		snprintf(f->why, sizeof f->why, "out of memory");
		return;
	}
	*r = (struct run){ .kind = kind, .games = games, .per_game = per_game, .moves = moves,
	    .warmup_s = warmup_s, .window_s = window_s, .server = bench_server_new(), .cap = cap };
	r->base = bench_server_base(r->server);
	if (run_build(r) < 0 || !(r->tick = event_new(r->base, -1, EV_PERSIST, tick_cb, &k))) {
		snprintf(f->why, sizeof f->why, "out of memory for %d viewers", r->viewer_count);
		goto out;
	}
	if (run_server(r, chessd, f->why, sizeof f->why) < 0)
		goto out;
	struct timeval tick = { 0, TICK_MS * 1000 };
	event_add(r->tick, &tick);
	progress(r);
	r->deadline_s = r->last_progress_s + cap_s;
	if (kind == SERVER_CHESSD) {
		players_start(r);
	} else {
		for (int g = 0; g < games; g++)
			table_viewers_go(&r->tables[g]);
	}
	if (!r->broken)
		event_base_dispatch(r->base);
	f->ok = !r->broken && r->stage == STAGE_DONE;
	if (!f->ok)
		snprintf(f->why, sizeof f->why, "%s", r->why[0] ? r->why : "stopped early");
out:
	if (r->tick)
		event_free(r->tick);
	viewers_close(r);
	if (r->control)
		bufferevent_free(r->control);
	if (kind == SERVER_BARE) {
		bench_server_kill(r->server);
	} else if (bench_server_stop(r->server, NULL, how, sizeof how) < 0 &&
	    !bench_server_interrupted()) {
		fprintf(stderr, "bench-web: chessd on SIGTERM: %s\n", how);
		f->ok = false;
	}
	if (kind == SERVER_CHESSD && bench_server_log_issues(r->server, "web") > 0 && f->ok) {
		f->ok = false;
		snprintf(f->why, sizeof f->why, "warnings or errors in chessd's log");
	}
	bench_server_free(r->server);
	run_free(r);
	free(r);
}

/* --- main --- */

static int usage(void)
{
	fprintf(stderr, "usage: bench-web [--chessd PATH] [--scenario one|many|both] [--viewers V] "
	    "[--games G] [--per-game K] [--moves M] [--warmup S] [--window S] [--seconds S]\n"
	    "  (--window at least %d s; viewers and players within the open-file hard limit)\n",
	    WINDOW_MIN);
	return 2;
}

/* A whole number argument within [lo, hi] (NULL when the option has no value). */
static bool whole_number(const char *text, long lo, long hi, long *out)
{
	return text && number_parse(text, lo, hi, out) == NUMBER_OK;
}

static void ms_cell(double ms, char *buf, size_t len)
{
	snprintf(buf, len, ms < 0 ? "-" : "%.2f", ms);
}

static double per_delivery_us(const struct figures *f)
{
	return f->deliveries && f->user_s >= 0 ? (f->user_s + f->sys_s) * 1e6 /
	    (double)f->deliveries : -1;
}

static void print_row(const char *scenario, const char *server, const struct figures *f)
{
	char p50[16], p99[16], max[16];

	if (!f->ran)
		return;
	if (!f->ok && !f->deliveries) {
		printf("%-18s %-11s FAILED: %s\n", scenario, server, f->why);
		return;
	}
	ms_cell(f->p50_ms, p50, sizeof p50);
	ms_cell(f->p99_ms, p99, sizeof p99);
	ms_cell(f->max_ms, max, sizeof max);
	printf("%-18s %-11s %8.1f %10ld %12.0f %8s %8s %8s %9.2f %7.2f %7.2f %6.0f%%\n", scenario,
	    server, f->wall_s, f->deliveries, (double)f->deliveries / f->wall_s, p50, p99, max,
	    per_delivery_us(f), f->user_s * 1e6 / (double)(f->deliveries ? f->deliveries : 1),
	    f->sys_s * 1e6 / (double)(f->deliveries ? f->deliveries : 1),
	    100.0 * f->client_s / f->wall_s);
	if (!f->ok)
		printf("%-18s %-11s   (%s)\n", "", "", f->why);
}

static void print_ratio(const char *scenario, const struct figures *ours,
    const struct figures *bare, bool one)
{
	double a = ours->wall_s > 0 ? (double)ours->deliveries / ours->wall_s : 0;
	double b = bare->wall_s > 0 ? (double)bare->deliveries / bare->wall_s : 0;
	double ca = per_delivery_us(ours), cb = per_delivery_us(bare);

	if (!ours->ran || !bare->ran)
		return;
	printf("%-18s deliveries/s chessd/bare %.2f, CPU per delivery chessd/bare ", scenario,
	    b > 0 ? a / b : 0);
	if (ca > 0 && cb > 0)
		printf("%.2f", ca / cb);
	else
		printf("-");
	printf("; plies %ld, games started %ld", ours->plies, ours->games_started);
	if (one)
		printf("; p99 <= %.0f ms: %s", TARGET_P99_MS, ours->p99_ms >= 0 &&
		    ours->p99_ms <= TARGET_P99_MS ? "met" : "MISSED");
	printf("; <= %.0f us CPU/delivery: %s\n", TARGET_CPU_US, ca >= 0 && ca <= TARGET_CPU_US ?
	    "met" : "MISSED");
}

int main(int argc, char **argv)
{
	char chessd[PATH_MAX];
	long viewers = VIEWERS_DEFAULT, games = GAMES_DEFAULT, per_game = PER_GAME_DEFAULT;
	long moves = MOVES_DEFAULT, warmup = WARMUP_DEFAULT, window = WINDOW_DEFAULT;
	long seconds = SECONDS_DEFAULT;
	bool one = true, many = true;

	bench_server_init("bench-web");
	bench_server_default_chessd(chessd, sizeof chessd);
	for (int i = 1; i < argc; i += 2) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(arg, "--chessd") && val)
			snprintf(chessd, sizeof chessd, "%s", val);
		else if (!strcmp(arg, "--scenario") && val && (!strcmp(val, "one") ||
		    !strcmp(val, "many") || !strcmp(val, "both"))) {
			one = strcmp(val, "many") != 0;
			many = strcmp(val, "one") != 0;
		} else if (!(!strcmp(arg, "--viewers") && whole_number(val, 1, VIEWERS_LIMIT, &viewers)) &&
		    !(!strcmp(arg, "--games") && whole_number(val, 1, GAMES_LIMIT, &games)) &&
		    !(!strcmp(arg, "--per-game") && whole_number(val, 1, VIEWERS_LIMIT, &per_game)) &&
		    !(!strcmp(arg, "--moves") && whole_number(val, 1, MOVES_LIMIT, &moves)) &&
		    !(!strcmp(arg, "--warmup") && whole_number(val, 0, 3600, &warmup)) &&
		    !(!strcmp(arg, "--window") && whole_number(val, WINDOW_MIN, 3600, &window)) &&
		    !(!strcmp(arg, "--seconds") && whole_number(val, 1, 86400, &seconds)))
			return usage();
	}
	if (many && games * per_game > VIEWERS_LIMIT) {
		fprintf(stderr, "bench-web: %ld streams is too many\n", games * per_game);
		return 2;
	}
	if (access(chessd, X_OK) < 0) {
		fprintf(stderr, "bench-web: cannot run chessd at %s (build it, or pass --chessd PATH)\n",
		    chessd);
		return 2;
	}
	long most = one ? viewers + 2 : 0;
	if (many && games * (per_game + 2) > most)
		most = games * (per_game + 2);
	/* Every stream is a descriptor here and one in the server: more than the limit is refused. */
	if (bench_server_raise_fd_limit((int)most) < 0)
		return 2;
	srandom(12);
	printf("bench-web: SSE streams of live games over 127.0.0.1; chessd %s with per-user rate "
	    "limits lifted (commands_per_sec, command_burst, games_per_minute_per_address), "
	    "web_streams and web_streams_per_address raised to the run's size, output_hard_bytes "
	    "as shipped; next to a bare evhttp server (libevent %s) forked from this program "
	    "streaming the same bytes; %ld CPUs online\n", chessd, event_get_version(),
	    sysconf(_SC_NPROCESSORS_ONLN));
	printf("window %ld s after %ld s of warm-up; a game resigns after %ld plies; cap %ld s "
	    "per run\n", window, warmup, moves, seconds);
	fflush(stdout);

	struct figures fig[2][2];	/* [scenario][bare] */
	struct capture cap = { .id = -1 };
	const long scen_games[2] = { 1, games }, scen_per[2] = { viewers, per_game };
	memset(fig, 0, sizeof fig);
	for (int s = 0; s < 2 && !bench_server_interrupted(); s++) {
		if (!(s ? many : one))
			continue;
		for (int k = 0; k < 2 && !bench_server_interrupted(); k++) {
			run_measure(k ? SERVER_BARE : SERVER_CHESSD, chessd, (int)scen_games[s],
			    (int)scen_per[s], (int)moves, (double)warmup, (double)window,
			    (double)seconds, &cap, &fig[s][k]);
			if (!k && !fig[s][k].ok && strstr(fig[s][k].why, "before it listened")) {
				fprintf(stderr, "bench-web: %s\n", fig[s][k].why);
				return 2;
			}
		}
	}
	for (int i = 0; i < cap.count; i++)
		free(cap.data[i]);
	if (bench_server_interrupted()) {
		fprintf(stderr, "bench-web: interrupted\n");
		return 1;
	}
	printf("\n%-18s %-11s %8s %10s %12s %8s %8s %8s %9s %7s %7s %7s\n", "scenario", "server",
	    "window s", "deliveries", "deliveries/s", "p50 ms", "p99 ms", "max ms", "CPU us/d",
	    "user", "sys", "client");
	char label[2][48];
	snprintf(label[0], sizeof label[0], "1 game x %ld", viewers);
	snprintf(label[1], sizeof label[1], "%ld games x %ld", games, per_game);
	for (int s = 0; s < 2; s++) {
		print_row(label[s], "chessd", &fig[s][0]);
		print_row(label[s], "bare evhttp", &fig[s][1]);
	}
	printf("latency: the move's commit (the mover reads its ack, or the first viewer the event, "
	    "whichever is first) -> the game's last viewer reads the event; CPU: the server's user+system per delivery (/proc/PID/stat); client: this "
	    "program's CPU share\n\n");
	for (int s = 0; s < 2; s++)
		print_ratio(label[s], &fig[s][0], &fig[s][1], s == 0);
	int status = 0;
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < 2; k++)
			if (fig[s][k].ran && !fig[s][k].ok)
				status = 1;
	return status;
}
