/* Reading style 12 boards in the load benchmarks, fast enough to leave the
 * server its share of the two cores. */
#ifndef CHESS_BENCH_STYLE12_H
#define CHESS_BENCH_STYLE12_H

#include <stdbool.h>

#include "board.h"

/* The fields of a style 12 line the load benchmarks use. */
struct style12 {
	char ranks[8][9];		/* rank 8 first */
	char side;			/* W or B */
	int dpp_file;
	int castle[4];			/* WK WQ BK BQ */
	int halfmove;
	int game;
	int relation;
	int move_number;
};

/* Reads a "<12> ..." line; false when it is not one. */
bool style12_parse(const char *line, struct style12 *s);
/* Plies played before the position the line shows. */
int style12_ply(const struct style12 *s);
/* Rebuilds the position of a style 12 line; -1 on a piece letter we do not know. */
int style12_board(const struct style12 *s, struct board *b);

#endif
