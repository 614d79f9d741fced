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

/* Ranges as admins write them, in canonical form; what lies in them. */
static void test_ranges(void **state)
{
	static const struct {
		const char *in, *out;
		int rc;
	} parsed[] = {
		{ "192.0.2.77/24", "192.0.2.0/24", 0 },
		{ "192.0.2.77", "192.0.2.77", 0 },
		{ "192.0.2.7/32", "192.0.2.7", 0 },
		{ "10.1.2.3/0", "0.0.0.0/0", 0 },
		{ "2001:db8:1:2::5/32", "2001:db8::/32", 0 },
		{ "2001:db8::1", "2001:db8::1/128", 0 },
		{ "::ffff:192.0.2.9/24", "192.0.2.0/24", 0 },
		{ "192.0.2.0/33", NULL, -1 },
		{ "192.0.2.0/", NULL, -1 },
		{ "192.0.2.0/-1", NULL, -1 },
		{ "2001:db8::/129", NULL, -1 },
		{ "300.0.0.1", NULL, -1 },
		{ "nonsense", NULL, -1 },
	};
	static const struct {
		const char *address, *range;
		bool in;
	} member[] = {
		{ "192.0.2.200", "192.0.2.0/24", true },
		{ "192.0.3.1", "192.0.2.0/24", false },
		{ "::ffff:192.0.2.1", "192.0.2.0/24", true },
		{ "192.0.2.7", "192.0.2.7", true },
		{ "192.0.2.8", "192.0.2.7", false },
		{ "2001:db8:ffff::1", "2001:db8::/32", true },
		{ "2001:db9::1", "2001:db8::/32", false },
		{ "192.0.2.1", "2001:db8::/32", false },
		{ "2001:db8::1", "0.0.0.0/0", false },
		{ "198.51.100.1", "0.0.0.0/0", true },
		{ "192.0.2.1", "bad", false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof parsed / sizeof parsed[0]; i++) {
		char out[ADDRESS_BLOCK_MAX];
		int rc = address_range_parse(parsed[i].in, out, sizeof out);
		if (rc != parsed[i].rc || (rc == 0 && strcmp(out, parsed[i].out)))
			fail_msg("%s: got %d \"%s\", want %d \"%s\"", parsed[i].in, rc,
			    rc == 0 ? out : "", parsed[i].rc, parsed[i].out ? parsed[i].out : "");
	}
	for (size_t i = 0; i < sizeof member / sizeof member[0]; i++)
		if (address_in_range(member[i].address, member[i].range) != member[i].in)
			fail_msg("%s in %s: want %d", member[i].address, member[i].range, member[i].in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_same_block),
		cmocka_unit_test(test_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
