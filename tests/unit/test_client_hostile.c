/*
 * What a hostile server can send the client's pure parts: bytes that would
 * cut or overwrite a line, lines without end, positions no game can reach,
 * and move lists longer than any game.  Each is bounded by a named constant
 * and comes out visible and harmless.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game_view.h"
#include "movelist.h"
#include "proto.h"
#include "style12.h"
#include "uci_position.h"
#include "board.h"
#include "fen.h"
#include "san.h"

#define START_LINE "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR " \
	"W -1 1 1 1 1 0 7 alice bob 1 5 0 39 39 300000 300000 1 none (0:00.000) none 0 1 0"

static char seen[PROTO_LINE_MAX + 256];
static int lines_seen;

static void on_line(void *arg, const char *line, long block)
{
	(void)arg;
	(void)block;
	snprintf(seen, sizeof seen, "%s", line);
	lines_seen++;
}

static void feed(struct proto *p, const char *data, size_t len)
{
	lines_seen = 0;
	seen[0] = '\0';
	proto_feed(p, data, len);
}

/* A NUL shows as '?' and the rest of the line stays; so does a CR inside a line. */
static void test_nul_and_cr_are_visible(void **state)
{
	struct proto_callbacks cb = { on_line, NULL, NULL };
	struct proto *p = proto_new(&cb, NULL);

	(void)state;
	assert_non_null(p);
	static const char nul[] = "bob tells you: a\0b\n\r";
	feed(p, nul, sizeof nul - 1);
	assert_string_equal(seen, "bob tells you: a?b");
	static const char cr[] = "bob tells you: hi\rAdmin: you are banned\n\r";
	feed(p, cr, sizeof cr - 1);
	assert_string_equal(seen, "bob tells you: hi?Admin: you are banned");
	/* The CR of a line end, before or after the newline, and across reads, is no text. */
	feed(p, "one\r\ntwo\n\rthree\r", 16);
	assert_int_equal(lines_seen, 2);
	assert_string_equal(seen, "two");
	feed(p, "\n", 1);
	assert_string_equal(seen, "three");
	feed(p, "a\r", 2);
	feed(p, "b\n\r", 3);
	assert_string_equal(seen, "a?b");
	proto_free(p);
}

/* A line longer than the buffer is cut there, says so, and the next line is whole. */
static void test_long_line_is_cut_and_marked(void **state)
{
	struct proto_callbacks cb = { on_line, NULL, NULL };
	struct proto *p = proto_new(&cb, NULL);
	size_t huge = 4 * PROTO_LINE_MAX;
	char *data = malloc(huge);

	(void)state;
	assert_non_null(p);
	assert_non_null(data);
	memset(data, 'x', huge);
	lines_seen = 0;
	for (int i = 0; i < 64; i++)		/* 2 MB in reads, no newline */
		proto_feed(p, data, huge / 8);
	assert_int_equal(lines_seen, 0);
	feed(p, "\n\rnext\n\r", 8);
	assert_int_equal(lines_seen, 2);
	assert_string_equal(seen, "next");
	proto_feed(p, data, PROTO_LINE_MAX + 10);
	feed(p, "\n\r", 2);
	size_t kept = PROTO_LINE_MAX - 1;
	assert_int_equal(strlen(seen), kept + strlen(PROTO_CUT_MARK));
	assert_string_equal(seen + kept, PROTO_CUT_MARK);
	assert_int_equal(strspn(seen, "x"), kept);
	/* A line of exactly the buffer's size is no cut line. */
	proto_feed(p, data, PROTO_LINE_MAX - 1);
	feed(p, "\n\r", 2);
	assert_int_equal(strlen(seen), PROTO_LINE_MAX - 1);
	/* A cut in the middle of a UTF-8 character leaves no half character. */
	memset(data, 'y', PROTO_LINE_MAX - 2);
	memcpy(data + PROTO_LINE_MAX - 2, "\xe2\x99\x98\xe2\x99\x98", 6);
	proto_feed(p, data, PROTO_LINE_MAX + 4);
	feed(p, "\n\r", 2);
	assert_string_equal(seen + PROTO_LINE_MAX - 2, "?" PROTO_CUT_MARK);
	free(data);
	proto_free(p);
}

static const char *replace_board(char *buf, size_t len, const char *board, const char *rest)
{
	snprintf(buf, len, "<12> %s %s", board, rest);
	return buf;
}

