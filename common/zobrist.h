/*
 * Zobrist keys: a 64-bit signature per (piece, square), castling set,
 * en passant file and side to move, built once at load from a fixed seed.
 */
#ifndef CHESS_ZOBRIST_H
#define CHESS_ZOBRIST_H

#include "types.h"

struct zobrist_keys {
	uint64_t piece[PIECE_NB][64];
	uint64_t castling[16];
	uint64_t en_passant[8];
	uint64_t side;
};

extern const struct zobrist_keys *const zobrist;

#endif
