/*
 * Timeseal v1: the line encoding FICS clients (pychess by default, xboard
 * through the timeseal helper) use to stamp every line with the client's own
 * clock, so that the server can charge a player the time between a board
 * arriving and the move leaving the player's machine rather than the network
 * transit time.  Pure: no I/O, no clock reads; the caller passes the time.
 *
 * An encoded line is N x 12 bytes followed by one byte 0x80 | offset (offset
 * below TIMESEAL_KEY_LEN).  The plain text behind it is
 *     TEXT \x18 MS \x19 FILLER
 * where MS is the client's clock in decimal ms (wrapping at
 * TIMESEAL_CLOCK_WRAP_MS) and FILLER pads to a multiple of 12.  To encode,
 * the client swaps bytes 0<->11, 2<->9, 4<->7 of each 12-byte block, then for
 * byte i sets the high bit, XORs it with key[(i + offset) % TIMESEAL_KEY_LEN]
 * and subtracts 32.
 *
 * A session is encoded when its first line is: its last byte is >= 0x80 and
 * it decodes.  That line is the greeting "TIMESTAMP|user|uname|" and is not
 * a command.  The server pings with TIMESEAL_PING; the client answers with
 * the encoded text TIMESEAL_PING_REPLY stamped with the time it read the
 * ping.  Answers carry no id: they come back in the order pings were sent.
 */
#ifndef CHESSD_TIMESEAL_H
#define CHESSD_TIMESEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TIMESEAL_KEY		"Timestamp (FICS) v1.0 - programmed by Henrik Gram."
#define TIMESEAL_KEY_LEN	(sizeof TIMESEAL_KEY - 1)
#define TIMESEAL_BLOCK		12
/* Client clocks run modulo this (pychess: ms % 10^7; timeseal: (s % 10^4) * 1000 + ms). */
#define TIMESEAL_CLOCK_WRAP_MS	10000000
/* What the server sends to ask for a stamp, and the text of the answer. */
#define TIMESEAL_PING		"\n\r[G]\n\r"
#define TIMESEAL_PING_REPLY	"\x02" "9"
/* The first line of an encoded session starts with this. */
#define TIMESEAL_HELLO		"TIMESTAMP|"
/* Pings awaiting an answer; a client that stops answering gets no more. */
#define TIMESEAL_PINGS_MAX	8

/* What timeseal_input() made of a line. */
enum timeseal_kind {
	TIMESEAL_PLAIN,		/* not an encoded session: the line is unchanged */
	TIMESEAL_COMMAND,	/* decoded in place: a line for the session */
	TIMESEAL_HELLO_LINE,	/* the greeting: consumed */
	TIMESEAL_PONG,		/* the answer to a ping: consumed */
	TIMESEAL_GARBAGE,	/* an encoded session sent a line that does not decode: drop it */
};

/* One connection's timeseal state.  Zeroed (or timeseal_init) = nothing seen yet. */
struct timeseal {
	bool decided;			/* the first line has been looked at */
	bool on;			/* the session is encoded */
	int64_t client_ms;		/* the stamp of the last decoded line, -1 if none */
	int64_t ping_sent_ms[TIMESEAL_PINGS_MAX];	/* server times of unanswered pings */
	int ping_tag[TIMESEAL_PINGS_MAX];	/* the caller's tag for each */
	int ping_first, ping_count;	/* a ring of the unanswered, oldest first */
	int64_t rtt_ms;			/* round trip of the last answered ping, -1 if none */
	int pong_tag;			/* the tag of the last answered ping */
};

void timeseal_init(struct timeseal *ts);

/*
 * True when line (without its newline) looks like, and decodes as, an
 * encoded line.  Only the first line of a session is tested this way.
 */
bool timeseal_detect(const char *line, size_t len);

/*
 * Decodes one encoded line (without its newline) in place: the plain text
 * is left at the start of line, NUL-terminated, its length in *text_len and
 * the client's clock in *client_ms.  Returns -1, leaving line in an
 * unspecified state, when it is not a well-formed encoded line.
 */
int timeseal_decode(char *line, size_t len, size_t *text_len, int64_t *client_ms);

/* True when the decoded text is the answer to a ping. */
bool timeseal_is_pong(const char *text, size_t len);

/*
 * Handles one line from the client (without its newline) at server time
 * now_ms, and says what it was.  For TIMESEAL_COMMAND the line is decoded in
 * place and *len updated; ts->client_ms is its stamp.  For TIMESEAL_PONG
 * ts->client_ms is the stamp, ts->rtt_ms the round trip and ts->pong_tag the
 * tag of the oldest unanswered ping, now answered (an answer to no ping
 * sets rtt_ms to -1 and pong_tag to 0).
 */
enum timeseal_kind timeseal_input(struct timeseal *ts, char *line, size_t *len, int64_t now_ms);

/*
 * Records a ping about to be sent at now_ms with the caller's tag.  Returns
 * -1 (send nothing) for a plain session or when TIMESEAL_PINGS_MAX are
 * unanswered.
 */
int timeseal_ping(struct timeseal *ts, int64_t now_ms, int tag);

/* b - a on the client's wrapping clock, in [0, TIMESEAL_CLOCK_WRAP_MS); -1 if either is negative. */
int64_t timeseal_elapsed_ms(int64_t a, int64_t b);

#endif
