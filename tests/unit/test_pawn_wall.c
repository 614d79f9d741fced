/*
 * The walk over pawn structures: walls it proves (their pawns may still
 * move, or a king or piece sits where a pawn would go), and walls with a
 * break, a way round or a promotion, where the full decision finds a
 * helpmate that is played through the core here and the walk must not
 * have claimed a proof.  CHA calls every proved one unwinnable too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fen.h"
#include "move.h"
#include "pawn_wall.h"
#include "unwinnable.h"
#include "unit_util.h"

/* A wall of many structures is not proved within this few of them. */
#define SMALL_BUDGET 16

struct wall_case {
	const char *fen;
	enum color side;
};

static void load(struct board *b, const char *fen)
{
	char err[128];

	if (fen_parse(b, fen, err, sizeof err) < 0)
		fail_msg("%s: %s", fen, err);
}

/* Plays line from b, each move checked legal, and asserts it mates the loser. */
static void check_mates(const char *what, const struct board *start, enum color winner,
    const struct helpmate *line)
{
	struct board b = *start;
	move legal[MAX_MOVES];

	assert_true(line->nplies > 0);
	for (int i = 0; i < line->nplies; i++) {
		int n = movegen_legal(&b, legal), k = 0;
		while (k < n && legal[k] != line->moves[i])
			k++;
		if (k == n)
			fail_msg("%s: ply %d of the helpmate is illegal", what, i + 1);
		board_make(&b, line->moves[i]);
	}
	if (movegen_count(&b) != 0 || !board_in_check(&b) || b.side != color_other(winner))
		fail_msg("%s: the helpmate line does not mate", what);
}

/* Walls CHA proves unwinnable that the static pawn-lock rule left open. */
static const struct wall_case proved[] = {
	/* The white king can never leave a1, so a2 never promotes, and the
	 * black king may not take b2 beside it. */
	{ "k7/1b6/8/8/8/1pB5/pP6/K7 w - - 0 1", WHITE },
	{ "k7/1b6/8/8/8/1pB5/pP6/K7 w - - 0 1", BLACK },
	/* Each bishop on its own side of the wall: the one behind it can never
	 * block a flight of the king in front. */
	{ "8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1", WHITE },
	{ "8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 w - - 0 1", BLACK },
	/* Knights and bishops shut in by pawns whose captures lead nowhere. */
	{ "4k3/1p4p1/bPp2pPb/n1P2P1n/N1p2p1N/BpP2PpB/1P4P1/4K3 w - - 0 1", WHITE },
	{ "4k3/1p4p1/bPp2pPb/n1P2P1n/N1p2p1N/BpP2PpB/1P4P1/4K3 w - - 0 1", BLACK },
	/* The bishop on c8 can never move, so c7 never promotes. */
	{ "k1b5/Pp1b4/1P6/8/8/1p6/pP1B4/K1B5 w - - 0 1", WHITE },
	/* Knights that can never move guard the pawns beside them from the
	 * kings: the wall of the sixth rank stands. */
	{ "N1b1N1N1/1pPpPpPp/1P1P1P1P/4B3/8/8/8/K1k5 w - - 0 1", WHITE },
	{ "N1b1N1N1/1pPpPpPp/1P1P1P1P/4B3/8/8/8/K1k5 w - - 0 1", BLACK },
	{ "k7/1p6/1Pp5/n1P5/N1p5/1pP5/1P6/K1B5 w - - 0 1", BLACK },
	/* Bishops shut in by pawns their own pawns guard: no king takes them,
	 * and they guard the pawns round them in turn. */
	{ "4k3/8/3p1p2/3PbP2/3pBp2/3P1P2/4B3/4K3 w - - 0 1", WHITE },
	{ "4k3/8/3p1p2/3PbP2/3pBp2/3P1P2/4B3/4K3 w - - 0 1", BLACK },
	/* e4 may take en passant only just after a double push, and d4 never
	 * came from d2: the wall holds. */
	{ "6bk/8/8/1p1p4/1P1Pp1p1/4PpP1/5P2/2BK3N w - - 0 1", WHITE },
	{ "6bk/8/8/1p1p4/1P1Pp1p1/4PpP1/5P2/2BK3N w - - 0 1", BLACK },
	/* Pawns still to push and to take: a hundred structures and more. */
	{ "2k5/p1p1p1p1/P1P1P1P1/2p1p2K/8/8/2P1P3/8 w - - 0 1", BLACK },
	{ "2k5/p1p1p1p1/P1P1P1P1/2p1p2K/8/8/2P1P1P1/8 w - - 0 1", BLACK },
};

/* A king shut in on two squares, its side with no other move: the other
 * king may not stand where it would leave it without a reply. */
