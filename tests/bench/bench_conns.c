/*
 * bench-conns: chessd's memory per idle logged-in connection, plain and TLS,
 * next to a bare libevent line server (the floor) run the same way on this
 * machine.
 *   bench-conns [--chessd PATH] [--connections N] [--plain-only|--tls-only]
 * Each run starts a fresh server as a child, reads its VmRSS, opens N
 * connections over 127.0.0.1 (guests logged in for chessd, one line
 * answered for the bare server), lets it settle and reads VmRSS again.
 * Exit 0 when every run completed (targets are for reading), 1 when a run
 * failed (refused or dropped connections, a server that died), 2 on bad
 * arguments or when a server cannot be started.
 * "--bare-server plain|tls" is internal: the bare server, run by exec so
 * that its memory starts clean.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#define CONNECTIONS_DEFAULT 10000
#define CONNECTIONS_MAX 500000
/* Descriptors beyond the connections: listeners, logs, the database, pipes. */
#define FD_SPARE 100
/* Connections logging in (or handshaking) at once. */
#define IN_FLIGHT_MAX 200
#define SETTLE_MS 1000
#define READY_TIMEOUT_MS 20000
/* A run fails when no connection made progress for this long. */
#define STALL_TIMEOUT_MS 30000
#define STOP_TIMEOUT_MS 10000
#define TICK_MS 100
#define TARGET_PLAIN_KB 4.0
#define TARGET_TLS_KB 20.0
#define BARE_REPLY "ok\n"
#define LOG_ISSUES_SHOWN 3
/* Server output kept while waiting for an expected text. */
#define UNMATCHED_MAX 4096

enum server_kind { SERVER_CHESSD, SERVER_BARE };

/* What a client waits for next. */
enum client_state {
	CLIENT_CONNECTING,	/* TCP connect, then the TLS handshake */
	CLIENT_LOGIN,		/* chessd: "login: " */
	CLIENT_CONFIRM,		/* chessd: "Press return to enter the server as ..." */
	CLIENT_PROMPT,		/* chessd: "fics% " */
	CLIENT_ANSWER,		/* bare: the answer to our line */
	CLIENT_IDLE,		/* logged in: measured */
	CLIENT_CLOSED,		/* failed or dropped */
};

struct run;

struct client {
	struct run *run;
	struct bufferevent *bev;
	enum client_state state;
};

/* One measurement: N connections to one server. */
struct run {
	enum server_kind kind;
	bool tls;
	pid_t server_pid;
	struct event_base *base;
	struct event *tick;
	SSL_CTX *ssl_ctx;		/* client side; NULL for plain */
	struct sockaddr_in addr;
	struct client *clients;
	int n, started, in_flight, logged_in, failed, dropped, relogins;
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

/* What the exit path must stop and remove, even after an error. */
static pid_t live_child = -1;
static char live_dir[PATH_MAX];
static volatile sig_atomic_t interrupted;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_live_dir(void)
{
	if (!live_dir[0])
		return;
	nftw(live_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	live_dir[0] = '\0';
}

/* Kills the server of the moment for good. */
static void kill_live_child(void)
{
	if (live_child <= 0)
		return;
	kill(live_child, SIGKILL);
	waitpid(live_child, NULL, 0);
	live_child = -1;
}

static void cleanup_at_exit(void)
{
	kill_live_child();
	remove_live_dir();
}

/* Ctrl-C and friends: the child goes at once, the loops notice the flag. */
static void on_signal(int sig)
{
	interrupted = sig;
	if (live_child > 0)
		kill(live_child, SIGKILL);
}

static long rss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "VmRSS:", 6)) {
			kb = strtol(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

static int open_fds(pid_t pid)
{
	char path[64];
	int count = 0;

	snprintf(path, sizeof path, "/proc/%ld/fd", (long)pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			count++;
	closedir(d);
	return count;
}

/* A port on 127.0.0.1 nobody listens on right now. */
static int free_port(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof sin;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int port = -1;

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sin, sizeof sin) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sin, &len) == 0)
		port = ntohs(sin.sin_port);
	close(fd);
	return port;
}

/* The exit status of a child that has ended, as words. */
static void describe_status(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "ended (status %#x)", status);
}

