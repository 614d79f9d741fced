/* printable_clean: what of a server's text reaches the user's terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "printable.h"
#include "proto.h"

static const struct {
	const char *name, *in, *out;
} cases[] = {
	{ "plain", "GuestABCD(U) tells you: hi", "GuestABCD(U) tells you: hi" },
	{ "tab kept", "a\tb", "a\tb" },
	{ "empty", "", "" },
	{ "UTF-8 kept", "caf\xc3\xa9 \xe2\x99\x98 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x99\x98 \xf0\x9f\x98\x80" },
	{ "OSC title with BEL", "a\x1b]0;pwned\x07" "b", "a?b" },
	{ "OSC title with ST", "a\x1b]2;pwned\x1b\\b", "a?b" },
	{ "OSC unterminated", "a\x1b]0;pwned to the end", "a?" },
	{ "OSC 52 clipboard", "\x1b]52;c;Y3VybCBldmlsfHNo\x07ok", "?ok" },
	{ "OSC 8 hyperlink", "\x1b]8;;http://x\x1b\\click\x1b]8;;\x1b\\", "?click?" },
	{ "CSI clear", "\x1b[2Jx", "?x" },
	{ "CSI home and clear", "\x1b[H\x1b[2J", "??" },
	{ "CSI colour", "\x1b[1;31mred\x1b[0m", "?red?" },
	{ "CSI private mode", "\x1b[?1049h", "?" },
	{ "CSI with intermediate", "\x1b[0 q.", "?." },
	{ "CSI cut off", "\x1b[12", "?" },
	{ "DCS", "\x1bPq#0;2;0;0;0\x1b\\z", "?z" },
	{ "APC", "\x1b_Gf=100;AAAA\x1b\\z", "?z" },
	{ "ESC c reset", "\x1b" "cok", "?ok" },
	{ "ESC charset", "\x1b(0lqk", "?lqk" },
	{ "ESC 7", "\x1b" "7x", "?x" },
	{ "lone ESC at end", "x\x1b", "x?" },
	{ "ESC ESC", "\x1b\x1b[2J", "??" },
	{ "BEL", "ding\x07", "ding?" },
	{ "backspace", "ab\x08\x08xy", "ab??xy" },
	{ "carriage return", "real\rfake", "real?fake" },
	{ "vertical tab form feed", "a\x0b\x0c" "b", "a??b" },
	{ "DEL", "a\x7f" "b", "a?b" },
	{ "C1 CSI as UTF-8", "\xc2\x9b" "2Jx", "?x" },
	{ "C1 OSC as UTF-8", "\xc2\x9d" "0;t\x07x", "?x" },
	{ "C1 OSC ended by C1 ST", "\xc2\x9d" "0;t\xc2\x9cx", "?x" },
	{ "C1 NEL as UTF-8", "a\xc2\x85" "b", "a?b" },
	{ "raw 8-bit CSI", "\x9b" "2Jx", "?x" },
	{ "raw 8-bit OSC", "\x9d" "0;t\x07x", "?x" },
	{ "raw 8-bit IND", "a\x84" "b", "a?b" },
	{ "NBSP kept", "a\xc2\xa0" "b", "a\xc2\xa0" "b" },
	{ "RLO", "file\xe2\x80\xaetxt.exe", "file?txt.exe" },
	{ "LRE PDF", "\xe2\x80\xaa" "a\xe2\x80\xac", "?a?" },
	{ "isolates", "\xe2\x81\xa6" "a\xe2\x81\xa9", "?a?" },
	{ "line separator", "a\xe2\x80\xa8" "b", "a?b" },
	{ "paragraph separator", "a\xe2\x80\xa9" "b", "a?b" },
	{ "U+2027 kept", "\xe2\x80\xa7", "\xe2\x80\xa7" },
	{ "invalid UTF-8", "a\xff\xfe" "b", "a??b" },
	{ "overlong", "\xc0\xaf", "??" },
	{ "surrogate", "\xed\xa0\x80", "???" },
	{ "truncated", "ab\xe2\x99", "ab??" },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char buf[128];
		snprintf(buf, sizeof buf, "%s", cases[i].in);
		size_t n = printable_clean(buf);
		if (strcmp(buf, cases[i].out) || n != strlen(buf))
			fail_msg("%s: got \"%s\" (%zu)", cases[i].name, buf, n);
	}
}

/* Every 3-byte string comes out with no byte a terminal would act on. */
static void test_no_control_survives(void **state)
{
	(void)state;
	for (unsigned a = 1; a < 256; a++) {
		for (unsigned b = 1; b < 256; b += 3) {
			for (unsigned c = 1; c < 256; c += 7) {
				char buf[4] = { (char)a, (char)b, (char)c, 0 };
				size_t n = printable_clean(buf);
				assert_true(n <= 3);
				for (size_t k = 0; k < n; k++) {
					unsigned char ch = (unsigned char)buf[k];
					assert_true(ch == '\t' || (ch >= 0x20 && ch != 0x7f));
					if (ch == 0xc2 && k + 1 < n)
						assert_true((unsigned char)buf[k + 1] >= 0xa0);
				}
			}
		}
	}
}

static char seen[256];

static void on_line(void *arg, const char *line, long block)
{
	(void)arg;
	(void)block;
	snprintf(seen, sizeof seen, "%s", line);
}

/* The FICS stream hands its consumers clean lines, and survives a huge block id. */
static void test_stream_lines_are_clean(void **state)
{
	(void)state;
	struct proto_callbacks cb = { on_line, NULL, NULL };
	struct proto *p = proto_new(&cb, NULL);
	assert_non_null(p);
	const char evil[] = "\x1b]0;owned\x07" "bob tells you: \x1b[2Jhi\n\r";
	proto_feed(p, evil, sizeof evil - 1);
	assert_string_equal(seen, "?bob tells you: ?hi");
	const char block[] = "\x15" "99999999999999999999999999\x16" "99999999999999\x16" "x\n\r\x17";
	proto_feed(p, block, sizeof block - 1);
	assert_string_equal(seen, "x");
	proto_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_no_control_survives),
		cmocka_unit_test(test_stream_lines_are_clean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
