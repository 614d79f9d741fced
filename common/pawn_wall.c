/*
 * A walk over pawn structures.  A state is the exact set of pawns of each
 * side and, for each piece, a region: the squares it may stand on while
 * the pawns are so.  A region grows by flood fill through squares without
 * pawns (a king also shuns squares the enemy's pawns attack and those
 * beside every square of the other king's region), starting from every
 * square the piece may have stood on in a structure leading here.  Pieces
 * never block anything in this picture, and a piece that may have been
 * taken is kept: both only add moves, so every position the game can come
 * to has its pawns in some state of the walk and each piece inside its
 * region.  The loser's promoted pieces share one region, moving as queens
 * and knights do, with a count of how many there may be.
 *
 * The edges are every pawn move that might be legal given the regions:
 * pushes and double pushes (not onto a piece that is always there: one
 * with a single square that nothing may ever have taken), captures of
 * pawns, of pieces whose region holds the square, en passant right after
 * the double push it answers, and captures of pawns by pieces whose
 * region attacks them (a king only a pawn that no pawn guards, nor a
 * piece that is always on its square next to it).  A state whose regions grow goes round again, so
 * the walk ends at a fixpoint.  It gives up (the position may be winnable)
 * when the winner may promote, when the winner might mate in some state,
 * or when it meets more structures than it may visit.
 *
 * Tempo: where one side can move nothing but its king (no piece but those
 * always on their one square with every step onto their own pawns or such
 * pieces, no pawn with a push or a capture), the other king, after each
 * of its moves, stands only where that side still has a move; elsewhere the game is over
 * (stalemate, or a mate the test below sees from one step further, taken
 * only when the step uncovers a check).  A king taking a pawn onto such a
 * square ends the game too, so it is no edge, unless it is the winner's
 * king and the step may uncover a check; so too a king taking a piece
 * always on its square, which then stays there.  With castling rights left (a
 * king steps two squares) none of this applies.
 *
 * The mate test: the loser's king on a square k of its region can be mated
 * only if some choice of squares for the winner's pieces (each within its
 * region, its king not beside k) checks k and leaves every flight square
 * covered, or filled by a piece of the loser's own, each on a square of
 * its region.  Attacks are drawn through pieces (x-rays included), and a
 * piece on a flight counts as covering it: more mates than there are,
 * never fewer.
 */
#include <stdint.h>
#include <stdlib.h>

#include "attacks.h"
#include "bitboard.h"
#include "pawn_wall.h"

/* Choices of the winner's squares tried per king square before the mate
 * test gives up and assumes a mate. */
#define WALL_COVER_TRIES 200000
/* Times each state may be expanded on average, its regions grown each time. */
#define WALL_EXPANSIONS_PER_STATE 8
/* Pieces (pawns aside) the walk follows; a position with more is left alone. */
#define WALL_PIECES_MAX 24
/* The loser's blockers the mate test places at most. */
#define WALL_BLOCKERS_MAX (WALL_PIECES_MAX + 8)

/* A promoted piece moves as a queen or as a knight. */
enum wall_class { WALL_KING, WALL_KNIGHT, WALL_BISHOP, WALL_ROOK, WALL_QUEEN, WALL_PROMOTED };

struct wall_state {
	bitboard pawns[COLOR_NB];
	bitboard region[WALL_PIECES_MAX];	/* squares piece i may stand on */
	bitboard promoted_region;		/* ... and the loser's promoted pieces */
	/* Pieces known to be in every position of the state: never taken. */
	uint32_t present;
	int promoted;		/* pieces the loser may have promoted to, at most */
	bool queued;
};

