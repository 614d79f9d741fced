/*
 * Pawn walls: a proof that a side can never mate, drawn over every pawn
 * structure the position may come to, each with the regions its pieces
 * may reach there.  Sound and incomplete: "true" only when no series of
 * legal moves mates; "false" also when the walk ran past its budget.
 */
#ifndef CHESS_PAWN_WALL_H
#define CHESS_PAWN_WALL_H

#include "board.h"

/* Pawn structures the walk may visit before it gives up. */
#define PAWN_WALL_MAX_STATES 4096

/* Structures for the second walk, run only on what every stage left
 * undetermined: larger locked lattices need more than the first cap. */
#define PAWN_WALL_RETRY_STATES 16384

/* Whether `side` can never checkmate, visiting at most max_states structures. */
bool pawn_wall_unwinnable(const struct board *b, enum color side, int max_states);

#endif
