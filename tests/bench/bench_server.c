/*
 * bench_server: the server a benchmark measures, run as a child, and the
 * process plumbing around it (see bench_server.h).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "bench_server.h"

/* Descriptors beyond the connections: listeners, logs, the database, pipes. */
#define FD_SPARE 100
#define READY_TIMEOUT_MS 20000
/* chessd adjourns every live game on SIGTERM: thousands take a while on a loaded machine. */
#define STOP_TIMEOUT_MS 60000
/* How often a start-up looks for the reference server's port. */
#define PORT_POLL_MS 50
#define LOG_ISSUES_SHOWN 3
#define REPLY_OK "ok\n"

struct bench_server {
	pid_t pid;			/* kept after the child ended, for its figures */
	bool running;			/* a child not yet waited for */
	char dir[PATH_MAX];		/* chessd's scratch directory, "" for none */
	char log_path[PATH_MAX + 16];	/* chessd's output, "" for none */
	int port;			/* the one the benchmark connects to */
	int plain_port, tls_port;	/* chessd's two, -1 for the reference server */
	char config_extra[1024];	/* lines appended to chessd's configuration */
	struct event_base *base;	/* the benchmark's loop */
	SSL_CTX *client_tls;		/* NULL for plain */
	struct bufferevent **conns;	/* the benchmark's connections */
	size_t conns_count, conns_cap;
};

/* The reference server's state, on the stack of bench_server_serve. */
struct reference {
	SSL_CTX *ctx;			/* NULL for plain */
	enum bench_reply reply;
};

static const char *program = "bench";
/* What the exit path and the signal handler must stop and remove. */
static struct bench_server *current;
static pid_t live_child = -1;
static volatile sig_atomic_t interrupted;

double bench_server_now_s(void)
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

static void child_started(struct bench_server *s, pid_t pid)
{
	s->pid = live_child = pid;
	s->running = pid > 0;
}

