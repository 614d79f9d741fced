/*
 * Move generation: perft against tests/data/perft.epd, and invariants
 * (incremental key, counting twin, distinct and legal moves) along random
 * playouts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fen.h"
#include "move.h"
#include "movegen.h"
#include "unit_util.h"

/* The vectors perft.epd holds: a truncated file must not pass. */
#define PERFT_POSITIONS 70
#define PERFT_ENTRIES 340

/* Under a sanitizer, skip counts above this (every position still gets its shallow depths). */
#define PERFT_SANITIZER_MAX_NODES 5000000ULL

#define PLAYOUT_GAMES 3000
#define PLAYOUT_MAX_PLIES 200

/* Counts ";D" in line without interpreting anything else. */
static int count_depth_marks(const char *line)
{
	int n = 0;

	for (const char *p = line; (p = strstr(p, ";D")) != NULL; p += 2)
		n++;
	return n;
}

/* Every ";Dn count" of every line; under a sanitizer, large counts are skipped. */
static void test_perft_epd(void **state)
{
	(void)state;
	FILE *f = unit_open_data("perft.epd");
	char line[1024], err[128];
	int positions = 0, marks = 0, checked = 0, skipped = 0, lineno = 0;

	while (fgets(line, sizeof line, f)) {
		lineno++;
		unit_chomp(line);
		if (line[0] == '\0' || line[0] == '#')
			continue;
		marks += count_depth_marks(line);

		char *semi = strchr(line, ';');
		assert_non_null(semi);
		*semi = '\0';
		struct board b;
		if (fen_parse(&b, line, err, sizeof err) < 0)
			fail_msg("perft.epd line %d: %s: %s", lineno, line, err);
		positions++;

		const char *p = semi + 1;
		int depth, used, checked_here = 0, last_depth = 0;
		unsigned long long expected;
		while (sscanf(p, "D%d %llu %n", &depth, &expected, &used) == 2) {
			p += used;
			if (*p == ';')
				p++;
			assert_int_equal(depth, last_depth + 1);
			last_depth = depth;
			if (UNIT_UNDER_SANITIZER && expected > PERFT_SANITIZER_MAX_NODES) {
				skipped++;
				continue;
			}
			uint64_t got = movegen_perft(&b, depth);
			if (got != expected)
				fail_msg("perft.epd line %d: %s depth %d: expected %llu, got %llu",
				    lineno, line, depth, expected, (unsigned long long)got);
			checked++;
			checked_here++;
		}
		if (*p != '\0')
			fail_msg("perft.epd line %d: unparsed text '%s'", lineno, p);
		if (checked_here == 0)
			fail_msg("perft.epd line %d: no depth checked", lineno);
	}
	fclose(f);

	assert_int_equal(positions, PERFT_POSITIONS);
	assert_int_equal(marks, PERFT_ENTRIES);
	assert_int_equal(checked + skipped, marks);
	if (!UNIT_UNDER_SANITIZER)
		assert_int_equal(checked, PERFT_ENTRIES);
	print_message("perft: %d positions, %d counts checked, %d skipped under sanitizer\n",
	    positions, checked, skipped);
}

