/* Unit tests for common/clock.c: parsing, text forms, categories, clock arithmetic, lag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"

#define SEC	1000
#define MIN	(60 * SEC)

static void expect_i64(const char *text, const char *what, int64_t got, int64_t want)
{
	if (got != want)
		fail_msg("'%s': %s is %lld, expected %lld", text, what, (long long)got,
		    (long long)want);
}

static void expect_str(const char *text, const char *what, const char *got, const char *want)
{
	if (strcmp(got, want) != 0)
		fail_msg("'%s': %s is '%s', expected '%s'", text, what, got, want);
}

static void parse_ok(struct clock_control *tc, const char *text)
{
	char err[128] = "";

	if (clock_parse(tc, text, err, sizeof err) != 0)
		fail_msg("'%s' rejected: %s", text, err);
}

static void expect_same_control(const char *text, const struct clock_control *got,
    const struct clock_control *want)
{
	expect_i64(text, "period_count", got->period_count, want->period_count);
	for (int i = 0; i < want->period_count; i++) {
		expect_i64(text, "period moves", got->periods[i].moves, want->periods[i].moves);
		expect_i64(text, "period base_ms", got->periods[i].base_ms, want->periods[i].base_ms);
	}
	expect_i64(text, "bonus", got->bonus, want->bonus);
	expect_i64(text, "bonus_ms", got->bonus_ms, want->bonus_ms);
}

/* Parsing: accepted forms. */

struct valid_case {
	const char *text;
	struct clock_control want;
	const char *canonical;
	const char *pgn;
	enum clock_category category;
};

