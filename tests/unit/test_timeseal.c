/*
 * Timeseal v1 decoding: round trips through an encoder written here from
 * the description of the scheme (see timeseal.h), lines captured from a real
 * pychess 1.0.3 connection, and the per-connection state machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/*
 * Built in rather than linked, so this test does not depend on chessdlib
 * listing timeseal.c; once it does, the archive's copy is simply not used.
 */
#include "timeseal.h"

#define ENCODED_MAX 512

/* Timeseal swaps bytes 0<->11, 2<->9 and 4<->7 of every 12-byte block. */
static void swap_pairs(unsigned char *p, size_t len)
{
	for (size_t b = 0; b + TIMESEAL_BLOCK <= len; b += TIMESEAL_BLOCK) {
		unsigned char t;
		t = p[b]; p[b] = p[b + 11]; p[b + 11] = t;
		t = p[b + 2]; p[b + 2] = p[b + 9]; p[b + 9] = t;
		t = p[b + 4]; p[b + 4] = p[b + 7]; p[b + 7] = t;
	}
}

/*
 * The client's side: text, then \x18 ms \x19, then filler up to a multiple
 * of 12 (at least one byte), each block's pairs swapped, each byte
 * ((c | 0x80) ^ key[(i + offset) % 50]) - 32, then the byte 0x80 | offset.
 * Returns the encoded length (no newline).
 */
static size_t encode(const char *text, size_t len, int64_t ms, unsigned offset,
    unsigned char *out)
{
	static const char key[] = TIMESEAL_KEY;
	static const char filler[] = "1234567890abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char stamp[32];
	size_t n = len;

	memcpy(out, text, len);
	int k = snprintf(stamp, sizeof stamp, "\x18%lld\x19", (long long)ms);
	memcpy(out + n, stamp, (size_t)k);
	n += (size_t)k;
	size_t pad = TIMESEAL_BLOCK - n % TIMESEAL_BLOCK;
	for (size_t i = 0; i < pad; i++)
		out[n++] = (unsigned char)filler[(i * 7 + offset) % (sizeof filler - 1)];
	swap_pairs(out, n);
	for (size_t i = 0; i < n; i++)
		out[i] = (unsigned char)(((out[i] | 0x80u) ^ (unsigned char)key[(i + offset) % 50]) - 32u);
	out[n++] = (unsigned char)(0x80u | offset);
	return n;
}

static const struct {
	const char *name;
	const char *text;
} texts[] = {
	{ "empty", "" },
	{ "login name", "guest" },
	{ "move", "e2e4" },
	{ "block-mode command", "27 iset ms 1" },
	{ "ping answer", "\x02" "9" },
	{ "greeting", "TIMESTAMP|alice|Linux host 6.1.0 #1 SMP x86_64|" },
	{ "text and stamp fill a block to the last byte", "abc" },
	{ "characters timeseal sees as ordinary", "tell bob \x18not a stamp\x19 ok" },
	{ "long tell", "tell alice ............................................................"
	    "......................................................................................"
	    "......................................................................................" },
};

static const int64_t stamps[] = { 0, 1, 42, 999, 1234567, 4980919, 9999999 };

static void test_round_trip(void **state)
{
	(void)state;
	for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
		for (size_t s = 0; s < sizeof stamps / sizeof stamps[0]; s++) {
			for (unsigned offset = 0; offset < TIMESEAL_KEY_LEN; offset++) {
				unsigned char enc[ENCODED_MAX];
				size_t want = strlen(texts[t].text);
				size_t n = encode(texts[t].text, want, stamps[s], offset, enc);
				size_t text_len = 99;
				int64_t ms = -5;

				assert_int_equal((n - 1) % TIMESEAL_BLOCK, 0);
				for (size_t i = 0; i + 1 < n; i++)
					assert_true(enc[i] >= 0x60 && enc[i] <= 0xdf);
				assert_true(timeseal_detect((char *)enc, n));
				if (timeseal_decode((char *)enc, n, &text_len, &ms) < 0)
					fail_msg("%s, %lld ms, offset %u: does not decode", texts[t].name,
					    (long long)stamps[s], offset);
				if (text_len != want || memcmp(enc, texts[t].text, text_len) ||
				    enc[text_len] != '\0' || ms != stamps[s])
					fail_msg("%s, %lld ms, offset %u: got \"%.*s\" at %lld", texts[t].name,
					    (long long)stamps[s], offset, (int)text_len, (char *)enc, (long long)ms);
			}
		}
	}
}

