/*
 * Trust on first use for servers whose certificate no authority signed:
 * "host:port sha256-fingerprint" lines in $XDG_CONFIG_HOME/chess/known_hosts
 * (or ~/.config/chess/known_hosts), as ssh keeps host keys.
 */
#ifndef CHESS_CLIENT_KNOWN_HOSTS_H
#define CHESS_CLIENT_KNOWN_HOSTS_H
#include <stddef.h>

#define KNOWN_HOSTS_FINGERPRINT_MAX 100	/* 32 bytes as AA:BB:..., plus NUL */

enum known_host {
	KNOWN_HOST_MATCH,	/* the pinned fingerprint */
	KNOWN_HOST_NEW,		/* never seen (not pinned by the check) */
	KNOWN_HOST_CHANGED,	/* pinned with another fingerprint: refuse */
	KNOWN_HOST_ERROR	/* the file could not be read or written */
};

/* The file's path, from the environment; -1 when neither variable is set. */
int known_hosts_path(char *buf, size_t len);
/*
 * Looks host:port up in the file at path.  On CHANGED, pinned receives the
 * stored fingerprint; on ERROR, why.
 */
enum known_host known_hosts_check(const char *path, const char *host, int port,
    const char *fingerprint, char *pinned, size_t pinned_len, char *why, size_t why_len);
/* Adds host:port with fingerprint to the file (made with its directories); -1 and why. */
int known_hosts_pin(const char *path, const char *host, int port, const char *fingerprint,
    char *why, size_t why_len);
/* Formats a SHA-256 digest as AA:BB:...; buf holds KNOWN_HOSTS_FINGERPRINT_MAX. */
void known_hosts_format(const unsigned char digest[32], char *buf);
#endif
