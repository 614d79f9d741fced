/* Unit tests for common/tiebreak.c: hand-computed tournaments with byes and forfeits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "tiebreak.h"

static struct tourney *new_event(int n, int rounds, enum tourney_system system)
{
	struct tourney *t = calloc(1, sizeof *t);
	assert_non_null(t);
	tourney_init(t, "tb", rounds);
	t->system = system;
	for (int p = 1; p <= n; p++) {
		char name[16];
		snprintf(name, sizeof name, "P%d", p);
		tourney_player_add(t, name, 2000);
	}
	return t;
}

static void expect_tb(const struct tourney *t, int p, enum tiebreak tb, double want)
{
	double got = tiebreak_value(t, t->rounds_paired, p, tb);
	if (got != want)
		fail_msg("player %d %s: %.2f, expected %.2f", p, tiebreak_name(tb), got, want);
}

/*
 * Swiss, 4 players, 3 rounds:
 *   R1: 1-2 1-0, 3-4 =
 *   R2: 1-3 =, 2 half-point bye (H), 4 pairing bye (U)
 *   R3: 1-4 +- (forfeit), 2-3 0-1
 * Scores: 1: 2.5, 2: 0.5, 3: 2.0, 4: 1.5.
 * 2's rounds after its last game (R1)... 2 played R3, so its H bye counts as is.
 * BH(1) = 2 (R1, 2 scored 0.5 -> 0.5) + R2 vs 3 (2.0) + R3 forfeit: dummy = own 2.5
 *       = 0.5 + 2.0 + 2.5 = 5.0; Cut-1 drops 0.5 -> 4.5.
 * SB(1) = 0.5 x 1 + 2.0 x 0.5 + 2.5 x 1 = 4.0.
 * BH(4) = R1 vs 3 (2.0) + R2 bye: own 1.5 + R3 forfeit loss: own 1.5 = 5.0.
 * SB(4) = 2.0 x 0.5 + 1.5 x 1 + 1.5 x 0 = 2.5.
 * WIN: 1 -> 2 (R1 win, R3 forfeit win), 4 -> 1 (U bye), 3 -> 1; WON: 1 -> 1, 4 -> 0.
 */
static void test_swiss_byes_forfeits(void **state)
{
	struct tourney *t = new_event(4, 3, TOURNEY_SWISS);

	(void)state;
	tourney_game_add(t, 1, 1, 2, TOURNEY_RESULT_WHITE_WINS);
	tourney_game_add(t, 1, 3, 4, TOURNEY_RESULT_DRAW);
	tourney_game_add(t, 2, 1, 3, TOURNEY_RESULT_DRAW);
	tourney_bye_add(t, 2, 2, TOURNEY_BYE_HALF);
	tourney_bye_add(t, 2, 4, TOURNEY_BYE_PAIRING);
	tourney_game_add(t, 3, 1, 4, TOURNEY_RESULT_WHITE_FORFEIT);
	tourney_game_add(t, 3, 2, 3, TOURNEY_RESULT_BLACK_WINS);
	assert_int_equal(tourney_score_half(t, 1, 3), 5);
	assert_int_equal(tourney_score_half(t, 2, 3), 1);
	assert_int_equal(tourney_score_half(t, 3, 3), 4);
	assert_int_equal(tourney_score_half(t, 4, 3), 3);
	expect_tb(t, 1, TIEBREAK_BUCHHOLZ, 5.0);
	expect_tb(t, 1, TIEBREAK_BUCHHOLZ_CUT1, 4.5);
	expect_tb(t, 1, TIEBREAK_SONNEBORN_BERGER, 4.0);
	expect_tb(t, 4, TIEBREAK_BUCHHOLZ, 5.0);
	expect_tb(t, 4, TIEBREAK_SONNEBORN_BERGER, 2.5);
	expect_tb(t, 1, TIEBREAK_WINS, 2);
	expect_tb(t, 1, TIEBREAK_WON, 1);
	expect_tb(t, 4, TIEBREAK_WINS, 1);
	expect_tb(t, 4, TIEBREAK_WON, 0);
	expect_tb(t, 3, TIEBREAK_WINS, 1);
	/*
	 * 3: R1 vs 4, whose R3 forfeit loss comes after its last game and counts
	 * as a draw (1.5 -> 2.0), + R2 vs 1 (2.5) + R3 vs 2 (0.5) = 5.0;
	 * SB = 2.0 x 0.5 + 2.5 x 0.5 + 0.5 x 1 = 2.75.
	 */
	expect_tb(t, 3, TIEBREAK_BUCHHOLZ, 5.0);
	expect_tb(t, 3, TIEBREAK_SONNEBORN_BERGER, 2.75);
	free(t);
}

/*
 * An opponent's late voluntarily unplayed rounds count as draws: 2 loses to
 * 1 in R1 then withdraws (absent R2, R3).  2's score 0 is adjusted to 1.0
 * for 1's Buchholz; 1's own unplayed rounds (R2 U bye, R3 absent... here a
 * Z bye) count its own score.
 */
