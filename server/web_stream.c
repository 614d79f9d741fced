/*
 * Live game streams.  Each game has a channel: the plies the web knows
 * (FEN, UCI, clocks) and a log of encoded events.  An event is made once,
 * as ndjson and as SSE, each already framed as an HTTP/1.1 chunk, and every
 * viewer is sent those same bytes: straight to its socket when nothing of
 * its is waiting (one write a viewer a pass, no copy, no allocation), else
 * by reference (evbuffer_add_reference) behind what waits; the event is
 * freed when the last connection has sent it.  Events wait for the commit
 * of the pass that made them to be durable, and for public_delay_s, before
 * any viewer sees them.  A move's event is encoded only when someone is
 * sent it: most games have no web viewer, and every move of every game
 * passes here.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/http.h>

#include "address.h"
#include "clock.h"
#include "config.h"
#include "fen.h"
#include "fics.h"
#include "game.h"
#include "log.h"
#include "number.h"
#include "server.h"
#include "web_api.h"
#include "web_http.h"
#include "web_stream.h"

#define STREAM_FEN_MAX 96
#define STREAM_ADDR_MAX ADDRESS_BLOCK_MAX
/* What one party holds, for web_streams_per_address: an IPv4 address, an IPv6 /64. */
#define STREAM_V4_BITS 32
#define STREAM_V6_BITS 64
#define STREAM_LATENCY_WAITING 64
#define STREAM_LATENCY_BUCKETS 9
#define STREAM_TOURNEY_DIRTY 64
/* Events a viewer is sent in one write; more due at once take more writes. */
#define STREAM_BATCH 16
/* Buckets of the channels' table by game id, at first; it doubles when full. */
#define STREAM_ID_BUCKETS_MIN 256

/*
 * One form of an event, framed as an HTTP/1.1 chunk ("<hex length>\r\n",
 * the payload, "\r\n"); a reply that is not chunked (HTTP/1.0) takes the
 * payload alone, from head to len - 2.
 */
struct frame {
	char *bytes;
	size_t len, head;
};

/* One encoded event, shared by every viewer that was sent it. */
struct web_event {
	int refs;
	int id;			/* the plies the game has after it */
	bool final;		/* the game's end */
	bool takeback;		/* a takeback: the plies above id are new ones after it */
	bool clock;		/* the clocks stopped or went on (pause, unpause) at ply id */
	bool paused;		/* a clock event's: stopped */
	bool encoded;		/* the frames are made; a move's wait until it is sent */
	uint64_t seq;		/* the commit it waits for; 0 until its pass ends */
	int64_t due_ms;		/* not shown before (public_delay_s) */
	struct frame nd, sse, tv;	/* ndjson line, SSE event, TV feed line (moves only) */
};

/* One frame for one viewer: the parts of a write. */
struct part {
	const struct frame *f;
	struct web_event *ev;	/* holds the bytes; NULL for static ones */
};

/* Heartbeats: an SSE comment, an empty ndjson line. */
static const struct frame beat_sse = { (char *)"3\r\n:\n\n\r\n", 8, 3 };
static const struct frame beat_nd = { (char *)"1\r\n\n\r\n", 6, 3 };

/* The game after a ply, as the web shows it. */
struct ply_state {
	char uci[MOVE_TEXT_MAX];
	char san[MOVE_TEXT_MAX];
	char fen[STREAM_FEN_MAX];
	int64_t clock_ms[COLOR_NB];
};

struct viewer;

struct channel {
	struct web_stream *st;
	struct channel *next, **prevp;
	struct channel *id_next;	/* the next in its bucket of the table by id */
	int number;
	int64_t id;
	int64_t tourney_id;		/* its delay may be the tournament's */
	char names[COLOR_NB][DB_NAME_MAX];
	char ratings[COLOR_NB][8];
	bool rated;
	struct clock_control tc;
	int64_t started_unix;
	char start_fen[STREAM_FEN_MAX];
	struct ply_state *plies;	/* [0..known]: the start, then after each ply */
	int known, plies_cap;
	struct web_event **events;
	int event_count, events_cap, published;
	int shown;			/* plies the web may show */
	int base;			/* plies it had when made: the events begin after them */
	bool ended;			/* the final event is queued */
	/* The clocks stopped by "pause": as the game stands, and as last published. */
	bool paused_known, paused_shown;
	const char *status, *winner;	/* lichess's words, once ended */
	struct viewer *viewers;
	int viewer_count;
	/* In the stream's list of channels with events not yet published. */
	struct channel *pending_next, **pending_prevp;
};

struct viewer {
	struct web_stream *st;
	struct channel *ch;		/* NULL: a TV or tournament viewer */
	int64_t tourney_id;		/* a tournament viewer's, else 0 */
	struct viewer *next, **prevp;
	struct evhttp_request *req;
	struct evhttp_connection *evcon;
	char addr[STREAM_ADDR_MAX];
	bool sse;
	bool chunked;			/* HTTP/1.1: the frames whole */
	int fd;				/* a plain socket to write to at once, else -1 (TLS) */
	struct evbuffer *out;		/* the connection's output, what waits to be sent */
	int64_t last_write_ms;
};

struct addr_count {
	char addr[STREAM_ADDR_MAX];
	int n;
};

struct web_stream {
	struct server *srv;
	struct channel *channels;
	struct channel *pending;	/* the channels with events to publish: a pass visits only these */
	struct channel **by_id;		/* the channels by stored game id: buckets of chains */
	size_t by_id_cap, by_id_count;
	struct viewer *tv;		/* TV viewers */
	struct viewer *tourney;		/* tournament viewers */
	/* Tournaments whose games started or ended this pass; then their updates,
	 * each waiting for its commit and the delay as a game's events do. */
	int64_t dirty[STREAM_TOURNEY_DIRTY];
	int dirty_count;
	struct tourney_update {
		int64_t id;
		struct web_event *ev;
	} updates[STREAM_TOURNEY_DIRTY];
	int update_count;
	struct channel *featured;
	struct event *heartbeat, *delay_timer;
	uint64_t durable;
	void *addrs;			/* tsearch tree of struct addr_count */
	int viewer_count;
	uint64_t events_made, deliveries, dropped_slow, refused, moves;
	/* Passes waiting for their commit to be durable: (commit, when its pass ended). */
	struct { uint64_t seq; int64_t ms; } waiting[STREAM_LATENCY_WAITING];
	int waiting_count;
	uint64_t latency_buckets[STREAM_LATENCY_BUCKETS + 1];	/* the last: +Inf */
	uint64_t latency_sum_ms, latency_count;
};

/* Upper bounds (ms) of the commit latency histogram's buckets. */
static const int latency_bounds_ms[STREAM_LATENCY_BUCKETS] = { 1, 2, 5, 10, 25, 50, 100, 250,
    1000 };

static int64_t now_ms(struct web_stream *st)
{
	return server_now_ms(st->srv);
}

/* --- events --- */

