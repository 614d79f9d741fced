/*
 * The client's readers of server listings: the "moves N" move list (as
 * chessd and FICS print it), the players of "who" and the games of
 * "stored", and how a fetched move list joins the moves already on screen.
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
#include "listing.h"
#include "movelist.h"
#include "style12.h"

static struct movelist *parse(const char *const *lines)
{
	struct movelist *ml = malloc(sizeof *ml);

	assert_non_null(ml);
	movelist_init(ml);
	for (int i = 0; lines[i]; i++)
		movelist_feed(ml, lines[i]);
	return ml;
}

/* --- the move list --- */

static void test_movelist_server_format(void **state)
{
	static const char *const lines[] = {
		"Movelist for game 7:",
		"",
		"alice (1500) vs. bob (1612) --- Mon Nov 30, 14:34 UTC 2026",
		"Rated blitz match, initial time: 5 minutes, increment: 0 seconds.",
		"",
		"Move  alice                   bob",
		"----  ---------------------   ---------------------",
		"  1.  e4      (0:00.000)      e5      (0:01.204)",
		"  2.  Nf3     (0:02.310)      ",
		"",
		"      {Still in progress} *",
		NULL,
	};
	struct movelist *ml = parse(lines);

	(void)state;
	assert_true(movelist_complete(ml));
	assert_int_equal(ml->game, 7);
	assert_string_equal(ml->white, "alice");
	assert_string_equal(ml->black, "bob");
	assert_int_equal(ml->first_ply, 0);
	assert_int_equal(ml->count, 3);
	assert_string_equal(ml->san[0], "e4");
	assert_string_equal(ml->san[1], "e5");
	assert_string_equal(ml->san[2], "Nf3");
	assert_string_equal(ml->result, "*");
	free(ml);
}

static void test_movelist_black_first_and_seconds(void **state)
{
	/* A game set up with Black to move on move 5; times without milliseconds. */
	static const char *const lines[] = {
		"Movelist for game 12:",
		"GuestABCD (++++) vs. carol (----) --- Mon Nov 30, 14:34 UTC 2026",
		"Unrated lightning match, initial time: 1 minutes, increment: 0 seconds.",
		"Move  GuestABCD               carol",
		"----  ---------------------   ---------------------",
		"  5.  ...                     Nf6     (0:01)",
		"  6.  e5      (0:00)          Nd5     (0:03)",
		"  7.  exd6    (0:02)          O-O-O   (0:01)",
		"      {Game drawn by mutual agreement} 1/2-1/2",
		NULL,
	};
	struct movelist *ml = parse(lines);

	(void)state;
	assert_true(movelist_complete(ml));
	assert_int_equal(ml->game, 12);
	assert_string_equal(ml->white, "GuestABCD");
	assert_string_equal(ml->black, "carol");
	assert_int_equal(ml->first_ply, 9);
	assert_int_equal(ml->count, 5);
	assert_string_equal(ml->san[0], "Nf6");
	assert_string_equal(ml->san[3], "exd6");
	assert_string_equal(ml->san[4], "O-O-O");
	assert_string_equal(ml->result, "1/2-1/2");
	free(ml);
}

static void test_movelist_no_moves(void **state)
{
	static const char *const lines[] = {
		"Movelist for game 1:", "", "a (----) vs. b (----) --- Mon Nov 30, 14:34 UTC 2026",
		"Unrated blitz match, initial time: 5 minutes, increment: 0 seconds.", "",
		"Move  a                       b", "----  ---------------------   ---------------------",
		"      {Still in progress} *", NULL,
	};
	struct movelist *ml = parse(lines);

	(void)state;
	assert_true(movelist_complete(ml));
	assert_int_equal(ml->count, 0);
	free(ml);
}