struct wall {
	enum color winner;
	enum color root_side;	/* to move in the position asked about */
	int root_ep;		/* its en passant square, or SQ_NONE */
	bool castles;		/* some king may still castle: it steps two squares */
	int npieces;		/* the two kings first, white's then black's */
	enum wall_class class_of[WALL_PIECES_MAX];
	enum color color_of[WALL_PIECES_MAX];
	struct wall_state *states;
	int n, cap;
	int32_t *slots;		/* open addressing, -1 free */
	size_t mask;
	int *stack;
	int depth;
	long expansions;
	bool failed;		/* may be winnable: promotion, mate or budget */
};

static bitboard orthogonal_steps(bitboard b)
{
	return bb_north(b) | bb_south(b) | bb_east(b) | bb_west(b);
}

static bitboard diagonal_steps(bitboard b)
{
	bitboard up = bb_north(b), down = bb_south(b);
	return bb_east(up) | bb_west(up) | bb_east(down) | bb_west(down);
}

static bitboard knight_steps(bitboard b)
{
	bitboard out = 0;

	while (b)
		out |= attacks_knight(bb_pop(&b));
	return out;
}

/* Squares one step of class cl away from b; a slider's step is one square. */
static bitboard class_steps(enum wall_class cl, bitboard b)
{
	switch (cl) {
	case WALL_BISHOP: return diagonal_steps(b);
	case WALL_ROOK: return orthogonal_steps(b);
	case WALL_KNIGHT: return knight_steps(b);
	case WALL_PROMOTED: return orthogonal_steps(b) | diagonal_steps(b) | knight_steps(b);
	default: return orthogonal_steps(b) | diagonal_steps(b);
	}
}

/* What a piece of class cl on sq attacks, rays stopped by pawns only. */
static bitboard class_attacks(enum wall_class cl, int sq, bitboard pawns)
{
	switch (cl) {
	case WALL_KING: return attacks_king(sq);
	case WALL_KNIGHT: return attacks_knight(sq);
	case WALL_BISHOP: return attacks_bishop(sq, pawns);
	case WALL_ROOK: return attacks_rook(sq, pawns);
	case WALL_QUEEN: return attacks_queen(sq, pawns);
	default: return attacks_queen(sq, pawns) | attacks_knight(sq);
	}
}

static bitboard flood(enum wall_class cl, bitboard seed, bitboard open)
{
	for (;;) {
		bitboard grown = seed | (class_steps(cl, seed) & open);
		if (grown == seed)
			return seed;
		seed = grown;
	}
}