static void child_gone(struct bench_server *s)
{
	s->running = false;
	live_child = -1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_dir(struct bench_server *s)
{
	if (!s->dir[0])
		return;
	nftw(s->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	s->dir[0] = '\0';
}

static void cleanup_at_exit(void)
{
	if (!current)
		return;
	bench_server_kill(current);
	remove_dir(current);
}

/* Ctrl-C and friends: the child goes at once, the loops notice the flag. */
static void on_signal(int sig)
{
	interrupted = sig;
	if (live_child > 0)
		kill(live_child, SIGKILL);
}

/*
 * Names the program in messages and scratch directories, and sets up the
 * exit path: a server that vanished shows up as an error rather than
 * killing us; a signal or exit kills the live server and removes its files.
 */
void bench_server_init(const char *name)
{
	struct sigaction sa = { .sa_handler = on_signal };

	program = name;
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(cleanup_at_exit);
}

/* The signal that interrupted us, 0 for none yet. */
int bench_server_interrupted(void)
{
	return (int)interrupted;
}

const char *bench_server_temp_parent(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

/* build/bin/chessd beside the benchmark in build/bin. */
void bench_server_default_chessd(char *path, size_t len)
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

/* Raises our descriptor limit to the hard limit; -1 (said) if that is too few. */
int bench_server_raise_fd_limit(int connections)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -1;
	if (rl.rlim_max != RLIM_INFINITY &&
	    rl.rlim_max < (rlim_t)connections + FD_SPARE) {
		fprintf(stderr, "%s: the open-file hard limit is %llu; %d connections need "
		    "at least %d (raise it: ulimit -Hn, or LimitNOFILE, or limits.conf)\n", program,
		    (unsigned long long)rl.rlim_max, connections, connections + FD_SPARE);
		return -1;
	}
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		fprintf(stderr, "%s: cannot raise the open-file limit: %s\n", program, strerror(errno));
		return -1;
	}
	return 0;
}

/* --- the child --- */

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

/* A free port for a listener of chessd's that the benchmark turns on (the web's). */
int bench_server_free_port(void)
{
	return free_port();
}

/* True once something accepts connections on 127.0.0.1:port. */
static bool listening(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	    .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return false;
	bool ok = connect(fd, (struct sockaddr *)&sin, sizeof sin) == 0;
	close(fd);
	return ok;
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

/* Forks a child that the kernel kills if we die first; fork's value. */
static pid_t fork_child(void)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	return 0;
}

/*
 * Forks a child that runs argv with stdout and stderr on out_fd: it may
 * open as many descriptors as the hard limit allows (whatever it does with
 * its own limit), and the kernel kills it if we die first.
 */
static pid_t spawn(char *const argv[], int out_fd)
{
	pid_t pid = fork_child();

	if (pid != 0)
		return pid;
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(out_fd, STDOUT_FILENO);
	dup2(out_fd, STDERR_FILENO);
	execv(argv[0], argv);
	dprintf(STDERR_FILENO, "%s: cannot run %s: %s\n", program, argv[0], strerror(errno));
	_exit(127);
}

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
 * A server with nothing started yet, and the event loop the benchmark
 * talks to it from.  Free it with bench_server_free whatever its start
 * did: a failed start may leave a child, a log and a directory behind.
 */
struct bench_server *bench_server_new(void)
{
	struct bench_server *s = calloc(1, sizeof *s);

	if (!s || !(s->base = event_base_new())) {
		fprintf(stderr, "%s: out of memory\n", program);
		exit(2);
	}
	s->pid = -1;
	s->port = s->plain_port = s->tls_port = -1;
	current = s;
	return s;
}

struct event_base *bench_server_base(const struct bench_server *s)
{
	return s->base;
}

/* The clients' TLS context: the certificates are throwaway self-signed ones, not verified. */
static int client_tls_make(struct bench_server *s, char *why, size_t whylen)
{
	if (!(s->client_tls = SSL_CTX_new(TLS_client_method()))) {
		snprintf(why, whylen, "cannot create the client TLS context");
		return -1;
	}
	SSL_CTX_set_verify(s->client_tls, SSL_VERIFY_NONE, NULL);
	SSL_CTX_set_mode(s->client_tls, SSL_MODE_RELEASE_BUFFERS);
	SSL_CTX_set_session_cache_mode(s->client_tls, SSL_SESS_CACHE_OFF);
	return 0;
}

/* Writes chessd's configuration: clients from one address, as fast as they like. */
static int write_config(const char *path, int clients, const char *extra, char *why,
    size_t whylen)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		snprintf(why, whylen, "cannot write %.150s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f,
	    "clients = %d\n"
	    "clients_per_address = %d\n"
	    "commands_per_sec = 100000\n"
	    "command_burst = 100000\n"
	    "games_per_minute_per_address = 1000000\n"
	    "handshake_ms = 600000\n"
	    "login_ms = 3600000\n"
	    "unauth_idle_ms = 3600000\n"
	    "http_port = 0\n"		/* no web listeners to collide on their fixed ports */
	    "https_port = 0\n"
	    "%s", clients + FD_SPARE,
	    clients + FD_SPARE, extra);
	if (fclose(f) == EOF) {
		snprintf(why, whylen, "cannot write %.150s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Waits for a started chessd to be up (as ready says), to die or to time out. */
static int chessd_wait(struct bench_server *s, enum bench_ready ready, char *why, size_t whylen)
{
	const char *up = ready == BENCH_READY_LOGGED ? "was ready" : "listened";

	for (double start = bench_server_now_s(); !interrupted; sleep_ms(20)) {
		int status;
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			char how[96], last[160];
			child_gone(s);
			describe_status(status, how, sizeof how);
			last_line(s->log_path, last, sizeof last);
			snprintf(why, whylen, "chessd %s before it %s%s%s", how, up,
			    last[0] ? ": " : "", last);
			return -1;
		}
		if (ready == BENCH_READY_LOGGED ? file_contains(s->log_path, "chessd ready") :
		    listening(s->port))
			return 0;
		if (bench_server_now_s() - start > READY_TIMEOUT_MS / 1000.0) {
			snprintf(why, whylen, "chessd not %s after %d ms",
			    ready == BENCH_READY_LOGGED ? "ready" : "listening", READY_TIMEOUT_MS);
			return -1;
		}
	}
	snprintf(why, whylen, "interrupted");
	return -1;
}

/*
 * Starts chessd on two free ports (the benchmark uses the TLS one or the
 * plain one) with a fresh data directory and a configuration that lets
 * that many clients from one address in, log in at their own pace and send
 * as fast as they like; waits until it is up.
 */
int bench_server_start_chessd(struct bench_server *s, const char *chessd, int clients, bool tls,
    enum bench_ready ready, char *why, size_t whylen)
{
	char conf[PATH_MAX + 16], data[PATH_MAX + 16], ports[2][16];

	snprintf(s->dir, sizeof s->dir, "%s/%s.XXXXXX", bench_server_temp_parent(), program);
	if (!mkdtemp(s->dir)) {
		snprintf(why, whylen, "cannot create a directory in %s: %s",
		    bench_server_temp_parent(), strerror(errno));
		s->dir[0] = '\0';
		return -1;
	}
	snprintf(conf, sizeof conf, "%s/chessd.conf", s->dir);
	snprintf(data, sizeof data, "%s/data", s->dir);
	snprintf(s->log_path, sizeof s->log_path, "%s/chessd.log", s->dir);
	if (write_config(conf, clients, s->config_extra, why, whylen) < 0)
		return -1;
	int port = free_port(), tls_port = free_port();
	if (port < 0 || tls_port < 0 || port == tls_port) {
		snprintf(why, whylen, "cannot find two free ports on 127.0.0.1");
		return -1;
	}
	s->port = tls ? tls_port : port;
	s->plain_port = port;
	s->tls_port = tls_port;
	snprintf(ports[0], sizeof ports[0], "%d", port);
	snprintf(ports[1], sizeof ports[1], "%d", tls_port);
	int log_fd = open(s->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (log_fd < 0) {
		snprintf(why, whylen, "cannot create %.150s: %s", s->log_path, strerror(errno));
		return -1;
	}
	char *argv[] = { (char *)chessd, "--data", data, "--port", ports[0], "--tls-port", ports[1],
	    "--bind", "127.0.0.1", "--config", conf, NULL };
	child_started(s, spawn(argv, log_fd));
	close(log_fd);
	if (s->pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return -1;
	}
	if (chessd_wait(s, ready, why, whylen) < 0)
		return -1;
	return client_tls_make(s, why, whylen);
}

/*
 * A bufferevent on fd (-1: to be connected), TLS in the given state when
 * ctx is not NULL, plain otherwise; NULL on failure.
 */
static struct bufferevent *connection_new(struct event_base *base, evutil_socket_t fd,
    SSL_CTX *ctx, enum bufferevent_ssl_state state)
{
	struct bufferevent *bev = NULL;

	if (!ctx)
		return bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
	SSL *ssl = SSL_new(ctx);
	if (ssl && !(bev = bufferevent_openssl_socket_new(base, fd, ssl, state,
	    BEV_OPT_CLOSE_ON_FREE)))
		SSL_free(ssl);
	if (bev)
		bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
	return bev;
}

/* --- the reference server --- */

/* What the benchmarks call the reference server. */
static const char *reference_name(enum bench_reply reply)
{
	return reply == BENCH_REPLY_OK ? "bare" : "echo";
}

static void reference_read_cb(struct bufferevent *bev, void *arg)
{
	const struct reference *ref = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	for (size_t len; (len = bench_server_line_bytes(in));) {
		if (ref->reply == BENCH_REPLY_ECHO) {
			evbuffer_remove_buffer(in, bufferevent_get_output(bev), len);
		} else {
			evbuffer_drain(in, len);
			bufferevent_write(bev, REPLY_OK, sizeof REPLY_OK - 1);
		}
	}
}

static void reference_event_cb(struct bufferevent *bev, short what, void *arg)
{
	(void)arg;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		bufferevent_free(bev);
}

static void reference_accept_cb(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int len, void *arg)
{
	struct reference *ref = arg;
	struct bufferevent *bev = connection_new(evconnlistener_get_base(l), fd, ref->ctx,
	    BUFFEREVENT_SSL_ACCEPTING);

	(void)sa;
	(void)len;
	if (!bev) {
		close(fd);
		return;
	}
	bufferevent_setcb(bev, reference_read_cb, NULL, reference_event_cb, ref);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
}

static void reference_accept_error_cb(struct evconnlistener *l, void *arg)
{
	const struct reference *ref = arg;

	(void)l;
	fprintf(stderr, "%s: %s server: accept: %s\n", program, reference_name(ref->reply),
	    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
}

/*
 * A TLS context with a self-signed EC P-256 certificate made in memory,
 * set up as chessd's tls.c sets up its own (released buffers, no tickets, no
 * session cache), so the difference in the figures is chessd's.
 */
static SSL_CTX *reference_tls(void)
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

SSL_CTX *bench_server_reference_tls(void)
{
	return reference_tls();
}

/*
 * The reference server's main, in the child: listen on a free port of
 * 127.0.0.1, say "port N" on port_fd (or why not), answer lines until
 * killed.  Signals take their default actions again.
 */
int bench_server_serve(enum bench_reply reply, bool tls, int port_fd)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof sin;
	struct reference ref = { .reply = reply };

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	if (tls && !(ref.ctx = reference_tls())) {
		dprintf(port_fd, "cannot make a TLS context\n");
		return 1;
	}
	struct event_base *base = event_base_new();
	struct evconnlistener *l = base ? evconnlistener_new_bind(base, reference_accept_cb, &ref,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC, 512,
	    (struct sockaddr *)&sin, sizeof sin) : NULL;
	if (!l || getsockname(evconnlistener_get_fd(l), (struct sockaddr *)&sin, &len) < 0) {
		dprintf(port_fd, "cannot listen on 127.0.0.1\n");
		return 1;
	}
	evconnlistener_set_error_cb(l, reference_accept_error_cb);
	dprintf(port_fd, "port %d\n", ntohs(sin.sin_port));
	event_base_dispatch(base);
	evconnlistener_free(l);
	event_base_free(base);
	SSL_CTX_free(ref.ctx);
	return 0;
}

/* Forks the reference server without exec: it is this program. */
static pid_t reference_fork(enum bench_reply reply, bool tls, int fds[2])
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork_child();
	if (pid != 0)
		return pid;
	close(fds[0]);
	_exit(bench_server_serve(reply, tls, fds[1]));
}

/* Reads "port N" from a starting reference server; -1 with why if it does not come. */
static int reference_port(int fd, const char *name, char *why, size_t whylen)
{
	char line[96];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t have = 0;
	double start = bench_server_now_s();
	int port = -1;

	line[0] = '\0';
	while (port < 0 && !interrupted && bench_server_now_s() - start < READY_TIMEOUT_MS / 1000.0) {
		if (poll(&pfd, 1, PORT_POLL_MS) <= 0)
			continue;
		ssize_t got = read(fd, line + have, sizeof line - 1 - have);
		if (got <= 0)
			break;
		have += (size_t)got;
		line[have] = '\0';
		if (strchr(line, '\n') && sscanf(line, "port %d", &port) != 1)
			break;
	}
	if (port <= 0) {
		snprintf(why, whylen, "the %s server did not report its port%s%.*s", name,
		    have ? ": " : "", (int)strcspn(line, "\n"), line);
		return -1;
	}
	return port;
}

/*
 * Starts a benchmark's own reference server: a fork of this process that
 * runs serve(arg, port_fd), which says "port N" on port_fd once it listens
 * (or why not) and serves until killed; signals take their default actions
 * in it.  The server's figures (CPU, memory) and its end work as for the
 * others.  Its port, or -1 with why.
 */
int bench_server_start_fork(struct bench_server *s, int (*serve)(void *arg, int port_fd),
    void *arg, const char *name, char *why, size_t whylen)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork_child();
	if (pid == 0) {
		close(fds[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_IGN);
		_exit(serve(arg, fds[1]));
	}
	child_started(s, pid);
	close(fds[1]);
	if (s->pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		close(fds[0]);
		return -1;
	}
	s->port = reference_port(fds[0], name, why, whylen);
	close(fds[0]);
	return s->port;
}

/*
 * Starts the reference server and reads the port it listens on.  With
 * exec_option the child is this program run afresh (its main must call
 * bench_server_serve on "exec_option plain|tls"), so that its memory starts
 * clean; without, a fork of this process.
 */
int bench_server_start_reference(struct bench_server *s, enum bench_reply reply, bool tls,
    const char *exec_option, char *why, size_t whylen)
{
	char self[PATH_MAX];
	int fds[2];

	if (exec_option) {
		ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
		if (len < 0) {
			snprintf(why, whylen, "cannot read /proc/self/exe: %s", strerror(errno));
			return -1;
		}
		self[len] = '\0';
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return -1;
	}
	char *argv[] = { self, (char *)exec_option, tls ? "tls" : "plain", NULL };
	child_started(s, exec_option ? spawn(argv, fds[1]) : reference_fork(reply, tls, fds));
	close(fds[1]);
	if (s->pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		close(fds[0]);
		return -1;
	}
	s->port = reference_port(fds[0], reference_name(reply), why, whylen);
	close(fds[0]);
	if (s->port < 0)
		return -1;
	return tls ? client_tls_make(s, why, whylen) : 0;
}

/* Room for one more of the benchmark's connections; -1 (and why) when there is none. */
static int conns_reserve(struct bench_server *s, char *why, size_t whylen)
{
	if (s->conns_count < s->conns_cap)
		return 0;
	size_t cap = s->conns_cap ? s->conns_cap * 2 : 1024;
	struct bufferevent **grown = realloc(s->conns, cap * sizeof *grown);
	if (!grown) {
		snprintf(why, whylen, "out of memory for the connections");
		return -1;
	}
	s->conns = grown;
	s->conns_cap = cap;
	return 0;
}

/*
 * Opens one more connection to the server, TLS if it was started so, on
 * the benchmark's loop with these callbacks.  The server keeps it and
 * closes it before stopping; NULL (and why) when it cannot even start.
 */
struct bufferevent *bench_server_connect(struct bench_server *s, bufferevent_data_cb read_cb,
    bufferevent_event_cb event_cb, void *arg, char *why, size_t whylen)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	    .sin_port = htons((uint16_t)s->port) };

	if (conns_reserve(s, why, whylen) < 0)
		return NULL;
	struct bufferevent *bev = connection_new(s->base, -1, s->port == s->tls_port ||
	    s->plain_port < 0 ? s->client_tls : NULL, BUFFEREVENT_SSL_CONNECTING);
	if (!bev) {
		snprintf(why, whylen, "cannot create a bufferevent");
		return NULL;
	}
	s->conns[s->conns_count++] = bev;
	bufferevent_setcb(bev, read_cb, NULL, event_cb, arg);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	if (bufferevent_socket_connect(bev, (struct sockaddr *)&sin, sizeof sin) < 0) {
		snprintf(why, whylen, "connection %zu: connect: %s", s->conns_count, strerror(errno));
		return NULL;
	}
	return bev;
}