static const struct valid_case valid_cases[] = {
	{ "5 0", { 1, { { 0, 5 * MIN } }, CLOCK_BONUS_NONE, 0 }, "5+0", "300",
	    CLOCK_CATEGORY_BLITZ },
	{ "2 12", { 1, { { 0, 2 * MIN } }, CLOCK_BONUS_FISCHER, 12 * SEC }, "2+12", "120+12",
	    CLOCK_CATEGORY_BLITZ },
	{ "\t2\t 12 ", { 1, { { 0, 2 * MIN } }, CLOCK_BONUS_FISCHER, 12 * SEC }, "2+12",
	    "120+12", CLOCK_CATEGORY_BLITZ },
	{ "5", { 1, { { 0, 5 * MIN } }, CLOCK_BONUS_NONE, 0 }, "5+0", "300",
	    CLOCK_CATEGORY_BLITZ },
	{ "3+2", { 1, { { 0, 3 * MIN } }, CLOCK_BONUS_FISCHER, 2 * SEC }, "3+2", "180+2",
	    CLOCK_CATEGORY_BLITZ },
	{ " 3 + 2 ", { 1, { { 0, 3 * MIN } }, CLOCK_BONUS_FISCHER, 2 * SEC }, "3+2", "180+2",
	    CLOCK_CATEGORY_BLITZ },
	{ "05+03", { 1, { { 0, 5 * MIN } }, CLOCK_BONUS_FISCHER, 3 * SEC }, "5+3", "300+3",
	    CLOCK_CATEGORY_BLITZ },
	{ "1+0", { 1, { { 0, 1 * MIN } }, CLOCK_BONUS_NONE, 0 }, "1+0", "60",
	    CLOCK_CATEGORY_LIGHTNING },
	{ "0.5+0", { 1, { { 0, 30 * SEC } }, CLOCK_BONUS_NONE, 0 }, "0.5+0", "30",
	    CLOCK_CATEGORY_LIGHTNING },
	{ "0.25+0", { 1, { { 0, 15 * SEC } }, CLOCK_BONUS_NONE, 0 }, "0.25+0", "15",
	    CLOCK_CATEGORY_LIGHTNING },
	{ "1.5+1", { 1, { { 0, 90 * SEC } }, CLOCK_BONUS_FISCHER, 1 * SEC }, "1.5+1", "90+1",
	    CLOCK_CATEGORY_LIGHTNING },
	{ "2.05 0", { 1, { { 0, 123 * SEC } }, CLOCK_BONUS_NONE, 0 }, "2.05+0", "123",
	    CLOCK_CATEGORY_LIGHTNING },
	{ "2.50+0", { 1, { { 0, 150 * SEC } }, CLOCK_BONUS_NONE, 0 }, "2.5+0", "150",
	    CLOCK_CATEGORY_LIGHTNING },
	{ "0.050000+0", { 1, { { 0, 3 * SEC } }, CLOCK_BONUS_NONE, 0 }, "0.05+0", "3",
	    CLOCK_CATEGORY_LIGHTNING },
	{ "3.55+0", { 1, { { 0, 213 * SEC } }, CLOCK_BONUS_NONE, 0 }, "3.55+0", "213",
	    CLOCK_CATEGORY_BLITZ },
	{ "5d3", { 1, { { 0, 5 * MIN } }, CLOCK_BONUS_BRONSTEIN, 3 * SEC }, "5d3", "300",
	    CLOCK_CATEGORY_BLITZ },
	{ "5s3", { 1, { { 0, 5 * MIN } }, CLOCK_BONUS_SIMPLE, 3 * SEC }, "5s3", "300",
	    CLOCK_CATEGORY_BLITZ },
	{ "5 d 3", { 1, { { 0, 5 * MIN } }, CLOCK_BONUS_BRONSTEIN, 3 * SEC }, "5d3", "300",
	    CLOCK_CATEGORY_BLITZ },
	{ "5d0", { 1, { { 0, 5 * MIN } }, CLOCK_BONUS_NONE, 0 }, "5+0", "300",
	    CLOCK_CATEGORY_BLITZ },
	{ "40/90,30+30", { 2, { { 40, 90 * MIN }, { 0, 30 * MIN } }, CLOCK_BONUS_FISCHER, 30 * SEC },
	    "40/90,30+30", "40/5400+30:1800+30", CLOCK_CATEGORY_STANDARD },
	{ "40/90, 30 +30", { 2, { { 40, 90 * MIN }, { 0, 30 * MIN } }, CLOCK_BONUS_FISCHER,
	    30 * SEC }, "40/90,30+30", "40/5400+30:1800+30", CLOCK_CATEGORY_STANDARD },
	{ "40/120,20/60,30", { 3, { { 40, 120 * MIN }, { 20, 60 * MIN }, { 0, 30 * MIN } },
	    CLOCK_BONUS_NONE, 0 }, "40/120,20/60,30+0", "40/7200:20/3600:1800",
	    CLOCK_CATEGORY_STANDARD },
	{ "40/120", { 1, { { 40, 120 * MIN } }, CLOCK_BONUS_NONE, 0 }, "40/120+0", "40/7200",
	    CLOCK_CATEGORY_STANDARD },
	{ "40/120,20/60", { 2, { { 40, 120 * MIN }, { 20, 60 * MIN } }, CLOCK_BONUS_NONE, 0 },
	    "40/120,20/60+0", "40/7200:20/3600", CLOCK_CATEGORY_STANDARD },
	{ "40/100,20/50,10/10,15d30", { 4, { { 40, 100 * MIN }, { 20, 50 * MIN }, { 10, 10 * MIN },
	    { 0, 15 * MIN } }, CLOCK_BONUS_BRONSTEIN, 30 * SEC }, "40/100,20/50,10/10,15d30",
	    "40/6000:20/3000:10/600:900", CLOCK_CATEGORY_STANDARD },
	{ "0+1", { 1, { { 0, 0 } }, CLOCK_BONUS_FISCHER, 1 * SEC }, "0+1", "0+1",
	    CLOCK_CATEGORY_LIGHTNING },
	{ "0 2", { 1, { { 0, 0 } }, CLOCK_BONUS_FISCHER, 2 * SEC }, "0+2", "0+2",
	    CLOCK_CATEGORY_LIGHTNING },
	{ "1440+600", { 1, { { 0, 1440 * MIN } }, CLOCK_BONUS_FISCHER, 600 * SEC }, "1440+600",
	    "86400+600", CLOCK_CATEGORY_STANDARD },
	{ "200/60,30", { 2, { { 200, 60 * MIN }, { 0, 30 * MIN } }, CLOCK_BONUS_NONE, 0 },
	    "200/60,30+0", "200/3600:1800", CLOCK_CATEGORY_STANDARD },
	{ "untimed", { 0, { { 0, 0 } }, CLOCK_BONUS_NONE, 0 }, "untimed", "-",
	    CLOCK_CATEGORY_UNTIMED },
	{ "UnTimed", { 0, { { 0, 0 } }, CLOCK_BONUS_NONE, 0 }, "untimed", "-",
	    CLOCK_CATEGORY_UNTIMED },
	{ " - ", { 0, { { 0, 0 } }, CLOCK_BONUS_NONE, 0 }, "untimed", "-",
	    CLOCK_CATEGORY_UNTIMED },
	{ "0 0", { 0, { { 0, 0 } }, CLOCK_BONUS_NONE, 0 }, "untimed", "-",
	    CLOCK_CATEGORY_UNTIMED },
	{ "0", { 0, { { 0, 0 } }, CLOCK_BONUS_NONE, 0 }, "untimed", "-",
	    CLOCK_CATEGORY_UNTIMED },
	{ "0+0", { 0, { { 0, 0 } }, CLOCK_BONUS_NONE, 0 }, "untimed", "-",
	    CLOCK_CATEGORY_UNTIMED },
};

static void test_parse_valid(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof valid_cases / sizeof valid_cases[0]; i++) {
		const struct valid_case *c = &valid_cases[i];
		struct clock_control tc;
		char buf[CLOCK_TEXT_MAX];

		parse_ok(&tc, c->text);
		expect_same_control(c->text, &tc, &c->want);
		clock_format(&tc, buf, sizeof buf);
		expect_str(c->text, "canonical text", buf, c->canonical);
		clock_format_pgn(&tc, buf, sizeof buf);
		expect_str(c->text, "PGN TimeControl", buf, c->pgn);
		expect_i64(c->text, "category", clock_category(&tc), c->category);
	}
}

