/* formula: lasker's grammar, precedence, variables, errors and bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formula.h"

static const struct formula_limits lim = { .max_chars = 200, .max_depth = 8 };

/* A rated blitz 5+2 offer from a registered 1600 player to a 1500 player. */
static const struct formula_facts facts = {
	.rating = 1600, .myrating = 1500, .time_min = 5, .inc_s = 2,
	.category = CLOCK_CATEGORY_BLITZ, .rated = true, .registered = true, .computer = false,
	.timeseal = true, .private_game = false, .assess_win = 12, .assess_draw = 2,
	.assess_loss = -8,
};

static const struct {
	const char *text;
	long long want;
} values[] = {
	{ "", 1 }, { "   # only a comment", 1 }, { "1 + 2 * 3", 7 }, { "(1 + 2) * 3", 9 },
	{ "10 - 4 - 3", 3 }, { "100 / 10 / 5", 2 }, { "-2 * 3", -6 }, { "!0 + 1", 2 },
	{ "!(1 + 1)", 0 }, { "1 + 1 = 2", 1 }, { "1 < 2 = 1", 1 }, { "2 = 2 < 1", 0 },
	{ "0 | 1 & 0", 0 }, { "1 | 0 & 0", 1 }, { "1 or 0 and 0", 1 }, { "1 && 0 || 1", 1 },
	{ "3 <> 4", 1 }, { "3 != 3", 0 }, { "3 == 3", 1 }, { "3 => 3", 1 }, { "3 =< 2", 0 },
	{ "3 >= 4", 0 }, { "3 <= 3", 1 }, { "3 > 2", 1 }, { "7 / 0", 7000 }, { "2 minutes", 120 },
	{ "3minutes + 1", 181 }, { "rating", 1600 }, { "myrating", 1500 }, { "ratingdiff", 100 },
	{ "time", 5 }, { "inc", 2 }, { "rated", 1 }, { "blitz", 1 }, { "lightning", 0 },
	{ "standard", 0 }, { "untimed", 0 }, { "wild", 0 }, { "bughouse", 0 },
	{ "nonstandard", 0 }, { "registered", 1 }, { "computer", 0 }, { "timeseal", 1 },
	{ "private", 0 }, { "assesswin", 12 }, { "assessdraw", 2 }, { "assessloss", -8 },
	{ "maxtime(40)", 2 * (300 + 80) }, { "mymaxtime(40)", 300 + 80 },
	{ "maxtime(30) <= 10 minutes", 0 }, { "RATED & Blitz", 1 },
	{ "rated & time=5 & inc=2  # rated 5 minute games", 1 }, { "!wild & inc >= 2", 1 },
	{ "rating > 1700 | ratingdiff < 50", 0 }, { "999999999 * 999999999", FORMULA_VALUE_MAX },
	{ "-999999999 - 999999999", -FORMULA_VALUE_MAX },
};

static void test_values(void **state)
{
	char why[128];
	long long v;

	(void)state;
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		if (formula_eval(values[i].text, &facts, &lim, &v, why, sizeof why) != 0)
			fail_msg("\"%s\" refused: %s", values[i].text, why);
		if (v != values[i].want)
			fail_msg("\"%s\" gave %lld, want %lld", values[i].text, v, values[i].want);
		assert_int_equal(formula_check(values[i].text, &lim, why, sizeof why), 0);
	}
}

static void test_maxtime_zero_start(void **state)
{
	struct formula_facts f = facts;
	long long v;
	char why[128];

	(void)state;
	f.time_min = 0;
	f.inc_s = 3;
	assert_int_equal(formula_eval("maxtime(10)", &f, &lim, &v, why, sizeof why), 0);
	assert_int_equal(v, 2 * (30 + 10));	/* ten seconds each for a 0 3 start */
	f.category = CLOCK_CATEGORY_UNTIMED;
	f.inc_s = 0;
	assert_int_equal(formula_eval("mymaxtime(10)", &f, &lim, &v, why, sizeof why), 0);
	assert_int_equal(v, 0);
}

static const struct {
	const char *text, *why;
} errors[] = {
	{ "ratingx > 3", "unknown variable \"ratingx\"" }, { "foo", "unknown variable \"foo\"" },
	{ "f1 & rated", "f1-f9 are not supported" }, { "!abuser", "no abuser list" },
	{ "rated &", "ends where a value is expected" }, { "(rated", "missing \")\"" },
	{ "rated)", "unexpected \")\"" }, { "rated blitz", "unexpected \"blitz\"" },
	{ "rated $ 1", "unexpected \"$ 1\"" }, { "* 3", "unexpected \"*\"" },
	{ "maxtime 3", "\"(\" expected" }, { "()", "unexpected \")\" where a value" },
	{ "99999999999 > 1", "too large" }, { "1 + # comment", "ends where a value" },
};

