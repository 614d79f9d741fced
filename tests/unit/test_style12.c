/*
 * The client's pure parts: the style 12 parser (table of good and bad
 * lines), the FICS stream framing, and golden output of the board renderer
 * in both orientations, ASCII and Unicode, English and Spanish.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board_view.h"
#include "game_view.h"
#include "input.h"
#include "proto.h"
#include "style12.h"

#define START_LINE "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR " \
	"W -1 1 1 1 1 0 7 alice bob 1 5 0 39 39 300000 300000 1 none (0:00.000) none 0 1 0"

/* 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6, as the server sends it to alice (White). */
static const char *const ruy_lopez[] = {
	START_LINE,
	"<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 7 alice bob -1 5 0 39 39 298000 300000 1 P/e2-e4 (0:02.000) e4 0 1 0",
	"<12> rnbqkbnr pppp-ppp -------- ----p--- ----P--- -------- PPPP-PPP RNBQKBNR W 4 1 1 1 1 0 7 alice bob 1 5 0 39 39 298000 297000 2 P/e7-e5 (0:03.000) e5 0 1 0",
	"<12> rnbqkbnr pppp-ppp -------- ----p--- ----P--- -----N-- PPPP-PPP RNBQKB-R B -1 1 1 1 1 1 7 alice bob -1 5 0 39 39 296000 297000 2 N/g1-f3 (0:02.000) Nf3 0 1 0",
	"<12> r-bqkbnr pppp-ppp --n----- ----p--- ----P--- -----N-- PPPP-PPP RNBQKB-R W -1 1 1 1 1 2 7 alice bob 1 5 0 39 39 296000 295000 3 N/b8-c6 (0:02.000) Nc6 0 1 0",
	"<12> r-bqkbnr pppp-ppp --n----- -B--p--- ----P--- -----N-- PPPP-PPP RNBQK--R B -1 1 1 1 1 3 7 alice bob -1 5 0 39 39 294000 295000 3 B/f1-b5 (0:02.000) Bb5 0 1 0",
	"<12> r-bqkbnr -ppp-ppp p-n----- -B--p--- ----P--- -----N-- PPPP-PPP RNBQK--R W -1 1 1 1 1 0 7 alice bob 1 5 0 39 39 294000 293000 4 P/a7-a6 (0:02.000) a6 0 1 0",
	"<12> r-bqkbnr -ppp-ppp p-B----- ----p--- ----P--- -----N-- PPPP-PPP RNBQK--R B -1 1 1 1 1 0 7 alice bob -1 5 0 39 36 292000 293000 4 B/b5-c6 (0:02.000) Bxc6 0 1 0",
	"<12> r-bqkbnr -pp--ppp p-p----- ----p--- ----P--- -----N-- PPPP-PPP RNBQK--R W -1 1 1 1 1 0 7 alice bob 1 5 0 36 36 292000 291000 5 P/d7-c6 (0:02.000) dxc6 0 1 0",
};

/* --- style 12 parser --- */

static void test_parse_fields(void **state)
{
	struct style12 s;

	(void)state;
	assert_int_equal(style12_parse(ruy_lopez[1], &s), 0);
	assert_int_equal(s.squares[SQ_E4], W_PAWN);
	assert_int_equal(s.squares[SQ_E2], NO_PIECE);
	assert_int_equal(s.squares[SQ_E8], B_KING);
	assert_int_equal(s.side, BLACK);
	assert_int_equal(s.double_push_file, 4);
	assert_int_equal(s.castling, CASTLE_ALL);
	assert_int_equal(s.game, 7);
	assert_string_equal(s.white, "alice");
	assert_string_equal(s.black, "bob");
	assert_int_equal(s.relation, REL_PLAYING_THEIR_MOVE);
	assert_int_equal(s.initial_min, 5);
	assert_int_equal(s.increment_s, 0);
	assert_int_equal(s.clock_ms[WHITE], 298000);
	assert_int_equal(s.clock_ms[BLACK], 300000);
	assert_int_equal(s.move_number, 1);
	assert_string_equal(s.verbose, "P/e2-e4");
	assert_string_equal(s.san, "e4");
	assert_true(s.ticking);
	assert_int_equal(style12_ply(&s), 1);
	assert_true(style12_playing(&s));
	assert_int_equal(style12_my_color(&s), WHITE);
}