/* Positions the rules cannot play from are refused, not handed to move generation. */
static void test_impossible_positions_refused(void **state)
{
	static const char *const boards[] = {
		"KKKKKKKK KKKKKKKK KKKKKKKK KKKKKKKK KKKKKKKK KKKKKKKK KKKKKKKK KKKKKKKK W -1",
		"-------- -------- -------- -------- -------- -------- -------- -------- W -1",
		"----k--- -------- -------- -------- -------- -------- -------- -------- W -1",
		"----k--- -------- -------- -------- -------- -------- -------- ----KK-- W -1",
		"----k--P -------- -------- -------- -------- -------- -------- ----K--- W -1",
		"----k--- -------- -------- -------- -------- -------- -------- p---K--- B -1",
		"QQQQkQQQ QQQQQQQQ -------- -------- -------- -------- -------- ----K--- W -1",
		/* the side that just moved left its king in check */
		"----k--- -------- -------- -------- -------- -------- ----R--- ----K--- W -1",
		"PPPPPPPP PPPPPPPP PPPPPPPP PPPPPPPP pppppppp pppppppp pppppppp pppppppp W 3",
	};
	static const char rest[] = "1 1 1 1 0 7 alice bob 1 5 0 39 39 300 300 1 none (0:00) none 0 0 0";
	char line[512];
	struct style12 s;

	(void)state;
	for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++)
		if (style12_parse(replace_board(line, sizeof line, boards[i], rest), &s) == 0)
			fail_msg("accepted position %zu: %s", i, boards[i]);
	/* A bare-kings position is a position. */
	assert_int_equal(style12_parse(replace_board(line, sizeof line, "----k--- -------- -------- "
	    "-------- -------- -------- -------- ----K--- B -1", rest), &s), 0);
	assert_int_equal(style12_parse(START_LINE, &s), 0);
}

/* Fields out of their range, and text fields that are not printable ASCII. */
static void test_fields_out_of_range_refused(void **state)
{
	static const char *const rests[] = {
		"1 1 1 1 0 -7 alice bob 1 5 0 39 39 300 300 1 none (0:00) none 0 0 0",
		"1 1 1 1 0 99999999999999999999 alice bob 1 5 0 39 39 300 300 1 none (0:00) none 0 0 0",
		"1 1 1 1 0 7 alice bob 3 5 0 39 39 300 300 1 none (0:00) none 0 0 0",
		"1 1 1 1 0 7 alice bob 1 5 0 39 39 300 300 0 none (0:00) none 0 0 0",
		"1 1 1 1 0 7 alice bob 1 5 0 39 39 300 300 1 none (0:00) none 0 0 0 extra",
		"2 1 1 1 0 7 alice bob 1 5 0 39 39 300 300 1 none (0:00) none 0 0 0",
		"1 1 1 1 0 7 al\xc3\xa9 bob 1 5 0 39 39 300 300 1 none (0:00) none 0 0 0",
		"1 1 1 1 0 7 alice b\x01ob 1 5 0 39 39 300 300 1 none (0:00) none 0 0 0",
		"1 1 1 1 0 7 alice bob 1 5 0 39 39 300 300 1 none (0:00) \xe2\x80\xaeNf3 0 0 0",
		"1 1 1 1 0 7 alice bob 1 5 0 39 39 99999999999999 300 1 none (0:00) none 0 0 0",
	};
	static const char board[] = "rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP "
	    "RNBQKBNR W -1";
	char line[512];
	struct style12 s;

	(void)state;
	for (size_t i = 0; i < sizeof rests / sizeof rests[0]; i++)
		if (style12_parse(replace_board(line, sizeof line, board, rests[i]), &s) == 0)
			fail_msg("accepted fields %zu: %s", i, rests[i]);
}

/* However many updates a server sends, the view keeps GAME_VIEW_MOVES_MAX moves, the newest. */
static void test_view_moves_bounded(void **state)
{
	static const char *const shuffle[4][2] = {
		{ "rnbqkbnr pppppppp -------- -------- -------- -----N-- PPPPPPPP RNBQKB-R B", "Nf3" },
		{ "rnbqkb-r pppppppp -----n-- -------- -------- -----N-- PPPPPPPP RNBQKB-R W", "Nf6" },
		{ "rnbqkb-r pppppppp -----n-- -------- -------- -------- PPPPPPPP RNBQKBNR B", "Ng1" },
		{ "rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W", "Ng8" },
	};
	struct game_view *gv = game_view_new(SAN_ENGLISH);
	struct style12 s;
	char line[512];
	int plies = GAME_VIEW_MOVES_MAX + 100;

	(void)state;
	assert_non_null(gv);
	assert_int_equal(style12_parse(START_LINE, &s), 0);
	game_view_update(gv, &s, 0);
	for (int ply = 1; ply <= plies; ply++) {
		const char *const *m = shuffle[(ply - 1) % 4];
		snprintf(line, sizeof line, "<12> %s -1 1 1 1 1 0 7 alice bob %d 5 0 39 39 300 300 %d "
		    "N/x1-x2 (0:00) %s 0 1 0", m[0], ply % 2 ? -1 : 1, ply / 2 + 1, m[1]);
		assert_int_equal(style12_parse(line, &s), 0);
		game_view_update(gv, &s, 0);
	}
	assert_int_equal(game_view_move_count(gv), GAME_VIEW_MOVES_MAX);
	assert_int_equal(game_view_first_ply(gv), plies - GAME_VIEW_MOVES_MAX);
	assert_string_equal(game_view_move(gv, GAME_VIEW_MOVES_MAX - 1), shuffle[(plies - 1) % 4][1]);
	assert_string_equal(game_view_move(gv, 0), shuffle[(plies - GAME_VIEW_MOVES_MAX) % 4][1]);
	game_view_free(gv);
}

