/*
 * The web listeners and the request router.  Every request is checked
 * against the HTTP limits before a handler sees it; handlers only read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "config.h"
#include "game.h"
#include "log.h"
#include "number.h"
#include "server.h"
#include "tls.h"
#include "web.h"
#include "web_api.h"
#include "web_board.h"
#include "web_http.h"
#include "web_pages.h"
#include "web_stream.h"

struct web {
	struct server *srv;
	struct tls *tls;
	struct evhttp *http, *https;
	struct web_stream *streams;
	struct watch *watches;
	struct event *sweep;
	uint64_t requests;
};

/*
 * Sends a whole reply.  A HEAD reply says the length of the body a GET gets
 * but carries none: evhttp would send it, unframed, and a kept-alive client
 * would read it as the start of the next reply.
 */
static void reply_send(struct evhttp_request *req, int code, const char *reason,
    struct evbuffer *body)
{
	if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
		char length[24];
		snprintf(length, sizeof length, "%zu", evbuffer_get_length(body));
		evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Length", length);
		evbuffer_drain(body, evbuffer_get_length(body));
	}
	evhttp_send_reply(req, code, reason, body);
}

/* The reason phrase of a code evhttp does not know (it would say "Client Error"). */
static const char *reason_of(int code)
{
	switch (code) {
	case 429:
		return "Too Many Requests";
	case 431:
		return "Request Header Fields Too Large";
	default:
		return NULL;
	}
}

void web_reply_json(struct evhttp_request *req, int code, json_t *obj)
{
	char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
	struct evbuffer *body = evbuffer_new();

	json_decref(obj);
	if (!text || !body) {
		free(text);
		if (body)
			evbuffer_free(body);
		evhttp_send_error(req, 500, "out of memory");
		return;
	}
	evbuffer_add(body, text, strlen(text));
	evbuffer_add(body, "\n", 1);
	free(text);
	evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
	    "application/json");
	reply_send(req, code, reason_of(code), body);
	evbuffer_free(body);
}

void web_reply_error(struct evhttp_request *req, int code, const char *why)
{
	web_reply_json(req, code, json_pack("{s:s}", "error", why));
}

void web_reply_body(struct evhttp_request *req, const char *type, struct evbuffer *body)
{
	evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type", type);
	reply_send(req, 200, "OK", body);
	evbuffer_free(body);
}

const char *web_header(struct evhttp_request *req, const char *name)
{
	return evhttp_find_header(evhttp_request_get_input_headers(req), name);
}

int web_accepts(struct evhttp_request *req, const char *type)
{
	const char *accept = web_header(req, "Accept");

	return accept && strstr(accept, type) != NULL;
}

/* Prometheus text: the server's state and the web's counters. */
static void reply_metrics(struct web *w, struct evhttp_request *req)
{
	struct evbuffer *b = evbuffer_new();

	if (!b) {
		evhttp_send_error(req, 500, "out of memory");
		return;
	}
	evbuffer_add_printf(b,
	    "# HELP chessd_connections FICS connections open.\n"
	    "# TYPE chessd_connections gauge\n"
	    "chessd_connections{kind=\"fics\"} %d\n"
	    "# HELP chessd_users Logged-in users.\n"
	    "# TYPE chessd_users gauge\n"
	    "chessd_users %d\n"
	    "# HELP chessd_games Live games.\n"
	    "# TYPE chessd_games gauge\n"
	    "chessd_games %d\n"
	    "# HELP chessd_http_requests_total HTTP requests answered.\n"
	    "# TYPE chessd_http_requests_total counter\n"
	    "chessd_http_requests_total %llu\n",
	    server_conn_count(w->srv), server_session_count(w->srv),
	    games_count(server_games(w->srv)), (unsigned long long)w->requests);
	web_stream_metrics(w->streams, b);
	web_reply_body(req, "text/plain; version=0.0.4", b);
}