/*
 * chessd only: a connection from the loopback address `source` (another
 * address of 127.0.0.0/8, so that per-address limits and tables see
 * several clients' addresses) to the plain or the TLS port, with
 * TCP_NODELAY.  The socket's own connect is under way when it returns, so
 * no BEV_EVENT_CONNECTED comes: the server's first bytes say it is up.
 * NULL (and why) when it cannot start.
 */
struct bufferevent *bench_server_connect_from(struct bench_server *s, const char *source,
    bool tls, bufferevent_data_cb read_cb, bufferevent_event_cb event_cb, void *arg, char *why,
    size_t whylen)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	    .sin_port = htons((uint16_t)(tls ? s->tls_port : s->plain_port)) };
	struct sockaddr_in from = { .sin_family = AF_INET };
	int one = 1;

	if (s->plain_port < 0 || inet_pton(AF_INET, source, &from.sin_addr) != 1) {
		snprintf(why, whylen, "no chessd to connect to from %.40s", source);
		return NULL;
	}
	if (conns_reserve(s, why, whylen) < 0)
		return NULL;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(why, whylen, "socket: %s", strerror(errno));
		return NULL;
	}
	/* The port is picked at connect, per destination: the range is not spent per address. */
	setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (bind(fd, (struct sockaddr *)&from, sizeof from) < 0 ||
	    (connect(fd, (struct sockaddr *)&to, sizeof to) < 0 && errno != EINPROGRESS)) {
		snprintf(why, whylen, "connect from %.40s: %s", source, strerror(errno));
		close(fd);
		return NULL;
	}
	struct bufferevent *bev = connection_new(s->base, fd, tls ? s->client_tls : NULL,
	    BUFFEREVENT_SSL_CONNECTING);
	if (!bev) {
		snprintf(why, whylen, "cannot create a bufferevent");
		close(fd);
		return NULL;
	}
	s->conns[s->conns_count++] = bev;
	bufferevent_setcb(bev, read_cb, NULL, event_cb, arg);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	return bev;
}