static void test_parse_seconds(void **state)
{
	struct style12 s;

	(void)state;
	/* Without "iset ms 1" the clocks are seconds, and the time taken has no '.'. */
	assert_int_equal(style12_parse("<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- "
	    "PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 12 white black 0 3 2 39 39 180 178 1 P/e2-e4 (0:02) e4 1 0 0",
	    &s), 0);
	assert_int_equal(s.clock_ms[WHITE], 180000);
	assert_int_equal(s.clock_ms[BLACK], 178000);
	assert_int_equal(s.relation, REL_OBSERVING);
	assert_true(s.flip);
	assert_false(s.ticking);
	assert_int_equal(s.increment_s, 2);
}

static void test_parse_board_position(void **state)
{
	struct style12 s;
	struct board b;

	(void)state;
	/* After 1. e4 the e3 square is no en passant square: no black pawn can take. */
	assert_int_equal(style12_parse(ruy_lopez[1], &s), 0);
	style12_board(&s, &b);
	assert_int_equal(b.ep_square, SQ_NONE);
	assert_int_equal(b.side, BLACK);
	assert_int_equal(b.castling, CASTLE_ALL);
	assert_int_equal(b.fullmove_number, 1);
}

static void test_parse_rejects(void **state)
{
	static const char *const bad[] = {
		"",
		"<12>",
		"<12> rnbqkbnr",
		/* a rank of seven squares */
		"<12> rnbqkbn pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 a b 1 5 0 39 39 1 1 1 none (0:00) none 0 1 0",
		/* an unknown piece letter */
		"<12> rnbqkbnx pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 a b 1 5 0 39 39 1 1 1 none (0:00) none 0 1 0",
		/* side to move X */
		"<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR X -1 1 1 1 1 0 7 a b 1 5 0 39 39 1 1 1 none (0:00) none 0 1 0",
		/* relation 5 */
		"<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 a b 5 5 0 39 39 1 1 1 none (0:00) none 0 1 0",
		/* double push file 8 */
		"<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W 8 1 1 1 1 0 7 a b 1 5 0 39 39 1 1 1 none (0:00) none 0 1 0",
		/* a clock that is not a number */
		"<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 a b 1 5 0 39 39 1x 1 1 none (0:00) none 0 1 0",
		/* one field too many */
		START_LINE " 9",
		/* another prefix */
		"<13> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 a b 1 5 0 39 39 1 1 1 none (0:00) none 0 1 0",
	};
	struct style12 s;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (style12_parse(bad[i], &s) == 0)
			fail_msg("accepted bad line %zu: %s", i, bad[i]);
}

/* --- the game view and its renderer --- */

static struct game_view *play(const char *const *lines, size_t n, enum san_lang lang)
{
	struct game_view *gv = game_view_new(lang);
	struct style12 s;

	assert_non_null(gv);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(style12_parse(lines[i], &s), 0);
		game_view_update(gv, &s, 1000 * (long long)i);
	}
	return gv;
}

static void check_render(const struct game_view *gv, const struct board_view_options *o,
    long long now_ms, const char *expected)
{
	char buf[8192];

	board_view_render(gv, o, now_ms, buf, sizeof buf);
	if (strcmp(buf, expected)) {
		fprintf(stderr, "---- got ----\n%s---- expected ----\n%s----\n", buf, expected);
		fail_msg("rendering differs");
	}
}

