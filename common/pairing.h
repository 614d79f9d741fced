/*
 * Pairing: round robins by the FIDE Berger tables (C.05 Annex 1) and Swiss
 * rounds by the FIDE Dutch system (C.04.3).
 *
 * The Dutch pairing is computed with maximum-weight perfect matchings on the
 * graph of available players (Edmonds' blossom algorithm, warm-started
 * between solves), bracket by bracket from the top score: the absolute
 * criteria C1-C3 decide which edges exist, the quality criteria are packed
 * into 256-bit edge weights, and the order of transpositions and exchanges
 * is settled by a sequence of re-solves.  It aims to match bbpPairings'
 * reading of the 2025 rules; see pairing.c.
 */
#ifndef CHESS_PAIRING_H
#define CHESS_PAIRING_H

#include <stdbool.h>
#include <stddef.h>

#include "tourney.h"

#define PAIRING_BERGER_MIN	3
#define PAIRING_BERGER_MAX	40

struct pairing_pair {
	int white, black;
};

/* Rounds in a round robin of n players: n - 1 (n even) or n (n odd), twice if double. */
int pairing_berger_rounds(int nplayers, bool double_round_robin);
/*
 * Round `round` (1-based) of a round robin of nplayers (PAIRING_BERGER_MIN..
 * PAIRING_BERGER_MAX) by the Berger tables, in board order.  Writes the
 * games to pairs (room for nplayers / 2 + 1) and returns their number; with
 * an odd nplayers the player who meets the dummy is written to *bye (else
 * *bye = 0).  In a double round robin the second cycle repeats the first
 * with colours reversed, and the first cycle's last two rounds are swapped.
 * Returns -1 with a message in err for bad arguments.
 */
int pairing_berger(int nplayers, int round, bool double_round_robin,
    struct pairing_pair *pairs, int *bye, char *err, size_t errlen);

/*
 * Pairs round `round` (= t->rounds_paired + 1) of the Swiss tournament t by
 * the Dutch system.  out gets the games in board order (results NONE), a
 * 'U' bye for the odd player out if any, and the requested byes (H, Z, F) of
 * players absent that round.  Withdrawn players get nothing.  Returns -1
 * with a message in err when t is inconsistent or no pairing satisfies the
 * absolute criteria.
 */
int pairing_dutch(const struct tourney *t, int round, struct tourney_round *out,
    char *err, size_t errlen);

#endif
