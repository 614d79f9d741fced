/*
 * Style 12: the one-line position update a FICS server sends after
 * "style 12" (see FICS.md).  Plain data, parsed strictly.
 */
#ifndef CHESS_CLIENT_STYLE12_H
#define CHESS_CLIENT_STYLE12_H
#include <stdbool.h>
#include "board.h"
#include "move.h"

#define STYLE12_NAME_MAX 32

/* Field 19: how the receiver relates to the game. */
enum style12_relation {
	REL_ISOLATED = -3, REL_OBSERVING_EXAMINED = -2, REL_PLAYING_THEIR_MOVE = -1,
	REL_OBSERVING = 0, REL_PLAYING_MY_MOVE = 1, REL_EXAMINING = 2
};

struct style12 {
	uint8_t squares[64];		/* enum piece, a1 = 0 */
	enum color side;		/* to move */
	int double_push_file;		/* 0-7, or -1 */
	unsigned castling;		/* enum castling set */
	int halfmove_clock;
	int game;
	char white[STYLE12_NAME_MAX], black[STYLE12_NAME_MAX];
	enum style12_relation relation;
	int initial_min, increment_s;
	int material[COLOR_NB];
	long long clock_ms[COLOR_NB];	/* negative when a flag has fallen */
	int move_number;		/* of the move about to be made */
	char verbose[MOVE_TEXT_MAX];	/* previous move: P/e2-e4, o-o, none */
	char taken[24];			/* (m:ss) or (m:ss.mmm) */
	char san[MOVE_TEXT_MAX];	/* previous move in SAN, or none */
	bool flip;
	bool ticking;
	int lag_ms;
};

/*
 * Parses one "<12> ..." line (the prefix included); -1 when malformed, when
 * a field is out of its range or a text field not printable ASCII, or when
 * the position is none the rules can play from (no king, a pawn on the back
 * rank, the side not to move in check, ...).
 */
int style12_parse(const char *line, struct style12 *out);
/* The position as a rules-core board (en passant square only when legal). */
void style12_board(const struct style12 *s, struct board *out);
/* Half-moves played before this position: 0 at the start of a game. */
int style12_ply(const struct style12 *s);
/* True when the receiver plays the game (either side to move). */
bool style12_playing(const struct style12 *s);
/* The receiver's colour when playing; WHITE when observing. */
enum color style12_my_color(const struct style12 *s);
#endif