static void test_movelist_rejects(void **state)
{
	static const char *const head[] = {
		"Movelist for game 3:", "x (----) vs. y (----) --- date",
		"----  ---------------------   ---------------------",
	};
	static const struct { const char *what; const char *moves[4]; } cases[] = {
		{ "a gap in the numbers", { "  1.  e4 (0:00)  e5 (0:00)", "  3.  Nf3 (0:00)" } },
		{ "a line after a lone White move", { "  1.  e4 (0:00)", "  2.  Nf3 (0:00)" } },
		{ "a number that is not the first", { "  1.  e4 (0:00)  e5 (0:00)", "  1.  d4 (0:00)" } },
		{ "three moves on a line", { "  1.  e4 (0:00)  e5 (0:00)  Nf3 (0:00)" } },
		{ "\"...\" after the first line", { "  1.  e4 (0:00)  e5 (0:00)", "  2.  ...  Nc6 (0:00)" } },
		{ "a stray line", { "  1.  e4 (0:00)  e5 (0:00)", "Your opponent has lost contact" } },
		{ "a move number only", { "  1." } },
		{ "an over-long move", { "  1.  e4abcdefghijklmnopq (0:00)" } },
		{ "no result line", { "  1.  e4 (0:00)" } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct movelist *ml = malloc(sizeof *ml);
		assert_non_null(ml);
		movelist_init(ml);
		for (size_t k = 0; k < 3; k++)
			movelist_feed(ml, head[k]);
		for (int k = 0; k < 4 && cases[i].moves[k]; k++)
			movelist_feed(ml, cases[i].moves[k]);
		if (strcmp(cases[i].what, "no result line"))
			movelist_feed(ml, "      {Still in progress} *");
		if (movelist_complete(ml))
			fail_msg("accepted: %s", cases[i].what);
		free(ml);
	}
	/* Without the "Movelist for game" line nothing is taken. */
	static const char *const headless[] = {
		"x (----) vs. y (----) --- date", "----  ---------------------", "  1.  e4 (0:00)",
		"      {Still in progress} *", NULL,
	};
	struct movelist *ml = parse(headless);
	assert_false(movelist_complete(ml));
	free(ml);
	/* A game number too big for an int is no header (and no overflow). */
	static const char *const huge[] = {
		"Movelist for game 99999999999999999999:", "x (----) vs. y (----) --- date",
		"----  ---------------------", "  1.  e4 (0:00)", "      {Still in progress} *", NULL,
	};
	ml = parse(huge);
	assert_false(movelist_complete(ml));
	free(ml);
}

/* --- who and stored --- */

static void test_who_names(void **state)
{
	static const struct { const char *line; int count; const char *first, *last; } cases[] = {
		{ "---- alice", 1, "alice", "alice" },
		{ "----.bob(C)", 1, "bob", "bob" },
		{ "++++ GuestABCD(U)", 1, "GuestABCD", "GuestABCD" },
		{ "1500^carol(*)(TD)   1612.dave       ++++ GuestWXYZ(U)", 3, "carol", "GuestWXYZ" },
		{ "1834P:erin", 1, "erin", "erin" },
		{ "", 0, NULL, NULL },
		{ "2 players displayed (of 2). (*) indicates system administrator.", 0, NULL, NULL },
		{ "10 1500 alice 3 0 rated blitz 0-9999", 0, NULL, NULL },
		{ "Finger of alice:", 0, NULL, NULL },
		{ "---- al", 0, NULL, NULL },
		{ "---- alice(U", 0, NULL, NULL },
		{ "---- alice2", 0, NULL, NULL },
	};
	char names[LISTING_WHO_PER_LINE][STYLE12_NAME_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int n = listing_who_names(cases[i].line, names, LISTING_WHO_PER_LINE);
		if (n != cases[i].count)
			fail_msg("\"%s\": %d names, not %d", cases[i].line, n, cases[i].count);
		if (n) {
			assert_string_equal(names[0], cases[i].first);
			assert_string_equal(names[n - 1], cases[i].last);
		}
	}
}

static void test_stored_game(void **state)
{
	char opponent[STYLE12_NAME_MAX], color;

	(void)state;
	assert_int_equal(listing_stored_game(" 1: W bob            Y  [ lu  1   0] Mon Nov 30, 14:34 UTC 2026",
	    opponent, sizeof opponent, &color), 0);
	assert_string_equal(opponent, "bob");
	assert_int_equal(color, 'W');
	/* the server's line, with FICS's strength, next move and ECO columns */
	assert_int_equal(listing_stored_game(" 2: B carol          Y [ bu  5   0] 39-38 W3   ??? "
	    "Tue Dec  1, 10:18 UTC 2026", opponent, sizeof opponent, &color), 0);
	assert_string_equal(opponent, "carol");
	assert_int_equal(listing_stored_game("12: B alice          N  [ br  5   0] date", opponent,
	    sizeof opponent, &color), 0);
	assert_string_equal(opponent, "alice");
	assert_int_equal(color, 'B');
	assert_int_equal(listing_stored_game("Stored games for alice:", opponent, sizeof opponent,
	    &color), -1);
	assert_int_equal(listing_stored_game("    C Opponent       On Type          Date", opponent,
	    sizeof opponent, &color), -1);
	assert_int_equal(listing_stored_game(" 1: X bob            Y  [ lu  1   0] date", opponent,
	    sizeof opponent, &color), -1);
	assert_int_equal(listing_stored_game(" 0: W 1500 W ---- bob [ br  5   0] --- Res date",
	    opponent, sizeof opponent, &color), -1);
}

/* --- a fetched list joins the game on screen --- */

/* 1. e4 e5 2. Nf3 Nc6 3. Bb5, as an observer of game 7 sees it. */
static const char *const observed[] = {
	"<12> rnbqkbnr pppp-ppp -------- ----p--- ----P--- -------- PPPP-PPP RNBQKBNR W 4 1 1 1 1 0 7 alice bob 0 5 0 39 39 298000 297000 2 P/e7-e5 (0:03.000) e5 0 1 0",
	"<12> r-bqkbnr pppp-ppp --n----- ----p--- ----P--- -----N-- PPPP-PPP RNBQKB-R W -1 1 1 1 1 2 7 alice bob 0 5 0 39 39 296000 295000 3 N/b8-c6 (0:02.000) Nc6 0 1 0",
	"<12> r-bqkbnr pppp-ppp --n----- -B--p--- ----P--- -----N-- PPPP-PPP RNBQK--R B -1 1 1 1 1 3 7 alice bob 0 5 0 39 39 294000 295000 3 B/f1-b5 (0:02.000) Bb5 0 1 0",
};

static const char four[][MOVE_TEXT_MAX] = { "e4", "e5", "Nf3", "Nc6" };

static struct game_view *view_at(enum san_lang lang, int from, int to)
{
	struct game_view *gv = game_view_new(lang);
	struct style12 s;

	assert_non_null(gv);
	for (int i = from; i <= to; i++) {
		assert_int_equal(style12_parse(observed[i], &s), 0);
		game_view_update(gv, &s, 1000);
	}
	return gv;
}

static void test_history_fills_the_start(void **state)
{
	(void)state;
	/* Joined at ply 4: no moves known, then the list of the first four. */
	struct game_view *gv = view_at(SAN_SPANISH, 1, 1);
	assert_int_equal(game_view_first_ply(gv), 4);
	assert_int_equal(game_view_move_count(gv), 0);
	assert_int_equal(game_view_set_history(gv, 7, "alice", "bob", 0, four, 4), 0);
	assert_int_equal(game_view_first_ply(gv), 0);
	assert_int_equal(game_view_move_count(gv), 4);
	assert_string_equal(game_view_move(gv, 2), "Cf3");	/* in the view's language */
	assert_string_equal(game_view_move(gv, 3), "Cc6");
	/* The next move extends the completed list. */
	struct style12 s;
	assert_int_equal(style12_parse(observed[2], &s), 0);
	game_view_update(gv, &s, 2000);
	assert_int_equal(game_view_move_count(gv), 5);
	assert_string_equal(game_view_move(gv, 4), "Ab5");
	game_view_free(gv);
}

static void test_history_keeps_later_moves(void **state)
{
	(void)state;
	/* Joined at ply 4, then 3. Bb5 came before the list (which reaches ply 4). */
	struct game_view *gv = view_at(SAN_ENGLISH, 1, 2);
	assert_int_equal(game_view_move_count(gv), 1);
	assert_int_equal(game_view_set_history(gv, 7, "alice", "bob", 0, four, 4), 0);
	assert_int_equal(game_view_move_count(gv), 5);
	assert_string_equal(game_view_move(gv, 0), "e4");
	assert_string_equal(game_view_move(gv, 4), "Bb5");
	/* A second, identical list changes nothing. */
	assert_int_equal(game_view_set_history(gv, 7, "alice", "bob", 0, four, 4), 0);
	assert_int_equal(game_view_move_count(gv), 5);
	assert_string_equal(game_view_move(gv, 3), "Nc6");
	game_view_free(gv);
}

static void test_history_rejects(void **state)
{
	static const char five[][MOVE_TEXT_MAX] = { "e4", "e5", "Nf3", "Nc6", "Bb5" };
	static const char other[][MOVE_TEXT_MAX] = { "d4", "d5", "Nf3", "Nf6" };

	(void)state;
	struct game_view *gv = view_at(SAN_SPANISH, 1, 1);
	assert_int_equal(game_view_set_history(gv, 8, "alice", "bob", 0, four, 4), -1);
	assert_int_equal(game_view_set_history(gv, 7, "alice", "carol", 0, four, 4), -1);
	/* Beyond the position on screen, or short of what is known. */
	assert_int_equal(game_view_set_history(gv, 7, "alice", "bob", 0, five, 5), -1);
	assert_int_equal(game_view_set_history(gv, 7, "alice", "bob", 0, four, 3), -1);
	assert_int_equal(game_view_move_count(gv), 0);
	assert_int_equal(game_view_first_ply(gv), 4);
	/* Moves that do not lead to the board on screen are kept as the server wrote them. */
	assert_int_equal(game_view_set_history(gv, 7, "alice", "bob", 0, other, 4), 0);
	assert_string_equal(game_view_move(gv, 2), "Nf3");
	game_view_free(gv);
	/* Nothing on screen: nothing to join. */
	gv = game_view_new(SAN_ENGLISH);
	assert_int_equal(game_view_set_history(gv, 7, "alice", "bob", 0, four, 4), -1);
	game_view_free(gv);
}

static void test_begin_and_stopped_clocks(void **state)
{
	struct game_view *gv = view_at(SAN_ENGLISH, 1, 1);

	(void)state;
	/* White's clock (296 s) runs from t=1000; the connection is lost at t=4000. */
	game_view_stop_clocks(gv, 4000);
	assert_int_equal(game_view_clock_ms(gv, WHITE, 10000), 293000);
	assert_int_equal(game_view_clock_ms(gv, BLACK, 10000), 295000);
	game_view_end(gv, "Game adjourned by mutual agreement", "*");
	assert_true(game_view_over(gv));
	game_view_begin(gv);			/* "Continuing" */
	assert_false(game_view_over(gv));
	game_view_free(gv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_movelist_server_format),
		cmocka_unit_test(test_movelist_black_first_and_seconds),
		cmocka_unit_test(test_movelist_no_moves),
		cmocka_unit_test(test_movelist_rejects),
		cmocka_unit_test(test_who_names),
		cmocka_unit_test(test_stored_game),
		cmocka_unit_test(test_history_fills_the_start),
		cmocka_unit_test(test_history_keeps_later_moves),
		cmocka_unit_test(test_history_rejects),
		cmocka_unit_test(test_begin_and_stopped_clocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
