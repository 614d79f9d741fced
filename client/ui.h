/*
 * The interactive front end: libedit line editing with history and tab
 * completion of commands and player names; server output scrolling above
 * the input line; during a game, the board (board_view.h) redrawn on every
 * update, every second while a clock runs, and on resize.  Ctrl-C asks
 * before resigning a live game.  A lost connection is re-established with
 * backoff; a game the server continues is redrawn, one it adjourned is
 * offered for "resume".  Move lists of games joined late are fetched.
 */
#ifndef CHESS_CLIENT_UI_H
#define CHESS_CLIENT_UI_H
#include <stdbool.h>
#include <stddef.h>
#include "ics.h"
#include "san.h"

#define UI_MESSAGE_LINES 200	/* server lines kept for redraws */
#define UI_NAMES_MAX 512	/* player names remembered for completion */
#define UI_TICK_MS 1000
#define UI_RECONNECT_TRIES 8		/* then the client gives up */
#define UI_RECONNECT_FIRST_MS 1000	/* doubling after each failed try... */
#define UI_RECONNECT_MAX_MS 30000	/* ...up to this */
#define UI_REQUESTS_MAX 16		/* commands whose replies the client reads itself */

struct ui_options {
	bool unicode;
	enum san_lang lang;
	bool auto_resume;	/* after a reconnection, resume our adjourned game by itself */
};

struct ui;

struct ui *ui_new(struct event_base *base, const struct ui_options *o, char *why, size_t why_len);
const struct ics_handler *ui_handler(void);
void ui_attach(struct ui *u, struct ics *c);
enum ics_exit ui_exit_code(const struct ui *u);
/* Restores the terminal; safe on NULL. */
void ui_free(struct ui *u);
#endif