static void event_unref(struct web_event *ev)
{
	if (ev && --ev->refs == 0) {
		free(ev->nd.bytes);
		free(ev->sse.bytes);
		free(ev->tv.bytes);
		free(ev);
	}
}

/* Frames a payload (taken) as an HTTP/1.1 chunk; -1 when out of memory. */
static int frame_make(struct frame *f, char *payload, int len)
{
	char head[24];

	if (!payload || len < 0)
		return -1;
	int h = snprintf(head, sizeof head, "%x\r\n", (unsigned)len);
	f->bytes = malloc((size_t)h + (size_t)len + 2);
	if (f->bytes) {
		memcpy(f->bytes, head, (size_t)h);
		memcpy(f->bytes + h, payload, (size_t)len);
		memcpy(f->bytes + h + len, "\r\n", 2);
		f->head = (size_t)h;
		f->len = (size_t)h + (size_t)len + 2;
	}
	free(payload);
	return f->bytes ? 0 : -1;
}

/* The payload, or the whole chunk, of a frame for this viewer. */
static struct iovec frame_bytes(const struct viewer *v, const struct frame *f)
{
	if (v->chunked)
		return (struct iovec){ f->bytes, f->len };
	return (struct iovec){ f->bytes + f->head, f->len - f->head - 2 };
}

static void event_sent(const void *data, size_t len, void *extra)
{
	(void)data;
	(void)len;
	event_unref(extra);
}

/*
 * Encodes obj (taken) into ev's frames, once per form; tv_type names the TV
 * feed's line, or NULL.  -1 (nothing made) when out of memory.
 */
static int event_encode(struct web_stream *st, struct web_event *ev, json_t *obj,
    const char *tv_type)
{
	char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
	char *tv = NULL, *payload;
	int len;

	if (tv_type && obj) {
		json_t *wrap = json_pack("{s:s,s:O}", "t", tv_type, "d", obj);
		tv = wrap ? json_dumps(wrap, JSON_COMPACT) : NULL;
		json_decref(wrap);
	}
	json_decref(obj);
	bool ok = text && (!tv_type || tv);
	if (ok) {
		len = asprintf(&payload, "%s\n", text);
		ok = frame_make(&ev->nd, len < 0 ? NULL : payload, len) == 0;
	}
	if (ok) {
		len = asprintf(&payload, "id: %d\ndata: %s\n\n", ev->id, text);
		ok = frame_make(&ev->sse, len < 0 ? NULL : payload, len) == 0;
	}
	if (ok && tv) {
		len = asprintf(&payload, "%s\n", tv);
		ok = frame_make(&ev->tv, len < 0 ? NULL : payload, len) == 0;
	}
	free(text);
	free(tv);
	if (!ok) {
		free(ev->nd.bytes);
		free(ev->sse.bytes);
		free(ev->tv.bytes);
		ev->nd = ev->sse = ev->tv = (struct frame){ NULL, 0, 0 };
		return -1;
	}
	ev->encoded = true;
	st->events_made++;
	return 0;
}

/* An event of id (plies after it), its frames not made yet. */
static struct web_event *event_blank(int id)
{
	struct web_event *ev = calloc(1, sizeof *ev);

	if (ev) {
		ev->refs = 1;
		ev->id = id;
	}
	return ev;
}

/* An event made now from obj (taken); NULL when out of memory. */
static struct web_event *event_make(struct web_stream *st, json_t *obj, int id,
    const char *tv_type)
{
	struct web_event *ev = event_blank(id);

	if (!ev || event_encode(st, ev, obj, tv_type) < 0) {
		if (!ev)
			json_decref(obj);
		event_unref(ev);
		return NULL;
	}
	return ev;
}

/* --- addresses --- */

static int addr_cmp(const void *a, const void *b)
{
	return strcmp(((const struct addr_count *)a)->addr, ((const struct addr_count *)b)->addr);
}

static struct addr_count *addr_get(struct web_stream *st, const char *addr, bool create)
{
	struct addr_count probe;

	snprintf(probe.addr, sizeof probe.addr, "%s", addr);
	void *found = tfind(&probe, &st->addrs, addr_cmp);
	if (found || !create)
		return found ? *(struct addr_count **)found : NULL;
	struct addr_count *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	memcpy(a->addr, probe.addr, sizeof a->addr);
	if (!tsearch(a, &st->addrs, addr_cmp)) {
		free(a);
		return NULL;
	}
	return a;
}

/* --- JSON of a game --- */

static json_t *player_json(const struct channel *ch, enum color c)
{
	char *end;
	long r = strtol(ch->ratings[c], &end, 10);
	json_t *rating = end != ch->ratings[c] ? json_integer(r) : json_null();

	return json_pack("{s:s,s:o,s:b}", "name", ch->names[c], "rating", rating,
	    "provisional", strchr(ch->ratings[c], 'P') != NULL);
}

/* {"initial", "increment"} in seconds for a plain control, else its text. */
static json_t *clock_json(const struct clock_control *tc)
{
	char text[64];

	if (clock_untimed(tc))
		return json_null();
	if (tc->period_count == 1 && tc->periods[0].moves == 0 &&
	    (tc->bonus == CLOCK_BONUS_NONE || tc->bonus == CLOCK_BONUS_FISCHER))
		return json_pack("{s:I,s:I}", "initial", (json_int_t)(tc->periods[0].base_ms / 1000),
		    "increment", (json_int_t)(tc->bonus_ms / 1000));
	clock_format(tc, text, sizeof text);
	return json_string(text);
}

/* A takeback not yet published caps what is shown at the ply it went back to:
 * the plies above it are the moves played since, which wait for their events. */
static int shown_plies(const struct channel *ch)
{
	int n = ch->shown < ch->known ? ch->shown : ch->known;

	for (int i = ch->published; i < ch->event_count; i++)
		if (ch->events[i]->takeback && ch->events[i]->id < n)
			n = ch->events[i]->id;
	return n;
}

static json_t *move_json(const struct channel *ch, int ply)
{
	const struct ply_state *p = &ch->plies[ply];

	/* lichess's four fields, and the move in SAN for pages that list moves. */
	return json_pack("{s:s,s:s,s:I,s:I,s:s}", "fen", p->fen, "lm", p->uci,
	    "wc", (json_int_t)(p->clock_ms[WHITE] / 1000), "bc", (json_int_t)(p->clock_ms[BLACK] / 1000),
	    "san", p->san);
}

/* Whether the web shows the game's clocks stopped: the last published pause or
 * unpause, or (every event counted, for a description made ahead) the last one. */
static bool shown_paused(const struct channel *ch)
{
	return ch->published == ch->event_count ? ch->paused_known : ch->paused_shown;
}

/* Makes a move's frames if they are not made yet: false when out of memory. */
static bool event_ready(struct channel *ch, struct web_event *ev)
{
	return ev->encoded || event_encode(ch->st, ev, move_json(ch, ev->id), "fen") == 0;
}

