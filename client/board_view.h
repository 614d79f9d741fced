/*
 * Text rendering of a game_view: the board from one side, the last move
 * marked, names with ticking clocks and captured material, the move list in
 * SAN and the result.  Pure: writes into a caller buffer, so golden tests
 * can compare the output byte for byte.
 */
#ifndef CHESS_CLIENT_BOARD_VIEW_H
#define CHESS_CLIENT_BOARD_VIEW_H
#include <stdbool.h>
#include <stddef.h>
#include "game_view.h"

#define BOARD_VIEW_MIN_WIDTH 40
#define BOARD_VIEW_SIDE_PANEL_WIDTH 52	/* from here on the move list goes right of the board */
#define BOARD_VIEW_MOVE_ROWS 8

struct board_view_options {
	bool unicode;		/* chess glyphs; otherwise letters */
	bool color;		/* ANSI colours for squares and pieces */
	enum san_lang lang;	/* letters on an ASCII board and the words around it */
	int width;		/* terminal columns */
	enum color bottom;	/* the side shown at the bottom */
};

/*
 * Renders gv at now_ms into buf (NUL-terminated, lines ending in '\n');
 * returns the number of lines.
 */
int board_view_render(const struct game_view *gv, const struct board_view_options *o,
    long long now_ms, char *buf, size_t len);
/* The side a viewer sees at the bottom: their own, else White unless flipped. */
enum color board_view_bottom(const struct game_view *gv);
/* A clock as m:ss, or h:mm:ss from an hour on. */
void board_view_clock_text(long long ms, char *buf, size_t len);
#endif