/*
 * Forks a child that runs argv with stdout and stderr on out_fd: it may
 * open as many descriptors as the hard limit allows (whatever it does with
 * its own limit), and the kernel kills it if we die first.
 */
static pid_t spawn(char *const argv[], int out_fd)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	signal(SIGPIPE, SIG_DFL);
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(out_fd, STDOUT_FILENO);
	dup2(out_fd, STDERR_FILENO);
	execv(argv[0], argv);
	dprintf(STDERR_FILENO, "bench-conns: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Sends SIGTERM and waits for the child to end; SIGKILL after the deadline. */
static int stop_child(pid_t pid, double *took_s, char *how, size_t howlen)
{
	int status = 0;
	double start = now_s();

	kill(pid, SIGTERM);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now_s() - start > STOP_TIMEOUT_MS / 1000.0) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(how, howlen, "did not stop within %d ms of SIGTERM; killed",
			    STOP_TIMEOUT_MS);
			live_child = -1;
			*took_s = now_s() - start;
			return -1;
		}
		sleep_ms(10);
	}
	live_child = -1;
	*took_s = now_s() - start;
	describe_status(status, how, howlen);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* --- the servers --- */

static bool file_contains(const char *path, const char *needle)
{
	char line[2048];
	bool found = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof line, f))
		found = strstr(line, needle) != NULL;
	fclose(f);
	return found;
}

/* The last line of a file (a dying server's last words), into buf. */
static void last_line(const char *path, char *buf, size_t len)
{
	char line[2048];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof line, f))
		if (line[0] != '\n')
			snprintf(buf, len, "%.*s", (int)strcspn(line, "\n"), line);
	fclose(f);
}

/*
 * Starts chessd on two free ports with a fresh data directory and a
 * configuration that lets n clients from one address in, log in at their
 * own pace and send as fast as they like; waits for "chessd ready".
 */
static int chessd_start(const char *chessd, int n, pid_t *pid, int *port, int *tls_port,
    char *log_path, size_t log_len, char *why, size_t whylen)
{
	const char *tmp = getenv("TMPDIR");
	char conf[PATH_MAX + 16], data[PATH_MAX + 16], ports[2][16];

	snprintf(live_dir, sizeof live_dir, "%s/bench-conns.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(live_dir)) {
		snprintf(why, whylen, "cannot create a directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
		    strerror(errno));
		live_dir[0] = '\0';
		return -1;
	}
	snprintf(conf, sizeof conf, "%s/chessd.conf", live_dir);
	snprintf(data, sizeof data, "%s/data", live_dir);
	snprintf(log_path, log_len, "%s/chessd.log", live_dir);
	FILE *f = fopen(conf, "w");
	if (!f) {
		snprintf(why, whylen, "cannot write %.150s: %s", conf, strerror(errno));
		return -1;
	}
	fprintf(f,
	    "clients = %d\n"
	    "clients_per_address = %d\n"
	    "commands_per_sec = 100000\n"
	    "command_burst = 100000\n"
	    "handshake_ms = 600000\n"
	    "login_ms = 3600000\n"
	    "unauth_idle_ms = 3600000\n", n + FD_SPARE, n + FD_SPARE);
	if (fclose(f) == EOF) {
		snprintf(why, whylen, "cannot write %.150s: %s", conf, strerror(errno));
		return -1;
	}
	*port = free_port();
	*tls_port = free_port();
	if (*port < 0 || *tls_port < 0 || *port == *tls_port) {
		snprintf(why, whylen, "cannot find two free ports on 127.0.0.1");
		return -1;
	}
	snprintf(ports[0], sizeof ports[0], "%d", *port);
	snprintf(ports[1], sizeof ports[1], "%d", *tls_port);
	int log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (log_fd < 0) {
		snprintf(why, whylen, "cannot create %.150s: %s", log_path, strerror(errno));
		return -1;
	}
	char *argv[] = { (char *)chessd, "--data", data, "--port", ports[0], "--tls-port", ports[1],
	    "--bind", "127.0.0.1", "--config", conf, NULL };
	*pid = live_child = spawn(argv, log_fd);
	close(log_fd);
	if (*pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		live_child = -1;
		return -1;
	}
	for (double start = now_s(); !interrupted; sleep_ms(20)) {
		int status;
		if (waitpid(*pid, &status, WNOHANG) == *pid) {
			char how[96], last[160];
			live_child = -1;
			describe_status(status, how, sizeof how);
			last_line(log_path, last, sizeof last);
			snprintf(why, whylen, "chessd %s before it was ready%s%s", how,
			    last[0] ? ": " : "", last);
			return -1;
		}
		if (file_contains(log_path, "chessd ready"))
			return 0;
		if (now_s() - start > READY_TIMEOUT_MS / 1000.0) {
			snprintf(why, whylen, "chessd not ready after %d ms", READY_TIMEOUT_MS);
			return -1;
		}
	}
	snprintf(why, whylen, "interrupted");
	return -1;
}

