/* The tournament module's texts: results as typed by a director and stored
 * in tourney_pairings, and tie-break lists as typed in `tourney set`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tournament.h"

static const struct {
	const char *text;
	int rc;
	enum tourney_result res;
	const char *canonical;	/* what tournament_result_text gives back */
} results[] = {
	{ "1-0", 0, TOURNEY_RESULT_WHITE_WINS, "1-0" },
	{ "0-1", 0, TOURNEY_RESULT_BLACK_WINS, "0-1" },
	{ "1/2-1/2", 0, TOURNEY_RESULT_DRAW, "1/2-1/2" },
	{ "=", 0, TOURNEY_RESULT_DRAW, "1/2-1/2" },
	{ "1/2", 0, TOURNEY_RESULT_DRAW, "1/2-1/2" },
	{ "+-", 0, TOURNEY_RESULT_WHITE_FORFEIT, "+-" },
	{ "-+", 0, TOURNEY_RESULT_BLACK_FORFEIT, "-+" },
	{ "--", 0, TOURNEY_RESULT_DOUBLE_FORFEIT, "--" },
	{ "*", 0, TOURNEY_RESULT_NONE, "*" },
	{ "1-1", -1, TOURNEY_RESULT_NONE, NULL },
	{ "", -1, TOURNEY_RESULT_NONE, NULL },
	{ "+", -1, TOURNEY_RESULT_NONE, NULL },
	{ "1-0 ", -1, TOURNEY_RESULT_NONE, NULL },
};

static void test_results(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
		enum tourney_result res = TOURNEY_RESULT_NONE;
		int rc = tournament_result_parse(results[i].text, &res);
		if (rc != results[i].rc)
			fail_msg("\"%s\": rc %d, want %d", results[i].text, rc, results[i].rc);
		if (rc == 0 && (res != results[i].res ||
		    strcmp(tournament_result_text(res), results[i].canonical)))
			fail_msg("\"%s\": got %d (%s)", results[i].text, res, tournament_result_text(res));
	}
}

/* Every result's text parses back to it (the database round trip). */
static void test_result_round_trip(void **state)
{
	(void)state;
	for (int r = TOURNEY_RESULT_NONE; r <= TOURNEY_RESULT_DOUBLE_FORFEIT; r++) {
		enum tourney_result back;
		assert_int_equal(tournament_result_parse(tournament_result_text(r), &back), 0);
		assert_int_equal(back, r);
	}
}

static const struct {
	const char *text;
	int n;
	enum tiebreak order[TIEBREAK_MAX];
} lists[] = {
	{ "BH,BH-C1,SB,DE,WIN", 5, { TIEBREAK_BUCHHOLZ, TIEBREAK_BUCHHOLZ_CUT1,
	    TIEBREAK_SONNEBORN_BERGER, TIEBREAK_DIRECT_ENCOUNTER, TIEBREAK_WINS } },
	{ "sb,bh", 2, { TIEBREAK_SONNEBORN_BERGER, TIEBREAK_BUCHHOLZ } },
	{ "DE WON", 2, { TIEBREAK_DIRECT_ENCOUNTER, TIEBREAK_WON } },
	{ "", 0, { 0 } },
	{ "BH,BH", -1, { 0 } },
	{ "BH,XX", -1, { 0 } },
	{ "BH-C2", -1, { 0 } },
};

static void test_tiebreak_lists(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		enum tiebreak order[TIEBREAK_MAX];
		int n = tournament_tiebreaks_parse(lists[i].text, order);
		if (n != lists[i].n)
			fail_msg("\"%s\": %d tie-breaks, want %d", lists[i].text, n, lists[i].n);
		for (int k = 0; k < n; k++)
			if (order[k] != lists[i].order[k])
				fail_msg("\"%s\": tie-break %d is %s", lists[i].text, k,
				    tiebreak_name(order[k]));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_results),
		cmocka_unit_test(test_result_round_trip),
		cmocka_unit_test(test_tiebreak_lists),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
