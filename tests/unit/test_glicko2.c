/* Unit tests for common/glicko2.c: Glickman's example, games, idle growth, edges. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "glicko2.h"

/* The largest rating change one game can cause: phi'^2 <= RD_MAX^2 + VOLATILITY_MAX^2. */
#define GAME_CHANGE_MAX	(GLICKO2_RD_MAX * GLICKO2_RD_MAX / GLICKO2_SCALE + \
    GLICKO2_VOLATILITY_MAX * GLICKO2_VOLATILITY_MAX * GLICKO2_SCALE)

static void expect_near(const char *what, double got, double want, double tolerance)
{
	if (!(fabs(got - want) <= tolerance))
		fail_msg("%s is %.9g, expected %.9g (+-%g)", what, got, want, tolerance);
}

static void expect_within(const char *what, double got, double lo, double hi)
{
	if (!(got >= lo && got <= hi))
		fail_msg("%s is %.9g, expected within [%g, %g]", what, got, lo, hi);
}

static struct glicko2_rating rating_make(double rating, double rd, double volatility)
{
	return (struct glicko2_rating){ rating, rd, volatility };
}

/* Glickman's worked example, to the four decimals TOURNAMENTS.md gives. */
static void test_glickman_example(void **state)
{
	(void)state;
	struct glicko2_rating player = rating_make(1500, 200, 0.06), out;
	const struct glicko2_result results[] = {
		{ { 1400, 30, 0.06 }, 1.0 },
		{ { 1550, 100, 0.06 }, 0.0 },
		{ { 1700, 300, 0.06 }, 0.0 },
	};

	glicko2_update(&player, results, 3, 0.5, &out);
	expect_near("r'", out.rating, 1464.0507, 0.01);
	expect_near("RD'", out.rd, 151.5165, 0.01);
	expect_near("sigma'", out.volatility, 0.059996, 0.0001);
	/* Tighter than the brief's tolerance: the iteration really converged. */
	expect_near("sigma' (1e-6)", out.volatility, 0.059996, 1e-6);

	/* out may be the player itself. */
	glicko2_update(&player, results, 3, 0.5, &player);
	expect_near("aliased r'", player.rating, out.rating, 0.0);
	expect_near("aliased RD'", player.rd, out.rd, 0.0);
	expect_near("aliased sigma'", player.volatility, out.volatility, 0.0);
}

/* A bad tau falls back to GLICKO2_TAU; another tau gives another volatility. */
static void test_tau(void **state)
{
	(void)state;
	struct glicko2_rating player = rating_make(1500, 200, 0.06), def, zero, nan_tau, big;
	const struct glicko2_result results[] = {
		{ { 2100, 60, 0.06 }, 1.0 },
		{ { 2200, 60, 0.06 }, 1.0 },
	};

	glicko2_update(&player, results, 2, GLICKO2_TAU, &def);
	glicko2_update(&player, results, 2, 0.0, &zero);
	glicko2_update(&player, results, 2, NAN, &nan_tau);
	glicko2_update(&player, results, 2, 1.2, &big);
	expect_near("tau 0 sigma'", zero.volatility, def.volatility, 0.0);
	expect_near("tau NaN sigma'", nan_tau.volatility, def.volatility, 0.0);
	/* Two big upsets: volatility rises, and more so with a larger tau. */
	if (!(def.volatility > 0.06))
		fail_msg("upsets left sigma' at %.9g", def.volatility);
	if (!(big.volatility > def.volatility))
		fail_msg("tau 1.2 sigma' %.9g not above tau 0.5 sigma' %.9g", big.volatility,
		    def.volatility);
}

/* Results as expected lower the volatility. */
static void test_volatility_falls_when_predictable(void **state)
{
	(void)state;
	struct glicko2_rating player = rating_make(1500, 80, 0.06), out;
	const struct glicko2_result results[] = {
		{ { 1500, 80, 0.06 }, 0.5 },
		{ { 1500, 80, 0.06 }, 0.5 },
		{ { 1500, 80, 0.06 }, 0.5 },
	};

	glicko2_update(&player, results, 3, GLICKO2_TAU, &out);
	expect_near("r'", out.rating, 1500, 0.0);
	if (!(out.volatility < 0.06))
		fail_msg("three expected draws left sigma' at %.9g", out.volatility);
	expect_within("sigma'", out.volatility, 0.05, 0.06);
}

