/*
 * Unwinnability (6.9, 5.2.2): the verdicts of tests/data/unwinnable.tsv and
 * of an independent oracle (CHA, run by hand) on tests/data/unwinnable_cha.tsv,
 * every helpmate line played through the core to the loser's checkmate,
 * soundness on positions a random game actually mated from, the budget,
 * and what a flag fall gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fen.h"
#include "move.h"
#include "position.h"
#include "unwinnable.h"
#include "unit_util.h"

#define TSV_MIN_ROWS 40
#define PLAYOUTS (UNIT_UNDER_SANITIZER ? 60 : 400)
#define PLAYOUT_PLIES 300
/* Positions before a random game's mate that must not be called unwinnable for the mater. */
#define PLIES_BEFORE_MATE 16
#define SOUNDNESS_NODES 5000
/* unwinnable_cha.tsv: at least this many rows, and of each source this many. */
#define CHA_MIN_ROWS 600
#define CHA_MIN_PER_SOURCE 100

static enum color parse_side(const char *s)
{
	if (!strcmp(s, "white"))
		return WHITE;
	if (!strcmp(s, "black"))
		return BLACK;
	fail_msg("bad side \"%s\"", s);
	return WHITE;
}

static enum unwinnable_verdict parse_verdict(const char *s)
{
	for (int v = UNWINNABLE_WINNABLE; v <= UNWINNABLE_UNDETERMINED; v++)
		if (!strcmp(s, unwinnable_verdict_name((enum unwinnable_verdict)v)))
			return (enum unwinnable_verdict)v;
	fail_msg("bad verdict \"%s\"", s);
	return UNWINNABLE_UNDETERMINED;
}

/* Plays line from b, each move checked legal, and asserts it ends with winner mating. */
static void check_helpmate(const char *what, const struct board *start, enum color winner,
    const struct helpmate *line)
{
	struct board b = *start;
	move legal[MAX_MOVES];

	assert_true(line->nplies >= 0 && line->nplies <= HELPMATE_MAX_PLIES);
	for (int i = 0; i < line->nplies; i++) {
		int n = movegen_legal(&b, legal), k = 0;
		while (k < n && legal[k] != line->moves[i])
			k++;
		if (k == n) {
			char uci[MOVE_TEXT_MAX];
			move_format_uci(line->moves[i], uci);
			fail_msg("%s: ply %d (%s) of the helpmate is illegal", what, i + 1, uci);
		}
		board_make(&b, line->moves[i]);
	}
	if (movegen_count(&b) != 0 || !board_in_check(&b) || b.side != color_other(winner))
		fail_msg("%s: the helpmate line does not end in mate of %s", what,
		    winner == WHITE ? "black" : "white");
}

/* Every row of unwinnable.tsv gets its verdict, and every winnable one a line that mates. */
static void test_vectors(void **state)
{
	char text[1024], err[128];
	FILE *f = unit_open_data("unwinnable.tsv");
	int rows = 0;

	(void)state;
	while (fgets(text, sizeof text, f)) {
		char *fields[5] = { 0 };
		struct board b;
		struct helpmate line;

		unit_chomp(text);
		if (text[0] == '#' || !text[0])
			continue;
		if (unit_split_tabs(text, fields, 5) < 4)
			fail_msg("short row: %s", text);
		if (fen_parse(&b, fields[1], err, sizeof err) < 0)
			fail_msg("%s: %s", fields[0], err);
		enum color side = parse_side(fields[2]);
		enum unwinnable_verdict want = parse_verdict(fields[3]);
		enum unwinnable_verdict got = unwinnable_decide(&b, side, UNWINNABLE_FLAG_NODES, &line);
		if (got != want)
			fail_msg("%s: %s, expected %s", fields[0], unwinnable_verdict_name(got),
			    unwinnable_verdict_name(want));
		if (got == UNWINNABLE_WINNABLE)
			check_helpmate(fields[0], &b, side, &line);
		/* The static check never contradicts a helpmate. */
		if (want == UNWINNABLE_WINNABLE)
			assert_int_equal(unwinnable_quick(&b, side), UNWINNABLE_UNDETERMINED);
		rows++;
	}
	fclose(f);
	assert_true(rows >= TSV_MIN_ROWS);
}

