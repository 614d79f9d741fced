#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "backlog.h"
#include "config.h"
#include "conn.h"
#include "limit.h"
#include "log.h"
#include "server.h"
#include "session.h"
#include "text.h"
#include "timeseal.h"
#include "tls.h"

/* Distinct commits one connection's held output may wait for (more merge). */
#define CONN_HOLD_MARKS 8
/* Text is copied out with its line ends this many bytes at a time. */
#define CONN_WRITE_CHUNK 4096

enum conn_state { CONN_HANDSHAKE, CONN_OPEN, CONN_CLOSING, CONN_CLOSED };

struct conn {
	struct server *srv;
	struct bufferevent *bev;
	struct evbuffer *pending;	/* output of this pass, until it commits */
	struct evbuffer *held;		/* committed, waiting to become durable */
	struct {
		uint64_t seq;		/* the commit these bytes wait for */
		size_t bytes;
	} marks[CONN_HOLD_MARKS];
	int mark_count;
	struct backlog_entry queued;	/* libevent's output; other: pending + held */
	uint64_t chat_skipped;		/* chat lines not sent: too far behind */
	struct session *session;
	struct event *timer;		/* the earliest deadline below */
	uint64_t id;
	enum conn_state state;
	bool tls;
	bool dirty;			/* on the server's list of output to flush */
	bool discarding;		/* dropping the rest of an over-long line */
	bool hold;			/* the session asked not to get lines for now */
	bool hung_up;			/* the client closed while its lines were held */
	bool output_full;		/* reading paused until output drains */
	bool rate_paused;		/* reading paused for the command rate */
	bool more_input;		/* lines left over for the next pass */
	bool logged_in;
	int64_t handshake_at, login_at, idle_at, drain_at, wake_at;
	double tokens;			/* command rate token bucket */
	int64_t tokens_at;		/* when tokens was last refilled */
	int64_t rate_resume_at;		/* when a paused reader has a token again */
	struct timeseal timeseal;	/* decoding state, if the client encodes */
	int64_t rtt_total_ms;		/* timeseal round trips answered, for "ping" */
	int rtt_count;
	char addr[INET6_ADDRSTRLEN];
};

static uint64_t next_id = 1;

/*
 * Keep the connection's share of the server's output backlog exact: every
 * change to one of its buffers (bytes queued, moved between them, written
 * to the socket) passes through one of these, at O(log n) in the
 * connections.  What libevent holds is what the socket would not take.
 */
static void count_unsent(struct evbuffer *buf, const struct evbuffer_cb_info *info, void *arg)
{
	struct conn *c = arg;

	(void)buf;
	if (info->n_added != info->n_deleted)
		backlog_set(server_backlog(c->srv), &c->queued,
		    c->queued.bytes + info->n_added - info->n_deleted);
}

static void count_waiting(struct evbuffer *buf, const struct evbuffer_cb_info *info, void *arg)
{
	struct conn *c = arg;

	(void)buf;
	if (info->n_added != info->n_deleted)
		backlog_set_other(server_backlog(c->srv), &c->queued,
		    c->queued.other + info->n_added - info->n_deleted);
}

/* The connection's buffers no longer count towards the server's budget. */
static void uncount(struct conn *c)
{
	backlog_remove(server_backlog(c->srv), &c->queued);
	if (c->chat_skipped)
		log_info("conn %llu (%s): %llu chat lines skipped while it was behind",
		    (unsigned long long)c->id, c->addr, (unsigned long long)c->chat_skipped);
	c->chat_skipped = 0;
}

static const struct limits *limits_of(const struct conn *c)
{
	return &server_config(c->srv)->limits;
}

static void read_cb(struct bufferevent *bev, void *arg);
static void write_cb(struct bufferevent *bev, void *arg);
static void event_cb(struct bufferevent *bev, short what, void *arg);
static void timer_cb(evutil_socket_t fd, short what, void *arg);
static void process_input(struct conn *c);
static void finish(struct conn *c);