static const struct wall_case shut_in[] = {
	/* The white king goes h3-h4-h3 for ever; the black king may not step
	 * to h2 or g5 nor take g2 (white would be stalemated, and no check is
	 * uncovered), so the mate on h4 with the black king on h2 never comes. */
	{ "1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1", BLACK },
	{ "8/8/7p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1", BLACK },
	/* The black king between a5 and a6 behind its pawns: the white king
	 * never comes beside them, nor takes b7 or c6 over them. */
	{ "8/1p2B3/1PpB4/k1P5/p1P5/P7/5K2/8 w - - 0 1", WHITE },
	{ "8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1", WHITE },
};

/* The loser's king taking the last pawn that kept the shut-in king with a
 * move stalemates it: g2 (and with it g3's promotion) stays. */
static const struct wall_case stalemating_take[] = {
	{ "1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1", WHITE },
	{ "8/8/7p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1", WHITE },
	{ "8/1p2B3/1PpB4/k1P5/p1P5/P7/5K2/8 w - - 0 1", BLACK },
};

/* The black king on a8-b8 beside a c8 bishop that can never move: black
 * moves its king alone all the same, and the white king taking c8 (with
 * the black king on a8) stalemates it, so c8 stays and the king with it. */
static const struct wall_case stuck_piece[] = {
	{ "k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7 w - - 0 1", WHITE },
	{ "k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7 w - - 0 1", BLACK },
};

/* White's pieces packed round their king, each guarded by one beside it
 * that can never move either: no king takes any of them, the castling
 * right is dead, and white's two free bishops are of one colour. */
static const struct wall_case guarded_block[] = {
	{ "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w K - 0 1", WHITE },
	{ "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w K - 0 1", BLACK },
	{ "2k5/8/8/3B4/2Bp1p1p/2pP1P1P/2P1BPBP/3BKBNR w K - 0 1", BLACK },
};

/* Walls with a way through, each with a helpmate. */
static const struct wall_case broken[] = {
	/* The white king off a1: it walks out, b2 goes forward, a2 queens. */
	{ "k7/1b6/8/8/8/1pB5/pP6/1K6 w - - 0 1", WHITE },
	/* No black pawn on a2: the white king walks out to be mated. */
	{ "k7/1b6/8/8/8/1pB5/1P6/K7 w - - 0 1", BLACK },
	/* h2 instead of h3: the h-pawn breaks the wall with h2-h3 and g3. */
	{ "8/1k5B/7b/8/1p1p1p1p/1PpP1P2/2P3KP/N3b3 w - - 0 1", WHITE },
	/* No black pawn on h4: h3 runs through and queens. */
	{ "8/1k5B/7b/8/1p1p1p2/1PpP1P1P/2P3K1/N3b3 w - - 0 1", BLACK },
	/* f2 instead of f3: the white king walks out over f3. */
	{ "8/1k5B/7b/8/1p1p1p1p/1PpP3P/2P2PK1/N3b3 w - - 0 1", WHITE },
	/* The shut-in king with a spare move (a2-a3): the black king takes g2
	 * while white still has a move, g3 queens and gives itself up on g6. */
	{ "1k6/b1b5/7p/5p1P/p4p2/5PpK/P5P1/8 w - - 0 1", WHITE },
	{ "1k6/b1b5/7p/5p1P/p4p2/5PpK/P5P1/8 w - - 0 1", BLACK },
	/* The black king takes a2, which stalemates nothing: a3 queens. */
	{ "1k6/b1b5/7p/5p1P/5p2/p4PpK/P5P1/8 b - - 0 1", WHITE },
	/* Shut in, and mated at once: the rule keeps the mates it must. */
	{ "8/8/7p/5p1P/3b1p1K/5Pp1/6Pp/5kb1 b - - 0 1", BLACK },
	{ "1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/7b b - - 0 1", BLACK },
	/* A king out of the cage. */
	{ "1k6/b1b5/6Kp/5p1P/5p2/5Pp1/6P1/8 w - - 0 1", WHITE },
	{ "8/1p2B3/1PpB4/2P5/pkP5/P7/5K2/8 b - - 0 1", WHITE },
	/* No d7: the bishop moves, and d6 queens. */
	{ "k1b5/1p6/1P1P4/B7/8/2B5/8/K7 w - - 0 1", WHITE },
	/* A free h-pawn: the black king is not alone, Kxc8 stalemates nothing. */
	{ "k1b5/1p1p3p/1P1P4/B7/8/2B5/8/K7 w - - 0 1", WHITE },
	/* The block without its g2 bishop or its d1 bishop opens: pieces walk
	 * out, and a white pawn or c3 queens. */
	{ "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BP1P/3BKBNR w K - 0 1", WHITE },
	{ "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BP1P/3BKBNR w K - 0 1", BLACK },
	{ "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/4KBNR w K - 0 1", BLACK },
	/* A locked h-pawn the white king may take: h6 queens. */
	{ "k1b5/1p1p3p/1P1P3P/B7/8/2B5/8/K7 w - - 0 1", WHITE },
};

