/*
 * Can `side` still checkmate?  Three stages, cheapest first:
 *
 *   1. the static check of board.c: material that can never mate, or a
 *      locked pawn wall that no king can cross; at the root only, regions
 *      drawn over every future structure of kings, pawns and bishops, and
 *      then (pawn_wall.c) a walk over the pawn structures themselves, with
 *      each piece's region in each; where the side to move has one or
 *      two answers (a queen that must be taken), the same proofs after
 *      each of them, a few plies deep;
 *   2. cooperative mate searches (both sides helping the winner): a beam
 *      that keeps the few positions nearest a mate ply after ply; behind
 *      rammed pawns, a short search for a pawn capture (a piece given to a
 *      pawn) that dives from what it leaves; a guided dive that follows
 *      the child nearest a mate, one more detour allowed each pass, for
 *      long helpmates; iterative deepening for short ones; then the beam
 *      again, where it paused.  They only ever answer "winnable", with the
 *      line found, so their ordering and pruning may be as greedy as they
 *      like;
 *   3. a best-first walk over every position reachable from here, cutting
 *      only where stage 1 proves a position hopeless.  If the walk runs out
 *      of positions without meeting a mate, no series of legal moves mates:
 *      that is the only way the search answers "unwinnable".  A short run
 *      of it goes first (a small reachable set is done before any search)
 *      and it resumes after stage 2 with what is left of the budget, or at
 *      once with all of it when its frontier shows a closed set.
 *
 * Repetition and move-count rules are ignored: they can only end games
 * earlier, so a position called unwinnable here is unwinnable under them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "bitboard.h"
#include "movegen.h"
#include "pawn_wall.h"
#include "unwinnable.h"

/* Shares (percent) of the budget: a first walk of stage 3, then stage 2's
 * beam, pawn breaks, dive, iterative deepening and beam again (below);
 * stage 3 resumes with what they left.  The first walk finds many long
 * helpmates of lone minor pieces (best first, it leaves a plateau of its
 * guide for the best frontier anywhere) and the dive most of the rest.
 * A first walk of half the budget proves a few more compositions
 * unwinnable, but costs the long helpmates that the dive finds a third
 * more time, the tail of a flag's decision. */
#define REACH_FIRST_PCT 15
/* A first walk that pauses with a frontier under this share (percent) of
 * the positions it added goes on alone (reach_closed), after a narrow beam
 * with this share, with the rest of the budget. */
#define REACH_CLOSED_PCT 38
#define CLOSED_BEAM_PCT 1
/* Iterative deepening is kept for short mates the greedy searches might
 * pass over; on the benches it found none that they did not, and the most
 * of its old share is the beam's second one. */
#define HELPMATE_SHARE_PCT 2
/* Stage 3's replays and move generations allowed per budgeted node: bounds
 * the time of deep walks, whose positions cost a replay each. */
#define REACH_WORK_PER_NODE 16
/* Boards of positions the walk expanded kept for their children (a power of
 * two): a child is rebuilt from its parent's board in one move, not from
 * the root in as many as it is deep. */
#define REACH_CACHE_SIZE 4096
/* The guided dive's share (percent) of the budget, its line length and detours. */
#define DIVE_SHARE_PCT 45
#define DIVE_MAX_PLIES 120
#define DIVE_MAX_SLACK 6
/* The beam's shares (percent) of the budget, first and after the dive, its
 * widths (each pass four times the last) and its line length, within
 * HELPMATE_MAX_PLIES. */
#define BEAM_SHARE_PCT 12
#define BEAM_RESUME_PCT 12
#define BEAM_WIDTH_MIN 32
#define BEAM_WIDTH_MAX 128
#define BEAM_MAX_PLIES 160
/* The pawn breaks' share (percent) of the budget and each dive's in it, the
 * plies searched for a pawn capture, and the search's table of positions. */
#define BREAK_SHARE_PCT 3
#define BREAK_LEAF_PCT 2
#define BREAK_PLIES 6
#define BREAK_TT_SIZE 4096
/* The pawn breaks' move order (break_score), best first. */
enum { BREAK_TEMPO = 1, BREAK_OFFER, BREAK_THREAT, BREAK_CAPTURE };
_Static_assert(BEAM_MAX_PLIES <= HELPMATE_MAX_PLIES, "a beam's line must fit a helpmate");
_Static_assert(BEAM_WIDTH_MAX <= UINT16_MAX, "a beam's parents are 16-bit indices");
/* Children scored by the dive's and the beam's guide that count as one
 * more node (see scoring_cost). */
#define SCORED_MOVES_PER_NODE 32
/* The guides' weights for each square round the loser's king that the
 * winner's bishops of one colour never attack (unbishoped_flights), and
 * what the king's own square counts there if it is of that colour. */
#define DIVE_UNBISHOPED_WEIGHT 24
#define REACH_UNBISHOPED_WEIGHT 2
#define UNBISHOPED_KING_SQUARE 3
/* Entries of the searches' transposition tables at most: they only save
 * work, and clearing a larger one costs more than it saves on most calls. */
#define DIVE_TT_MAX (1u << 14)
#define HELPMATE_TT_MAX (1u << 15)
/* The walk's set of seen positions starts this small and doubles at half full. */
#define KEY_SET_MIN 1024
/* Forced lines (forced_unwinnable): positions with this many legal moves
 * or fewer are followed move by move, this many plies deep at most, with
 * this many static proofs of stage 1 tried in all. */
#define FORCED_MOVES_MAX 2
#define FORCED_PLIES_MAX 8
#define FORCED_PROOFS_MAX 16

struct tt_entry {
	uint64_t key;
	int depth;	/* searched this deep without finding a mate */
};

struct helpmate_search {
	enum color winner;
	long nodes, budget;
	bool out_of_budget;
	struct tt_entry *tt;
	size_t tt_mask;
	move path[HELPMATE_MAX_PLIES];
	int length;
};

/*
 * Kings, pawns and bishops only: pawns that never capture and are never captured
 * ("kept" pawns) stay on their files, so a kept pawn facing a kept enemy
 * pawn can never pass it, and one blocked by a pawn that never moves is
 * frozen.  From that guess every piece gets a region it can never leave:
 * a kept pawn its lane, any other pawn the squares its pushes and its
 * captures of other such pawns or of bishops reach, a bishop
 * the diagonals it can slide along without crossing a frozen pawn, a king the squares it can walk to
 * without crossing a frozen pawn or a square a frozen enemy pawn attacks.
 * A kept pawn whose region lets it capture or be captured is not kept,
 * and the regions are drawn again until the guess holds.  Then, by
 * induction over any series of moves, no piece leaves its region, so if no
 * pawn may promote, the loser's king is never mated if every square of its
 * region the winner may ever attack has a neighbour that none of the
 * loser's pawns can ever stand on and no piece of the winner can ever
 * attack: that step is always legal (no sliders are left to pin or x-ray).
 */
#define PAWN_LOCK_MAX 16

struct pawn_lock {
	int n;
	int sq[PAWN_LOCK_MAX];
	enum color color[PAWN_LOCK_MAX];
	bool kept[PAWN_LOCK_MAX];
	bitboard region[PAWN_LOCK_MAX];
	bitboard frozen;		/* squares of kept pawns that never move */
	bitboard king_region[COLOR_NB];
	bitboard bishop_region[COLOR_NB];	/* squares its bishops may stand on */
	bitboard bishop_attacks[COLOR_NB];	/* squares they may attack */
};