/* The sources of unwinnable_cha.tsv's rows, by the prefix of their name. */
static const char *const cha_sources[] = { "playout", "lichess", "composition" };
#define CHA_SOURCES (sizeof cha_sources / sizeof cha_sources[0])

/*
 * The oracle's verdicts: ours is sound on every row (never unwinnable where
 * CHA found a mate; never a mate, played out here, where CHA proved there is
 * none) and agrees wherever CHA decided, within the flag budget.
 */
static void test_cha_vectors(void **state)
{
	char text[1024], err[128];
	FILE *f = unit_open_data("unwinnable_cha.tsv");
	int rows = 0, agree = 0, per_source[CHA_SOURCES] = { 0 };

	(void)state;
	while (fgets(text, sizeof text, f)) {
		char *fields[4] = { 0 };
		struct board b;
		struct helpmate line;

		unit_chomp(text);
		if (text[0] == '#' || !text[0])
			continue;
		if (unit_split_tabs(text, fields, 4) < 4)
			fail_msg("short row: %s", text);
		if (fen_parse(&b, fields[1], err, sizeof err) < 0)
			fail_msg("%s: %s", fields[0], err);
		enum color side = parse_side(fields[2]);
		enum unwinnable_verdict cha = parse_verdict(fields[3]);
		enum unwinnable_verdict got = unwinnable_decide(&b, side, UNWINNABLE_FLAG_NODES, &line);
		if (got == UNWINNABLE_WINNABLE)
			check_helpmate(fields[0], &b, side, &line);
		if (got == UNWINNABLE_UNWINNABLE && cha == UNWINNABLE_WINNABLE)
			fail_msg("%s %s %s: unwinnable, but CHA found a mate", fields[0], fields[1],
			    fields[2]);
		if (cha != UNWINNABLE_UNDETERMINED && got != cha)
			fail_msg("%s %s %s: %s, CHA %s", fields[0], fields[1], fields[2],
			    unwinnable_verdict_name(got), unwinnable_verdict_name(cha));
		/* A composition's name carries its composer's answer: WB, W-, -B or --. */
		if (!strncmp(fields[0], "composition:", 12) && strlen(fields[0]) >= 14 &&
		    got != UNWINNABLE_UNDETERMINED) {
			bool can = fields[0][12 + (side == WHITE ? 0 : 1)] != '-';
			if (can != (got == UNWINNABLE_WINNABLE))
				fail_msg("%s %s %s: %s against the composer", fields[0], fields[1],
				    fields[2], unwinnable_verdict_name(got));
		}
		agree += got == cha;
		for (size_t k = 0; k < CHA_SOURCES; k++)
			if (!strncmp(fields[0], cha_sources[k], strlen(cha_sources[k])))
				per_source[k]++;
		rows++;
	}
	fclose(f);
	assert_true(rows >= CHA_MIN_ROWS);
	for (size_t k = 0; k < CHA_SOURCES; k++)
		if (per_source[k] < CHA_MIN_PER_SOURCE)
			fail_msg("only %d rows from %s", per_source[k], cha_sources[k]);
	print_message("%d of %d oracle verdicts agree\n", agree, rows);
}

struct playout_trace {
	struct board boards[PLAYOUT_PLIES + 1];
	int count;
};

static void record(const struct board *b, const move *legal, int nlegal, void *ctx)
{
	struct playout_trace *t = ctx;

	(void)legal;
	(void)nlegal;
	if (t->count <= PLAYOUT_PLIES)
		t->boards[t->count++] = *b;
}

/*
 * Soundness where the truth is known: in a random game that ended in mate,
 * every position before it is winnable for the mater, so no verdict there
 * may be "unwinnable"; any line found is played out.  Final positions of
 * the other games have their lines checked too.
 */