/* Starts this program as the bare server and reads the port it listens on. */
static int bare_start(bool tls, pid_t *pid, int *port, char *why, size_t whylen)
{
	char self[PATH_MAX], line[64];
	int fds[2];

	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len < 0) {
		snprintf(why, whylen, "cannot read /proc/self/exe: %s", strerror(errno));
		return -1;
	}
	self[len] = '\0';
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return -1;
	}
	char *argv[] = { self, "--bare-server", tls ? "tls" : "plain", NULL };
	*pid = live_child = spawn(argv, fds[1]);
	close(fds[1]);
	if (*pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		live_child = -1;
		close(fds[0]);
		return -1;
	}
	struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
	size_t have = 0;
	double start = now_s();
	*port = -1;
	while (*port < 0 && !interrupted && now_s() - start < READY_TIMEOUT_MS / 1000.0) {
		if (poll(&pfd, 1, TICK_MS) <= 0)
			continue;
		ssize_t got = read(fds[0], line + have, sizeof line - 1 - have);
		if (got <= 0)
			break;
		have += (size_t)got;
		line[have] = '\0';
		if (strchr(line, '\n') && sscanf(line, "port %d", port) != 1)
			break;
	}
	close(fds[0]);
	if (*port <= 0) {
		snprintf(why, whylen, "the bare server did not report its port%s%.*s",
		    have ? ": " : "", (int)strcspn(line, "\n"), have ? line : "");
		return -1;
	}
	return 0;
}

/* --- the clients --- */

static void client_start(struct run *r);

/*
 * Drains input through needle; false if it has not come yet.  What is
 * there stays (a refusal is quoted from it), within a bound.
 */
static bool consume_through(struct evbuffer *in, const char *needle)
{
	size_t len = strlen(needle), have = evbuffer_get_length(in);
	struct evbuffer_ptr at = evbuffer_search(in, needle, len, NULL);

	if (at.pos < 0) {
		if (have > UNMATCHED_MAX)
			evbuffer_drain(in, have - len + 1);
		return false;
	}
	evbuffer_drain(in, (size_t)at.pos + len);
	return true;
}