/* Closes one of the benchmark's connections before the others (a client that leaves). */
void bench_server_close(struct bench_server *s, struct bufferevent *bev)
{
	for (size_t i = 0; i < s->conns_count; i++)
		if (s->conns[i] == bev) {
			s->conns[i] = s->conns[--s->conns_count];
			bufferevent_free(bev);
			return;
		}
}

/* Lines appended to chessd's configuration at its next start (a benchmark's own limits). */
void bench_server_config_add(struct bench_server *s, const char *lines)
{
	size_t have = strlen(s->config_extra);

	snprintf(s->config_extra + have, sizeof s->config_extra - have, "%s", lines);
}

/* Closes the benchmark's connections. */
static void disconnect(struct bench_server *s)
{
	for (size_t i = 0; i < s->conns_count; i++)
		bufferevent_free(s->conns[i]);
	s->conns_count = 0;
}

/* True (and how, in words) once the server has ended by itself. */
bool bench_server_exited(struct bench_server *s, char *how, size_t howlen)
{
	int status;

	if (!s->running || waitpid(s->pid, &status, WNOHANG) != s->pid)
		return false;
	child_gone(s);
	describe_status(status, how, howlen);
	return true;
}

/* The server's resident memory in KiB, from /proc/PID/status; -1 if unknown. */
long bench_server_rss_kb(const struct bench_server *s)
{
	char path[64], line[256];
	long kb = -1;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)s->pid);
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

