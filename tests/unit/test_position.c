/*
 * Game positions: endings, draw claims and flag falls against
 * tests/data/draws.tsv with explicit per-row expectations, plus repetition,
 * 75-move, claim-with-move and undo cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fen.h"
#include "position.h"
#include "unit_util.h"

#define DRAWS_TSV_ROWS 23

/* Per-side expectation that does not apply (the game is over before anyone can flag). */
#define SKIP (-1)

/*
 * What this server must say for each row of draws.tsv, keyed by its case
 * name.  claims is one character per ply played: '.' none, 'T' threefold,
 * 'F' fifty-move, 'B' both.
 */
struct draw_case {
	const char *name;
	const char *error;		/* position_new must fail with this message */
	enum termination termination;	/* after all the row's moves */
	enum result result;
	unsigned claimable;
	const char *claims;
	int white_cannot_mate, black_cannot_mate;
	int white_flags, black_flags;	/* enum result, or SKIP */
};

static const struct draw_case draw_cases[] = {
	{ "material: K v K", NULL, TERM_DEAD_POSITION, RESULT_DRAW, 0, "", 1, 1,
	  RESULT_DRAW, RESULT_DRAW },
	{ "material: KB v K", NULL, TERM_DEAD_POSITION, RESULT_DRAW, 0, "", 1, 1,
	  RESULT_DRAW, RESULT_DRAW },
	{ "material: KN v K", NULL, TERM_DEAD_POSITION, RESULT_DRAW, 0, "", 1, 1,
	  RESULT_DRAW, RESULT_DRAW },
	{ "material: KB v KB same-colour bishops (c1,f8 both dark)", NULL, TERM_DEAD_POSITION,
	  RESULT_DRAW, 0, "", 1, 1, RESULT_DRAW, RESULT_DRAW },
	{ "material: KBB v K, both bishops dark", NULL, TERM_DEAD_POSITION, RESULT_DRAW, 0, "",
	  1, 1, RESULT_DRAW, RESULT_DRAW },
	{ "material: KB v KB opposite colours", NULL, TERM_NONE, RESULT_NONE, 0, "", 0, 0,
	  RESULT_BLACK_WINS, RESULT_WHITE_WINS },
	{ "material: KB v KB opposite colours, mate in 1 (chess.js comment)", NULL, TERM_NONE,
	  RESULT_NONE, 0, "", 0, 0, RESULT_BLACK_WINS, RESULT_WHITE_WINS },
	{ "material: KN v KN", NULL, TERM_NONE, RESULT_NONE, 0, "", 0, 0,
	  RESULT_BLACK_WINS, RESULT_WHITE_WINS },
	{ "material: KNN v K", NULL, TERM_NONE, RESULT_NONE, 0, "", 0, 1,
	  RESULT_DRAW, RESULT_WHITE_WINS },
	{ "material: KB v KN", NULL, TERM_NONE, RESULT_NONE, 0, "", 0, 0,
	  RESULT_BLACK_WINS, RESULT_WHITE_WINS },
	{ "material: KP v K", NULL, TERM_NONE, RESULT_NONE, 0, "", 0, 1,
	  RESULT_DRAW, RESULT_WHITE_WINS },
	{ "material: blocked pawn wall, kings only", NULL, TERM_DEAD_POSITION, RESULT_DRAW, 0, "",
	  0, 0, SKIP, SKIP },
	{ "material: lila#4514 position", NULL, TERM_DEAD_POSITION, RESULT_DRAW, 0, "", 0, 0,
	  SKIP, SKIP },
	{ "6.9 flag fall: KN v KP", NULL, TERM_NONE, RESULT_NONE, 0, "", 0, 0,
	  RESULT_BLACK_WINS, RESULT_WHITE_WINS },
	{ "50-move: mate on the 100th half-move", NULL, TERM_CHECKMATE, RESULT_WHITE_WINS, 0, ".",
	  0, 0, SKIP, SKIP },
	{ "75-move: mate on the 150th half-move", NULL, TERM_CHECKMATE, RESULT_WHITE_WINS, 0, ".",
	  0, 0, SKIP, SKIP },
	{ "50-move: quiet 100th half-move", NULL, TERM_NONE, RESULT_NONE, CLAIM_FIFTY_MOVES, "F",
	  0, 0, RESULT_BLACK_WINS, RESULT_WHITE_WINS },
	{ "FEN with halfmove clock 149", NULL, TERM_NONE, RESULT_NONE, CLAIM_FIFTY_MOVES, "", 0, 1,
	  RESULT_DRAW, RESULT_WHITE_WINS },
	{ "threefold/fivefold from start", NULL, TERM_NONE, RESULT_NONE, CLAIM_THREEFOLD,
	  ".......T", 0, 0, RESULT_BLACK_WINS, RESULT_WHITE_WINS },
	{ "9.2.3.1: ep square after double push, no enemy pawn", NULL, TERM_NONE, RESULT_NONE,
	  CLAIM_THREEFOLD, "........T", 0, 1, RESULT_DRAW, RESULT_WHITE_WINS },
	{ "9.2.3.1: ep capture pseudo-legal but illegal (d4 pawn pinned by Rd1)", NULL, TERM_NONE,
	  RESULT_NONE, CLAIM_THREEFOLD, "........TTTTT", 0, 0, RESULT_BLACK_WINS,
	  RESULT_WHITE_WINS },
	{ "9.2.3.2: castling right lost by king move", NULL, TERM_NONE, RESULT_NONE,
	  CLAIM_THREEFOLD, "........TTTT", 1, 0, RESULT_BLACK_WINS, RESULT_DRAW },
	/* The issue asks the strict parser to refuse a right without its rook. */
	{ "FEN castling right without rook", "castling right K without a rook on h1", TERM_NONE,
	  RESULT_NONE, 0, "", SKIP, SKIP, SKIP, SKIP },
};
#define NDRAW_CASES (sizeof draw_cases / sizeof draw_cases[0])