/* No games: rating and volatility stay, RD grows to sqrt(phi^2 + sigma^2). */
static void test_no_games(void **state)
{
	(void)state;
	struct glicko2_rating player = rating_make(1612.5, 200, 0.06), out;
	double phi = 200 / GLICKO2_SCALE;
	double want = sqrt(phi * phi + 0.06 * 0.06) * GLICKO2_SCALE;

	glicko2_update(&player, NULL, 0, GLICKO2_TAU, &out);
	expect_near("rating", out.rating, 1612.5, 0.0);
	expect_near("RD", out.rd, want, 1e-9);
	expect_near("volatility", out.volatility, 0.06, 0.0);
	if (!(out.rd > 200))
		fail_msg("RD did not grow: %.9g", out.rd);

	/* Near the ceiling, growth stops at the new-player RD. */
	player.rd = 349.9;
	glicko2_update(&player, NULL, 0, GLICKO2_TAU, &out);
	expect_near("capped RD", out.rd, GLICKO2_RD_MAX, 0.0);
}

/* A decisive game between equals: the winner rises, the loser falls, by the same amount. */
static void test_game_win(void **state)
{
	(void)state;
	struct glicko2_rating white = rating_make(1500, 200, 0.06), black = white;
	struct glicko2_rating new_white, new_black;

	glicko2_game(&white, &black, 1.0, GLICKO2_TAU, &new_white, &new_black);
	if (!(new_white.rating > white.rating))
		fail_msg("winner went from %.9g to %.9g", white.rating, new_white.rating);
	if (!(new_black.rating < black.rating))
		fail_msg("loser went from %.9g to %.9g", black.rating, new_black.rating);
	expect_near("change sum", (new_white.rating - white.rating) +
	    (new_black.rating - black.rating), 0.0, 1e-9);
	expect_near("RDs equal", new_white.rd, new_black.rd, 1e-9);
	if (!(new_white.rd < white.rd))
		fail_msg("a game did not lower the RD: %.9g", new_white.rd);

	/* The same game with colours reversed mirrors it. */
	struct glicko2_rating mirror_white, mirror_black;
	glicko2_game(&black, &white, 0.0, GLICKO2_TAU, &mirror_white, &mirror_black);
	expect_near("mirror winner", mirror_black.rating, new_white.rating, 1e-9);
	expect_near("mirror loser", mirror_white.rating, new_black.rating, 1e-9);
}

/* Equal RDs and volatilities but different ratings: changes still sum to zero. */
static void test_game_zero_sum(void **state)
{
	(void)state;
	static const double scores[] = { 0.0, 0.5, 1.0 };
	struct glicko2_rating white = rating_make(1720, 120, 0.07);
	struct glicko2_rating black = rating_make(1430, 120, 0.07);

	for (size_t i = 0; i < sizeof scores / sizeof scores[0]; i++) {
		struct glicko2_rating nw, nb;
		glicko2_game(&white, &black, scores[i], GLICKO2_TAU, &nw, &nb);
		expect_near("change sum", (nw.rating - white.rating) + (nb.rating - black.rating),
		    0.0, 1e-9);
		if (scores[i] == 0.5 && !(nw.rating < white.rating))
			fail_msg("favourite's draw raised %.9g to %.9g", white.rating, nw.rating);
	}
}

/* A draw between equals moves no rating; the RD falls, the volatility barely moves. */
static void test_game_draw_equals(void **state)
{
	(void)state;
	struct glicko2_rating white = rating_make(1837, 90, 0.06), black = white;
	struct glicko2_rating nw, nb;

	glicko2_game(&white, &black, 0.5, GLICKO2_TAU, &nw, &nb);
	expect_near("white rating", nw.rating, 1837, 0.0);
	expect_near("black rating", nb.rating, 1837, 0.0);
	if (!(nw.rd < 90 && nb.rd < 90))
		fail_msg("RDs %.9g %.9g did not fall", nw.rd, nb.rd);
	expect_near("white sigma'", nw.volatility, 0.06, 0.001);
	expect_near("black sigma'", nb.volatility, 0.06, 0.001);
}