/* The descriptors the server has open, from /proc/PID/fd; -1 if unknown. */
int bench_server_open_fds(const struct bench_server *s)
{
	char path[64];
	int count = 0;

	snprintf(path, sizeof path, "/proc/%ld/fd", (long)s->pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			count++;
	closedir(d);
	return count;
}

/* User plus system CPU seconds the server has used, from /proc/PID/stat; -1 if unknown. */
double bench_server_cpu_s(const struct bench_server *s)
{
	double user, sys;

	return bench_server_cpu_split(s, &user, &sys) < 0 ? -1 : user + sys;
}

/* The server's user and system CPU seconds, from /proc/PID/stat; -1 if unknown. */
int bench_server_cpu_split(const struct bench_server *s, double *user_s, double *sys_s)
{
	char path[64], buf[1024];
	unsigned long long user, sys;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)s->pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The command name may hold spaces: fields count from its closing parenthesis. */
	char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
	    &user, &sys) != 2)
		return -1;
	*user_s = (double)user / (double)sysconf(_SC_CLK_TCK);
	*sys_s = (double)sys / (double)sysconf(_SC_CLK_TCK);
	return 0;
}

/*
 * Closes the benchmark's connections, sends SIGTERM and waits for the
 * server to end; SIGKILL after the deadline.  0 when it exited cleanly or
 * was not running; took_s (if not NULL) gets how long it took, how what
 * happened.
 */