/*
 * Captured from pychess 1.0.3 (pychess.ic.TimeSeal.ICSTelnet with timeseal
 * on, user name and uname pinned) talking to a listening socket: its
 * greeting, the login name, and its answer to "\n\r[G]\n\r".
 */
static const struct {
	const char *name;
	const char *bytes;
	size_t len;
	const char *text;
	int64_t ms;
} captured[] = {
	{ "greeting",
	  "\x8a\x60\x9f\x76\xc4\xd4\x97\xc2\xde\xdd\xa1\xd9\xaf\x73\xb2\x73\x72\x7b\x6f\x81\x75"
	  "\x60\x6c\xa9\xa2\x6d\x63\xde\xb5\xbf\xbc\xa7\xab\x60\xd6\x61\xd9\x80\x7a\xd4\x96\xb5"
	  "\xb3\x6b\xa2\x91\x71\x83\xcb\x71\x72\xd9\xba\xc2\x70\x79\x7b\x69\xa4\x64\x8b", 61,
	  "TIMESTAMP|alice|Linux host 6.1.0 #1 SMP x86_64|", 4980919 },
	{ "login name",
	  "\xa1\x67\xbf\x74\xab\xd9\xb9\x79\xbd\x61\x79\x65\x8d\x99\x7f\x61\x94\x61\xb0\x63\xa5"
	  "\x76\x73\xb8\x98", 25,
	  "guest", 4980919 },
	{ "ping answer",
	  "\x6b\xbc\xbe\xa6\xb0\xb3\x70\xde\xa0\xd9\xd4\x8c\xa6", 13,
	  "\x02" "9", 4980920 },
};

static void test_captured_pychess(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof captured / sizeof captured[0]; i++) {
		char buf[ENCODED_MAX];
		size_t text_len;
		int64_t ms;

		memcpy(buf, captured[i].bytes, captured[i].len);
		assert_true(timeseal_detect(buf, captured[i].len));
		if (timeseal_decode(buf, captured[i].len, &text_len, &ms) < 0)
			fail_msg("%s: does not decode", captured[i].name);
		assert_int_equal(text_len, strlen(captured[i].text));
		assert_memory_equal(buf, captured[i].text, text_len);
		assert_int_equal(ms, captured[i].ms);
	}
	char pong[16];
	size_t len;
	int64_t ms;
	memcpy(pong, captured[2].bytes, captured[2].len);
	assert_int_equal(timeseal_decode(pong, captured[2].len, &len, &ms), 0);
	assert_true(timeseal_is_pong(pong, len));
	assert_false(timeseal_is_pong("9", 1));
	assert_false(timeseal_is_pong("\x02" "9x", 3));
}

