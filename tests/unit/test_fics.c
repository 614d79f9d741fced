/*
 * fics: every FICS format from a plain game view, line for line.  The
 * golden lines are FICS's own (shared/FICS.md, lasker), not our output
 * copied back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "fics.h"
#include "game.h"
#include "position.h"

/* 2026-11-30 14:34 UTC, the date in FICS.md's movelist. */
#define STARTED_UNIX 1796049240

struct fixture {
	struct clock_control tc;
	struct position *pos;
	struct game_ply plies[8];
	struct fics_game_view v;
};

/* Game 7, alice (1500) v bob (1612), rated, after the given moves with their times. */
static void fixture_make(struct fixture *f, const char *control, const char *const *moves,
    const int64_t *times_ms, int count)
{
	char err[128];

	memset(f, 0, sizeof *f);
	assert_int_equal(clock_parse(&f->tc, control, err, sizeof err), 0);
	f->pos = position_new(NULL, err, sizeof err);
	assert_non_null(f->pos);
	for (int i = 0; i < count; i++) {
		move played;
		assert_int_equal(position_play_text(f->pos, moves[i], SAN_ENGLISH, QUEEN, &played,
		    f->plies[i].san), SAN_OK);
		f->plies[i].time_ms = times_ms[i];
	}
	f->v = (struct fics_game_view){ .number = 7, .names = { "alice", "bob" },
	    .ratings = { "1500", "1612" }, .rated = true, .tc = &f->tc, .pos = f->pos,
	    .plies = f->plies, .clock_ms = { 300000, 300000 }, .seated = { true, true },
	    .last_verbose = "none", .last_dpp = -1, .started_unix = STARTED_UNIX };
}

static void fixture_free(struct fixture *f)
{
	position_free(f->pos);
}

static void style12_after_e4(void **state)
{
	static const char *const moves[] = { "e4" };
	static const int64_t times[] = { 0 };
	struct fixture f;
	char line[FICS_LINE_MAX];

	(void)state;
	fixture_make(&f, "5+0", moves, times, 1);
	f.v.last_verbose = "P/e2-e4";
	f.v.last_dpp = 4;
	fics_style12(&f.v, REL_THEIR_MOVE, true, false, line, sizeof line);
	assert_string_equal(line, "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- "
	    "PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 7 alice bob -1 5 0 39 39 300000 300000 1 P/e2-e4 "
	    "(0:00.000) e4 0 1 0");
	/* Seconds without iset ms; flip; a player away stops the clock. */
	f.v.seated[BLACK] = false;
	fics_style12(&f.v, REL_OBSERVING, false, true, line, sizeof line);
	assert_string_equal(line, "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- "
	    "PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 7 alice bob 0 5 0 39 39 300 300 1 P/e2-e4 "
	    "(0:00) e4 1 0 0");
	/* Both seated, the clocks paused by agreement: not ticking either. */
	f.v.seated[BLACK] = true;
	f.v.clock_stopped = true;
	fics_style12(&f.v, REL_THEIR_MOVE, true, false, line, sizeof line);
	assert_string_equal(line, "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- "
	    "PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 7 alice bob -1 5 0 39 39 300000 300000 1 P/e2-e4 "
	    "(0:00.000) e4 0 0 0");
	fixture_free(&f);
}

/* A delay is never shown as an increment: clients would add it on their own clocks. */
static void style12_delay_has_no_increment(void **state)
{
	struct fixture f;
	char line[FICS_LINE_MAX];

	(void)state;
	fixture_make(&f, "5d3", NULL, NULL, 0);
	fics_style12(&f.v, REL_MY_MOVE, true, false, line, sizeof line);
	assert_string_equal(line, "<12> rnbqkbnr pppppppp -------- -------- -------- -------- "
	    "PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 alice bob 1 5 0 39 39 300000 300000 1 none "
	    "(0:00.000) none 0 1 0");
	fixture_free(&f);
}