int bench_server_stop(struct bench_server *s, double *took_s, char *how, size_t howlen)
{
	int status = 0, rc = 0;

	disconnect(s);
	double start = bench_server_now_s();
	if (!s->running)
		return 0;
	kill(s->pid, SIGTERM);
	while (waitpid(s->pid, &status, WNOHANG) == 0) {
		if (bench_server_now_s() - start > STOP_TIMEOUT_MS / 1000.0) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, &status, 0);
			snprintf(how, howlen, "did not stop within %d ms of SIGTERM; killed",
			    STOP_TIMEOUT_MS);
			rc = -1;
			break;
		}
		sleep_ms(10);
	}
	child_gone(s);
	if (took_s)
		*took_s = bench_server_now_s() - start;
	if (rc < 0)
		return -1;
	describe_status(status, how, howlen);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Closes the benchmark's connections and kills the server for good, if it runs. */
void bench_server_kill(struct bench_server *s)
{
	disconnect(s);
	if (!s->running)
		return;
	kill(s->pid, SIGKILL);
	waitpid(s->pid, NULL, 0);
	child_gone(s);
}

/*
 * Counts the warnings and errors in chessd's log and shows the first few
 * on stderr, labelled; 0 for a server without a log.
 */
int bench_server_log_issues(const struct bench_server *s, const char *label)
{
	char line[2048];
	int count = 0;
	FILE *f = s->log_path[0] ? fopen(s->log_path, "r") : NULL;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		if (!strstr(line, "Z warn ") && !strstr(line, "Z error "))
			continue;
		if (count < LOG_ISSUES_SHOWN)
			fprintf(stderr, "%s: chessd %s log: %.*s\n", program, label,
			    (int)strcspn(line, "\n"), line);
		count++;
	}
	fclose(f);
	if (count > LOG_ISSUES_SHOWN)
		fprintf(stderr, "%s: ... %d warnings and errors in all\n", program, count);
	return count;
}