/* Serves an embedded file of client/web/ by name; false when there is none. */
static bool reply_page(struct evhttp_request *req, const char *name)
{
	for (int i = 0; i < web_page_count; i++) {
		if (strcmp(web_pages[i].name, name))
			continue;
		struct evbuffer *b = evbuffer_new();
		if (!b) {
			evhttp_send_error(req, 500, "out of memory");
			return true;
		}
		evbuffer_add_reference(b, web_pages[i].body, strlen(web_pages[i].body), NULL, NULL);
		web_reply_body(req, web_pages[i].type, b);
		return true;
	}
	return false;
}

/* Whether text is a non-empty run of decimal digits (a page's number; the API checks it). */
static bool all_digits(const char *text)
{
	if (!*text)
		return false;
	for (; *text; text++)
		if (*text < '0' || *text > '9')
			return false;
	return true;
}

enum number_status web_number(const char *text, long min, long max, long *out)
{
	return all_digits(text) ? number_parse(text, min, max, out) : NUMBER_JUNK;
}

/* Bytes of the request's header lines, as they came ("Name: value\r\n"). */
static size_t header_bytes(struct evhttp_request *req)
{
	struct evkeyvalq *h = evhttp_request_get_input_headers(req);
	size_t n = 0;

	for (struct evkeyval *kv = h->tqh_first; kv; kv = kv->next.tqe_next)
		n += strlen(kv->key) + strlen(kv->value) + 4;
	return n;
}

/* The rest of path after prefix, or NULL when path does not start with it. */
static const char *after(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(path, prefix, n) ? NULL : path + n;
}

static void route(struct evhttp_request *req, void *arg)
{
	struct web *w = arg;
	const struct limits *lim = &server_config(w->srv)->limits;
	const char *uri = evhttp_request_get_uri(req), *rest;

	w->requests++;
	if (strlen(uri) > (size_t)lim->http_request_line_bytes) {
		web_reply_error(req, 414, "request line too long");
		return;
	}
	if (header_bytes(req) > (size_t)lim->http_header_bytes) {
		web_reply_error(req, 431, "request headers too large");
		return;
	}
	if (evhttp_request_get_command(req) != EVHTTP_REQ_GET &&
	    evhttp_request_get_command(req) != EVHTTP_REQ_HEAD) {
		evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "GET, HEAD");
		web_reply_error(req, 405, "only GET is served");
		return;
	}
	const struct evhttp_uri *parsed = evhttp_request_get_evhttp_uri(req);
	const char *path = parsed ? evhttp_uri_get_path(parsed) : NULL;
	const char *query = parsed ? evhttp_uri_get_query(parsed) : NULL;
	if (!path) {
		web_reply_error(req, 400, "bad request path");
		return;
	}
	if (!strcmp(path, "/"))
		reply_page(req, "index.html");
	else if ((rest = after(path, "/static/")) && strchr(rest, '.') && reply_page(req, rest))
		return;
	else if ((rest = after(path, "/game/")) && all_digits(rest))
		reply_page(req, "game.html");
	else if ((rest = after(path, "/tourney/")) && all_digits(rest))
		reply_page(req, "tourney.html");
	else if (!strcmp(path, "/board.svg"))
		web_board_reply(req, query);
	else if ((rest = after(path, "/board/")))
		web_board_reply_live(w->srv, w->streams, req, rest);
	else if (!strcmp(path, "/metrics"))
		reply_metrics(w, req);
	else if (!strcmp(path, "/api/games"))
		web_reply_json(req, 200, web_stream_live_games(w->streams));
	else if (!strcmp(path, "/api/games/recent"))
		web_api_recent(w->srv, w->streams, req, query);
	else if ((rest = after(path, "/api/stream/game/")))
		web_stream_game(w->streams, req, rest);
	else if ((rest = after(path, "/api/stream/tourney/")))
		web_stream_tourney(w->streams, req, rest);
	else if (!strcmp(path, "/api/tv/feed"))
		web_stream_tv(w->streams, req);
	else if ((rest = after(path, "/game/export/")))
		web_api_export(w->srv, w->streams, req, rest);
	else if ((rest = after(path, "/api/user/")))
		web_api_user(w->srv, req, rest);
	else if ((rest = after(path, "/api/games/user/")))
		web_api_user_games(w->srv, w->streams, req, rest, query);
	else if (!strcmp(path, "/api/tourney"))
		web_api_tourneys(w->srv, req);
	else if ((rest = after(path, "/api/tourney/")))
		web_api_tourney(w->srv, req, rest);
	else if ((rest = after(path, "/tourney/")))
		web_api_tourney_file(w->srv, w->streams, req, rest);
	else
		web_reply_error(req, 404, "not found");
}

