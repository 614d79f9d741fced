/*
 * Legal move generation straight from check and pin masks (no make-and-test),
 * a counting twin for bulk-counted perft, and perft itself.
 */
#ifndef CHESS_MOVEGEN_H
#define CHESS_MOVEGEN_H

#include "board.h"

/* Writes every legal move of b to list (room for MAX_MOVES); returns how many. */
int movegen_legal(const struct board *b, move *list);
/* Only the legal moves that land on a square of dest (castling by the king's square). */
int movegen_legal_to(const struct board *b, bitboard dest, move *list);
/* The number of legal moves, without writing them. */
int movegen_count(const struct board *b);
/* Leaf nodes at depth (depth 0 is 1), bulk counting the last ply. */
uint64_t movegen_perft(const struct board *b, int depth);

#endif
