/*
 * bench-conns: chessd's memory per idle logged-in connection, plain and TLS,
 * next to a bare libevent line server (the floor) run the same way on this
 * machine.
 *   bench-conns [--chessd PATH] [--connections N] [--plain-only|--tls-only]
 * Each run starts a fresh server as a child, reads its VmRSS, opens N
 * connections over 127.0.0.1 (guests logged in for chessd, one line
 * answered for the bare server), lets it settle for 10 s (a steady state,
 * not the moment the last login ends) and reads VmRSS again.  With TLS it
 * also prints what OpenSSL alone keeps for each idle server SSL (the heap
 * in use, measured in its own process), the part no server can shed.
 * Exit 0 when every run completed (targets are for reading), 1 when a run
 * failed (refused or dropped connections, a server that died), 2 on bad
 * arguments or when a server cannot be started.
 * "--bare-server plain|tls" is internal: the bare server, run by exec so
 * that its memory starts clean.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "bench_server.h"

#define CONNECTIONS_DEFAULT 10000
#define CONNECTIONS_MAX 500000
/* Connections logging in (or handshaking) at once. */
#define IN_FLIGHT_MAX 200
#define SETTLE_MS 10000
/* A run fails when no connection made progress for this long. */
#define STALL_TIMEOUT_MS 30000
#define TICK_MS 100
#define TARGET_PLAIN_KB 4.0
#define TARGET_TLS_KB 12.0
/* Server SSL objects the library's own floor is measured on, and the handshake's bound. */
#define FLOOR_SSLS 200
#define FLOOR_HANDSHAKE_STEPS 64
/* How this program runs itself as the bare server (internal). */
#define BARE_SERVER_OPTION "--bare-server"
/* Server output kept while waiting for an expected text. */
#define UNMATCHED_MAX 4096

enum server_kind { SERVER_CHESSD, SERVER_BARE };

/* What a client waits for next. */
enum client_state {
	CLIENT_CONNECTING,	/* TCP connect, then the TLS handshake */
	CLIENT_LOGIN,		/* chessd: the guest login, as far as login.step */
	CLIENT_ANSWER,		/* bare: the answer to our line */
	CLIENT_IDLE,		/* logged in: measured */
	CLIENT_CLOSED,		/* failed or dropped */
};

/* What a client waits for, in the reasons a run gives. */
enum wait {
	WAIT_CONNECT, WAIT_LOGIN, WAIT_CONFIRM, WAIT_PROMPT, WAIT_ANSWER, WAIT_NOTHING, WAIT_CLOSED,
};

struct run;

struct client {
	struct run *run;
	struct bufferevent *bev;
	enum client_state state;
	struct bench_login login;
};

/* One measurement: N connections to one server. */
struct run {
	enum server_kind kind;
	bool tls;
	struct bench_server *server;
	struct event_base *base;
	struct event *tick;
	struct client *clients;
	int n, started, in_flight, logged_in, failed, dropped;
	double start_s, last_progress_s, done_s;
	bool broken;			/* stalled, interrupted or the server died */
	char why[256];			/* the first failure */
};

/* The figures of one run. */
struct result {
	bool ran, ok;
	long rss_before_kb, rss_after_kb;
	int logged_in, open_at_measure, server_fds, relogins;
	double login_s;
	int log_issues;
	char why[256];
};

/* --- the clients --- */

static void client_start(struct run *r);

static void run_progress(struct run *r)
{
	r->last_progress_s = bench_server_now_s();
	r->in_flight--;
	while (r->in_flight < IN_FLIGHT_MAX && r->started < r->n && !r->broken)
		client_start(r);
	if (r->logged_in + r->failed == r->n) {
		r->done_s = bench_server_now_s();
		event_base_loopbreak(r->base);
	}
}

static void client_logged_in(struct client *c)
{
	c->state = CLIENT_IDLE;
	c->run->logged_in++;
	run_progress(c->run);
}