static uint64_t state_hash(const bitboard pawns[COLOR_NB])
{
	/* splitmix64's finaliser: every bit of both sets reaches the low bits. */
	uint64_t h = pawns[WHITE] ^ (pawns[BLACK] * 0x9e3779b97f4a7c15ULL);
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

/* Squares beside every square of the king's region: the king always guards them. */
static bitboard king_sure_guard(bitboard region)
{
	bitboard sure = region ? ~(bitboard)0 : 0;

	while (region)
		sure &= attacks_king(bb_pop(&region));
	return sure;
}

/* Squares colour c always guards with a piece: beside its king when that
 * king has no square but such neighbours, and round each piece that is
 * always on its one square: all a knight attacks, the next square only
 * along a slider's lines (further on, a piece might shut the ray). */
static bitboard wall_sure_guard(const struct wall *w, const struct wall_state *s, enum color c)
{
	bitboard sure = king_sure_guard(s->region[c]);

	for (int i = 2; i < w->npieces; i++)
		if (w->color_of[i] == c && (s->present & (1u << i)) && s->region[i] &&
		    !bb_several(s->region[i]))
			sure |= class_steps(w->class_of[i], s->region[i]);
	return sure;
}

/* Whether colour c may only move its king while the pawns are as in s: no
 * piece of its own, no pawn with a square ahead, nothing a pawn may take. */
static bool wall_king_only(const struct wall *w, const struct wall_state *s, enum color c)
{
	bitboard pawns = s->pawns[WHITE] | s->pawns[BLACK], prey = s->pawns[!c];

	bitboard stuck = s->pawns[c];

	if (w->castles)
		return false;
	/* A piece always on its one square, its steps all onto its own pawns
	 * or such pieces, never moves. */
	for (int i = 2; i < w->npieces; i++)
		if (w->color_of[i] == c && (s->present & (1u << i)) && !bb_several(s->region[i]))
			stuck |= s->region[i];
	for (int i = 2; i < w->npieces; i++) {
		if (w->color_of[i] == c && s->region[i] &&
		    (class_steps(w->class_of[i], s->region[i]) & ~stuck))
			return false;
		if (w->color_of[i] != c)
			prey |= s->region[i];
	}
	if (c != w->winner && s->promoted)
		return false;
	if (c == w->winner)
		prey |= s->promoted_region;
	return !(bb_push(s->pawns[c], c) & ~pawns) &&
	    !(bb_pawn_attacks(s->pawns[c], c) & prey);
}

/* Where the other king may stand with colour c to move, c moving its king
 * alone, so that c still has a move: its king on a square of its region
 * not beside it, with a step it may take that is not beside it either.
 * Elsewhere c has no move and the game is over. */
static bitboard wall_reply_squares(const struct wall_state *s, enum color c)
{
	bitboard good = 0;

	for (bitboard r = s->region[c]; r;) {
		int at = bb_pop(&r);
		bitboard step = attacks_king(at) & ~s->pawns[c] &
		    ~bb_pawn_attacks(s->pawns[!c], !c), reply = 0;
		while (step) {
			int to = bb_pop(&step);
			reply |= ~(attacks_king(to) | bb_square(to));
		}
		good |= reply & ~(attacks_king(at) | bb_square(at));
	}
	return good;
}

/* Grows every region of s to its closure: pieces through squares without
 * pawns or frozen pieces, kings shunning the enemy's pawns' attacks and
 * the other king, until no king's region grows.  Where one side may only
 * move its king, the other king goes only where that side has a reply. */
static void wall_flood(const struct wall *w, struct wall_state *s, bitboard frozen)
{
	bitboard open = ~(s->pawns[WHITE] | s->pawns[BLACK]);

	for (int i = 2; i < w->npieces; i++)
		s->region[i] = flood(w->class_of[i], s->region[i],
		    open & ~(frozen & ~s->region[i]));
	s->promoted_region = flood(WALL_PROMOTED, s->promoted_region, open & ~frozen);
	bool king_only[COLOR_NB] = { wall_king_only(w, s, WHITE), wall_king_only(w, s, BLACK) };
	for (bool grew = true; grew;) {
		grew = false;
		for (int c = WHITE; c <= BLACK; c++) {
			bitboard king_open = open & ~(frozen & ~s->region[c]) &
			    ~bb_pawn_attacks(s->pawns[!c], !c) & ~wall_sure_guard(w, s, !c);
			if (king_only[!c])
				king_open &= wall_reply_squares(s, !c);
			bitboard r = flood(WALL_KING, s->region[c], king_open);
			grew |= r != s->region[c];
			s->region[c] = r;
		}
	}
}

/*
 * The mate test's search: each unit (a piece of the winner) takes one of
 * its cover masks (flights and k it may attack from one square); a mate
 * needs k checked and the flights left over each filled by its own piece
 * of the loser.
 */
struct cover {
	bitboard flights, king_square;
	bool pawn_check;
	int n;
	int nmasks[WALL_PIECES_MAX];
	bitboard masks[WALL_PIECES_MAX][64];
	bitboard suffix[WALL_PIECES_MAX + 1];
	int nblockers;
	bitboard blocker[WALL_BLOCKERS_MAX];	/* each blocker's region */
	bitboard blockable;
	long tries;
};

/* Kuhn's augmenting path: gives square sq a blocker, moving others on. */
static bool cover_match(const struct cover *c, int sq, int *owner, bitboard *tried)
{
	for (int j = 0; j < c->nblockers; j++) {
		if (!(c->blocker[j] & bb_square(sq)) || (*tried & bb_square(j)))
			continue;
		*tried |= bb_square(j);
		if (owner[j] < 0 || cover_match(c, owner[j], owner, tried)) {
			owner[j] = sq;
			return true;
		}
	}
	return false;
}

/* Whether the loser's pieces may stand on every square of need at once. */
static bool cover_blockable(const struct cover *c, bitboard need)
{
	int owner[WALL_BLOCKERS_MAX];

	if ((need & ~c->blockable) || bb_count(need) > c->nblockers)
		return false;
	for (int j = 0; j < c->nblockers; j++)
		owner[j] = -1;
	while (need) {
		bitboard tried = 0;
		if (!cover_match(c, bb_pop(&need), owner, &tried))
			return false;
	}
	return true;
}

static bool cover_search(struct cover *c, int u, bitboard got)
{
	if (++c->tries > WALL_COVER_TRIES)
		return true;
	if (!c->pawn_check && !((got | c->suffix[u]) & c->king_square))
		return false;
	if (!cover_blockable(c, c->flights & ~(got | c->suffix[u])))
		return false;
	if (u == c->n)
		return true;
	for (int i = 0; i < c->nmasks[u]; i++)
		if (cover_search(c, u + 1, got | c->masks[u][i]))
			return true;
	return false;
}

/* Adds m to unit u's masks unless one there holds it; drops those it holds. */
static void cover_add_mask(struct cover *c, int u, bitboard m)
{
	int n = c->nmasks[u], kept = 0;

	for (int i = 0; i < n; i++)
		if ((c->masks[u][i] & m) == m)
			return;
	for (int i = 0; i < n; i++)
		if ((c->masks[u][i] & m) != c->masks[u][i])
			c->masks[u][kept++] = c->masks[u][i];
	c->masks[u][kept++] = m;
	c->nmasks[u] = kept;
}

/* Whether colour c's slider may stand behind a square on a line through k:
 * the lines from k its bishops and rooks might check along. */
static bitboard wall_slider_lines(const struct wall *w, const struct wall_state *s, enum color c,
    int k)
{
	bitboard pawns = s->pawns[WHITE] | s->pawns[BLACK], lines = 0;

	for (int i = 2; i < w->npieces; i++) {
		if (w->color_of[i] != c || !s->region[i])
			continue;
		if (w->class_of[i] == WALL_BISHOP || w->class_of[i] == WALL_QUEEN)
			lines |= attacks_bishop(k, pawns);
		if (w->class_of[i] == WALL_ROOK || w->class_of[i] == WALL_QUEEN)
			lines |= attacks_rook(k, pawns);
	}
	return lines;
}

/* Where the winner's king may have stepped out of its region to mate on k:
 * its region keeps it where the loser, moving its king alone, has a reply,
 * and a step beyond ends the game but by a mate, so it must uncover a
 * check by a piece behind it on a line through k. */
static bitboard wall_discovering_steps(const struct wall *w, const struct wall_state *s, int k)
{
	enum color win = w->winner;
	bitboard pawns = s->pawns[WHITE] | s->pawns[BLACK], out = 0;

	if (!wall_king_only(w, s, !win))
		return 0;
	for (bitboard from = s->region[win] & wall_slider_lines(w, s, win, k); from;) {
		int y = bb_pop(&from);
		out |= attacks_king(y) & ~attacks_line(k, y);
	}
	return out & ~s->region[win] & ~pawns & ~bb_pawn_attacks(s->pawns[!win], !win);
}

/* Whether the loser's king might be mated on k in state s. */
static bool wall_mate_on(const struct wall *w, const struct wall_state *s, int k)
{
	enum color win = w->winner, lose = !win;
	bitboard pawns = s->pawns[WHITE] | s->pawns[BLACK];
	bitboard guarded = bb_pawn_attacks(s->pawns[win], win);
	struct cover c;	/* large: only the parts in use are set */

	c.king_square = bb_square(k);
	c.n = c.nblockers = 0;
	c.blockable = 0;
	c.tries = 0;
	c.flights = attacks_king(k) & ~s->pawns[lose] & ~guarded;
	c.pawn_check = (guarded & bb_square(k)) != 0;
	bitboard target = c.flights | c.king_square;
	/* The winner's king, never beside k; without a square it cannot be here. */
	bitboard far = (s->region[win] | wall_discovering_steps(w, s, k)) &
	    ~attacks_king(k) & ~c.king_square;
	if (!far)
		return false;
	/* Only squares that attack a target give a mask other than none, and
	 * those are the squares the targets attack. */
	bitboard near = 0;
	for (bitboard t = c.flights; t;)
		near |= attacks_king(bb_pop(&t));
	c.nmasks[0] = 0;
	cover_add_mask(&c, 0, 0);
	for (bitboard x = far & near; x;)
		cover_add_mask(&c, 0, attacks_king(bb_pop(&x)) & c.flights);
	c.n = 1;
	for (int i = 2; i < w->npieces; i++) {
		if (w->color_of[i] == lose) {
			c.blocker[c.nblockers++] = s->region[i] & c.flights;
			continue;
		}
		int u = c.n++;
		bitboard reach = target;
		c.nmasks[u] = 0;
		for (bitboard t = target; t;)
			reach |= class_attacks(w->class_of[i], bb_pop(&t), pawns);
		cover_add_mask(&c, u, 0);
		for (bitboard x = s->region[i] & reach & ~c.king_square; x;) {
			int sq = bb_pop(&x);
			cover_add_mask(&c, u, (class_attacks(w->class_of[i], sq, pawns) |
			    bb_square(sq)) & target);
		}
	}
	for (int i = 0; i < s->promoted; i++)
		c.blocker[c.nblockers++] = s->promoted_region & c.flights;
	for (int j = 0; j < c.nblockers; j++)
		c.blockable |= c.blocker[j];
	c.suffix[c.n] = 0;
	for (int u = c.n - 1; u >= 0; u--) {
		c.suffix[u] = c.suffix[u + 1];
		for (int i = 0; i < c.nmasks[u]; i++)
			c.suffix[u] |= c.masks[u][i];
	}
	return cover_search(&c, 0, 0);
}

static bool wall_mate_possible(const struct wall *w, const struct wall_state *s)
{
	bitboard checks = bb_pawn_attacks(s->pawns[w->winner], w->winner);

	for (int i = 2; i < w->npieces; i++)
		if (w->color_of[i] == w->winner)
			checks |= class_steps(w->class_of[i], s->region[i]);
	for (bitboard k = s->region[!w->winner] & checks; k;)
		if (wall_mate_on(w, s, bb_pop(&k)))
			return true;
	return false;
}

static int wall_find(struct wall *w, const bitboard pawns[COLOR_NB], size_t *slot)
{
	for (size_t i = state_hash(pawns) & w->mask;; i = (i + 1) & w->mask) {
		int32_t at = w->slots[i];
		if (at < 0) {
			*slot = i;
			return -1;
		}
		if (w->states[at].pawns[WHITE] == pawns[WHITE] &&
		    w->states[at].pawns[BLACK] == pawns[BLACK])
			return at;
	}
}

static void wall_queue(struct wall *w, int i)
{
	if (!w->states[i].queued) {
		w->states[i].queued = true;
		w->stack[w->depth++] = i;
	}
}

/* Records that `next` may follow: a new state, or more room for its pieces. */
static void wall_reach(struct wall *w, const struct wall_state *next)
{
	size_t slot;
	int i = wall_find(w, next->pawns, &slot);

	if (i < 0) {
		if (w->n == w->cap) {
			w->failed = true;
			return;
		}
		i = w->n++;
		w->states[i] = *next;
		w->states[i].queued = false;
		w->slots[slot] = i;
		wall_queue(w, i);
		return;
	}
	struct wall_state *at = &w->states[i];
	bool grew = next->promoted > at->promoted ||
	    (next->promoted_region & ~at->promoted_region) ||
	    (at->present & ~next->present);
	if (next->promoted > at->promoted)
		at->promoted = next->promoted;
	at->promoted_region |= next->promoted_region;
	at->present &= next->present;
	for (int p = 0; p < w->npieces; p++)
		if (next->region[p] & ~at->region[p]) {
			at->region[p] |= next->region[p];
			grew = true;
		}
	if (grew)
		wall_queue(w, i);
}

/* The state after a pawn of colour c goes from `from` to `to`, taking
 * whatever pawn stands on `taken` (0 for none), or a piece on `to`. */
static void wall_pawn_move(struct wall *w, const struct wall_state *s, enum color c,
    int from, int to, bitboard taken, bool takes_piece)
{
	struct wall_state next = *s;
	bitboard dest = bb_square(to);
	bool promotes = (dest & (BB_RANK_1 | BB_RANK_8)) != 0;

	if (promotes && c == w->winner) {
		w->failed = true;	/* a new mating piece: beyond this picture */
		return;
	}
	next.pawns[c] ^= bb_square(from) | (promotes ? 0 : dest);
	next.pawns[!c] &= ~taken;
	int prey = -1, candidates = 0;
	for (int p = 0; p < w->npieces; p++)
		if (next.region[p] & dest) {
			if (takes_piece && w->color_of[p] != c && w->class_of[p] != WALL_KING) {
				next.present &= ~(1u << p);	/* it may be the prey */
				prey = p;
				candidates++;
			}
			next.region[p] &= ~dest;
		}
	if (next.promoted_region & dest) {
		candidates += takes_piece && c == w->winner;
		next.promoted_region &= ~dest;
	}
	if (candidates == 1 && prey >= 0)
		next.region[prey] = 0;	/* the only piece that can have been there is gone */
	if (promotes) {
		next.promoted++;
		next.promoted_region |= dest;
	}
	wall_reach(w, &next);
}

static void wall_pawn_moves(struct wall *w, const struct wall_state *s, enum color c,
    bitboard frozen)
{
	bitboard pawns = s->pawns[WHITE] | s->pawns[BLACK], stop = pawns | frozen;
	bitboard prey = 0;
	bitboard start = c == WHITE ? BB_RANK_2 : BB_RANK_7;

	for (int p = 2; p < w->npieces; p++)
		if (w->color_of[p] != c)
			prey |= s->region[p];
	if (c == w->winner)
		prey |= s->promoted_region;
	prey &= ~stop;
	for (bitboard p = s->pawns[c]; p && !w->failed;) {
		int sq = bb_pop(&p);
		bitboard one = bb_push(bb_square(sq), c);
		if (one & ~stop) {
			wall_pawn_move(w, s, c, sq, bb_lsb(one), 0, false);
			bitboard two = bb_push(one, c);
			if ((bb_square(sq) & start) && (two & ~stop)) {
				wall_pawn_move(w, s, c, sq, bb_lsb(two), 0, false);
				/* En passant can only answer the double push at once. */
				bitboard beside = (bb_east(two) | bb_west(two)) & s->pawns[!c];
				while (beside)
					wall_pawn_move(w, s, !c, bb_pop(&beside), bb_lsb(one),
					    bb_square(sq), false);
			}
		}
		for (bitboard t = attacks_pawn(sq, c) & (s->pawns[!c] | prey); t;) {
			int to = bb_pop(&t);
			bitboard pawn = bb_square(to) & s->pawns[!c];
			wall_pawn_move(w, s, c, sq, to, pawn, !pawn);
		}
	}
}

/* Whether c's king taking the pawn on `at` leaves the other side, then
 * moving its king alone, without a move, and so ends the game: by
 * stalemate, or, for the winner's king, by a mate only if the step
 * uncovers a check along a line it leaves. */
static bool wall_king_take_ends(const struct wall *w, const struct wall_state *s, enum color c,
    bitboard at)
{
	struct wall_state after = *s;
	int to = bb_lsb(at);

	after.pawns[!c] &= ~at;
	for (int i = 2; i < w->npieces; i++)
		if (w->color_of[i] != c && after.region[i] == at)
			after.region[i] = 0;	/* a piece taken, not a pawn */
	if (!wall_king_only(w, &after, !c) || (wall_reply_squares(&after, !c) & at))
		return false;
	if (c != w->winner)
		return true;
	for (bitboard r = s->region[!c] & ~attacks_king(to); r;) {
		int k = bb_pop(&r);
		for (bitboard y = s->region[c] & attacks_king(to) & wall_slider_lines(w, &after, c, k); y;)
			if (!(attacks_line(k, bb_pop(&y)) & at))
				return false;
	}
	return true;
}

/* Captures of pawns by pieces: the pawn goes, the taker may stand there. */
static void wall_piece_takes(struct wall *w, const struct wall_state *s, enum color c)
{
	bitboard guarded = bb_pawn_attacks(s->pawns[!c], !c) | wall_sure_guard(w, s, !c);

	for (bitboard p = s->pawns[!c]; p && !w->failed;) {
		bitboard at = bb_square(bb_pop(&p));
		struct wall_state next = *s;
		bool taken = false;
		for (int i = 0; i < w->npieces; i++) {
			if (w->color_of[i] != c || !(class_steps(w->class_of[i], s->region[i]) & at))
				continue;
			if (w->class_of[i] == WALL_KING && (at & guarded))
				continue;
			if (i == (int)c && wall_king_take_ends(w, s, c, at))
				continue;
			next.region[i] |= at;
			taken = true;
		}
		if (c != w->winner && (class_steps(WALL_PROMOTED, s->promoted_region) & at)) {
			next.promoted_region |= at;
			taken = true;
		}
		if (taken) {
			next.pawns[!c] &= ~at;
			wall_reach(w, &next);
		}
	}
}

/* A piece with one square that nothing may take is always on it: no pawn
 * goes there.  A piece that a pawn or a piece may take is present no more. */
static bitboard wall_frozen(const struct wall *w, struct wall_state *s)
{
	bitboard hit[COLOR_NB], frozen = 0;

	for (int c = WHITE; c <= BLACK; c++)
		hit[c] = bb_pawn_attacks(s->pawns[c], (enum color)c);
	for (int i = 2; i < w->npieces; i++)
		hit[w->color_of[i]] |= class_steps(w->class_of[i], s->region[i]);
	/* A king takes nothing that a pawn guards, nor anything beside the
	 * other king or beside a piece always on its square that attacks it
	 * there (pieces packed round their king guard each other so), nor a
	 * piece always on its square whose taking ends the game as taking a
	 * pawn may. */
	for (int c = WHITE; c <= BLACK; c++) {
		bitboard steps = class_steps(WALL_KING, s->region[c]) &
		    ~bb_pawn_attacks(s->pawns[!c], (enum color)!c) &
		    ~wall_sure_guard(w, s, (enum color)!c);
		for (int i = 2; i < w->npieces; i++)
			if ((int)w->color_of[i] != c && (s->present & (1u << i)) &&
			    !bb_several(s->region[i]) && (steps & s->region[i]) &&
			    wall_king_take_ends(w, s, (enum color)c, s->region[i]))
				steps &= ~s->region[i];
		hit[c] |= steps;
	}
	hit[!w->winner] |= class_steps(WALL_PROMOTED, s->promoted_region);
	for (int i = 0; i < w->npieces; i++) {
		if (i >= 2 && (s->region[i] & hit[!w->color_of[i]]))
			s->present &= ~(1u << i);
		if ((s->present & (1u << i)) && !bb_several(s->region[i]))
			frozen |= s->region[i];
	}
	return frozen;
}

static void wall_expand(struct wall *w, int i)
{
	struct wall_state s = w->states[i];
	bitboard frozen = wall_frozen(w, &s);

	/* Frozen pieces bar the way of the others; fewer of them, more room. */
	for (;;) {
		wall_flood(w, &s, frozen);
		bitboard after = wall_frozen(w, &s);
		if (after == frozen)
			break;
		frozen = after;
	}
	w->states[i] = s;
	if (wall_mate_possible(w, &s)) {
		w->failed = true;
		return;
	}
	for (int c = WHITE; c <= BLACK && !w->failed; c++) {
		wall_pawn_moves(w, &s, c, frozen);
		wall_piece_takes(w, &s, c);
	}
	/* The root alone may follow a double push made before it. */
	if (i == 0 && w->root_ep != SQ_NONE && !w->failed) {
		enum color c = w->root_side;
		for (bitboard p = attacks_pawn(w->root_ep, !c) & s.pawns[c]; p;)
			wall_pawn_move(w, &s, c, bb_pop(&p), w->root_ep,
			    bb_push(bb_square(w->root_ep), !c), false);
	}
}

static bool wall_open(struct wall *w, const struct board *b, enum color side, int max_states)
{
	static const enum piece_type types[] = { KNIGHT, BISHOP, ROOK, QUEEN };
	static const enum wall_class classes[] = { WALL_KNIGHT, WALL_BISHOP, WALL_ROOK, WALL_QUEEN };
	struct wall_state root = { .queued = false };
	size_t slots = 2;

	*w = (struct wall){ .winner = side, .root_side = (enum color)b->side,
	    .root_ep = b->ep_square, .castles = b->castling != 0, .cap = max_states,
	    .npieces = 2 };
	for (int c = WHITE; c <= BLACK; c++) {
		root.pawns[c] = b->by_type[PAWN] & b->by_color[c];
		root.region[c] = bb_square(board_king(b, c));
		w->class_of[c] = WALL_KING;
		w->color_of[c] = (enum color)c;
		for (int t = 0; t < 4; t++)
			for (bitboard x = b->by_type[types[t]] & b->by_color[c]; x;) {
				if (w->npieces == WALL_PIECES_MAX)
					return false;
				int p = w->npieces++;
				w->class_of[p] = classes[t];
				w->color_of[p] = (enum color)c;
				root.region[p] = bb_square(bb_pop(&x));
			}
	}
	root.present = (1u << w->npieces) - 1;
	while (slots < 2 * (size_t)max_states)
		slots <<= 1;
	w->mask = slots - 1;
	w->states = malloc((size_t)max_states * sizeof *w->states);
	w->stack = malloc((size_t)max_states * sizeof *w->stack);
	w->slots = malloc(slots * sizeof *w->slots);
	if (!w->states || !w->stack || !w->slots)
		return false;
	for (size_t i = 0; i < slots; i++)
		w->slots[i] = -1;
	wall_reach(w, &root);
	return true;
}

static void wall_close(struct wall *w)
{
	free(w->states);
	free(w->stack);
	free(w->slots);
}

bool pawn_wall_unwinnable(const struct board *b, enum color side, int max_states)
{
	struct wall w;
	bool proved = false;

	if (!b->by_type[PAWN] || max_states < 1)
		return false;
	if (wall_open(&w, b, side, max_states)) {
		long limit = (long)max_states * WALL_EXPANSIONS_PER_STATE;
		while (w.depth > 0 && !w.failed) {
			int i = w.stack[--w.depth];
			w.states[i].queued = false;
			if (++w.expansions > limit)
				w.failed = true;
			else
				wall_expand(&w, i);
		}
		proved = !w.failed;
	}
	wall_close(&w);
	return proved;
}