static bitboard diagonal_steps(bitboard b)
{
	bitboard up = bb_north(b), down = bb_south(b);
	return bb_east(up) | bb_west(up) | bb_east(down) | bb_west(down);
}

/* Bishops slide through anything but a frozen pawn. */
static void pawn_lock_bishops(struct pawn_lock *pl, const struct board *b)
{
	for (int c = WHITE; c <= BLACK; c++) {
		bitboard seen = b->by_type[BISHOP] & b->by_color[c];
		for (;;) {
			bitboard grow = seen | (diagonal_steps(seen) & ~pl->frozen);
			if (grow == seen)
				break;
			seen = grow;
		}
		pl->bishop_region[c] = seen;
		pl->bishop_attacks[c] = diagonal_steps(seen);
	}
}

static bitboard pawn_lock_squares(const struct pawn_lock *pl, enum color c)
{
	bitboard all = 0;
	for (int i = 0; i < pl->n; i++)
		if (pl->color[i] == c)
			all |= pl->region[i];
	return all;
}

static bool pawn_lock_kept_at(const struct pawn_lock *pl, int sq, enum color c)
{
	for (int i = 0; i < pl->n; i++)
		if (pl->kept[i] && pl->sq[i] == sq && pl->color[i] == c)
			return true;
	return false;
}

/* Squares on the file from pawn i forward that its pushes may reach while it
 * stays on its file: a frozen pawn, or the start square of a kept enemy pawn
 * ahead (which it stays behind), ends the walk. */
static bitboard pawn_lock_lane(const struct pawn_lock *pl, int i)
{
	bitboard lane = bb_square(pl->sq[i]);
	bitboard at = lane;
	for (;;) {
		at = bb_push(at, pl->color[i]);
		if (!at || (at & pl->frozen) ||
		    pawn_lock_kept_at(pl, bb_lsb(at), !pl->color[i]))
			return lane;
		lane |= at;
	}
}

static void pawn_lock_frozen(struct pawn_lock *pl)
{
	bool changed = true;
	pl->frozen = 0;
	while (changed) {
		changed = false;
		for (int i = 0; i < pl->n; i++) {
			if (!pl->kept[i] || (pl->frozen & bb_square(pl->sq[i])))
				continue;
			bitboard ahead = bb_push(bb_square(pl->sq[i]), pl->color[i]);
			if (ahead && ((ahead & pl->frozen) ||
			    pawn_lock_kept_at(pl, bb_lsb(ahead), !pl->color[i]))) {
				pl->frozen |= bb_square(pl->sq[i]);
				changed = true;
			}
		}
	}
}

/* A pawn not kept: its lane, then off its file after any capture of a pawn
 * that is not kept either, pushes stopped by frozen pawns only. */
static bitboard pawn_lock_free_region(const struct pawn_lock *pl, int i, bitboard prey)
{
	enum color c = pl->color[i];
	bitboard reach = pawn_lock_lane(pl, i);
	bitboard off = 0;
	for (;;) {
		bitboard next = off | (bb_pawn_attacks(reach | off, c) & prey & ~pl->frozen);
		next |= bb_push(next, c) & ~pl->frozen;
		if (next == off)
			return reach | off;
		off = next;
	}
}

static void pawn_lock_kings(struct pawn_lock *pl, const struct board *b)
{
	for (int c = WHITE; c <= BLACK; c++) {
		bitboard enemy_frozen = pl->frozen & b->by_color[!c];
		bitboard open = ~(pl->frozen & b->by_color[c]) &
		    ~bb_pawn_attacks(enemy_frozen, !c);
		bitboard seen = bb_square(board_king(b, c));
		for (;;) {
			bitboard grow = seen, s = seen;
			while (s)
				grow |= attacks_king(bb_pop(&s));
			grow &= open;
			grow |= seen;
			if (grow == seen)
				break;
			seen = grow;
		}
		pl->king_region[c] = seen;
	}
}

/* Draws every region from the current guess of kept pawns. */
static void pawn_lock_draw(struct pawn_lock *pl, const struct board *b)
{
	pawn_lock_frozen(pl);
	pawn_lock_bishops(pl, b);
	for (int i = 0; i < pl->n; i++)
		pl->region[i] = pawn_lock_lane(pl, i);
	for (bool changed = true; changed;) {
		changed = false;
		for (int i = 0; i < pl->n; i++) {
			if (pl->kept[i])
				continue;
			bitboard prey = pl->bishop_region[!pl->color[i]];
			for (int j = 0; j < pl->n; j++)
				if (!pl->kept[j] && pl->color[j] != pl->color[i])
					prey |= pl->region[j];
			bitboard r = pawn_lock_free_region(pl, i, prey);
			if (r != pl->region[i]) {
				pl->region[i] = r;
				changed = true;
			}
		}
	}
	pawn_lock_kings(pl, b);
}

/* Whether kept pawn i can capture or be captured given the regions. */
static bool pawn_lock_breaks(const struct pawn_lock *pl, int i)
{
	enum color c = pl->color[i];
	bitboard enemy = pawn_lock_squares(pl, !c);
	return (bb_pawn_attacks(pl->region[i], c) & (enemy | pl->bishop_region[!c])) ||
	    (pl->region[i] & (bb_pawn_attacks(enemy, !c) | pl->bishop_attacks[!c])) ||
	    (pl->region[i] & pl->king_region[!c]);
}

static bool pawn_lock_unwinnable(const struct board *b, enum color side)
{
	bitboard pawns = b->by_type[PAWN];
	if ((board_occupied(b) & ~pawns & ~b->by_type[KING] & ~b->by_type[BISHOP]) || b->ep_square != SQ_NONE ||
	    bb_count(pawns) > PAWN_LOCK_MAX)
		return false;
	struct pawn_lock pl = { .n = 0 };
	for (bitboard p = pawns; p;) {
		int sq = bb_pop(&p);
		pl.sq[pl.n] = sq;
		pl.color[pl.n] = (b->by_color[WHITE] & bb_square(sq)) ? WHITE : BLACK;
		pl.kept[pl.n] = true;
		pl.n++;
	}
	for (bool dropped = true; dropped;) {
		pawn_lock_draw(&pl, b);
		dropped = false;
		for (int i = 0; i < pl.n; i++)
			if (pl.kept[i] && pawn_lock_breaks(&pl, i)) {
				pl.kept[i] = false;
				dropped = true;
			}
	}
	if ((pawn_lock_squares(&pl, WHITE) & BB_RANK_8) ||
	    (pawn_lock_squares(&pl, BLACK) & BB_RANK_1))
		return false;
	/* Each square where the loser's king could be checked has a neighbour
	 * it can always step to: never its own pawn's, never attacked, and
	 * more such neighbours than it has bishops if they may stand there. */
	bitboard guarded = bb_pawn_attacks(pawn_lock_squares(&pl, side), side) |
	    pl.bishop_attacks[side];
	for (bitboard k = pl.king_region[side]; k;)
		guarded |= attacks_king(bb_pop(&k));
	bitboard shut = guarded | pawn_lock_squares(&pl, !side) | pl.king_region[side];
	int blockers = bb_count(b->by_type[BISHOP] & b->by_color[!side]);
	for (bitboard k = guarded & pl.king_region[!side]; k;) {
		bitboard flight = attacks_king(bb_pop(&k)) & ~shut;
		if (!(flight & ~pl.bishop_region[!side]) && bb_count(flight) <= blockers)
			return false;
	}
	return true;
}