/* A connection ended or failed; the reason of the first one is kept. */
static void client_lost(struct client *c, const char *fmt, const char *detail)
{
	struct run *r = c->run;
	bool was_idle = c->state == CLIENT_IDLE;

	c->state = CLIENT_CLOSED;
	bufferevent_disable(c->bev, EV_READ | EV_WRITE);
	if (!r->why[0])
		snprintf(r->why, sizeof r->why, fmt, detail);
	if (was_idle) {
		r->dropped++;
		return;
	}
	r->failed++;
	run_progress(r);
}

static void client_send(struct client *c, const char *text)
{
	bufferevent_write(c->bev, text, strlen(text));
}

/* The guest login dialogue of session.c; then nothing more is read. */
static void chessd_read_cb(struct bufferevent *bev, void *arg)
{
	struct client *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	if (c->state == CLIENT_LOGIN && bench_server_guest_login(bev, &c->login, UNMATCHED_MAX)) {
		evbuffer_drain(in, evbuffer_get_length(in));
		client_logged_in(c);
		return;
	}
	if (c->state != CLIENT_LOGIN)
		evbuffer_drain(in, evbuffer_get_length(in));
}

/* The bare server's answer to our line; then nothing more is read. */
static void bare_read_cb(struct bufferevent *bev, void *arg)
{
	struct client *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	if (c->state == CLIENT_ANSWER && bench_server_consume(in, "\n", UNMATCHED_MAX)) {
		evbuffer_drain(in, evbuffer_get_length(in));
		client_logged_in(c);
		return;
	}
	if (c->state != CLIENT_ANSWER)
		evbuffer_drain(in, evbuffer_get_length(in));
}

/* What a client waits for, its login's steps apart. */
static enum wait client_wait(const struct client *c)
{
	static const enum wait login[] = {
		[BENCH_LOGIN_NAME] = WAIT_LOGIN, [BENCH_LOGIN_CONFIRM] = WAIT_CONFIRM,
		[BENCH_LOGIN_PROMPT] = WAIT_PROMPT,
	};

	switch (c->state) {
	case CLIENT_CONNECTING:
		return WAIT_CONNECT;
	case CLIENT_LOGIN:
		return login[c->login.step];
	case CLIENT_ANSWER:
		return WAIT_ANSWER;
	case CLIENT_IDLE:
		return WAIT_NOTHING;
	default:
		return WAIT_CLOSED;
	}
}

