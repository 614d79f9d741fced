/*
 * The reply to "moves N" as the server prints it (FICS.md): "Movelist for
 * game N:", the players, the column header, one line per move number with
 * the time each move took, and "{Still in progress} *".  Fed one line at a
 * time (the lines of one block); plain data, so it can be unit-tested.
 */
#ifndef CHESS_CLIENT_MOVELIST_H
#define CHESS_CLIENT_MOVELIST_H
#include <stdbool.h>
#include "game_view.h"
#include "move.h"
#include "style12.h"

/* Longer lists are refused, not cut: no game can be longer than a view keeps. */
#define MOVELIST_PLIES_MAX GAME_VIEW_MOVES_MAX

enum movelist_state {
	MOVELIST_HEADER,	/* before the "----  ----" rule */
	MOVELIST_MOVES,		/* reading move lines */
	MOVELIST_DONE,		/* the result line was read */
	MOVELIST_BAD		/* not a move list, or one we cannot follow */
};

struct movelist {
	enum movelist_state state;
	int game;				/* 0 until "Movelist for game N:" */
	char white[STYLE12_NAME_MAX], black[STYLE12_NAME_MAX];
	int first_ply;				/* of the first move (0 = White's first) */
	int count;				/* moves read */
	bool too_long;				/* refused: more than MOVELIST_PLIES_MAX */
	char san[MOVELIST_PLIES_MAX][MOVE_TEXT_MAX];
	char result[16];			/* "*", "1-0", ... once done */
};

void movelist_init(struct movelist *ml);
/* Takes the next line of the reply (without its line end). */
void movelist_feed(struct movelist *ml, const char *line);
/* The whole list was read and made sense. */
bool movelist_complete(const struct movelist *ml);
#endif
