/* roster: joining order, counts and walks stay right through any changes, even mid-walk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "roster.h"

#define ITEMS 300

/* The plain model: the order items joined in, as a list of item numbers. */
struct model {
	int order[ITEMS];
	int count;
};

static void model_add(struct model *m, int item)
{
	m->order[m->count++] = item;
}

static void model_remove(struct model *m, int item)
{
	for (int i = 0; i < m->count; i++)
		if (m->order[i] == item) {
			for (int j = i; j + 1 < m->count; j++)
				m->order[j] = m->order[j + 1];
			m->count--;
			return;
		}
	fail_msg("item %d not in the model", item);
}

static int items[ITEMS];

struct seen {
	int order[ITEMS * 2];
	int count;
};

static void record(void *item, void *arg)
{
	struct seen *s = arg;

	s->order[s->count++] = *(int *)item;
}

static void check_against(struct roster *r, const struct model *m)
{
	struct seen s = { .count = 0 };

	assert_int_equal(roster_count(r), m->count);
	roster_each(r, record, &s);
	assert_int_equal(s.count, m->count);
	for (int i = 0; i < m->count; i++)
		assert_int_equal(s.order[i], m->order[i]);
}

static void test_empty(void **state)
{
	struct roster *r = roster_new();
	struct seen s = { .count = 0 };

	(void)state;
	assert_non_null(r);
	assert_int_equal(roster_count(r), 0);
	roster_each(r, record, &s);
	assert_int_equal(s.count, 0);
	roster_remove(r, NULL);		/* harmless */
	roster_free(r);
	roster_free(NULL);
}

/* Random adds and removes against a plain ordered list. */
static void test_random_against_scan(void **state)
{
	struct roster *r = roster_new();
	struct roster_node *node[ITEMS] = { NULL };
	struct model m = { .count = 0 };

	(void)state;
	srand(4242);
	for (int i = 0; i < ITEMS; i++)
		items[i] = i;
	for (int step = 0; step < 20000; step++) {
		int i = rand() % ITEMS;
		if (node[i]) {
			roster_remove(r, node[i]);
			node[i] = NULL;
			model_remove(&m, i);
		} else {
			assert_non_null(node[i] = roster_add(r, &items[i]));
			model_add(&m, i);
		}
		if (step % 97 == 0)
			check_against(r, &m);
	}
	check_against(r, &m);
	roster_free(r);		/* frees the places still on it (ASan checks) */
}

/*
 * A walk whose callback removes random items (itself, the next, ones
 * already seen) and adds new ones: it visits exactly the items that were
 * on the roster when it began and are still on it when their turn comes.
 */
struct churn {
	struct roster *r;
	struct roster_node **node;
	struct model *m;
	bool visited[ITEMS];
	bool was_on[ITEMS];	/* on the roster when the walk began */
	bool removed[ITEMS];	/* taken off during the walk before being visited */
	int nested;		/* walks started from inside the walk */
};

static void count_item(void *item, void *arg)
{
	(void)item;
	(*(int *)arg)++;
}

static void churn_one(void *item, void *arg)
{
	struct churn *c = arg;
	int me = *(int *)item;

	assert_true(c->was_on[me]);
	assert_false(c->removed[me]);
	assert_false(c->visited[me]);
	c->visited[me] = true;
	for (int k = 0; k < 3; k++) {
		int i = rand() % ITEMS;
		if (c->node[i]) {
			roster_remove(c->r, c->node[i]);
			c->node[i] = NULL;
			model_remove(c->m, i);
			if (!c->visited[i])
				c->removed[i] = true;
		} else {
			assert_non_null(c->node[i] = roster_add(c->r, &items[i]));
			model_add(c->m, i);
		}
	}
	if (rand() % 10 == 0) {
		int n = 0;
		roster_each(c->r, count_item, &n);
		assert_int_equal(n, c->m->count);
		c->nested++;
	}
}

static void test_changes_during_walk(void **state)
{
	(void)state;
	srand(777);
	for (int i = 0; i < ITEMS; i++)
		items[i] = i;
	for (int round = 0; round < 50; round++) {
		struct roster *r = roster_new();
		struct roster_node *node[ITEMS] = { NULL };
		struct model m = { .count = 0 };
		struct churn c = { .r = r, .node = node, .m = &m };

		for (int i = 0; i < ITEMS; i++)
			if (rand() % 2) {
				assert_non_null(node[i] = roster_add(r, &items[i]));
				model_add(&m, i);
				c.was_on[i] = true;
			}
		roster_each(r, churn_one, &c);
		for (int i = 0; i < ITEMS; i++)
			assert_int_equal(c.visited[i], c.was_on[i] && !c.removed[i]);
		check_against(r, &m);
		roster_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_random_against_scan),
		cmocka_unit_test(test_changes_during_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
