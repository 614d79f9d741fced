#include <string.h>

#include "board.h"
#include "zobrist.h"

/* Rights that survive a move touching each square (king and rook homes). */
static const uint8_t castling_keep[64] = {
	[SQ_A1] = CASTLE_ALL & ~CASTLE_WQ, [SQ_E1] = CASTLE_ALL & ~(CASTLE_WK | CASTLE_WQ),
	[SQ_H1] = CASTLE_ALL & ~CASTLE_WK, [SQ_A8] = CASTLE_ALL & ~CASTLE_BQ,
	[SQ_E8] = CASTLE_ALL & ~(CASTLE_BK | CASTLE_BQ), [SQ_H8] = CASTLE_ALL & ~CASTLE_BK,
};

static unsigned keep_mask(int sq)
{
	return castling_keep[sq] ? castling_keep[sq] : CASTLE_ALL;
}

void board_clear(struct board *b)
{
	memset(b, 0, sizeof *b);
	b->ep_square = SQ_NONE;
	b->fullmove_number = 1;
	b->key = 0;
}

static inline void put(struct board *b, int p, int sq)
{
	bitboard bit = bb_square(sq);
	b->by_type[piece_type_of(p)] |= bit;
	b->by_color[piece_color(p)] |= bit;
	b->squares[sq] = (uint8_t)p;
	b->key ^= zobrist->piece[p][sq];
}

static inline void take(struct board *b, int sq)
{
	int p = b->squares[sq];
	bitboard bit = bb_square(sq);
	b->by_type[piece_type_of(p)] ^= bit;
	b->by_color[piece_color(p)] ^= bit;
	b->squares[sq] = NO_PIECE;
	b->key ^= zobrist->piece[p][sq];
}

static inline void shift(struct board *b, int from, int to)
{
	int p = b->squares[from];
	bitboard bits = bb_square(from) | bb_square(to);
	b->by_type[piece_type_of(p)] ^= bits;
	b->by_color[piece_color(p)] ^= bits;
	b->squares[from] = NO_PIECE;
	b->squares[to] = (uint8_t)p;
	b->key ^= zobrist->piece[p][from] ^ zobrist->piece[p][to];
}

void board_put(struct board *b, enum piece p, int sq)
{
	put(b, p, sq);
}

void board_start(struct board *b)
{
	static const enum piece_type back[8] = { ROOK, KNIGHT, BISHOP, QUEEN, KING,
	    BISHOP, KNIGHT, ROOK };

	board_clear(b);
	for (int f = 0; f < 8; f++) {
		put(b, piece_make(WHITE, back[f]), square_make(f, 0));
		put(b, W_PAWN, square_make(f, 1));
		put(b, B_PAWN, square_make(f, 6));
		put(b, piece_make(BLACK, back[f]), square_make(f, 7));
	}
	board_set_state(b, WHITE, CASTLE_ALL, SQ_NONE);
}

void board_set_state(struct board *b, enum color side, unsigned castling, int ep_square)
{
	if (b->side == BLACK)
		b->key ^= zobrist->side;
	b->key ^= zobrist->castling[b->castling];
	if (b->ep_square != SQ_NONE)
		b->key ^= zobrist->en_passant[square_file(b->ep_square)];

	b->side = (uint8_t)side;
	b->castling = (uint8_t)castling;
	b->ep_square = SQ_NONE;
	if (ep_square != SQ_NONE && board_ep_capture_legal(b, ep_square))
		b->ep_square = (uint8_t)ep_square;

	if (b->side == BLACK)
		b->key ^= zobrist->side;
	b->key ^= zobrist->castling[b->castling];
	if (b->ep_square != SQ_NONE)
		b->key ^= zobrist->en_passant[square_file(b->ep_square)];
}

uint64_t board_compute_key(const struct board *b)
{
	uint64_t key = 0;

	for (int sq = 0; sq < 64; sq++)
		key ^= zobrist->piece[b->squares[sq]][sq];
	key ^= zobrist->castling[b->castling];
	if (b->ep_square != SQ_NONE)
		key ^= zobrist->en_passant[square_file(b->ep_square)];
	if (b->side == BLACK)
		key ^= zobrist->side;
	return key;
}

