/* Unit tests for common/trf.c: exact TRF-16 columns and export/import round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pairing.h"
#include "trf.h"

static char *export_all(const struct tourney *t)
{
	size_t len = trf_export(t, NULL, 0, NULL, 0);
	char *text = malloc(len + 1);

	assert_non_null(text);
	assert_int_equal(trf_export(t, NULL, 0, text, len + 1), len);
	assert_int_equal(strlen(text), len);
	return text;
}

/* Returns line n (0-based) of text in a static-free caller buffer. */
static void text_line(const char *text, int n, char *out, size_t outlen)
{
	while (n-- > 0) {
		text = strchr(text, '\n');
		assert_non_null(text);
		text++;
	}
	size_t len = strcspn(text, "\n");
	assert_true(len < outlen);
	memcpy(out, text, len);
	out[len] = '\0';
}

/* The 1-based columns from..to of line. */
static void expect_cols(const char *line, int from, int to, const char *want)
{
	char got[128];
	int n = to - from + 1;

	assert_true(strlen(line) >= (size_t)to);
	memcpy(got, line + from - 1, (size_t)n);
	got[n] = '\0';
	if (strcmp(got, want) != 0)
		fail_msg("columns %d-%d: '%s', expected '%s' in\n%s", from, to, got, want, line);
}

static struct tourney *sample(void)
{
	struct tourney *t = calloc(1, sizeof *t);

	assert_non_null(t);
	tourney_init(t, "Club Open 2024", 5);
	tourney_player_add(t, "Carlsen, Magnus", 2830);
	tourney_player_add(t, "Hou, Yifan", 2650);
	tourney_player_add(t, "Doe, John", 1800);
	t->players[1].sex = 'm';
	snprintf(t->players[1].title, sizeof t->players[1].title, "g");
	snprintf(t->players[1].federation, sizeof t->players[1].federation, "NOR");
	snprintf(t->players[1].fide_id, sizeof t->players[1].fide_id, "1503014");
	snprintf(t->players[1].birth, sizeof t->players[1].birth, "1990/11/30");
	t->players[2].sex = 'w';
	/* R1: 1-2 =, 3 bye U.  R2: 3-1 -+ (forfeit), 2 half-point bye. */
	tourney_game_add(t, 1, 1, 2, TOURNEY_RESULT_DRAW);
	tourney_bye_add(t, 1, 3, TOURNEY_BYE_PAIRING);
	tourney_game_add(t, 2, 3, 1, TOURNEY_RESULT_BLACK_FORFEIT);
	tourney_bye_add(t, 2, 2, TOURNEY_BYE_HALF);
	/* Requested in advance: 3 has a zero-point bye in round 4. */
	t->players[3].requested[4] = TOURNEY_BYE_ZERO;
	return t;
}

static void test_columns(void **state)
{
	struct tourney *t = sample();
	char *text = export_all(t), line[512];

	(void)state;
	text_line(text, 0, line, sizeof line);
	assert_string_equal(line, "012 Club Open 2024");
	text_line(text, 1, line, sizeof line);
	assert_string_equal(line, "XXR 5");
	text_line(text, 2, line, sizeof line);
	assert_string_equal(line, "XXC white1");

	text_line(text, 3, line, sizeof line);
	expect_cols(line, 1, 3, "001");
	expect_cols(line, 5, 8, "   1");
	expect_cols(line, 10, 10, "m");
	expect_cols(line, 11, 13, "  g");
	expect_cols(line, 15, 47, "Carlsen, Magnus                  ");
	expect_cols(line, 49, 52, "2830");
	expect_cols(line, 54, 56, "NOR");
	expect_cols(line, 58, 68, "    1503014");
	expect_cols(line, 70, 79, "1990/11/30");
	expect_cols(line, 81, 84, " 1.5");
	expect_cols(line, 86, 89, "   1");
	/* Round 1 at 92-99: opponent, colour, result; round 2 ten columns on. */
	expect_cols(line, 92, 99, "   2 w =");
	expect_cols(line, 102, 109, "   3 b +");
	assert_int_equal(strlen(line), 109);

	text_line(text, 4, line, sizeof line);
	expect_cols(line, 10, 10, "w");
	expect_cols(line, 81, 84, " 1.0");
	expect_cols(line, 92, 99, "   1 b =");
	expect_cols(line, 102, 109, "0000 - H");

	text_line(text, 5, line, sizeof line);
	expect_cols(line, 49, 52, "1800");
	expect_cols(line, 81, 84, " 1.0");
	/* Level with Hou on points and, with no tie-breaks asked for, on all. */
	expect_cols(line, 86, 89, "   2");
	expect_cols(line, 92, 99, "0000 - U");
	expect_cols(line, 102, 109, "   1 w -");
	/* Round 3 blank, round 4 the requested bye. */
	expect_cols(line, 112, 119, "        ");
	expect_cols(line, 122, 129, "0000 - Z");
	free(text);
	free(t);
}

