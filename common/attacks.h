/*
 * Attack tables, built once when the program loads and read-only after.
 * Sliders use PEXT indexing where the compiler targets BMI2, and "fancy"
 * magic multiplication otherwise; both index the same table layout.
 */
#ifndef CHESS_ATTACKS_H
#define CHESS_ATTACKS_H

#include "bitboard.h"

#if defined(__BMI2__) && !defined(CHESS_NO_PEXT)
#include <immintrin.h>
#define ATTACKS_USE_PEXT 1
#endif

struct attacks_slider {
	bitboard *table;	/* attack sets indexed by occupancy */
	bitboard mask;		/* relevant occupancy (no edges) */
	bitboard magic;
	unsigned shift;
};

struct attacks_tables {
	bitboard pawn[COLOR_NB][64];
	bitboard knight[64];
	bitboard king[64];
	bitboard between[64][64];	/* squares strictly between, if aligned */
	bitboard line[64][64];		/* whole line through both, if aligned */
	struct attacks_slider rook[64];
	struct attacks_slider bishop[64];
};

extern const struct attacks_tables *const attacks;

static inline unsigned attacks_index(const struct attacks_slider *s, bitboard occ)
{
#ifdef ATTACKS_USE_PEXT
	return (unsigned)_pext_u64(occ, s->mask);
#else
	return (unsigned)(((occ & s->mask) * s->magic) >> s->shift);
#endif
}

static inline bitboard attacks_rook(int sq, bitboard occ)
{
	const struct attacks_slider *s = &attacks->rook[sq];
	return s->table[attacks_index(s, occ)];
}

static inline bitboard attacks_bishop(int sq, bitboard occ)
{
	const struct attacks_slider *s = &attacks->bishop[sq];
	return s->table[attacks_index(s, occ)];
}

static inline bitboard attacks_queen(int sq, bitboard occ)
{
	return attacks_rook(sq, occ) | attacks_bishop(sq, occ);
}

static inline bitboard attacks_knight(int sq) { return attacks->knight[sq]; }
static inline bitboard attacks_king(int sq) { return attacks->king[sq]; }
static inline bitboard attacks_pawn(int sq, enum color c) { return attacks->pawn[c][sq]; }
static inline bitboard attacks_between(int a, int b) { return attacks->between[a][b]; }
static inline bitboard attacks_line(int a, int b) { return attacks->line[a][b]; }

/* Attacks of a piece type other than pawn from sq given occupancy occ. */
static inline bitboard attacks_of(enum piece_type t, int sq, bitboard occ)
{
	switch (t) {
	case KNIGHT: return attacks_knight(sq);
	case BISHOP: return attacks_bishop(sq, occ);
	case ROOK: return attacks_rook(sq, occ);
	case QUEEN: return attacks_queen(sq, occ);
	case KING: return attacks_king(sq);
	default: return 0;
	}
}

#endif