static void run_progress(struct run *r)
{
	r->last_progress_s = now_s();
	r->in_flight--;
	while (r->in_flight < IN_FLIGHT_MAX && r->started < r->n && !r->broken)
		client_start(r);
	if (r->logged_in + r->failed == r->n) {
		r->done_s = now_s();
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

/* The guest login dialogue of session.c, one step per expected text. */
static void chessd_read(struct client *c)
{
	struct evbuffer *in = bufferevent_get_input(c->bev);

	for (;;) {
		switch (c->state) {
		case CLIENT_LOGIN:
			if (!consume_through(in, "login: "))
				return;
			client_send(c, "guest\n");
			c->state = CLIENT_CONFIRM;
			break;
		case CLIENT_CONFIRM:
			if (!consume_through(in, "Press return"))
				return;
			client_send(c, "\n");
			c->state = CLIENT_PROMPT;
			break;
		case CLIENT_PROMPT: {
			/* Two guests offered the same name: the later is asked again. */
			struct evbuffer_ptr login = evbuffer_search(in, "login: ", 7, NULL);
			struct evbuffer_ptr prompt = evbuffer_search(in, "fics% ", 6, NULL);
			if (login.pos >= 0 && (prompt.pos < 0 || login.pos < prompt.pos)) {
				c->run->relogins++;
				c->state = CLIENT_LOGIN;
				break;
			}
			if (prompt.pos < 0)
				return;
			evbuffer_drain(in, evbuffer_get_length(in));
			client_logged_in(c);
			return;
		}
		default:
			evbuffer_drain(in, evbuffer_get_length(in));
			return;
		}
	}
}

static void bare_client_read(struct client *c)
{
	struct evbuffer *in = bufferevent_get_input(c->bev);

	if (c->state == CLIENT_ANSWER && consume_through(in, "\n")) {
		evbuffer_drain(in, evbuffer_get_length(in));
		client_logged_in(c);
		return;
	}
	if (c->state != CLIENT_ANSWER)
		evbuffer_drain(in, evbuffer_get_length(in));
}

static void client_read_cb(struct bufferevent *bev, void *arg)
{
	struct client *c = arg;

	(void)bev;
	if (c->run->kind == SERVER_CHESSD)
		chessd_read(c);
	else
		bare_client_read(c);
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
		[CLIENT_CONNECTING] = "connecting", [CLIENT_LOGIN] = "waiting for login:",
		[CLIENT_CONFIRM] = "waiting for Press return", [CLIENT_PROMPT] = "waiting for fics%",
		[CLIENT_ANSWER] = "waiting for the answer", [CLIENT_IDLE] = "idle after login",
		[CLIENT_CLOSED] = "closed",
	};
	char detail[sizeof text + 64];
	snprintf(detail, sizeof detail, "%s (%s)", text, stage[c->state]);
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
	if (r->tls) {
		SSL *ssl = SSL_new(r->ssl_ctx);
		if (ssl)
			c->bev = bufferevent_openssl_socket_new(r->base, -1, ssl,
			    BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
		if (c->bev)
			bufferevent_openssl_set_allow_dirty_shutdown(c->bev, 1);
		else if (ssl)
			SSL_free(ssl);
	} else {
		c->bev = bufferevent_socket_new(r->base, -1, BEV_OPT_CLOSE_ON_FREE);
	}
	if (!c->bev) {
		client_cannot_start(c, "cannot create a bufferevent");
		return;
	}
	bufferevent_setcb(c->bev, client_read_cb, NULL, client_event_cb, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	if (bufferevent_socket_connect(c->bev, (struct sockaddr *)&r->addr, sizeof r->addr) < 0) {
		snprintf(why, sizeof why, "connection %d: connect: %s", r->started, strerror(errno));
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
	int status;

	(void)fd;
	(void)what;
	if (interrupted) {
		snprintf(r->why, sizeof r->why, "interrupted by signal %d", (int)interrupted);
		r->broken = true;
	} else if (waitpid(r->server_pid, &status, WNOHANG) == r->server_pid) {
		char how[96];
		live_child = -1;
		describe_status(status, how, sizeof how);
		snprintf(r->why, sizeof r->why, "the server %s", how);
		r->broken = true;
	} else if (r->logged_in + r->failed < r->n &&
	    now_s() - r->last_progress_s > STALL_TIMEOUT_MS / 1000.0) {
		int waiting[CLIENT_CLOSED + 1] = { 0 };
		for (int i = 0; i < r->started; i++)
			waiting[r->clients[i].state]++;
		snprintf(r->why, sizeof r->why, "no progress for %d ms: %d connecting, %d at login:, "
		    "%d at Press return, %d at the prompt, %d waiting for an answer, %d not started",
		    STALL_TIMEOUT_MS, waiting[CLIENT_CONNECTING], waiting[CLIENT_LOGIN],
		    waiting[CLIENT_CONFIRM], waiting[CLIENT_PROMPT], waiting[CLIENT_ANSWER],
		    r->n - r->started);
		r->broken = true;
	}
	if (r->broken)
		event_base_loopbreak(r->base);
}

static SSL_CTX *client_ssl_ctx(void)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());

	if (!ctx)
		return NULL;
	/* The certificates are throwaway self-signed ones: no verification. */
	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	return ctx;
}

static int count_log_issues(const char *log_path, char shown[][200], int max_shown)
{
	char line[2048];
	int count = 0;
	FILE *f = fopen(log_path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		if (!strstr(line, "Z warn ") && !strstr(line, "Z error "))
			continue;
		if (count < max_shown)
			snprintf(shown[count], sizeof shown[0], "%.*s", (int)strcspn(line, "\n"), line);
		count++;
	}
	fclose(f);
	return count;
}

/*
 * One run: start the server, read its RSS, bring n clients to idle, let it
 * settle, read its RSS again, then close the clients and stop the server.
 */
static void run_measure(enum server_kind kind, bool tls, const char *chessd, int n,
    struct result *res)
{
	struct run r = { .kind = kind, .tls = tls, .n = n };
	char log_path[PATH_MAX + 16] = "";
	int port = -1, tls_port = -1;

	memset(res, 0, sizeof *res);
	res->ran = true;
	int started = kind == SERVER_CHESSD ?
	    chessd_start(chessd, n, &r.server_pid, &port, &tls_port, log_path, sizeof log_path,
	    res->why, sizeof res->why) :
	    bare_start(tls, &r.server_pid, &port, res->why, sizeof res->why);
	if (started < 0)
		goto out;
	res->rss_before_kb = rss_kb(r.server_pid);
	r.addr.sin_family = AF_INET;
	r.addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r.addr.sin_port = htons((uint16_t)(kind == SERVER_CHESSD && tls ? tls_port : port));
	r.base = event_base_new();
	r.clients = calloc((size_t)n, sizeof *r.clients);
	r.tick = r.base ? event_new(r.base, -1, EV_PERSIST, tick_cb, &r) : NULL;
	if (tls && !(r.ssl_ctx = client_ssl_ctx())) {
		snprintf(res->why, sizeof res->why, "cannot create the client TLS context");
		goto out;
	}
	if (!r.base || !r.clients || !r.tick) {
		snprintf(res->why, sizeof res->why, "out of memory for the clients");
		goto out;
	}
	struct timeval tick = { 0, TICK_MS * 1000 };
	event_add(r.tick, &tick);

	r.start_s = r.last_progress_s = now_s();
	while (r.started < n && r.in_flight < IN_FLIGHT_MAX && !r.broken)
		client_start(&r);
	if (!r.broken && r.logged_in + r.failed < n)
		event_base_dispatch(r.base);
	res->logged_in = r.logged_in;
	res->login_s = (r.done_s ? r.done_s : now_s()) - r.start_s;
	if (!r.broken) {
		struct timeval settle = { SETTLE_MS / 1000, (SETTLE_MS % 1000) * 1000 };
		event_base_loopexit(r.base, &settle);
		event_base_dispatch(r.base);
	}
	if (!r.broken) {
		res->rss_after_kb = rss_kb(r.server_pid);
		res->server_fds = open_fds(r.server_pid);
	}
	for (int i = 0; i < r.started; i++)
		res->open_at_measure += r.clients[i].state == CLIENT_IDLE;
	if (r.failed || r.dropped || r.broken)
		snprintf(res->why, sizeof res->why, "%d of %d logged in, %d failed, %d dropped when "
		    "idle; %.160s", r.logged_in, n, r.failed, r.dropped, r.why[0] ? r.why : "?");
	res->ok = !r.broken && !r.failed && !r.dropped && res->rss_before_kb > 0 &&
	    res->rss_after_kb > 0;
	res->relogins = r.relogins;
out:
	if (r.clients) {
		for (int i = 0; i < r.started; i++)
			if (r.clients[i].bev)
				bufferevent_free(r.clients[i].bev);
		free(r.clients);
	}
	if (r.tick)
		event_free(r.tick);
	if (r.base)
		event_base_free(r.base);
	SSL_CTX_free(r.ssl_ctx);
	if (live_child > 0) {
		char how[128];
		double took;
		if (stop_child(live_child, &took, how, sizeof how) < 0 && kind == SERVER_CHESSD &&
		    !interrupted) {
			fprintf(stderr, "bench-conns: chessd on SIGTERM: %s (after %.2f s)\n", how, took);
			res->ok = false;
		}
	}
	if (log_path[0]) {
		char shown[LOG_ISSUES_SHOWN][200];
		res->log_issues = count_log_issues(log_path, shown, LOG_ISSUES_SHOWN);
		for (int i = 0; i < res->log_issues && i < LOG_ISSUES_SHOWN; i++)
			fprintf(stderr, "bench-conns: chessd %s log: %s\n", tls ? "TLS" : "plain", shown[i]);
		if (res->log_issues > LOG_ISSUES_SHOWN)
			fprintf(stderr, "bench-conns: ... %d warnings and errors in all\n", res->log_issues);
	}
	remove_live_dir();
}

/* --- the bare server (child) --- */

static void bare_read_cb(struct bufferevent *bev, void *arg)
{
	struct evbuffer *in = bufferevent_get_input(bev);

	(void)arg;
	for (;;) {
		size_t eol_len = 0;
		struct evbuffer_ptr eol = evbuffer_search_eol(in, NULL, &eol_len, EVBUFFER_EOL_LF);
		if (eol.pos < 0)
			return;
		evbuffer_drain(in, (size_t)eol.pos + eol_len);
		bufferevent_write(bev, BARE_REPLY, sizeof BARE_REPLY - 1);
	}
}

static void bare_event_cb(struct bufferevent *bev, short what, void *arg)
{
	(void)arg;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		bufferevent_free(bev);
}

static void bare_accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int len, void *arg)
{
	SSL_CTX *ctx = arg;
	struct event_base *base = evconnlistener_get_base(l);
	struct bufferevent *bev = NULL;

	(void)sa;
	(void)len;
	if (ctx) {
		SSL *ssl = SSL_new(ctx);
		if (ssl && !(bev = bufferevent_openssl_socket_new(base, fd, ssl,
		    BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE)))
			SSL_free(ssl);
		if (bev)
			bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
	} else {
		bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
	}
	if (!bev) {
		close(fd);
		return;
	}
	bufferevent_setcb(bev, bare_read_cb, NULL, bare_event_cb, NULL);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
}

static void bare_accept_error_cb(struct evconnlistener *l, void *arg)
{
	(void)l;
	(void)arg;
	fprintf(stderr, "bench-conns: bare server: accept: %s\n",
	    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
}

/*
 * A TLS context with a self-signed EC P-256 certificate made in memory,
 * set up as chessd's tls.c sets up its own (released buffers, no tickets, no
 * session cache), so the difference in the figures is chessd's.
 */
static SSL_CTX *bare_ssl_ctx(void)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	bool ok = key && x && ctx;

	if (ok) {
		X509_NAME *name = X509_get_subject_name(x);
		ok = X509_set_version(x, X509_VERSION_3) &&
		    ASN1_INTEGER_set(X509_get_serialNumber(x), 1) &&
		    X509_gmtime_adj(X509_getm_notBefore(x), -3600) &&
		    X509_gmtime_adj(X509_getm_notAfter(x), 86400) &&
		    X509_set_pubkey(x, key) &&
		    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
		    (const unsigned char *)"localhost", -1, -1, 0) &&
		    X509_set_issuer_name(x, name) &&
		    X509_sign(x, key, EVP_sha256()) &&
		    SSL_CTX_use_certificate(ctx, x) == 1 &&
		    SSL_CTX_use_PrivateKey(ctx, key) == 1 &&
		    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	}
	if (ok) {
		SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
		SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_TICKET);
		SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
		SSL_CTX_set_num_tickets(ctx, 0);
	}
	X509_free(x);
	EVP_PKEY_free(key);
	if (!ok) {
		SSL_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

/* The bare server's main: listen on a free port, say which, answer lines until killed. */
static int bare_serve(bool tls)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof sin;
	SSL_CTX *ctx = NULL;

	signal(SIGPIPE, SIG_IGN);
	if (tls && !(ctx = bare_ssl_ctx())) {
		fprintf(stderr, "bench-conns: bare server: cannot make a TLS context\n");
		return 1;
	}
	struct event_base *base = event_base_new();
	struct evconnlistener *l = base ? evconnlistener_new_bind(base, bare_accept_cb, ctx,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC, 512,
	    (struct sockaddr *)&sin, sizeof sin) : NULL;
	if (!l || getsockname(evconnlistener_get_fd(l), (struct sockaddr *)&sin, &len) < 0) {
		fprintf(stderr, "bench-conns: bare server: cannot listen on 127.0.0.1\n");
		return 1;
	}
	evconnlistener_set_error_cb(l, bare_accept_error_cb);
	printf("port %d\n", ntohs(sin.sin_port));
	fflush(stdout);
	event_base_dispatch(base);
	evconnlistener_free(l);
	event_base_free(base);
	SSL_CTX_free(ctx);
	return 0;
}

