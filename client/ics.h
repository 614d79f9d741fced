/*
 * One logged-in connection to a FICS server: connects (net.h), logs in
 * (name, password, "Press return"), turns on the machine-friendly ivars and
 * block mode, then numbers every command and reports server lines, block
 * ends and the end of the connection to one handler (the terminal UI, the
 * script runner or the engine account).
 */
#ifndef CHESS_CLIENT_ICS_H
#define CHESS_CLIENT_ICS_H
#include <stdbool.h>
#include <stddef.h>

struct event_base;
struct ics;

/* Exit codes of the chess program, chosen by how the connection ended. */
enum ics_exit {
	EXIT_OK = 0, EXIT_FAILURE_RUNTIME = 1, EXIT_USAGE = 2, EXIT_LOGIN = 3,
	EXIT_SCRIPT_TIMEOUT = 4, EXIT_CERT_CHANGED = 5, EXIT_CERT_UNTRUSTED = 6
};

struct ics_handler {
	/* Logged in and set up: commands may be sent. */
	void (*online)(void *arg);
	/* A server line; block is the command id it answers, or -1. */
	void (*line)(void *arg, const char *line, long block);
	/* The reply to command id is complete. */
	void (*block_end)(void *arg, long id);
	/* The connection is over; code is what the program should exit with. */
	void (*ended)(void *arg, enum ics_exit code, const char *why);
};

struct ics_options {
	const char *host;
	int port;
	bool tls;
	const char *user;	/* NULL: guest */
	const char *password;	/* NULL: ask on the terminal when needed */
	bool accept_new;	/* pin a first-seen certificate without asking */
	/*
	 * A person reads the lines: seeks and offers come in words, not as
	 * <s>/<pf> lines; with no user, ask for a name on the terminal; after a
	 * wrong password that was asked for, ask again.
	 */
	bool human;
};

struct ics *ics_new(struct event_base *base, const struct ics_options *o,
    const struct ics_handler *h, void *arg, char *why, size_t why_len);
/*
 * After the connection ended (the handler's ended() was called, and from
 * outside any of its callbacks): connects again with the same options and
 * logs in again with the same credentials; online() is called once more
 * when that worked, ended() when it did not.  -1 and why when the
 * connection cannot even start (nothing is called then).
 */
int ics_reconnect(struct ics *c, char *why, size_t why_len);
/* Whether the login is a guest's (a new name at every login). */
bool ics_guest(const struct ics *c);
/* Whether this login is a guest's coming back to its seat with the server's
 * reconnect key (the key line of the game's start), under its old name. */
bool ics_reclaiming(const struct ics *c);
/* Sends a command (numbered in block mode); returns its id, 0 when not connected. */
long ics_command(struct ics *c, const char *command);
/* The name the server gave us ("GuestABCD" for a guest). */
const char *ics_name(const struct ics *c);
bool ics_online(const struct ics *c);
void ics_free(struct ics *c);
#endif