/* Kills the server if it still runs and removes its files; NULL is fine. */
void bench_server_free(struct bench_server *s)
{
	if (!s)
		return;
	bench_server_kill(s);
	remove_dir(s);
	if (current == s)
		current = NULL;
	free(s->conns);
	event_base_free(s->base);
	SSL_CTX_free(s->client_tls);
	free(s);
}

/* --- the clients' side --- */

/* The length of the first complete line in input, its LF included; 0 for none. */
size_t bench_server_line_bytes(struct evbuffer *in)
{
	size_t eol_len = 0;
	struct evbuffer_ptr eol = evbuffer_search_eol(in, NULL, &eol_len, EVBUFFER_EOL_LF);

	return eol.pos < 0 ? 0 : (size_t)eol.pos + eol_len;
}

/*
 * Drains input through needle; false if it has not come yet.  What is
 * there stays (a refusal is quoted from it), up to unmatched_max bytes.
 */
void bench_server_lines(struct evbuffer *in, size_t unmatched_max, bool (*more)(void *arg),
    void (*fn)(void *arg, char *line), void *arg)
{
	size_t len = evbuffer_get_length(in), off = 0;
	char line[BENCH_LINE_BYTES];

	if (!len)
		return;
	const char *data = (const char *)evbuffer_pullup(in, -1);
	while (off < len && more(arg)) {
		const char *nl = memchr(data + off, '\n', len - off);
		if (!nl)
			break;
		size_t n = (size_t)(nl - (data + off));
		size_t keep = n < sizeof line - 1 ? n : sizeof line - 1;
		memcpy(line, data + off, keep);
		line[keep] = '\0';
		off += n + 1;
		fn(arg, line);
	}
	if (len - off > unmatched_max)
		off = len;
	evbuffer_drain(in, off);
}