/* The canonical text parses back to the same control and formats identically. */
static void test_format_round_trip(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof valid_cases / sizeof valid_cases[0]; i++) {
		const char *text = valid_cases[i].text;
		struct clock_control tc, again;
		char first[CLOCK_TEXT_MAX], second[CLOCK_TEXT_MAX];

		parse_ok(&tc, text);
		clock_format(&tc, first, sizeof first);
		parse_ok(&again, first);
		expect_same_control(text, &again, &tc);
		clock_format(&again, second, sizeof second);
		expect_str(text, "second formatting", second, first);
	}
}

/* The longest controls still fit the documented buffer size. */
static void test_format_longest_fits(void **state)
{
	struct clock_control tc;
	char buf[CLOCK_TEXT_MAX];

	(void)state;
	parse_ok(&tc, "200/1439.95,200/1439.95,200/1439.95,200/1439.95s600");
	clock_format(&tc, buf, sizeof buf);
	assert_string_equal(buf, "200/1439.95,200/1439.95,200/1439.95,200/1439.95s600");
	parse_ok(&tc, "200/1440,200/1440,200/1440,200/1440+600");
	clock_format_pgn(&tc, buf, sizeof buf);
	assert_string_equal(buf, "200/86400+600:200/86400+600:200/86400+600:200/86400+600");
}

static void test_format_truncates(void **state)
{
	struct clock_control tc;
	char buf[16];

	(void)state;
	parse_ok(&tc, "40/90,30+30");
	memset(buf, 'x', sizeof buf);
	clock_format(&tc, buf, 8);
	assert_string_equal(buf, "40/90,3");
	assert_int_equal(buf[8], 'x');

	memset(buf, 'x', sizeof buf);
	clock_format_pgn(&tc, buf, 6);
	assert_string_equal(buf, "40/54");
	assert_int_equal(buf[6], 'x');

	memset(buf, 'x', sizeof buf);
	clock_format(&tc, buf, 0);
	assert_int_equal(buf[0], 'x');
}

/* Parsing: every rejection, with its message. */

struct invalid_case {
	const char *text;
	const char *message;
};

static const struct invalid_case invalid_cases[] = {
	{ NULL, "empty time control" },
	{ "", "empty time control" },
	{ " \t ", "empty time control" },
	{ "abc", "expected a number at 'abc'" },
	{ "untimed+2", "expected a number at 'untimed+2'" },
	{ ",30", "expected a number at ',30'" },
	{ "-5", "negative numbers are not allowed" },
	{ "-5 0", "negative numbers are not allowed" },
	{ "5 -1", "negative numbers are not allowed" },
	{ "3+-2", "negative numbers are not allowed" },
	{ "40/-90", "negative numbers are not allowed" },
	{ "5x", "unexpected 'x' after '5'" },
	{ "5D3", "unexpected 'D' after '5'" },
	{ "3+2+1", "unexpected '+' after '3+2'" },
	{ "2.5.1", "unexpected '.' after '2.5'" },
	{ "5 abc", "unexpected 'a' after '5'" },
	{ "5-3", "unexpected '-' after '5'" },
	{ "5-3 0", "unexpected space between numbers in '5-3 0'" },
	{ "5 0 0", "unexpected space between numbers in '5 0 0'" },
	{ "4 0/90", "unexpected space between numbers in '4 0/90'" },
	{ "3+", "time control ends where a number was expected" },
	{ "5d", "time control ends where a number was expected" },
	{ "40/90,", "time control ends where a number was expected" },
	{ "40/", "time control ends where a number was expected" },
	{ "5.", "expected digits after '.'" },
	{ "3+2.5", "increment and delay must be whole seconds" },
	{ "5 0.5", "increment and delay must be whole seconds" },
	{ "40.5/90", "a move count must be a whole number" },
	{ "40/90/3", "unexpected '/' after '40/90'" },
	{ "0/90", "a move count must be at least 1" },
	{ "1.01+0", "1.01 minutes is not a whole number of seconds" },
	{ "0.01+0", "0.01 minutes is not a whole number of seconds" },
	{ "0.00005+0", "0.00005 minutes is not a whole number of seconds" },
	{ "0.0000001", "more than 6 decimals in '0.0000001'" },
	{ "201/90,30", "period 1: more than 200 moves" },
	{ "40/90,99999999999999/30,30", "period 2: more than 200 moves" },
	{ "4294967297/30,30", "period 1: more than 200 moves" },	/* 2^32 + 1 */
	{ "1441+0", "period 1: more than 1440 minutes" },
	{ "1440.05+0", "period 1: more than 1440 minutes" },
	{ "99999999999999999999999+0", "period 1: more than 1440 minutes" },
	{ "40/90,2000", "period 2: more than 1440 minutes" },
	{ "3+601", "increment over 600 seconds" },
	{ "3 601", "increment over 600 seconds" },
	{ "3d601", "delay over 600 seconds" },
	{ "3s99999999999999999", "delay over 600 seconds" },
	{ "30,40/90", "period 1 has no move count, so it must be the last" },
	{ "40/90,30,20", "period 2 has no move count, so it must be the last" },
	{ "40/10,40/10,40/10,40/10,30", "more than 4 periods" },
	{ "40/0,30", "period 1 has no time" },
	{ "40/90,0+30", "period 2 has no time" },
	{ "40/0+5", "period 1 has no time" },
	{ "40/90+30,30", "the increment or delay goes once, after the last period" },
	{ "1234567890123456789012345678901234567890123456789012345678901234567890123456789012",
	    "time control longer than 80 characters" },
};