static unsigned claim_of(char c)
{
	switch (c) {
	case 'T': return CLAIM_THREEFOLD;
	case 'F': return CLAIM_FIFTY_MOVES;
	case 'B': return CLAIM_THREEFOLD | CLAIM_FIFTY_MOVES;
	default: return 0;
	}
}

static struct position *new_or_fail(const char *fen)
{
	char err[128];
	struct position *pos = position_new(fen, err, sizeof err);

	if (!pos)
		fail_msg("position_new(\"%s\"): %s", fen ? fen : "(start)", err);
	return pos;
}

/* Plays text, failing the test unless it is accepted. */
static void play_or_fail(struct position *pos, const char *text)
{
	move m;
	char san[MOVE_TEXT_MAX];

	if (position_play_text(pos, text, SAN_ENGLISH, NO_TYPE, &m, san) != SAN_OK)
		fail_msg("move %s not accepted at ply %d", text, position_ply_count(pos));
}

/* Plays a space-separated list of moves. */
static void play_all(struct position *pos, const char *moves)
{
	char buf[512], *save = NULL;

	snprintf(buf, sizeof buf, "%s", moves);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		play_or_fail(pos, t);
}

static void check_draw_row(const struct draw_case *c, const char *fen, const char *moves)
{
	char err[128] = "";
	struct position *pos = position_new(fen, err, sizeof err);

	if (c->error) {
		if (pos)
			fail_msg("%s: FEN accepted, expected \"%s\"", c->name, c->error);
		assert_string_equal(err, c->error);
		return;
	}
	if (!pos)
		fail_msg("%s: FEN rejected: %s", c->name, err);

	char buf[512], *save = NULL;
	int ply = 0;
	snprintf(buf, sizeof buf, "%s", moves);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (position_termination(pos) != TERM_NONE)
			fail_msg("%s: game over before ply %d", c->name, ply + 1);
		play_or_fail(pos, t);
		if (ply >= (int)strlen(c->claims))
			fail_msg("%s: more plies than the table's claims string", c->name);
		unsigned want = claim_of(c->claims[ply]);
		if (position_claimable(pos) != want)
			fail_msg("%s: ply %d (%s): claimable %u, expected %u", c->name, ply + 1, t,
			    position_claimable(pos), want);
		ply++;
	}
	assert_int_equal(ply, (int)strlen(c->claims));

	if (position_termination(pos) != c->termination)
		fail_msg("%s: termination %s, expected %s", c->name,
		    termination_name(position_termination(pos)), termination_name(c->termination));
	if (position_result(pos) != c->result)
		fail_msg("%s: result %s, expected %s", c->name, result_text(position_result(pos)),
		    result_text(c->result));
	assert_int_equal(position_claimable(pos), c->claimable);

	const struct board *b = position_board(pos);
	if (c->white_cannot_mate != SKIP && board_cannot_mate(b, WHITE) != c->white_cannot_mate)
		fail_msg("%s: board_cannot_mate(white) = %d", c->name, board_cannot_mate(b, WHITE));
	if (c->black_cannot_mate != SKIP && board_cannot_mate(b, BLACK) != c->black_cannot_mate)
		fail_msg("%s: board_cannot_mate(black) = %d", c->name, board_cannot_mate(b, BLACK));
	if (c->white_flags != SKIP && position_flag_result(pos, WHITE) != (enum result)c->white_flags)
		fail_msg("%s: white flags: %s, expected %s", c->name,
		    result_text(position_flag_result(pos, WHITE)), result_text(c->white_flags));
	if (c->black_flags != SKIP && position_flag_result(pos, BLACK) != (enum result)c->black_flags)
		fail_msg("%s: black flags: %s, expected %s", c->name,
		    result_text(position_flag_result(pos, BLACK)), result_text(c->black_flags));
	/* Dead means neither side can mate by material or by a locked structure. */
	assert_int_equal(board_is_dead(b), c->termination == TERM_DEAD_POSITION);
	position_free(pos);
}

