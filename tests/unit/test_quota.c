/* quotas: N events a window per key, refilled steadily, idle keys forgotten. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "quota.h"

#define MINUTE 60000

/* Takes events for key at `now` until refused; returns how many were allowed. */
static int drain(struct quotas *q, const char *key, int per, int64_t now)
{
	int n = 0;

	while (quotas_left(q, key, per, now) && n < 1000) {
		quotas_take(q, key, per, now);
		n++;
	}
	return n;
}

static void burst_then_refused(void **state)
{
	struct quotas *q = quotas_new(MINUTE);

	(void)state;
	assert_int_equal(drain(q, "a", 5, 1000), 5);
	assert_false(quotas_left(q, "a", 5, 1000));
	/* Another key has its own allowance. */
	assert_true(quotas_left(q, "b", 5, 1000));
	quotas_free(q);
}

static void refills_at_the_rate(void **state)
{
	struct quotas *q = quotas_new(MINUTE);

	(void)state;
	drain(q, "a", 6, 0);
	/* Six a minute: one every ten seconds. */
	assert_false(quotas_left(q, "a", 6, 9999));
	assert_true(quotas_left(q, "a", 6, 10000));
	assert_int_equal(drain(q, "a", 6, 10000), 1);
	/* Never more than the full allowance, however long the pause. */
	assert_int_equal(drain(q, "a", 6, 100 * MINUTE), 6);
	quotas_free(q);
}

static void idle_keys_are_forgotten(void **state)
{
	struct quotas *q = quotas_new(MINUTE);

	(void)state;
	for (int i = 0; i < 50; i++) {
		char key[16];
		snprintf(key, sizeof key, "k%d", i);
		quotas_take(q, key, 10, 0);
	}
	assert_int_equal(quotas_count(q), 50);
	quotas_take(q, "busy", 1, MINUTE / 2);
	/* A window later the idle ones are full again and dropped; busy stays. */
	quotas_take(q, "late", 10, MINUTE + 1);
	assert_int_equal(quotas_count(q), 2);
	assert_false(quotas_left(q, "busy", 1, MINUTE + 1));
	quotas_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(burst_then_refused),
		cmocka_unit_test(refills_at_the_rate),
		cmocka_unit_test(idle_keys_are_forgotten),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
