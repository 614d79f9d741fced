/* PGN export byte for byte, import of real-world syntax, errors, and round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fen.h"
#include "movegen.h"
#include "pgn.h"

/* Plays SAN moves, each with the clock at the same index (PGN_NO_CLOCK for none). */
static void play_moves(struct pgn_game *g, const char *const *sans, const int64_t *clocks, int n)
{
	for (int i = 0; i < n; i++) {
		move m;
		const struct board *b = position_board(pgn_game_position(g));
		assert_int_equal(san_parse(b, sans[i], SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
		pgn_game_play(g, m, clocks ? clocks[i] : PGN_NO_CLOCK);
	}
}

/*
 * Parses text from an exact-size copy, so any read past len is caught by
 * ASan: the parser must not rely on a terminating NUL.
 */
struct parse_run {
	char *copy;
	size_t len, offset;
	int line;
	char err[256];
};

static void run_start(struct parse_run *run, const char *text)
{
	run->len = strlen(text);
	run->copy = malloc(run->len ? run->len : 1);
	assert_non_null(run->copy);
	memcpy(run->copy, text, run->len);
	run->offset = 0;
	run->line = 1;
	run->err[0] = '\0';
}

static int run_next(struct parse_run *run, struct pgn_game **g)
{
	return pgn_parse_next(run->copy, run->len, &run->offset, &run->line, g, run->err,
	    sizeof run->err);
}

static void run_end(struct parse_run *run)
{
	free(run->copy);
}

/* The only game in text, which must parse. */
static struct pgn_game *parse_one(const char *text)
{
	struct parse_run run;
	struct pgn_game *g = NULL, *extra = NULL;

	run_start(&run, text);
	int r = run_next(&run, &g);
	if (r != 1)
		fail_msg("parse failed: %s", run.err);
	assert_int_equal(run_next(&run, &extra), 0);
	assert_null(extra);
	run_end(&run);
	return g;
}

/* The error the first game in text produces. */
static void expect_error(const char *text, const char *err)
{
	struct parse_run run;
	struct pgn_game *g = (struct pgn_game *)&run;	/* must be reset to NULL */

	run_start(&run, text);
	assert_int_equal(run_next(&run, &g), -1);
	assert_null(g);
	assert_string_equal(run.err, err);
	run_end(&run);
}

static const char scholar_pgn[] =
	"[Event \"Casual game\"]\n"
	"[Site \"?\"]\n"
	"[Date \"2024.01.02\"]\n"
	"[Round \"?\"]\n"
	"[White \"Alice\"]\n"
	"[Black \"Bob\"]\n"
	"[Result \"1-0\"]\n"
	"[TimeControl \"300+0\"]\n"
	"[Termination \"checkmate\"]\n"
	"\n"
	"1. e4 {[%clk 0:04:58]} 1... e5 {[%clk 1:02:03]} 2. Bc4 Nc6 {[%clk 0:04:50]}\n"
	"3. Qh5 {[%clk 0:00:00]} 3... Nf6 4. Qxf7# {[%clk 0:04:45]} 1-0\n";

static struct pgn_game *scholar_game(void)
{
	static const char *const sans[] = { "e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7" };
	/* 298700 and 999 check truncation; Bc4 and Nf6 have no clock. */
	static const int64_t clocks[] = { 298700, 3723999, PGN_NO_CLOCK, 290000, 999,
		PGN_NO_CLOCK, 285000 };
	char err[128];
	struct pgn_game *g = pgn_game_new(NULL, err, sizeof err);

	assert_non_null(g);
	assert_int_equal(pgn_game_set_tag(g, "White", "Alice"), 0);
	assert_int_equal(pgn_game_set_tag(g, "TimeControl", "300+0"), 0);
	assert_int_equal(pgn_game_set_tag(g, "Black", "Bob"), 0);
	assert_int_equal(pgn_game_set_tag(g, "Event", "Casual game"), 0);
	assert_int_equal(pgn_game_set_tag(g, "Date", "2024.01.02"), 0);
	play_moves(g, sans, clocks, 7);
	pgn_game_set_result(g, RESULT_WHITE_WINS, "checkmate");
	return g;
}

static void test_export_scholars_mate(void **state)
{
	(void)state;
	struct pgn_game *g = scholar_game();
	char *out = pgn_export(g);

	assert_non_null(out);
	assert_string_equal(out, scholar_pgn);
	assert_string_equal(pgn_game_tag(g, "Result"), "1-0");
	assert_string_equal(pgn_game_tag(g, "Termination"), "checkmate");
	assert_int_equal(pgn_game_result(g), RESULT_WHITE_WINS);
	free(out);
	pgn_game_free(g);
}

static void test_export_defaults(void **state)
{
	(void)state;
	char err[128];
	struct pgn_game *g = pgn_game_new(NULL, err, sizeof err);
	char *out;

	assert_non_null(g);
	assert_string_equal(pgn_game_tag(g, "Event"), "?");
	assert_string_equal(pgn_game_tag(g, "Date"), "????.??.??");
	assert_string_equal(pgn_game_tag(g, "Result"), "*");
	assert_null(pgn_game_tag(g, "SetUp"));
	assert_null(pgn_game_tag(g, "FEN"));
	assert_null(pgn_game_tag(g, "Termination"));
	out = pgn_export(g);
	assert_string_equal(out,
	    "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
	    "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n*\n");
	free(out);
	pgn_game_free(g);

	/* The standard start given as a FEN needs no SetUp. */
	g = pgn_game_new(FEN_START, err, sizeof err);
	assert_non_null(g);
	assert_null(pgn_game_tag(g, "FEN"));
	pgn_game_free(g);
}

static const char black_fen[] = "8/8/8/8/8/k7/8/K6R b - - 3 40";

static const char black_pgn[] =
	"[Event \"?\"]\n"
	"[Site \"?\"]\n"
	"[Date \"????.??.??\"]\n"
	"[Round \"?\"]\n"
	"[White \"?\"]\n"
	"[Black \"?\"]\n"
	"[Result \"1/2-1/2\"]\n"
	"[SetUp \"1\"]\n"
	"[FEN \"8/8/8/8/8/k7/8/K6R b - - 3 40\"]\n"
	"[Annotator \"me\"]\n"
	"\n"
	"40... Kb3 41. Rh3+ Kc4 {[%clk 0:00:07]} 42. Rh4+ 1/2-1/2\n";

static void test_export_from_fen_black_to_move(void **state)
{
	(void)state;
	static const char *const sans[] = { "Kb3", "Rh3", "Kc4", "Rh4" };
	static const int64_t clocks[] = { PGN_NO_CLOCK, PGN_NO_CLOCK, 7000, PGN_NO_CLOCK };
	char err[128];
	struct pgn_game *g = pgn_game_new(black_fen, err, sizeof err);

	assert_non_null(g);
	assert_string_equal(pgn_game_tag(g, "SetUp"), "1");
	assert_string_equal(pgn_game_tag(g, "FEN"), black_fen);
	assert_int_equal(pgn_game_set_tag(g, "Annotator", "me"), 0);
	play_moves(g, sans, clocks, 4);
	pgn_game_set_result(g, RESULT_DRAW, NULL);
	assert_null(pgn_game_tag(g, "Termination"));
	char *out = pgn_export(g);
	assert_string_equal(out, black_pgn);
	free(out);
	pgn_game_free(g);
}

static void test_new_bad_fen(void **state)
{
	(void)state;
	char err[128] = "";

	assert_null(pgn_game_new("8/8/8/8/8/8/8/8 w - - 0 1", err, sizeof err));
	assert_string_equal(err, "no white king");
}

/* Checks lines are at most 79 columns, filled greedily, breaking only between units. */
static void check_wrapping(const char *movetext)
{
	const char *line = movetext;
	size_t prev_len = 0;
	int lines = 0;

	while (*line) {
		const char *nl = strchr(line, '\n');
		assert_non_null(nl);
		size_t len = (size_t)(nl - line);
		assert_true(len > 0 && len <= 79);
		assert_true(line[0] != ' ' && line[len - 1] != ' ');
		/* A move number never ends a line: it stays with its move. */
		assert_true(line[len - 1] != '.');
		/* Nor is a comment split. */
		const char *open = memchr(line, '{', len), *close = memchr(line, '}', len);
		assert_true((open == NULL) == (close == NULL));
		if (lines > 0) {
			/* The first unit here would not have fitted on the previous line. */
			size_t unit;
			if (line[0] == '{') {
				unit = (size_t)(strchr(line, '}') - line) + 1;
			} else {
				const char *sp = memchr(line, ' ', len);
				unit = sp ? (size_t)(sp - line) : len;
				if (sp && sp[-1] == '.') {
					const char *sp2 = memchr(sp + 1, ' ', len - unit - 1);
					unit = sp2 ? (size_t)(sp2 - line) : len;
				}
			}
			assert_true(prev_len + 1 + unit > 79);
		}
		prev_len = len;
		lines++;
		line = nl + 1;
	}
	assert_true(lines >= 3);
}

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A game of random legal moves, with random clocks on some plies. */
static struct pgn_game *random_game(const char *fen, int max_plies)
{
	char err[128];
	struct pgn_game *g = pgn_game_new(fen, err, sizeof err);
	move legal[MAX_MOVES];

	assert_non_null(g);
	for (int i = 0; i < max_plies; i++) {
		const struct position *pos = pgn_game_position(g);
		if (position_termination(pos) != TERM_NONE)
			break;
		int n = movegen_legal(position_board(pos), legal);
		assert_true(n > 0);
		int64_t clock = rng_next() % 3 ? (int64_t)(rng_next() % 8000000) : PGN_NO_CLOCK;
		pgn_game_play(g, legal[rng_next() % (uint64_t)n], clock);
	}
	enum result r = position_result(pgn_game_position(g));
	if (r == RESULT_NONE)
		r = (enum result)(rng_next() % 4);
	pgn_game_set_result(g, r, rng_next() % 2 ? "normal" : NULL);
	return g;
}

static void test_export_wraps_long_game(void **state)
{
	(void)state;
	rng_state = 12345;
	struct pgn_game *g = random_game(NULL, 160);
	char *out = pgn_export(g);
	const char *movetext = strstr(out, "\n\n");

	assert_non_null(movetext);
	check_wrapping(movetext + 2);
	free(out);
	pgn_game_free(g);
}

static void test_tag_escaping(void **state)
{
	(void)state;
	char err[128];
	struct pgn_game *g = pgn_game_new(NULL, err, sizeof err), *back;
	char *out;
	char big[300];

	assert_non_null(g);
	assert_int_equal(pgn_game_set_tag(g, "Event", "He said \"hi\" \\ bye"), 0);
	assert_int_equal(pgn_game_set_tag(g, "Site", "Z\xc3\xbcrich"), 0);
	out = pgn_export(g);
	assert_non_null(strstr(out, "[Event \"He said \\\"hi\\\" \\\\ bye\"]\n"));
	assert_non_null(strstr(out, "[Site \"Z\xc3\xbcrich\"]\n"));
	back = parse_one(out);
	assert_string_equal(pgn_game_tag(back, "Event"), "He said \"hi\" \\ bye");
	assert_string_equal(pgn_game_tag(back, "Site"), "Z\xc3\xbcrich");
	pgn_game_free(back);
	free(out);

	/* What export could not write is refused. */
	assert_int_equal(pgn_game_set_tag(g, "Event", "two\nlines"), -1);
	assert_int_equal(pgn_game_set_tag(g, "Bad Name", "x"), -1);
	assert_int_equal(pgn_game_set_tag(g, "9Lives", "x"), -1);
	assert_int_equal(pgn_game_set_tag(g, "", "x"), -1);
	assert_int_equal(pgn_game_set_tag(g, "FEN", FEN_START), -1);
	assert_int_equal(pgn_game_set_tag(g, "SetUp", "1"), -1);
	assert_int_equal(pgn_game_set_tag(g, "Result", "2-0"), -1);
	memset(big, 'x', 256);
	big[256] = '\0';
	assert_int_equal(pgn_game_set_tag(g, "Annotator", big), -1);
	big[255] = '\0';
	assert_int_equal(pgn_game_set_tag(g, "Annotator", big), 0);
	assert_string_equal(pgn_game_tag(g, "Event"), "He said \"hi\" \\ bye");

	/* Result as a tag sets the result; replacing a tag keeps its place. */
	assert_int_equal(pgn_game_set_tag(g, "Result", "0-1"), 0);
	assert_int_equal(pgn_game_result(g), RESULT_BLACK_WINS);
	assert_int_equal(pgn_game_set_tag(g, "Opening", "Sicilian"), 0);
	assert_int_equal(pgn_game_set_tag(g, "Annotator", "me"), 0);
	out = pgn_export(g);
	assert_non_null(strstr(out, "[Result \"0-1\"]\n[Annotator \"me\"]\n[Opening \"Sicilian\"]\n\n0-1\n"));
	free(out);
	pgn_game_free(g);
}

static void test_tag_limit(void **state)
{
	(void)state;
	char err[128], name[16];
	struct pgn_game *g = pgn_game_new(NULL, err, sizeof err);
	int set = 0;

	assert_non_null(g);
	for (int i = 0; i < 200; i++) {
		snprintf(name, sizeof name, "Tag%d", i);
		if (pgn_game_set_tag(g, name, "v") == 0)
			set++;
	}
	assert_true(set >= 32 && set < 200);
	/* Replacing an existing tag still works at the limit. */
	assert_int_equal(pgn_game_set_tag(g, "Tag0", "w"), 0);
	assert_string_equal(pgn_game_tag(g, "Tag0"), "w");
	/* A game at the limit exports and imports again. */
	char *out = pgn_export(g);
	struct pgn_game *back = parse_one(out);
	char *again = pgn_export(back);
	assert_string_equal(out, again);
	free(again);
	free(out);
	pgn_game_free(back);
	pgn_game_free(g);
}

static void test_round_trip_known(void **state)
{
	(void)state;
	const char *texts[] = { scholar_pgn, black_pgn };

	for (size_t i = 0; i < 2; i++) {
		struct pgn_game *g = parse_one(texts[i]);
		char *out = pgn_export(g);
		assert_string_equal(out, texts[i]);
		free(out);
		pgn_game_free(g);
	}
}

static const char annotated_pgn[] =
	"% An escape line: [Event \"not a tag\"] { ( 1-0\n"
	"[Event \"Annotated\"]\n"
	"[White \"A\"] [Black \"B\"]\n"
	"[Result \"0-1\"]\n"
	"\n"
	"{Before the first move [%clk 9:00:00]} 1.e4 {Best by test [%clk 0:05:00.5]}\n"
	"1... c5 $1 2. Nf3 !? (2. c3 {Alapin} d5 (2... Nf6 3. e5 (3. Qa4?) Nd5) 3. exd5\n"
	"Qxd5) 2... d6!? ; a rest-of-line comment { not a comment start\n"
	"%escape ( in column one\n"
	"3. d4 cxd4 4.Nxd4 Nf6 5. Nc3 a6 $14 {[%clk 1:00:00] [%clk 0:59:59.95]}\n"
	"6. Bg5 e6 7. f4 Qb6 8. Qd2 Qxb2 9. Rb1 Qa3 10. f5?? Nc6 11. fxe6 fxe6 12. Nxc6\n"
	"bxc6 13. e5 dxe5 14. Bxf6 gxf6 15. Ne4 Qxa2 16. Rd1 Be7 17. Be2 O-O 18. O-O a5\n"
	"19. Rf3 Kh8 20. Rg3 Rd8 21. Qe3 Rxd1+ 22. Bxd1 Qa1 23. Qh6 0-1\n";

static void test_import_annotated(void **state)
{
	(void)state;
	static const char *const expect[] = { "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4",
		"Nf6", "Nc3", "a6" };
	struct pgn_game *g = parse_one(annotated_pgn);
	const struct position *pos = pgn_game_position(g);
	struct position *replay = position_new(NULL, NULL, 0);
	char san[MOVE_TEXT_MAX];

	assert_int_equal(position_ply_count(pos), 45);
	for (int i = 0; i < 10; i++) {
		position_play(replay, position_move_at(pos, i), SAN_ENGLISH, san);
		assert_string_equal(san, expect[i]);
	}
	position_free(replay);
	assert_int_equal(pgn_game_result(g), RESULT_BLACK_WINS);
	assert_string_equal(pgn_game_tag(g, "Event"), "Annotated");
	assert_string_equal(pgn_game_tag(g, "White"), "A");
	assert_string_equal(pgn_game_tag(g, "Black"), "B");
	/* The clock before any move is dropped, 0:05:00.5 truncates, the last %clk wins. */
	char *out = pgn_export(g);
	assert_non_null(strstr(out, "\n\n1. e4 {[%clk 0:05:00]} 1... c5 2. Nf3 d6 3. d4 cxd4 "
	    "4. Nxd4 Nf6 5. Nc3 a6\n{[%clk 0:59:59]} 6. Bg5"));
	assert_null(strstr(out, "9:00:00"));
	assert_true(strlen(out) > 20 && !strcmp(out + strlen(out) - 5, " 0-1\n"));
	free(out);
	pgn_game_free(g);
}

static void test_import_empty(void **state)
{
	(void)state;
	const char *texts[] = { "", "\n\n  \t\r\n", "{just a comment}\n; and more\n%escape\n" };

	for (size_t i = 0; i < 3; i++) {
		struct parse_run run;
		struct pgn_game *g;
		run_start(&run, texts[i]);
		assert_int_equal(run_next(&run, &g), 0);
		assert_null(g);
		assert_int_equal(run.offset, run.len);
		run_end(&run);
	}
}

/* Movetext alone, no tags, and several games in a row with lines counted. */
static void test_import_many_games(void **state)
{
	(void)state;
	const char *text =
	    "1. d4 d5 *\n"
	    "\n"
	    "[Event \"two\"]\n"
	    "[Result \"1/2-1/2\"]\n"
	    "\n"
	    "1. e4 e5 2. Ke2 Ke7\n"
	    "3. Ke1 Ke8 1/2-1/2\n"
	    "\n"
	    "[Event \"three\"]\n"
	    "\n"
	    "1-0\n";
	struct parse_run run;
	struct pgn_game *g;

	run_start(&run, text);
	assert_int_equal(run_next(&run, &g), 1);
	assert_int_equal(position_ply_count(pgn_game_position(g)), 2);
	assert_int_equal(pgn_game_result(g), RESULT_NONE);
	assert_int_equal(run.line, 1);
	pgn_game_free(g);
	assert_int_equal(run_next(&run, &g), 1);
	assert_string_equal(pgn_game_tag(g, "Event"), "two");
	assert_int_equal(position_ply_count(pgn_game_position(g)), 6);
	assert_int_equal(pgn_game_result(g), RESULT_DRAW);
	assert_int_equal(run.line, 7);
	pgn_game_free(g);
	assert_int_equal(run_next(&run, &g), 1);
	assert_string_equal(pgn_game_tag(g, "Event"), "three");
	assert_int_equal(position_ply_count(pgn_game_position(g)), 0);
	assert_int_equal(pgn_game_result(g), RESULT_WHITE_WINS);
	pgn_game_free(g);
	assert_int_equal(run_next(&run, &g), 0);
	assert_int_equal(run.line, 12);
	assert_int_equal(run.offset, run.len);
	run_end(&run);
}

struct error_case {
	const char *text;
	const char *err;
};

static const struct error_case error_cases[] = {
	{ "[Event \"e\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 Kd7 4. Bxc6 *\n",
	  "line 4: move 3... (Kd7): illegal move" },
	{ "1. e4 e5 2. Qh6 *", "line 1: move 2 (Qh6): illegal move" },
	{ "1. e4 e5 2. Nf3 Nc6 3. Nxe5 exd4 *", "line 1: move 3... (exd4): illegal move" },
	{ "1. e4 e5 2. d3 xd4 *", "line 1: move 2... (xd4): illegal move" },
	{ "1. a4 a5 2. h4 h5 3. Ra3 Ra6 4. Rhh3 Rhh6 5. Rd3 *",
	  "line 1: move 5 (Rd3): ambiguous move" },
	{ "[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8 *\n",
	  "line 3: move 1 (a8): ambiguous move" },
	{ "[Event \"e\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n",
	  "line 3: bad FEN: no white king" },
	{ "[FEN \"bogus\"]\n*", "line 1: bad FEN: FEN has 1 fields, expected 6 (or 4)" },
	{ "1. e4 e5\n2. Nf3 {unfinished\n2... Nc6 *\n", "line 2: unterminated comment" },
	{ "1. e4 (1. d4 d5 (1... Nf6 2. c4)\n2. Nf3 *\n", "line 1: unterminated variation" },
	{ "1. e4 e5 (1... c5\n\n[Event \"next\"]\n*\n", "line 1: unterminated variation" },
	{ "[Result \"0-1\"]\n\n1. e4 e5 1-0\n",
	  "line 3: result 1-0 does not match Result tag \"0-1\"" },
	{ "[Result \"won\"]\n\n*\n", "line 3: result * does not match Result tag \"won\"" },
	{ "[Event \"e\"]\n\n1. e4 e5\n2. Nf3\n", "line 4: missing result" },
	{ "[Event \"e\"]\n\n1. e4 e5\n[Event \"next\"]\n*\n", "line 3: missing result" },
	{ "[Event \"e\"]\n", "line 1: missing result" },
	{ "[Event \"e\"\n\n*\n", "line 1: bad tag" },
	{ "[Event e]\n*\n", "line 1: bad tag" },
	{ "[Event \"two\nlines\"]\n*\n", "line 1: bad tag" },
	{ "[Event \"a\tb\"]\n*\n", "line 1: bad tag" },
	{ "[Event \"e\"] junk\n*\n", "line 1: move 1 (junk): illegal move" },
	{ "1. e4 e5 2. <Nf3> *", "line 1: unexpected character '<'" },
	{ "1. e4 e5 \x01 *", "line 1: unexpected byte 0x01" },
	{ "1. e4 ) *", "line 1: unexpected ')'" },
	{ "1. e4 $ *", "line 1: bad NAG" },
	{ "1. e4 e5 Qh5xf7xg8xh8xa1xb2xc3xd4xe5xf6xg7 *",
	  "line 1: move 2 (Qh5xf7xg8xh8xa1xb2xc3xd4xe5xf6x...): illegal move" },
	{ "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O-O *",
	  "line 1: move 4 (O-O-O): illegal move" },
	{ "1. f3 e5 2. g4 Qh4# 3. a3 0-1", "line 1: move 3 (a3): illegal move" },
};

static void test_import_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof error_cases / sizeof error_cases[0]; i++)
		expect_error(error_cases[i].text, error_cases[i].err);
}

