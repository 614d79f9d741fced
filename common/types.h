/*
 * Basic vocabulary of the rules core: squares, colours, pieces, bitboards and
 * 16-bit packed moves.  Everything here is plain data and inline arithmetic.
 */
#ifndef CHESS_TYPES_H
#define CHESS_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t bitboard;

/* Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63. */
enum square {
	SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
	SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
	SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
	SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
	SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
	SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
	SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
	SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
	SQ_NONE = 64
};

enum color { WHITE, BLACK, COLOR_NB };

/* Piece types index the per-type bitboards; 0 is "none". */
enum piece_type { NO_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, TYPE_NB };

/* A piece is colour * 8 + type, so 0 and 8 are both "empty". */
enum piece {
	NO_PIECE = 0,
	W_PAWN = 1, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
	B_PAWN = 9, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
	PIECE_NB = 16
};

/* Castling rights as a 4-bit set. */
enum castling {
	CASTLE_WK = 1, CASTLE_WQ = 2, CASTLE_BK = 4, CASTLE_BQ = 8,
	CASTLE_ALL = 15
};

/*
 * A move in 16 bits: from (6), to (6), then 2 bits of promotion piece
 * (knight..queen) and 2 bits of kind.  Castling is stored as the king's
 * two-square step, which is also its UCI form.
 */
typedef uint16_t move;

enum move_kind {
	MOVE_NORMAL = 0,
	MOVE_PROMOTION = 1 << 14,
	MOVE_EN_PASSANT = 2 << 14,
	MOVE_CASTLING = 3 << 14
};

#define MOVE_NONE ((move)0)
#define MAX_MOVES 256

static inline int square_make(int file, int rank) { return rank * 8 + file; }
static inline int square_file(int sq) { return sq & 7; }
static inline int square_rank(int sq) { return sq >> 3; }

static inline enum color color_other(enum color c) { return (enum color)(c ^ 1); }

static inline enum piece piece_make(enum color c, enum piece_type t)
{
	return (enum piece)(c * 8 + t);
}
static inline enum piece_type piece_type_of(int p) { return (enum piece_type)(p & 7); }
static inline enum color piece_color(int p) { return (enum color)(p >> 3); }

static inline move move_make(int from, int to) { return (move)(from | to << 6); }
static inline move move_make_kind(int from, int to, enum move_kind kind)
{
	return (move)(from | to << 6 | kind);
}
static inline move move_make_promotion(int from, int to, enum piece_type t)
{
	return (move)(from | to << 6 | (t - KNIGHT) << 12 | MOVE_PROMOTION);
}
static inline int move_from(move m) { return m & 63; }
static inline int move_to(move m) { return (m >> 6) & 63; }
static inline enum move_kind move_kind_of(move m) { return (enum move_kind)(m & (3 << 14)); }
static inline enum piece_type move_promotion(move m)
{
	return (enum piece_type)(((m >> 12) & 3) + KNIGHT);
}

#endif
