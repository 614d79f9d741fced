/* text_sanitize: what a client's line becomes before anyone sees it; text_crlf: line ends. */
#include <setjmp.h>
#include <stdbool.h>
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
	{ "C1 NEL dropped", "a\xc2\x85" "b", 4, "ab" },
	{ "C1 CSI dropped", "\xc2\x9b" "2J", 4, "2J" },
	{ "C1 first and last", "\xc2\x80x\xc2\x9f", 5, "x" },
	{ "NBSP kept", "\xc2\xa0", 2, "\xc2\xa0" },
	{ "LRE dropped", "\xe2\x80\xaa" "a", 4, "a" },
	{ "RLO dropped", "evil\xe2\x80\xaegnp.exe", 14, "evilgnp.exe" },
	{ "PDF dropped", "\xe2\x80\xac", 3, "" },
	{ "U+2027 kept", "\xe2\x80\xa7", 3, "\xe2\x80\xa7" },
	{ "narrow NBSP kept", "\xe2\x80\xaf", 3, "\xe2\x80\xaf" },
	{ "line separator dropped", "a\xe2\x80\xa8" "b", 5, "ab" },
	{ "paragraph separator dropped", "a\xe2\x80\xa9" "b", 5, "ab" },
	{ "LRI dropped", "\xe2\x81\xa6" "x", 4, "x" },
	{ "PDI dropped", "x\xe2\x81\xa9", 4, "x" },
	{ "U+2065 kept", "\xe2\x81\xa5", 3, "\xe2\x81\xa5" },
	{ "U+206A kept", "\xe2\x81\xaa", 3, "\xe2\x81\xaa" },
	{ "ESC sequence", "\x1b]0;title\x07" "hi", 12, "]0;titlehi" },
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

static bool hidden(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

/* Every code point, UTF-8 encoded: kept as is unless it is a control, a surrogate or hidden. */
static void test_every_code_point(void **state)
{
	(void)state;
	for (unsigned cp = 0; cp <= 0x10ffff; cp++) {
		char buf[8];
		size_t len;
		if (cp < 0x80) {
			buf[0] = (char)cp, len = 1;
		} else if (cp < 0x800) {
			buf[0] = (char)(0xc0 | cp >> 6), buf[1] = (char)(0x80 | (cp & 0x3f)), len = 2;
		} else if (cp < 0x10000) {
			buf[0] = (char)(0xe0 | cp >> 12), buf[1] = (char)(0x80 | (cp >> 6 & 0x3f));
			buf[2] = (char)(0x80 | (cp & 0x3f)), len = 3;
		} else {
			buf[0] = (char)(0xf0 | cp >> 18), buf[1] = (char)(0x80 | (cp >> 12 & 0x3f));
			buf[2] = (char)(0x80 | (cp >> 6 & 0x3f)), buf[3] = (char)(0x80 | (cp & 0x3f));
			len = 4;
		}
		char copy[8];
		memcpy(copy, buf, len);
		size_t n = text_sanitize(buf, len);
		bool kept = n == len && !memcmp(buf, copy, len);
		bool want = cp == '\t' ? false : cp < 0x20 || cp == 0x7f ? false :
		    cp >= 0xd800 && cp <= 0xdfff ? false : !hidden(cp);
		if (kept != want)
			fail_msg("U+%04X: %s", cp, kept ? "kept" : "changed");
		if (!want && !(cp >= 0xd800 && cp <= 0xdfff) && cp != '\t' && n != 0)
			fail_msg("U+%04X: left %zu bytes", cp, n);
	}
}

/* Plain translation, for text_crlf to agree with. */
static size_t crlf_naive(const char *in, size_t len, char *out)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		out[n++] = in[i];
		if (in[i] == '\n')
			out[n++] = '\r';
	}
	return n;
}

/* Every text of a, b and \n up to 9 bytes, through every chunk size from 2. */
static void test_crlf_chunks(void **state)
{
	(void)state;
	for (size_t len = 0; len <= 9; len++) {
		for (unsigned pattern = 0; pattern < 1u << (2 * len); pattern++) {
			char text[16], want[32], got[64];
			for (size_t i = 0; i < len; i++)
				text[i] = "ab\n\n"[pattern >> (2 * i) & 3];
			size_t want_len = crlf_naive(text, len, want);
			for (size_t cap = 2; cap <= 12; cap++) {
				size_t got_len = 0, at = 0;
				while (at < len) {
					char chunk[16];
					size_t taken, n = text_crlf(text + at, len - at, chunk, cap, &taken);
					assert_true(taken > 0);
					assert_true(n <= cap);
					/* A chunk never ends between \n and its \r. */
					if (n)
						assert_false(chunk[n - 1] == '\n');
					memcpy(got + got_len, chunk, n);
					got_len += n;
					at += taken;
				}
				assert_int_equal(at, len);
				assert_int_equal(got_len, want_len);
				assert_memory_equal(got, want, want_len);
			}
		}
	}
}

static void test_crlf_fills_chunk(void **state)
{
	char out[8];
	size_t taken;

	(void)state;
	/* A line longer than the chunk goes out in full chunks. */
	assert_int_equal(text_crlf("abcdefghij\n", 11, out, sizeof out, &taken), 8);
	assert_int_equal(taken, 8);
	assert_memory_equal(out, "abcdefgh", 8);
	/* A \n with room for only one byte more waits for the next chunk. */
	assert_int_equal(text_crlf("abcdefg\n", 8, out, sizeof out, &taken), 7);
	assert_int_equal(taken, 7);
	assert_int_equal(text_crlf("\n", 1, out, sizeof out, &taken), 2);
	assert_int_equal(taken, 1);
	assert_memory_equal(out, "\n\r", 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_every_code_point),
		cmocka_unit_test(test_exhaustive_short),
		cmocka_unit_test(test_crlf_chunks),
		cmocka_unit_test(test_crlf_fills_chunk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