/* A bye asked for a round the player has withdrawn from is not reported (nor granted). */
static void test_withdrawn_bye_not_reported(void **state)
{
	struct tourney *t = sample();
	char *text, line[512];

	(void)state;
	t->players[3].requested[5] = TOURNEY_BYE_HALF;
	t->players[3].withdrawn_round = 5;
	text = export_all(t);
	text_line(text, 5, line, sizeof line);
	expect_cols(line, 122, 129, "0000 - Z");
	assert_int_equal(strlen(line), 129);
	free(text);
	t->players[3].withdrawn_round = 4;
	text = export_all(t);
	text_line(text, 5, line, sizeof line);
	assert_int_equal(strlen(line), 109);
	free(text);
	free(t);
}

static void expect_round_trip(const struct tourney *t)
{
	struct tourney *back = calloc(1, sizeof *back);
	char *first = export_all(t), *second, err[128];

	assert_non_null(back);
	if (trf_import(back, first, strlen(first), err, sizeof err) < 0)
		fail_msg("import: %s\n%s", err, first);
	second = export_all(back);
	assert_string_equal(first, second);
	assert_int_equal(back->nplayers, t->nplayers);
	assert_int_equal(back->rounds_paired, t->rounds_paired);
	for (int p = 1; p <= t->nplayers; p++)
		assert_int_equal(tourney_score_half(back, p, back->rounds_paired),
		    tourney_score_half(t, p, t->rounds_paired));
	free(first);
	free(second);
	free(back);
}

/* The rank of player p in exported text (columns 86-89 of its 001 line). */
static int exported_rank(const char *text, int p)
{
	char line[512], num[8];

	text_line(text, 2 + p, line, sizeof line);
	assert_true(strlen(line) >= 89);
	memcpy(num, line + 85, 4);
	num[4] = '\0';
	return atoi(num);
}

/*
 * Columns 86-89 carry the published standings: tie-breaks included, the
 * same ranks tiebreak_standings() gives "tourney show".  Alice and Bob end
 * level on points; Bob's opponents scored more.
 */
static void test_rank_is_the_standings(void **state)
{
	struct tourney *t = calloc(1, sizeof *t);
	struct tiebreak_row rows[TOURNEY_PLAYERS_MAX + 1];
	char err[128];

	(void)state;
	assert_non_null(t);
	tourney_init(t, "Tie", 2);
	tourney_player_add(t, "Alice", 2000);
	tourney_player_add(t, "Bob", 1900);
	tourney_player_add(t, "Carol", 1800);
	tourney_player_add(t, "Dave", 1700);
	tourney_game_add(t, 1, 2, 3, TOURNEY_RESULT_WHITE_WINS);
	tourney_game_add(t, 1, 1, 4, TOURNEY_RESULT_WHITE_WINS);
	tourney_game_add(t, 2, 3, 4, TOURNEY_RESULT_WHITE_WINS);
	tourney_game_add(t, 2, 1, 2, TOURNEY_RESULT_DRAW);
	static const enum tiebreak order[] = { TIEBREAK_BUCHHOLZ, TIEBREAK_WINS };
	size_t len = trf_export(t, order, 2, NULL, 0);
	char *text = malloc(len + 1);
	assert_non_null(text);
	trf_export(t, order, 2, text, len + 1);
	/* Bob's Buchholz 2.5 beats Alice's 1.5, against the start order. */
	assert_int_equal(exported_rank(text, 2), 1);
	assert_int_equal(exported_rank(text, 1), 2);
	assert_int_equal(exported_rank(text, 3), 3);
	assert_int_equal(exported_rank(text, 4), 4);
	assert_int_equal(tiebreak_standings(t, t->rounds_paired, order, 2, rows, err, sizeof err), 0);
	for (int i = 0; i < t->nplayers; i++)
		assert_int_equal(exported_rank(text, rows[i].player), rows[i].rank);
	free(text);
	/* Without tie-breaks the two share first place, as the standings say. */
	text = export_all(t);
	assert_int_equal(exported_rank(text, 1), 1);
	assert_int_equal(exported_rank(text, 2), 1);
	assert_int_equal(exported_rank(text, 3), 3);
	free(text);
	free(t);
}