static void client_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct client *c = arg;
	char text[160];

	if (c->state == CLIENT_CLOSED)
		return;
	if (what & BEV_EVENT_CONNECTED) {
		if (c->run->kind == SERVER_BARE) {
			c->state = CLIENT_ANSWER;
			client_send(c, "hello\n");
		} else {
			c->state = CLIENT_LOGIN;
		}
		return;
	}
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	unsigned long ssl_err = c->run->tls ? bufferevent_get_openssl_error(bev) : 0;
	if (ssl_err) {
		ERR_error_string_n(ssl_err, text, sizeof text);
	} else if (what & BEV_EVENT_ERROR && EVUTIL_SOCKET_ERROR()) {
		snprintf(text, sizeof text, "%s", evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	} else {
		/* A plain refusal carries the server's reason: show it. */
		struct evbuffer *in = bufferevent_get_input(bev);
		size_t n = evbuffer_get_length(in);
		char said[120];
		if (n > sizeof said - 1)
			n = sizeof said - 1;
		evbuffer_copyout(in, said, n);
		said[n] = '\0';
		for (char *p = said; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		const char *quote = said + strspn(said, " ");
		snprintf(text, sizeof text, "closed by the server%s%s", *quote ? ": " : "", quote);
	}
	static const char *const stage[] = {
		[WAIT_CONNECT] = "connecting", [WAIT_LOGIN] = "waiting for login:",
		[WAIT_CONFIRM] = "waiting for Press return", [WAIT_PROMPT] = "waiting for fics%",
		[WAIT_ANSWER] = "waiting for the answer", [WAIT_NOTHING] = "idle after login",
		[WAIT_CLOSED] = "closed",
	};
	char detail[sizeof text + 64];
	snprintf(detail, sizeof detail, "%s (%s)", text, stage[client_wait(c)]);
	client_lost(c, "connection lost: %s", detail);
}

/* A client that could not even start: the run cannot go on. */
static void client_cannot_start(struct client *c, const char *what)
{
	struct run *r = c->run;

	c->state = CLIENT_CLOSED;
	r->failed++;
	r->in_flight--;
	r->broken = true;
	snprintf(r->why, sizeof r->why, "%s", what);
	event_base_loopbreak(r->base);
}

static void client_start(struct run *r)
{
	struct client *c = &r->clients[r->started++];
	char why[160];

	c->run = r;
	c->state = CLIENT_CONNECTING;
	r->in_flight++;
	c->bev = bench_server_connect(r->server, r->kind == SERVER_CHESSD ? chessd_read_cb :
	    bare_read_cb, client_event_cb, c, why, sizeof why);
	if (!c->bev) {
		client_cannot_start(c, why);
		return;
	}
	/* Our line right after the TLS Finished must not wait for its ACK (Nagle). */
	int one = 1;
	setsockopt(bufferevent_getfd(c->bev), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* Every tick: stop on Ctrl-C, on a server that died and on a stalled run. */
static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct run *r = arg;
	char how[96];

	(void)fd;
	(void)what;
	if (bench_server_interrupted()) {
		snprintf(r->why, sizeof r->why, "interrupted by signal %d", bench_server_interrupted());
		r->broken = true;
	} else if (bench_server_exited(r->server, how, sizeof how)) {
		snprintf(r->why, sizeof r->why, "the server %s", how);
		r->broken = true;
	} else if (r->logged_in + r->failed < r->n &&
	    bench_server_now_s() - r->last_progress_s > STALL_TIMEOUT_MS / 1000.0) {
		int waiting[WAIT_CLOSED + 1] = { 0 };
		for (int i = 0; i < r->started; i++)
			waiting[client_wait(&r->clients[i])]++;
		snprintf(r->why, sizeof r->why, "no progress for %d ms: %d connecting, %d at login:, "
		    "%d at Press return, %d at the prompt, %d waiting for an answer, %d not started",
		    STALL_TIMEOUT_MS, waiting[WAIT_CONNECT], waiting[WAIT_LOGIN],
		    waiting[WAIT_CONFIRM], waiting[WAIT_PROMPT], waiting[WAIT_ANSWER],
		    r->n - r->started);
		r->broken = true;
	}
	if (r->broken)
		event_base_loopbreak(r->base);
}

/*
 * One run: start the server, read its RSS, bring n clients to idle, let it
 * settle, read its RSS again, then close the clients and stop the server.
 */
static void run_measure(enum server_kind kind, bool tls, const char *chessd, int n,
    struct result *res)
{
	struct run r = { .kind = kind, .tls = tls, .n = n, .server = bench_server_new() };
	char how[128];
	double took;

	memset(res, 0, sizeof *res);
	res->ran = true;
	int started = kind == SERVER_CHESSD ?
	    bench_server_start_chessd(r.server, chessd, n, tls, BENCH_READY_LOGGED, res->why,
	    sizeof res->why) :
	    bench_server_start_reference(r.server, BENCH_REPLY_OK, tls, BARE_SERVER_OPTION,
	    res->why, sizeof res->why);
	if (started < 0)
		goto out;
	res->rss_before_kb = bench_server_rss_kb(r.server);
	r.base = bench_server_base(r.server);
	r.clients = calloc((size_t)n, sizeof *r.clients);
	r.tick = event_new(r.base, -1, EV_PERSIST, tick_cb, &r);
	if (!r.clients || !r.tick) {
		snprintf(res->why, sizeof res->why, "out of memory for the clients");
		goto out;
	}
	struct timeval tick = { 0, TICK_MS * 1000 };
	event_add(r.tick, &tick);

	r.start_s = r.last_progress_s = bench_server_now_s();
	while (r.started < n && r.in_flight < IN_FLIGHT_MAX && !r.broken)
		client_start(&r);
	if (!r.broken && r.logged_in + r.failed < n)
		event_base_dispatch(r.base);
	res->logged_in = r.logged_in;
	res->login_s = (r.done_s ? r.done_s : bench_server_now_s()) - r.start_s;
	if (!r.broken) {
		struct timeval settle = { SETTLE_MS / 1000, (SETTLE_MS % 1000) * 1000 };
		event_base_loopexit(r.base, &settle);
		event_base_dispatch(r.base);
	}
	if (!r.broken) {
		res->rss_after_kb = bench_server_rss_kb(r.server);
		res->server_fds = bench_server_open_fds(r.server);
	}
	for (int i = 0; i < r.started; i++)
		res->open_at_measure += r.clients[i].state == CLIENT_IDLE;
	if (r.failed || r.dropped || r.broken)
		snprintf(res->why, sizeof res->why, "%d of %d logged in, %d failed, %d dropped when "
		    "idle; %.160s", r.logged_in, n, r.failed, r.dropped, r.why[0] ? r.why : "?");
	res->ok = !r.broken && !r.failed && !r.dropped && res->rss_before_kb > 0 &&
	    res->rss_after_kb > 0;
	for (int i = 0; i < r.started; i++)
		res->relogins += r.clients[i].login.relogins;
out:
	if (r.tick)
		event_free(r.tick);
	if (bench_server_stop(r.server, &took, how, sizeof how) < 0 && kind == SERVER_CHESSD &&
	    !bench_server_interrupted()) {
		fprintf(stderr, "bench-conns: chessd on SIGTERM: %s (after %.2f s)\n", how, took);
		res->ok = false;
	}
	res->log_issues = bench_server_log_issues(r.server, tls ? "TLS" : "plain");
	bench_server_free(r.server);
	free(r.clients);
}

/* --- the library's floor --- */

/* A handshake between two SSLs over a non-blocking socket pair, then a line each way. */
static bool floor_pair(SSL *server, SSL *client)
{
	char line[16];

	for (int i = 0; i < FLOOR_HANDSHAKE_STEPS; i++) {
		int c = SSL_do_handshake(client), s = SSL_do_handshake(server);
		if (c == 1 && s == 1)
			break;
	}
	/* The client's line read on the server leaves its read buffer released. */
	return SSL_is_init_finished(server) && SSL_write(server, "hello\n", 6) == 6 &&
	    SSL_read(client, line, sizeof line) == 6 && SSL_write(client, "ok\n", 3) == 3 &&
	    SSL_read(server, line, sizeof line) == 3;
}

/*
 * What OpenSSL alone keeps for an idle server connection: the heap in use
 * (malloc's own headers included) that FLOOR_SSLS server SSLs hold after a
 * handshake and a line each way, made in this process over socket pairs
 * with the reference server's context (that of chessd's tls.c), the client
 * ends freed.  No server that keeps one SSL a connection can go below it.
 * Bytes per SSL, or -1 with the reason in why.
 */
static double tls_floor_bytes(char *why, size_t whylen)
{
	SSL_CTX *server_ctx = bench_server_reference_tls();
	SSL_CTX *client_ctx = SSL_CTX_new(TLS_client_method());
	SSL *ssl[FLOOR_SSLS] = { 0 };
	int fds[FLOOR_SSLS][2];
	size_t before = 0;
	double bytes = -1;
	int made = 0;

	if (!server_ctx || !client_ctx) {
		snprintf(why, whylen, "cannot make the TLS contexts");
		goto out;
	}
	SSL_CTX_set_verify(client_ctx, SSL_VERIFY_NONE, NULL);
	/* Round 0 warms the library up (providers, tables); round 1 is measured. */
	for (int round = 0; round < 2; round++) {
		struct mallinfo2 m = mallinfo2();
		before = m.uordblks;
		for (made = 0; made < FLOOR_SSLS; made++) {
			SSL *client;
			if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds[made]) < 0) {
				snprintf(why, whylen, "socketpair: %s", strerror(errno));
				goto out;
			}
			ssl[made] = SSL_new(server_ctx);
			client = SSL_new(client_ctx);
			bool ok = ssl[made] && client && SSL_set_fd(ssl[made], fds[made][0]) &&
			    SSL_set_fd(client, fds[made][1]);
			if (ok) {
				SSL_set_accept_state(ssl[made]);
				SSL_set_connect_state(client);
				ok = floor_pair(ssl[made], client);
			}
			SSL_free(client);
			close(fds[made][1]);
			if (!ok) {
				snprintf(why, whylen, "in-process TLS handshake failed");
				made++;
				goto out;
			}
		}
		if (round == 0) {
			for (int i = 0; i < made; i++) {
				SSL_free(ssl[i]);
				close(fds[i][0]);
			}
			made = 0;
		}
	}
	struct mallinfo2 m = mallinfo2();
	bytes = ((double)m.uordblks - (double)before) / FLOOR_SSLS;
out:
	for (int i = 0; i < made; i++) {
		SSL_free(ssl[i]);
		close(fds[i][0]);
	}
	SSL_CTX_free(server_ctx);
	SSL_CTX_free(client_ctx);
	ERR_clear_error();
	return bytes;
}