static void test_parse_invalid(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof invalid_cases / sizeof invalid_cases[0]; i++) {
		const struct invalid_case *c = &invalid_cases[i];
		const char *shown = c->text ? c->text : "(null)";
		struct clock_control tc;
		char err[128] = "";

		/* A failed parse must not leave the previous control behind. */
		parse_ok(&tc, "40/90,30+30");
		if (clock_parse(&tc, c->text, err, sizeof err) != -1)
			fail_msg("'%s' accepted", shown);
		expect_str(shown, "error", err, c->message);
		expect_i64(shown, "period_count after failure", tc.period_count, 0);
		expect_i64(shown, "bonus_ms after failure", tc.bonus_ms, 0);
	}
}

/* Rejection with no error buffer, or a short one, is still a clean -1. */
static void test_parse_error_buffer(void **state)
{
	struct clock_control tc;
	char err[6];

	(void)state;
	assert_int_equal(clock_parse(&tc, "3+601", NULL, 0), -1);
	memset(err, 'x', sizeof err);
	assert_int_equal(clock_parse(&tc, "3+601", err, 0), -1);
	assert_int_equal(err[0], 'x');
	assert_int_equal(clock_parse(&tc, "", err, sizeof err), -1);
	assert_string_equal(err, "empty");
}

/* Categories (FICS), boundaries in exact arithmetic. */

struct category_case {
	const char *text;
	enum clock_category category;
};

static const struct category_case category_cases[] = {
	{ "2 12", CLOCK_CATEGORY_BLITZ },	/* t = 2 + 8 = 10 */
	{ "3 0", CLOCK_CATEGORY_BLITZ },	/* t = 3: not below 3 */
	{ "2.95 0", CLOCK_CATEGORY_LIGHTNING },	/* t = 2.95 */
	{ "2 1", CLOCK_CATEGORY_LIGHTNING },	/* t = 2.67 */
	{ "1+3", CLOCK_CATEGORY_BLITZ },	/* t = 1 + 2 = 3 exactly */
	{ "0.5+3", CLOCK_CATEGORY_LIGHTNING },	/* t = 2.5 */
	{ "0+4", CLOCK_CATEGORY_LIGHTNING },	/* t = 2.67 */
	{ "0+5", CLOCK_CATEGORY_BLITZ },	/* t = 3.33 */
	{ "14 1", CLOCK_CATEGORY_BLITZ },	/* t = 14.67 */
	{ "14.95 0", CLOCK_CATEGORY_BLITZ },	/* t = 14.95 */
	{ "12+4", CLOCK_CATEGORY_BLITZ },	/* t = 14.67 */
	{ "13+3", CLOCK_CATEGORY_STANDARD },	/* t = 15 exactly */
	{ "15 0", CLOCK_CATEGORY_STANDARD },
	{ "2d2", CLOCK_CATEGORY_BLITZ },	/* a delay counts as an increment: 3.33 */
	{ "2s1", CLOCK_CATEGORY_LIGHTNING },	/* 2.67 */
	{ "40/2,30", CLOCK_CATEGORY_LIGHTNING },	/* the first period decides */
	{ "40/90,30+30", CLOCK_CATEGORY_STANDARD },
	{ "-", CLOCK_CATEGORY_UNTIMED },
};

static void test_category(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof category_cases / sizeof category_cases[0]; i++) {
		struct clock_control tc;

		parse_ok(&tc, category_cases[i].text);
		expect_str(category_cases[i].text, "category",
		    clock_category_name(clock_category(&tc)),
		    clock_category_name(category_cases[i].category));
	}
}

static void test_category_names(void **state)
{
	(void)state;
	assert_string_equal(clock_category_name(CLOCK_CATEGORY_LIGHTNING), "lightning");
	assert_string_equal(clock_category_name(CLOCK_CATEGORY_BLITZ), "blitz");
	assert_string_equal(clock_category_name(CLOCK_CATEGORY_STANDARD), "standard");
	assert_string_equal(clock_category_name(CLOCK_CATEGORY_UNTIMED), "untimed");
	assert_string_equal(clock_category_name(CLOCK_CATEGORY_NB), "unknown");
	assert_int_equal(clock_category_letter(CLOCK_CATEGORY_LIGHTNING), 'l');
	assert_int_equal(clock_category_letter(CLOCK_CATEGORY_BLITZ), 'b');
	assert_int_equal(clock_category_letter(CLOCK_CATEGORY_STANDARD), 's');
	assert_int_equal(clock_category_letter(CLOCK_CATEGORY_UNTIMED), 'u');
	assert_int_equal(clock_category_letter(CLOCK_CATEGORY_NB), '?');
	assert_int_equal(clock_category_letter((enum clock_category)-1), '?');
}