/* Before a takeback rewrites the plies, the moves' events are made from them. */
static void channel_encode_all(struct channel *ch)
{
	for (int i = 0; i < ch->event_count; i++)
		if (!event_ready(ch, ch->events[i]))
			log_error("web: out of memory; a move of game %d is not streamed", ch->number);
}

/* The game as the web may show it: the /api/games object, plus the moves. */
static json_t *describe(const struct channel *ch, bool with_moves)
{
	int n = shown_plies(ch);
	const struct ply_state *p = &ch->plies[n];
	char id[24];
	const char *space = strchr(p->fen, ' ');
	enum clock_category cat = clock_category(&ch->tc);
	struct game *g = games_find(server_games(ch->st->srv), ch->number);
	int observers = ch->viewer_count + (g && game_id(g) == ch->id ? game_observer_count(g) : 0);
	/* The clocks as they stand now when the web shows the game as it stands:
	 * the last ply's are stale by the mover's thinking, and a page ticks
	 * from the moment it is told.  A delayed game's are its shown ply's
	 * (its clocks now would tell that no move was made since). */
	int64_t clock_ms[COLOR_NB] = { p->clock_ms[WHITE], p->clock_ms[BLACK] };
	if (g && game_id(g) == ch->id && n == ch->known &&
	    web_api_delay_s(ch->st->srv, ch->tourney_id) == 0)
		for (int c = WHITE; c <= BLACK; c++)
			clock_ms[c] = game_clock_ms(g, (enum color)c);

	snprintf(id, sizeof id, "%lld", (long long)ch->id);
	json_t *d = json_pack("{s:s,s:i,s:s,s:s,s:s,s:b,s:I,s:s,s:s,s:s,s:i,s:o,s:o,s:o,s:I,s:I,s:i,"
	    "s:s}",
	    "id", id, "number", ch->number, "variant", "standard",
	    "speed", clock_category_name(cat), "perf", clock_category_name(cat),
	    "rated", ch->rated, "createdAt", (json_int_t)ch->started_unix * 1000,
	    "initialFen", ch->start_fen, "fen", p->fen,
	    "player", space && space[1] == 'b' ? "black" : "white", "turns", n,
	    "white", player_json(ch, WHITE), "black", player_json(ch, BLACK),
	    "clock", clock_json(&ch->tc),
	    "wc", (json_int_t)(clock_ms[WHITE] / 1000), "bc", (json_int_t)(clock_ms[BLACK] / 1000),
	    "observers", observers,
	    "status", ch->ended && ch->published == ch->event_count ? ch->status : "started");
	if (!d)
		return NULL;
	if (n > 0)
		json_object_set_new(d, "lastMove", json_string(p->uci));
	/* Only while paused, so that lichess's shape is kept otherwise. */
	if (shown_paused(ch) && !(ch->ended && ch->published == ch->event_count))
		json_object_set_new(d, "paused", json_true());
	if (ch->ended && ch->published == ch->event_count && ch->winner)
		json_object_set_new(d, "winner", json_string(ch->winner));
	if (with_moves) {
		size_t len = 0, san_len = 0;
		char *moves = malloc((size_t)n * 6 + 1), *sans = malloc((size_t)n * MOVE_TEXT_MAX + 1);
		if (moves && sans) {
			moves[0] = sans[0] = '\0';
			for (int i = 1; i <= n; i++) {
				len += (size_t)sprintf(moves + len, "%s%s", i > 1 ? " " : "", ch->plies[i].uci);
				san_len += (size_t)sprintf(sans + san_len, "%s%s", i > 1 ? " " : "",
				    ch->plies[i].san);
			}
			json_object_set_new(d, "moves", json_string(moves));
			json_object_set_new(d, "sanMoves", json_string(sans));
		}
		free(moves);
		free(sans);
	}
	return d;
}

/* --- viewers --- */

static void viewer_unlink(struct viewer *v)
{
	struct web_stream *st = v->st;

	*v->prevp = v->next;
	if (v->next)
		v->next->prevp = v->prevp;
	if (v->ch)
		v->ch->viewer_count--;
	st->viewer_count--;
	struct addr_count *a = addr_get(st, v->addr, false);
	if (a && --a->n == 0) {
		tdelete(a, &st->addrs, addr_cmp);
		free(a);
	}
	free(v);
}

static void viewer_link(struct viewer *v, struct viewer **head)
{
	v->next = *head;
	if (v->next)
		v->next->prevp = &v->next;
	v->prevp = head;
	*head = v;
}

/*
 * The viewer's connection closed (or failed) on its own.  evhttp lets go
 * of a reply still under way when its reader leaves (it is no longer the
 * connection's): ending it frees it.
 */
static void viewer_closed(struct evhttp_connection *evcon, void *arg)
{
	struct viewer *v = arg;
	struct evhttp_request *req = v->req;

	(void)evcon;
	viewer_unlink(v);
	if (!evhttp_request_get_connection(req))
		evhttp_send_reply_end(req);
}

/* Drops a viewer at once: its connection goes without a goodbye. */
static void viewer_drop(struct viewer *v)
{
	struct evhttp_connection *evcon = v->evcon;

	evhttp_connection_set_closecb(evcon, NULL, NULL);
	viewer_unlink(v);
	evhttp_connection_free(evcon);
}

/* Ends a viewer's reply cleanly (the game is over). */
static void viewer_finish(struct viewer *v)
{
	struct evhttp_request *req = v->req;

	evhttp_connection_set_closecb(v->evcon, NULL, NULL);
	viewer_unlink(v);
	evhttp_send_reply_end(req);
}

/*
 * Sends a viewer the n pieces it is due now in one write: straight to a
 * plain socket when nothing of the viewer's waits in its output (the
 * kernel takes them from the shared event, no copy), and what the socket
 * does not take (or all, over TLS) by reference behind what waits, sent as
 * the connection can.  The HTTP framing is in the frames: evhttp sees only
 * its output grow.  False when the viewer was dropped for reading too slowly.
 */