static void creation_and_intro(void **state)
{
	struct fixture f;
	char line[FICS_LINE_MAX];

	(void)state;
	fixture_make(&f, "5+0", NULL, NULL, 0);
	fics_creating(&f.v, line, sizeof line);
	assert_string_equal(line, "Creating: alice (1500) bob (1612) rated blitz 5 0");
	fics_game_intro(&f.v, false, line, sizeof line);
	assert_string_equal(line, "{Game 7 (alice vs. bob) Creating rated blitz match.}");
	fics_game_intro(&f.v, true, line, sizeof line);
	assert_string_equal(line, "{Game 7 (alice vs. bob) Continuing rated blitz match.}");
	fics_game_header(&f.v, line, sizeof line);
	assert_string_equal(line, "Game 7: alice (1500) bob (1612) rated blitz 5 0");
	f.v.rated = false;
	f.v.ratings[BLACK] = "----";
	fics_creating(&f.v, line, sizeof line);
	assert_string_equal(line, "Creating: alice (1500) bob (----) unrated blitz 5 0");
	fixture_free(&f);
}

/* What follows "Game notification: " for a gnotify listener. */
static void game_notification_line(void **state)
{
	struct fixture f;
	char line[FICS_LINE_MAX];

	(void)state;
	fixture_make(&f, "5+0", NULL, NULL, 0);
	fics_game_notification(&f.v, line, sizeof line);
	assert_string_equal(line, "alice (1500) vs. bob (1612) rated blitz 5 0: Game 7");
	f.v.rated = false;
	fics_game_notification(&f.v, line, sizeof line);
	assert_string_equal(line, "alice (1500) vs. bob (1612) unrated blitz 5 0: Game 7");
	fixture_free(&f);
}

static void end_lines(void **state)
{
	struct fixture f;
	char line[FICS_LINE_MAX];

	(void)state;
	fixture_make(&f, "5+0", NULL, NULL, 0);
	fics_end_line(&f.v, "bob resigns", "1-0", line, sizeof line);
	assert_string_equal(line, "{Game 7 (alice vs. bob) bob resigns} 1-0");
	fics_end_line(&f.v, "Game aborted by mutual agreement", "*", line, sizeof line);
	assert_string_equal(line, "{Game 7 (alice vs. bob) Game aborted by mutual agreement} *");
	fixture_free(&f);
}

static void games_lines(void **state)
{
	static const char *const moves[] = { "e4", "e5" };
	static const int64_t times[] = { 2000, 0 };
	struct fixture f;
	char line[FICS_LINE_MAX];

	(void)state;
	/* lasker's widths (%-11.11s, %-10.10s): FICS.md's sample drops a space. */
	fixture_make(&f, "5+0", moves, times, 2);
	f.v.clock_ms[WHITE] = 298000;
	fics_games_line(&f.v, line, sizeof line);
	assert_string_equal(line,
	    "  7 1500 alice       1612 bob        [ br  5   0]   4:58 -  5:00 (39-39) W:  2");
	/* An hour or more as h:mm:ss; below zero as 0:00 (lasker). */
	fixture_free(&f);
	fixture_make(&f, "90+0", moves, times, 2);
	f.v.clock_ms[WHITE] = 5426000;
	f.v.clock_ms[BLACK] = -1500;
	fics_games_line(&f.v, line, sizeof line);
	assert_string_equal(line,
	    "  7 1500 alice       1612 bob        [ sr 90   0] 1:30:26 -  0:00 (39-39) W:  2");
	/* An examined board: lasker's "Exam." (or "Setup") line, the side and move, no clocks. */
	f.v.examined = "Exam.";
	fics_games_line(&f.v, line, sizeof line);
	assert_string_equal(line, "  7 (Exam. 1500 alice       1612 bob       ) [ sr 90   0] W:  2");
	f.v.examined = "Setup";
	fics_games_line(&f.v, line, sizeof line);
	assert_string_equal(line, "  7 (Setup 1500 alice       1612 bob       ) [ sr 90   0] W:  2");
	fixture_free(&f);
}

