/*
 * A client connection: bytes in and out over plain TCP or TLS, line framing,
 * telnet and encoding clean-up, and the per-connection limits.  Lines go to
 * the connection's session; output waits in `pending` until the loop pass
 * ends and the database has committed.
 */
#ifndef CHESSD_CONN_H
#define CHESSD_CONN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <openssl/ssl.h>

struct server;
struct session;
struct conn;

/* Takes ownership of fd (and ssl, for a TLS connection). NULL on failure. */
struct conn *conn_new(struct server *srv, int fd, const struct sockaddr *sa, SSL *ssl);
/* The one teardown path: called by the server at the end of a pass. */
void conn_free(struct conn *c);

/* Queues text; every "\n" goes out as "\n\r" as FICS clients expect. */
void conn_write(struct conn *c, const char *text, size_t len);
void conn_puts(struct conn *c, const char *text);
void conn_printf(struct conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void conn_vprintf(struct conn *c, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Queues bytes as they are (telnet commands). */
void conn_write_raw(struct conn *c, const void *data, size_t len);

/*
 * The pass ended: its output depends on commit number `need` (0: none),
 * and commits up to `durable` are on disk.  Output goes to the socket now
 * when it depends on nothing unflushed; otherwise it is held, in order,
 * until conn_release() is told its commit is durable.  Output limits are
 * enforced on everything queued.
 */
void conn_flush(struct conn *c, uint64_t need, uint64_t durable);
/* Commits up to `durable` are on disk: send what was held for them. */
void conn_release(struct conn *c, uint64_t durable);
/* Output is waiting for a commit to become durable. */
bool conn_holding(const struct conn *c);
/* Closes after the output drains (bounded by a deadline); reason is logged. */
void conn_close(struct conn *c, const char *reason);
/* Closes now, dropping any output. */
void conn_abort(struct conn *c, const char *reason);
bool conn_closing(const struct conn *c);
/* The client closed its side while its input was held; its lines still run. */
bool conn_hung_up(const struct conn *c);
/*
 * The client is behind (more output waits than the soft limit, or the
 * server is over its total budget and the socket has not taken all it
 * was given): text it can do without (chat) is skipped rather than
 * queued, and counted with conn_skip_chat().
 */
bool conn_backlogged(const struct conn *c);
void conn_skip_chat(struct conn *c);

/* Stops or resumes handing lines to the session (e.g. while a password hashes). */
void conn_hold_input(struct conn *c, bool hold);
/* Asks for a call to session_wake() at the given monotonic time (0: none). */
void conn_wake_at(struct conn *c, int64_t at_ms);
/* The session finished logging in: drop the login deadlines. */
void conn_logged_in(struct conn *c);

/* Timeseal (see timeseal.h): true when the client encodes its lines. */
bool conn_timeseal(const struct conn *c);
/*
 * Sends a timeseal ping; its answer reaches session_pong() with this tag.
 * -1 (nothing sent) for a plain session or one that stopped answering.
 */
int conn_ping(struct conn *c, int tag);
/*
 * The client's round trip as the server sees it, in ms (-1 not known yet):
 * the mean of the answered timeseal pings when the client speaks timeseal
 * (*from_timeseal), else the TCP round trip the kernel measures from the
 * acknowledgements of what the server sent.
 */
int64_t conn_rtt_ms(const struct conn *c, bool *from_timeseal);

const char *conn_address(const struct conn *c);
bool conn_is_tls(const struct conn *c);
uint64_t conn_id(const struct conn *c);
struct session *conn_session(const struct conn *c);
struct server *conn_server(const struct conn *c);

#endif