static void test_round_trip_sample(void **state)
{
	struct tourney *t = sample();
	struct tourney *back = calloc(1, sizeof *back);
	char *text = export_all(t), err[128];

	(void)state;
	expect_round_trip(t);
	assert_int_equal(trf_import(back, text, strlen(text), err, sizeof err), 0);
	assert_string_equal(back->name, "Club Open 2024");
	assert_string_equal(back->players[1].name, "Carlsen, Magnus");
	assert_string_equal(back->players[1].fide_id, "1503014");
	assert_int_equal(back->players[2].rating, 2650);
	assert_int_equal(back->players[3].requested[4], TOURNEY_BYE_ZERO);
	assert_int_equal(back->rounds_paired, 2);
	assert_int_equal(back->nrounds, 5);
	free(text);
	free(back);
	free(t);
}

static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Whole simulated Swiss events, with every result kind, survive the round trip. */
static void test_round_trip_swiss(void **state)
{
	uint64_t rng = 99;
	struct tourney_round *rd = calloc(1, sizeof *rd);
	char err[128];

	(void)state;
	for (int k = 0; k < 10; k++) {
		struct tourney *t = calloc(1, sizeof *t);
		int n = 9 + k * 3;
		tourney_init(t, "Sim", 6);
		t->pairing_bye_half = k % 2 ? TOURNEY_DRAW_HALF : TOURNEY_WIN_HALF;
		for (int p = 1; p <= n; p++)
			tourney_player_add(t, "Player", 2000 - p);
		for (int r = 1; r <= 6; r++) {
			for (int p = 1; p <= n; p++)
				if (rng_next(&rng) % 20 == 0)
					t->players[p].requested[r] = TOURNEY_BYE_HALF;
			assert_int_equal(pairing_dutch(t, r, rd, err, sizeof err), 0);
			for (int i = 0; i < rd->ngames; i++)
				rd->games[i].result = (enum tourney_result)(1 + rng_next(&rng) % 6);
			if (r == 6 && rd->ngames)
				rd->games[0].result = TOURNEY_RESULT_NONE;
			t->rounds[r] = *rd;
			t->rounds_paired = r;
		}
		expect_round_trip(t);
		free(t);
	}
	free(rd);
}

/* Offset of 1-based column col of line n (0-based) in text. */
static size_t column_offset(const char *text, int n, int col)
{
	const char *p = text;

	while (n-- > 0)
		p = strchr(p, '\n') + 1;
	return (size_t)(p - text) + (size_t)col - 1;
}

static void test_import_errors(void **state)
{
	struct tourney *t = sample(), *back = calloc(1, sizeof *back);
	char *text = export_all(t), err[128];
	size_t at;

	(void)state;
	/* Player 2's round 1 entry blanked: 1 meets 2, 2 meets nobody. */
	at = column_offset(text, 4, 92);
	memset(text + at, ' ', 8);
	assert_int_equal(trf_import(back, text, strlen(text), err, sizeof err), -1);
	assert_non_null(strstr(err, "does not meet"));
	free(text);
	text = export_all(t);
	text[column_offset(text, 3, 99)] = '7';
	assert_int_equal(trf_import(back, text, strlen(text), err, sizeof err), -1);
	assert_non_null(strstr(err, "bad result"));
	free(text);
	free(back);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_withdrawn_bye_not_reported),
		cmocka_unit_test(test_rank_is_the_standings),
		cmocka_unit_test(test_round_trip_sample),
		cmocka_unit_test(test_round_trip_swiss),
		cmocka_unit_test(test_import_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