/*
 * Request deadlines.  evhttp's own timeout restarts on every byte, so a
 * client trickling its head would hold the connection for ever; a watch
 * runs from the first byte of a request until its reply starts to go out.
 * evhttp tells nobody but a stream when a connection goes, so each watch
 * holds a reference on its bufferevent and a sweep, four times a second,
 * ends what is overdue and lets go of what evhttp freed (a freed
 * bufferevent has no callbacks left).
 *
 * A watch also counts the heads evhttp reads, as their bytes arrive and
 * before evhttp parses them: evhttp 2.1 answers a head past its size limit
 * with its own HTML page and lets nobody change it, so a head past the
 * limit is answered here first (see head_refuse).  Counting runs from the
 * end of one head to the end of the next, so that a head pipelined behind
 * a request not yet answered is counted from its first byte too; as no
 * request may have a body, a head ends where the next begins (one that
 * announces a body gets evhttp's 413, and nothing after it is counted).
 * A pipelined head past the limit is cut from the input, behind what
 * evhttp has still to read, and refused once evhttp has answered all
 * before it and reads again: the requests before it are served.
 */
enum head_state {
	HEAD_AWAITED,		/* the next byte begins a head */
	HEAD_COUNTING,
	HEAD_PAST,		/* after a body's head: nothing to count until a reply goes out */
	HEAD_PENDING,		/* a pipelined head past the limit, cut, to refuse when reached */
	HEAD_REFUSED,		/* answered here: the connection is the watch's */
};

/* The start of a header line the watch keeps, enough for "content-length: 0". */
#define WATCH_LINE_KEPT 32

struct watch {
	struct web *w;
	struct bufferevent *bev;
	struct evbuffer_cb_entry *in, *out;
	struct timeval started;
	bool armed;
	enum head_state head;
	size_t head_bytes;		/* line ends included */
	size_t line_bytes;		/* of the head's current line, its end not included */
	size_t request_line_bytes;
	bool in_request_line;
	bool body;			/* the head announces a body */
	char line[WATCH_LINE_KEPT];	/* the current line's start, lower-cased */
	/* Input positions: bytes ever added, bytes evhttp took, where the head began. */
	uint64_t added, taken, head_start;
	bool cutting;			/* the watch itself moves input: not evhttp's doing */
	bufferevent_event_cb http_fail;	/* evhttp's, once the connection is the watch's */
	void *http_arg;
	struct watch *next;
};

/* The longest head evhttp reads, and a watch lets through. */
static size_t head_cap(const struct limits *lim)
{
	return (size_t)lim->http_request_line_bytes + (size_t)lim->http_header_bytes;
}

/* Whether the header line just ended announces a body (any length but 0, any coding). */
static bool line_announces_body(const struct watch *wt)
{
	size_t n = wt->line_bytes < WATCH_LINE_KEPT ? wt->line_bytes : WATCH_LINE_KEPT;
	const char *cl = "content-length:", *te = "transfer-encoding:";

	if (n >= strlen(te) && !strncmp(wt->line, te, strlen(te)))
		return true;
	if (n < strlen(cl) || strncmp(wt->line, cl, strlen(cl)))
		return false;
	if (wt->line_bytes > WATCH_LINE_KEPT)
		return true;
	size_t i = strlen(cl);
	while (i < n && (wt->line[i] == ' ' || wt->line[i] == '\t'))
		i++;
	size_t j = n;
	while (j > i && (wt->line[j - 1] == ' ' || wt->line[j - 1] == '\t'))
		j--;
	return !(j == i + 1 && wt->line[i] == '0');
}

