/*
 * bench_server: the server a benchmark measures, run as a child process on
 * 127.0.0.1, and the plumbing around it: chessd with a fresh data
 * directory and a permissive configuration, or the reference, a bare
 * libevent line server (plain or TLS, with an in-memory self-signed
 * certificate) that shows what this machine manages without chessd; the
 * benchmark's event loop and its connections to the server; chessd's
 * guest login.  One server runs at a time; whatever is live is killed and
 * removed on exit and on SIGINT, SIGTERM and SIGHUP.  Messages start with
 * the program's name.
 */
#ifndef BENCH_SERVER_H
#define BENCH_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <openssl/ssl.h>

struct evbuffer;

/* When a started chessd counts as up. */
enum bench_ready {
	BENCH_READY_LOGGED,	/* "chessd ready" is in its log */
	BENCH_READY_LISTENING,	/* the port in use accepts connections */
};

/* What the reference server sends back for each line it reads. */
enum bench_reply {
	BENCH_REPLY_OK,		/* "ok\n" */
	BENCH_REPLY_ECHO,	/* the line itself */
};

/* How far a client is through chessd's guest login (session.c). */
struct bench_login {
	enum {
		BENCH_LOGIN_NAME,	/* waiting for "login: " */
		BENCH_LOGIN_CONFIRM,	/* for "Press return to enter the server as "NAME":" */
		BENCH_LOGIN_PROMPT,	/* for "fics% " */
	} step;
	char name[24];			/* the guest name offered */
	int relogins;			/* times the name was taken first and it began again */
};

struct bench_server;

void bench_server_init(const char *program);
int bench_server_interrupted(void);
double bench_server_now_s(void);
const char *bench_server_temp_parent(void);
void bench_server_default_chessd(char *path, size_t len);
int bench_server_raise_fd_limit(int connections);

struct bench_server *bench_server_new(void);
struct event_base *bench_server_base(const struct bench_server *s);
int bench_server_start_chessd(struct bench_server *s, const char *chessd, int clients, bool tls,
    enum bench_ready ready, char *why, size_t whylen);
int bench_server_start_reference(struct bench_server *s, enum bench_reply reply, bool tls,
    const char *exec_option, char *why, size_t whylen);
int bench_server_serve(enum bench_reply reply, bool tls, int port_fd);
int bench_server_start_fork(struct bench_server *s, int (*serve)(void *arg, int port_fd),
    void *arg, const char *name, char *why, size_t whylen);
int bench_server_free_port(void);
/* A new server context set up as chessd's own, with a throwaway certificate; NULL on failure. */
SSL_CTX *bench_server_reference_tls(void);
struct bufferevent *bench_server_connect(struct bench_server *s, bufferevent_data_cb read_cb,
    bufferevent_event_cb event_cb, void *arg, char *why, size_t whylen);
struct bufferevent *bench_server_connect_from(struct bench_server *s, const char *source,
    bool tls, bufferevent_data_cb read_cb, bufferevent_event_cb event_cb, void *arg, char *why,
    size_t whylen);
void bench_server_close(struct bench_server *s, struct bufferevent *bev);
void bench_server_config_add(struct bench_server *s, const char *lines);
bool bench_server_exited(struct bench_server *s, char *how, size_t howlen);
long bench_server_rss_kb(const struct bench_server *s);
int bench_server_open_fds(const struct bench_server *s);
double bench_server_cpu_s(const struct bench_server *s);
int bench_server_cpu_split(const struct bench_server *s, double *user_s, double *sys_s);
int bench_server_stop(struct bench_server *s, double *took_s, char *how, size_t howlen);
void bench_server_kill(struct bench_server *s);
int bench_server_log_issues(const struct bench_server *s, const char *label);
void bench_server_free(struct bench_server *s);

size_t bench_server_line_bytes(struct evbuffer *in);
bool bench_server_consume(struct evbuffer *in, const char *needle, size_t unmatched_max);
/*
 * Hands each complete line waiting in `in` (without its newline, cut at
 * BENCH_LINE_BYTES) to fn while more(arg) holds, and drains what it handed
 * on; a part line longer than unmatched_max is dropped.
 */
#define BENCH_LINE_BYTES 1024
void bench_server_lines(struct evbuffer *in, size_t unmatched_max, bool (*more)(void *arg),
    void (*fn)(void *arg, char *line), void *arg);
bool bench_server_guest_login(struct bufferevent *bev, struct bench_login *login,
    size_t unmatched_max);

#endif
