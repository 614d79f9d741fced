/* audience: each identity's followers and each kind's listeners stay right through any changes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "audience.h"
#include "limit.h"
#include "roster.h"

#define FOLLOWERS 200
#define IDENTITIES 12

static int items[FOLLOWERS];

struct tally {
	int count[FOLLOWERS];
};

static void tally_item(void *item, void *arg)
{
	((struct tally *)arg)->count[*(int *)item]++;
}

/* Identities from -6 (guests' sessions) to 5 (accounts), 0 included. */
static int64_t identity_at(int i)
{
	return (int64_t)i - IDENTITIES / 2;
}

/* Random follows and unfollows against a plain table of who follows whom. */
static void test_followers_against_scan(void **state)
{
	struct audience *a = audience_new();
	struct roster_node *place[FOLLOWERS] = { NULL };
	int follows[FOLLOWERS];		/* index of the identity followed, or -1 */

	(void)state;
	assert_non_null(a);
	srand(99);
	for (int i = 0; i < FOLLOWERS; i++) {
		items[i] = i;
		follows[i] = -1;
	}
	for (int step = 0; step < 20000; step++) {
		int f = rand() % FOLLOWERS;
		if (follows[f] >= 0) {
			int64_t id = identity_at(follows[f]);
			roster_remove(audience_followers(a, id, false), place[f]);
			audience_followers_settle(a, id);
			follows[f] = -1;
			place[f] = NULL;
		} else {
			int i = rand() % IDENTITIES;
			struct roster *r = audience_followers(a, identity_at(i), true);
			assert_non_null(r);
			assert_non_null(place[f] = roster_add(r, &items[f]));
			follows[f] = i;
		}
		if (step % 50)
			continue;
		for (int i = 0; i < IDENTITIES; i++) {
			struct roster *r = audience_followers(a, identity_at(i), false);
			struct tally t = { { 0 } };
			int want = 0;
			for (int k = 0; k < FOLLOWERS; k++)
				want += follows[k] == i;
			/* An identity nobody follows has no roster left. */
			if (!want) {
				assert_null(r);
				continue;
			}
			assert_non_null(r);
			assert_int_equal(roster_count(r), want);
			roster_each(r, tally_item, &t);
			for (int k = 0; k < FOLLOWERS; k++)
				assert_int_equal(t.count[k], follows[k] == i);
		}
	}
	audience_free(a);	/* frees the rosters still followed (ASan checks) */
}

static void test_kinds_and_channels_are_apart(void **state)
{
	struct audience *a = audience_new();

	(void)state;
	assert_non_null(a);
	for (int k = 0; k < AUDIENCE_NB; k++)
		for (int j = 0; j < k; j++)
			assert_ptr_not_equal(audience_of(a, (enum audience_kind)k),
			    audience_of(a, (enum audience_kind)j));
	assert_non_null(audience_channel(a, 0));
	assert_non_null(audience_channel(a, LIMIT_CHANNEL_MAX));
	assert_null(audience_channel(a, -1));
	assert_null(audience_channel(a, LIMIT_CHANNEL_MAX + 1));
	assert_ptr_not_equal(audience_channel(a, 1), audience_channel(a, 2));
	struct roster_node *n = roster_add(audience_channel(a, 5), &items[0]);
	assert_non_null(n);
	assert_int_equal(roster_count(audience_channel(a, 5)), 1);
	assert_int_equal(roster_count(audience_channel(a, 6)), 0);
	audience_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_followers_against_scan),
		cmocka_unit_test(test_kinds_and_channels_are_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