/*
 * Counts n bytes of input, the first at input position pos; true once the
 * head being counted is past cap (the rest is then not counted).  A blank
 * line ends a head; the next byte begins the next one.
 */
static bool head_count(struct watch *wt, const char *p, size_t n, uint64_t pos, size_t cap)
{
	for (size_t i = 0; i < n && wt->head != HEAD_PAST; i++) {
		if (wt->head == HEAD_AWAITED) {
			wt->head = HEAD_COUNTING;
			wt->head_bytes = wt->line_bytes = wt->request_line_bytes = 0;
			wt->in_request_line = true;
			wt->body = false;
			wt->head_start = pos + i;
		}
		if (++wt->head_bytes > cap)
			return true;
		if (p[i] == '\n') {
			if (!wt->line_bytes)
				wt->head = wt->body ? HEAD_PAST : HEAD_AWAITED;
			else if (!wt->in_request_line && line_announces_body(wt))
				wt->body = true;
			wt->line_bytes = 0;
			wt->in_request_line = false;
		} else if (p[i] != '\r') {
			if (wt->line_bytes < WATCH_LINE_KEPT)
				wt->line[wt->line_bytes] = (char)(p[i] >= 'A' && p[i] <= 'Z' ? p[i] + 32 : p[i]);
			wt->line_bytes++;
			wt->request_line_bytes += wt->in_request_line;
		}
	}
	return false;
}

/* Counts the last n bytes of buf (those just read); true once a head is too long. */
static bool head_overflows(struct watch *wt, struct evbuffer *buf, size_t n)
{
	size_t cap = head_cap(&server_config(wt->w->srv)->limits);
	struct evbuffer_ptr at;
	char chunk[512];
	uint64_t pos = wt->added - n;

	if (evbuffer_ptr_set(buf, &at, evbuffer_get_length(buf) - n, EVBUFFER_PTR_SET) < 0)
		return false;
	while (n && wt->head != HEAD_PAST) {
		ev_ssize_t got = evbuffer_copyout_from(buf, &at, chunk,
		    n < sizeof chunk ? n : sizeof chunk);
		if (got <= 0)
			return false;
		if (head_count(wt, chunk, (size_t)got, pos, cap))
			return true;
		evbuffer_ptr_set(buf, &at, (size_t)got, EVBUFFER_PTR_ADD);
		n -= (size_t)got;
		pos += (uint64_t)got;
	}
	return false;
}

/*
 * Whether evhttp has reached the head being counted: it has answered every
 * request before it (it reads again) and taken all the input before it.
 */
static bool head_reached(struct watch *wt)
{
	bufferevent_data_cb reading;

	bufferevent_getcb(wt->bev, &reading, NULL, NULL, NULL);
	return reading && wt->taken >= wt->head_start;
}

/* Removes the last n bytes of buf (a pipelined head evhttp has not reached). */
static void input_cut(struct watch *wt, struct evbuffer *buf, size_t n)
{
	size_t len = evbuffer_get_length(buf);
	struct evbuffer *keep = evbuffer_new();

	if (n > len)
		n = len;
	wt->cutting = true;
	if (keep && evbuffer_remove_buffer(buf, keep, len - n) == (int)(len - n)) {
		evbuffer_drain(buf, n);
		evbuffer_add_buffer(buf, keep);
	}
	wt->cutting = false;
	if (keep)
		evbuffer_free(keep);
}

/* Gives a refused connection back to evhttp to free, as its read timeout would. */
static void refused_close(struct watch *wt)
{
	bufferevent_event_cb fail = wt->http_fail;

	wt->http_fail = NULL;
	if (fail)
		fail(wt->bev, BEV_EVENT_READING | BEV_EVENT_TIMEOUT, wt->http_arg);
}