/* Per-side arithmetic. */

static void start(struct clock_control *tc, struct clock_side *s, const char *text)
{
	parse_ok(tc, text);
	clock_side_init(tc, s);
}

static void test_fischer(void **state)
{
	struct clock_control tc;
	struct clock_side s;

	(void)state;
	start(&tc, &s, "3+2");
	assert_int_equal(s.remaining_ms, 180000);
	assert_int_equal(s.moves, 0);
	assert_int_equal(clock_side_left_ms(&tc, &s, 0), 180000);
	assert_int_equal(clock_side_left_ms(&tc, &s, 10000), 170000);
	clock_side_move(&tc, &s, 10000);
	assert_int_equal(s.remaining_ms, 172000);	/* 180 - 10 + 2 */
	assert_int_equal(s.moves, 1);
	clock_side_move(&tc, &s, 0);
	assert_int_equal(s.remaining_ms, 174000);
	clock_side_move(&tc, &s, -50);			/* a negative time counts as 0 */
	assert_int_equal(s.remaining_ms, 176000);
	assert_int_equal(clock_side_left_ms(&tc, &s, -50), 176000);
	assert_int_equal(s.moves, 3);

	/* A side already charged past its time is out whatever the (clamped) elapsed time. */
	s.remaining_ms = -5;
	assert_true(clock_side_flagged(&tc, &s, -5));
	assert_int_equal(clock_side_deadline_ms(&tc, &s), 0);
}

static void test_no_bonus(void **state)
{
	struct clock_control tc;
	struct clock_side s;

	(void)state;
	start(&tc, &s, "5 0");
	clock_side_move(&tc, &s, 2500);
	assert_int_equal(s.remaining_ms, 297500);
	assert_int_equal(clock_side_left_ms(&tc, &s, 297500), 0);
	assert_false(clock_side_flagged(&tc, &s, 297500));
	assert_true(clock_side_flagged(&tc, &s, 297501));
	assert_int_equal(clock_side_left_ms(&tc, &s, 300000), -2500);
}

static void test_bronstein(void **state)
{
	struct clock_control tc;
	struct clock_side s;

	(void)state;
	start(&tc, &s, "5d3");
	assert_int_equal(clock_side_left_ms(&tc, &s, 2000), 300000);	/* inside the delay */
	assert_int_equal(clock_side_left_ms(&tc, &s, 3000), 300000);
	assert_int_equal(clock_side_left_ms(&tc, &s, 5000), 298000);
	clock_side_move(&tc, &s, 2000);		/* 2 s taken, 2 s given back: no gain */
	assert_int_equal(s.remaining_ms, 300000);
	clock_side_move(&tc, &s, 5000);		/* 5 s taken, 3 s given back */
	assert_int_equal(s.remaining_ms, 298000);
	assert_false(clock_side_flagged(&tc, &s, 301000));	/* 298 + 3 */
	assert_true(clock_side_flagged(&tc, &s, 301001));
	assert_int_equal(clock_side_left_ms(&tc, &s, 301000), 0);
	assert_int_equal(clock_side_deadline_ms(&tc, &s), 301001);
}

static void test_simple_delay(void **state)
{
	static const int64_t times[] = { 0, 1500, 3000, 3001, 7000, 45000, 2999 };
	struct clock_control tc, bronstein;
	struct clock_side s, b;

	(void)state;
	start(&tc, &s, "5s3");
	assert_int_equal(clock_side_left_ms(&tc, &s, 2999), 300000);
	assert_int_equal(clock_side_left_ms(&tc, &s, 10000), 293000);
	clock_side_move(&tc, &s, 10000);	/* 7 s of main time used */
	assert_int_equal(s.remaining_ms, 293000);
	clock_side_move(&tc, &s, 1000);
	assert_int_equal(s.remaining_ms, 293000);
	assert_int_equal(clock_side_deadline_ms(&tc, &s), 296001);

	/* US delay and Bronstein charge the same for any move. */
	start(&tc, &s, "5s3");
	start(&bronstein, &b, "5d3");
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
		assert_int_equal(clock_side_left_ms(&tc, &s, times[i]),
		    clock_side_left_ms(&bronstein, &b, times[i]));
		clock_side_move(&tc, &s, times[i]);
		clock_side_move(&bronstein, &b, times[i]);
		assert_int_equal(s.remaining_ms, b.remaining_ms);
	}
	assert_int_equal(s.remaining_ms, 300000 - 4000 - 1 - 42000);
}

struct flag_case {
	const char *text;
	int64_t deadline_ms;
};

