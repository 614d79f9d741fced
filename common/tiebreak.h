/*
 * Tie-breaks (FIDE C.07, 2024) and standings.
 *
 * Swiss (t->system == TOURNEY_SWISS): a round the player did not play over
 * the board (a bye, a forfeit either way, an absence) counts as a game
 * against a dummy opponent whose score is the player's own final score.  In
 * an opponent's score, the opponent's voluntarily unplayed rounds (requested
 * byes H/Z/F, forfeit losses, absences) after their last game played count
 * as draws.  Round robin: unplayed games count as played, against the real
 * opponent; the odd player's rest round counts for nothing.
 *
 * Values are in points (0.5 steps; Sonneborn-Berger in 0.25 steps), exact in
 * a double.
 */
#ifndef CHESS_TIEBREAK_H
#define CHESS_TIEBREAK_H

#include <stddef.h>

#include "tourney.h"

#define TIEBREAK_MAX	8	/* tie-breaks in one standings order */

enum tiebreak {
	TIEBREAK_BUCHHOLZ,		/* BH: sum of opponents' scores */
	TIEBREAK_BUCHHOLZ_CUT1,		/* BH less the lowest contribution */
	TIEBREAK_SONNEBORN_BERGER,	/* SB: opponent's score x points scored against them */
	TIEBREAK_DIRECT_ENCOUNTER,	/* DE: points among the tied, if all met */
	TIEBREAK_WINS,			/* WIN: wins, byes and forfeit wins worth a win included */
	TIEBREAK_WON,			/* WON: wins over the board */
	TIEBREAK_NB
};

struct tiebreak_row {
	int player;
	int points_half;
	double value[TIEBREAK_MAX];	/* in the order asked for */
	int rank;			/* 1-based; tied rows share a rank */
};

/* Short name: "BH", "BH-C1", "SB", "DE", "WIN", "WON". */
const char *tiebreak_name(enum tiebreak tb);
/*
 * One player's value after rounds 1..rounds (clamped to t->rounds_paired).
 * Direct encounter depends on who is tied: this returns 0 for it; use
 * tiebreak_standings().
 */
double tiebreak_value(const struct tourney *t, int rounds, int player, enum tiebreak tb);
/*
 * Standings after rounds 1..rounds: rows[0..nplayers-1] sorted by points,
 * then by each tie-break of order[0..norder-1] (higher first), then start
 * number; rank is shared by rows equal on points and all tie-breaks.
 * Returns -1 with a message in err for a bad order list.
 */
int tiebreak_standings(const struct tourney *t, int rounds, const enum tiebreak *order,
    int norder, struct tiebreak_row *rows, char *err, size_t errlen);

#endif