/* Re-arms the timer for the earliest pending deadline. */
static void schedule(struct conn *c)
{
	int64_t next = 0;
	int64_t candidates[] = {
		c->state == CONN_HANDSHAKE ? c->handshake_at : 0,
		c->logged_in ? 0 : c->login_at,
		c->logged_in || c->hold ? 0 : c->idle_at,
		c->state == CONN_CLOSING ? c->drain_at : 0,
		c->wake_at,
		c->rate_paused ? c->rate_resume_at : 0,
		c->more_input && c->state == CONN_OPEN ? server_now_ms(c->srv) : 0,
	};

	for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
		if (candidates[i] && (!next || candidates[i] < next))
			next = candidates[i];
	if (!next) {
		event_del(c->timer);
		return;
	}
	int64_t delay = next - server_now_ms(c->srv);
	if (delay < 0)
		delay = 0;
	struct timeval tv = { .tv_sec = delay / 1000, .tv_usec = (delay % 1000) * 1000 };
	event_add(c->timer, &tv);
}

struct conn *conn_new(struct server *srv, int fd, const struct sockaddr *sa, SSL *ssl)
{
	struct conn *c = calloc(1, sizeof *c);
	struct event_base *base = server_base(srv);
	int64_t now = server_now_ms(srv);

	if (!c) {
		if (ssl)
			SSL_free(ssl);
		close(fd);
		return NULL;
	}
	c->srv = srv;
	c->id = next_id++;
	c->tls = ssl != NULL;
	if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, c->addr, sizeof c->addr);
	else
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, c->addr, sizeof c->addr);

	if (ssl) {
		c->bev = bufferevent_openssl_socket_new(base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING,
		    BEV_OPT_CLOSE_ON_FREE);
		if (c->bev)
			bufferevent_openssl_set_allow_dirty_shutdown(c->bev, 1);
		else
			SSL_free(ssl);
	} else {
		c->bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
	}
	c->pending = evbuffer_new();
	c->timer = evtimer_new(base, timer_cb, c);
	c->queued.owner = c;
	if (!c->bev || !c->pending || !c->timer ||
	    backlog_add(server_backlog(srv), &c->queued) < 0 ||
	    !evbuffer_add_cb(c->pending, count_waiting, c) ||
	    !evbuffer_add_cb(bufferevent_get_output(c->bev), count_unsent, c)) {
		if (!c->bev)
			close(fd);
		conn_free(c);
		return NULL;
	}
	const struct limits *lim = limits_of(c);
	c->state = ssl ? CONN_HANDSHAKE : CONN_OPEN;
	c->handshake_at = now + lim->handshake_ms;
	c->login_at = now + lim->login_ms;
	c->idle_at = now + lim->unauth_idle_ms;
	c->tokens = lim->command_burst;
	c->tokens_at = now;
	timeseal_init(&c->timeseal);
	bufferevent_setcb(c->bev, read_cb, write_cb, event_cb, c);
	/*
	 * What the socket would not take at once goes out as fast as it takes
	 * it: libevent's default, 16 KB a loop pass, made a 500 KB listing
	 * (who, games) wait some 30 passes of a busy loop.  The kernel's send
	 * buffer still bounds each write.
	 */
	bufferevent_set_max_single_write(c->bev, EV_SSIZE_MAX);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	schedule(c);

	c->session = session_new(srv, c);
	if (!c->session) {
		conn_free(c);
		return NULL;
	}
	if (!ssl)
		session_start(c->session);
	return c;
}

void conn_free(struct conn *c)
{
	if (!c)
		return;
	session_free(c->session);
	uncount(c);
	/* Nothing may count into a freed connection. */
	if (c->bev)
		evbuffer_remove_cb(bufferevent_get_output(c->bev), count_unsent, c);
	if (c->pending)
		evbuffer_remove_cb(c->pending, count_waiting, c);
	if (c->held)
		evbuffer_remove_cb(c->held, count_waiting, c);
	if (c->bev) {
		SSL *ssl = c->tls ? bufferevent_openssl_get_ssl(c->bev) : NULL;
		bufferevent_free(c->bev);
		/* libevent frees the SSL only with BEV_OPT_CLOSE_ON_FREE, which we set. */
		(void)ssl;
	}
	if (c->pending)
		evbuffer_free(c->pending);
	if (c->held)
		evbuffer_free(c->held);
	if (c->timer)
		event_free(c->timer);
	free(c);
}

