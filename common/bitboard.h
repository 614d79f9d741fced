/* Bitboard arithmetic: one bit per square, a1 is bit 0. */
#ifndef CHESS_BITBOARD_H
#define CHESS_BITBOARD_H

#include "types.h"

#define BB_FILE_A 0x0101010101010101ULL
#define BB_FILE_H (BB_FILE_A << 7)
#define BB_RANK_1 0xffULL
#define BB_RANK_2 (BB_RANK_1 << 8)
#define BB_RANK_3 (BB_RANK_1 << 16)
#define BB_RANK_4 (BB_RANK_1 << 24)
#define BB_RANK_5 (BB_RANK_1 << 32)
#define BB_RANK_6 (BB_RANK_1 << 40)
#define BB_RANK_7 (BB_RANK_1 << 48)
#define BB_RANK_8 (BB_RANK_1 << 56)
#define BB_LIGHT_SQUARES 0x55aa55aa55aa55aaULL
#define BB_DARK_SQUARES (~BB_LIGHT_SQUARES)

static inline bitboard bb_square(int sq) { return 1ULL << sq; }
static inline int bb_count(bitboard b) { return __builtin_popcountll(b); }
static inline int bb_lsb(bitboard b) { return __builtin_ctzll(b); }
static inline bool bb_several(bitboard b) { return (b & (b - 1)) != 0; }

/* Removes and returns the lowest set square; b must not be empty. */
static inline int bb_pop(bitboard *b)
{
	int sq = __builtin_ctzll(*b);
	*b &= *b - 1;
	return sq;
}

static inline bitboard bb_file_of(int sq) { return BB_FILE_A << (sq & 7); }
static inline bitboard bb_rank_of(int sq) { return BB_RANK_1 << (sq & 56); }

static inline bitboard bb_north(bitboard b) { return b << 8; }
static inline bitboard bb_south(bitboard b) { return b >> 8; }
static inline bitboard bb_east(bitboard b) { return (b & ~BB_FILE_H) << 1; }
static inline bitboard bb_west(bitboard b) { return (b & ~BB_FILE_A) >> 1; }

/* One step "forward" for colour c. */
static inline bitboard bb_push(bitboard b, enum color c)
{
	return c == WHITE ? b << 8 : b >> 8;
}

/* Squares attacked by all pawns of colour c in b. */
static inline bitboard bb_pawn_attacks(bitboard b, enum color c)
{
	bitboard f = bb_push(b, c);
	return bb_east(f) | bb_west(f);
}

#endif