/* A move list longer than any game is refused and says why; one within the bound is read. */
static void test_movelist_too_long(void **state)
{
	struct movelist *ml = malloc(sizeof *ml);
	static const char *const moves[2] = { "Nf3     (0:00.000)      Nf6     (0:00.000)",
	    "Ng1     (0:00.000)      Ng8     (0:00.000)" };
	char line[128];

	(void)state;
	assert_non_null(ml);
	for (int total = MOVELIST_PLIES_MAX / 2; total <= 10000; total += 10000 - MOVELIST_PLIES_MAX / 2) {
		movelist_init(ml);
		movelist_feed(ml, "Movelist for game 7:");
		movelist_feed(ml, "alice (1500) vs. bob (1612) --- Mon Nov 30, 14:34 UTC 2026");
		movelist_feed(ml, "Move  alice                   bob");
		movelist_feed(ml, "----  ---------------------   ---------------------");
		for (int n = 1; n <= total; n++) {
			snprintf(line, sizeof line, "%3d.  %s", n, moves[(n - 1) % 2]);
			movelist_feed(ml, line);
		}
		movelist_feed(ml, "      {Still in progress} *");
		if (total == 10000) {
			assert_false(movelist_complete(ml));
			assert_true(ml->too_long);
		} else {
			assert_true(movelist_complete(ml));
			assert_false(ml->too_long);
			assert_int_equal(ml->count, 2 * total);
		}
	}
	/* A move number past the bound is as long. */
	movelist_init(ml);
	movelist_feed(ml, "Movelist for game 7:");
	movelist_feed(ml, "alice (1500) vs. bob (1612) --- Mon Nov 30, 14:34 UTC 2026");
	movelist_feed(ml, "----  ---------------------   ---------------------");
	movelist_feed(ml, "99999.  Nf3     (0:00.000)      Nf6     (0:00.000)");
	assert_true(ml->too_long);
	assert_false(movelist_complete(ml));
	free(ml);
}

/*
 * The engine's position line holds a game as long as any can be and refuses
 * the next move, unchanged: no server can make it grow without end.
 */
static void test_engine_position_bounded(void **state)
{
	static const char *const shuffle[4] = { "Nf3", "Nf6", "Ng1", "Ng8" };
	struct uci_position *p = uci_position_new();
	struct board b;
	move m;
	char err[64];

	(void)state;
	assert_non_null(p);
	assert_string_equal(uci_position_text(p), "");
	board_start(&b);
	assert_int_equal(san_parse(&b, "e4", SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
	assert_int_equal(uci_position_add(p, m), -1);	/* no start position yet */
	uci_position_reset(p, &b);
	assert_string_equal(uci_position_text(p), "startpos moves");
	for (int ply = 0; ply < UCI_POSITION_PLIES_MAX; ply++) {
		assert_int_equal(san_parse(&b, shuffle[ply % 4], SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
		assert_int_equal(uci_position_add(p, m), 0);
		board_make(&b, m);
	}
	assert_int_equal(uci_position_plies(p), UCI_POSITION_PLIES_MAX);
	size_t len = strlen(uci_position_text(p));
	assert_int_equal(len, strlen("startpos moves") + (size_t)UCI_POSITION_PLIES_MAX * 5);
	assert_int_equal(san_parse(&b, shuffle[UCI_POSITION_PLIES_MAX % 4], SAN_ENGLISH, NO_TYPE, &m),
	    SAN_OK);
	assert_int_equal(uci_position_add(p, m), -1);
	assert_int_equal(uci_position_plies(p), UCI_POSITION_PLIES_MAX);
	assert_int_equal(strlen(uci_position_text(p)), len);
	assert_string_equal(uci_position_text(p) + len - 10, " f3g1 f6g8");
	/* Another start: a set-up position goes by its FEN. */
	assert_int_equal(fen_parse(&b, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", err, sizeof err), 0);
	uci_position_reset(p, &b);
	assert_int_equal(uci_position_plies(p), 0);
	assert_string_equal(uci_position_text(p), "fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves");
	assert_int_equal(san_parse(&b, "e4", SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
	assert_int_equal(uci_position_add(p, m), 0);
	assert_string_equal(uci_position_text(p), "fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4");
	uci_position_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nul_and_cr_are_visible),
		cmocka_unit_test(test_long_line_is_cut_and_marked),
		cmocka_unit_test(test_impossible_positions_refused),
		cmocka_unit_test(test_fields_out_of_range_refused),
		cmocka_unit_test(test_view_moves_bounded),
		cmocka_unit_test(test_movelist_too_long),
		cmocka_unit_test(test_engine_position_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