bool bench_server_consume(struct evbuffer *in, const char *needle, size_t unmatched_max)
{
	size_t len = strlen(needle), have = evbuffer_get_length(in);
	struct evbuffer_ptr at = evbuffer_search(in, needle, len, NULL);

	if (at.pos < 0) {
		if (have > unmatched_max)
			evbuffer_drain(in, have - len + 1);
		return false;
	}
	evbuffer_drain(in, (size_t)at.pos + len);
	return true;
}

/* Reads the guest name from 'Press return to enter the server as "NAME":'. */
static bool take_guest_name(struct evbuffer *in, struct bench_login *login, size_t unmatched_max)
{
	static const char needle[] = "enter the server as \"";
	size_t len = evbuffer_get_length(in);
	const char *data = (const char *)evbuffer_pullup(in, -1);
	const char *at = data ? memmem(data, len, needle, sizeof needle - 1) : NULL;

	if (!at) {
		if (len > unmatched_max)
			evbuffer_drain(in, len - sizeof needle);
		return false;
	}
	const char *name = at + sizeof needle - 1;
	const char *quote = memchr(name, '"', len - (size_t)(name - data));
	if (!quote)
		return false;
	snprintf(login->name, sizeof login->name, "%.*s", (int)(quote - name), name);
	evbuffer_drain(in, (size_t)(quote + 1 - data));
	return true;
}

/*
 * Takes a client through chessd's guest login as far as what has come in
 * allows: "guest" at "login: ", a return at the name offered, then the
 * first prompt, drained through.  A guest offered a name another took
 * first is asked again and begins again.  True once at the prompt.
 */
bool bench_server_guest_login(struct bufferevent *bev, struct bench_login *login,
    size_t unmatched_max)
{
	struct evbuffer *in = bufferevent_get_input(bev);

	for (;;) {
		switch (login->step) {
		case BENCH_LOGIN_NAME:
			if (!bench_server_consume(in, "login: ", unmatched_max))
				return false;
			bufferevent_write(bev, "guest\n", 6);
			login->step = BENCH_LOGIN_CONFIRM;
			break;
		case BENCH_LOGIN_CONFIRM:
			if (!take_guest_name(in, login, unmatched_max))
				return false;
			bufferevent_write(bev, "\n", 1);
			login->step = BENCH_LOGIN_PROMPT;
			break;
		case BENCH_LOGIN_PROMPT: {
			struct evbuffer_ptr again = evbuffer_search(in, "login: ", 7, NULL);
			struct evbuffer_ptr prompt = evbuffer_search(in, "fics% ", 6, NULL);
			if (again.pos >= 0 && (prompt.pos < 0 || again.pos < prompt.pos)) {
				login->relogins++;
				login->step = BENCH_LOGIN_NAME;
				break;
			}
			if (prompt.pos < 0)
				return false;
			evbuffer_drain(in, (size_t)prompt.pos + 6);
			return true;
		}
		}
	}
}
