/*
 * The interactive front end: libedit line editing with history and tab
 * completion of commands and player names; server output scrolling above
 * the input line; during a game, the board (board_view.h) redrawn on every
 * update, every second while a clock runs, and on resize.  Ctrl-C asks
 * before resigning a live game.
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

struct ui_options {
	bool unicode;
	enum san_lang lang;
};

struct ui;

struct ui *ui_new(struct event_base *base, const struct ui_options *o, char *why, size_t why_len);
const struct ics_handler *ui_handler(void);
void ui_attach(struct ui *u, struct ics *c);
enum ics_exit ui_exit_code(const struct ui *u);
/* Restores the terminal; safe on NULL. */
void ui_free(struct ui *u);
#endif