/* glicko2_game is two one-game updates from the pre-game ratings, even when outputs alias inputs. */
static void test_game_is_two_updates(void **state)
{
	(void)state;
	struct glicko2_rating white = rating_make(1380, 240, 0.05);
	struct glicko2_rating black = rating_make(1655, 70, 0.08);
	struct glicko2_result vs_black = { black, 0.5 }, vs_white = { white, 0.5 };
	struct glicko2_rating want_white, want_black;

	glicko2_update(&white, &vs_black, 1, GLICKO2_TAU, &want_white);
	glicko2_update(&black, &vs_white, 1, GLICKO2_TAU, &want_black);
	glicko2_game(&white, &black, 0.5, GLICKO2_TAU, &white, &black);
	expect_near("white rating", white.rating, want_white.rating, 0.0);
	expect_near("white RD", white.rd, want_white.rd, 0.0);
	expect_near("white sigma", white.volatility, want_white.volatility, 0.0);
	expect_near("black rating", black.rating, want_black.rating, 0.0);
	expect_near("black RD", black.rd, want_black.rd, 0.0);
	expect_near("black sigma", black.volatility, want_black.volatility, 0.0);
	/* The underdog's draw is worth more to the uncertain player. */
	if (!(white.rating > 1380 && black.rating < 1655))
		fail_msg("draw gave %.9g / %.9g", white.rating, black.rating);
}

static void test_expected(void **state)
{
	(void)state;
	struct glicko2_rating a = rating_make(1500, 200, 0.06), b = a;
	struct glicko2_rating favourite = rating_make(1900, 0, 0.06);
	struct glicko2_rating underdog = rating_make(1500, 0, 0.06);
	/* With g = 1 the Glicko-2 expectation is Elo's: 1 / (1 + 10^(-400/400)). */
	double elo = 1.0 / (1.0 + pow(10.0, -400.0 / 400.0));

	expect_near("equals", glicko2_expected(&a, &b), 0.5, 1e-12);
	expect_near("400-point favourite", glicko2_expected(&favourite, &underdog), elo, 1e-6);
	expect_near("400-point favourite ~0.909", glicko2_expected(&favourite, &underdog),
	    0.909, 0.001);
	expect_near("underdog", glicko2_expected(&underdog, &favourite), 1.0 - elo, 1e-6);

	/* An uncertain opponent pulls the expectation towards 0.5. */
	underdog.rd = 350;
	double vague = glicko2_expected(&favourite, &underdog);
	expect_within("against RD 350", vague, 0.5, elo - 0.05);
	/* Only b's RD counts. */
	favourite.rd = 350;
	underdog.rd = 0;
	expect_near("a's RD ignored", glicko2_expected(&favourite, &underdog), elo, 1e-6);

	/* Huge gaps saturate without NaN. */
	struct glicko2_rating far = rating_make(1e300, 0, 0.06);
	expect_near("huge gap", glicko2_expected(&far, &underdog), 1.0, 0.0);
	expect_near("huge gap, reversed", glicko2_expected(&underdog, &far), 0.0, 0.0);
}

/* Every combination of extreme inputs gives finite ratings within the bounds. */
static void test_extreme_inputs(void **state)
{
	(void)state;
	static const double ratings[] = { 0, 4000 };
	static const double rds[] = { 1, 350 };
	static const double volatilities[] = { 1e-9, 1 };
	static const double scores[] = { 0, 0.5, 1 };
	struct glicko2_rating all[8];
	int count = 0;

	for (int r = 0; r < 2; r++)
		for (int d = 0; d < 2; d++)
			for (int v = 0; v < 2; v++)
				all[count++] = rating_make(ratings[r], rds[d], volatilities[v]);

	for (int i = 0; i < count; i++) {
		for (int j = 0; j < count; j++) {
			for (int s = 0; s < 3; s++) {
				struct glicko2_rating nw, nb;
				const struct glicko2_rating *w = &all[i], *b = &all[j];
				glicko2_game(w, b, scores[s], GLICKO2_TAU, &nw, &nb);
				const struct glicko2_rating *got[2] = { &nw, &nb };
				const struct glicko2_rating *was[2] = { w, b };
				double score[2] = { scores[s], 1 - scores[s] };
				for (int k = 0; k < 2; k++) {
					double change = got[k]->rating - was[k]->rating;
					if (!isfinite(got[k]->rating) || !isfinite(got[k]->rd) ||
					    !isfinite(got[k]->volatility))
						fail_msg("%d vs %d score %g: not finite", i, j, scores[s]);
					expect_within("rating change", change, -GAME_CHANGE_MAX,
					    GAME_CHANGE_MAX);
					expect_within("RD", got[k]->rd, GLICKO2_RD_MIN, GLICKO2_RD_MAX);
					expect_within("volatility", got[k]->volatility,
					    GLICKO2_VOLATILITY_MIN, GLICKO2_VOLATILITY_MAX);
					if (score[k] == 1 && change < 0)
						fail_msg("%d vs %d: a win lost %.9g", i, j, change);
					if (score[k] == 0 && change > 0)
						fail_msg("%d vs %d: a loss gained %.9g", i, j, change);
				}
			}
		}
	}
}