static void test_moves_in_san(void **state)
{
	struct game_view *en = play(ruy_lopez, 9, SAN_ENGLISH), *es = play(ruy_lopez, 9, SAN_SPANISH);
	static const char *const english[] = { "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6" };
	static const char *const spanish[] = { "e4", "e5", "Cf3", "Cc6", "Ab5", "a6", "Axc6", "dxc6" };
	int from, to, lost[TYPE_NB];

	(void)state;
	assert_int_equal(game_view_move_count(en), 8);
	for (int i = 0; i < 8; i++) {
		assert_string_equal(game_view_move(en, i), english[i]);
		assert_string_equal(game_view_move(es, i), spanish[i]);
	}
	assert_true(game_view_last_move(en, &from, &to));
	assert_int_equal(from, SQ_D7);
	assert_int_equal(to, SQ_C6);
	game_view_lost(en, BLACK, lost);
	assert_int_equal(lost[KNIGHT], 1);
	assert_int_equal(lost[PAWN], 0);
	game_view_lost(en, WHITE, lost);
	assert_int_equal(lost[BISHOP], 1);
	game_view_free(en);
	game_view_free(es);
}

static void test_clock_ticks(void **state)
{
	struct game_view *gv = play(ruy_lopez, 2, SAN_ENGLISH);

	(void)state;
	/* Received at 1000 ms with Black (bob) on move: his clock runs, alice's stands. */
	assert_int_equal(game_view_clock_ms(gv, BLACK, 1000), 300000);
	assert_int_equal(game_view_clock_ms(gv, BLACK, 4500), 296500);
	assert_int_equal(game_view_clock_ms(gv, WHITE, 4500), 298000);
	assert_int_equal(game_view_clock_ms(gv, BLACK, 1000000), 0);
	game_view_end(gv, "bob resigns", "1-0");
	assert_int_equal(game_view_clock_ms(gv, BLACK, 4500), 300000);
	game_view_free(gv);
}

static void test_takeback_and_new_game(void **state)
{
	struct game_view *gv = play(ruy_lopez, 5, SAN_ENGLISH);
	struct style12 s;

	(void)state;
	assert_int_equal(game_view_move_count(gv), 4);
	assert_int_equal(style12_parse(ruy_lopez[3], &s), 0);
	game_view_update(gv, &s, 0);
	assert_int_equal(game_view_move_count(gv), 3);
	assert_string_equal(game_view_move(gv, 2), "Nf3");
	assert_int_equal(style12_parse(START_LINE, &s), 0);
	s.game = 8;
	game_view_update(gv, &s, 0);
	assert_int_equal(game_view_move_count(gv), 0);
	game_view_free(gv);
}

static void test_end_line(void **state)
{
	char reason[GAME_VIEW_RESULT_MAX], result[16];
	int game;

	(void)state;
	assert_int_equal(game_view_parse_end("{Game 7 (alice vs. bob) bob resigns} 1-0", &game,
	    reason, sizeof reason, result, sizeof result), 0);
	assert_int_equal(game, 7);
	assert_string_equal(reason, "bob resigns");
	assert_string_equal(result, "1-0");
	assert_int_equal(game_view_parse_end("{Game 3 (a vs. b) Game drawn by mutual agreement} 1/2-1/2",
	    &game, reason, sizeof reason, result, sizeof result), 0);
	assert_string_equal(result, "1/2-1/2");
	assert_int_not_equal(game_view_parse_end("{Game 7 (alice vs. bob) Creating rated blitz match.}",
	    &game, reason, sizeof reason, result, sizeof result), 0);
	assert_int_not_equal(game_view_parse_end("alice tells you: {Game 7 (x vs. y) z} 1-0 ok",
	    &game, reason, sizeof reason, result, sizeof result), 0);
}

#include "test_style12_golden.h"