/* lasker's printf format for a `games` line, the reference the formatter must match. */
static void games_line_reference(const struct fics_game_view *v, char *buf, size_t len)
{
	const struct board *b = v->setup_board ? v->setup_board : position_board(v->pos);
	long long min = 0, inc = 0, wc = v->clock_ms[WHITE] > 0 ? v->clock_ms[WHITE] / 1000 : 0,
	    bc = v->clock_ms[BLACK] > 0 ? v->clock_ms[BLACK] / 1000 : 0;
	char wt[32], bt[32];

	fics_time_numbers(v->tc, &min, &inc);
	if (wc >= 3600)
		snprintf(wt, sizeof wt, "%lld:%02lld:%02lld", wc / 3600, wc / 60 % 60, wc % 60);
	else
		snprintf(wt, sizeof wt, "%lld:%02lld", wc / 60, wc % 60);
	if (bc >= 3600)
		snprintf(bt, sizeof bt, "%lld:%02lld:%02lld", bc / 3600, bc / 60 % 60, bc % 60);
	else
		snprintf(bt, sizeof bt, "%lld:%02lld", bc / 60, bc % 60);
	if (v->examined)
		snprintf(buf, len, "%3d (%s %4s %-11.11s %4s %-10.10s) [%c%c%c%3lld %3lld] %c: %2d",
		    v->number, v->examined, v->ratings[WHITE], v->names[WHITE], v->ratings[BLACK],
		    v->names[BLACK], v->private_game ? 'p' : ' ',
		    clock_category_letter(clock_category(v->tc)), v->rated ? 'r' : 'u', min, inc,
		    b->side == WHITE ? 'W' : 'B', b->fullmove_number);
	else
		snprintf(buf, len, "%3d %4s %-11.11s %4s %-10.10s [%c%c%c%3lld %3lld] %6s -%6s "
		    "(%2d-%2d) %c: %2d", v->number, v->ratings[WHITE], v->names[WHITE],
		    v->ratings[BLACK], v->names[BLACK], v->private_game ? 'p' : ' ',
		    clock_category_letter(clock_category(v->tc)), v->rated ? 'r' : 'u', min, inc, wt,
		    bt, fics_material(b, WHITE), fics_material(b, BLACK), b->side == WHITE ? 'W' : 'B',
		    b->fullmove_number);
}

/* Every field at its edges: widths filled, overflowed and cut, clocks from 0 to 100 hours. */
static void games_lines_as_printf(void **state)
{
	static const struct {
		const char *control, *white, *black, *wr, *br, *examined;
		int number;
		bool rated, private_game;
		int64_t wc_ms, bc_ms;
	} cases[] = {
		{ "5+0", "alice", "bob", "1500", "1612", NULL, 7, true, false, 298000, 300000 },
		{ "1+0", "Abcdefghijklmnopq", "Abcdefghijklmnopq", "1517P", "++++", NULL, 1, false,
		    true, 59999, 999 },
		{ "90+30", "Abcdefghijk", "Abcdefghij", "987", "----", NULL, 2000, true, true,
		    5400000, 3599999 },
		{ "3+12", "a", "b", "++++", "2345P", NULL, 12, false, false, -1500, 0 },
		{ "-", "GuestABCD", "GuestWXYZ", "++++", "++++", NULL, 123, false, false, 0, 0 },
		{ "120+60", "x", "y", "99", "1", NULL, 99999, true, false, 360000000, 36000000 },
		{ "0+0", "x", "y", "", "12345678", NULL, 5, true, false, 150000, 1000 },
		{ "5+0", "Abcdefghijklmnopq", "bob", "1600", "1450P", "Exam.", 3, false, false, 0, 0 },
		{ "-", "GuestABCD", "GuestABCD", "++++", "++++", "Setup", 100, false, true, 0, 0 },
	};
	static const char *const moves[] = { "e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5" };
	static const int64_t times[] = { 0, 0, 0, 0, 0, 0 };
	char want[FICS_LINE_MAX], got[FICS_LINE_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int plies = 0; plies <= 6; plies += 3) {
			struct fixture f;
			fixture_make(&f, cases[i].control, moves, times, plies);
			f.v.number = cases[i].number;
			f.v.names[WHITE] = cases[i].white;
			f.v.names[BLACK] = cases[i].black;
			f.v.ratings[WHITE] = cases[i].wr;
			f.v.ratings[BLACK] = cases[i].br;
			f.v.examined = cases[i].examined;
			f.v.rated = cases[i].rated;
			f.v.private_game = cases[i].private_game;
			f.v.clock_ms[WHITE] = cases[i].wc_ms;
			f.v.clock_ms[BLACK] = cases[i].bc_ms;
			games_line_reference(&f.v, want, sizeof want);
			size_t n = fics_games_line(&f.v, got, sizeof got);
			assert_string_equal(got, want);
			assert_int_equal(n, strlen(want));
			/* Cut as snprintf cuts, ended within the buffer. */
			n = fics_games_line(&f.v, got, 20);
			assert_int_equal(n, 19);
			assert_memory_equal(got, want, 19);
			assert_int_equal(got[19], '\0');
			fixture_free(&f);
		}
	}
}