static void test_sound_on_playouts(void **state)
{
	static struct playout_trace t;
	uint64_t rng = 0x0bad5eedULL;
	int mates = 0;

	(void)state;
	for (int g = 0; g < PLAYOUTS; g++) {
		struct board b;
		struct helpmate line;

		board_start(&b);
		t.count = 0;
		unit_playout(&b, &rng, PLAYOUT_PLIES, record, &t);
		const struct board *last = &t.boards[t.count - 1];
		if (movegen_count(last) == 0 && board_in_check(last)) {
			enum color mater = color_other((enum color)last->side);
			mates++;
			for (int i = t.count - 1; i >= 0 && i >= t.count - 1 - PLIES_BEFORE_MATE; i--) {
				enum unwinnable_verdict v = unwinnable_decide(&t.boards[i], mater,
				    SOUNDNESS_NODES, &line);
				assert_int_not_equal(v, UNWINNABLE_UNWINNABLE);
				if (v == UNWINNABLE_WINNABLE)
					check_helpmate("playout", &t.boards[i], mater, &line);
			}
		}
		for (int c = WHITE; c <= BLACK; c++)
			if (unwinnable_decide(last, (enum color)c, SOUNDNESS_NODES, &line) ==
			    UNWINNABLE_WINNABLE)
				check_helpmate("final position", last, (enum color)c, &line);
	}
	assert_true(mates > 0);
}

/* A budget too small to finish says undetermined, never a guess. */
static void test_budget(void **state)
{
	struct board b;
	struct helpmate line;
	char err[128];

	(void)state;
	/* Winnable only through a long helpmate; one node cannot find it. */
	assert_int_equal(fen_parse(&b, "8/8/4k3/8/8/4K3/8/1N4N1 w - - 0 1", err, sizeof err), 0);
	assert_int_equal(unwinnable_decide(&b, WHITE, 1, &line), UNWINNABLE_UNDETERMINED);
	assert_int_equal(unwinnable_decide(&b, WHITE, 0, NULL), UNWINNABLE_UNDETERMINED);
	assert_int_equal(unwinnable_decide(&b, WHITE, UNWINNABLE_FLAG_NODES, NULL),
	    UNWINNABLE_WINNABLE);
	/* The static part needs no budget. */
	assert_int_equal(unwinnable_decide(&b, BLACK, 0, NULL), UNWINNABLE_UNWINNABLE);
	/* Material would let Black mate, but White's only move takes the pawn: the
	 * walk over every reachable position proves what the static check cannot. */
	assert_int_equal(fen_parse(&b, "8/8/8/8/8/5k2/7p/7K w - - 0 1", err, sizeof err), 0);
	assert_int_equal(unwinnable_quick(&b, BLACK), UNWINNABLE_UNDETERMINED);
	assert_int_equal(unwinnable_decide(&b, BLACK, UNWINNABLE_FLAG_NODES, NULL),
	    UNWINNABLE_UNWINNABLE);
	/* A bishop walled in with its king: the frozen-wall check, so dead at once. */
	assert_int_equal(fen_parse(&b, "8/8/3k4/p1p1p1p1/P1P1P1P1/8/3K4/5B2 w - - 0 1", err,
	    sizeof err), 0);
	assert_int_equal(unwinnable_quick(&b, WHITE), UNWINNABLE_UNWINNABLE);
	assert_true(board_is_dead(&b));
}

/*
 * Kings and pawns whose pawns can still move: the regions drawn over every
 * future structure seal Black's king on the back rank, but a wall a king
 * can walk round, or a pawn that may still promote, proves nothing.
 */
