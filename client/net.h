/*
 * The connection to the server: TCP, or TLS verified against the system
 * trust store and otherwise pinned on first use (known_hosts.h).
 */
#ifndef CHESS_CLIENT_NET_H
#define CHESS_CLIENT_NET_H
#include <stdbool.h>
#include <stddef.h>

struct event_base;
struct net;

/* A TLS handshake not done by then is given up: the server may never answer. */
#define NET_HANDSHAKE_SECONDS 15

enum net_end {
	NET_END_CLOSED,		/* the server closed the connection */
	NET_END_ERROR,		/* could not connect, or the connection failed */
	NET_END_CERT_CHANGED,	/* a pinned certificate changed: refused */
	NET_END_CERT_UNTRUSTED	/* a new certificate the user did not confirm */
};

struct net_callbacks {
	void (*connected)(void *arg);
	void (*read)(void *arg, const char *data, size_t len);
	void (*ended)(void *arg, enum net_end how, const char *why);
};

struct net_options {
	const char *host;
	int port;
	bool tls;
	const char *known_hosts;	/* pin file; NULL refuses unverified certificates */
	bool accept_new;		/* pin a first-seen certificate without asking */
};

/* Connects (the TCP connect blocks; the rest runs on base); NULL and why on failure. */
struct net *net_connect(struct event_base *base, const struct net_options *o,
    const struct net_callbacks *cb, void *arg, char *why, size_t why_len);
void net_write(struct net *n, const char *data, size_t len);
void net_printf(struct net *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Closes, sending TLS close_notify after pending output; safe on NULL. */
void net_free(struct net *n);
#endif