/* The static checks the searches make at every node: the pawn-lock rule costs
 * too much there (microseconds, not nanoseconds) and is made once, at the root. */
static bool hopeless(const struct board *b, enum color side)
{
	return board_cannot_mate(b, side) || board_locked_out(b, side) || board_is_dead(b);
}

/*
 * hopeless() for the child of a position that is not hopeless, by move m:
 * a quiet move of a piece other than a king or a pawn (no capture, no
 * castling) from a position with no en passant capture changes neither the
 * material nor the pawns nor the squares a bishop may reach (it can always
 * slide back), so the child is not hopeless either, and the checks (pawn
 * walls' flood fills, dear with a crowd of bishops) are skipped.  A king
 * is not skipped: stepping off a square an enemy pawn attacks, it may shut
 * itself out of squares it could reach from there.  Skipping could only
 * ever search more, never answer "unwinnable" where a check would not.
 */
static bool hopeless_after(const struct board *parent, move m, const struct board *child,
    enum color side)
{
	enum piece_type t = piece_type_of(parent->squares[move_from(m)]);

	if (parent->ep_square == SQ_NONE && move_kind_of(m) == MOVE_NORMAL &&
	    parent->squares[move_to(m)] == NO_PIECE && t != PAWN && t != KING)
		return false;
	return hopeless(child, side);
}

enum unwinnable_verdict unwinnable_quick(const struct board *b, enum color side)
{
	return hopeless(b, side) || pawn_lock_unwinnable(b, side) ?
	    UNWINNABLE_UNWINNABLE : UNWINNABLE_UNDETERMINED;
}

static int distance(int a, int b)
{
	int df = abs(square_file(a) - square_file(b)), dr = abs(square_rank(a) - square_rank(b));
	return df > dr ? df : dr;
}

static int edge_distance(int sq)
{
	int f = square_file(sq), r = square_rank(sq);
	int df = f < 7 - f ? f : 7 - f, dr = r < 7 - r ? r : 7 - r;
	return df < dr ? df : dr;
}

#define BB_CORNERS (bb_square(SQ_A1) | bb_square(SQ_H1) | bb_square(SQ_A8) | bb_square(SQ_H8))

static int corner_distance(int sq, bitboard corners)
{
	int best = 7;

	while (corners) {
		int c = bb_pop(&corners);
		if (distance(sq, c) < best)
			best = distance(sq, c);
	}
	return best;
}

/* Whether the piece on sq (not a king) has nowhere to go for now: a pawn
 * blocked with nothing to take, a piece hemmed in by its own. */
static bool piece_stuck(const struct board *b, int sq)
{
	enum color c = (b->by_color[WHITE] & bb_square(sq)) ? WHITE : BLACK;
	enum piece_type t = piece_type_of(b->squares[sq]);
	bitboard occ = board_occupied(b);

	if (t == PAWN)
		return (bb_push(bb_square(sq), c) & occ) &&
		    !(attacks_pawn(sq, c) & b->by_color[!c]);
	return !(attacks_of(t, sq, occ) & ~b->by_color[c]);
}

/*
 * The corners where the winner's minor pieces can mate: a lone bishop (or
 * bishops all of one colour) checks only the corners of its colour.  With
 * drop_stuck, pawns and knights that cannot move for now (rammed pawns, a
 * knight shut in by its own chain) do not count, so a lone bishop's corners
 * are its colour's although a locked pawn is left: the walk then leads the
 * loser's king to where the bishop can mate, not to the nearest corner.
 * The dive keeps them: where the loser can free a rammed pawn by taking a
 * piece in front of it (a crowd of bishops), it finds the promotion's mates.
 */
static bitboard mating_corners(const struct board *b, enum color winner, bool drop_stuck)
{
	bitboard ours = b->by_color[winner];

	for (bitboard o = drop_stuck ? ours & (b->by_type[PAWN] | b->by_type[KNIGHT]) : 0; o;) {
		int sq = bb_pop(&o);
		if (piece_stuck(b, sq))
			ours &= ~bb_square(sq);
	}
	bitboard bishops = ours & b->by_type[BISHOP];

	if ((ours & (b->by_type[PAWN] | b->by_type[KNIGHT])) || !bishops)
		return BB_CORNERS;
	if (!(bishops & BB_DARK_SQUARES))
		return BB_CORNERS & BB_LIGHT_SQUARES;
	if (!(bishops & BB_LIGHT_SQUARES))
		return BB_CORNERS & BB_DARK_SQUARES;
	return BB_CORNERS;
}

/*
 * How promising m looks for a helpmate: the winner brings everything
 * (king included) towards the loser's king and promotes; the loser walks
 * its king to the edge, packs its other pieces round it and keeps its
 * hands off the winner's material.
 */
static int move_score(const struct board *b, move m, enum color winner)
{
	int from = move_from(m), to = move_to(m);
	int target = board_king(b, color_other(winner));
	enum piece_type t = piece_type_of(b->squares[from]);
	int s = 0;

	if (move_kind_of(m) == MOVE_PROMOTION)
		s += move_promotion(m) == QUEEN ? 60 : 30;
	if (b->side == winner) {
		s += 8 * (distance(from, target) - distance(to, target));
		if (t == PAWN)
			s += 10;
		if (b->squares[to] != NO_PIECE)
			s -= 4;	/* the loser's pieces are the blockers */
	} else {
		if (b->squares[to] != NO_PIECE)
			s -= 50;
		if (t == KING)
			s += 6 * (edge_distance(from) - edge_distance(to));
		else
			s += 8 * (distance(from, target) - distance(to, target));
	}
	return s;
}

static void order_moves(const struct board *b, move *list, int n, enum color winner)
{
	int score[MAX_MOVES];

	for (int i = 0; i < n; i++) {
		int s = move_score(b, list[i], winner), j = i;
		move m = list[i];
		while (j > 0 && score[j - 1] < s) {
			score[j] = score[j - 1];
			list[j] = list[j - 1];
			j--;
		}
		score[j] = s;
		list[j] = m;
	}
}

/* A mate by the winner within depth plies from b, written to s->path[ply..]. */
static bool helpmate_find(struct helpmate_search *s, const struct board *b, int depth, int ply)
{
	move list[MAX_MOVES];
	bool winner_moves = b->side == s->winner;

	if (++s->nodes > s->budget) {
		s->out_of_budget = true;
		return false;
	}
	struct tt_entry *e = &s->tt[b->key & s->tt_mask];
	if (e->key == b->key && e->depth >= depth)
		return false;
	int n = movegen_legal(b, list);
	order_moves(b, list, n, s->winner);
	for (int i = 0; i < n; i++) {
		struct board child = *b;
		board_make(&child, list[i]);
		/* The last ply must be the winner's check. */
		if (depth == 1 && !board_in_check(&child))
			continue;
		if (movegen_count(&child) == 0) {
			if (winner_moves && board_in_check(&child)) {
				s->path[ply] = list[i];
				s->length = ply + 1;
				return true;
			}
			continue;	/* stalemate, or the winner mated: no way on */
		}
		if (depth == 1 || hopeless_after(b, list[i], &child, s->winner))
			continue;
		s->path[ply] = list[i];
		if (helpmate_find(s, &child, depth - 1, ply + 1))
			return true;
		if (s->out_of_budget)
			return false;
	}
	e->key = b->key;
	e->depth = depth;
	return false;
}