/*
 * Whether the side to move could capture en passant onto ep: some pawn
 * attacks it and, with both pawns off their squares, nothing checks the king.
 * FIDE 9.2.3 counts the en passant right only when this holds.
 */
bool board_ep_capture_legal(const struct board *b, int ep)
{
	enum color us = (enum color)b->side, them = color_other(us);
	int victim = us == WHITE ? ep - 8 : ep + 8;
	bitboard capturers = attacks_pawn(ep, them) & board_pieces(b, us, PAWN);
	int ksq;

	if (!(board_pieces(b, them, PAWN) & bb_square(victim)) || !capturers ||
	    !board_pieces(b, us, KING))
		return false;
	ksq = board_king(b, us);
	while (capturers) {
		int from = bb_pop(&capturers);
		bitboard occ = (board_occupied(b) ^ bb_square(from) ^ bb_square(victim)) |
		    bb_square(ep);
		bitboard checks = (attacks_rook(ksq, occ) & (b->by_type[ROOK] | b->by_type[QUEEN])) |
		    (attacks_bishop(ksq, occ) & (b->by_type[BISHOP] | b->by_type[QUEEN])) |
		    (attacks_knight(ksq) & b->by_type[KNIGHT]) |
		    (attacks_pawn(ksq, us) & b->by_type[PAWN] & ~bb_square(victim));
		if (!(checks & b->by_color[them]))
			return true;
	}
	return false;
}

void board_make(struct board *b, move m)
{
	int from = move_from(m), to = move_to(m);
	enum color us = (enum color)b->side, them = color_other(us);
	int piece = b->squares[from];
	enum move_kind kind = move_kind_of(m);

	b->key ^= zobrist->castling[b->castling] ^ zobrist->side;
	if (b->ep_square != SQ_NONE) {
		b->key ^= zobrist->en_passant[square_file(b->ep_square)];
		b->ep_square = SQ_NONE;
	}
	b->halfmove_clock++;
	if (us == BLACK)
		b->fullmove_number++;

	if (kind == MOVE_CASTLING) {
		bool king_side = to > from;
		shift(b, from, to);
		shift(b, king_side ? to + 1 : to - 2, king_side ? to - 1 : to + 1);
	} else {
		if (kind == MOVE_EN_PASSANT) {
			take(b, us == WHITE ? to - 8 : to + 8);
		} else if (b->squares[to]) {
			take(b, to);
			b->halfmove_clock = 0;
		}
		shift(b, from, to);
		if (piece_type_of(piece) == PAWN) {
			b->halfmove_clock = 0;
			if (kind == MOVE_PROMOTION) {
				take(b, to);
				put(b, piece_make(us, move_promotion(m)), to);
			} else if ((to ^ from) == 16 &&
			    (attacks_pawn((from + to) / 2, us) & board_pieces(b, them, PAWN))) {
				/* Double push next to an enemy pawn: record ep only if legal. */
				b->side = (uint8_t)them;
				if (board_ep_capture_legal(b, (from + to) / 2)) {
					b->ep_square = (uint8_t)((from + to) / 2);
					b->key ^= zobrist->en_passant[square_file(from)];
				}
			}
		}
	}
	b->castling &= (uint8_t)(keep_mask(from) & keep_mask(to));
	b->key ^= zobrist->castling[b->castling];
	b->side = (uint8_t)them;
}

/*
 * Material alone decides 6.9 here: a bare king cannot mate; a king and one
 * knight can only against pieces that could block their own king's flight
 * (not with only queens to help); kings and bishops all on one square colour
 * cannot mate unless a pawn or knight could ever block.
 */
bool board_cannot_mate(const struct board *b, enum color c)
{
	bitboard ours = b->by_color[c], theirs = b->by_color[color_other(c)];

	if (ours & (b->by_type[PAWN] | b->by_type[ROOK] | b->by_type[QUEEN]))
		return false;
	if (ours & b->by_type[KNIGHT])
		return bb_count(ours) <= 2 &&
		    !(theirs & ~b->by_type[KING] & ~b->by_type[QUEEN]);
	if (ours & b->by_type[BISHOP]) {
		bitboard bishops = b->by_type[BISHOP];
		bool one_colour = !(bishops & BB_DARK_SQUARES) || !(bishops & BB_LIGHT_SQUARES);
		return one_colour && !b->by_type[PAWN] && !b->by_type[KNIGHT];
	}
	return true;
}

