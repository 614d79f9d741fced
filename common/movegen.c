/*
 * One generator serves both listing and counting: gen() is inlined into two
 * callers with a constant `list`, so the counting copy keeps only popcounts.
 */
#include <stddef.h>

#include "movegen.h"

static inline int emit(move *list, int n, int from, bitboard targets)
{
	while (targets)
		list[n++] = move_make(from, bb_pop(&targets));
	return n;
}

/* Pawn moves whose origin is `to - delta`, promotions expanded four ways. */
static inline int emit_pawns(move *list, int n, bitboard targets, int delta, bool promo)
{
	while (targets) {
		int to = bb_pop(&targets), from = to - delta;
		if (promo) {
			list[n++] = move_make_promotion(from, to, QUEEN);
			list[n++] = move_make_promotion(from, to, ROOK);
			list[n++] = move_make_promotion(from, to, BISHOP);
			list[n++] = move_make_promotion(from, to, KNIGHT);
		} else {
			list[n++] = move_make(from, to);
		}
	}
	return n;
}

/* Squares the enemy attacks with our king lifted off the board. */
static inline bitboard danger_map(const struct board *b, enum color them, bitboard occ)
{
	bitboard danger = bb_pawn_attacks(board_pieces(b, them, PAWN), them) |
	    attacks_king(board_king(b, them));
	bitboard p = board_pieces(b, them, KNIGHT);
	while (p)
		danger |= attacks_knight(bb_pop(&p));
	p = b->by_color[them] & (b->by_type[BISHOP] | b->by_type[QUEEN]);
	while (p)
		danger |= attacks_bishop(bb_pop(&p), occ);
	p = b->by_color[them] & (b->by_type[ROOK] | b->by_type[QUEEN]);
	while (p)
		danger |= attacks_rook(bb_pop(&p), occ);
	return danger;
}