static void test_import_limits(void **state)
{
	(void)state;
	char *text = malloc(20000);
	size_t n = 0;

	/* Nesting: 64 levels are fine, 65 are not. */
	assert_non_null(text);
	n = (size_t)sprintf(text, "1. e4 ");
	for (int i = 0; i < 64; i++)
		n += (size_t)sprintf(text + n, "(1. d4 ");
	for (int i = 0; i < 64; i++)
		n += (size_t)sprintf(text + n, ") ");
	sprintf(text + n, "e5 *");
	struct pgn_game *g = parse_one(text);
	assert_int_equal(position_ply_count(pgn_game_position(g)), 2);
	pgn_game_free(g);

	n = (size_t)sprintf(text, "1. e4\n");
	for (int i = 0; i < 65; i++)
		n += (size_t)sprintf(text + n, "(");
	for (int i = 0; i < 65; i++)
		n += (size_t)sprintf(text + n, ")");
	sprintf(text + n, " *");
	expect_error(text, "line 2: variations nested too deeply");

	/* Too many tags. */
	n = 0;
	for (int i = 0; i < 100; i++)
		n += (size_t)sprintf(text + n, "[Tag%d \"v\"]\n", i);
	sprintf(text + n, "\n*\n");
	expect_error(text, "line 65: too many tags");

	/* A tag value or name past 255 bytes. */
	n = (size_t)sprintf(text, "[Event \"");
	memset(text + n, 'x', 256);
	sprintf(text + n + 256, "\"]\n*\n");
	expect_error(text, "line 1: tag too long");
	sprintf(text + n + 255, "\"]\n*\n");
	g = parse_one(text);
	assert_int_equal(strlen(pgn_game_tag(g, "Event")), 255);
	pgn_game_free(g);
	text[0] = '[';
	memset(text + 1, 'N', 256);
	sprintf(text + 257, " \"v\"]\n*\n");
	expect_error(text, "line 1: tag too long");
	free(text);

	/* 20000 plies are accepted, one more is not (knights shuffling past fivefold). */
	text = malloc(120000);
	assert_non_null(text);
	n = 0;
	for (int i = 0; i < 5000; i++)
		n += (size_t)sprintf(text + n, "Nf3 Nf6 Ng1 Ng8 ");
	sprintf(text + n, "*");
	g = parse_one(text);
	assert_int_equal(position_ply_count(pgn_game_position(g)), 20000);
	pgn_game_free(g);
	sprintf(text + n, "Nf3 *");
	expect_error(text, "line 1: game too long");
	free(text);
}

