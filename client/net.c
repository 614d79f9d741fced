#include "net.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "known_hosts.h"

struct net {
	struct bufferevent *bev;
	struct event *start;	/* a plain connection reports "connected" from the loop */
	SSL_CTX *ctx;
	SSL *ssl;
	struct net_options opt;
	char host[256];
	char known_hosts[4096];
	struct net_callbacks cb;
	void *arg;
	bool ended;
	bool secured;		/* the TLS handshake is done and the certificate accepted */
};

static int tcp_connect(const char *host, int port, char *why, size_t why_len)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
	char service[16];
	int fd = -1, err = 0;

	snprintf(service, sizeof service, "%d", port);
	int rc = getaddrinfo(host, service, &hints, &res);
	if (rc != 0) {
		snprintf(why, why_len, "%s: %s", host, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(why, why_len, "cannot connect to %s port %d: %s", host, port, strerror(err));
		return -1;
	}
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

static void end(struct net *n, enum net_end how, const char *why)
{
	if (n->ended)
		return;
	n->ended = true;
	bufferevent_disable(n->bev, EV_READ | EV_WRITE);
	n->cb.ended(n->arg, how, why);
}

/*
 * A certificate seen for the first time is pinned only when the user says
 * so, as ssh asks about a new host key: on the terminal if there is one,
 * else never (--accept-new is the answer given in advance).  The question
 * blocks the loop, which has nothing else to do before the handshake ends.
 */
static bool confirm_new(struct net *n, const char *fp, const char *reason)
{
	char why[1024], answer[16] = "";
	FILE *tty = isatty(STDIN_FILENO) ? fopen("/dev/tty", "r+") : NULL;

	if (!tty) {
		snprintf(why, sizeof why, "the certificate of %s:%d is not signed by an authority "
		    "this system trusts (%s) and has not been pinned.\n  SHA-256 fingerprint: %s\n"
		    "Connect once from a terminal to confirm it, or pass --accept-new to pin it.",
		    n->host, n->opt.port, reason, fp);
		end(n, NET_END_CERT_UNTRUSTED, why);
		return false;
	}
	fprintf(tty, "The authenticity of %s:%d can't be established: its certificate is not "
	    "signed by an authority this system trusts (%s).\nSHA-256 fingerprint: %s\n"
	    "Are you sure you want to continue connecting (yes/no)? ", n->host, n->opt.port,
	    reason, fp);
	fflush(tty);
	for (;;) {
		if (!fgets(answer, sizeof answer, tty))
			answer[0] = '\0';
		answer[strcspn(answer, "\r\n")] = '\0';
		if (!strcmp(answer, "yes") || !strcmp(answer, "no") || !answer[0] ||
		    feof(tty) || ferror(tty))
			break;
		fprintf(tty, "Please type 'yes' or 'no': ");
		fflush(tty);
	}
	fclose(tty);
	if (strcmp(answer, "yes")) {
		snprintf(why, sizeof why, "the certificate of %s:%d was not confirmed; not connecting",
		    n->host, n->opt.port);
		end(n, NET_END_CERT_UNTRUSTED, why);
		return false;
	}
	return true;
}

/*
 * The handshake is done.  A pin for this host and port decides: the
 * certificate must be the pinned one, even if an authority signed another
 * (a pin is the user's word on what this server is).  Without a pin, a
 * certificate the system store verifies for this host is trusted, and any
 * other is pinned once confirmed.
 */
static int check_certificate(struct net *n)
{
	char why[8192], fp[KNOWN_HOSTS_FINGERPRINT_MAX], pinned[KNOWN_HOSTS_FINGERPRINT_MAX];
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int digest_len = 0;
	X509 *cert = SSL_get1_peer_certificate(n->ssl);

	if (!cert) {
		end(n, NET_END_ERROR, "the server sent no certificate");
		return -1;
	}
	long verified = SSL_get_verify_result(n->ssl);
	int ok = X509_digest(cert, EVP_sha256(), digest, &digest_len);
	X509_free(cert);
	if (!ok || digest_len != 32) {
		end(n, NET_END_ERROR, "cannot compute the certificate's fingerprint");
		return -1;
	}
	known_hosts_format(digest, fp);
	if (!n->known_hosts[0]) {
		if (verified == X509_V_OK)
			return 0;
		snprintf(why, sizeof why, "the certificate of %s is not trusted (%s) and no "
		    "known_hosts file can be used ($HOME is not set)", n->host,
		    X509_verify_cert_error_string(verified));
		end(n, NET_END_ERROR, why);
		return -1;
	}
	switch (known_hosts_check(n->known_hosts, n->host, n->opt.port, fp, pinned, sizeof pinned,
	    why, sizeof why)) {
	case KNOWN_HOST_MATCH:
		return 0;
	case KNOWN_HOST_NEW:
		if (verified == X509_V_OK)
			return 0;
		if (!n->opt.accept_new && !confirm_new(n, fp, X509_verify_cert_error_string(verified)))
			return -1;
		if (known_hosts_pin(n->known_hosts, n->host, n->opt.port, fp, why, sizeof why) < 0)
			break;
		fprintf(stderr, "Pinned the certificate of %s:%d (SHA-256 %s) in %s; a different "
		    "certificate will be refused.\n", n->host, n->opt.port, fp, n->known_hosts);
		return 0;
	case KNOWN_HOST_CHANGED:
		snprintf(why, sizeof why,
		    "WARNING: THE CERTIFICATE OF %s:%d HAS CHANGED!\n"
		    "Someone could be intercepting the connection, or the server has a new certificate.\n"
		    "  pinned:  %s\n  offered: %s%s\n"
		    "Refusing to connect.  If the change is expected, remove the line for %s:%d from %s.",
		    n->host, n->opt.port, pinned, fp, verified == X509_V_OK ?
		    " (signed by an authority this system trusts; the pin still decides)" : "",
		    n->host, n->opt.port, n->known_hosts);
		end(n, NET_END_CERT_CHANGED, why);
		return -1;
	case KNOWN_HOST_ERROR:
		if (verified == X509_V_OK)
			return 0;
		break;
	}
	end(n, NET_END_ERROR, why);
	return -1;
}

static void read_cb(struct bufferevent *bev, void *arg)
{
	struct net *n = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	char chunk[4096];
	int got;

	while (!n->ended && (got = evbuffer_remove(in, chunk, sizeof chunk)) > 0)
		n->cb.read(n->arg, chunk, (size_t)got);
}

static void event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct net *n = arg;
	char why[512];

	(void)bev;
	if (what & BEV_EVENT_CONNECTED) {
		if (n->ssl) {
			bufferevent_set_timeouts(n->bev, NULL, NULL);
			if (check_certificate(n) < 0)
				return;
			n->secured = true;
		}
		n->cb.connected(n->arg);
		return;
	}
	bool handshake = n->ssl && !n->secured;
	if (what & BEV_EVENT_TIMEOUT) {
		snprintf(why, sizeof why, "no TLS handshake from %s:%d within %d s", n->host,
		    n->opt.port, NET_HANDSHAKE_SECONDS);
		end(n, NET_END_ERROR, why);
		return;
	}
	unsigned long e = what & BEV_EVENT_ERROR ? bufferevent_get_openssl_error(n->bev) : 0;
	if ((what & BEV_EVENT_EOF) ||
	    (e && ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING)) {
		/* Without close_notify too: OpenSSL 3 says so, and it is still a close. */
		read_cb(n->bev, n);
		end(n, NET_END_CLOSED, handshake ? "the server closed the connection during the "
		    "TLS handshake" : "the server closed the connection");
		return;
	}
	if (!(what & BEV_EVENT_ERROR))
		return;
	const char *reason = e ? ERR_reason_error_string(e) : NULL;
	/* No hint to go plain: a failure an attacker can cause must not talk the user out of TLS. */
	if (handshake)
		snprintf(why, sizeof why, "TLS handshake with %s:%d failed (%s); nothing was sent",
		    n->host, n->opt.port,
		    reason ? reason : e ? "unknown error" : strerror(errno ? errno : EPROTO));
	else if (e)
		snprintf(why, sizeof why, "TLS error on the connection: %s",
		    reason ? reason : "unknown error");
	else
		snprintf(why, sizeof why, "connection lost: %s", errno ? strerror(errno) : "error");
	end(n, NET_END_ERROR, why);
}