static void test_errors(void **state)
{
	char why[128];
	long long v = 42;

	(void)state;
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		why[0] = '\0';
		if (formula_check(errors[i].text, &lim, why, sizeof why) == 0)
			fail_msg("\"%s\" accepted", errors[i].text);
		if (!strstr(why, errors[i].why) || strncmp(why, "Invalid formula: ", 17) ||
		    strchr(why, '\n'))
			fail_msg("\"%s\": \"%s\" lacks \"%s\"", errors[i].text, why, errors[i].why);
		assert_int_equal(formula_eval(errors[i].text, &facts, &lim, &v, why, sizeof why), -1);
		assert_int_equal(v, 42);
		assert_false(formula_admits(errors[i].text, &facts, &lim));
	}
}

static void test_limits(void **state)
{
	char text[512], why[128];

	(void)state;
	/* Depth: exactly max_depth parentheses pass, one more is refused. */
	memset(text, 0, sizeof text);
	memset(text, '(', 8);
	strcat(text, "1");
	memset(text + strlen(text), ')', 8);
	assert_int_equal(formula_check(text, &lim, why, sizeof why), 0);
	memmove(text + 1, text, strlen(text) + 1);
	strcat(text, ")");
	assert_int_equal(formula_check(text, &lim, why, sizeof why), -1);
	assert_non_null(strstr(why, "nested too deeply (at most 8 levels)"));
	/* Unary operators count too; a very deep text is refused, not overflowing the stack. */
	assert_int_equal(formula_check("!!!!!!!!1", &lim, why, sizeof why), 0);
	assert_int_equal(formula_check("!!!!!!!!!1", &lim, why, sizeof why), -1);
	struct formula_limits wide = { .max_chars = 100000, .max_depth = 8 };
	static char deep[60001];
	memset(deep, '(', 30000);
	memset(deep + 30000, '-', 30000);
	assert_int_equal(formula_check(deep, &wide, why, sizeof why), -1);
	assert_non_null(strstr(why, "nested too deeply"));
	/* Length. */
	memset(text, 0, sizeof text);
	memset(text, ' ', 200);
	text[0] = '1';
	assert_int_equal(formula_check(text, &lim, why, sizeof why), 0);
	text[200] = ' ';
	assert_int_equal(formula_check(text, &lim, why, sizeof why), -1);
	assert_non_null(strstr(why, "too long (at most 200 characters)"));
}

static void test_admits(void **state)
{
	(void)state;
	assert_true(formula_admits("", &facts, &lim));
	assert_true(formula_admits("blitz & rating >= 1600", &facts, &lim));
	assert_false(formula_admits("blitz & rating > 1600", &facts, &lim));
	assert_false(formula_admits("ratingdiff - 100", &facts, &lim));
}

/* Random texts of formula tokens and junk: always a value or one line of reason, never a crash. */
static void test_random_texts(void **state)
{
	static const char *const pieces[] = {
		"rating", "myrating", "maxtime", "(", ")", "!", "-", "+", "*", "/", "&", "|", "=",
		"<", ">", "<=", "=>", "<>", "and", "or", " ", "12", "0", "minutes", "#", "f1", "x",
		"abuser", "999999999", "\t", "$", "rated", "blitz", "((", "))",
	};
	const struct formula_limits small = { .max_chars = 64, .max_depth = 4 };
	unsigned seed = 12345;
	char text[128], why[96], tiny[8];
	long long v;

	(void)state;
	for (int round = 0; round < 20000; round++) {
		text[0] = '\0';
		int n = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 12;
		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			const char *p = pieces[(seed >> 16) % (sizeof pieces / sizeof pieces[0])];
			if (strlen(text) + strlen(p) < sizeof text)
				strcat(text, p);
		}
		why[0] = '\0';
		int rc = formula_eval(text, &facts, &small, &v, why, sizeof why);
		assert_true(rc == 0 || rc == -1);
		if (rc == 0)
			assert_true(v >= -FORMULA_VALUE_MAX && v <= FORMULA_VALUE_MAX);
		else
			assert_true(why[0] && !strchr(why, '\n'));
		assert_int_equal(formula_check(text, &small, tiny, sizeof tiny), rc);
		assert_true(strlen(tiny) < sizeof tiny);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_maxtime_zero_start),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_admits),
		cmocka_unit_test(test_random_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