/* Divide: the children's perft(d - 1) sum to perft(d), and each child is reached by a legal move. */
static void test_perft_divide(void **state)
{
	(void)state;
	static const struct {
		const char *fen;
		int depth;
		uint64_t nodes;
	} cases[] = {
		{ FEN_START, 4, 197281 },
		{ "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862 },
		{ "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238 },
		{ "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467 },
		{ "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379 },
		{ "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 3, 9483 },
	};
	char err[128];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct board b;
		move list[MAX_MOVES];
		uint64_t sum = 0;

		assert_int_equal(fen_parse(&b, cases[i].fen, err, sizeof err), 0);
		int n = movegen_legal(&b, list);
		assert_int_equal((uint64_t)n, movegen_perft(&b, 1));
		for (int k = 0; k < n; k++) {
			struct board child = b;
			board_make(&child, list[k]);
			sum += movegen_perft(&child, cases[i].depth - 1);
		}
		assert_int_equal(sum, cases[i].nodes);
		assert_int_equal(movegen_perft(&b, cases[i].depth), cases[i].nodes);
	}
}

static void test_perft_depth_zero(void **state)
{
	(void)state;
	struct board b;

	board_start(&b);
	assert_int_equal(movegen_perft(&b, 0), 1);
	assert_int_equal(movegen_perft(&b, 1), 20);
}

/* board_start and fen_parse(FEN_START) build the same board. */
static void test_start_matches_fen(void **state)
{
	(void)state;
	struct board a, b;
	char err[128];

	board_start(&a);
	assert_int_equal(fen_parse(&b, FEN_START, err, sizeof err), 0);
	assert_memory_equal(a.squares, b.squares, sizeof a.squares);
	assert_memory_equal(a.by_type, b.by_type, sizeof a.by_type);
	assert_memory_equal(a.by_color, b.by_color, sizeof a.by_color);
	assert_int_equal(a.key, b.key);
	assert_int_equal(a.key, board_compute_key(&a));
	assert_int_equal(a.castling, CASTLE_ALL);
	assert_int_equal(a.ep_square, SQ_NONE);
}

struct playout_stats {
	long positions;
	long moves;
	long captures_en_passant;
	long castles;
	long promotions;
	long checkmates;
};

/* Mailbox and bitboards describe the same placement, one king each. */
static void check_board_consistent(const struct board *b)
{
	bitboard all = 0;

	for (int t = PAWN; t <= KING; t++) {
		assert_int_equal(all & b->by_type[t], 0);
		all |= b->by_type[t];
	}
	assert_int_equal(b->by_color[WHITE] & b->by_color[BLACK], 0);
	assert_int_equal(all, b->by_color[WHITE] | b->by_color[BLACK]);
	for (int sq = 0; sq < 64; sq++) {
		int p = b->squares[sq];
		if (piece_type_of(p) == NO_TYPE) {
			assert_int_equal(all & bb_square(sq), 0);
			continue;
		}
		assert_true(b->by_type[piece_type_of(p)] & bb_square(sq));
		assert_true(b->by_color[piece_color(p)] & bb_square(sq));
	}
	assert_int_equal(bb_count(board_pieces(b, WHITE, KING)), 1);
	assert_int_equal(bb_count(board_pieces(b, BLACK, KING)), 1);
}

static void visit_movegen(const struct board *b, const move *legal, int n, void *ctx)
{
	struct playout_stats *st = ctx;
	enum color us = (enum color)b->side;

	st->positions++;
	st->moves += n;
	check_board_consistent(b);
	assert_int_equal(b->key, board_compute_key(b));
	assert_int_equal(movegen_count(b), n);
	assert_true(n <= MAX_MOVES);
	if (n == 0 && board_in_check(b))
		st->checkmates++;

	for (int i = 0; i < n; i++) {
		move m = legal[i];
		for (int j = i + 1; j < n; j++)
			if (legal[j] == m) {
				char uci[MOVE_TEXT_MAX];
				move_format_uci(m, uci);
				fail_msg("move %s listed twice", uci);
			}
		/* Every listed move moves our own piece and leaves our king safe. */
		assert_int_equal(piece_color(b->squares[move_from(m)]), us);
		assert_int_not_equal(piece_type_of(b->squares[move_from(m)]), NO_TYPE);
		struct board after = *b;
		board_make(&after, m);
		int ksq = board_king(&after, us);
		assert_int_equal(board_attackers(&after, ksq, board_occupied(&after)) &
		    after.by_color[color_other(us)], 0);
		assert_int_equal(after.side, color_other(us));
		switch (move_kind_of(m)) {
		case MOVE_EN_PASSANT:
			st->captures_en_passant++;
			break;
		case MOVE_CASTLING:
			st->castles++;
			break;
		case MOVE_PROMOTION:
			st->promotions++;
			break;
		default:
			break;
		}
	}
}

/* Random games: incremental key, counting twin and move list agree at every ply. */
static void test_random_playouts(void **state)
{
	(void)state;
	static const char *const starts[] = {
		FEN_START,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
	};
	uint64_t rng = 0x5eed0001;
	struct playout_stats st = { 0 };
	char err[128];

	for (int g = 0; g < PLAYOUT_GAMES; g++) {
		struct board b;
		assert_int_equal(fen_parse(&b, starts[g % 4], err, sizeof err), 0);
		unit_playout(&b, &rng, PLAYOUT_MAX_PLIES, visit_movegen, &st);
	}
	print_message("playouts: %ld positions, %ld moves, %ld ep, %ld castles, %ld promotions,"
	    " %ld mates\n", st.positions, st.moves, st.captures_en_passant, st.castles,
	    st.promotions, st.checkmates);
	/* The games must have exercised the special moves for the checks to mean much. */
	assert_true(st.captures_en_passant > 0);
	assert_true(st.castles > 0);
	assert_true(st.promotions > 0);
	assert_true(st.checkmates > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perft_epd),
		cmocka_unit_test(test_perft_divide),
		cmocka_unit_test(test_perft_depth_zero),
		cmocka_unit_test(test_start_matches_fen),
		cmocka_unit_test(test_random_playouts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