/* Lines that must not pass for encoded ones. */
static void test_rejects(void **state)
{
	unsigned char good[ENCODED_MAX];
	size_t n = encode("guest", 5, 1234, 7, good);

	(void)state;
	static const struct {
		const char *name;
		const char *bytes;
		size_t len;
	} plain[] = {
		{ "plain name", "guest", 5 },
		{ "UTF-8 name ending in a high byte", "Jos\xc3\xa9", 5 },
		{ "thirteen UTF-8 bytes", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xa9", 13 },
		{ "empty", "", 0 },
		{ "offset byte only", "\x85", 1 },
	};
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
		char buf[32];
		size_t text_len;
		int64_t ms;
		memcpy(buf, plain[i].bytes, plain[i].len);
		if (timeseal_detect(buf, plain[i].len))
			fail_msg("%s: taken for timeseal", plain[i].name);
		assert_int_equal(timeseal_decode(buf, plain[i].len, &text_len, &ms), -1);
	}

	unsigned char bad[ENCODED_MAX];
	size_t text_len;
	int64_t ms;

	/* One byte short or long of the block structure. */
	memcpy(bad, good, n);
	bad[n - 2] = bad[n - 1];
	assert_false(timeseal_detect((char *)bad, n - 1));
	memcpy(bad, good, n);
	bad[n] = bad[n - 1];
	bad[n - 1] = 0x70;
	assert_false(timeseal_detect((char *)bad, n + 1));
	/* An offset past the key. */
	memcpy(bad, good, n);
	bad[n - 1] = (unsigned char)(0x80 | TIMESEAL_KEY_LEN);
	assert_int_equal(timeseal_decode((char *)bad, n, &text_len, &ms), -1);
	/* A byte that decodes without its high bit. */
	memcpy(bad, good, n);
	bad[0] = 0x20;
	assert_int_equal(timeseal_decode((char *)bad, n, &text_len, &ms), -1);

	/* Well-formed blocks whose plain text lacks a stamp, or has a bad one. */
	static const char *unstamped[] = {
		"no stamp at all",
		"guest\x18\x19xx",		/* no digits */
		"guest\x18" "12a4\x19x",	/* not a number */
		"guest 1234\x19x",		/* no opening \x18 */
		"guest\x18" "12345678901\x19",	/* eleven digits */
		"guest\x18" "1\x19" "0123456789abc",	/* more filler than a block */
	};
	for (size_t i = 0; i < sizeof unstamped / sizeof unstamped[0]; i++) {
		/* Encode the raw text with no stamp added: pad it by hand. */
		unsigned char raw[ENCODED_MAX];
		size_t len = strlen(unstamped[i]);
		memcpy(raw, unstamped[i], len);
		while (len % TIMESEAL_BLOCK)
			raw[len++] = 'z';
		static const char key[] = TIMESEAL_KEY;
		swap_pairs(raw, len);
		for (size_t k = 0; k < len; k++)
			raw[k] = (unsigned char)(((raw[k] | 0x80u) ^ (unsigned char)key[(k + 3) % 50]) - 32u);
		raw[len++] = 0x83;
		if (timeseal_decode((char *)raw, len, &text_len, &ms) == 0)
			fail_msg("\"%s\" decoded", unstamped[i]);
	}
}

/* Encodes into buf as a NUL-terminated line and returns its length. */
static size_t line_of(char *buf, const char *text, int64_t ms)
{
	return encode(text, strlen(text), ms, (unsigned)(ms % TIMESEAL_KEY_LEN), (unsigned char *)buf);
}

static void test_plain_session(void **state)
{
	struct timeseal ts;
	char buf[ENCODED_MAX];
	size_t len;

	(void)state;
	timeseal_init(&ts);
	strcpy(buf, "guest");
	len = 5;
	assert_int_equal(timeseal_input(&ts, buf, &len, 0), TIMESEAL_PLAIN);
	assert_int_equal(len, 5);
	assert_string_equal(buf, "guest");
	assert_false(ts.on);
	/* Decided on the first line: an encoded line later is left alone. */
	len = line_of(buf, "e2e4", 10);
	assert_int_equal(timeseal_input(&ts, buf, &len, 0), TIMESEAL_PLAIN);
	assert_int_equal(ts.client_ms, -1);
	assert_int_equal(timeseal_ping(&ts, 0, 1), -1);
}