/*
 * Open squares round the loser's king that the winner's bishops can never
 * attack, where those bishops are all of one colour and the winner's only
 * men besides its king: neighbours of the other colour, which a mate needs
 * held by the loser's own pieces or covered by the winner's king, and not
 * so yet; and the king's own square if it is of that colour (never checked).
 * Without it a guide takes the corner of the wrong colour, which has one
 * such neighbour, for nearer a mate than the right one, which has two.
 * With drop_stuck (the dive's and the beam's guide) the winner's pawns and
 * knights that cannot move for now do not count as men (see
 * mating_corners): bishops beside a locked chain mate so too.  The walk's
 * guide keeps them: there it lost more mates behind locked chains than it
 * found.
 */
static int unbishoped_flights(const struct board *b, enum color winner, bool drop_stuck)
{
	enum color loser = color_other(winner);
	bitboard ours = b->by_color[winner] & ~b->by_type[KING];
	bitboard bishops = ours & b->by_type[BISHOP];
	int lk = board_king(b, loser);

	if (!bishops || (ours & (b->by_type[QUEEN] | b->by_type[ROOK])))
		return 0;
	bitboard shade = !(bishops & BB_DARK_SQUARES) ? BB_DARK_SQUARES :
	    !(bishops & BB_LIGHT_SQUARES) ? BB_LIGHT_SQUARES : 0;
	if (!shade)
		return 0;
	for (bitboard o = ours & ~bishops; o;) {
		if (!drop_stuck || !piece_stuck(b, bb_pop(&o)))
			return 0;
	}
	bitboard open = attacks_king(lk) & shade & ~b->by_color[loser] &
	    ~attacks_king(board_king(b, winner));
	return bb_count(open) + ((shade & bb_square(lk)) ? UNBISHOPED_KING_SQUARE : 0);
}

/*
 * How near b looks to a mate by the winner (smaller is nearer), for the
 * guided dive: the loser's king short of free flight squares and pushed to
 * an edge, the winner's pieces round it and its pawns promoted, the loser's
 * other pieces kept beside their king where they block it in.
 */
static int dive_distance(const struct board *b, enum color winner)
{
	enum color loser = color_other(winner);
	int lk = board_king(b, loser), h = 0;
	/* The winner's attacks, seen through the loser's king as a slider sees
	 * a square it has just left: one lookup a piece, not one a square. */
	bitboard occ = board_occupied(b) & ~bb_square(lk), attacked = 0;

	for (bitboard w = b->by_color[winner]; w;) {
		int sq = bb_pop(&w), d = distance(sq, lk);
		enum piece_type t = piece_type_of(b->squares[sq]);
		attacked |= t == PAWN ? attacks_pawn(sq, winner) : attacks_of(t, sq, occ);
		switch (t) {
		case KING: h += d > 2 ? d - 2 : 0; break;
		case PAWN: h += 3 * (winner == WHITE ? 7 - square_rank(sq) : square_rank(sq)); break;
		case QUEEN: h += d - 12; break;
		default: h += 2 * (d - 6); break;
		}
	}
	h += 6 * bb_count(attacks_king(lk) & ~b->by_color[loser] & ~attacked);
	h += 2 * edge_distance(lk);
	/* Minor pieces mate in corners. */
	if (!(b->by_color[winner] & (b->by_type[QUEEN] | b->by_type[ROOK])))
		h += 5 * corner_distance(lk, mating_corners(b, winner, false));
	h += DIVE_UNBISHOPED_WEIGHT * unbishoped_flights(b, winner, true);
	for (bitboard l = b->by_color[loser] & ~b->by_type[KING]; l;) {
		int sq = bb_pop(&l);
		h += piece_type_of(b->squares[sq]) == PAWN ? 0 : 4 * (distance(sq, lk) - 1);
	}
	if (b->side == loser && board_in_check(b))
		h -= 12;
	return h;
}

/* Nodes charged, beyond the one for the position itself, for scoring its n
 * children in the dive or the beam: nothing in an ordinary ending, more
 * where a crowd of pieces gives so many moves that the guide's cost per
 * position, not the count of positions, would otherwise bound the time. */
static long scoring_cost(int n)
{
	return n / SCORED_MOVES_PER_NODE;
}

struct dive_entry {
	uint64_t key;
	int16_t depth, slack;	/* explored this deep with this many detours */
};

struct dive {
	enum color winner;
	long nodes, budget;
	struct dive_entry *tt;
	size_t tt_mask;
	move path[HELPMATE_MAX_PLIES];
	int length;
};

/*
 * A limited-discrepancy dive: follow dive_distance's best child, and allow
 * `slack` detours to a worse one along the line.  Long helpmates (a cornered
 * king, a promotion first) come out of the first few passes where iterative
 * deepening would drown in width.  It only ever finds mates.
 */
static bool dive_find(struct dive *d, const struct board *b, int depth, int slack, int ply)
{
	move list[MAX_MOVES];
	int score[MAX_MOVES];
	bool winner_moves = b->side == d->winner;

	if (++d->nodes > d->budget || depth <= 0)
		return false;
	struct dive_entry *e = &d->tt[b->key & d->tt_mask];
	if (e->key == b->key && e->depth >= depth && e->slack >= slack)
		return false;
	*e = (struct dive_entry){ b->key, (int16_t)depth, (int16_t)slack };
	int n = movegen_legal(b, list);
	d->nodes += scoring_cost(n);
	for (int i = 0; i < n; i++) {
		struct board child = *b;
		board_make(&child, list[i]);
		if (winner_moves && board_in_check(&child) && movegen_count(&child) == 0) {
			d->path[ply] = list[i];
			d->length = ply + 1;
			return true;
		}
		int sc = hopeless_after(b, list[i], &child, d->winner) ? INT32_MAX :
		    dive_distance(&child, d->winner);
		int j = i;
		move m = list[i];
		while (j > 0 && score[j - 1] > sc) {
			score[j] = score[j - 1];
			list[j] = list[j - 1];
			j--;
		}
		score[j] = sc;
		list[j] = m;
	}
	/* A child already explored as deep (or on the line itself) is passed
	 * over without spending a detour: the dive goes on with the next best
	 * instead of stopping in the first cycle its guide leads it into. */
	for (int i = 0, detours = 0; i < n && detours <= slack && score[i] != INT32_MAX; i++) {
		struct board child = *b;
		board_make(&child, list[i]);
		const struct dive_entry *c = &d->tt[child.key & d->tt_mask];
		if (c->key == child.key && c->depth >= depth - 1 && c->slack >= slack - detours)
			continue;
		d->path[ply] = list[i];
		if (dive_find(d, &child, depth - 1, slack - detours, ply + 1))
			return true;
		if (d->nodes > d->budget)
			return false;
		detours++;
	}
	return false;
}

/* The dive with one detour more each pass, until a mate or the budget. */
static bool dive_deepen(const struct board *b, enum color winner, long budget,
    struct helpmate *line, long *used)
{
	struct dive d = { .winner = winner, .budget = budget };
	size_t entries = 1024;
	bool found = false;

	while ((long)entries < budget && entries < DIVE_TT_MAX)
		entries <<= 1;
	d.tt = calloc(entries, sizeof *d.tt);
	if (!d.tt)
		return false;
	d.tt_mask = entries - 1;
	for (int slack = 0; slack <= DIVE_MAX_SLACK && !found && d.nodes <= budget; slack++)
		found = dive_find(&d, b, DIVE_MAX_PLIES, slack, 0);
	if (found && line) {
		line->nplies = d.length;
		memcpy(line->moves, d.path, (size_t)d.length * sizeof *d.path);
	}
	*used = d.nodes < budget ? d.nodes : budget;
	free(d.tt);
	return found;
}

