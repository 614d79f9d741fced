#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "password.h"

/* RFC 7914 section 12, second vector: N = 16384, r = 8, p = 1, 64-byte key. */
#define RFC7914_STORED "scrypt$14$8$1$U29kaXVtQ2hsb3JpZGU=$" \
	"cCO9yzr9c0hGHAbNgf046/2o+7qQT44+qbVD9lRdofLVQylVYT8Pz2LUlwUkKpr55h6F3A1lHkDfzwF7RVdYhw=="

/* Well-formed and within limits: 16 zero bytes of salt, 32 zero bytes of key. */
#define ZERO_SALT "AAAAAAAAAAAAAAAAAAAAAA=="
#define ZERO_KEY "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The field after the n-th '$' (n from 1), up to the next '$'. */
static void field_copy(const char *stored, int n, char *out, size_t outlen)
{
	const char *p = stored;
	size_t len;

	for (int i = 0; i < n; i++) {
		p = strchr(p, '$');
		assert_non_null(p);
		p++;
	}
	len = strcspn(p, "$");
	assert_true(len < outlen);
	memcpy(out, p, len);
	out[len] = '\0';
}

static void test_hash_then_verify(void **state)
{
	char stored[PASSWORD_HASH_MAX];
	char prefix[32];
	double start;

	(void)state;
	start = now_ms();
	assert_int_equal(password_hash("correct horse", stored, sizeof stored), 0);
	print_message("scrypt hash: %.0f ms\n", now_ms() - start);
	snprintf(prefix, sizeof prefix, "scrypt$%d$%d$%d$", PASSWORD_SCRYPT_LOG2_N,
	    PASSWORD_SCRYPT_R, PASSWORD_SCRYPT_P);
	assert_memory_equal(stored, prefix, strlen(prefix));
	assert_int_equal(strlen(stored), strlen(prefix) + 24 + 1 + 44);

	assert_int_equal(password_verify("correct horse", stored), 1);
	assert_int_equal(password_verify("correct hors", stored), 0);
	assert_int_equal(password_verify("Correct horse", stored), 0);
	assert_int_equal(password_verify(NULL, stored), 0);
}

static void test_salt_differs(void **state)
{
	char a[PASSWORD_HASH_MAX], b[PASSWORD_HASH_MAX];
	char salt_a[64], salt_b[64], key_a[64], key_b[64];

	(void)state;
	assert_int_equal(password_hash("same", a, sizeof a), 0);
	assert_int_equal(password_hash("same", b, sizeof b), 0);
	field_copy(a, 4, salt_a, sizeof salt_a);
	field_copy(b, 4, salt_b, sizeof salt_b);
	field_copy(a, 5, key_a, sizeof key_a);
	field_copy(b, 5, key_b, sizeof key_b);
	assert_string_not_equal(salt_a, salt_b);
	assert_string_not_equal(key_a, key_b);
	assert_int_equal(password_verify("same", b), 1);
}

/* Checks the parameter order and N = 2^field against a published vector. */
static void test_known_answer(void **state)
{
	(void)state;
	assert_int_equal(password_verify("pleaseletmein", RFC7914_STORED), 1);
	assert_int_equal(password_verify("pleaseletmeim", RFC7914_STORED), 0);
}

static void test_hash_bad_arguments(void **state)
{
	char out[PASSWORD_HASH_MAX];

	(void)state;
	memset(out, 'x', sizeof out);
	assert_int_equal(password_hash("pw", out, PASSWORD_HASH_MAX - 1), -1);
	assert_string_equal(out, "");
	memset(out, 'x', sizeof out);
	assert_int_equal(password_hash(NULL, out, sizeof out), -1);
	assert_string_equal(out, "");
	assert_int_equal(password_hash("pw", NULL, 0), -1);
}

/* A tampered but well-formed row is a mismatch, not an error. */
static void test_tampered_well_formed(void **state)
{
	char stored[sizeof RFC7914_STORED];
	char *key;

	(void)state;
	assert_int_equal(password_verify("pleaseletmein",
	    "scrypt$14$8$1$" ZERO_SALT "$" ZERO_KEY), 0);
	memcpy(stored, RFC7914_STORED, sizeof stored);
	key = strrchr(stored, '$') + 1;
	key[0] = key[0] == 'A' ? 'B' : 'A';
	assert_int_equal(password_verify("pleaseletmein", stored), 0);
}

static const char *const malformed[] = {
	"",
	"scrypt",
	"scrypt$",
	"scrypt$$$$$",
	"scrypt$15$8$1$" ZERO_SALT,
	"scrypt$15$8$1$" ZERO_SALT "$" ZERO_KEY "$",
	"scrypt$15$8$1$" ZERO_SALT "$" ZERO_KEY "$extra",
	"$scrypt$15$8$1$" ZERO_SALT "$" ZERO_KEY,
	"SCRYPT$15$8$1$" ZERO_SALT "$" ZERO_KEY,
	"bcrypt$15$8$1$" ZERO_SALT "$" ZERO_KEY,
	"$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
	"scrypt$x$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$+15$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$ 15$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$015$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$15$8$1$$" ZERO_KEY,
	"scrypt$15$8$1$" ZERO_SALT "$",
	"scrypt$15$8$1$!!!!!!!!!!!!!!!!!!!!!!!!$" ZERO_KEY,
	"scrypt$15$8$1$AAAAAAAAAAAAAAAAAAAAAA$" ZERO_KEY,		/* unpadded */
	"scrypt$15$8$1$AAAAAAAAAAAAAAAAAAAAAB==$" ZERO_KEY,		/* stray bits */
	"scrypt$15$8$1$AAAAAAAAAAAAAAAAAAAA=AAA$" ZERO_KEY,		/* '=' inside */
	"scrypt$15$8$1$ AAAAAAAAAAAAAAAAAAAAAA=$" ZERO_KEY,		/* blank */
	"scrypt$15$8$1$AAAAAAA=$" ZERO_KEY,				/* 5-byte salt */
	"scrypt$15$8$1$" ZERO_SALT "$AAAAAAAAAAA=",			/* 8-byte key */
	"scrypt$15$8$1$" ZERO_SALT "$" ZERO_KEY "\n",
	"scrypt$15$8$1$" ZERO_SALT "$" ZERO_KEY " ",
};