/* Every row of draws.tsv, each against its entry in draw_cases. */
static void test_draws_tsv(void **state)
{
	(void)state;
	FILE *f = unit_open_data("draws.tsv");
	char line[2048];
	int rows = 0, data_lines = 0;
	bool seen[NDRAW_CASES] = { false };

	while (fgets(line, sizeof line, f)) {
		char *fields[8] = { 0 };
		unit_chomp(line);
		if (line[0] == '#' || line[0] == '\0')
			continue;
		data_lines++;
		int nf = unit_split_tabs(line, fields, 8);
		assert_true(nf >= 3);
		size_t k;
		for (k = 0; k < NDRAW_CASES && strcmp(draw_cases[k].name, fields[0]); k++)
			;
		if (k == NDRAW_CASES)
			fail_msg("draws.tsv row \"%s\" has no expectation in draw_cases", fields[0]);
		if (seen[k])
			fail_msg("draws.tsv row \"%s\" appears twice", fields[0]);
		seen[k] = true;
		check_draw_row(&draw_cases[k], fields[1], fields[2]);
		rows++;
	}
	fclose(f);
	for (size_t k = 0; k < NDRAW_CASES; k++)
		if (!seen[k])
			fail_msg("draw_cases entry \"%s\" not in draws.tsv", draw_cases[k].name);
	assert_int_equal(rows, data_lines);
	assert_int_equal(rows, DRAWS_TSV_ROWS);
}

#define KNIGHT_DANCE "Nf3 Nf6 Ng1 Ng8"

/* The start position's 3rd occurrence is claimable; its 5th ends the game. */
static void test_fivefold(void **state)
{
	(void)state;
	static const char *const moves[] = { "Nf3", "Nf6", "Ng1", "Ng8" };
	struct position *pos = new_or_fail(NULL);

	assert_int_equal(position_repetitions(pos), 1);
	for (int ply = 1; ply <= 16; ply++) {
		play_or_fail(pos, moves[(ply - 1) % 4]);
		if (ply < 16)
			assert_int_equal(position_termination(pos), TERM_NONE);
		if (ply % 4 == 0)
			assert_int_equal(position_repetitions(pos), 1 + ply / 4);
	}
	assert_int_equal(position_termination(pos), TERM_FIVEFOLD);
	assert_int_equal(position_result(pos), RESULT_DRAW);
	assert_int_equal(position_claimable(pos), 0);
	assert_string_equal(termination_name(position_termination(pos)), "fivefold-repetition");

	/* Back to ply 8: only claimable; ply 12 (4th occurrence) too. */
	assert_int_equal(position_undo(pos, 8), 0);
	assert_int_equal(position_termination(pos), TERM_NONE);
	assert_int_equal(position_repetitions(pos), 3);
	assert_int_equal(position_claimable(pos), CLAIM_THREEFOLD);
	play_all(pos, KNIGHT_DANCE);
	assert_int_equal(position_repetitions(pos), 4);
	assert_int_equal(position_termination(pos), TERM_NONE);
	assert_int_equal(position_claimable(pos), CLAIM_THREEFOLD);
	position_free(pos);
}