static void plain_connected(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	event_cb(((struct net *)arg)->bev, BEV_EVENT_CONNECTED, arg);
}

struct net *net_connect(struct event_base *base, const struct net_options *o,
    const struct net_callbacks *cb, void *arg, char *why, size_t why_len)
{
	struct net *n = calloc(1, sizeof *n);
	int fd;

	if (!n) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	n->opt = *o;
	n->cb = *cb;
	n->arg = arg;
	snprintf(n->host, sizeof n->host, "%s", o->host);
	n->opt.host = n->host;
	if (o->known_hosts)
		snprintf(n->known_hosts, sizeof n->known_hosts, "%s", o->known_hosts);
	if ((fd = tcp_connect(o->host, o->port, why, why_len)) < 0) {
		free(n);
		return NULL;
	}
	if (!o->tls) {
		n->bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
	} else {
		n->ctx = SSL_CTX_new(TLS_client_method());
		if (n->ctx) {
			SSL_CTX_set_min_proto_version(n->ctx, TLS1_2_VERSION);
			SSL_CTX_set_default_verify_paths(n->ctx);
			/* Verify, but decide after the handshake (pinning may still accept). */
			SSL_CTX_set_verify(n->ctx, SSL_VERIFY_NONE, NULL);
			n->ssl = SSL_new(n->ctx);
		}
		if (n->ssl) {
			struct in6_addr addr;
			bool literal = inet_pton(AF_INET, o->host, &addr) == 1 ||
			    inet_pton(AF_INET6, o->host, &addr) == 1;
			if (!literal)
				SSL_set_tlsext_host_name(n->ssl, o->host);
			if (literal)
				X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(n->ssl), o->host);
			else
				SSL_set1_host(n->ssl, o->host);
			n->bev = bufferevent_openssl_socket_new(base, fd, n->ssl,
			    BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
			if (n->bev)
				bufferevent_openssl_set_allow_dirty_shutdown(n->bev, 1);
			else
				SSL_free(n->ssl);
		}
	}
	if (!n->bev) {
		close(fd);
		SSL_CTX_free(n->ctx);
		free(n);
		snprintf(why, why_len, "cannot set up the connection");
		return NULL;
	}
	bufferevent_setcb(n->bev, read_cb, NULL, event_cb, n);
	if (o->tls) {
		struct timeval handshake = { NET_HANDSHAKE_SECONDS, 0 };
		bufferevent_set_timeouts(n->bev, &handshake, &handshake);
	}
	bufferevent_enable(n->bev, EV_READ | EV_WRITE);
	if (!o->tls) {
		n->start = evtimer_new(base, plain_connected, n);
		struct timeval now = { 0, 0 };
		if (n->start)
			evtimer_add(n->start, &now);
	}
	return n;
}

void net_write(struct net *n, const char *data, size_t len)
{
	if (n && !n->ended)
		bufferevent_write(n->bev, data, len);
}

void net_printf(struct net *n, const char *fmt, ...)
{
	va_list ap;

	if (!n || n->ended)
		return;
	va_start(ap, fmt);
	evbuffer_add_vprintf(bufferevent_get_output(n->bev), fmt, ap);
	va_end(ap);
}

void net_free(struct net *n)
{
	if (!n)
		return;
	if (n->bev) {
		int fd = bufferevent_getfd(n->bev);
		struct evbuffer *out = bufferevent_get_output(n->bev);
		/* Best effort: push what is queued, then close_notify. */
		if (!n->ended && fd >= 0 && !n->ssl)
			evbuffer_write(out, fd);
		if (n->ssl && !n->ended)
			SSL_shutdown(n->ssl);
		bufferevent_free(n->bev);
	}
	if (n->start)
		event_free(n->start);
	SSL_CTX_free(n->ctx);
	free(n);
}