static void test_pawn_lock(void **state)
{
	static const char *const round = "4k3/8/8/p1p1p3/P1P1P3/8/8/4K3 w - - 0 1";
	char err[128];
	struct board b;
	struct helpmate line;

	(void)state;
	assert_int_equal(fen_parse(&b, "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1",
	    err, sizeof err), 0);
	assert_int_equal(unwinnable_quick(&b, WHITE), UNWINNABLE_UNWINNABLE);
	/* Black's pawns may still check the white king: no proof for Black. */
	assert_int_equal(unwinnable_quick(&b, BLACK), UNWINNABLE_UNDETERMINED);
	/* A bishop behind Black's wall checks, but every square where it can has a
	 * neighbour no white piece ever attacks and no black pawn ever takes. */
	assert_int_equal(fen_parse(&b, "3k4/p1p1pBp1/P1P1P1P1/8/8/8/P1P1P1P1/3K4 w - - 0 1",
	    err, sizeof err), 0);
	assert_int_equal(unwinnable_quick(&b, WHITE), UNWINNABLE_UNWINNABLE);
	/* Black's one bishop can stand on one flight square at a time, not two. */
	assert_int_equal(fen_parse(&b, "8/3b1k2/p1pBp1p1/P1P1P1P1/8/8/4K3/8 w - - 0 1",
	    err, sizeof err), 0);
	assert_int_equal(unwinnable_quick(&b, WHITE), UNWINNABLE_UNWINNABLE);
	/* Without the a7 pawn, a6 may promote. */
	assert_int_equal(fen_parse(&b, "1k6/2p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1",
	    err, sizeof err), 0);
	assert_int_equal(unwinnable_quick(&b, WHITE), UNWINNABLE_UNDETERMINED);
	/* A wall the white king walks round by the h-file. */
	assert_int_equal(fen_parse(&b, round, err, sizeof err), 0);
	assert_int_equal(unwinnable_quick(&b, WHITE), UNWINNABLE_UNDETERMINED);
	assert_int_equal(unwinnable_decide(&b, WHITE, UNWINNABLE_FLAG_NODES, &line),
	    UNWINNABLE_WINNABLE);
	check_helpmate(round, &b, WHITE, &line);
}

/* A position and the side that must be found to mate within the flag budget. */
struct mate_case {
	const char *fen;
	enum color winner;
};

/* fen's verdict for side within the flag budget is want; a winnable one's line mates. */
static void expect_verdict(const char *fen, enum color side, enum unwinnable_verdict want)
{
	char err[128];
	struct board b;
	struct helpmate line;

	assert_int_equal(fen_parse(&b, fen, err, sizeof err), 0);
	enum unwinnable_verdict v = unwinnable_decide(&b, side, UNWINNABLE_FLAG_NODES, &line);
	if (v != want)
		fail_msg("%s: %s, expected %s", fen, unwinnable_verdict_name(v),
		    unwinnable_verdict_name(want));
	if (v == UNWINNABLE_WINNABLE)
		check_helpmate(fen, &b, side, &line);
}

/* Every case is winnable within the flag budget, its line played to mate. */
static void expect_mates(const struct mate_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_verdict(cases[i].fen, cases[i].winner, UNWINNABLE_WINNABLE);
}

/*
 * Long helpmates of a lone minor piece (or two bishops of one colour)
 * against a king that its own pieces must box in: random playouts' final
 * positions, every one winnable for CHA (lines of 25 to 50 plies), which
 * the flag budget used to leave undetermined: the dive stopped in the
 * first cycle of its guide, and drove the king to any corner, also to one
 * the bishop never checks.
 */
static void test_lone_minor_mates(void **state)
{
	static const struct mate_case cases[] = {
		{ "2b5/8/4Nk2/8/8/6B1/8/K7 w - - 7 201", BLACK },
		{ "4B3/6k1/8/8/8/6K1/n7/8 w - - 89 186", WHITE },
		{ "5K2/5B2/8/n7/8/8/8/k7 w - - 8 201", WHITE },
		{ "8/2K3n1/5nk1/8/B7/8/8/8 w - - 8 201", WHITE },
		{ "8/3b4/1P6/B6k/PK5N/7P/8/8 w - - 0 131", BLACK },
		{ "8/5P1k/8/8/4b2P/1K6/7B/8 w - - 9 112", BLACK },
		{ "1r5r/k7/8/5p2/8/1n6/KB6/8 b - - 7 96", WHITE },
		{ "N4b2/8/8/K6k/8/8/8/8 b - - 23 157", BLACK },
		{ "1Bk5/1n6/8/1Kb5/8/8/8/8 b - - 5 167", WHITE },
		{ "2B3k1/3K4/5q2/8/8/8/3n4/8 b - - 0 138", WHITE },
		{ "5N1b/8/1k1K4/R7/8/8/8/8 w - - 1 201", BLACK },
		{ "8/5K2/P7/3B3k/8/8/8/3R3b w - - 10 173", BLACK },
		{ "k7/8/2b5/B7/4p3/2p5/5K2/8 b - - 25 125", WHITE },
		{ "k4K2/8/8/8/4bN2/8/8/8 w - - 88 171", BLACK },
		{ "5K2/8/8/4Q3/5N2/7b/7k/8 b - - 15 115", BLACK },
		{ "8/3b4/8/3k4/8/3bB3/8/2K5 w - - 0 201", BLACK },
	};

	(void)state;
	expect_mates(cases, sizeof cases / sizeof cases[0]);
}