static void refused_event(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	(void)what;
	refused_close(arg);
}

/*
 * The refusal is all out.  On plain TCP the server's side is shut and what
 * the client still sends is read and dropped until it closes (or the
 * request's deadline), so that closing with its bytes unread cannot reset
 * the connection under the reply; over TLS it closes now, as evhttp would.
 */
static void refused_sent(struct bufferevent *bev, void *arg)
{
	struct watch *wt = arg;

	bufferevent_disable(bev, EV_WRITE);
	if (bufferevent_openssl_get_ssl(bev) || shutdown(bufferevent_getfd(bev), SHUT_WR) < 0)
		refused_close(wt);
}

/*
 * Answers a head past the limit, in place of evhttp (which has not read
 * this far yet): what came is dropped, evhttp's callbacks are taken from
 * the connection until it is closed, and the reply is JSON as every other
 * web error is: 414 when the request line alone is too long, else 431.
 */
static void head_refuse(struct watch *wt, struct evbuffer *in)
{
	const struct limits *lim = &server_config(wt->w->srv)->limits;
	bool line = wt->request_line_bytes > (size_t)lim->http_request_line_bytes;
	const char *why = line ? "request line too long" : "request headers too large";
	char body[64];

	wt->head = HEAD_REFUSED;
	wt->w->requests++;
	bufferevent_getcb(wt->bev, NULL, NULL, &wt->http_fail, &wt->http_arg);
	bufferevent_setcb(wt->bev, NULL, refused_sent, refused_event, wt);
	evbuffer_drain(in, evbuffer_get_length(in));
	int n = snprintf(body, sizeof body, "{\"error\":\"%s\"}\n", why);
	evbuffer_add_printf(bufferevent_get_output(wt->bev),
	    "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
	    "Connection: close\r\n\r\n%s", line ? 414 : 431,
	    line ? "Request-URI Too Large" : "Request Header Fields Too Large", n, body);
	bufferevent_enable(wt->bev, EV_READ | EV_WRITE);
}

static void watch_read(struct evbuffer *buf, const struct evbuffer_cb_info *info, void *arg)
{
	struct watch *wt = arg;

	if (wt->cutting)
		return;
	wt->taken += info->n_deleted;
	if (!info->n_added)
		return;
	if (wt->head == HEAD_REFUSED) {
		evbuffer_drain(buf, evbuffer_get_length(buf));
		return;
	}
	if (!wt->armed) {
		wt->armed = true;
		event_base_gettimeofday_cached(bufferevent_get_base(wt->bev), &wt->started);
	}
	wt->added += info->n_added;
	if (wt->head == HEAD_PENDING) {
		/* more of the head already refused: it goes where the rest went */
		input_cut(wt, buf, info->n_added);
		if (head_reached(wt))
			head_refuse(wt, buf);
	} else if (wt->head != HEAD_PAST && head_overflows(wt, buf, info->n_added)) {
		if (head_reached(wt)) {
			head_refuse(wt, buf);
		} else {
			wt->head = HEAD_PENDING;
			input_cut(wt, buf, (size_t)(wt->added - wt->head_start));
		}
	}
}

static void watch_sent(struct evbuffer *buf, const struct evbuffer_cb_info *info, void *arg)
{
	struct watch *wt = arg;

	(void)buf;
	/* A refusal going out stays armed: its deadline ends a client that will not read. */
	if (info->n_added && wt->head != HEAD_REFUSED) {
		wt->armed = false;
		if (wt->head == HEAD_PAST)
			wt->head = HEAD_AWAITED;
	}
}

/* The one teardown of a watch. */
static void watch_free(struct watch *wt)
{
	if (wt->in)
		evbuffer_remove_cb_entry(bufferevent_get_input(wt->bev), wt->in);
	if (wt->out)
		evbuffer_remove_cb_entry(bufferevent_get_output(wt->bev), wt->out);
	bufferevent_decref(wt->bev);
	free(wt);
}