/* Stage 2: iterative deepening, each pass a ply pair deeper, until the budget is spent. */
static bool helpmate_deepen(const struct board *b, enum color winner, long budget,
    struct helpmate *line, long *used)
{
	struct helpmate_search s = { .winner = winner, .budget = budget };
	size_t entries = 1024;
	bool found = false;

	while ((long)entries < budget && entries < HELPMATE_TT_MAX)
		entries <<= 1;
	s.tt = calloc(entries, sizeof *s.tt);
	if (!s.tt)
		return false;
	s.tt_mask = entries - 1;
	for (int depth = b->side == winner ? 1 : 2; depth < HELPMATE_MAX_PLIES && !found &&
	    !s.out_of_budget; depth += 2)
		found = helpmate_find(&s, b, depth, 0);
	if (found && line) {
		line->nplies = s.length;
		memcpy(line->moves, s.path, (size_t)s.length * sizeof *s.path);
	}
	*used = s.nodes;
	free(s.tt);
	return found;
}

/*
 * Stage 3's record of a position: how it was reached.  The board itself is
 * rebuilt when the position is expanded, by replaying its path from the
 * nearest ancestor whose board is cached (reach_board), which keeps a node
 * small so that the budget, not memory, bounds the walk.
 */
struct reach_node {
	int32_t parent;
	move played;
	uint16_t depth;
};

struct heap_item {
	int32_t priority;
	int32_t node;
};

/* Open-addressed set of Zobrist keys; 0 marks a free slot (key 0 is kept aside). */
struct key_set {
	uint64_t *slots;
	size_t mask, count;
	bool has_zero;
};

/* A board the walk has rebuilt, kept for its children's expansion. */
struct reach_cached {
	int32_t node;	/* -1 when the slot is free */
	struct board board;
};

struct reach {
	const struct board *root;
	enum color winner;
	struct reach_node *nodes;
	size_t count, cap;
	long work;		/* plies replayed and moves generated so far */
	bool incomplete;	/* a position could not be queued: never "unwinnable" */
	bool over;		/* verdict is final */
	enum unwinnable_verdict verdict;
	struct heap_item *heap;
	size_t heap_len;
	struct key_set seen;
	struct reach_cached *cache;	/* REACH_CACHE_SIZE slots, by node id */
};

static bool key_set_init(struct key_set *set)
{
	*set = (struct key_set){ calloc(KEY_SET_MIN, sizeof *set->slots), KEY_SET_MIN - 1, 0, false };
	return set->slots != NULL;
}

static void key_set_insert(uint64_t *slots, size_t mask, uint64_t key)
{
	size_t i = key & mask;

	while (slots[i] != 0)
		i = (i + 1) & mask;
	slots[i] = key;
}

/* Twice the slots, every key moved over; false when memory runs out. */
static bool key_set_grow(struct key_set *set)
{
	size_t size = 2 * (set->mask + 1);
	uint64_t *slots = calloc(size, sizeof *slots);

	if (!slots)
		return false;
	for (size_t i = 0; i <= set->mask; i++)
		if (set->slots[i] != 0)
			key_set_insert(slots, size - 1, set->slots[i]);
	free(set->slots);
	set->slots = slots;
	set->mask = size - 1;
	return true;
}

/* Adds key: 1 when new, 0 when it was there already, -1 when out of memory. */
static int key_set_add(struct key_set *set, uint64_t key)
{
	if (key == 0) {
		bool fresh = !set->has_zero;
		set->has_zero = true;
		return fresh;
	}
	for (size_t i = key & set->mask;; i = (i + 1) & set->mask) {
		if (set->slots[i] == key)
			return 0;
		if (set->slots[i] == 0)
			break;
	}
	if (2 * (set->count + 1) > set->mask + 1 && !key_set_grow(set))
		return -1;
	key_set_insert(set->slots, set->mask, key);
	set->count++;
	return 1;
}

/*
 * Stage 2's beam: the `width` children nearest a mate by dive_distance,
 * over every position of the beam, ply after ply, never one seen before.
 * Where the dive follows one line and spends its detours near the end of
 * it, the beam moves a whole front: it walks along the plateaus of the
 * guide that a lone minor piece's mates cross (the loser's pieces brought
 * round their king or taken one by one, the king walked to a corner) and
 * finds lines of a hundred plies and more in a few thousand positions.
 */
struct beam_step {
	uint16_t parent;	/* index in the previous ply's beam */
	move played;
};

struct beam_pick {
	int score;
	uint16_t parent;
	move played;
};

static int beam_pick_cmp(const void *a, const void *b)
{
	const struct beam_pick *x = a, *y = b;
	return (x->score > y->score) - (x->score < y->score);
}

/* The k-th smallest of n scores (0-based), reordering them. */
static int beam_kth_score(int *v, int n, int k)
{
	int lo = 0, hi = n - 1;

	while (lo < hi) {
		int pivot = v[lo + (hi - lo) / 2], i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				int t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k];
	}
	return v[k];
}

/*
 * The `width` best of n picks at picks[0..], sorted by score, ties at the
 * cut to the first picked: a selection, then a sort of those only, where
 * the sort of every child of a wide beam's positions was a sixth of its
 * time.  (A pick kept small: a larger array of them for the narrow beam
 * crossed the allocator's mmap threshold and cost a page fault per page
 * on every call.)  Returns how many.
 */
static int beam_select(struct beam_pick *picks, int n, int width, int *scratch)
{
	if (n > width) {
		for (int i = 0; i < n; i++)
			scratch[i] = picks[i].score;
		int cut = beam_kth_score(scratch, n, width - 1), below = 0, kept = 0;
		for (int i = 0; i < n; i++)
			below += picks[i].score < cut;
		for (int i = 0, ties = width - below; i < n; i++)
			if (picks[i].score < cut || (picks[i].score == cut && ties-- > 0))
				picks[kept++] = picks[i];
		n = kept;
	}
	qsort(picks, (size_t)n, sizeof *picks, beam_pick_cmp);
	return n;
}

/* The line to entry `at` of the beam at `ply`, back through the beams'
 * steps, then the mate. */
static void beam_line(const struct beam_step *steps, int width, int ply, int at, move mate,
    struct helpmate *line)
{
	line->nplies = ply + 1;
	line->moves[ply] = mate;
	for (int q = ply - 1; q >= 0; q--) {
		const struct beam_step *st = &steps[(size_t)q * (size_t)width + (size_t)at];
		line->moves[q] = st->played;
		at = st->parent;
	}
}

/*
 * A beam under way, kept between calls: one paused at its budget resumes
 * where it stopped, so that a second share, after the dive, goes on with
 * the wide beam that the first left half done instead of starting it again.
 */
struct beam {
	const struct board *root;
	enum color winner;
	int width;		/* of the latest beam, 0 before the first */
	bool running;		/* that beam paused at its budget */
	struct board *now, *next;
	struct beam_step *steps;
	struct beam_pick *picks;
	int *scratch;
	struct key_set seen;
	int ply, count;		/* the beam's depth, and its positions there */
	int at, npicks;		/* the next of them to expand, the children picked so far */
};

static void beam_free(struct beam *bm)
{
	free(bm->now);
	free(bm->next);
	free(bm->steps);
	free(bm->picks);
	free(bm->scratch);
	free(bm->seen.slots);
	bm->now = bm->next = NULL;
	bm->steps = NULL;
	bm->picks = NULL;
	bm->scratch = NULL;
	bm->seen.slots = NULL;
	bm->running = false;
}