/*
 * Long helpmates that only the beam, which moves a whole front along its
 * guide, finds within the flag budget: two bishops of one colour against
 * two rooks, a knight and a pawn, which must all be taken or walled in
 * (CHA's line is 35 plies); a lone bishop behind a locked chain, whose
 * widest beam crosses a plateau of fifty plies (10,572 nodes after a
 * narrow beam's dead end of 861).
 */
static void test_beam_long_mate(void **state)
{
	static const struct mate_case cases[] = {
		{ "7k/8/b7/2RbPN2/1R6/8/3K4/8 b - - 1 90", BLACK },
		{ "k1bK4/1p1p4/1PpPp3/2P1Pp2/2p2P2/2p5/2P5/8 w - - 0 1", BLACK },
	};

	(void)state;
	expect_mates(cases, sizeof cases / sizeof cases[0]);
}

/*
 * Mates through a wall of rammed pawns that first need a bishop given to a
 * pawn: taken (and, for white, taken back), a pawn changes file and runs
 * to promote.  CHA's lines are 12 plies for black (1.Bd3 c4 2.Kd2 cxd3)
 * and 87 for white (1.a3 c4 2.Bd3 cxd3 3.cxd3); the walk, which alone was
 * given a closed set such as black's, and the guides, which see nothing
 * worth a bishop in it, left both undetermined within the flag budget.
 */
static void test_sacrifice_mates(void **state)
{
	static const struct mate_case cases[] = {
		{ "1b1k4/p1p1p1p1/P1P1P1P1/p1p1pBp1/8/8/P1P1P1P1/3K4 w - - 0 1", BLACK },
		{ "1b1k4/p1p1p1p1/P1P1P1P1/p1p1pBp1/8/8/P1P1P1P1/3K4 w - - 0 1", WHITE },
	};

	(void)state;
	expect_mates(cases, sizeof cases / sizeof cases[0]);
}

/*
 * Nine bishops of one colour against nine of the same and a pawn, which
 * must promote to a bishop of the other colour to block its own king in
 * (CHA's line is 35 plies): only the wide beam finds it, at 22,834 nodes,
 * past its first share; the dive's guide leads it astray.
 */
static void test_crowd_wide_beam(void **state)
{
	static const struct mate_case cases[] = {
		{ "3b1b1k/2b1bpb1/1b1b1b2/2b5/4KB2/4B1B1/3B1B1B/2B1B1B1 w - - 0 1", WHITE },
	};

	(void)state;
	expect_mates(cases, sizeof cases / sizeof cases[0]);
}

/*
 * Bishops of one colour never attack the other colour, so their mate needs
 * the loser's king in a corner of theirs, its neighbours of the other
 * colour held by its own pieces or covered by the winner's king.  The
 * guides counted those squares as any flight square, and so took the
 * corner of the wrong colour (one such neighbour) for nearer a mate than
 * the right one (two): every stage failed within the flag budget on four
 * bishops against a knight (CHA's line is 33 plies), and, where the
 * winner's pawns are rammed, on bishop crowds behind a locked chain (CHA's
 * lines 63 plies and more; the dive needed 453k nodes for the second).
 */
static void test_one_colour_bishops_mate(void **state)
{
	static const struct mate_case cases[] = {
		{ "8/8/8/8/3k4/1Bn5/BKB5/1B6 w - - 0 1", WHITE },
		{ "2B1B1B1/pBpBpBp1/P1P1P1P1/4k3/8/8/4K3/8 w - - 0 1", WHITE },
		{ "4B3/1k3B1B/7b/4bB2/1p1p1pBp/bPpP1P1P/2Pb2K1/N1b1b3 b - - 0 1", WHITE },
	};

	(void)state;
	expect_mates(cases, sizeof cases / sizeof cases[0]);
}

/*
 * A lone bishop's helpmates behind locked pawn chains, or with a knight or
 * pawns of the winner's own stuck in them: compositions CHA finds winnable
 * (lines of 19 to 240 plies) that the flag budget used to leave
 * undetermined.  The stuck pieces made the walk's guide take any corner,
 * the nearest first, also one the bishop never checks.
 */