/* evhttp's event callback of a connection still open, NULL once it freed it. */
static bufferevent_event_cb watch_fail(struct watch *wt, void **arg)
{
	bufferevent_event_cb fail;

	bufferevent_getcb(wt->bev, NULL, NULL, &fail, arg);
	return fail;
}

static void watch_sweep(evutil_socket_t fd, short what, void *arg)
{
	struct web *w = arg;
	int ms = server_config(w->srv)->limits.http_request_ms;
	struct timeval now, limit = { ms / 1000, (ms % 1000) * 1000 }, due;

	(void)fd;
	(void)what;
	event_base_gettimeofday_cached(server_base(w->srv), &now);
	for (struct watch **p = &w->watches; *p;) {
		struct watch *wt = *p;
		void *fail_arg;
		bufferevent_event_cb fail = watch_fail(wt, &fail_arg);

		/* A pipelined head refused while requests before it were answered. */
		if (fail && wt->head == HEAD_PENDING && head_reached(wt)) {
			wt->armed = true;	/* the refusal's deadline, from now */
			wt->started = now;
			head_refuse(wt, bufferevent_get_input(wt->bev));
			fail = watch_fail(wt, &fail_arg);
		}
		timeradd(&wt->started, &limit, &due);
		if (fail && wt->armed && !timercmp(&now, &due, <)) {
			/* as evhttp's own read timeout ends it; the reference keeps wt->bev */
			wt->armed = false;
			fail(wt->bev, BEV_EVENT_READING | BEV_EVENT_TIMEOUT, fail_arg);
			fail = watch_fail(wt, &fail_arg);
		}
		if (fail) {
			p = &wt->next;
			continue;
		}
		*p = wt->next;
		watch_free(wt);
	}
}

/* Watches a new connection's bufferevent; NULL (and `bev` freed) on failure. */
static struct bufferevent *watch_new(struct web *w, struct bufferevent *bev)
{
	struct watch *wt = bev ? calloc(1, sizeof *wt) : NULL;

	if (!wt) {
		if (bev)
			bufferevent_free(bev);
		return NULL;
	}
	wt->w = w;
	wt->bev = bev;
	bufferevent_incref(bev);
	if (!(wt->in = evbuffer_add_cb(bufferevent_get_input(bev), watch_read, wt)) ||
	    !(wt->out = evbuffer_add_cb(bufferevent_get_output(bev), watch_sent, wt))) {
		watch_free(wt);
		bufferevent_free(bev);
		return NULL;
	}
	/* Unread input is held to twice the longest head (past one, the watch
	 * cuts or refuses it): bytes a client sends while its reply or stream
	 * goes out wait in the kernel, not in the server's memory. */
	bufferevent_setwatermark(bev, EV_READ, 0, 2 * head_cap(&server_config(w->srv)->limits));
	wt->next = w->watches;
	w->watches = wt;
	return bev;
}

/* An HTTP connection's bufferevent: the accepted socket, watched. */
static struct bufferevent *plain_bufferevent(struct event_base *base, void *arg)
{
	return watch_new(arg, bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE));
}

/* An HTTPS connection's bufferevent: TLS over the accepted socket, watched. */
static struct bufferevent *tls_bufferevent(struct event_base *base, void *arg)
{
	struct web *w = arg;
	SSL *ssl = tls_accept_ssl(w->tls);

	if (!ssl)
		return NULL;
	return watch_new(w, bufferevent_openssl_socket_new(base, -1, ssl,
	    BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE));
}

static struct evhttp *listen_http(struct web *w, int port, bool secure, char *err, size_t errlen)
{
	const struct config *cfg = server_config(w->srv);
	const struct limits *lim = &cfg->limits;
	struct evhttp *h = evhttp_new(server_base(w->srv));