/* --- main --- */

static int usage(void)
{
	fprintf(stderr, "usage: bench-conns [--chessd PATH] [--connections N] "
	    "[--plain-only|--tls-only]\n");
	return 2;
}

/* build/bin/chessd beside build/bin/bench-conns. */
static void default_chessd(char *path, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n < 0) {
		snprintf(path, len, "chessd");
		return;
	}
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, len, "%.*s/chessd", (int)(len - sizeof "/chessd"), slash ? self : ".");
}

/* Raises our descriptor limit to the hard limit; -1 if that is too few for n. */
static int raise_fd_limit(int n)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -1;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < (rlim_t)n + FD_SPARE) {
		fprintf(stderr, "bench-conns: the open-file hard limit is %llu; %d connections need "
		    "at least %d (raise it: ulimit -Hn, or LimitNOFILE, or limits.conf)\n",
		    (unsigned long long)rl.rlim_max, n, n + FD_SPARE);
		return -1;
	}
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		fprintf(stderr, "bench-conns: cannot raise the open-file limit: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* Bytes per connection still open at the measurement; -1 without one. */
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

	if (argc == 3 && !strcmp(argv[1], "--bare-server") &&
	    (!strcmp(argv[2], "plain") || !strcmp(argv[2], "tls")))
		return bare_serve(!strcmp(argv[2], "tls"));

	default_chessd(chessd, sizeof chessd);
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
	if (raise_fd_limit((int)n) < 0)
		return 2;

	/* A server that vanished must show up as an error, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(cleanup_at_exit);

	printf("bench-conns: %ld idle connections per run over 127.0.0.1, at most %d logging in at "
	    "once\n", n, IN_FLIGHT_MAX);
	printf("chessd: %s (guest logins)\nbare: libevent %s line server, %s\n", chessd,
	    event_get_version(), OpenSSL_version(OPENSSL_VERSION));
	fflush(stdout);

	struct result res[2][2];	/* [tls][bare] */
	memset(res, 0, sizeof res);
	for (int t = 0; t < 2 && !interrupted; t++) {
		if (!(t ? tls : plain))
			continue;
		run_measure(SERVER_CHESSD, t, chessd, (int)n, &res[t][0]);
		if (!res[t][0].ok && !res[t][0].rss_after_kb && !interrupted &&
		    strstr(res[t][0].why, "before it was ready")) {
			fprintf(stderr, "bench-conns: %s\n", res[t][0].why);
			return 2;
		}
		if (!interrupted)
			run_measure(SERVER_BARE, t, chessd, (int)n, &res[t][1]);
	}
	if (interrupted) {
		fprintf(stderr, "bench-conns: interrupted\n");
		return 1;
	}

	printf("\n%-6s %-7s %9s %9s %9s %8s %10s %22s\n", "phase", "server", "RSS0 MiB",
	    "RSS1 MiB", "idle", "fds", "login", "per connection");
	for (int t = 0; t < 2; t++) {
		if (!res[t][0].ran)
			continue;
		print_run(t ? "TLS" : "plain", "chessd", &res[t][0]);
		print_run(t ? "TLS" : "plain", "bare", &res[t][1]);
	}
	printf("\n%-6s %14s %12s %12s   %s\n", "phase", "chessd KB/conn", "bare KB/conn",
	    "chessd/bare", "target");
	if (res[0][0].ran)
		print_summary("plain", &res[0][0], &res[0][1], TARGET_PLAIN_KB);
	if (res[1][0].ran)
		print_summary("TLS", &res[1][0], &res[1][1], TARGET_TLS_KB);
	printf("\nRSS0/RSS1: server VmRSS after start-up and with every connection idle; "
	    "KB = 1024 bytes\n");
	for (int t = 0; t < 2; t++)
		if (res[t][0].relogins)
			printf("chessd %s: %d guests were offered a name another guest took first "
			    "(\"already logged in\") and logged in again\n", t ? "TLS" : "plain",
			    res[t][0].relogins);

	int status = 0;
	for (int t = 0; t < 2; t++)
		for (int s = 0; s < 2; s++)
			if (res[t][s].ran && (!res[t][s].ok || (s == 0 && res[t][s].log_issues)))
				status = 1;
	return status;
}