static void test_render_ascii_white(void **state)
{
	struct game_view *gv = play(ruy_lopez, 9, SAN_ENGLISH);
	struct board_view_options o = { false, false, SAN_ENGLISH, 80, WHITE };

	(void)state;
	assert_int_equal(board_view_bottom(gv), WHITE);
	check_render(gv, &o, 8000, golden_ascii_white);
	game_view_free(gv);
}

static void test_render_unicode_black(void **state)
{
	struct game_view *gv = play(ruy_lopez, 9, SAN_ENGLISH);
	struct board_view_options o = { true, false, SAN_ENGLISH, 80, BLACK };

	(void)state;
	/* 2.5 s after the last update White's clock (on move) is down by 2.5 s. */
	check_render(gv, &o, 10500, golden_unicode_black);
	game_view_free(gv);
}

static void test_render_spanish_ascii_narrow(void **state)
{
	struct game_view *gv = play(ruy_lopez, 9, SAN_SPANISH);
	struct board_view_options o = { false, false, SAN_SPANISH, 40, BLACK };

	(void)state;
	game_view_end(gv, "alice resigns", "0-1");
	check_render(gv, &o, 8000, golden_spanish_narrow);
	game_view_free(gv);
}

static void test_render_spanish_unicode_white(void **state)
{
	struct game_view *gv = play(ruy_lopez, 4, SAN_SPANISH);
	struct board_view_options o = { true, false, SAN_SPANISH, 60, WHITE };

	(void)state;
	check_render(gv, &o, 3000, golden_spanish_unicode);
	game_view_free(gv);
}

static void test_render_color_marks_last_move(void **state)
{
	struct game_view *gv = play(ruy_lopez, 4, SAN_ENGLISH);
	struct board_view_options o = { true, true, SAN_ENGLISH, 80, WHITE };
	char buf[16384];

	(void)state;
	board_view_render(gv, &o, 1000, buf, sizeof buf);
	/* g1 (a dark square) and f3 (a light one) carry the last-move backgrounds. */
	assert_non_null(strstr(buf, "\033[48;5;107m"));
	assert_non_null(strstr(buf, "\033[48;5;150m"));
	assert_null(strstr(buf, "]"));	/* no bracket marks: colour shows the move */
	game_view_free(gv);
}

/* --- move input --- */

static void test_input(void **state)
{
	struct game_view *gv = play(ruy_lopez, 3, SAN_SPANISH);
	char out[INPUT_LINE_MAX];

	(void)state;
	assert_int_equal(input_read(gv, SAN_SPANISH, "Cf3", out, sizeof out), INPUT_MOVE);
	assert_string_equal(out, "g1f3");
	assert_int_equal(input_read(gv, SAN_SPANISH, "Nf3", out, sizeof out), INPUT_MOVE);
	assert_string_equal(out, "g1f3");
	assert_int_equal(input_read(gv, SAN_SPANISH, "Cf6", out, sizeof out), INPUT_BAD_MOVE);
	assert_int_equal(input_read(gv, SAN_SPANISH, "tell bob hi", out, sizeof out), INPUT_COMMAND);
	assert_string_equal(out, "tell bob hi");
	assert_int_equal(input_read(NULL, SAN_ENGLISH, "e4", out, sizeof out), INPUT_COMMAND);
	game_view_free(gv);
}

/* Black's bishop on a6 covers f1; both white knights reach d2. */
static const char *const king_or_rook[] = {
	START_LINE,
	"<12> r--qkb-r p-pp-ppp bpn-pn-- -------- ---PP--- -----NP- PPP--PBP RNBQK--R W -1 1 1 1 1 0 7 alice bob 1 5 0 39 39 290000 290000 6 P/e7-e6 (0:02.000) e6 0 1 0",
};