void conn_write_raw(struct conn *c, const void *data, size_t len)
{
	if (c->state >= CONN_CLOSING || c->state == CONN_HANDSHAKE)
		return;
	evbuffer_add(c->pending, data, len);
	if (!c->dirty) {
		c->dirty = true;
		server_conn_dirty(c->srv, c);
	}
}

/* Text with each \n sent as \n\r, gathered a chunk at a time rather than a piece a line. */
void conn_write(struct conn *c, const char *text, size_t len)
{
	char chunk[CONN_WRITE_CHUNK];

	while (len) {
		size_t taken, n = text_crlf(text, len, chunk, sizeof chunk, &taken);
		conn_write_raw(c, chunk, n);
		text += taken;
		len -= taken;
	}
}

void conn_puts(struct conn *c, const char *text)
{
	conn_write(c, text, strlen(text));
}

void conn_vprintf(struct conn *c, const char *fmt, va_list ap)
{
	char small[512], *buf = small;
	va_list copy;

	va_copy(copy, ap);
	int n = vsnprintf(small, sizeof small, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof small) {
		if (!(buf = malloc((size_t)n + 1)))
			return;
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
	}
	conn_write(c, buf, (size_t)n);
	if (buf != small)
		free(buf);
}

void conn_printf(struct conn *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	conn_vprintf(c, fmt, ap);
	va_end(ap);
}

/* Pauses or resumes reading from the socket for the reasons that apply. */
static void update_reading(struct conn *c)
{
	if (c->state != CONN_OPEN && c->state != CONN_HANDSHAKE)
		return;
	/* Held input is still read, a line's worth, so that a client that hangs
	 * up while its login waits is noticed. */
	bool held_full = c->hold && evbuffer_get_length(bufferevent_get_input(c->bev)) >=
	    (size_t)limits_of(c)->line_bytes;
	if (c->output_full || c->rate_paused || held_full || c->hung_up ||
	    c->more_input)
		bufferevent_disable(c->bev, EV_READ);
	else
		bufferevent_enable(c->bev, EV_READ);
}

/*
 * TLS with nothing queued ahead: one SSL_write now.  libevent's SSL
 * bufferevent would arm the write event and write on the next loop pass
 * (two epoll_ctl calls and a pass of delay for every delivery).  If the
 * socket is full, OpenSSL wants the same bytes offered again: they stay
 * in src as one piece and become the whole of libevent's output, whose
 * next SSL_write starts with them.
 */
static void tls_write_now(struct conn *c, struct evbuffer *src, size_t bytes)
{
	SSL *ssl = bufferevent_openssl_get_ssl(c->bev);
	unsigned char *data = evbuffer_pullup(src, (ev_ssize_t)bytes);

	if (!ssl || !data || bytes > INT_MAX)
		return;
	tls_errors_clear();
	if (SSL_write(ssl, data, (int)bytes) > 0)
		evbuffer_drain(src, bytes);
	tls_errors_clear();
}