static void gameinfo_line(void **state)
{
	struct fixture f;
	char line[FICS_LINE_MAX];

	(void)state;
	fixture_make(&f, "5+0", NULL, NULL, 0);
	f.v.guest[BLACK] = true;
	f.v.timeseal[WHITE] = true;
	fics_gameinfo(&f.v, line, sizeof line);
	assert_string_equal(line, "<g1> 7 p=0 t=blitz r=1 u=0,1 it=300,300 i=0,0 pt=0 "
	    "rt=1500,1612 ts=1,0 m=2 n=0");
	fixture_free(&f);
}

static void movelist_header_and_moves(void **state)
{
	struct fixture f;
	char text[FICS_BOARD_MAX];
	const char *names[2] = { "alice", "bob" }, *ratings[2] = { "1500", "1612" };

	(void)state;
	fixture_make(&f, "5+0", NULL, NULL, 0);
	fics_movelist_header(names, ratings, STARTED_UNIX, true, &f.tc, text, sizeof text);
	assert_string_equal(text,
	    "alice (1500) vs. bob (1612) --- Mon Nov 30, 14:34 UTC 2026\n"
	    "Rated blitz match, initial time: 5 minutes, increment: 0 seconds.\n"
	    "\n"
	    "Move  alice                   bob\n"
	    "----  ---------------------   ---------------------\n");
	fixture_free(&f);
	/* xboard reads a delay control in the words it reads for an increment. */
	fixture_make(&f, "5d3", NULL, NULL, 0);
	fics_movelist_header(names, ratings, STARTED_UNIX, false, &f.tc, text, sizeof text);
	assert_non_null(strstr(text,
	    "\nUnrated blitz match, initial time: 5 minutes, increment: 0 seconds.\n\n"));
	fixture_free(&f);

	char line[FICS_LINE_MAX], joined[FICS_BOARD_MAX] = "";
	fics_movelist_move(1, true, true, "e4", 0, line, sizeof line);
	strcat(joined, line);
	fics_movelist_move(1, false, false, "e5", 1204, line, sizeof line);
	strcat(joined, line);
	fics_movelist_move(2, true, false, "Nf3", 2310, line, sizeof line);
	strcat(joined, line);
	assert_string_equal(joined,
	    "  1.  e4      (0:00.000)      e5      (0:01.204)\n"
	    "  2.  Nf3     (0:02.310)    ");
	/* A list that starts with black's move. */
	fics_movelist_move(12, false, true, "Kg7", 61000, line, sizeof line);
	assert_string_equal(line, " 12.  ...                     Kg7     (1:01.000)\n");
}

/*
 * Controls FICS has no form for: every line a client parses carries the
 * first period's minutes and the Fischer increment (never a delay).
 */
static void club_controls_as_fics_numbers(void **state)
{
	static const struct {
		const char *control;
		long long min, inc;
		const char *creating;
	} cases[] = {
		{ "40/90,30+30", 90, 30, "Creating: alice (1500) bob (1612) rated standard 90 30" },
		{ "40/120,20/60,30", 120, 0, "Creating: alice (1500) bob (1612) rated standard 120 0" },
		{ "40/100,20/50,10/10,15d30", 100, 0,
		    "Creating: alice (1500) bob (1612) rated standard 100 0" },
		{ "5d3", 5, 0, "Creating: alice (1500) bob (1612) rated blitz 5 0" },
		{ "0.5+1", 1, 1, "Creating: alice (1500) bob (1612) rated lightning 1 1" },
		{ "2 12", 2, 12, "Creating: alice (1500) bob (1612) rated blitz 2 12" },
	};
	struct fixture f;
	char line[FICS_LINE_MAX], text[FICS_BOARD_MAX], want[FICS_LINE_MAX];
	const char *names[2] = { "alice", "bob" }, *ratings[2] = { "1500", "1612" };

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		long long min = -1, inc = -1;
		fixture_make(&f, cases[i].control, NULL, NULL, 0);
		fics_time_numbers(&f.tc, &min, &inc);
		assert_int_equal(min, cases[i].min);
		assert_int_equal(inc, cases[i].inc);
		fics_creating(&f.v, line, sizeof line);
		assert_string_equal(line, cases[i].creating);
		fics_game_header(&f.v, line, sizeof line);
		snprintf(want, sizeof want, "Game 7: %s", cases[i].creating + strlen("Creating: "));
		assert_string_equal(line, want);
		fics_movelist_header(names, ratings, STARTED_UNIX, true, &f.tc, text, sizeof text);
		snprintf(want, sizeof want, "match, initial time: %lld minutes, increment: %lld "
		    "seconds.\n\n", cases[i].min, cases[i].inc);
		assert_non_null(strstr(text, want));
		fics_style12(&f.v, REL_MY_MOVE, true, false, line, sizeof line);
		snprintf(want, sizeof want, " alice bob 1 %lld %lld 39 39 ", cases[i].min, cases[i].inc);
		assert_non_null(strstr(line, want));
		assert_int_equal(fics_time_plain(&f.tc), !strcmp(cases[i].control, "2 12"));
		fixture_free(&f);
	}
}