static const struct flag_case flag_cases[] = {
	{ "3+2", 180001 },
	{ "5+0", 300001 },
	{ "5d3", 303001 },
	{ "5s3", 303001 },
	{ "0+1", 10001 },	/* "0 INC" starts with 10 s */
	{ "40/90,30+30", 5400001 },
};

/* The deadline is the first elapsed time at which the flag has fallen. */
static void test_flag_boundaries(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof flag_cases / sizeof flag_cases[0]; i++) {
		const char *text = flag_cases[i].text;
		int64_t d = flag_cases[i].deadline_ms;
		struct clock_control tc;
		struct clock_side s;

		start(&tc, &s, text);
		expect_i64(text, "deadline", clock_side_deadline_ms(&tc, &s), d);
		expect_i64(text, "flagged just before", clock_side_flagged(&tc, &s, d - 1), 0);
		expect_i64(text, "flagged at", clock_side_flagged(&tc, &s, d), 1);
		expect_i64(text, "left just before", clock_side_left_ms(&tc, &s, d - 1), 0);
		expect_i64(text, "left at", clock_side_left_ms(&tc, &s, d), -1);
		expect_i64(text, "flagged at 0", clock_side_flagged(&tc, &s, 0), 0);
	}
}

static void test_zero_base(void **state)
{
	struct clock_control tc;
	struct clock_side s;

	(void)state;
	start(&tc, &s, "0 2");
	assert_int_equal(s.remaining_ms, CLOCK_ZERO_BASE_START_MS);
	clock_side_move(&tc, &s, 500);
	assert_int_equal(s.remaining_ms, CLOCK_ZERO_BASE_START_MS + 1500);
}

/* 40/90,30+30: after move 40 the clock gains 30 minutes, and never again. */
static void test_two_periods(void **state)
{
	struct clock_control tc;
	struct clock_side s;

	(void)state;
	start(&tc, &s, "40/90,30+30");
	assert_int_equal(clock_side_moves_to_go(&tc, &s), 40);
	for (int i = 0; i < 39; i++)
		clock_side_move(&tc, &s, 60000);
	assert_int_equal(s.remaining_ms, 5400000 - 39 * 30000);	/* 4 230 000 */
	assert_int_equal(s.period, 0);
	assert_int_equal(clock_side_moves_to_go(&tc, &s), 1);
	clock_side_move(&tc, &s, 60000);
	assert_int_equal(s.remaining_ms, 4200000 + 1800000);
	assert_int_equal(s.period, 1);
	assert_int_equal(s.moves, 40);
	assert_int_equal(clock_side_moves_to_go(&tc, &s), 0);
	for (int i = 0; i < 40; i++)
		clock_side_move(&tc, &s, 60000);
	assert_int_equal(s.remaining_ms, 6000000 - 40 * 30000);	/* nothing at move 80 */
	assert_int_equal(s.period, 1);
	assert_int_equal(s.moves, 80);
	assert_int_equal(clock_side_moves_to_go(&tc, &s), 0);
	assert_int_equal(clock_side_deadline_ms(&tc, &s), 4800001);
}

static void test_three_periods(void **state)
{
	struct clock_control tc;
	struct clock_side s;

	(void)state;
	start(&tc, &s, "40/120,20/60,30");
	for (int i = 0; i < 40; i++)
		clock_side_move(&tc, &s, 90000);
	assert_int_equal(s.remaining_ms, 7200000 - 3600000 + 3600000);
	assert_int_equal(s.period, 1);
	assert_int_equal(clock_side_moves_to_go(&tc, &s), 20);
	for (int i = 0; i < 19; i++)
		clock_side_move(&tc, &s, 90000);
	assert_int_equal(s.remaining_ms, 7200000 - 19 * 90000);
	assert_int_equal(clock_side_moves_to_go(&tc, &s), 1);
	clock_side_move(&tc, &s, 90000);
	assert_int_equal(s.remaining_ms, 7200000 - 1800000 + 1800000);
	assert_int_equal(s.period, 2);
	assert_int_equal(clock_side_moves_to_go(&tc, &s), 0);
	for (int i = 0; i < 40; i++)
		clock_side_move(&tc, &s, 90000);
	assert_int_equal(s.remaining_ms, 7200000 - 3600000);
	assert_int_equal(s.period, 2);
}

/* A last period with a move count repeats. */
static void test_repeating_periods(void **state)
{
	struct clock_control tc;
	struct clock_side s;

	(void)state;
	start(&tc, &s, "40/120");
	for (int i = 0; i < 40; i++)
		clock_side_move(&tc, &s, 100000);
	assert_int_equal(s.remaining_ms, 7200000 - 4000000 + 7200000);
	assert_int_equal(s.period, 0);
	assert_int_equal(clock_side_moves_to_go(&tc, &s), 40);
	for (int i = 0; i < 40; i++)
		clock_side_move(&tc, &s, 100000);
	assert_int_equal(s.remaining_ms, 10400000 - 4000000 + 7200000);

	start(&tc, &s, "40/120,20/60");
	for (int i = 0; i < 40; i++)
		clock_side_move(&tc, &s, 0);
	assert_int_equal(s.remaining_ms, 10800000);
	assert_int_equal(s.period, 1);
	for (int i = 0; i < 20; i++)
		clock_side_move(&tc, &s, 0);
	assert_int_equal(s.remaining_ms, 14400000);
	assert_int_equal(s.period, 1);
	for (int i = 0; i < 19; i++)
		clock_side_move(&tc, &s, 0);
	assert_int_equal(s.remaining_ms, 14400000);
	clock_side_move(&tc, &s, 0);
	assert_int_equal(s.remaining_ms, 18000000);
	assert_int_equal(s.moves, 80);
}