static void test_proves_walls(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof proved / sizeof proved[0]; i++) {
		struct board b;
		load(&b, proved[i].fen);
		if (!pawn_wall_unwinnable(&b, proved[i].side, PAWN_WALL_MAX_STATES))
			fail_msg("%s: not proved", proved[i].fen);
		assert_int_equal(unwinnable_decide(&b, proved[i].side, UNWINNABLE_FLAG_NODES, NULL),
		    UNWINNABLE_UNWINNABLE);
	}
}

static void prove_all(const struct wall_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct board b;
		load(&b, cases[i].fen);
		if (!pawn_wall_unwinnable(&b, cases[i].side, PAWN_WALL_MAX_STATES))
			fail_msg("%s: not proved", cases[i].fen);
		assert_int_equal(unwinnable_decide(&b, cases[i].side, UNWINNABLE_FLAG_NODES, NULL),
		    UNWINNABLE_UNWINNABLE);
	}
}

static void test_shut_in_king(void **state)
{
	(void)state;
	prove_all(shut_in, sizeof shut_in / sizeof shut_in[0]);
}

static void test_stalemating_take(void **state)
{
	(void)state;
	prove_all(stalemating_take, sizeof stalemating_take / sizeof stalemating_take[0]);
}

static void test_stuck_piece(void **state)
{
	(void)state;
	prove_all(stuck_piece, sizeof stuck_piece / sizeof stuck_piece[0]);
}

static void test_guarded_block(void **state)
{
	(void)state;
	prove_all(guarded_block, sizeof guarded_block / sizeof guarded_block[0]);
}

static void test_breaks_are_not_walls(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
		struct board b;
		struct helpmate line;
		load(&b, broken[i].fen);
		if (pawn_wall_unwinnable(&b, broken[i].side, PAWN_WALL_MAX_STATES))
			fail_msg("%s: proved, but a helpmate exists", broken[i].fen);
		assert_int_equal(unwinnable_decide(&b, broken[i].side, UNWINNABLE_FLAG_NODES, &line),
		    UNWINNABLE_WINNABLE);
		check_mates(broken[i].fen, &b, broken[i].side, &line);
	}
}

/* Past its budget of structures the walk proves nothing. */
static void test_budget(void **state)
{
	struct board b;

	(void)state;
	load(&b, "2k5/p1p1p1p1/P1P1P1P1/2p1p2K/8/8/2P1P1P1/8 w - - 0 1");
	assert_false(pawn_wall_unwinnable(&b, BLACK, SMALL_BUDGET));
	assert_false(pawn_wall_unwinnable(&b, BLACK, 0));
	assert_true(pawn_wall_unwinnable(&b, BLACK, PAWN_WALL_MAX_STATES));
	/* The full lattice needs the second walk's larger cap. */
	load(&b, "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1");
	assert_false(pawn_wall_unwinnable(&b, BLACK, PAWN_WALL_MAX_STATES));
	assert_true(pawn_wall_unwinnable(&b, BLACK, PAWN_WALL_RETRY_STATES));
}

/* Nothing to say without pawns, or where the winner mates at once. */
static void test_does_not_apply(void **state)
{
	struct board b;

	(void)state;
	load(&b, "8/8/4k3/8/8/8/3K4/8 w - - 0 1");
	assert_false(pawn_wall_unwinnable(&b, WHITE, PAWN_WALL_MAX_STATES));
	board_start(&b);
	assert_false(pawn_wall_unwinnable(&b, WHITE, PAWN_WALL_MAX_STATES));
	assert_false(pawn_wall_unwinnable(&b, BLACK, PAWN_WALL_MAX_STATES));
	/* A lone pawn runs to queen. */
	load(&b, "8/8/4k3/8/2P5/8/3K4/8 w - - 0 1");
	assert_false(pawn_wall_unwinnable(&b, WHITE, PAWN_WALL_MAX_STATES));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proves_walls),
		cmocka_unit_test(test_shut_in_king),
		cmocka_unit_test(test_stalemating_take),
		cmocka_unit_test(test_stuck_piece),
		cmocka_unit_test(test_guarded_block),
		cmocka_unit_test(test_breaks_are_not_walls),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_does_not_apply),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
