/* The registrations-per-address tally: keys, the rolling hour, a full table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "signup.h"

#define HOUR SIGNUP_WINDOW_MS

static void test_counts_per_address(void **state)
{
	struct signups *su = signups_new();

	(void)state;
	assert_true(signups_allowed(su, "192.0.2.1", 0, 2));
	signups_count(su, "192.0.2.1", 0);
	signups_count(su, "192.0.2.1", 10);
	assert_false(signups_allowed(su, "192.0.2.1", 20, 2));
	/* IPv4 is exact: the neighbour has its own allowance. */
	assert_true(signups_allowed(su, "192.0.2.2", 20, 2));
	/* An hour after the first, the window starts again. */
	assert_true(signups_allowed(su, "192.0.2.1", HOUR, 2));
	assert_false(signups_allowed(su, "192.0.2.1", 0, 0));
	signups_free(su);
}

static void test_ipv6_by_64(void **state)
{
	static const struct {
		const char *addr;
		bool same;	/* in 2001:db8:1:2::/64 */
	} cases[] = {
		{ "2001:db8:1:2::1", true },
		{ "2001:db8:1:2:ffff:ffff:ffff:ffff", true },
		{ "2001:0db8:0001:0002:0:0:0:9", true },
		{ "2001:db8:1:3::1", false },
		{ "::ffff:192.0.2.1", false },
	};
	struct signups *su = signups_new();

	(void)state;
	signups_count(su, "2001:db8:1:2::abcd", 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(signups_allowed(su, cases[i].addr, 1, 1), !cases[i].same);
	signups_free(su);
}

static void test_full_table_refuses(void **state)
{
	struct signups *su = signups_new();
	char addr[32];

	(void)state;
	for (int i = 0; i < LIMIT_SIGNUP_ADDRESSES; i++) {
		snprintf(addr, sizeof addr, "10.%d.%d.1", i / 256, i % 256);
		signups_count(su, addr, 0);
	}
	/* No slot for a new address: refused, never a forgotten tally. */
	assert_false(signups_allowed(su, "198.51.100.7", 1, 5));
	assert_true(signups_allowed(su, "10.0.0.1", 1, 5));
	/* An hour on, expired slots serve again. */
	assert_true(signups_allowed(su, "198.51.100.7", HOUR, 5));
	signups_free(su);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_per_address),
		cmocka_unit_test(test_ipv6_by_64),
		cmocka_unit_test(test_full_table_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