/* The worst upset, many times in one period, and absurd stored values. */
static void test_absurd_inputs(void **state)
{
	(void)state;
	struct glicko2_rating player = rating_make(0, 350, 1), out;
	struct glicko2_result results[50];

	for (int i = 0; i < 50; i++)
		results[i] = (struct glicko2_result){ { 4000, 1, 1e-9 }, 1.0 };
	glicko2_update(&player, results, 50, GLICKO2_TAU, &out);
	expect_within("50 upsets rating", out.rating, 1, 50 * GAME_CHANGE_MAX);
	expect_within("50 upsets RD", out.rd, GLICKO2_RD_MIN, GLICKO2_RD_MAX);
	expect_within("50 upsets sigma", out.volatility, GLICKO2_VOLATILITY_MIN,
	    GLICKO2_VOLATILITY_MAX);

	/* Gaps far past what a double's exp() can tell apart, NaN and negative fields. */
	struct glicko2_rating weird = rating_make(-1e300, -5, -1);
	results[0] = (struct glicko2_result){ { 1e300, 1e300, NAN }, 1.0 };
	results[1] = (struct glicko2_result){ { NAN, NAN, 0 }, NAN };
	glicko2_update(&weird, results, 2, 1e300, &out);
	if (!isfinite(out.rating))
		fail_msg("rating not finite");
	expect_within("weird RD", out.rd, GLICKO2_RD_MIN, GLICKO2_RD_MAX);
	expect_within("weird sigma", out.volatility, GLICKO2_VOLATILITY_MIN,
	    GLICKO2_VOLATILITY_MAX);

	/*
	 * An upset across a gap exp() cannot resolve still carries information:
	 * the volatility moves up (by tau's leash, a little), where a NaN would
	 * leave it exactly where it was.
	 */
	struct glicko2_rating low = rating_make(-1e300, 200, 0.06);
	results[0] = (struct glicko2_result){ { 1e300, 200, 0.06 }, 1.0 };
	glicko2_update(&low, results, 1, GLICKO2_TAU, &out);
	if (!(out.volatility > 0.06))
		fail_msg("huge upset left sigma' at %.12g", out.volatility);
	expect_within("huge upset sigma'", out.volatility, 0.06, GLICKO2_VOLATILITY_MAX);
	expect_within("huge upset RD", out.rd, GLICKO2_RD_MIN, GLICKO2_RD_MAX);
	expect_within("huge upset change", out.rating - low.rating, 0, GAME_CHANGE_MAX);

	weird = rating_make(NAN, NAN, NAN);
	glicko2_update(&weird, NULL, 0, GLICKO2_TAU, &out);
	expect_near("NaN rating", out.rating, GLICKO2_DEFAULT_RATING, 0.0);
	expect_near("NaN RD", out.rd, GLICKO2_RD_MAX, 0.0);
	expect_near("NaN sigma", out.volatility, GLICKO2_DEFAULT_VOLATILITY, 0.0);
}

/*
 * Periods of 30 games against certain opponents would settle the RD near 26
 * (phi^4 ~ v sigma^2 with v = 4/30); the floor holds it at 30.
 */
static void test_rd_floor(void **state)
{
	(void)state;
	struct glicko2_rating player = glicko2_new();
	struct glicko2_result draws[30];

	for (int i = 0; i < 30; i++)
		draws[i] = (struct glicko2_result){ { 1500, 30, 0.06 }, 0.5 };
	for (int i = 0; i < 200; i++)
		glicko2_update(&player, draws, 30, GLICKO2_TAU, &player);
	expect_near("RD", player.rd, GLICKO2_RD_MIN, 0.0);
	expect_near("rating", player.rating, 1500, 0.0);
}