/* After each bad game the next is still read, with lines still counted right. */
static void test_import_recovers(void **state)
{
	(void)state;
	const char *text =
	    "[Event \"bad move\"]\n"				/* 1 */
	    "\n"
	    "1. e4 e5 2. Ke3 Nc6 (2... Nf6) {a comment with ) in it}\n"
	    "3. Nf3 1-0\n"
	    "\n"
	    "[Event \"good one\"]\n"				/* 6 */
	    "\n"
	    "1. d4 d5 1/2-1/2\n"
	    "\n"
	    "[Event \"bad tag\n"				/* 10 */
	    "[Site \"s\"]\n"
	    "\n"
	    "1. c4 *\n"
	    "\n"
	    "[Event \"bad tag, no movetext\"\n"		/* 15 */
	    "\n"
	    "[Event \"good two\"]\n"				/* 17 */
	    "1. Nf3 {unterminated\n"
	    "1... Nf6 *\n"
	    "[Event \"good three\"]\n"			/* 20 */
	    "1. g3 g6 0-1\n"
	    "[Event \"missing result\"]\n"			/* 22 */
	    "1. b3\n"
	    "[Event \"good four\"]\n"			/* 24 */
	    "1. b4 *\n";
	static const struct {
		int r;
		const char *what;	/* error, or the Event tag */
		int line_after;
	} expect[] = {
		{ -1, "line 3: move 2 (Ke3): illegal move", 4 },
		{ 1, "good one", 8 },
		{ -1, "line 10: bad tag", 13 },
		{ -1, "line 15: bad tag", 17 },
		{ -1, "line 18: unterminated comment", 19 },
		{ 1, "good three", 21 },
		{ -1, "line 23: missing result", 24 },
		{ 1, "good four", 25 },
	};
	struct parse_run run;
	struct pgn_game *g;

	run_start(&run, text);
	for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
		size_t before = run.offset;
		int r = run_next(&run, &g);
		assert_int_equal(r, expect[i].r);
		assert_true(run.offset > before);
		if (r < 0) {
			assert_null(g);
			assert_string_equal(run.err, expect[i].what);
		} else {
			assert_string_equal(pgn_game_tag(g, "Event"), expect[i].what);
			pgn_game_free(g);
		}
		assert_int_equal(run.line, expect[i].line_after);
	}
	assert_int_equal(run_next(&run, &g), 0);
	assert_int_equal(run.line, 26);
	run_end(&run);
}