static void test_malformed(void **state)
{
	char huge[4096];

	(void)state;
	for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
		if (password_verify("pw", malformed[i]) != -1)
			fail_msg("accepted malformed #%zu \"%s\"", i, malformed[i]);
	}
	assert_int_equal(password_verify("pw", NULL), -1);

	snprintf(huge, sizeof huge, "scrypt$15$8$1$%s$", ZERO_SALT);
	memset(huge + strlen(huge), 'A', sizeof huge - strlen(huge) - 1);
	huge[sizeof huge - 1] = '\0';
	assert_int_equal(password_verify("pw", huge), -1);
}

/*
 * Parameters a tampered row might carry.  Had any been accepted, verify
 * would have run scrypt and returned 0, or spent seconds and gigabytes.
 */
static const char *const absurd[] = {
	"scrypt$9$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$0$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$21$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$31$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$64$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$4294967311$8$1$" ZERO_SALT "$" ZERO_KEY,		/* 2^32 + 15 */
	"scrypt$99999999999999999999$8$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$15$0$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$15$33$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$15$1000000$1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$15$8$0$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$15$8$17$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$15$8$-1$" ZERO_SALT "$" ZERO_KEY,
	"scrypt$20$8$1$" ZERO_SALT "$" ZERO_KEY,	/* 1 GiB */
	"scrypt$18$8$2$" ZERO_SALT "$" ZERO_KEY,	/* 256 MiB, twice */
	"scrypt$15$32$16$" ZERO_SALT "$" ZERO_KEY,	/* 16x the time of 2^18 */
};

static void test_absurd_parameters(void **state)
{
	double start = now_ms();

	(void)state;
	for (size_t i = 0; i < sizeof absurd / sizeof absurd[0]; i++) {
		if (password_verify("pw", absurd[i]) != -1)
			fail_msg("accepted absurd #%zu \"%s\"", i, absurd[i]);
	}
	/* Rejected before any derivation: far below the cost of one scrypt. */
	assert_true(now_ms() - start < 20);
}

static const struct {
	const char *password;
	bool ok;
	const char *reason_has;
} policy[] = {
	{ "abcd", true, NULL },
	{ "a b c d", true, NULL },
	{ "!#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", true, NULL },
	{ "1234567890123456789012345678901234567890123456789012345678901234", true, NULL },
	{ "12345678901234567890123456789012345678901234567890123456789012345", false, "at most 64" },
	{ "abc", false, "at least 4" },
	{ "", false, "at least 4" },
	{ " abcd", false, "space" },
	{ "abcd ", false, "space" },
	{ "    ", false, "space" },
	{ "ab\tcd", false, "control" },
	{ "abcd\n", false, "control" },
	{ "ab\x1b[0m", false, "control" },
	{ "abc\x7f", false, "control" },
	{ "p\xc3\xa4ssword", false, "ASCII" },
	{ "\xff\xfe\xfd\xfc", false, "ASCII" },
};

static void test_policy(void **state)
{
	char why[128];

	(void)state;
	for (size_t i = 0; i < sizeof policy / sizeof policy[0]; i++) {
		strcpy(why, "unchanged");
		bool ok = password_acceptable(policy[i].password, why, sizeof why);
		if (ok != policy[i].ok)
			fail_msg("policy #%zu: expected %s, got %s (%s)", i,
			    policy[i].ok ? "ok" : "rejected", ok ? "ok" : "rejected", why);
		if (ok)
			assert_string_equal(why, "");
		else if (!strstr(why, policy[i].reason_has) || strchr(why, '\n'))
			fail_msg("policy #%zu: reason \"%s\" lacks \"%s\"", i, why,
			    policy[i].reason_has);
	}
	assert_false(password_acceptable(NULL, why, sizeof why));
	assert_true(why[0] != '\0');
	/* A tiny or absent buffer is truncated or skipped, not overrun. */
	memset(why, 'x', sizeof why);
	assert_false(password_acceptable("ab", why, 3));
	assert_int_equal(why[2], '\0');
	assert_int_equal(why[3], 'x');
	assert_false(password_acceptable("ab", NULL, 0));
	assert_true(password_acceptable("abcd", NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_then_verify),
		cmocka_unit_test(test_salt_differs),
		cmocka_unit_test(test_known_answer),
		cmocka_unit_test(test_hash_bad_arguments),
		cmocka_unit_test(test_tampered_well_formed),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_absurd_parameters),
		cmocka_unit_test(test_policy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