/* --- main --- */

static int usage(void)
{
	fprintf(stderr, "usage: bench-conns [--chessd PATH] [--connections N] "
	    "[--plain-only|--tls-only]\n");
	return 2;
}

static double per_conn_bytes(const struct result *res)
{
	if (res->rss_before_kb <= 0 || res->rss_after_kb <= 0 || res->open_at_measure <= 0)
		return -1;
	return (double)(res->rss_after_kb - res->rss_before_kb) * 1024.0 / res->open_at_measure;
}

static void print_run(const char *phase, const char *server, const struct result *res)
{
	double bytes = per_conn_bytes(res);

	if (bytes < 0) {
		printf("%-6s %-7s   FAILED: %s\n", phase, server, res->why);
		return;
	}
	printf("%-6s %-7s %9.1f %9.1f %9d %8d %8.2f s %9.0f B %8.2f KB%s\n", phase, server,
	    res->rss_before_kb / 1024.0, res->rss_after_kb / 1024.0, res->open_at_measure,
	    res->server_fds, res->login_s, bytes, bytes / 1024.0, res->ok ? "" : "  (incomplete)");
	if (!res->ok)
		printf("%-6s %-7s   %s\n", "", "", res->why);
}

static void print_summary(const char *phase, const struct result *ours,
    const struct result *bare, double target_kb)
{
	double a = ours->ok ? per_conn_bytes(ours) / 1024.0 : -1;
	double b = bare->ok ? per_conn_bytes(bare) / 1024.0 : -1;
	char ours_text[16] = "failed", bare_text[16] = "failed", ratio[16] = "-";

	if (a >= 0)
		snprintf(ours_text, sizeof ours_text, "%.2f", a);
	if (b >= 0)
		snprintf(bare_text, sizeof bare_text, "%.2f", b);
	if (a >= 0 && b > 0)
		snprintf(ratio, sizeof ratio, "%.2f", a / b);
	printf("%-6s %14s %12s %12s   <= %2.0f KB  %s\n", phase, ours_text, bare_text, ratio,
	    target_kb, a < 0 ? "-" : a <= target_kb ? "met" : "MISSED");
}