/* Moves bytes from src to the socket's output, enforcing the limits. */
static void send_out(struct conn *c, struct evbuffer *src, size_t bytes)
{
	struct evbuffer *out = bufferevent_get_output(c->bev);

	/*
	 * Nothing queued ahead of it: the socket is written at once, and the
	 * write event (two epoll_ctl calls) is needed only for what the
	 * kernel would not take.
	 */
	if (!evbuffer_get_length(out) && bytes == evbuffer_get_length(src) && bytes) {
		if (!c->tls)
			evbuffer_write(src, bufferevent_getfd(c->bev));
		else if (c->state == CONN_OPEN || c->state == CONN_CLOSING)
			tls_write_now(c, src, bytes);
	}
	/* What the socket did not take waits in libevent's buffer. */
	evbuffer_remove_buffer(src, out, bytes);
	size_t queued = evbuffer_get_length(out);
	if (c->state == CONN_CLOSING && !queued && !conn_holding(c)) {
		finish(c);
		return;
	}
	const struct limits *lim = limits_of(c);
	if (queued > (size_t)lim->output_hard_bytes) {
		conn_abort(c, "output buffer over the hard limit (slow reader)");
		return;
	}
	if (queued > (size_t)lim->output_soft_bytes && !c->output_full) {
		/* Stop reading until the client has taken half of it. */
		c->output_full = true;
		bufferevent_setwatermark(c->bev, EV_WRITE, (size_t)lim->output_soft_bytes / 2, 0);
		update_reading(c);
	}
}

bool conn_holding(const struct conn *c)
{
	return c->mark_count > 0;
}

/* Queues the pass's output behind held output, waiting for commit seq. */
static void hold(struct conn *c, uint64_t seq)
{
	size_t n = evbuffer_get_length(c->pending);
	const struct limits *lim = limits_of(c);

	if (!c->held && (!(c->held = evbuffer_new()) || !evbuffer_add_cb(c->held, count_waiting, c))) {
		conn_abort(c, "out of memory holding output");
		return;
	}
	evbuffer_add_buffer(c->held, c->pending);
	if (c->mark_count && (c->marks[c->mark_count - 1].seq >= seq ||
	    c->mark_count == CONN_HOLD_MARKS)) {
		/* Same commit, or no room: wait for the later of the two. */
		if (seq > c->marks[c->mark_count - 1].seq)
			c->marks[c->mark_count - 1].seq = seq;
		c->marks[c->mark_count - 1].bytes += n;
	} else {
		c->marks[c->mark_count].seq = seq;
		c->marks[c->mark_count].bytes = n;
		c->mark_count++;
	}
	if (evbuffer_get_length(c->held) + evbuffer_get_length(bufferevent_get_output(c->bev)) >
	    (size_t)lim->output_hard_bytes)
		conn_abort(c, "output buffer over the hard limit (slow reader)");
}

void conn_flush(struct conn *c, uint64_t need, uint64_t durable)
{
	c->dirty = false;
	if (c->state == CONN_CLOSED)
		return;
	if (!evbuffer_get_length(c->pending)) {
		if (c->state == CONN_CLOSING && !conn_holding(c) &&
		    !evbuffer_get_length(bufferevent_get_output(c->bev)))
			finish(c);
		return;
	}
	if (need > durable || conn_holding(c)) {
		/* Nothing overtakes held output: it waits at least as long. */
		uint64_t last = conn_holding(c) ? c->marks[c->mark_count - 1].seq : 0;
		hold(c, need > durable ? need : last);
		return;
	}
	send_out(c, c->pending, evbuffer_get_length(c->pending));
}

void conn_release(struct conn *c, uint64_t durable)
{
	size_t bytes = 0;
	int done = 0;

	if (c->state == CONN_CLOSED)
		return;
	while (done < c->mark_count && c->marks[done].seq <= durable)
		bytes += c->marks[done++].bytes;
	if (!done)
		return;
	c->mark_count -= done;
	memmove(c->marks, c->marks + done, (size_t)c->mark_count * sizeof c->marks[0]);
	send_out(c, c->held, bytes);
}

/* The last step of a close: TLS close_notify (libevent never sends it), then free. */
static void finish(struct conn *c)
{
	if (c->state == CONN_CLOSED)
		return;
	if (c->tls && c->state == CONN_CLOSING) {
		SSL *ssl = bufferevent_openssl_get_ssl(c->bev);
		if (ssl)
			tls_close_notify(ssl);
	}
	c->state = CONN_CLOSED;
	uncount(c);
	bufferevent_disable(c->bev, EV_READ | EV_WRITE);
	event_del(c->timer);
	server_conn_closed(c->srv, c);
}

