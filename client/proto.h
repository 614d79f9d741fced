/*
 * The FICS byte stream as the client sees it: lines ending in "\n\r",
 * prompts without a newline ("login: ", "password: ", "fics% "), telnet
 * IAC sequences, and block mode framing (\x15 id \x16 code \x16 ... \x17).
 * Feed it bytes; it calls back with whole lines, prompts and block ends.
 * Lines come cleaned by printable_clean(): nothing in them drives a terminal;
 * a NUL, or a CR that ends no line, is shown as '?' like any control.
 */
#ifndef CHESS_CLIENT_PROTO_H
#define CHESS_CLIENT_PROTO_H
#include <stddef.h>

/*
 * Longer lines are cut: the first PROTO_LINE_MAX - 1 bytes are reported with
 * PROTO_CUT_MARK after them, and the rest of the line is dropped.
 */
#define PROTO_LINE_MAX 8192
#define PROTO_CUT_MARK " [line cut: the server sent more than 8191 bytes]"
#define PROTO_NO_BLOCK (-1L)

enum proto_prompt { PROMPT_LOGIN, PROMPT_PASSWORD, PROMPT_COMMAND };

struct proto_callbacks {
	/* A line, with the id of the block it came in or PROTO_NO_BLOCK. */
	void (*line)(void *arg, const char *line, long block);
	void (*prompt)(void *arg, enum proto_prompt kind);
	/* The reply to the numbered command id is complete (code: FICS command code). */
	void (*block_end)(void *arg, long id, int code);
};

struct proto;

struct proto *proto_new(const struct proto_callbacks *cb, void *arg);
void proto_free(struct proto *p);
void proto_feed(struct proto *p, const char *data, size_t len);
#endif