static bool viewer_send(struct viewer *v, const struct part *p, int n)
{
	struct web_stream *st = v->st;
	struct evbuffer *out = v->out;
	struct iovec iov[STREAM_BATCH];
	size_t taken = 0;

	if (!out || n <= 0)
		return true;
	for (int i = 0; i < n; i++)
		iov[i] = frame_bytes(v, p[i].f);
	if (v->fd >= 0 && evbuffer_get_length(out) == 0) {
		struct msghdr msg = { .msg_iov = iov, .msg_iovlen = (size_t)n };
		ssize_t w = sendmsg(v->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
		taken = w > 0 ? (size_t)w : 0;
	}
	for (int i = 0; i < n; i++) {
		if (taken >= iov[i].iov_len) {
			taken -= iov[i].iov_len;
			continue;
		}
		const char *rest = (const char *)iov[i].iov_base + taken;
		size_t len = iov[i].iov_len - taken;
		taken = 0;
		if (p[i].ev ? evbuffer_add_reference(out, rest, len, event_sent, p[i].ev) == 0 :
		    evbuffer_add_reference(out, rest, len, NULL, NULL) == 0) {
			if (p[i].ev)
				p[i].ev->refs++;
		}
	}
	v->last_write_ms = now_ms(st);
	st->deliveries += (uint64_t)n;
	size_t pending = evbuffer_get_length(out);
	if (pending > (size_t)server_config(st->srv)->limits.output_hard_bytes) {
		log_info("web: dropped a stream to %s, %zu bytes behind", v->addr, pending);
		st->dropped_slow++;
		viewer_drop(v);
		return false;
	}
	return true;
}

/* The form of an event a stream viewer takes. */
static struct part viewer_part(const struct viewer *v, struct web_event *ev)
{
	return (struct part){ v->sse ? &ev->sse : &ev->nd, ev };
}

/* Sends one event (or a heartbeat, with ev NULL) alone; false when the viewer was dropped. */
static bool viewer_write(struct viewer *v, const struct frame *f, struct web_event *ev)
{
	struct part p = { f, ev };

	return viewer_send(v, &p, 1);
}

/* Writes obj (taken), encoded for this viewer alone: its first description. */
static bool viewer_write_json(struct viewer *v, json_t *obj, int id)
{
	struct web_event *ev = event_make(v->st, obj, id, NULL);

	if (!ev)
		return true;
	struct part p = viewer_part(v, ev);
	bool alive = viewer_send(v, &p, 1);
	event_unref(ev);
	return alive;
}

/* --- channels --- */

/* Every move looks its channel up: by a table, not a walk of every live game. */
static struct channel **id_bucket(struct web_stream *st, int64_t id)
{
	uint64_t h = (uint64_t)id * UINT64_C(0x9e3779b97f4a7c15);

	return &st->by_id[(h >> 32) & (st->by_id_cap - 1)];
}

static struct channel *channel_of_game(struct web_stream *st, int64_t id)
{
	if (!st->by_id_cap)
		return NULL;
	for (struct channel *ch = *id_bucket(st, id); ch; ch = ch->id_next)
		if (ch->id == id)
			return ch;
	return NULL;
}

/* Files ch under its game id (new, or a resumption's); -1 when out of memory. */
static int id_insert(struct web_stream *st, struct channel *ch)
{
	if (st->by_id_count >= st->by_id_cap) {
		size_t cap = st->by_id_cap ? st->by_id_cap * 2 : STREAM_ID_BUCKETS_MIN;
		struct channel **old = st->by_id, **grown = calloc(cap, sizeof *grown);
		size_t old_cap = st->by_id_cap;
		if (!grown)
			return -1;
		st->by_id = grown;
		st->by_id_cap = cap;
		for (size_t i = 0; i < old_cap; i++)
			for (struct channel *c = old[i], *next; c; c = next) {
				next = c->id_next;
				struct channel **b = id_bucket(st, c->id);
				c->id_next = *b;
				*b = c;
			}
		free(old);
	}
	struct channel **b = id_bucket(st, ch->id);
	ch->id_next = *b;
	*b = ch;
	st->by_id_count++;
	return 0;
}

/* Takes ch out of the table if it is there (a resumed game's old channel is not). */
static void id_remove(struct web_stream *st, struct channel *ch)
{
	if (!st->by_id_cap)
		return;
	for (struct channel **p = id_bucket(st, ch->id); *p; p = &(*p)->id_next)
		if (*p == ch) {
			*p = ch->id_next;
			ch->id_next = NULL;
			st->by_id_count--;
			return;
		}
}

/* The channel a web client means by a game number: the game not yet shown ended. */
static struct channel *channel_of_number(struct web_stream *st, int number)
{
	struct channel *best = NULL;

	for (struct channel *ch = st->channels; ch; ch = ch->next)
		if (ch->number == number && (!best || ch->id < best->id))
			best = ch;
	return best;
}

static void pending_link(struct channel *ch)
{
	struct web_stream *st = ch->st;

	if (ch->pending_prevp)
		return;
	ch->pending_next = st->pending;
	if (ch->pending_next)
		ch->pending_next->pending_prevp = &ch->pending_next;
	ch->pending_prevp = &st->pending;
	st->pending = ch;
}

static void pending_unlink(struct channel *ch)
{
	if (!ch->pending_prevp)
		return;
	*ch->pending_prevp = ch->pending_next;
	if (ch->pending_next)
		ch->pending_next->pending_prevp = ch->pending_prevp;
	ch->pending_prevp = NULL;
}

static void channel_free(struct channel *ch)
{
	struct web_stream *st = ch->st;

	while (ch->viewers)
		viewer_finish(ch->viewers);
	if (ch->prevp) {
		*ch->prevp = ch->next;
		if (ch->next)
			ch->next->prevp = ch->prevp;
	}
	pending_unlink(ch);
	id_remove(st, ch);
	for (int i = 0; i < ch->event_count; i++)
		event_unref(ch->events[i]);
	free(ch->events);
	free(ch->plies);
	free(ch);
}

static int ensure_plies(struct channel *ch, int n)
{
	if (n < ch->plies_cap)
		return 0;
	int cap = ch->plies_cap ? ch->plies_cap * 2 : 128;
	while (cap <= n)
		cap *= 2;
	struct ply_state *p = realloc(ch->plies, (size_t)cap * sizeof *p);
	if (!p)
		return -1;
	ch->plies = p;
	ch->plies_cap = cap;
	return 0;
}

/* Records ply n of g (n plies played) from the game as it stands. */
static void record_ply(struct channel *ch, struct game *g, int n, const char *uci)
{
	struct ply_state *p = &ch->plies[n];
	struct fics_game_view v;

	game_view(g, &v);
	snprintf(p->uci, sizeof p->uci, "%s", uci);
	snprintf(p->san, sizeof p->san, "%s", n > 0 ? v.plies[n - 1].san : "");
	fen_format(position_board(game_position(g)), p->fen);
	for (int c = WHITE; c <= BLACK; c++)
		p->clock_ms[c] = game_clock_ms(g, (enum color)c);
}

/* A channel for a game the web has not seen: every ply so far shown at once. */
static struct channel *channel_new(struct web_stream *st, struct game *g)
{
	struct channel *ch = calloc(1, sizeof *ch);
	const struct position *pos = game_position(g);
	int n = position_ply_count(pos);

	if (!ch || ensure_plies(ch, n) < 0) {
		free(ch);
		return NULL;
	}
	ch->st = st;
	ch->number = game_number(g);
	ch->id = game_id(g);
	ch->tourney_id = game_tourney_id(g);
	ch->rated = game_rated(g);
	ch->tc = *game_clock(g);
	ch->started_unix = game_started(g);
	snprintf(ch->start_fen, sizeof ch->start_fen, "%s", position_start_fen(pos));
	for (int c = WHITE; c <= BLACK; c++)
		snprintf(ch->names[c], sizeof ch->names[c], "%s", game_player_name(g, (enum color)c));
	game_rating_texts(g, ch->ratings);
	/* The earlier plies from a replay of the moves; their clocks as stored. */
	struct position *replay = position_new(ch->start_fen, NULL, 0);
	int64_t clocks[COLOR_NB] = { game_clock_ms(g, WHITE), game_clock_ms(g, BLACK) };
	for (int i = 0; i <= n && replay; i++) {
		struct ply_state *p = &ch->plies[i];
		if (i > 0) {
			char san[MOVE_TEXT_MAX];
			move m = position_move_at(pos, i - 1);
			move_format_uci(m, p->uci);
			position_play(replay, m, SAN_ENGLISH, san);
			snprintf(p->san, sizeof p->san, "%s", san);
			clocks[(i - 1) % 2 == 0 ? WHITE : BLACK] = game_move_clock_ms(g, i - 1);
		} else {
			p->uci[0] = p->san[0] = '\0';
		}
		fen_format(position_board(replay), p->fen);
		memcpy(p->clock_ms, clocks, sizeof clocks);
	}
	position_free(replay);
	char last[MOVE_TEXT_MAX];
	snprintf(last, sizeof last, "%s", ch->plies[n].uci);
	record_ply(ch, g, n, last);
	ch->known = ch->shown = ch->base = n;
	ch->paused_known = ch->paused_shown = game_clock_paused(g);
	ch->next = st->channels;
	if (ch->next)
		ch->next->prevp = &ch->next;
	ch->prevp = &st->channels;
	st->channels = ch;
	if (id_insert(st, ch) < 0) {
		channel_free(ch);
		return NULL;
	}
	return ch;
}

static int channel_push(struct channel *ch, struct web_event *ev)
{
	if (!ev)
		return -1;
	if (ch->event_count == ch->events_cap) {
		int cap = ch->events_cap ? ch->events_cap * 2 : 64;
		struct web_event **e = realloc(ch->events, (size_t)cap * sizeof *e);
		if (!e) {
			event_unref(ev);
			return -1;
		}
		ch->events = e;
		ch->events_cap = cap;
	}
	ev->due_ms = now_ms(ch->st) + (int64_t)web_api_delay_s(ch->st->srv, ch->tourney_id) * 1000;
	ch->events[ch->event_count++] = ev;
	pending_link(ch);
	return 0;
}

static void tv_feature(struct web_stream *st);

/*
 * A game resumed while its adjournment is still held back: a channel of its
 * own (the old one goes on until its end is out), showing no more than the
 * old one does now, and the rest once a delay has passed from here.
 */
static void channel_resumed(struct web_stream *st, struct channel *old, struct game *g)
{
	int held = shown_plies(old);

	id_remove(st, old);
	struct channel *ch = channel_new(st, g);
	if (!ch)
		return;
	json_t *d = describe(ch, true);
	ch->shown = held;
	channel_push(ch, event_make(st, d, ch->known, NULL));
}

/* A game of tournament id started or ended: its viewers get an update. */
static void tourney_touched(struct web_stream *st, int64_t id)
{
	if (!id || !st->tourney)
		return;
	for (int i = 0; i < st->dirty_count; i++)
		if (st->dirty[i] == id)
			return;
	if (st->dirty_count < STREAM_TOURNEY_DIRTY)
		st->dirty[st->dirty_count++] = id;
}

/*
 * Sends the channel's events [from, to) (at most STREAM_BATCH) to each of
 * its viewers in one write, and the TV feed's lines of them to the TV's
 * viewers when the channel is featured.
 */
static void channel_publish(struct channel *ch, int from, int to)
{
	struct web_event *ready[STREAM_BATCH];
	struct part p[STREAM_BATCH];
	bool tv = ch == ch->st->featured && ch->st->tv;
	int count = 0, n = 0;

	ch->shown = ch->events[to - 1]->id;
	for (int i = from; i < to; i++)
		if (ch->events[i]->clock)
			ch->paused_shown = ch->events[i]->paused;
	if (!ch->viewers && !tv)
		return;
	for (int i = from; i < to; i++)
		if (event_ready(ch, ch->events[i]))
			ready[count++] = ch->events[i];
	for (struct viewer *v = ch->viewers, *next; v; v = next) {
		next = v->next;
		for (int i = 0; i < count; i++)
			p[i] = viewer_part(v, ready[i]);
		viewer_send(v, p, count);
	}
	if (!tv)
		return;
	for (int i = 0; i < count; i++)
		if (ready[i]->tv.bytes)
			p[n++] = (struct part){ &ready[i]->tv, ready[i] };
	for (struct viewer *v = ch->st->tv, *next; v; v = next) {
		next = v->next;
		viewer_send(v, p, n);
	}
}

/* Publishes what is durable and due; true when the channel is finished with. */
static bool channel_release(struct channel *ch, uint64_t durable, int64_t now, int64_t *next_due)
{
	while (ch->published < ch->event_count) {
		int from = ch->published, to = from;
		while (to < ch->event_count && to - from < STREAM_BATCH) {
			struct web_event *ev = ch->events[to];
			if (!ev->seq || ev->seq > durable)
				break;
			if (ev->due_ms > now) {
				if (!*next_due || ev->due_ms < *next_due)
					*next_due = ev->due_ms;
				break;
			}
			to++;
		}
		if (to == from)
			return false;
		ch->published = to;
		channel_publish(ch, from, to);
	}
	return ch->ended;
}

static void release_all(struct web_stream *st)
{
	int64_t now = now_ms(st), next_due = 0;
	bool featured_gone = false;

	for (struct channel *ch = st->pending, *next; ch; ch = next) {
		next = ch->pending_next;
		if (channel_release(ch, st->durable, now, &next_due)) {
			if (ch == st->featured) {
				st->featured = NULL;
				featured_gone = true;
			}
			channel_free(ch);
		} else if (ch->published == ch->event_count) {
			pending_unlink(ch);
		}
	}
	if (featured_gone || (!st->featured && st->tv))
		tv_feature(st);
	int kept = 0;
	for (int i = 0; i < st->update_count; i++) {
		struct tourney_update *u = &st->updates[i];
		if (u->ev->seq > st->durable || u->ev->due_ms > now) {
			if (u->ev->seq <= st->durable && (!next_due || u->ev->due_ms < next_due))
				next_due = u->ev->due_ms;
			st->updates[kept++] = *u;
			continue;
		}
		for (struct viewer *v = st->tourney, *next; v; v = next) {
			next = v->next;
			if (v->tourney_id == u->id)
				viewer_write(v, &u->ev->nd, u->ev);
		}
		event_unref(u->ev);
	}
	st->update_count = kept;
	if (next_due) {
		int64_t ms = next_due - now;
		struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
		evtimer_add(st->delay_timer, &tv);
	}
}

static void delay_over(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	release_all(arg);
}

/*
 * The players paused or unpaused the clocks: an event with the clocks as
 * they stand (a pause gives the turn's time back, so they are the last
 * ply's).  It waits in the log behind the moves before it, for the commit
 * and public_delay_s as they do, so a delayed page stops its clocks when it
 * shows the position the pause was made in, and no held-back move shows.
 */
static void clock_changed(struct channel *ch, struct game *g)
{
	bool paused = game_clock_paused(g);
	json_t *obj = json_pack("{s:b,s:I,s:I}", "paused", paused,
	    "wc", (json_int_t)(game_clock_ms(g, WHITE) / 1000),
	    "bc", (json_int_t)(game_clock_ms(g, BLACK) / 1000));
	struct web_event *ev = event_make(ch->st, obj, ch->known, NULL);

	ch->paused_known = paused;
	if (ev) {
		ev->clock = true;
		ev->paused = paused;
	}
	if (channel_push(ch, ev) < 0)
		log_error("web: out of memory; a pause of game %d is not streamed", ch->number);
}

void web_stream_game_changed(struct web_stream *st, struct game *g)
{
	struct channel *ch = channel_of_game(st, game_id(g));
	int n = position_ply_count(game_position(g));

	if (!ch) {
		channel_new(st, g);
		tourney_touched(st, game_tourney_id(g));
		return;
	}
	if (ch->ended && !game_over(g)) {
		channel_resumed(st, ch, g);
		return;
	}
	if (ch->ended || ensure_plies(ch, n) < 0)
		return;
	if (n == ch->known + 1) {
		char uci[MOVE_TEXT_MAX];
		move_format_uci(position_move_at(game_position(g), n - 1), uci);
		record_ply(ch, g, n, uci);
		ch->known = n;
		st->moves++;
		channel_push(ch, event_blank(n));
	} else if (n < ch->known) {
		/* A takeback: the position it left, as a fresh description. */
		channel_encode_all(ch);
		ch->known = n;
		char last[MOVE_TEXT_MAX];
		snprintf(last, sizeof last, "%s", ch->plies[n].uci);
		record_ply(ch, g, n, last);
		int shown = ch->shown, published = ch->published;
		ch->shown = n;
		ch->published = ch->event_count;	/* the position it left, uncapped */
		json_t *d = describe(ch, true);
		ch->shown = shown;
		ch->published = published;
		struct web_event *ev = event_make(st, d, n, NULL);
		if (ev)
			ev->takeback = true;
		channel_push(ch, ev);
	}
	if (game_clock_paused(g) != ch->paused_known)
		clock_changed(ch, g);
}

/* lichess's status word and winner for a game's end. */
static void end_words(struct game *g, enum result r, enum game_termination termination,
    enum game_status status, const char **word, const char **winner)
{
	enum termination t = position_termination(game_position(g));

	*winner = r == RESULT_WHITE_WINS ? "white" : r == RESULT_BLACK_WINS ? "black" : NULL;
	if (status == GAME_ABORTED) {
		*word = "aborted";
		*winner = NULL;
	} else if (status == GAME_ADJOURNED) {
		*word = "adjourned";
		*winner = NULL;
	} else if (t == TERM_CHECKMATE) {
		*word = "mate";
	} else if (t == TERM_STALEMATE) {
		*word = "stalemate";
	} else if (termination == TERMINATION_TIME_FORFEIT) {
		*word = r == RESULT_DRAW ? "draw" : "outoftime";
	} else if (termination == TERMINATION_ABANDONED) {
		*word = "timeout";
	} else if (r == RESULT_DRAW) {
		*word = "draw";
	} else if (*winner) {
		*word = "resign";
	} else {
		*word = "unknownFinish";
	}
}

void web_stream_game_over(struct web_stream *st, struct game *g, enum result r,
    enum game_termination termination, enum game_status status)
{
	struct channel *ch = channel_of_game(st, game_id(g));

	tourney_touched(st, game_tourney_id(g));
	if (!ch || ch->ended)
		return;
	end_words(g, r, termination, status, &ch->status, &ch->winner);
	int n = ch->known;
	/* The final description as it will read once every event is out. */
	int shown = ch->shown, published = ch->published;
	ch->ended = true;
	ch->shown = n;
	ch->published = ch->event_count;
	json_t *d = describe(ch, true);
	ch->shown = shown;
	ch->published = published;
	struct web_event *ev = event_make(st, d, n, NULL);
	if (ev)
		ev->final = true;
	if (channel_push(ch, ev) < 0) {
		log_error("web: out of memory; the end of game %d is not streamed", ch->number);
		pending_link(ch);	/* ended: the next release frees it */
	}
}

void web_stream_pass_end(struct web_stream *st, uint64_t need, uint64_t durable)
{
	bool made = false;

	for (struct channel *ch = st->pending; ch; ch = ch->pending_next)
		for (int i = ch->event_count - 1; i >= ch->published && !ch->events[i]->seq; i--) {
			ch->events[i]->seq = need;
			made = true;
		}
	/* After the pass, the tournament has recorded what its games did. */
	for (int i = 0; i < st->dirty_count && st->update_count < STREAM_TOURNEY_DIRTY; i++) {
		json_t *d = web_api_tourney_json(st->srv, st->dirty[i]);
		struct web_event *ev = d ? event_make(st, json_pack("{s:s,s:o}", "t", "update", "d", d),
		    0, NULL) : NULL;
		if (!ev)
			continue;
		ev->seq = need;
		ev->due_ms = now_ms(st) + (int64_t)web_api_delay_s(st->srv, st->dirty[i]) * 1000;
		st->updates[st->update_count].id = st->dirty[i];
		st->updates[st->update_count++].ev = ev;
	}
	st->dirty_count = 0;
	if (made && need > durable && st->waiting_count < STREAM_LATENCY_WAITING &&
	    (!st->waiting_count || st->waiting[st->waiting_count - 1].seq < need)) {
		st->waiting[st->waiting_count].seq = need;
		st->waiting[st->waiting_count++].ms = now_ms(st);
	} else if (made && need <= durable) {
		st->latency_buckets[0]++;
		st->latency_count++;
	}
	web_stream_durable(st, durable);
}

/* A pass's commit became durable after ms: into the histogram. */
static void observe_latency(struct web_stream *st, int64_t ms)
{
	int b = 0;

	while (b < STREAM_LATENCY_BUCKETS && ms > latency_bounds_ms[b])
		b++;
	st->latency_buckets[b]++;
	st->latency_sum_ms += (uint64_t)ms;
	st->latency_count++;
}

void web_stream_durable(struct web_stream *st, uint64_t durable)
{
	int done = 0;

	if (durable > st->durable)
		st->durable = durable;
	while (done < st->waiting_count && st->waiting[done].seq <= st->durable)
		observe_latency(st, now_ms(st) - st->waiting[done++].ms);
	memmove(st->waiting, st->waiting + done, (size_t)(st->waiting_count - done) *
	    sizeof st->waiting[0]);
	st->waiting_count -= done;
	release_all(st);
}

/* --- requests --- */

static void stream_headers(struct evhttp_request *req, bool sse)
{
	struct evkeyvalq *h = evhttp_request_get_output_headers(req);

	evhttp_add_header(h, "Content-Type", sse ? "text/event-stream" : "application/x-ndjson");
	evhttp_add_header(h, "Cache-Control", "no-cache");
	evhttp_add_header(h, "X-Accel-Buffering", "no");
}

/* A new viewer within the limits, its reply started; NULL after an error reply. */
static struct viewer *viewer_open(struct web_stream *st, struct evhttp_request *req, bool sse)
{
	const struct limits *lim = &server_config(st->srv)->limits;
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	char *host = NULL;
	ev_uint16_t port;

	if (!evcon) {
		evhttp_send_error(req, 500, NULL);
		return NULL;
	}
	/* HEAD asks only what a stream would be: it gets the headers and its
	 * connection is free again, not held open as a viewer with no body. */
	if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
		stream_headers(req, sse);
		evhttp_send_reply(req, 200, "OK", NULL);
		return NULL;
	}
	evhttp_connection_get_peer(evcon, &host, &port);
	if (st->viewer_count >= lim->web_streams) {
		st->refused++;
		web_reply_error(req, 429, "too many streams on the server");
		return NULL;
	}
	char block[STREAM_ADDR_MAX];
	address_block(host ? host : "?", STREAM_V4_BITS, STREAM_V6_BITS, block, sizeof block);
	struct addr_count *a = addr_get(st, block, true);
	if (!a || a->n >= lim->web_streams_per_address) {
		st->refused++;
		web_reply_error(req, 429, "too many streams from your address");
		return NULL;
	}
	struct viewer *v = calloc(1, sizeof *v);
	if (!v) {
		web_reply_error(req, 500, "out of memory");
		return NULL;
	}
	a->n++;
	st->viewer_count++;
	v->st = st;
	v->req = req;
	v->evcon = evcon;
	v->sse = sse;
	snprintf(v->addr, sizeof v->addr, "%s", a->addr);
	evhttp_connection_set_closecb(evcon, viewer_closed, v);
	/* The kernel takes at most output_soft_bytes of a stream, so that what a
	 * reader has not taken shows in the server's count, where the limit is. */
	struct bufferevent *bev = evhttp_connection_get_bufferevent(evcon);
	int sndbuf = lim->output_soft_bytes;
	if (bev && bufferevent_getfd(bev) >= 0)
		setsockopt(bufferevent_getfd(bev), SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
	stream_headers(req, sse);
	evhttp_send_reply_start(req, 200, "OK");
	/* evhttp chose the framing (chunked for HTTP/1.1); the frames follow its choice. */
	v->chunked = evhttp_find_header(evhttp_request_get_output_headers(req),
	    "Transfer-Encoding") != NULL;
	v->fd = bev && !bufferevent_openssl_get_ssl(bev) ? bufferevent_getfd(bev) : -1;
	v->out = bev ? bufferevent_get_output(bev) : NULL;
	return v;
}

/*
 * Where a reader whose last event was ply `after` picks up: the first
 * published event to send it, or -1 when it needs the description instead,
 * as its ply is none this channel replays from (before its first event, or
 * past what was shown: a game that had this number before, or garbage).
 * An event's id alone does not say which side of a takeback the reader
 * stood, so one who may stand before the last takeback is sent from it:
 * the takeback is a description, and what follows holds either way.
 */
static int replay_start(const struct channel *ch, int after)
{
	int takeback = -1;

	if (after < ch->base || after > ch->shown)
		return -1;
	for (int i = 0; i < ch->published; i++)
		if (ch->events[i]->takeback)
			takeback = i;
	return takeback >= 0 && ch->events[takeback]->id <= after ? takeback : 0;
}

void web_stream_game(struct web_stream *st, struct evhttp_request *req, const char *number)
{
	long n, after = -1;
	bool sse = web_accepts(req, "text/event-stream");
	const char *last = web_header(req, "Last-Event-ID");

	if (web_number(number, 1, LIMIT_GAMES, &n) != NUMBER_OK) {
		web_reply_error(req, 400, "a game number is a whole number from 1");
		return;
	}
	if (last && web_number(last, 0, INT32_MAX, &after) != NUMBER_OK) {
		web_reply_error(req, 400, "Last-Event-ID must be a ply number");
		return;
	}
	struct channel *ch = channel_of_number(st, (int)n);
	if (!ch) {
		web_reply_error(req, 404, "no such live game");
		return;
	}
	struct viewer *v = viewer_open(st, req, sse);
	if (!v)
		return;
	v->ch = ch;
	ch->viewer_count++;
	viewer_link(v, &ch->viewers);
	/* Replay what a reconnecting reader missed; else the game so far. */
	int from = after >= 0 ? replay_start(ch, (int)after) : -1;
	if (from >= 0) {
		bool all = from < ch->published && ch->events[from]->takeback;
		/* Of the pauses and unpauses at its own ply the reader may have missed
		 * some: it is sent the last, which says how the clocks stand. */
		int clock_at = -1;
		for (int i = from; i < ch->published; i++)
			if (ch->events[i]->clock && ch->events[i]->id == after)
				clock_at = i;
		for (int i = from; i < ch->published; i++) {
			struct web_event *ev = ch->events[i];
			if ((all || ev->id > after || ev->final || i == clock_at) && event_ready(ch, ev) &&
			    !viewer_write(v, sse ? &ev->sse : &ev->nd, ev))
				return;
		}
	} else if (!viewer_write_json(v, describe(ch, true), shown_plies(ch))) {
		return;
	}
	if (ch->ended && ch->published == ch->event_count)
		viewer_finish(v);
}

void web_stream_tourney(struct web_stream *st, struct evhttp_request *req, const char *id_text)
{
	long id;

	if (web_number(id_text, 1, LONG_MAX, &id) != NUMBER_OK) {
		web_reply_error(req, 400, "a tournament id is a whole number from 1");
		return;
	}
	json_t *d = web_api_tourney_json(st->srv, id);
	if (!d) {
		web_reply_error(req, 404, "no such tournament");
		return;
	}
	struct viewer *v = viewer_open(st, req, false);
	if (!v) {
		json_decref(d);
		return;
	}
	v->tourney_id = id;
	viewer_link(v, &st->tourney);
	viewer_write_json(v, json_pack("{s:s,s:o}", "t", "tourney", "d", d), 0);
}

/* The featured game: the live one with the highest ratings together. */
static struct channel *tv_pick(struct web_stream *st)
{
	struct channel *best = NULL;
	long best_sum = -1;

	for (struct channel *ch = st->channels; ch; ch = ch->next) {
		if (ch->ended)
			continue;
		long sum = strtol(ch->ratings[WHITE], NULL, 10) + strtol(ch->ratings[BLACK], NULL, 10);
		if (sum > best_sum) {
			best = ch;
			best_sum = sum;
		}
	}
	return best;
}

static json_t *featured_json(const struct channel *ch)
{
	json_t *players = json_array();
	char id[24];

	snprintf(id, sizeof id, "%lld", (long long)ch->id);
	for (int c = WHITE; c <= BLACK; c++) {
		json_t *p = player_json(ch, (enum color)c);
		json_object_set_new(p, "color", json_string(c == WHITE ? "white" : "black"));
		json_object_set_new(p, "seconds",
		    json_integer(ch->plies[shown_plies(ch)].clock_ms[c] / 1000));
		json_array_append_new(players, p);
	}
	json_t *d = json_pack("{s:s,s:i,s:s,s:o,s:s}", "id", id, "number", ch->number,
	    "orientation", "white", "players", players, "fen", ch->plies[shown_plies(ch)].fen);
	if (d && shown_paused(ch))
		json_object_set_new(d, "paused", json_true());
	return d;
}

/* Tells every TV viewer which game is featured now. */
static void tv_feature(struct web_stream *st)
{
	st->featured = tv_pick(st);
	if (!st->featured)
		return;
	json_t *d = featured_json(st->featured);
	json_t *wrap = json_pack("{s:s,s:o}", "t", "featured", "d", d);
	struct web_event *ev = event_make(st, wrap, 0, NULL);
	if (!ev)
		return;
	for (struct viewer *v = st->tv, *next; v; v = next) {
		next = v->next;
		viewer_write(v, &ev->nd, ev);
	}
	event_unref(ev);
}

void web_stream_tv(struct web_stream *st, struct evhttp_request *req)
{
	struct viewer *v = viewer_open(st, req, false);

	if (!v)
		return;
	viewer_link(v, &st->tv);
	if (!st->featured)
		st->featured = tv_pick(st);
	if (st->featured)
		viewer_write_json(v, json_pack("{s:s,s:o}", "t", "featured", "d",
		    featured_json(st->featured)), 0);
}

json_t *web_stream_live_games(struct web_stream *st)
{
	json_t *list = json_array();

	for (struct channel *ch = st->channels; ch && list; ch = ch->next)
		if (!(ch->ended && ch->published == ch->event_count))
			json_array_append_new(list, describe(ch, false));
	return list;
}

json_t *web_stream_game_json(struct web_stream *st, int64_t id)
{
	struct channel *ch = channel_of_game(st, id);

	return ch ? describe(ch, true) : NULL;
}

void web_stream_metrics(struct web_stream *st, struct evbuffer *out)
{
	evbuffer_add_printf(out,
	    "# HELP chessd_web_streams Web streams open.\n"
	    "# TYPE chessd_web_streams gauge\n"
	    "chessd_web_streams %d\n"
	    "# HELP chessd_web_events_total Stream events encoded (once each, for every viewer).\n"
	    "# TYPE chessd_web_events_total counter\n"
	    "chessd_web_events_total %llu\n"
	    "# HELP chessd_web_deliveries_total Stream writes to viewers.\n"
	    "# TYPE chessd_web_deliveries_total counter\n"
	    "chessd_web_deliveries_total %llu\n"
	    "# HELP chessd_web_dropped_slow_total Streams dropped for reading too slowly.\n"
	    "# TYPE chessd_web_dropped_slow_total counter\n"
	    "chessd_web_dropped_slow_total %llu\n"
	    "# HELP chessd_web_refused_total Streams refused by a stream limit.\n"
	    "# TYPE chessd_web_refused_total counter\n"
	    "chessd_web_refused_total %llu\n",
	    st->viewer_count, (unsigned long long)st->events_made,
	    (unsigned long long)st->deliveries, (unsigned long long)st->dropped_slow,
	    (unsigned long long)st->refused);
	evbuffer_add_printf(out,
	    "# HELP chessd_moves_total Moves committed and handed to the web.\n"
	    "# TYPE chessd_moves_total counter\n"
	    "chessd_moves_total %llu\n"
	    "# HELP chessd_commit_latency_ms From a pass's commit to its being on disk, for "
	    "passes with web events.\n"
	    "# TYPE chessd_commit_latency_ms histogram\n", (unsigned long long)st->moves);
	uint64_t cumulative = 0;
	for (int b = 0; b <= STREAM_LATENCY_BUCKETS; b++) {
		cumulative += st->latency_buckets[b];
		if (b < STREAM_LATENCY_BUCKETS)
			evbuffer_add_printf(out, "chessd_commit_latency_ms_bucket{le=\"%d\"} %llu\n",
			    latency_bounds_ms[b], (unsigned long long)cumulative);
		else
			evbuffer_add_printf(out, "chessd_commit_latency_ms_bucket{le=\"+Inf\"} %llu\n",
			    (unsigned long long)cumulative);
	}
	evbuffer_add_printf(out, "chessd_commit_latency_ms_sum %llu\n"
	    "chessd_commit_latency_ms_count %llu\n", (unsigned long long)st->latency_sum_ms,
	    (unsigned long long)st->latency_count);
}

/* A comment to every stream quiet for a heartbeat, so a vanished reader is found. */
static void heartbeat(evutil_socket_t fd, short what, void *arg)
{
	struct web_stream *st = arg;
	int64_t quiet = now_ms(st) - server_config(st->srv)->limits.web_heartbeat_ms / 2;

	(void)fd;
	(void)what;
	struct viewer *lists[] = { st->tv, st->tourney };
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
		for (struct viewer *v = lists[i], *next; v; v = next) {
			next = v->next;
			if (v->last_write_ms <= quiet)
				viewer_write(v, &beat_nd, NULL);
		}
	for (struct channel *ch = st->channels; ch; ch = ch->next)
		for (struct viewer *v = ch->viewers, *next; v; v = next) {
			next = v->next;
			if (v->last_write_ms <= quiet)
				viewer_write(v, v->sse ? &beat_sse : &beat_nd, NULL);
		}
}

struct web_stream *web_stream_new(struct server *srv)
{
	struct web_stream *st = calloc(1, sizeof *st);
	int ms = server_config(srv)->limits.web_heartbeat_ms;

	if (!st)
		return NULL;
	st->srv = srv;
	st->heartbeat = event_new(server_base(srv), -1, EV_PERSIST, heartbeat, st);
	st->delay_timer = evtimer_new(server_base(srv), delay_over, st);
	if (!st->heartbeat || !st->delay_timer) {
		web_stream_free(st);
		return NULL;
	}
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	event_add(st->heartbeat, &tv);
	return st;
}

static void forget(struct viewer *v)
{
	evhttp_connection_set_closecb(v->evcon, NULL, NULL);
	viewer_unlink(v);
}

void web_stream_free(struct web_stream *st)
{
	if (!st)
		return;
	while (st->tv)
		forget(st->tv);
	while (st->tourney)
		forget(st->tourney);
	for (int i = 0; i < st->update_count; i++)
		event_unref(st->updates[i].ev);
	while (st->channels) {
		struct channel *ch = st->channels;
		while (ch->viewers)
			forget(ch->viewers);
		channel_free(ch);
	}
	tdestroy(st->addrs, free);
	free(st->by_id);
	if (st->heartbeat)
		event_free(st->heartbeat);
	if (st->delay_timer)
		event_free(st->delay_timer);
	free(st);
}