/*
 * Repetitions are looked for only since the last pawn move or capture; the
 * position right after that move must still count.
 */
static void test_repetition_window(void **state)
{
	(void)state;
	struct position *pos = new_or_fail(NULL);

	play_all(pos, KNIGHT_DANCE " e4 e5");
	assert_int_equal(position_repetitions(pos), 1);
	play_all(pos, KNIGHT_DANCE);
	assert_int_equal(position_repetitions(pos), 2);
	play_all(pos, KNIGHT_DANCE);
	assert_int_equal(position_repetitions(pos), 3);
	assert_int_equal(position_claimable(pos), CLAIM_THREEFOLD);
	position_free(pos);

	/* The same from a FEN whose clock starts at 0 and a rook that walks back. */
	pos = new_or_fail("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
	play_all(pos, "Rh2 Kd8 Rh1 Ke8");
	assert_int_equal(position_repetitions(pos), 2);
	play_all(pos, "Rh2 Kd8 Rh1 Ke8");
	assert_int_equal(position_repetitions(pos), 3);
	position_free(pos);
}

/* The 75-move rule: at 150 plies without capture or pawn move the game ends, unless mate. */
static void test_seventy_five_moves(void **state)
{
	(void)state;
	static const struct {
		const char *move;
		enum termination termination;
		unsigned claimable;
	} cases[] = {
		{ "Kd3", TERM_SEVENTY_FIVE_MOVES, 0 },
		{ "Kf2", TERM_SEVENTY_FIVE_MOVES, 0 },
		/* The pawn is blocked by its king here: the pawn moves start from Kd3. */
		{ "e3", TERM_NONE, 0 },
		{ "e4", TERM_NONE, 0 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *fen = cases[i].move[0] == 'K' ? "8/8/4k3/8/8/4K3/4P3/8 w - - 149 200" :
		    "8/8/4k3/8/8/3K4/4P3/8 w - - 149 200";
		struct position *pos = new_or_fail(fen);
		assert_int_equal(position_termination(pos), TERM_NONE);
		assert_int_equal(position_claimable(pos), CLAIM_FIFTY_MOVES);
		play_or_fail(pos, cases[i].move);
		if (position_termination(pos) != cases[i].termination)
			fail_msg("%s: termination %s, expected %s", cases[i].move,
			    termination_name(position_termination(pos)),
			    termination_name(cases[i].termination));
		assert_int_equal(position_result(pos),
		    cases[i].termination == TERM_NONE ? RESULT_NONE : RESULT_DRAW);
		assert_int_equal(position_claimable(pos), cases[i].claimable);
		position_free(pos);
	}

	/* A FEN already at 150 is over on arrival. */
	struct position *pos = new_or_fail("8/8/4k3/8/8/4K3/4P3/8 w - - 150 200");
	assert_int_equal(position_termination(pos), TERM_SEVENTY_FIVE_MOVES);
	assert_string_equal(termination_name(TERM_SEVENTY_FIVE_MOVES), "seventy-five-move-rule");
	position_free(pos);

	/* A capture on the 150th ply resets the clock. */
	pos = new_or_fail("8/8/4k3/8/8/4K3/3p4/7R w - - 149 200");
	play_or_fail(pos, "Kxd2");
	assert_int_equal(position_termination(pos), TERM_NONE);
	assert_int_equal(position_board(pos)->halfmove_clock, 0);
	position_free(pos);

	/* Mate on the 150th ply is mate, not a draw (9.6.2). */
	pos = new_or_fail("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 149 120");
	play_or_fail(pos, "Rd8");
	assert_int_equal(position_board(pos)->halfmove_clock, 150);
	assert_int_equal(position_termination(pos), TERM_CHECKMATE);
	assert_int_equal(position_result(pos), RESULT_WHITE_WINS);
	position_free(pos);
}

/* Claims with an announced move (9.2.1, 9.3.1) leave the game untouched. */
static void test_claimable_after(void **state)
{
	(void)state;
	struct position *pos = new_or_fail(NULL);
	move m;

	play_all(pos, KNIGHT_DANCE " Nf3 Nf6 Ng1");
	uint64_t key = position_board(pos)->key;
	int plies = position_ply_count(pos), reps = position_repetitions(pos);
	assert_int_equal(position_claimable(pos), 0);

	assert_int_equal(san_parse(position_board(pos), "Ng8", SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
	assert_int_equal(position_claimable_after(pos, m), CLAIM_THREEFOLD);
	assert_int_equal(san_parse(position_board(pos), "e5", SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
	assert_int_equal(position_claimable_after(pos, m), 0);
	assert_int_equal(san_parse(position_board(pos), "Nh5", SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
	assert_int_equal(position_claimable_after(pos, m), 0);
	/* Nothing was played. */
	assert_int_equal(position_ply_count(pos), plies);
	assert_int_equal(position_board(pos)->key, key);
	assert_int_equal(position_repetitions(pos), reps);
	play_or_fail(pos, "Ng8");
	assert_int_equal(position_claimable(pos), CLAIM_THREEFOLD);
	position_free(pos);

	/* Fifty moves: the 100th ply by the announced move. */
	pos = new_or_fail("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 99 80");
	assert_int_equal(position_claimable(pos), 0);
	assert_int_equal(san_parse(position_board(pos), "Rc1", SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
	assert_int_equal(position_claimable_after(pos, m), CLAIM_FIFTY_MOVES);
	/* A move that mates wins instead. */
	assert_int_equal(san_parse(position_board(pos), "Rd8", SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
	assert_int_equal(position_claimable_after(pos, m), 0);
	assert_int_equal(position_ply_count(pos), 0);
	position_free(pos);

	/* One ply short. */
	pos = new_or_fail("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 98 80");
	assert_int_equal(san_parse(position_board(pos), "Rc1", SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
	assert_int_equal(position_claimable_after(pos, m), 0);
	position_free(pos);

	/* Both at once. */
	pos = new_or_fail("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 99 80");
	play_all(pos, "Rc1 Kf8 Rd1 Kg8 Rc1 Kf8 Rd1");
	assert_int_equal(position_claimable(pos), CLAIM_FIFTY_MOVES);
	assert_int_equal(san_parse(position_board(pos), "Kg8", SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
	assert_int_equal(position_claimable_after(pos, m), CLAIM_THREEFOLD | CLAIM_FIFTY_MOVES);
	position_free(pos);

	/* Nothing to claim once the game is over. */
	pos = new_or_fail("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
	assert_int_equal(position_termination(pos), TERM_CHECKMATE);
	assert_int_equal(position_claimable(pos), 0);
	position_free(pos);
}

/* Undo replays from the start: board, key, clocks and repetition counts come back. */
static void test_undo(void **state)
{
	(void)state;
	static const char *const moves[] = { "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8" };
	uint64_t keys[9];
	int reps[9];
	char fen_at[9][FEN_MAX], fen[FEN_MAX];
	struct position *pos = new_or_fail(NULL);

	keys[0] = position_board(pos)->key;
	reps[0] = position_repetitions(pos);
	fen_format(position_board(pos), fen_at[0]);
	for (int i = 0; i < 8; i++) {
		play_or_fail(pos, moves[i]);
		keys[i + 1] = position_board(pos)->key;
		reps[i + 1] = position_repetitions(pos);
		fen_format(position_board(pos), fen_at[i + 1]);
	}
	assert_int_equal(reps[8], 3);

	assert_int_equal(position_undo(pos, -1), -1);
	assert_int_equal(position_undo(pos, 9), -1);
	assert_int_equal(position_ply_count(pos), 8);
	assert_int_equal(position_undo(pos, 0), 0);
	assert_int_equal(position_ply_count(pos), 8);

	for (int n = 8; n >= 0; n--) {
		struct position *copy = position_copy(pos);
		assert_non_null(copy);
		assert_int_equal(position_undo(copy, 8 - n), 0);
		assert_int_equal(position_ply_count(copy), n);
		assert_int_equal(position_board(copy)->key, keys[n]);
		assert_int_equal(position_board(copy)->key, board_compute_key(position_board(copy)));
		assert_int_equal(position_repetitions(copy), reps[n]);
		fen_format(position_board(copy), fen);
		assert_string_equal(fen, fen_at[n]);
		/* Replaying from there counts repetitions as before. */
		for (int i = n; i < 8; i++)
			play_or_fail(copy, moves[i]);
		assert_int_equal(position_repetitions(copy), 3);
		assert_int_equal(position_claimable(copy), CLAIM_THREEFOLD);
		position_free(copy);
	}
	/* The copies did not touch the original. */
	assert_int_equal(position_ply_count(pos), 8);
	assert_int_equal(position_board(pos)->key, keys[8]);
	position_free(pos);

	/* Undoing a mate reopens the game; from a set-up start. */
	pos = new_or_fail("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
	play_or_fail(pos, "Qxf7#");
	assert_int_equal(position_termination(pos), TERM_CHECKMATE);
	assert_int_equal(position_result(pos), RESULT_WHITE_WINS);
	assert_int_equal(position_undo(pos, 1), 0);
	assert_int_equal(position_termination(pos), TERM_NONE);
	assert_int_equal(position_result(pos), RESULT_NONE);
	fen_format(position_board(pos), fen);
	assert_string_equal(fen, position_start_fen(pos));
	position_free(pos);
}

/* History accessors and the SAN position_play hands back. */
static void test_history(void **state)
{
	(void)state;
	struct position *pos = new_or_fail(NULL);
	move m;
	char san[MOVE_TEXT_MAX], uci[MOVE_TEXT_MAX];

	assert_string_equal(position_start_fen(pos), FEN_START);
	assert_int_equal(position_play_text(pos, "e2e4", SAN_ENGLISH, NO_TYPE, &m, san), SAN_OK);
	assert_string_equal(san, "e4");
	assert_int_equal(position_play_text(pos, "Cc6", SAN_SPANISH, NO_TYPE, &m, san), SAN_OK);
	assert_string_equal(san, "Cc6");
	assert_int_equal(position_play_text(pos, "Qh5", SAN_ENGLISH, NO_TYPE, &m, san), SAN_OK);
	assert_string_equal(san, "Qh5");
	assert_int_equal(position_play_text(pos, "Nd4", SAN_ENGLISH, NO_TYPE, &m, san), SAN_OK);
	assert_int_equal(position_play_text(pos, "Qxf7", SAN_ENGLISH, NO_TYPE, &m, san), SAN_OK);
	assert_string_equal(san, "Qxf7+");
	/* A rejected move changes nothing. */
	assert_int_equal(position_play_text(pos, "e5", SAN_ENGLISH, NO_TYPE, &m, san), SAN_ILLEGAL);
	assert_int_equal(position_ply_count(pos), 5);

	static const char *const uci_moves[] = { "e2e4", "b8c6", "d1h5", "c6d4", "h5f7" };
	for (int i = 0; i < 5; i++) {
		move_format_uci(position_move_at(pos, i), uci);
		assert_string_equal(uci, uci_moves[i]);
	}
	assert_int_equal(position_move_at(pos, 5), MOVE_NONE);
	assert_int_equal(position_move_at(pos, -1), MOVE_NONE);

	position_play(pos, move_make(SQ_E8, SQ_F7), SAN_ENGLISH, san);
	assert_string_equal(san, "Kxf7");
	assert_int_equal(position_ply_count(pos), 6);
	position_free(pos);
}

static void test_invalid_fen(void **state)
{
	(void)state;
	char err[128] = "";

	assert_null(position_new("8/8/8/8/8/8/8/8 w - - 0 1", err, sizeof err));
	assert_string_equal(err, "no white king");
	assert_null(position_new("4k3/8/8/8/8/8/8/4K3 w K - 0 1", err, sizeof err));
	assert_string_equal(err, "castling right K without a rook on h1");
}

/* Stalemate on arrival and by a move. */
static void test_stalemate(void **state)
{
	(void)state;
	struct position *pos = new_or_fail("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");

	assert_int_equal(position_termination(pos), TERM_STALEMATE);
	assert_int_equal(position_result(pos), RESULT_DRAW);
	assert_int_equal(position_claimable(pos), 0);
	assert_string_equal(termination_name(TERM_STALEMATE), "stalemate");
	position_free(pos);

	pos = new_or_fail("7k/8/6K1/8/8/8/8/5Q2 w - - 99 70");
	play_or_fail(pos, "Qf7");
	assert_int_equal(position_termination(pos), TERM_STALEMATE);
	assert_int_equal(position_result(pos), RESULT_DRAW);
	/* The 100th ply was played, but the game is over: no claim. */
	assert_int_equal(position_claimable(pos), 0);
	position_free(pos);

	/* In check with no move is mate, for either colour. */
	pos = new_or_fail("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1");
	assert_int_equal(position_termination(pos), TERM_CHECKMATE);
	assert_int_equal(position_result(pos), RESULT_WHITE_WINS);
	position_free(pos);
	pos = new_or_fail("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
	assert_int_equal(position_result(pos), RESULT_BLACK_WINS);
	position_free(pos);
}

/* Dead positions reached by a capture; mating material stays alive. */
static void test_dead_by_capture(void **state)
{
	(void)state;
	struct position *pos = new_or_fail("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");

	assert_int_equal(position_termination(pos), TERM_NONE);
	play_or_fail(pos, "Kxd2");
	assert_int_equal(position_termination(pos), TERM_DEAD_POSITION);
	assert_int_equal(position_result(pos), RESULT_DRAW);
	assert_string_equal(termination_name(TERM_DEAD_POSITION), "dead-position");
	position_free(pos);

	/* KR v K is not dead. */
	pos = new_or_fail("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
	assert_int_equal(position_termination(pos), TERM_NONE);
	position_free(pos);
}

/* 6.9: the flag-fall result follows what the opponent has left. */
static void test_flag_results(void **state)
{
	(void)state;
	static const struct {
		const char *fen;
		enum result white_flags, black_flags;
	} cases[] = {
		{ "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", RESULT_DRAW, RESULT_WHITE_WINS },
		{ "3rk3/8/8/8/8/8/8/4K3 w - - 0 1", RESULT_BLACK_WINS, RESULT_DRAW },
		{ "3qk3/8/8/8/8/8/8/3NK3 w - - 0 1", RESULT_BLACK_WINS, RESULT_DRAW },
		{ "3nk3/8/8/8/8/8/8/3RK3 w - - 0 1", RESULT_BLACK_WINS, RESULT_WHITE_WINS },
		{ "4k3/4p3/8/8/8/8/8/2B1K3 w - - 0 1", RESULT_BLACK_WINS, RESULT_WHITE_WINS },
		{ "4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", RESULT_DRAW, RESULT_WHITE_WINS },
		{ "4k3/8/8/8/8/8/8/1BB1K3 w - - 0 1", RESULT_DRAW, RESULT_WHITE_WINS },
		{ "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", RESULT_DRAW, RESULT_WHITE_WINS },
		{ "4k3/8/8/8/8/8/8/2B1K1B1 w - - 0 1", RESULT_DRAW, RESULT_DRAW },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct position *pos = new_or_fail(cases[i].fen);
		if (position_flag_result(pos, WHITE) != cases[i].white_flags)
			fail_msg("%s: white flags: %s, expected %s", cases[i].fen,
			    result_text(position_flag_result(pos, WHITE)),
			    result_text(cases[i].white_flags));
		if (position_flag_result(pos, BLACK) != cases[i].black_flags)
			fail_msg("%s: black flags: %s, expected %s", cases[i].fen,
			    result_text(position_flag_result(pos, BLACK)),
			    result_text(cases[i].black_flags));
		position_free(pos);
	}
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(termination_name(TERM_NONE), "none");
	assert_string_equal(termination_name(TERM_CHECKMATE), "checkmate");
	assert_string_equal(result_text(RESULT_NONE), "*");
	assert_string_equal(result_text(RESULT_WHITE_WINS), "1-0");
	assert_string_equal(result_text(RESULT_BLACK_WINS), "0-1");
	assert_string_equal(result_text(RESULT_DRAW), "1/2-1/2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_draws_tsv),
		cmocka_unit_test(test_fivefold),
		cmocka_unit_test(test_repetition_window),
		cmocka_unit_test(test_seventy_five_moves),
		cmocka_unit_test(test_claimable_after),
		cmocka_unit_test(test_undo),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_invalid_fen),
		cmocka_unit_test(test_stalemate),
		cmocka_unit_test(test_dead_by_capture),
		cmocka_unit_test(test_flag_results),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
