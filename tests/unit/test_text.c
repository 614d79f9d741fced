/* text_sanitize: what a client's line becomes before anyone sees it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "text.h"

static const struct {
	const char *name;
	const char *in;
	size_t len;
	const char *out;
} cases[] = {
	{ "plain", "tell bob hi", 11, "tell bob hi" },
	{ "tab becomes space", "a\tb", 3, "a b" },
	{ "NUL dropped", "a\0b", 3, "ab" },
	{ "control chars dropped", "a\x01\x1b[2Jb\x7f", 8, "a[2Jb" },
	{ "IAC WILL option", "\xff\xfb\x01login", 8, "login" },
	{ "IAC DO option mid-line", "ab\xff\xfd\x03" "cd", 7, "abcd" },
	{ "IAC SB ... IAC SE", "x\xff\xfa\x18\x01\xff\xf0y", 8, "xy" },
	{ "IAC two-byte command", "a\xff\xf1" "b", 4, "ab" },
	{ "IAC at end", "ab\xff", 3, "ab" },
	{ "IAC option cut off", "ab\xff\xfb", 4, "ab" },
	{ "UTF-8 two bytes kept", "caf\xc3\xa9", 5, "caf\xc3\xa9" },
	{ "UTF-8 three bytes kept", "\xe2\x99\x98", 3, "\xe2\x99\x98" },
	{ "UTF-8 four bytes kept", "\xf0\x9f\x98\x80", 4, "\xf0\x9f\x98\x80" },
	{ "lone continuation", "a\x80" "b", 3, "a?b" },
	{ "overlong two-byte", "\xc0\xaf", 2, "??" },
	{ "overlong three-byte", "\xe0\x80\xaf", 3, "???" },
	{ "surrogate", "\xed\xa0\x80", 3, "???" },
	{ "above U+10FFFF", "\xf4\x90\x80\x80", 4, "????" },
	{ "invalid lead F8", "\xf8\x88\x80\x80\x80", 5, "?????" },
	{ "truncated sequence at end", "ab\xe2\x99", 4, "ab??" },
	{ "latin-1 byte", "\xe9t\xe9", 3, "?t?" },
	{ "empty", "", 0, "" },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char buf[64];
		memcpy(buf, cases[i].in, cases[i].len);
		size_t n = text_sanitize(buf, cases[i].len);
		if (n != strlen(cases[i].out) || memcmp(buf, cases[i].out, n) || buf[n])
			fail_msg("%s: got \"%.*s\" (%zu bytes)", cases[i].name, (int)n, buf, n);
	}
}

/* Every byte string of length 3 comes out as valid UTF-8 with no control bytes. */
static void test_exhaustive_short(void **state)
{
	(void)state;
	for (unsigned a = 0; a < 256; a++) {
		for (unsigned b = 0; b < 256; b += 3) {
			for (unsigned c = 0; c < 256; c += 5) {
				char buf[4] = { (char)a, (char)b, (char)c, 0 };
				size_t n = text_sanitize(buf, 3);
				assert_true(n <= 3);
				for (size_t k = 0; k < n; k++) {
					unsigned char ch = (unsigned char)buf[k];
					assert_true(ch >= 0x20 && ch != 0x7f && ch != 0xff);
				}
				assert_int_equal(buf[n], 0);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_exhaustive_short),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