void conn_close(struct conn *c, const char *reason)
{
	if (c->state >= CONN_CLOSING)
		return;
	log_info("conn %llu (%s): closing: %s", (unsigned long long)c->id, c->addr, reason);
	session_detach(c->session);
	bool handshaking = c->state == CONN_HANDSHAKE;
	c->state = CONN_CLOSING;
	bufferevent_disable(c->bev, EV_READ);
	/* What the pass queued still goes out, after the pass commits (conn_flush). */
	if (handshaking || (!evbuffer_get_length(c->pending) && !conn_holding(c) &&
	    !evbuffer_get_length(bufferevent_get_output(c->bev)))) {
		finish(c);
		return;
	}
	bufferevent_setwatermark(c->bev, EV_WRITE, 0, 0);
	c->drain_at = server_now_ms(c->srv) + LIMIT_CLOSE_DRAIN_MS;
	schedule(c);
}

void conn_abort(struct conn *c, const char *reason)
{
	uncount(c);
	if (c->state == CONN_CLOSED)
		return;
	log_info("conn %llu (%s): dropped: %s", (unsigned long long)c->id, c->addr, reason);
	session_detach(c->session);
	evbuffer_drain(c->pending, evbuffer_get_length(c->pending));
	c->state = CONN_CLOSED;
	bufferevent_disable(c->bev, EV_READ | EV_WRITE);
	event_del(c->timer);
	server_conn_closed(c->srv, c);
}

bool conn_closing(const struct conn *c)
{
	return c->state >= CONN_CLOSING;
}

bool conn_hung_up(const struct conn *c)
{
	return c->hung_up;
}

/*
 * Behind: more waiting than the soft limit, or, while the server as a
 * whole is over its budget, anything waiting at all.  Over the budget
 * every client gets at most one line of chat per pass, so the total can
 * pass the budget by no more than that until the pass ends and the
 * furthest behind are dropped.
 */
bool conn_backlogged(const struct conn *c)
{
	const struct limits *lim = limits_of(c);
	size_t waiting = c->queued.bytes + c->queued.other;

	if (waiting > (size_t)lim->output_soft_bytes)
		return true;
	return waiting && backlog_total(server_backlog(c->srv)) > (size_t)lim->output_total_bytes;
}

void conn_skip_chat(struct conn *c)
{
	c->chat_skipped++;
}

/*
 * While input is held the server owes the client an answer (a password
 * hashing, a login delay): the idle timer counts only the time after it.
 */
void conn_hold_input(struct conn *c, bool hold)
{
	if (c->hold && !hold && !c->logged_in)
		c->idle_at = server_now_ms(c->srv) + limits_of(c)->unauth_idle_ms;
	c->hold = hold;
	update_reading(c);
	if (c->state == CONN_OPEN || c->state == CONN_HANDSHAKE)
		schedule(c);
	if (!hold && c->state == CONN_OPEN)
		process_input(c);
}

void conn_wake_at(struct conn *c, int64_t at_ms)
{
	c->wake_at = at_ms;
	schedule(c);
}

void conn_logged_in(struct conn *c)
{
	c->logged_in = true;
	schedule(c);
}

bool conn_timeseal(const struct conn *c)
{
	return c->timeseal.on;
}

int conn_ping(struct conn *c, int tag)
{
	if (c->state != CONN_OPEN || timeseal_ping(&c->timeseal, server_now_ms(c->srv), tag) < 0)
		return -1;
	conn_write_raw(c, TIMESEAL_PING, sizeof TIMESEAL_PING - 1);
	return 0;
}

