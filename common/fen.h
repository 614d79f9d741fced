/* Forsyth-Edwards Notation: strict parsing with a precise error, canonical output. */
#ifndef CHESS_FEN_H
#define CHESS_FEN_H

#include <stddef.h>

#include "board.h"

#define FEN_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define FEN_MAX 96	/* longest canonical FEN plus NUL, with room to spare */

/*
 * Parses a FEN (six fields, or the first four as in EPD) into b.  On error
 * returns -1 and writes one line naming the fault into err.
 */
int fen_parse(struct board *b, const char *text, char *err, size_t errlen);
/* Writes the canonical FEN of b; the en passant square appears only when legal. */
void fen_format(const struct board *b, char *buf);

#endif