static void test_provisional(void **state)
{
	(void)state;
	static const struct {
		double rd;
		bool provisional;
	} cases[] = {
		{ 350, true }, { 110.0001, true }, { 110, true }, { 109.9999, false },
		{ 45, false }, { 30, false }, { NAN, true },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct glicko2_rating r = rating_make(1500, cases[i].rd, 0.06);
		if (glicko2_provisional(&r) != cases[i].provisional)
			fail_msg("RD %g: provisional %d, expected %d", cases[i].rd,
			    glicko2_provisional(&r), cases[i].provisional);
	}

	/* A new player stops being provisional after some games, not after one. */
	struct glicko2_rating player = glicko2_new();
	const struct glicko2_result draw = { { 1500, 60, 0.06 }, 0.5 };
	int games = 0;
	assert_true(glicko2_provisional(&player));
	while (glicko2_provisional(&player) && games < 100) {
		glicko2_update(&player, &draw, 1, GLICKO2_TAU, &player);
		games++;
	}
	expect_within("games to leave provisional", games, 2, 20);
	assert_true(player.rd < GLICKO2_PROVISIONAL_RD);
}

static void test_idle(void **state)
{
	(void)state;
	struct glicko2_rating r = rating_make(1700, 50, 0.06);
	double phi = 50 / GLICKO2_SCALE;

	glicko2_idle(&r, 4);
	expect_near("4 periods", r.rd, sqrt(phi * phi + 4 * 0.06 * 0.06) * GLICKO2_SCALE, 1e-9);
	expect_near("rating kept", r.rating, 1700, 0.0);
	expect_near("volatility kept", r.volatility, 0.06, 0.0);

	/* One period of idling is what a period with no games does. */
	struct glicko2_rating idle = rating_make(1700, 50, 0.06), none;
	glicko2_update(&idle, NULL, 0, GLICKO2_TAU, &none);
	glicko2_idle(&idle, 1);
	expect_near("idle 1 = no games", idle.rd, none.rd, 1e-12);

	/* Half a period grows less than a whole one. */
	struct glicko2_rating half = rating_make(1700, 50, 0.06);
	glicko2_idle(&half, 0.5);
	expect_within("half period", half.rd, 50.0001, idle.rd - 0.0001);

	/* No time, negative or NaN time: no growth. */
	struct glicko2_rating still = rating_make(1700, 50, 0.06);
	glicko2_idle(&still, 0);
	expect_near("0 periods", still.rd, 50, 1e-12);
	glicko2_idle(&still, -10);
	expect_near("negative periods", still.rd, 50, 1e-12);
	glicko2_idle(&still, NAN);
	expect_near("NaN periods", still.rd, 50, 1e-12);

	/* Years away: capped at the new-player RD. */
	glicko2_idle(&r, 1e6);
	expect_near("capped", r.rd, GLICKO2_RD_MAX, 0.0);
	glicko2_idle(&r, INFINITY);
	expect_near("infinite idle", r.rd, GLICKO2_RD_MAX, 0.0);
}

static void test_display(void **state)
{
	(void)state;
	static const struct {
		double rating;
		int shown;
	} cases[] = {
		{ 1464.0507, 1464 }, { 1464.5, 1465 }, { 1464.4999, 1464 }, { 1500, 1500 },
		{ 0.4, 0 }, { -120, 0 }, { 12345.6, 9999 }, { NAN, 0 }, { INFINITY, 9999 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct glicko2_rating r = rating_make(cases[i].rating, 100, 0.06);
		if (glicko2_display(&r) != cases[i].shown)
			fail_msg("%g shows as %d, expected %d", cases[i].rating,
			    glicko2_display(&r), cases[i].shown);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glickman_example),
		cmocka_unit_test(test_tau),
		cmocka_unit_test(test_volatility_falls_when_predictable),
		cmocka_unit_test(test_no_games),
		cmocka_unit_test(test_game_win),
		cmocka_unit_test(test_game_zero_sum),
		cmocka_unit_test(test_game_draw_equals),
		cmocka_unit_test(test_game_is_two_updates),
		cmocka_unit_test(test_expected),
		cmocka_unit_test(test_extreme_inputs),
		cmocka_unit_test(test_absurd_inputs),
		cmocka_unit_test(test_rd_floor),
		cmocka_unit_test(test_provisional),
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_display),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