int64_t conn_rtt_ms(const struct conn *c, bool *from_timeseal)
{
	*from_timeseal = c->timeseal.on;
	if (c->timeseal.on)
		return c->rtt_count ? c->rtt_total_ms / c->rtt_count : -1;
	/* The kernel's smoothed estimate from the ACKs of what we sent (microseconds). */
	struct tcp_info info;
	socklen_t len = sizeof info;
	if (getsockopt(bufferevent_getfd(c->bev), IPPROTO_TCP, TCP_INFO, &info, &len) < 0)
		return -1;
	return (int64_t)(info.tcpi_rtt + 500) / 1000;
}

const char *conn_address(const struct conn *c) { return c->addr; }
bool conn_is_tls(const struct conn *c) { return c->tls; }
uint64_t conn_id(const struct conn *c) { return c->id; }
struct session *conn_session(const struct conn *c) { return c->session; }
struct server *conn_server(const struct conn *c) { return c->srv; }

/*
 * Takes a token from the command bucket.  With none left, reading stops
 * until the next token is due: the client is slowed down, nothing dropped.
 */
static bool take_token(struct conn *c)
{
	const struct limits *lim = limits_of(c);
	int64_t now = server_now_ms(c->srv);

	c->tokens += (double)(now - c->tokens_at) * lim->commands_per_sec / 1000.0;
	if (c->tokens > lim->command_burst)
		c->tokens = lim->command_burst;
	c->tokens_at = now;
	if (c->tokens >= 1.0) {
		c->tokens -= 1.0;
		return true;
	}
	c->rate_paused = true;
	c->rate_resume_at = now + 1 + (int64_t)((1.0 - c->tokens) * 1000.0 / lim->commands_per_sec);
	update_reading(c);
	schedule(c);
	return false;
}

/*
 * Handles the complete lines buffered, at most lines_per_pass of them: the
 * rest wait for the timer, which fires on the next pass of the loop, after
 * signals and every other client's turn.
 */
static void process_input(struct conn *c)
{
	struct evbuffer *in = bufferevent_get_input(c->bev);
	const size_t limit = (size_t)limits_of(c)->line_bytes;
	int handled = 0;

	while (c->state == CONN_OPEN && !c->hold && !c->rate_paused && !c->output_full) {
		size_t eol_len = 0;
		struct evbuffer_ptr eol = evbuffer_search_eol(in, NULL, &eol_len, EVBUFFER_EOL_LF);
		size_t buffered = evbuffer_get_length(in);

		if (eol.pos < 0) {
			/* Every line the client sent before hanging up has run. */
			if (c->hung_up) {
				conn_close(c, "disconnected");
				return;
			}
			/* No TLS read watermark in libevent 2.1: cap partial lines here. */
			if (buffered > limit) {
				if (!c->discarding)
					session_error(c->session, "Line too long (more than %zu bytes); ignored.",
					    limit);
				c->discarding = true;
				evbuffer_drain(in, buffered);
			}
			return;
		}
		size_t line_len = (size_t)eol.pos;
		/* The limit is on the text: a \r before the \n does not count. */
		char last = 0;
		if (line_len) {
			struct evbuffer_ptr at;
			evbuffer_ptr_set(in, &at, line_len - 1, EVBUFFER_PTR_SET);
			evbuffer_copyout_from(in, &at, &last, 1);
		}
		size_t text_len = line_len - (last == '\r');
		if (c->discarding || text_len > limit) {
			if (!c->discarding)
				session_error(c->session, "Line too long (more than %zu bytes); ignored.", limit);
			c->discarding = false;
			evbuffer_drain(in, line_len + eol_len);
			continue;
		}
		if (handled++ == limits_of(c)->lines_per_pass) {
			/* Nothing more is read meanwhile: what waits stays what was read. */
			c->more_input = true;
			update_reading(c);
			schedule(c);
			return;
		}
		if (!take_token(c))
			return;
		char line[line_len + 1];
		evbuffer_remove(in, line, line_len);
		evbuffer_drain(in, eol_len);
		if (line_len && line[line_len - 1] == '\r')
			line_len--;
		/* A timeseal client's lines are decoded before anything else looks at them. */
		switch (timeseal_input(&c->timeseal, line, &line_len, server_now_ms(c->srv))) {
		case TIMESEAL_HELLO_LINE:
		case TIMESEAL_GARBAGE:
			continue;
		case TIMESEAL_PONG:
			if (c->timeseal.rtt_ms >= 0 && c->rtt_count < INT_MAX) {
				c->rtt_total_ms += c->timeseal.rtt_ms;
				c->rtt_count++;
			}
			session_pong(c->session, c->timeseal.pong_tag, c->timeseal.client_ms);
			continue;
		case TIMESEAL_PLAIN:
		case TIMESEAL_COMMAND:
			break;
		}
		line_len = text_sanitize(line, line_len);
		if (!c->logged_in) {
			c->idle_at = server_now_ms(c->srv) + limits_of(c)->unauth_idle_ms;
			schedule(c);
		}
		session_set_client_ms(c->session, c->timeseal.on ? c->timeseal.client_ms : -1);
		session_line(c->session, line, line_len);
	}
}