/* A new beam of `width` from the root; false when memory runs out. */
static bool beam_start(struct beam *bm, int width)
{
	beam_free(bm);
	bm->width = width;
	bm->now = malloc((size_t)width * sizeof *bm->now);
	bm->next = malloc((size_t)width * sizeof *bm->next);
	bm->steps = malloc((size_t)BEAM_MAX_PLIES * (size_t)width * sizeof *bm->steps);
	bm->picks = malloc((size_t)width * MAX_MOVES * sizeof *bm->picks);
	bm->scratch = malloc((size_t)width * MAX_MOVES * sizeof *bm->scratch);
	if (!bm->now || !bm->next || !bm->steps || !bm->picks || !bm->scratch ||
	    !key_set_init(&bm->seen)) {
		beam_free(bm);
		return false;
	}
	key_set_add(&bm->seen, bm->root->key);
	bm->now[0] = *bm->root;
	bm->ply = bm->at = bm->npicks = 0;
	bm->count = 1;
	bm->running = true;
	return true;
}

/* The beam under way, at most BEAM_MAX_PLIES deep, until a mate, a dead end
 * (running turns false) or *used reaching budget (it stays true). */
static bool beam_run(struct beam *bm, long budget, struct helpmate *line, long *used)
{
	int width = bm->width;
	enum color winner = bm->winner;

	while (bm->ply < BEAM_MAX_PLIES && bm->count > 0) {
		for (; bm->at < bm->count; bm->at++) {
			move list[MAX_MOVES];
			struct board kids[MAX_MOVES];
			const struct board *at = &bm->now[bm->at];
			if (*used >= budget)
				return false;
			++*used;
			int n = movegen_legal(at, list);
			*used += scoring_cost(n);
			/* The children's slots in the set of seen keys are fetched
			 * all at once, as in the walk (reach_run). */
			for (int k = 0; k < n; k++) {
				kids[k] = *at;
				board_make(&kids[k], list[k]);
				__builtin_prefetch(&bm->seen.slots[kids[k].key & bm->seen.mask]);
			}
			for (int k = 0; k < n; k++) {
				const struct board *child = &kids[k];
				if (at->side == winner && board_in_check(child) &&
				    movegen_count(child) == 0) {
					if (line)
						beam_line(bm->steps, width, bm->ply, bm->at, list[k], line);
					bm->running = false;
					return true;
				}
				if (hopeless_after(at, list[k], child, winner) ||
				    key_set_add(&bm->seen, child->key) <= 0)
					continue;
				bm->picks[bm->npicks] = (struct beam_pick){ dive_distance(child, winner),
				    (uint16_t)bm->at, list[k] };
				bm->npicks++;
			}
		}
		bm->count = beam_select(bm->picks, bm->npicks, width, bm->scratch);
		for (int j = 0; j < bm->count; j++) {
			const struct beam_pick *pk = &bm->picks[j];
			bm->next[j] = bm->now[pk->parent];
			board_make(&bm->next[j], pk->played);
			bm->steps[(size_t)bm->ply * (size_t)width + (size_t)j] =
			    (struct beam_step){ pk->parent, pk->played };
		}
		struct board *swap = bm->now;
		bm->now = bm->next;
		bm->next = swap;
		bm->ply++;
		bm->at = bm->npicks = 0;
	}
	bm->running = false;
	return false;
}

/* Beams ever wider, the paused one first, until a mate or the budget. */
static bool beam_widen(struct beam *bm, long budget, struct helpmate *line, long *used)
{
	*used = 0;
	for (;;) {
		if (!bm->running) {
			int width = bm->width ? bm->width * 4 : BEAM_WIDTH_MIN;
			if (width > BEAM_WIDTH_MAX || !beam_start(bm, width))
				return false;
		}
		if (beam_run(bm, budget, line, used))
			return true;
		if (bm->running) {
			if (*used > budget)
				*used = budget;
			return false;
		}
	}
}

/*
 * Stage 2's pawn breaks.  Behind rammed pawns the guides see no way
 * through: there a mate may need a piece given to a pawn, whose capture
 * takes it to another file where it runs (a bishop put where a pawn's push
 * attacks it, taken, and perhaps taken back), a sacrifice whose worth shows
 * only a dozen plies on.  A short search over the moves that lead to such
 * a capture (pawn pushes, pieces put where an enemy pawn attacks or will
 * after one push, pawn captures) dives, within a small budget, from the
 * position each pawn capture leaves.
 */
struct pawn_break {
	enum color winner;
	long nodes, budget, leaf_budget;
	struct tt_entry tt[BREAK_TT_SIZE];
	move path[BREAK_PLIES];
	struct helpmate found;
};

/* How likely m is to lead to a pawn capture, 0 for a move that does not. */
static int break_score(const struct board *b, move m)
{
	int from = move_from(m), to = move_to(m);
	enum color us = b->side, them = color_other(us);
	enum piece_type t = piece_type_of(b->squares[from]);
	bitboard their_pawns = b->by_color[them] & b->by_type[PAWN];
	bitboard prey = b->by_color[them] & ~b->by_type[PAWN] & ~b->by_type[KING];

	if (t == PAWN) {
		if (square_file(from) != square_file(to))
			return BREAK_CAPTURE;
		return (attacks_pawn(to, us) & prey) ? BREAK_THREAT : BREAK_TEMPO;
	}
	if (t == KING)
		return 0;
	if (bb_pawn_attacks(their_pawns, them) & bb_square(to))
		return BREAK_THREAT;
	bitboard pushed = bb_push(their_pawns, them) & ~board_occupied(b);
	return (bb_pawn_attacks(pushed, them) & bb_square(to)) ? BREAK_OFFER : 0;
}

/* A dive from b, just after a pawn capture at ply; the whole line on success. */
static bool break_leaf(struct pawn_break *s, const struct board *b, int ply)
{
	long room = s->budget - s->nodes, used = 0;

	if (room > s->leaf_budget)
		room = s->leaf_budget;
	if (room < 1)
		return false;
	bool found = dive_deepen(b, s->winner, room, &s->found, &used);
	s->nodes += used;
	if (!found)
		return false;
	memmove(s->found.moves + ply, s->found.moves, (size_t)s->found.nplies * sizeof *s->path);
	memcpy(s->found.moves, s->path, (size_t)ply * sizeof *s->path);
	s->found.nplies += ply;
	return true;
}
_Static_assert(BREAK_PLIES + DIVE_MAX_PLIES <= HELPMATE_MAX_PLIES, "a break's line must fit");

static bool break_find(struct pawn_break *s, const struct board *b, int depth, int ply)
{
	move list[MAX_MOVES];
	int score[MAX_MOVES], k = 0;

	if (++s->nodes > s->budget)
		return false;
	struct tt_entry *e = &s->tt[b->key % BREAK_TT_SIZE];
	if (e->key == b->key && e->depth >= depth)
		return false;
	*e = (struct tt_entry){ b->key, depth };
	int n = movegen_legal(b, list);
	for (int i = 0; i < n; i++) {
		int sc = break_score(b, list[i]), j = k++;
		move m = list[i];
		if (!sc) {
			k--;
			continue;
		}
		while (j > 0 && score[j - 1] < sc) {
			score[j] = score[j - 1];
			list[j] = list[j - 1];
			j--;
		}
		score[j] = sc;
		list[j] = m;
	}
	for (int i = 0; i < k && s->nodes <= s->budget; i++) {
		struct board child = *b;
		board_make(&child, list[i]);
		if (hopeless_after(b, list[i], &child, s->winner))
			continue;
		s->path[ply] = list[i];
		if (score[i] == BREAK_CAPTURE && break_leaf(s, &child, ply + 1))
			return true;
		if (depth > 1 && break_find(s, &child, depth - 1, ply + 1))
			return true;
	}
	return false;
}

