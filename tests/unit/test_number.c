/* number_parse: every number a client sends is read by it. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "number.h"

static const struct {
	const char *in;
	long min, max;
	enum number_status want;
	long value;
} cases[] = {
	{ "0", 0, 10, NUMBER_OK, 0 },
	{ "7", 0, 10, NUMBER_OK, 7 },
	{ "10", 0, 10, NUMBER_OK, 10 },
	{ "11", 0, 10, NUMBER_RANGE, 0 },
	{ "-1", 0, 10, NUMBER_RANGE, 0 },
	{ "-1", -5, 5, NUMBER_OK, -1 },
	{ "+3", 0, 10, NUMBER_OK, 3 },
	{ "-0", 0, 10, NUMBER_OK, 0 },
	{ "007", 0, 10, NUMBER_OK, 7 },
	{ "2147483647", 0, INT_MAX, NUMBER_OK, INT_MAX },
	{ "2147483648", 0, INT_MAX, NUMBER_RANGE, 0 },
	{ "-2147483648", INT_MIN, INT_MAX, NUMBER_OK, INT_MIN },
	{ "-2147483649", INT_MIN, INT_MAX, NUMBER_RANGE, 0 },
	{ "9223372036854775807", 0, LONG_MAX, NUMBER_OK, LONG_MAX },
	{ "9223372036854775808", 0, LONG_MAX, NUMBER_RANGE, 0 },
	{ "-9223372036854775808", LONG_MIN, LONG_MAX, NUMBER_OK, LONG_MIN },
	{ "-9223372036854775809", LONG_MIN, LONG_MAX, NUMBER_RANGE, 0 },
	{ "99999999999999999999999999999", 0, LONG_MAX, NUMBER_RANGE, 0 },
	{ "99999999999999999999999999999x", 0, LONG_MAX, NUMBER_JUNK, 0 },
	{ "  5", 0, 10, NUMBER_OK, 5 },
	{ "5  ", 0, 10, NUMBER_OK, 5 },
	{ "\t5\t", 0, 10, NUMBER_OK, 5 },
	{ "", 0, 10, NUMBER_JUNK, 0 },
	{ "   ", 0, 10, NUMBER_JUNK, 0 },
	{ "-", -5, 5, NUMBER_JUNK, 0 },
	{ "+", 0, 5, NUMBER_JUNK, 0 },
	{ "+-1", -5, 5, NUMBER_JUNK, 0 },
	{ "--1", -5, 5, NUMBER_JUNK, 0 },
	{ "- 1", -5, 5, NUMBER_JUNK, 0 },
	{ "1 2", 0, 20, NUMBER_JUNK, 0 },
	{ "1x", 0, 10, NUMBER_JUNK, 0 },
	{ "x1", 0, 10, NUMBER_JUNK, 0 },
	{ "0x10", 0, 100, NUMBER_JUNK, 0 },
	{ "1e3", 0, 10000, NUMBER_JUNK, 0 },
	{ "1.5", 0, 10, NUMBER_JUNK, 0 },
	{ "\n5", 0, 10, NUMBER_JUNK, 0 },
	{ "\xd9\xa3", 0, 10, NUMBER_JUNK, 0 },	/* an Arabic-Indic digit is not ours */
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		long v = 12345;
		enum number_status st = number_parse(cases[i].in, cases[i].min, cases[i].max, &v);
		if (st != cases[i].want)
			fail_msg("\"%s\" in [%ld, %ld]: status %d, want %d", cases[i].in, cases[i].min,
			    cases[i].max, st, cases[i].want);
		if (st == NUMBER_OK && v != cases[i].value)
			fail_msg("\"%s\": %ld, want %ld", cases[i].in, v, cases[i].value);
		if (st != NUMBER_OK && v != 12345)
			fail_msg("\"%s\": out written on failure", cases[i].in);
	}
}

/* Every value near the edges of an int parses back to itself, and one past them does not. */
static void test_round_trip(void **state)
{
	(void)state;
	for (long d = -1000; d <= 1000; d++) {
		const long edges[] = { 0, INT_MAX, INT_MIN };
		for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
			char text[32];
			long want = edges[e] + d, got;
			snprintf(text, sizeof text, "%ld", want);
			enum number_status st = number_parse(text, INT_MIN, INT_MAX, &got);
			if (want < INT_MIN || want > INT_MAX) {
				assert_int_equal(st, NUMBER_RANGE);
			} else {
				assert_int_equal(st, NUMBER_OK);
				assert_int_equal(got, want);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