static void test_delay_across_periods(void **state)
{
	struct clock_control tc;
	struct clock_side s;

	(void)state;
	start(&tc, &s, "40/90,30d30");
	for (int i = 0; i < 40; i++)
		clock_side_move(&tc, &s, 40000);	/* 10 s of main time each */
	assert_int_equal(s.remaining_ms, 5400000 - 400000 + 1800000);
	assert_int_equal(clock_side_deadline_ms(&tc, &s), 6800000 + 30000 + 1);
}

static void test_untimed(void **state)
{
	struct clock_control tc;
	struct clock_side s;

	(void)state;
	memset(&tc, 0, sizeof tc);
	assert_true(clock_untimed(&tc));
	start(&tc, &s, "untimed");
	assert_true(clock_untimed(&tc));
	assert_int_equal(s.remaining_ms, 0);
	assert_int_equal(clock_side_left_ms(&tc, &s, 123456), 0);
	assert_false(clock_side_flagged(&tc, &s, INT64_MAX));
	assert_int_equal(clock_side_deadline_ms(&tc, &s), CLOCK_NO_DEADLINE);
	clock_side_move(&tc, &s, 99999);
	assert_int_equal(s.moves, 1);
	assert_int_equal(s.remaining_ms, 0);
	assert_int_equal(clock_side_moves_to_go(&tc, &s), 0);
	assert_false(clock_untimed(&(struct clock_control){ .period_count = 1 }));
}

/* Lag compensation. */

struct gain_case {
	const char *text;
	int64_t gain_ms;
};

static const struct gain_case gain_cases[] = {
	{ "0.25+0", 210 },	/* 15 s: 6 cs + 15 cs */
	{ "0.5+0", 270 },
	{ "1+0", 390 },		/* 60 s: 24 + 15 cs */
	{ "1d1", 550 },		/* a delay counts as an increment: 100 s */
	{ "2+1", 790 },		/* 120 + 40 s: 64 + 15 cs */
	{ "3+0", 870 },
	{ "3.5+0", 990 },	/* 210 s: 84 + 15 cs, just under the cap */
	{ "3.55+0", 1000 },	/* 213 s: 85 + 15 cs, the cap */
	{ "3+2", 1000 },
	{ "40/90,30+30", 1000 },
	{ "0+1", 310 },		/* 40 s */
	{ "0.05+1", 320 },	/* 43 s: 17.2 cs rounds down to 17 */
	{ "2.85+1", 990 },	/* 211 s: 84.4 cs rounds down, just under the cap */
	{ "untimed", 150 },
};

static void test_lag_gain(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof gain_cases / sizeof gain_cases[0]; i++) {
		struct clock_control tc;
		struct clock_lag lag;

		parse_ok(&tc, gain_cases[i].text);
		expect_i64(gain_cases[i].text, "gain", clock_lag_gain_ms(&tc), gain_cases[i].gain_ms);
		clock_lag_init(&lag, &tc);
		expect_i64(gain_cases[i].text, "initial quota", lag.quota_ms,
		    3 * gain_cases[i].gain_ms);
	}
}

/* With no lag the quota grows by the gain each move until 7 gains. */
static void test_lag_quota_growth_and_cap(void **state)
{
	static const int64_t quota[] = { 1560, 1950, 2340, 2730, 2730, 2730 };
	struct clock_control tc;
	struct clock_lag lag;

	(void)state;
	parse_ok(&tc, "1+0");
	clock_lag_init(&lag, &tc);
	assert_int_equal(lag.quota_ms, 1170);
	assert_int_equal(clock_lag_grace_ms(&lag), 1170);
	for (size_t i = 0; i < sizeof quota / sizeof quota[0]; i++) {
		assert_int_equal(clock_lag_credit(&lag, &tc, 2000, 2000), 2000);
		assert_int_equal(lag.quota_ms, quota[i]);
	}
	assert_int_equal(clock_lag_grace_ms(&lag), CLOCK_LAG_GRACE_MAX_MS);
}

static void test_lag_compensation(void **state)
{
	struct clock_control tc;
	struct clock_lag lag;

	(void)state;
	parse_ok(&tc, "1+0");
	clock_lag_init(&lag, &tc);
	assert_int_equal(clock_lag_credit(&lag, &tc, 1500, 1200), 1200);	/* 300 ms lag */
	assert_int_equal(lag.quota_ms, 1170 + 390 - 300);
	assert_int_equal(clock_lag_credit(&lag, &tc, 5000, 1000), 5000 - 1260);	/* quota bound */
	assert_int_equal(lag.quota_ms, 390);
	assert_int_equal(clock_lag_grace_ms(&lag), 390);
}