int main(int argc, char **argv)
{
	char chessd[PATH_MAX];
	long n = CONNECTIONS_DEFAULT;
	bool plain = true, tls = true;

	bench_server_init("bench-conns");
	if (argc == 3 && !strcmp(argv[1], BARE_SERVER_OPTION) &&
	    (!strcmp(argv[2], "plain") || !strcmp(argv[2], "tls")))
		return bench_server_serve(BENCH_REPLY_OK, !strcmp(argv[2], "tls"), STDOUT_FILENO);

	bench_server_default_chessd(chessd, sizeof chessd);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--chessd") && i + 1 < argc) {
			snprintf(chessd, sizeof chessd, "%s", argv[++i]);
		} else if (!strcmp(argv[i], "--connections") && i + 1 < argc) {
			char *end;
			errno = 0;
			n = strtol(argv[++i], &end, 10);
			if (errno || *end || n < 1 || n > CONNECTIONS_MAX)
				return usage();
		} else if (!strcmp(argv[i], "--plain-only") && tls && plain) {
			tls = false;
		} else if (!strcmp(argv[i], "--tls-only") && tls && plain) {
			plain = false;
		} else {
			return usage();
		}
	}
	if (access(chessd, X_OK) < 0) {
		fprintf(stderr, "bench-conns: cannot run chessd at %s (build it, or pass --chessd PATH)\n",
		    chessd);
		return 2;
	}
	if (bench_server_raise_fd_limit((int)n) < 0)
		return 2;

	printf("bench-conns: %ld idle connections per run over 127.0.0.1, at most %d logging in at "
	    "once\n", n, IN_FLIGHT_MAX);
	printf("chessd: %s (guest logins)\nbare: libevent %s line server, %s\n", chessd,
	    event_get_version(), OpenSSL_version(OPENSSL_VERSION));
	fflush(stdout);

	char floor_why[160] = "";
	double floor_bytes = tls ? tls_floor_bytes(floor_why, sizeof floor_why) : -1;

	struct result res[2][2];	/* [tls][bare] */
	memset(res, 0, sizeof res);
	for (int t = 0; t < 2 && !bench_server_interrupted(); t++) {
		if (!(t ? tls : plain))
			continue;
		run_measure(SERVER_CHESSD, t, chessd, (int)n, &res[t][0]);
		if (!res[t][0].ok && !res[t][0].rss_after_kb && !bench_server_interrupted() &&
		    strstr(res[t][0].why, "before it was ready")) {
			fprintf(stderr, "bench-conns: %s\n", res[t][0].why);
			return 2;
		}
		if (!bench_server_interrupted())
			run_measure(SERVER_BARE, t, chessd, (int)n, &res[t][1]);
	}
	if (bench_server_interrupted()) {
		fprintf(stderr, "bench-conns: interrupted\n");
		return 1;
	}

	/* Failed: a run that did not complete, or chessd logging warnings or errors. */
	int status = 0;
	printf("\n%-6s %-7s %9s %9s %9s %8s %10s %22s\n", "phase", "server", "RSS0 MiB",
	    "RSS1 MiB", "idle", "fds", "login", "per connection");
	for (int t = 0; t < 2; t++) {
		if (!res[t][0].ran)
			continue;
		print_run(t ? "TLS" : "plain", "chessd", &res[t][0]);
		print_run(t ? "TLS" : "plain", "bare", &res[t][1]);
		if (!res[t][0].ok || res[t][0].log_issues || !res[t][1].ok)
			status = 1;
	}
	printf("\n%-6s %14s %12s %12s   %s\n", "phase", "chessd KB/conn", "bare KB/conn",
	    "chessd/bare", "target");
	if (res[0][0].ran)
		print_summary("plain", &res[0][0], &res[0][1], TARGET_PLAIN_KB);
	if (res[1][0].ran)
		print_summary("TLS", &res[1][0], &res[1][1], TARGET_TLS_KB);
	if (tls && floor_bytes >= 0)
		printf("TLS    floor: OpenSSL %s alone keeps %.0f B (%.2f KB) of heap for each idle "
		    "server SSL (%d, after a handshake and a line each way, in this process)\n",
		    OpenSSL_version(OPENSSL_VERSION_STRING), floor_bytes, floor_bytes / 1024.0,
		    FLOOR_SSLS);
	else if (tls)
		printf("TLS    floor: not measured: %s\n", floor_why);
	printf("\nRSS0/RSS1: server VmRSS after start-up and with every connection idle; "
	    "KB = 1024 bytes\n");
	for (int t = 0; t < 2; t++)
		if (res[t][0].relogins)
			printf("chessd %s: %d guests were offered a name another guest took first "
			    "(\"already logged in\") and logged in again\n", t ? "TLS" : "plain",
			    res[t][0].relogins);
	return status;
}