/* Random games from the start and from mid-game FENs survive export and import. */
static void test_round_trip_random(void **state)
{
	(void)state;
	int total_plies = 0;

	rng_state = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 300; i++) {
		char fen[FEN_MAX];
		const char *start = NULL;
		if (i % 3 == 2) {
			/* Start where a few random moves lead, often with Black to move. */
			struct pgn_game *pre = random_game(NULL, 1 + (int)(rng_next() % 30));
			fen_format(position_board(pgn_game_position(pre)), fen);
			pgn_game_free(pre);
			start = fen;
		}
		struct pgn_game *g = random_game(start, (int)(rng_next() % 400));
		const struct position *pos = pgn_game_position(g);
		total_plies += position_ply_count(pos);
		char *out = pgn_export(g);
		assert_non_null(out);
		struct pgn_game *back = parse_one(out);
		const struct position *bpos = pgn_game_position(back);
		assert_int_equal(position_ply_count(bpos), position_ply_count(pos));
		for (int ply = 0; ply < position_ply_count(pos); ply++)
			assert_int_equal(position_move_at(bpos, ply), position_move_at(pos, ply));
		assert_int_equal(pgn_game_result(back), pgn_game_result(g));
		assert_string_equal(position_start_fen(bpos), position_start_fen(pos));
		char *again = pgn_export(back);
		assert_string_equal(again, out);
		free(again);
		free(out);
		pgn_game_free(back);
		pgn_game_free(g);
	}
	assert_true(total_plies > 20000);	/* the games were not trivially short */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export_scholars_mate),
		cmocka_unit_test(test_export_defaults),
		cmocka_unit_test(test_export_from_fen_black_to_move),
		cmocka_unit_test(test_new_bad_fen),
		cmocka_unit_test(test_export_wraps_long_game),
		cmocka_unit_test(test_tag_escaping),
		cmocka_unit_test(test_tag_limit),
		cmocka_unit_test(test_round_trip_known),
		cmocka_unit_test(test_import_annotated),
		cmocka_unit_test(test_import_empty),
		cmocka_unit_test(test_import_many_games),
		cmocka_unit_test(test_import_errors),
		cmocka_unit_test(test_import_limits),
		cmocka_unit_test(test_import_recovers),
		cmocka_unit_test(test_round_trip_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