/* Squares a king of colour c could ever walk to, given a frozen pawn structure. */
static bitboard king_region(const struct board *b, enum color c)
{
	enum color them = color_other(c);
	bitboard forbidden = bb_pawn_attacks(board_pieces(b, them, PAWN), them) |
	    board_pieces(b, c, PAWN);
	bitboard region = board_pieces(b, c, KING), prev = 0;

	while (region != prev) {
		prev = region;
		region |= (bb_north(region) | bb_south(region) | bb_east(region) |
		    bb_west(region) | bb_east(bb_north(region)) | bb_west(bb_north(region)) |
		    bb_east(bb_south(region)) | bb_west(bb_south(region))) & ~forbidden;
	}
	return region;
}

static bitboard diagonal_neighbours(bitboard b)
{
	return bb_east(bb_north(b)) | bb_west(bb_north(b)) | bb_east(bb_south(b)) |
	    bb_west(bb_south(b));
}

/* Squares a bishop on from could ever stand on, were only the pawns fixed. */
static bitboard bishop_region(bitboard from, bitboard pawns)
{
	bitboard region = from, prev = 0;

	while (region != prev) {
		prev = region;
		region |= diagonal_neighbours(region) & ~pawns;
	}
	return region;
}

/*
 * A frozen pawn structure: only kings, bishops and pawns; every pawn blocked
 * head-on by a pawn; no pawn capture now, and none ever, because no king or
 * bishop can reach a square an enemy pawn attacks or attack an enemy pawn.
 * Then the pawns never change, each king stays in its region and each
 * bishop in its own.  Writes, per colour, every square that colour could
 * ever attack (the fixed pawns' attacks and the bishops' rays) and the
 * squares its king could ever stand on.
 */
static bool pawns_frozen(const struct board *b, bitboard attackable[COLOR_NB],
    bitboard kings[COLOR_NB])
{
	bitboard pawns = b->by_type[PAWN];

	if (board_occupied(b) & ~(pawns | b->by_type[KING] | b->by_type[BISHOP]) || !pawns)
		return false;
	if (b->ep_square != SQ_NONE)
		return false;
	for (int c = WHITE; c <= BLACK; c++) {
		enum color us = (enum color)c, them = color_other(us);
		bitboard ours = board_pieces(b, us, PAWN), theirs = board_pieces(b, them, PAWN);
		bitboard their_attacks = bb_pawn_attacks(theirs, them);

		if (bb_push(ours, us) & ~pawns || bb_pawn_attacks(ours, us) & theirs)
			return false;
		kings[us] = king_region(b, us);
		if (kings[us] & theirs)
			return false;
		attackable[us] = bb_pawn_attacks(ours, us);
		for (bitboard bishops = board_pieces(b, us, BISHOP); bishops;) {
			bitboard region = bishop_region(bb_square(bb_pop(&bishops)), pawns);
			if (region & their_attacks || diagonal_neighbours(region) & theirs)
				return false;
			attackable[us] |= region;
		}
	}
	return true;
}

bool board_locked_out(const struct board *b, enum color c)
{
	bitboard attackable[COLOR_NB], kings[COLOR_NB];

	return pawns_frozen(b, attackable, kings) && !(attackable[c] & kings[color_other(c)]);
}

/*
 * Dead positions beyond material (5.2.2): a frozen pawn structure (above)
 * in which no piece of either side can ever attack a square the enemy king
 * could reach: no check is ever possible, so no mate.  Sound (never calls a
 * live position dead) but not complete, as a full decision needs search.
 */
static bool pawns_locked(const struct board *b)
{
	bitboard attackable[COLOR_NB], kings[COLOR_NB];

	return pawns_frozen(b, attackable, kings) && !(attackable[WHITE] & kings[BLACK]) &&
	    !(attackable[BLACK] & kings[WHITE]);
}

bool board_is_dead(const struct board *b)
{
	return (board_cannot_mate(b, WHITE) && board_cannot_mate(b, BLACK)) ||
	    pawns_locked(b);
}