/* Whether some pawn stands right in front of an enemy pawn. */
static bool pawns_rammed(const struct board *b)
{
	bitboard white = b->by_color[WHITE] & b->by_type[PAWN];
	return (bb_push(white, WHITE) & b->by_color[BLACK] & b->by_type[PAWN]) != 0;
}

static bool break_search(const struct board *b, enum color winner, long budget,
    long leaf_budget, struct helpmate *line, long *used)
{
	*used = 0;
	if (!pawns_rammed(b))
		return false;
	struct pawn_break *s = calloc(1, sizeof *s);
	if (!s)
		return false;
	s->winner = winner;
	s->budget = budget;
	s->leaf_budget = leaf_budget;
	bool found = break_find(s, b, BREAK_PLIES, 0);
	if (found && line)
		*line = s->found;
	*used = s->nodes < budget ? s->nodes : budget;
	free(s);
	return found;
}

static void heap_push(struct reach *r, struct heap_item it)
{
	size_t i = r->heap_len++;

	while (i > 0 && r->heap[(i - 1) / 2].priority > it.priority) {
		r->heap[i] = r->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	r->heap[i] = it;
}

static struct heap_item heap_pop(struct reach *r)
{
	struct heap_item top = r->heap[0], last = r->heap[--r->heap_len];
	size_t i = 0, n = r->heap_len;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && r->heap[c + 1].priority < r->heap[c].priority)
			c++;
		if (r->heap[c].priority >= last.priority)
			break;
		r->heap[i] = r->heap[c];
		i = c;
	}
	if (n)
		r->heap[i] = last;
	return top;
}

/* Moves from the root to node, oldest first; returns how many. */
static int reach_path(const struct reach *r, int32_t node, move *path, int room)
{
	int n = r->nodes[node].depth;

	if (n > room)
		return -1;
	for (int32_t i = node, k = n - 1; r->nodes[i].parent >= 0; i = r->nodes[i].parent)
		path[k--] = r->nodes[i].played;
	return n;
}

/*
 * How far b looks from a mate by the winner (smaller is nearer): the loser's
 * king in a corner, the winner's pieces round it, the winner's pawns
 * promoted, the loser's pieces packed round their king as blockers.
 */
static int reach_distance(const struct board *b, enum color winner)
{
	enum color loser = color_other(winner);
	int lk = board_king(b, loser), h = 0;

	h += 2 * corner_distance(lk, mating_corners(b, winner, true)) + 2 * edge_distance(lk);
	for (bitboard w = b->by_color[winner]; w;) {
		int sq = bb_pop(&w), d = distance(sq, lk);
		switch (piece_type_of(b->squares[sq])) {
		case KING: h += 2 * (d > 2 ? d - 2 : 0); break;
		case PAWN: h += 2 * (winner == WHITE ? 7 - square_rank(sq) : square_rank(sq)); break;
		default: h += d - 6; break;
		}
	}
	for (bitboard l = b->by_color[loser] & ~b->by_type[KING]; l;) {
		int sq = bb_pop(&l);
		if (piece_type_of(b->squares[sq]) == PAWN)
			h += loser == WHITE ? 7 - square_rank(sq) : square_rank(sq);
		else
			h += distance(sq, lk) - 1;
	}
	h += REACH_UNBISHOPED_WEIGHT * unbishoped_flights(b, winner, false);
	if (b->side == loser && board_in_check(b))
		h -= 2;
	return h;
}

/*
 * Rebuilds node's board into out: its path replayed from the nearest
 * ancestor whose board is cached (its parent, most often: best first
 * expands children of recent positions), else from the root; then caches it.
 */
static void reach_board(struct reach *r, int32_t node, struct board *out)
{
	move path[UINT16_MAX];
	int n = 0;
	int32_t at = node;
	const struct reach_cached *hit = NULL;

	for (;;) {
		const struct reach_cached *c = &r->cache[(uint32_t)at % REACH_CACHE_SIZE];
		if (c->node == at) {
			hit = c;
			break;
		}
		if (r->nodes[at].parent < 0)
			break;
		path[n++] = r->nodes[at].played;
		at = r->nodes[at].parent;
	}
	*out = hit ? hit->board : *r->root;
	r->work += n;
	for (int i = n - 1; i >= 0; i--)
		board_make(out, path[i]);
	r->cache[(uint32_t)node % REACH_CACHE_SIZE] = (struct reach_cached){ node, *out };
}

/* Queues a new position; false when it cannot be (no room, or too deep). */
static bool reach_add(struct reach *r, const struct board *b, int32_t parent, move m)
{
	if (r->count == r->cap || (parent >= 0 && r->nodes[parent].depth == UINT16_MAX - 1))
		return false;
	int32_t id = (int32_t)r->count++;
	uint16_t depth = parent < 0 ? 0 : (uint16_t)(r->nodes[parent].depth + 1);
	r->nodes[id] = (struct reach_node){ .parent = parent, .played = m, .depth = depth };
	heap_push(r, (struct heap_item){ 8 * reach_distance(b, r->winner) + depth, id });
	return true;
}

/*
 * Stage 3: best first over every position reachable from the root.  The
 * order only decides how soon a mate turns up; an empty queue means the
 * whole reachable set held none.  The walk pauses when it has added `limit`
 * positions (or done their share of work) and can be resumed with a higher
 * limit, so that its first short run is not repeated.
 */
static bool reach_open(struct reach *r, const struct board *root, enum color winner,
    long budget)
{
	*r = (struct reach){ .root = root, .winner = winner, .cap = (size_t)budget + MAX_MOVES };
	if (r->cap > INT32_MAX / 2)
		r->cap = INT32_MAX / 2;
	r->nodes = malloc(r->cap * sizeof *r->nodes);
	r->heap = malloc(r->cap * sizeof *r->heap);
	r->cache = malloc(REACH_CACHE_SIZE * sizeof *r->cache);
	if (!r->nodes || !r->heap || !r->cache || !key_set_init(&r->seen))
		return false;
	for (size_t i = 0; i < REACH_CACHE_SIZE; i++)
		r->cache[i].node = -1;
	key_set_add(&r->seen, root->key);
	reach_add(r, root, -1, MOVE_NONE);
	return true;
}

static void reach_close(struct reach *r)
{
	free(r->nodes);
	free(r->heap);
	free(r->cache);
	free(r->seen.slots);
}