	if (!h) {
		snprintf(err, errlen, "cannot set up HTTP");
		return NULL;
	}
	/* Past both limits the head is not even read (a watch answers it); below,
	 * route() answers 414 or 431. */
	evhttp_set_max_headers_size(h, (ev_ssize_t)head_cap(lim));
	evhttp_set_max_body_size(h, 0);
	/* Every method evhttp knows reaches route(), which answers all but GET and
	 * HEAD with a 405 that says what is allowed (evhttp's own is a bare 501). */
	evhttp_set_allowed_methods(h, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD | EVHTTP_REQ_POST |
	    EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE |
	    EVHTTP_REQ_CONNECT | EVHTTP_REQ_PATCH);
	/* Idle and stalled connections; a trickled head is the watches' (above). */
	evhttp_set_timeout(h, lim->http_request_ms / 1000);
	evhttp_set_gencb(h, route, w);
	evhttp_set_bevcb(h, secure ? tls_bufferevent : plain_bufferevent, w);
	const char *tries[2] = { cfg->bind ? cfg->bind : "::", cfg->bind ? NULL : "0.0.0.0" };
	for (int i = 0; i < 2 && tries[i]; i++) {
		if (evhttp_bind_socket_with_handle(h, tries[i], (ev_uint16_t)port)) {
			log_info("listening on %s port %d (%s)", tries[i], port, secure ? "HTTPS" : "HTTP");
			return h;
		}
	}
	snprintf(err, errlen, "cannot listen on %s port %d: Address already in use or not available",
	    tries[0], port);
	evhttp_free(h);
	return NULL;
}

struct web *web_new(struct server *srv, struct tls *tls, char *err, size_t errlen)
{
	const struct config *cfg = server_config(srv);
	struct web *w = calloc(1, sizeof *w);

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->srv = srv;
	w->tls = tls;
	if (!(w->streams = web_stream_new(srv))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* Often enough that a deadline is kept to a quarter of it, and that a freed
	 * connection's descriptor (closed when the last reference goes) goes soon. */
	int ms = cfg->limits.http_request_ms / 4 < 250 ? cfg->limits.http_request_ms / 4 : 250;
	struct timeval every = { 0, ms * 1000 };
	if (!(w->sweep = event_new(server_base(srv), -1, EV_PERSIST, watch_sweep, w)) ||
	    event_add(w->sweep, &every)) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (cfg->http_port && !(w->http = listen_http(w, cfg->http_port, false, err, errlen)))
		goto fail;
	if (cfg->https_port && !(w->https = listen_http(w, cfg->https_port, true, err, errlen)))
		goto fail;
	return w;
fail:
	web_free(w);
	return NULL;
}

void web_free(struct web *w)
{
	if (!w)
		return;
	/* The streams first: they hold requests of the listeners' connections. */
	web_stream_free(w->streams);
	if (w->http)
		evhttp_free(w->http);
	if (w->https)
		evhttp_free(w->https);
	/* The listeners freed their connections: every watch lets go. */
	while (w->watches) {
		struct watch *wt = w->watches;
		w->watches = wt->next;
		watch_free(wt);
	}
	if (w->sweep)
		event_free(w->sweep);
	free(w);
}

void web_game_changed(struct web *w, struct game *g)
{
	/* An examined board is a lesson, not a game: it has no stored id and
	 * its line may step back and forth, so the web does not show it.  A
	 * private game is for its players and admins only, on the web too. */
	if (w && !game_examine(g) && !game_private(g))
		web_stream_game_changed(w->streams, g);
}

void web_game_over(struct web *w, struct game *g, enum result r,
    enum game_termination termination, enum game_status status)
{
	if (w && !game_examine(g) && !game_private(g))
		web_stream_game_over(w->streams, g, r, termination, status);
}

void web_pass_end(struct web *w, uint64_t need, uint64_t durable)
{
	if (w)
		web_stream_pass_end(w->streams, need, durable);
}

void web_durable(struct web *w, uint64_t durable)
{
	if (w)
		web_stream_durable(w->streams, durable);
}