/* A client that always claims 0 ms gains the starting quota, then one gain per move. */
static void test_lag_forged_client(void **state)
{
	struct clock_control tc;
	struct clock_lag lag;
	int64_t credited = 0;
	const int moves = 100;

	(void)state;
	parse_ok(&tc, "3+2");
	clock_lag_init(&lag, &tc);
	for (int i = 0; i < moves; i++) {
		int64_t charge = clock_lag_credit(&lag, &tc, 5000, 0);
		if (i > 0)
			expect_i64("3+2", "charge after the first move", charge, 5000 - 1000);
		credited += 5000 - charge;
	}
	assert_int_equal(credited, 3000 + (moves - 1) * 1000);
	assert_true(credited <= CLOCK_LAG_QUOTA_START * 1000 + moves * 1000);

	/* Short moves: the minimum charge limits what each one can claim. */
	static const int64_t charges[] = { 100, 100, 250, 410, 410 };
	parse_ok(&tc, "1+0");
	clock_lag_init(&lag, &tc);
	for (size_t i = 0; i < sizeof charges / sizeof charges[0]; i++)
		expect_i64("1+0", "charge", clock_lag_credit(&lag, &tc, 800, 0), charges[i]);
	assert_int_equal(lag.quota_ms, 390);
}

/* Negative, missing or impossible client times earn nothing, and the quota still grows. */
static void test_lag_bad_client_time(void **state)
{
	static const int64_t client[] = { -1, INT64_MIN, 5001, 9000, INT64_MAX };
	struct clock_control tc;
	struct clock_lag lag;

	(void)state;
	parse_ok(&tc, "3+2");
	clock_lag_init(&lag, &tc);
	for (size_t i = 0; i < sizeof client / sizeof client[0]; i++) {
		assert_int_equal(clock_lag_credit(&lag, &tc, 5000, client[i]), 5000);
		assert_int_equal(lag.quota_ms, i < 3 ? 4000 + 1000 * (int64_t)i : 7000);
	}
	assert_int_equal(clock_lag_credit(&lag, &tc, -5, 0), 0);
	assert_int_equal(clock_lag_credit(&lag, &tc, 5000, 5000), 5000);
}

static void test_lag_min_charge(void **state)
{
	struct clock_control tc;
	struct clock_lag lag;

	(void)state;
	parse_ok(&tc, "3+2");
	clock_lag_init(&lag, &tc);
	assert_int_equal(clock_lag_credit(&lag, &tc, 300, 0), CLOCK_MIN_CHARGE_MS);
	assert_int_equal(lag.quota_ms, 3000 + 1000 - 200);
	assert_int_equal(clock_lag_credit(&lag, &tc, 80, 0), 80);	/* below the minimum anyway */
	assert_int_equal(lag.quota_ms, 4800);
	assert_int_equal(clock_lag_credit(&lag, &tc, 101, 0), 100);
	assert_int_equal(clock_lag_credit(&lag, &tc, 0, 0), 0);
}

static void test_lag_grace(void **state)
{
	struct clock_control tc;
	struct clock_lag lag;

	(void)state;
	parse_ok(&tc, "3+2");
	clock_lag_init(&lag, &tc);
	assert_int_equal(clock_lag_grace_ms(&lag), 2000);	/* quota 3000 */
	memset(&lag, 0, sizeof lag);
	assert_int_equal(clock_lag_grace_ms(&lag), 0);
	assert_int_equal(clock_lag_credit(&lag, &tc, 5000, 0), 5000);	/* no quota yet */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_valid),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_format_longest_fits),
		cmocka_unit_test(test_format_truncates),
		cmocka_unit_test(test_parse_invalid),
		cmocka_unit_test(test_parse_error_buffer),
		cmocka_unit_test(test_category),
		cmocka_unit_test(test_category_names),
		cmocka_unit_test(test_fischer),
		cmocka_unit_test(test_no_bonus),
		cmocka_unit_test(test_bronstein),
		cmocka_unit_test(test_simple_delay),
		cmocka_unit_test(test_flag_boundaries),
		cmocka_unit_test(test_zero_base),
		cmocka_unit_test(test_two_periods),
		cmocka_unit_test(test_three_periods),
		cmocka_unit_test(test_repeating_periods),
		cmocka_unit_test(test_delay_across_periods),
		cmocka_unit_test(test_untimed),
		cmocka_unit_test(test_lag_gain),
		cmocka_unit_test(test_lag_quota_growth_and_cap),
		cmocka_unit_test(test_lag_compensation),
		cmocka_unit_test(test_lag_forged_client),
		cmocka_unit_test(test_lag_bad_client_time),
		cmocka_unit_test(test_lag_min_charge),
		cmocka_unit_test(test_lag_grace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