/* A Spanish move is read in Spanish only: never re-read as another English move. */
static void test_input_spanish_only(void **state)
{
	struct game_view *gv = play(king_or_rook, 2, SAN_SPANISH);
	char out[INPUT_LINE_MAX];

	(void)state;
	/* Rey f1 is illegal; the rook's h1-f1 is not what was typed. */
	assert_int_equal(input_read(gv, SAN_SPANISH, "Rf1", out, sizeof out), INPUT_BAD_MOVE);
	assert_string_equal(out, "Illegal move: Rf1");
	assert_int_equal(input_read(gv, SAN_SPANISH, "Cd2", out, sizeof out), INPUT_BAD_MOVE);
	assert_string_equal(out, "Ambiguous move: Cd2");
	assert_int_equal(input_read(gv, SAN_SPANISH, "Tf1", out, sizeof out), INPUT_MOVE);
	assert_string_equal(out, "h1f1");
	assert_int_equal(input_read(gv, SAN_SPANISH, "Nbd2", out, sizeof out), INPUT_MOVE);
	assert_string_equal(out, "b1d2");
	assert_int_equal(input_read(gv, SAN_ENGLISH, "Rf1", out, sizeof out), INPUT_MOVE);
	assert_string_equal(out, "h1f1");
	game_view_free(gv);
}

/* --- FICS stream framing --- */

struct events {
	char text[4096];
};

static void ev_line(void *arg, const char *line, long block)
{
	struct events *e = arg;
	size_t n = strlen(e->text);
	snprintf(e->text + n, sizeof e->text - n, "L%ld[%s]", block, line);
}

static void ev_prompt(void *arg, enum proto_prompt kind)
{
	struct events *e = arg;
	size_t n = strlen(e->text);
	snprintf(e->text + n, sizeof e->text - n, "P%d", (int)kind);
}

static void ev_block_end(void *arg, long id, int code)
{
	struct events *e = arg;
	size_t n = strlen(e->text);
	snprintf(e->text + n, sizeof e->text - n, "E%ld/%d", id, code);
}

static void test_proto_framing(void **state)
{
	static const struct proto_callbacks cb = { ev_line, ev_prompt, ev_block_end };
	static const char stream[] =
	    "\n\rWelcome\n\rlogin: "
	    "\n\r\"alice\" is a registered name.\n\r\xff\xfb\x01password: "
	    "\xff\xfc\x01\n\r**** Starting FICS session as alice ****\n\rfics% "
	    "\x15" "27\x16" "146\x16" "a\n\rb\n\r\x17\n\rfics% "
	    "\n\r<12> x\n\rfics% ";
	struct events whole = { "" }, bytes = { "" };
	struct proto *p = proto_new(&cb, &whole), *q = proto_new(&cb, &bytes);

	(void)state;
	proto_feed(p, stream, sizeof stream - 1);
	/* Split into single bytes, the same events come out. */
	for (size_t i = 0; i < sizeof stream - 1; i++)
		proto_feed(q, stream + i, 1);
	assert_string_equal(whole.text,
	    "L-1[]L-1[Welcome]P0L-1[\"alice\" is a registered name.]P1"
	    "L-1[**** Starting FICS session as alice ****]P2L27[a]L27[b]E27/146P2"
	    "L-1[<12> x]P2");
	assert_string_equal(bytes.text, whole.text);
	proto_free(p);
	proto_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_fields),
		cmocka_unit_test(test_parse_seconds),
		cmocka_unit_test(test_parse_board_position),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_moves_in_san),
		cmocka_unit_test(test_clock_ticks),
		cmocka_unit_test(test_takeback_and_new_game),
		cmocka_unit_test(test_end_line),
		cmocka_unit_test(test_render_ascii_white),
		cmocka_unit_test(test_render_unicode_black),
		cmocka_unit_test(test_render_spanish_ascii_narrow),
		cmocka_unit_test(test_render_spanish_unicode_white),
		cmocka_unit_test(test_render_color_marks_last_move),
		cmocka_unit_test(test_input),
		cmocka_unit_test(test_input_spanish_only),
		cmocka_unit_test(test_proto_framing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