__attribute__((always_inline)) static inline int gen(const struct board *b, move *list,
    bitboard dest)
{
	const enum color us = (enum color)b->side, them = color_other(us);
	const bitboard ours = b->by_color[us], theirs = b->by_color[them];
	const bitboard occ = ours | theirs, empty = ~occ;
	const int ksq = board_king(b, us);
	const bitboard checkers = board_attackers(b, ksq, occ) & theirs;
	const bitboard danger = danger_map(b, them, occ ^ bb_square(ksq));
	int n = 0;

	bitboard kt = attacks_king(ksq) & ~ours & ~danger & dest;
	if (list)
		n = emit(list, n, ksq, kt);
	else
		n += bb_count(kt);
	if (bb_several(checkers))
		return n;

	/* Squares a non-king move must land on: anywhere, or block/capture the check. */
	bitboard target = ~ours & dest;
	if (checkers)
		target &= attacks_between(ksq, bb_lsb(checkers)) | checkers;

	/* Pieces pinned to our king by an enemy slider. */
	bitboard pinned = 0;
	bitboard snipers = ((attacks_rook(ksq, theirs) & (b->by_type[ROOK] | b->by_type[QUEEN])) |
	    (attacks_bishop(ksq, theirs) & (b->by_type[BISHOP] | b->by_type[QUEEN]))) & theirs;
	while (snipers) {
		bitboard between = attacks_between(ksq, bb_pop(&snipers)) & occ;
		if (!bb_several(between))
			pinned |= between & ours;
	}

	/* Pawns. */
	const bitboard pawns = board_pieces(b, us, PAWN);
	const bitboard promo_rank = us == WHITE ? BB_RANK_8 : BB_RANK_1;
	const bitboard third_rank = us == WHITE ? BB_RANK_3 : BB_RANK_6;
	const int up = us == WHITE ? 8 : -8;
	const int up_east = up + 1, up_west = up - 1;
	bitboard free_pawns = pawns & ~pinned;
	bitboard single = bb_push(free_pawns, us) & empty;
	bitboard dbl = bb_push(single & third_rank, us) & empty & target;
	single &= target;
	bitboard cap_e = bb_push(bb_east(free_pawns), us) & theirs & target;
	bitboard cap_w = bb_push(bb_west(free_pawns), us) & theirs & target;
	if (list) {
		n = emit_pawns(list, n, single & ~promo_rank, up, false);
		n = emit_pawns(list, n, single & promo_rank, up, true);
		n = emit_pawns(list, n, dbl, 2 * up, false);
		n = emit_pawns(list, n, cap_e & ~promo_rank, up_east, false);
		n = emit_pawns(list, n, cap_e & promo_rank, up_east, true);
		n = emit_pawns(list, n, cap_w & ~promo_rank, up_west, false);
		n = emit_pawns(list, n, cap_w & promo_rank, up_west, true);
	} else {
		n += bb_count(single & ~promo_rank) + 4 * bb_count(single & promo_rank) +
		    bb_count(dbl) + bb_count(cap_e & ~promo_rank) +
		    4 * bb_count(cap_e & promo_rank) + bb_count(cap_w & ~promo_rank) +
		    4 * bb_count(cap_w & promo_rank);
	}
	/* A pinned piece can never answer a check, so pinned moves only when not in check. */
	bitboard pinned_pawns = checkers ? 0 : pawns & pinned;
	while (pinned_pawns) {
		int from = bb_pop(&pinned_pawns);
		bitboard ray = attacks_line(ksq, from);
		bitboard to = bb_push(bb_square(from), us) & empty;
		if (to && (from ^ (us == WHITE ? SQ_A2 : SQ_A7)) < 8)
			to |= bb_push(to, us) & empty;
		to |= attacks_pawn(from, us) & theirs;
		to &= ray & dest;
		if (list) {
			while (to) {
				int t = bb_pop(&to);
				n = emit_pawns(list, n, bb_square(t), t - from, (promo_rank >> t) & 1);
			}
		} else {
			n += bb_count(to & ~promo_rank) + 4 * bb_count(to & promo_rank);
		}
	}
	if (b->ep_square != SQ_NONE && (dest & bb_square(b->ep_square))) {
		int ep = b->ep_square, victim = ep - up;
		bitboard from_set = attacks_pawn(ep, them) & pawns;
		while (from_set) {
			int from = bb_pop(&from_set);
			bitboard after = (occ ^ bb_square(from) ^ bb_square(victim)) | bb_square(ep);
			bitboard hits = ((attacks_rook(ksq, after) & (b->by_type[ROOK] | b->by_type[QUEEN])) |
			    (attacks_bishop(ksq, after) & (b->by_type[BISHOP] | b->by_type[QUEEN])) |
			    (checkers & ~bb_square(victim) & (b->by_type[KNIGHT] | b->by_type[PAWN]))) &
			    theirs;
			if (hits)
				continue;
			if (list)
				list[n++] = move_make_kind(from, ep, MOVE_EN_PASSANT);
			else
				n++;
		}
	}

	/* Knights (a pinned knight never moves), bishops, rooks, queens. */
	bitboard p = board_pieces(b, us, KNIGHT) & ~pinned;
	while (p) {
		int from = bb_pop(&p);
		bitboard t = attacks_knight(from) & target;
		if (list)
			n = emit(list, n, from, t);
		else
			n += bb_count(t);
	}
	p = ours & (b->by_type[BISHOP] | b->by_type[QUEEN]);
	while (p) {
		int from = bb_pop(&p);
		bitboard t = attacks_bishop(from, occ) & target;
		if (pinned & bb_square(from))
			t &= attacks_line(ksq, from);
		if (list)
			n = emit(list, n, from, t);
		else
			n += bb_count(t);
	}
	p = ours & (b->by_type[ROOK] | b->by_type[QUEEN]);
	while (p) {
		int from = bb_pop(&p);
		bitboard t = attacks_rook(from, occ) & target;
		if (pinned & bb_square(from))
			t &= attacks_line(ksq, from);
		if (list)
			n = emit(list, n, from, t);
		else
			n += bb_count(t);
	}

	/* Castling: king not in check, path empty, king's squares not attacked. */
	if (!checkers && b->castling) {
		unsigned ks = us == WHITE ? CASTLE_WK : CASTLE_BK;
		unsigned qs = us == WHITE ? CASTLE_WQ : CASTLE_BQ;
		if ((b->castling & ks) && (dest & bb_square(ksq + 2)) &&
		    !(attacks_between(ksq, ksq + 3) & occ) &&
		    !(attacks_between(ksq, ksq + 3) & danger)) {
			if (list)
				list[n++] = move_make_kind(ksq, ksq + 2, MOVE_CASTLING);
			else
				n++;
		}
		if ((b->castling & qs) && (dest & bb_square(ksq - 2)) &&
		    !(attacks_between(ksq, ksq - 4) & occ) &&
		    !((bb_square(ksq - 1) | bb_square(ksq - 2)) & danger)) {
			if (list)
				list[n++] = move_make_kind(ksq, ksq - 2, MOVE_CASTLING);
			else
				n++;
		}
	}
	return n;
}

int movegen_legal(const struct board *b, move *list)
{
	return gen(b, list, ~0ULL);
}

int movegen_legal_to(const struct board *b, bitboard dest, move *list)
{
	return gen(b, list, dest);
}

int movegen_count(const struct board *b)
{
	return gen(b, NULL, ~0ULL);
}

uint64_t movegen_perft(const struct board *b, int depth)
{
	move list[MAX_MOVES];
	uint64_t nodes = 0;

	if (depth <= 0)
		return 1;
	if (depth == 1)
		return (uint64_t)movegen_count(b);
	int n = movegen_legal(b, list);
	for (int i = 0; i < n; i++) {
		struct board child = *b;
		board_make(&child, list[i]);
		nodes += movegen_perft(&child, depth - 1);
	}
	return nodes;
}