static void test_locked_bishop_mates(void **state)
{
	static const struct mate_case cases[] = {
		{ "8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 b - - 0 1", BLACK },
		{ "3k4/1b6/8/1p1p1p1p/1P1P1P1P/4B3/b4B2/3K4 b - - 0 1", BLACK },
		{ "7k/8/8/3B4/8/6p1/6Pb/6bK w - - 0 1", BLACK },
		{ "k7/8/3b4/1Bp1p3/2PbP3/2pBp1p1/2P1P1P1/5K2 b - - 0 1", BLACK },
		{ "1kb5/1p6/1Pp5/n1P5/N1p5/1pP5/1P6/1KB5 w - - 0 1", BLACK },
		{ "8/2k5/2b1b3/1p1p1pBp/1P1P1P1P/8/2bK1B2/8 b - - 0 1", WHITE },
		{ "4k3/1p1p1p1p/1P1P3P/5P2/8/2B1B1B1/3B1B2/2B1K3 w - - 0 1", WHITE },
		{ "8/4k3/3b1b2/p1pBp1p1/P1P1P1P1/8/4K3/8 w - - 0 1", WHITE },
		{ "8/4k1b1/3b1b2/p1pBp1p1/P1P1P1P1/8/4K3/8 w - - 0 1", WHITE },
	};

	(void)state;
	expect_mates(cases, sizeof cases / sizeof cases[0]);
}

/* A position, the side asked about and the verdict within the flag budget. */
struct verdict_case {
	const char *fen;
	enum color side;
	enum unwinnable_verdict want;
};

/* Every case gets its verdict, and every winnable one a line that mates. */
static void expect_verdicts(const struct verdict_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_verdict(cases[i].fen, cases[i].side, cases[i].want);
}

/*
 * Pieces shuffling behind locked pawns: a reachable set of tens of
 * thousands of positions, which the walk exhausts (or meets a mate in) if it
 * keeps the budget that the searches would spend in vain.  Its frontier
 * after the first short run tells such a set from an open position.
 */
static void test_closed_walk(void **state)
{
	static const struct verdict_case cases[] = {
		{ "rnb1b3/pk1p4/p1pPp1p1/P1P1P1P1/RBP5/P7/5B2/7K b - - 0 1", BLACK,
		    UNWINNABLE_UNWINNABLE },
		{ "k1b5/1p1pB3/1PpP4/2PpB3/N1pP4/1pP5/1P6/K7 w - - 0 1", BLACK,
		    UNWINNABLE_UNWINNABLE },
		{ "2B1B1B1/pBpBpBpB/P1P1P1P1/8/8/8/8/k1K5 w - - 0 1", WHITE,
		    UNWINNABLE_UNWINNABLE },
		{ "8/p1p1p3/8/8/8/6p1/P1P1P1Pp/k6K w - - 0 1", WHITE, UNWINNABLE_WINNABLE },
		/* Deep sets, whose positions the walk rebuilds from their parents'
		 * boards: from the root, the replays spent its work first. */
		{ "5b2/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 b - - 0 1", WHITE, UNWINNABLE_UNWINNABLE },
		{ "1k6/p1p5/P1P5/p1p5/PbP5/pBp5/P1P5/1K6 w - - 0 1", BLACK, UNWINNABLE_WINNABLE },
	};

	(void)state;
	expect_verdicts(cases, sizeof cases / sizeof cases[0]);
}

/*
 * Black's king, checked by a pawn, has two steps, each into a walled-in
 * region where the pawns are frozen: the walk proves it at once.  The
 * searches skip the static checks after quiet moves, but never after a
 * king's, which may shut the king out of squares it could reach before.
 */
static void test_king_steps_into_wall(void **state)
{
	static const char *const fen = "8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - - 0 1";
	char err[128];
	struct board b;

	(void)state;
	assert_int_equal(fen_parse(&b, fen, err, sizeof err), 0);
	assert_int_equal(unwinnable_quick(&b, WHITE), UNWINNABLE_UNDETERMINED);
	for (int c = WHITE; c <= BLACK; c++)
		assert_int_equal(unwinnable_decide(&b, (enum color)c, UNWINNABLE_FLAG_NODES / 100,
		    NULL), UNWINNABLE_UNWINNABLE);
}

