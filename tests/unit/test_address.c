/* address_block: the keys of the per-address tallies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "address.h"

static const struct {
	const char *in;
	int v4_bits, v6_bits;
	const char *out;
	int rc;
} cases[] = {
	{ "192.0.2.77", 32, 64, "192.0.2.77", 0 },
	{ "192.0.2.77", 24, 64, "192.0.2.0/24", 0 },
	{ "127.0.45.9", 24, 64, "127.0.45.0/24", 0 },
	{ "10.255.255.255", 20, 64, "10.255.240.0/20", 0 },
	{ "10.1.2.3", 0, 64, "0.0.0.0/0", 0 },
	{ "2001:db8:1:2:3:4:5:6", 32, 64, "2001:db8:1:2::/64", 0 },
	{ "2001:db8:1:2:ffff:ffff:ffff:ffff", 24, 64, "2001:db8:1:2::/64", 0 },
	{ "2001:db8:1:3::1", 24, 64, "2001:db8:1:3::/64", 0 },
	{ "2001:db8:abcd:12ff::1", 24, 56, "2001:db8:abcd:1200::/56", 0 },
	{ "::1", 32, 64, "::/64", 0 },
	{ "fe80::1", 32, 128, "fe80::1/128", 0 },
	{ "::ffff:192.0.2.77", 32, 64, "192.0.2.77", 0 },
	{ "::ffff:192.0.2.77", 24, 64, "192.0.2.0/24", 0 },
	{ "?", 24, 64, "?", -1 },
	{ "", 24, 64, "", -1 },
};

static void test_blocks(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char out[ADDRESS_BLOCK_MAX];
		int rc = address_block(cases[i].in, cases[i].v4_bits, cases[i].v6_bits, out, sizeof out);
		if (rc != cases[i].rc || strcmp(out, cases[i].out))
			fail_msg("%s /%d /%d: got %d \"%s\", want %d \"%s\"", cases[i].in,
			    cases[i].v4_bits, cases[i].v6_bits, rc, out, cases[i].rc, cases[i].out);
	}
}

/* Two addresses of one /64 share a block; the next /64 does not. */
static void test_same_block(void **state)
{
	char a[ADDRESS_BLOCK_MAX], b[ADDRESS_BLOCK_MAX], c[ADDRESS_BLOCK_MAX];

	(void)state;
	address_block("2001:db8:0:7:1::1", 24, 64, a, sizeof a);
	address_block("2001:db8:0:7:9999::2", 24, 64, b, sizeof b);
	address_block("2001:db8:0:8::1", 24, 64, c, sizeof c);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_same_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