static void test_swiss_withdrawn_opponent(void **state)
{
	struct tourney *t = new_event(3, 3, TOURNEY_SWISS);

	(void)state;
	tourney_game_add(t, 1, 1, 2, TOURNEY_RESULT_WHITE_WINS);
	tourney_bye_add(t, 1, 3, TOURNEY_BYE_PAIRING);
	t->players[2].withdrawn_round = 2;
	tourney_game_add(t, 2, 3, 1, TOURNEY_RESULT_DRAW);
	tourney_game_add(t, 3, 1, 3, TOURNEY_RESULT_DRAW);
	/* Scores: 1: 2.0, 2: 0, 3: 2.0.  BH(1) = adj(2) 1.0 + 3's 2.0 + 2.0 = 5.0. */
	expect_tb(t, 1, TIEBREAK_BUCHHOLZ, 5.0);
	/* Cut-1 drops the lowest, 1.0. */
	expect_tb(t, 1, TIEBREAK_BUCHHOLZ_CUT1, 4.0);
	/* BH(3) = R1 bye: own 2.0, R2 vs 1: 2.0, R3 vs 1: 2.0. */
	expect_tb(t, 3, TIEBREAK_BUCHHOLZ, 6.0);
	/* SB(1) = 1.0 x 1 + 2.0 x 0.5 + 2.0 x 0.5 = 3.0. */
	expect_tb(t, 1, TIEBREAK_SONNEBORN_BERGER, 3.0);
	free(t);
}

/*
 * Round robin of 4: a forfeit counts as a game played against the real
 * opponent.  R1 1-4 +-, 2-3 =; R2 4-3 0-1, 1-2 =; R3 2-4 1-0, 3-1 0-1.
 * Scores: 1: 2.5, 2: 2.0, 3: 1.5, 4: 0.
 * SB(1) = 0 x 1 + 2.0 x 0.5 + 1.5 x 1 = 2.5; BH(1) = 0 + 2 + 1.5 = 3.5.
 */
static void test_round_robin_forfeit(void **state)
{
	struct tourney *t = new_event(4, 3, TOURNEY_ROUND_ROBIN);

	(void)state;
	tourney_game_add(t, 1, 1, 4, TOURNEY_RESULT_WHITE_FORFEIT);
	tourney_game_add(t, 1, 2, 3, TOURNEY_RESULT_DRAW);
	tourney_game_add(t, 2, 4, 3, TOURNEY_RESULT_BLACK_WINS);
	tourney_game_add(t, 2, 1, 2, TOURNEY_RESULT_DRAW);
	tourney_game_add(t, 3, 2, 4, TOURNEY_RESULT_WHITE_WINS);
	tourney_game_add(t, 3, 3, 1, TOURNEY_RESULT_BLACK_WINS);
	expect_tb(t, 1, TIEBREAK_SONNEBORN_BERGER, 2.5);
	expect_tb(t, 1, TIEBREAK_BUCHHOLZ, 3.5);
	expect_tb(t, 1, TIEBREAK_WINS, 2);
	expect_tb(t, 1, TIEBREAK_WON, 1);
	free(t);
}

/*
 * Standings with direct encounter: 1, 2, 3 all on 1.5 of 3 in a 4-player
 * round robin, with 4 on 1.5 too; DE among all four (all met).
 * R1 1-4 1-0, 2-3 1-0; R2 4-3 1-0, 1-2 0-1; R3 2-4 0-1, 3-1 1-0.
 * Points: 1: 1, 2: 2, 3: 1, 4: 2.  Among 2 and 4 (tied on 2): 4 beat 2 -> 4 first.
 * Among 1 and 3 (tied on 1): 3 beat 1 -> 3 first.
 */
static void test_standings_direct_encounter(void **state)
{
	struct tourney *t = new_event(4, 3, TOURNEY_ROUND_ROBIN);
	struct tiebreak_row rows[4];
	enum tiebreak order[] = { TIEBREAK_DIRECT_ENCOUNTER, TIEBREAK_WINS };
	char err[64];

	(void)state;
	tourney_game_add(t, 1, 1, 4, TOURNEY_RESULT_WHITE_WINS);
	tourney_game_add(t, 1, 2, 3, TOURNEY_RESULT_WHITE_WINS);
	tourney_game_add(t, 2, 4, 3, TOURNEY_RESULT_WHITE_WINS);
	tourney_game_add(t, 2, 1, 2, TOURNEY_RESULT_BLACK_WINS);
	tourney_game_add(t, 3, 2, 4, TOURNEY_RESULT_BLACK_WINS);
	tourney_game_add(t, 3, 3, 1, TOURNEY_RESULT_WHITE_WINS);
	assert_int_equal(tiebreak_standings(t, 3, order, 2, rows, err, sizeof err), 0);
	assert_int_equal(rows[0].player, 4);
	assert_int_equal(rows[1].player, 2);
	assert_int_equal(rows[2].player, 3);
	assert_int_equal(rows[3].player, 1);
	assert_true(rows[0].value[0] == 1.0 && rows[1].value[0] == 0.0);
	assert_int_equal(rows[0].rank, 1);
	assert_int_equal(rows[1].rank, 2);
	/* Without tie-breaks equal points share a rank. */
	assert_int_equal(tiebreak_standings(t, 3, order, 0, rows, err, sizeof err), 0);
	assert_int_equal(rows[0].player, 2);
	assert_int_equal(rows[0].rank, 1);
	assert_int_equal(rows[1].player, 4);
	assert_int_equal(rows[1].rank, 1);
	assert_int_equal(rows[2].rank, 3);
	free(t);
}

static void test_standings_errors(void **state)
{
	struct tourney *t = new_event(2, 1, TOURNEY_SWISS);
	struct tiebreak_row rows[2];
	enum tiebreak bad[] = { (enum tiebreak)42 };
	char err[64] = "";

	(void)state;
	assert_int_equal(tiebreak_standings(t, 1, bad, 1, rows, err, sizeof err), -1);
	assert_true(err[0] != '\0');
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swiss_byes_forfeits),
		cmocka_unit_test(test_swiss_withdrawn_opponent),
		cmocka_unit_test(test_round_robin_forfeit),
		cmocka_unit_test(test_standings_direct_encounter),
		cmocka_unit_test(test_standings_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
