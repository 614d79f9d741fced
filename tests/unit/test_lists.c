/* lists: which list a name or prefix means, as FICS matches them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "lists.h"

static const struct {
	const char *typed;
	int kind;		/* -1 none, -2 several */
} vectors[] = {
	{ "notify", LIST_NOTIFY }, { "NOTIFY", LIST_NOTIFY }, { "not", LIST_NOTIFY },
	{ "gnotify", LIST_GNOTIFY }, { "g", LIST_GNOTIFY }, { "censor", LIST_CENSOR },
	{ "ce", LIST_CENSOR }, { "noplay", LIST_NOPLAY }, { "nop", LIST_NOPLAY },
	{ "channel", LIST_CHANNEL }, { "ch", LIST_CHANNEL }, { "admin", LIST_ADMIN },
	{ "a", LIST_ADMIN }, { "ban", LIST_BAN }, { "b", LIST_BAN }, { "muzzle", LIST_MUZZLE },
	{ "m", LIST_MUZZLE }, { "cmuzzle", LIST_CMUZZLE }, { "cm", LIST_CMUZZLE },
	{ "computer", LIST_COMPUTER }, { "co", LIST_COMPUTER }, { "td", LIST_TD },
	{ "t", LIST_TD },
	/* Several lists begin so: no guess. */
	{ "n", -2 }, { "no", -2 }, { "c", -2 },
	/* None does. */
	{ "", -1 }, { "x", -1 }, { "notifyx", -1 }, { "channels", -1 },
};

static void find_by_name_and_prefix(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
		int got = lists_find(vectors[i].typed);
		if (got != vectors[i].kind)
			fail_msg("lists_find(\"%s\") = %d, want %d", vectors[i].typed, got,
			    vectors[i].kind);
	}
}

static void kind_of(void *arg, enum list_kind k)
{
	int *seen = arg;

	seen[k]++;
}

/* showlist names every list once, under its own name, personal or public as FICS has it. */
static void every_list_shown_once(void **state)
{
	int seen[LIST_KIND_COUNT] = { 0 };

	(void)state;
	lists_each_kind(kind_of, seen);
	for (int k = 0; k < LIST_KIND_COUNT; k++) {
		assert_int_equal(seen[k], 1);
		assert_int_equal(lists_find(lists_name((enum list_kind)k)), k);
		assert_int_equal(lists_personal((enum list_kind)k), k <= LIST_CHANNEL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(find_by_name_and_prefix),
		cmocka_unit_test(every_list_shown_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