static void clock_texts(void **state)
{
	char buf[32];

	(void)state;
	fics_clock_text(299999, buf, sizeof buf);
	assert_string_equal(buf, "4:59");
	fics_clock_text(-61000, buf, sizeof buf);
	assert_string_equal(buf, "-1:01");
	fics_clock_text(3600000, buf, sizeof buf);
	assert_string_equal(buf, "1:00:00");
	fics_time_taken(-5, true, buf, sizeof buf);
	assert_string_equal(buf, "(0:00.000)");
	fics_time_taken(83456, false, buf, sizeof buf);
	assert_string_equal(buf, "(1:23)");
}

/* The board for people, from White's side and from Black's. */
static void style1_board(void **state)
{
	static const char *const moves[] = { "e4" };
	static const int64_t times[] = { 3000 };
	struct fixture f;
	char board[FICS_BOARD_MAX];

	(void)state;
	fixture_make(&f, "5+0", moves, times, 1);
	f.v.clock_ms[WHITE] = 297000;
	fics_style1(&f.v, false, board, sizeof board);
	assert_string_equal(board,
	    "Game 7 (alice vs. bob)\n"
	    "\n"
	    "       ---------------------------------\n"
	    "    8  | *R| *N| *B| *Q| *K| *B| *N| *R|     Move # : 1 (Black)\n"
	    "       |---+---+---+---+---+---+---+---|\n"
	    "    7  | *P| *P| *P| *P| *P| *P| *P| *P|     White moves : e4 (0:03)\n"
	    "       |---+---+---+---+---+---+---+---|\n"
	    "    6  |   |   |   |   |   |   |   |   |\n"
	    "       |---+---+---+---+---+---+---+---|\n"
	    "    5  |   |   |   |   |   |   |   |   |     Black Clock : 5:00\n"
	    "       |---+---+---+---+---+---+---+---|\n"
	    "    4  |   |   |   |   | P |   |   |   |     White Clock : 4:57\n"
	    "       |---+---+---+---+---+---+---+---|\n"
	    "    3  |   |   |   |   |   |   |   |   |\n"
	    "       |---+---+---+---+---+---+---+---|\n"
	    "    2  | P | P | P | P |   | P | P | P |\n"
	    "       |---+---+---+---+---+---+---+---|\n"
	    "    1  | R | N | B | Q | K | B | N | R |\n"
	    "       ---------------------------------\n"
	    "         a   b   c   d   e   f   g   h");
	fics_style1(&f.v, true, board, sizeof board);
	assert_non_null(strstr(board, "    1  | R | N | B | K | Q | B | N | R |     Move # : 1 (Black)\n"));
	assert_non_null(strstr(board, "\n         h   g   f   e   d   c   b   a"));
	fixture_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(style12_after_e4),
		cmocka_unit_test(style12_delay_has_no_increment),
		cmocka_unit_test(creation_and_intro),
		cmocka_unit_test(game_notification_line),
		cmocka_unit_test(end_lines),
		cmocka_unit_test(games_lines),
		cmocka_unit_test(games_lines_as_printf),
		cmocka_unit_test(gameinfo_line),
		cmocka_unit_test(movelist_header_and_moves),
		cmocka_unit_test(club_controls_as_fics_numbers),
		cmocka_unit_test(clock_texts),
		cmocka_unit_test(style1_board),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