static void test_encoded_session(void **state)
{
	struct timeseal ts;
	char buf[ENCODED_MAX];
	size_t len;

	(void)state;
	timeseal_init(&ts);
	len = line_of(buf, "TIMESTAMP|bob|Linux|", 100);
	assert_int_equal(timeseal_input(&ts, buf, &len, 5000), TIMESEAL_HELLO_LINE);
	assert_true(ts.on);
	assert_int_equal(ts.client_ms, 100);

	len = line_of(buf, "guest", 250);
	assert_int_equal(timeseal_input(&ts, buf, &len, 5100), TIMESEAL_COMMAND);
	assert_int_equal(len, 5);
	assert_string_equal(buf, "guest");
	assert_int_equal(ts.client_ms, 250);

	/* A second greeting is just a line. */
	len = line_of(buf, "TIMESTAMP|bob|Linux|", 300);
	assert_int_equal(timeseal_input(&ts, buf, &len, 5200), TIMESEAL_COMMAND);

	/* Plain text and an empty line are not valid in an encoded session. */
	strcpy(buf, "who");
	len = 3;
	assert_int_equal(timeseal_input(&ts, buf, &len, 5300), TIMESEAL_GARBAGE);
	len = 0;
	assert_int_equal(timeseal_input(&ts, buf, &len, 5300), TIMESEAL_GARBAGE);

	/* An answer to no ping. */
	len = line_of(buf, TIMESEAL_PING_REPLY, 400);
	assert_int_equal(timeseal_input(&ts, buf, &len, 5400), TIMESEAL_PONG);
	assert_int_equal(ts.rtt_ms, -1);
	assert_int_equal(ts.pong_tag, 0);
	assert_int_equal(ts.client_ms, 400);

	/* Answers pair with pings oldest first. */
	assert_int_equal(timeseal_ping(&ts, 6000, 7), 0);
	assert_int_equal(timeseal_ping(&ts, 6100, 8), 0);
	len = line_of(buf, TIMESEAL_PING_REPLY, 1500);
	assert_int_equal(timeseal_input(&ts, buf, &len, 6040), TIMESEAL_PONG);
	assert_int_equal(ts.rtt_ms, 40);
	assert_int_equal(ts.pong_tag, 7);
	assert_int_equal(ts.client_ms, 1500);
	len = line_of(buf, TIMESEAL_PING_REPLY, 1600);
	assert_int_equal(timeseal_input(&ts, buf, &len, 6350), TIMESEAL_PONG);
	assert_int_equal(ts.rtt_ms, 250);
	assert_int_equal(ts.pong_tag, 8);
	assert_int_equal(ts.ping_count, 0);
}

static void test_first_line_not_greeting(void **state)
{
	struct timeseal ts;
	char buf[ENCODED_MAX];
	size_t len;

	(void)state;
	timeseal_init(&ts);
	len = line_of(buf, "guest", 77);
	assert_int_equal(timeseal_input(&ts, buf, &len, 0), TIMESEAL_COMMAND);
	assert_string_equal(buf, "guest");
	assert_true(ts.on);
}

/* A client that never answers gets TIMESEAL_PINGS_MAX pings and no more; the ring wraps. */
static void test_ping_limit(void **state)
{
	struct timeseal ts;
	char buf[ENCODED_MAX];
	size_t len;

	(void)state;
	timeseal_init(&ts);
	len = line_of(buf, "TIMESTAMP|x|y|", 1);
	timeseal_input(&ts, buf, &len, 0);
	for (int i = 0; i < TIMESEAL_PINGS_MAX; i++)
		assert_int_equal(timeseal_ping(&ts, i, i + 1), 0);
	assert_int_equal(timeseal_ping(&ts, 99, 99), -1);
	for (int round = 0; round < 3 * TIMESEAL_PINGS_MAX; round++) {
		len = line_of(buf, TIMESEAL_PING_REPLY, 1000 + round);
		assert_int_equal(timeseal_input(&ts, buf, &len, 10000 + round), TIMESEAL_PONG);
		assert_int_equal(ts.pong_tag, round + 1);
		assert_int_equal(timeseal_ping(&ts, 10000 + round, round + 1 + TIMESEAL_PINGS_MAX), 0);
		assert_int_equal(ts.ping_count, TIMESEAL_PINGS_MAX);
	}
}

static void test_elapsed_wraps(void **state)
{
	(void)state;
	assert_int_equal(timeseal_elapsed_ms(1000, 4500), 3500);
	assert_int_equal(timeseal_elapsed_ms(9999000, 500), 1500);
	assert_int_equal(timeseal_elapsed_ms(500, 500), 0);
	assert_int_equal(timeseal_elapsed_ms(-1, 500), -1);
	assert_int_equal(timeseal_elapsed_ms(500, -1), -1);
	/* A stamp from "before" the board reads as almost a full wrap: the caller bounds it. */
	assert_int_equal(timeseal_elapsed_ms(500, 499), TIMESEAL_CLOCK_WRAP_MS - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_captured_pychess),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_plain_session),
		cmocka_unit_test(test_encoded_session),
		cmocka_unit_test(test_first_line_not_greeting),
		cmocka_unit_test(test_ping_limit),
		cmocka_unit_test(test_elapsed_wraps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