static void read_cb(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;

	(void)bev;
	if (c->hold)
		update_reading(c);
	process_input(c);
}

static void write_cb(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;

	if (c->state == CONN_CLOSING) {
		if (!evbuffer_get_length(bufferevent_get_output(bev)) && !conn_holding(c))
			finish(c);
		return;
	}
	if (c->output_full) {
		c->output_full = false;
		bufferevent_setwatermark(bev, EV_WRITE, 0, 0);
		update_reading(c);
		process_input(c);
	}
}

/* Describes a TLS failure; a peer that just vanished is an ordinary disconnect. */
static const char *tls_failure(char *buf, size_t len)
{
	unsigned long e = ERR_get_error(), next;

	while ((next = ERR_get_error()))
		e = next;
	if (!e || ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING)
		return "disconnected";
	ERR_error_string_n(e, buf, len);
	return buf;
}

static void event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct conn *c = arg;
	char why[160];

	(void)bev;
	if (what & BEV_EVENT_CONNECTED) {
		/* TLS handshake done. */
		c->state = CONN_OPEN;
		schedule(c);
		session_start(c->session);
		return;
	}
	if ((what & BEV_EVENT_EOF) && c->hold) {
		/* Its held lines still run (a login script may send and hang up). */
		c->hung_up = true;
		update_reading(c);
	} else if (what & BEV_EVENT_EOF) {
		conn_abort(c, "disconnected");
	} else if (what & BEV_EVENT_ERROR) {
		if (c->tls)
			conn_abort(c, tls_failure(why, sizeof why));
		else
			conn_abort(c, EVUTIL_SOCKET_ERROR() ? evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()) :
			    "socket error");
	}
}

static void timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	int64_t now = server_now_ms(c->srv);

	(void)fd;
	(void)what;
	if (c->state == CONN_CLOSED)
		return;
	if (c->state == CONN_CLOSING) {
		if (now >= c->drain_at)
			conn_abort(c, "output did not drain in time");
		return;
	}
	if (c->state == CONN_HANDSHAKE && now >= c->handshake_at) {
		conn_abort(c, "TLS handshake timeout");
		return;
	}
	if (!c->logged_in && (now >= c->login_at || (!c->hold && now >= c->idle_at))) {
		conn_puts(c, now >= c->login_at ? "**** LOGIN TIMEOUT ****\n" :
		    "**** Idle too long before logging in ****\n");
		conn_close(c, now >= c->login_at ? "login timeout" : "idle before login");
		return;
	}
	if (c->wake_at && now >= c->wake_at) {
		c->wake_at = 0;
		session_wake(c->session);
	}
	bool resume = c->more_input;
	c->more_input = false;
	if (c->rate_paused && now >= c->rate_resume_at) {
		c->rate_paused = false;
		resume = true;
	}
	if (resume) {
		update_reading(c);
		process_input(c);
	}
	if (c->state == CONN_OPEN || c->state == CONN_HANDSHAKE)
		schedule(c);
}