/*
 * A queen given up at once, the side to move having one or two answers:
 * what is left after them is a wall that stage 1 proves, while the walk
 * would have to exhaust every square the queen might go to.  CHA calls all
 * three unwinnable for white; the flag budget left them undetermined.
 * Where the forced line leaves a pawn free, the verdict stays winnable.
 */
static void test_forced_line(void **state)
{
	static const struct verdict_case cases[] = {
		/* Rxa7+ is the only answer and Bxa7 the only reply. */
		{ "k7/Q6r/2b5/1pBp1p1p/1P1P1P1P/KP6/1P6/8 b - - 0 1", WHITE, UNWINNABLE_UNWINNABLE },
		/* Kxg7 or Bxg7, and white's light bishops are left. */
		{ "7b/3B2Q1/4Bk2/p1p1p1p1/P1P1P1P1/8/8/4K3 b - - 0 1", WHITE, UNWINNABLE_UNWINNABLE },
		/* Qxb7+ is the only answer to the check and Kxb7 the only reply. */
		{ "knQ5/1q1p4/p1pPp3/P1P1Pp2/1K3Pp1/BbB3P1/8/8 w - - 0 1", WHITE,
		    UNWINNABLE_UNWINNABLE },
		/* No a5 pawn: a4 runs on after the forced line. */
		{ "7b/3B2Q1/4Bk2/2p1p1p1/P1P1P1P1/8/8/4K3 b - - 0 1", WHITE, UNWINNABLE_WINNABLE },
		/* No b2 pawn: the white king steps there out of the rook's check. */
		{ "k7/Q6r/2b5/1pBp1p1p/1P1P1P1P/KP6/8/8 b - - 0 1", WHITE, UNWINNABLE_WINNABLE },
	};

	(void)state;
	expect_verdicts(cases, sizeof cases / sizeof cases[0]);
}

/* 6.9: the flag of a side whose opponent cannot mate gives a draw, whatever the material. */
static void test_flag_result(void **state)
{
	static const struct {
		const char *fen;
		enum result white_flags, black_flags;
	} cases[] = {
		/* bare king against queen: the king's side cannot mate */
		{ "8/8/4k3/8/3q4/8/4K3/8 w - - 0 1", RESULT_BLACK_WINS, RESULT_DRAW },
		/* knight against queen: material alone used to say the knight side may mate */
		{ "8/8/4k3/8/3q4/8/4K3/1N6 w - - 0 1", RESULT_BLACK_WINS, RESULT_DRAW },
		/* bishop against rook */
		{ "8/8/4k3/8/8/4K3/8/2B2r2 w - - 0 1", RESULT_BLACK_WINS, RESULT_DRAW },
		/* knight against pawn: both can mate */
		{ "8/8/4k3/4p3/8/4K3/8/1N6 w - - 0 1", RESULT_BLACK_WINS, RESULT_WHITE_WINS },
		/* a bishop walled in with its king: neither can mate */
		{ "8/8/3k4/p1p1p1p1/P1P1P1P1/8/3K4/5B2 w - - 0 1", RESULT_DRAW, RESULT_DRAW },
	};
	char err[128];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct position *pos = position_new(cases[i].fen, err, sizeof err);
		assert_non_null(pos);
		assert_int_equal(position_flag_result(pos, WHITE), cases[i].white_flags);
		assert_int_equal(position_flag_result(pos, BLACK), cases[i].black_flags);
		position_free(pos);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_cha_vectors),
		cmocka_unit_test(test_sound_on_playouts),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_pawn_lock),
		cmocka_unit_test(test_lone_minor_mates),
		cmocka_unit_test(test_beam_long_mate),
		cmocka_unit_test(test_one_colour_bishops_mate),
		cmocka_unit_test(test_locked_bishop_mates),
		cmocka_unit_test(test_closed_walk),
		cmocka_unit_test(test_king_steps_into_wall),
		cmocka_unit_test(test_forced_line),
		cmocka_unit_test(test_flag_result),
		cmocka_unit_test(test_sacrifice_mates),
		cmocka_unit_test(test_crowd_wide_beam),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
