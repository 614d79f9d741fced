/* backlog: the total and the largest entry stay right through any changes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "backlog.h"

#define ENTRIES 200

static void test_empty(void **state)
{
	struct backlog *b = backlog_new();

	(void)state;
	assert_non_null(b);
	assert_null(backlog_largest(b));
	assert_int_equal(backlog_total(b), 0);
	backlog_free(b);
}

static void test_order(void **state)
{
	struct backlog *b = backlog_new();
	struct backlog_entry e[3] = { { .bytes = 5 }, { .bytes = 50 }, { .bytes = 7 } };

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_int_equal(backlog_add(b, &e[i]), 0);
	assert_ptr_equal(backlog_largest(b), &e[1]);
	assert_int_equal(backlog_total(b), 62);
	backlog_set(b, &e[0], 100);
	assert_ptr_equal(backlog_largest(b), &e[0]);
	backlog_remove(b, &e[0]);
	backlog_remove(b, &e[0]);		/* twice is harmless */
	assert_ptr_equal(backlog_largest(b), &e[1]);
	assert_int_equal(backlog_total(b), 57);
	backlog_set(b, &e[0], 1000);		/* not counted: only remembered */
	assert_int_equal(backlog_total(b), 57);
	backlog_set_other(b, &e[2], 500);	/* counted, not ordered */
	assert_int_equal(backlog_total(b), 557);
	assert_ptr_equal(backlog_largest(b), &e[1]);
	backlog_remove(b, &e[2]);
	assert_int_equal(backlog_total(b), 50);
	backlog_free(b);
}

/* Random adds, removes and changes against a plain scan. */
static void test_random_against_scan(void **state)
{
	struct backlog *b = backlog_new();
	static struct backlog_entry e[ENTRIES];
	bool in[ENTRIES] = { false };

	(void)state;
	srand(12345);
	for (int step = 0; step < 100000; step++) {
		int i = rand() % ENTRIES;
		switch (rand() % 3) {
		case 0:
			assert_int_equal(backlog_add(b, &e[i]), 0);
			in[i] = true;
			break;
		case 1:
			backlog_remove(b, &e[i]);
			in[i] = false;
			break;
		default:
			backlog_set(b, &e[i], (size_t)(rand() % 1000));
			break;
		}
		size_t total = 0, most = 0, count = 0;
		for (int k = 0; k < ENTRIES; k++) {
			if (!in[k])
				continue;
			count++;
			total += e[k].bytes;
			if (e[k].bytes > most)
				most = e[k].bytes;
		}
		assert_int_equal(backlog_total(b), total);
		assert_int_equal(backlog_count(b), count);
		if (count)
			assert_int_equal(backlog_largest(b)->bytes, most);
		else
			assert_null(backlog_largest(b));
	}
	backlog_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_random_against_scan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
