/*
 * The board: piece placement as bitboards and a mailbox, with the state
 * that FEN carries.  Fields are public because the move generator and the
 * search read them on every node; change them only through board_* verbs.
 */
#ifndef CHESS_BOARD_H
#define CHESS_BOARD_H

#include "attacks.h"

struct board {
	bitboard by_type[TYPE_NB];	/* index NO_TYPE is unused */
	bitboard by_color[COLOR_NB];
	uint8_t squares[64];		/* enum piece per square */
	uint64_t key;			/* Zobrist signature, FIDE 9.2.3 identity */
	uint8_t side;			/* enum color to move */
	uint8_t castling;		/* enum castling set */
	uint8_t ep_square;		/* set only when an en passant capture is legal */
	uint16_t halfmove_clock;	/* plies since the last capture or pawn move */
	uint16_t fullmove_number;
};

/* Empties the board: no pieces, White to move, move 1. */
void board_clear(struct board *b);
/* The standard starting position. */
void board_start(struct board *b);
/* Puts piece p on the empty square sq (setup only; keeps the key in step). */
void board_put(struct board *b, enum piece p, int sq);
/* Sets the side to move, castling rights and en passant square, fixing the key. */
void board_set_state(struct board *b, enum color side, unsigned castling, int ep_square);
/* Plays a legal move in place. */
void board_make(struct board *b, move m);

/* Key recomputed from scratch (for tests and assertions). */
uint64_t board_compute_key(const struct board *b);

/* True when an en passant capture to ep_square would be legal for the side to move. */
bool board_ep_capture_legal(const struct board *b, int ep_square);

/* Side c cannot checkmate by any series of legal moves, judged by material (6.9). */
bool board_cannot_mate(const struct board *b, enum color c);
/* Side c can never give check: pawns frozen for good and c's pieces walled off. */
bool board_locked_out(const struct board *b, enum color c);
/* No sequence of legal moves can end in checkmate for either side (5.2.2). */
bool board_is_dead(const struct board *b);

static inline bitboard board_occupied(const struct board *b)
{
	return b->by_color[WHITE] | b->by_color[BLACK];
}

static inline bitboard board_pieces(const struct board *b, enum color c, enum piece_type t)
{
	return b->by_color[c] & b->by_type[t];
}

static inline int board_king(const struct board *b, enum color c)
{
	return bb_lsb(board_pieces(b, c, KING));
}

/* Every piece of either colour that attacks sq, with occupancy occ. */
static inline bitboard board_attackers(const struct board *b, int sq, bitboard occ)
{
	return (attacks_pawn(sq, WHITE) & board_pieces(b, BLACK, PAWN)) |
	    (attacks_pawn(sq, BLACK) & board_pieces(b, WHITE, PAWN)) |
	    (attacks_knight(sq) & b->by_type[KNIGHT]) |
	    (attacks_king(sq) & b->by_type[KING]) |
	    (attacks_rook(sq, occ) & (b->by_type[ROOK] | b->by_type[QUEEN])) |
	    (attacks_bishop(sq, occ) & (b->by_type[BISHOP] | b->by_type[QUEEN]));
}

/* Enemy pieces giving check to the side to move. */
static inline bitboard board_checkers(const struct board *b)
{
	enum color us = (enum color)b->side;
	return board_attackers(b, board_king(b, us), board_occupied(b)) &
	    b->by_color[color_other(us)];
}

static inline bool board_in_check(const struct board *b)
{
	return board_checkers(b) != 0;
}

#endif
