/* Machine notations of a move: UCI and the verbose form FICS puts in style 12. */
#ifndef CHESS_MOVE_H
#define CHESS_MOVE_H

#include "board.h"

#define MOVE_TEXT_MAX 16	/* longest move text in any notation, plus NUL */

/* UCI: e2e4, e7e8q, e1g1 for castling. */
void move_format_uci(move m, char *buf);
/* FICS verbose: P/e2-e4, N/g1-f3, P/e7-e8=Q, o-o, o-o-o; b is the board before m. */
void move_format_verbose(const struct board *b, move m, char *buf);
/* Square name such as "e4" into buf[3]. */
void square_format(int sq, char *buf);

#endif