static enum unwinnable_verdict reach_run(struct reach *r, long limit, struct helpmate *line)
{
	if (r->over)
		return r->verdict;
	if (limit > (long)r->cap - MAX_MOVES)
		limit = (long)r->cap - MAX_MOVES;
	while (r->heap_len > 0) {
		move list[MAX_MOVES];
		struct board at;
		/* Pause before a node whose children might not all fit. */
		if ((long)r->count + MAX_MOVES > limit || r->work > limit * REACH_WORK_PER_NODE)
			return UNWINNABLE_UNDETERMINED;
		int32_t node = heap_pop(r).node;
		reach_board(r, node, &at);
		int n = movegen_legal(&at, list);
		r->work += n;
		/* The children's slots in the set of seen keys are fetched from
		 * memory all at once, before any is looked up: a large set's
		 * lookups, a cache miss each, were most of the walk's time. */
		struct board kids[MAX_MOVES];
		for (int i = 0; i < n; i++) {
			kids[i] = at;
			board_make(&kids[i], list[i]);
			__builtin_prefetch(&r->seen.slots[kids[i].key & r->seen.mask]);
		}
		for (int i = 0; i < n; i++) {
			const struct board *child = &kids[i];
			int fresh = key_set_add(&r->seen, child->key);
			if (fresh <= 0) {
				r->incomplete |= fresh < 0;	/* unexplored: never "unwinnable" */
				continue;
			}
			if (movegen_count(child) == 0) {
				if (at.side != r->winner || !board_in_check(child))
					continue;	/* stalemate, or the winner mated */
				move path[HELPMATE_MAX_PLIES];
				int len = reach_path(r, node, path, HELPMATE_MAX_PLIES - 1);
				if (len >= 0 && line) {
					memcpy(line->moves, path, (size_t)len * sizeof *path);
					line->moves[len] = list[i];
					line->nplies = len + 1;
				}
				/* A mate too long to hand back still means "not unwinnable". */
				r->over = true;
				r->verdict = len >= 0 ? UNWINNABLE_WINNABLE : UNWINNABLE_UNDETERMINED;
				return r->verdict;
			}
			if (hopeless_after(&at, list[i], child, r->winner))
				continue;
			if (!reach_add(r, child, node, list[i]))
				r->incomplete = true;
		}
	}
	r->over = true;
	r->verdict = r->incomplete ? UNWINNABLE_UNDETERMINED : UNWINNABLE_UNWINNABLE;
	return r->verdict;
}

/*
 * Whether the paused walk looks to be inside a small, closed set (pieces
 * shuffling behind locked pawns): its frontier is a small part of what it
 * has added, most children having been seen before or proved hopeless.
 * There the walk, the only stage that can prove "unwinnable", and the one
 * that finds these sets' mates, is given the whole budget; in open
 * positions the frontier is most of it, and the searches go first.
 */
static bool reach_closed(const struct reach *r)
{
	return r->heap_len * 100 < r->count * REACH_CLOSED_PCT;
}

static bool forced_unwinnable(const struct board *b, enum color side, int plies, int *proofs);

/* Whether stage 1, or the forced line after it, proves b unwinnable. */
static bool forced_child_unwinnable(const struct board *b, enum color side, int plies,
    int *proofs)
{
	if (unwinnable_quick(b, side) == UNWINNABLE_UNWINNABLE)
		return true;
	if (*proofs > 0) {
		--*proofs;
		if (pawn_wall_unwinnable(b, side, PAWN_WALL_MAX_STATES))
			return true;
	}
	return forced_unwinnable(b, side, plies, proofs);
}

/*
 * A position is unwinnable when it is not the winner's mate and all its
 * children are.  Where the side to move has one or two answers (to a
 * check, mostly), the children are proved one by one: a queen that must be
 * taken at once often leaves a wall that stage 1 proves, while the walk
 * would have to exhaust every position the queen might have gone to.
 */
static bool forced_unwinnable(const struct board *b, enum color side, int plies, int *proofs)
{
	move list[MAX_MOVES];
	int n = movegen_legal(b, list);

	if (n == 0)
		return !(board_in_check(b) && b->side != side);
	if (n > FORCED_MOVES_MAX || plies == 0)
		return false;
	for (int i = 0; i < n; i++) {
		struct board child = *b;
		board_make(&child, list[i]);
		if (!forced_child_unwinnable(&child, side, plies - 1, proofs))
			return false;
	}
	return true;
}

enum unwinnable_verdict unwinnable_decide(const struct board *b, enum color side,
    long budget_nodes, struct helpmate *line)
{
	long used = 0;

	if (line)
		line->nplies = 0;
	if (unwinnable_quick(b, side) == UNWINNABLE_UNWINNABLE)
		return UNWINNABLE_UNWINNABLE;
	if (movegen_count(b) == 0)	/* the game is over: mate or stalemate stands */
		return board_in_check(b) && b->side != side ?
		    UNWINNABLE_WINNABLE : UNWINNABLE_UNWINNABLE;
	if (budget_nodes < 1)
		return UNWINNABLE_UNDETERMINED;
	if (pawn_wall_unwinnable(b, side, PAWN_WALL_MAX_STATES))
		return UNWINNABLE_UNWINNABLE;
	int proofs = FORCED_PROOFS_MAX;
	if (forced_unwinnable(b, side, FORCED_PLIES_MAX, &proofs))
		return UNWINNABLE_UNWINNABLE;
	/* A small reachable set is walked out at once, before any mate search;
	 * the walk then resumes with what the searches left of the budget. */
	struct reach r;
	struct beam bm = { .root = b, .winner = side };
	enum unwinnable_verdict v = UNWINNABLE_UNDETERMINED;
	long spent = 0;
	if (!reach_open(&r, b, side, budget_nodes))
		goto done;
	v = reach_run(&r, budget_nodes * REACH_FIRST_PCT / 100 + 1, line);
	if (v != UNWINNABLE_UNDETERMINED || r.over)
		goto done;
	if (reach_closed(&r)) {
		/* Walled in, a mate may need a piece given to a pawn first, which
		 * the walk's best first order reaches only after the shuffles; a
		 * narrow beam finds such lines with CLOSED_BEAM_PCT of the budget,
		 * and the walk goes on with the rest. */
		if (beam_widen(&bm, budget_nodes * CLOSED_BEAM_PCT / 100 + 1, line, &used)) {
			v = UNWINNABLE_WINNABLE;
			goto done;
		}
		v = reach_run(&r, budget_nodes - used, line);
		goto done;
	}
	v = UNWINNABLE_WINNABLE;
	if (beam_widen(&bm, budget_nodes * BEAM_SHARE_PCT / 100 + 1, line, &used))
		goto done;
	spent += used;
	if (break_search(b, side, budget_nodes * BREAK_SHARE_PCT / 100 + 1,
	    budget_nodes * BREAK_LEAF_PCT / 100 + 1, line, &used))
		goto done;
	spent += used;
	if (dive_deepen(b, side, budget_nodes * DIVE_SHARE_PCT / 100 + 1, line, &used))
		goto done;
	spent += used;
	if (helpmate_deepen(b, side, budget_nodes * HELPMATE_SHARE_PCT / 100 + 1, line, &used))
		goto done;
	spent += used;
	/* The beam where the first share left it: a crowd's long mate that only
	 * a wide beam finds, whose guide the dive follows astray. */
	if (beam_widen(&bm, budget_nodes * BEAM_RESUME_PCT / 100 + 1, line, &used))
		goto done;
	spent += used;
	v = reach_run(&r, budget_nodes - spent, line);
done:
	reach_close(&r);
	beam_free(&bm);
	/* Last, and only where all else failed: the walk with the larger cap,
	 * whose cost would otherwise land on every position. */
	if (v == UNWINNABLE_UNDETERMINED &&
	    pawn_wall_unwinnable(b, side, PAWN_WALL_RETRY_STATES))
		v = UNWINNABLE_UNWINNABLE;
	return v;
}

const char *unwinnable_verdict_name(enum unwinnable_verdict v)
{
	static const char *const names[] = {
		[UNWINNABLE_WINNABLE] = "winnable",
		[UNWINNABLE_UNWINNABLE] = "unwinnable",
		[UNWINNABLE_UNDETERMINED] = "undetermined",
	};
	return names[v];
}
