#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "clock.h"

#define MS_PER_SECOND		1000
#define MS_PER_MINUTE		(60 * MS_PER_SECOND)
#define FRACTION_DIGITS_MAX	6		/* decimals read in a number of minutes */
#define NUMBER_SATURATED	1000000000	/* digits past this only make a number absurd */

struct parser {
	const char *text;	/* the whole (compacted) text */
	const char *p;		/* next character */
	char *err;
	size_t errlen;
};

/* Output into a fixed buffer that truncates and stays NUL-terminated. */
struct text_out {
	char *buf;
	size_t len;
	size_t used;
};

static void text_add(struct text_out *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void text_start(struct text_out *t, char *buf, size_t len)
{
	t->buf = buf;
	t->len = len;
	t->used = 0;
	if (len)
		buf[0] = '\0';
}

static void text_add(struct text_out *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->used >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used += (size_t)n;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_number_char(char c)
{
	return is_digit(c) || c == '.';
}

/* Case-insensitive comparison of a counted string with a lower-case word. */
static bool word_is(const char *s, size_t len, const char *word)
{
	if (strlen(word) != len)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != word[i])
			return false;
	}
	return true;
}

/* The error for a place where a number should start but does not. */
static int no_number(struct parser *ps)
{
	if (*ps->p == '\0')
		return error_set(ps->err, ps->errlen, "time control ends where a number was expected");
	if (*ps->p == '-')
		return error_set(ps->err, ps->errlen, "negative numbers are not allowed");
	return error_set(ps->err, ps->errlen, "expected a number at '%.16s'", ps->p);
}

/* Reads a run of digits, saturating so an absurd value stays absurd without overflow. */
static int64_t read_digits(struct parser *ps, int *count)
{
	int64_t v = 0;
	int n = 0;

	for (; is_digit(*ps->p); ps->p++, n++)
		if (v < NUMBER_SATURATED)
			v = v * 10 + (*ps->p - '0');
	if (count)
		*count = n;
	return v;
}

/* Reads minutes, whole or decimal, that must come to whole seconds. */
static int parse_minutes(struct parser *ps, int64_t *ms)
{
	const char *start = ps->p;
	int64_t total, fraction, scale = 1;
	int digits;

	if (!is_digit(*ps->p))
		return no_number(ps);
	total = read_digits(ps, NULL) * MS_PER_MINUTE;
	if (*ps->p == '.') {
		ps->p++;
		if (!is_digit(*ps->p))
			return error_set(ps->err, ps->errlen, "expected digits after '.'");
		fraction = read_digits(ps, &digits);
		if (digits > FRACTION_DIGITS_MAX)
			return error_set(ps->err, ps->errlen, "more than %d decimals in '%.*s'",
			    FRACTION_DIGITS_MAX, (int)(ps->p - start), start);
		for (int i = 0; i < digits; i++)
			scale *= 10;
		if (fraction * MS_PER_MINUTE % (scale * MS_PER_SECOND) != 0)
			return error_set(ps->err, ps->errlen, "%.*s minutes is not a whole number of seconds",
			    (int)(ps->p - start), start);
		total += fraction * MS_PER_MINUTE / scale;
	}
	*ms = total;
	return 0;
}

static int parse_seconds(struct parser *ps, int64_t *ms)
{
	if (!is_digit(*ps->p))
		return no_number(ps);
	*ms = read_digits(ps, NULL) * MS_PER_SECOND;
	if (*ps->p == '.')
		return error_set(ps->err, ps->errlen, "increment and delay must be whole seconds");
	return 0;
}

static int unexpected(struct parser *ps)
{
	return error_set(ps->err, ps->errlen, "unexpected '%c' after '%.*s'", *ps->p,
	    (int)(ps->p - ps->text), ps->text);
}

/* PERIOD{,PERIOD}[BONUS], with no blanks left in the text. */
static int parse_list(struct parser *ps, struct clock_control *tc)
{
	int n = 0;

	for (;;) {
		struct clock_period period = { 0, 0 };
		const char *start = ps->p;

		if (n == CLOCK_PERIODS_MAX)
			return error_set(ps->err, ps->errlen, "more than %d periods", CLOCK_PERIODS_MAX);
		if (!is_digit(*ps->p))
			return no_number(ps);
		int64_t moves = read_digits(ps, NULL);
		if (*ps->p == '/') {
			if (moves == 0)
				return error_set(ps->err, ps->errlen, "a move count must be at least 1");
			period.moves = (int)min64(moves, CLOCK_MOVES_MAX + 1);
			ps->p++;
		} else {
			ps->p = start;
		}
		if (parse_minutes(ps, &period.base_ms) < 0)
			return -1;
		if (*ps->p == '/' && period.moves)
			return unexpected(ps);
		if (*ps->p == '/')
			return error_set(ps->err, ps->errlen, "a move count must be a whole number");
		tc->periods[n++] = period;
		if (*ps->p != ',')
			break;
		ps->p++;
	}
	tc->period_count = n;

	switch (*ps->p) {
	case '+':
		tc->bonus = CLOCK_BONUS_FISCHER;
		break;
	case 'd':
		tc->bonus = CLOCK_BONUS_BRONSTEIN;
		break;
	case 's':
		tc->bonus = CLOCK_BONUS_SIMPLE;
		break;
	default:
		tc->bonus = CLOCK_BONUS_NONE;
		break;
	}
	if (tc->bonus != CLOCK_BONUS_NONE) {
		ps->p++;
		if (parse_seconds(ps, &tc->bonus_ms) < 0)
			return -1;
		if (*ps->p == ',')
			return error_set(ps->err, ps->errlen,
			    "the increment or delay goes once, after the last period");
	}
	if (*ps->p)
		return unexpected(ps);
	return 0;
}

/* The FICS form, "MIN INC": two words, already split. */
static int parse_fics(struct parser *ps, struct clock_control *tc, const char *minutes,
    const char *seconds)
{
	ps->text = ps->p = minutes;
	if (parse_minutes(ps, &tc->periods[0].base_ms) < 0)
		return -1;
	if (*ps->p)
		return unexpected(ps);
	ps->text = ps->p = seconds;
	if (parse_seconds(ps, &tc->bonus_ms) < 0)
		return -1;
	if (*ps->p)
		return unexpected(ps);
	tc->period_count = 1;
	tc->bonus = CLOCK_BONUS_FISCHER;
	return 0;
}

static const char *bonus_name(enum clock_bonus bonus)
{
	return bonus == CLOCK_BONUS_FISCHER ? "increment" : "delay";
}

/* Limits and the shape rules that the grammar alone does not enforce. */
static int check_control(const struct clock_control *tc, char *err, size_t errlen)
{
	for (int i = 0; i < tc->period_count; i++) {
		const struct clock_period *p = &tc->periods[i];
		bool last = i + 1 == tc->period_count;

		if (p->moves == 0 && !last)
			return error_set(err, errlen,
			    "period %d has no move count, so it must be the last", i + 1);
		if (p->moves > CLOCK_MOVES_MAX)
			return error_set(err, errlen, "period %d: more than %d moves", i + 1,
			    CLOCK_MOVES_MAX);
		if (p->base_ms > CLOCK_BASE_MAX_MS)
			return error_set(err, errlen, "period %d: more than %d minutes", i + 1,
			    CLOCK_BASE_MAX_MS / MS_PER_MINUTE);
		/* Only a lone sudden-death "0 INC" game may start from nothing. */
		if (p->base_ms == 0 && (tc->period_count > 1 || p->moves ||
		    tc->bonus == CLOCK_BONUS_NONE))
			return error_set(err, errlen, "period %d has no time", i + 1);
	}
	if (tc->bonus_ms > CLOCK_BONUS_MAX_MS)
		return error_set(err, errlen, "%s over %d seconds", bonus_name(tc->bonus),
		    CLOCK_BONUS_MAX_MS / MS_PER_SECOND);
	return 0;
}

/*
 * Copies the trimmed text without blanks, which may surround operators but
 * not separate two numbers ("1 2 3" is not 123).
 */
static int compact(const char *s, size_t len, char *out, char *err, size_t errlen)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (!is_blank(s[i])) {
			out[n++] = s[i];
			continue;
		}
		size_t j = i;
		while (j < len && is_blank(s[j]))
			j++;
		if (n > 0 && j < len && is_number_char(out[n - 1]) && is_number_char(s[j]))
			return error_set(err, errlen, "unexpected space between numbers in '%.*s'",
			    (int)len, s);
		i = j - 1;
	}
	out[n] = '\0';
	return 0;
}

/* A word that reads as a number, or as a negative one (to be refused as such). */
static bool is_number_word(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!is_number_char(s[i]) && !(i == 0 && s[i] == '-'))
			return false;
	return len > 0;
}

int clock_parse(struct clock_control *tc, const char *text, char *err, size_t errlen)
{
	struct clock_control parsed;
	struct parser ps = { NULL, NULL, err, errlen };
	char buf[CLOCK_INPUT_MAX + 1];
	const char *word[3];
	size_t wlen[3];
	int words = 0;
	int rc;

	memset(tc, 0, sizeof *tc);
	memset(&parsed, 0, sizeof parsed);
	if (!text)
		return error_set(err, errlen, "empty time control");
	while (is_blank(*text))
		text++;
	size_t len = strlen(text);
	while (len > 0 && is_blank(text[len - 1]))
		len--;
	if (len == 0)
		return error_set(err, errlen, "empty time control");
	if (len > CLOCK_INPUT_MAX)
		return error_set(err, errlen, "time control longer than %d characters", CLOCK_INPUT_MAX);
	if (word_is(text, len, "-") || word_is(text, len, "untimed"))
		return 0;

	for (size_t i = 0; i < len && words < 3; ) {
		word[words] = text + i;
		while (i < len && !is_blank(text[i]))
			i++;
		wlen[words] = (size_t)(text + i - word[words]);
		words++;
		while (i < len && is_blank(text[i]))
			i++;
	}
	if (words == 2 && is_number_word(word[0], wlen[0]) && is_number_word(word[1], wlen[1])) {
		memcpy(buf, word[0], wlen[0]);
		buf[wlen[0]] = '\0';
		memcpy(buf + wlen[0] + 1, word[1], wlen[1]);
		buf[wlen[0] + 1 + wlen[1]] = '\0';
		rc = parse_fics(&ps, &parsed, buf, buf + wlen[0] + 1);
	} else {
		if (compact(text, len, buf, err, errlen) < 0)
			return -1;
		ps.text = ps.p = buf;
		rc = parse_list(&ps, &parsed);
	}
	if (rc < 0)
		return -1;

	if (parsed.bonus_ms == 0)
		parsed.bonus = CLOCK_BONUS_NONE;
	if (parsed.period_count == 1 && parsed.periods[0].moves == 0 &&
	    parsed.periods[0].base_ms == 0 && parsed.bonus == CLOCK_BONUS_NONE)
		return 0;	/* "0", "0+0", "0 0": untimed, as on FICS */
	if (check_control(&parsed, err, errlen) < 0)
		return -1;
	*tc = parsed;
	return 0;
}

/* Minutes as parsed: whole, or to the hundredth (exact for whole seconds in 3 s steps). */
static void add_minutes(struct text_out *t, int64_t ms)
{
	int64_t whole = ms / MS_PER_MINUTE;
	int hundredths = (int)(ms % MS_PER_MINUTE / (MS_PER_MINUTE / 100));

	if (hundredths == 0)
		text_add(t, "%" PRId64, whole);
	else if (hundredths % 10 == 0)
		text_add(t, "%" PRId64 ".%d", whole, hundredths / 10);
	else
		text_add(t, "%" PRId64 ".%02d", whole, hundredths);
}

void clock_format(const struct clock_control *tc, char *buf, size_t len)
{
	static const char bonus_sign[] = { '+', '+', 'd', 's' };
	struct text_out t;

	text_start(&t, buf, len);
	if (clock_untimed(tc)) {
		text_add(&t, "untimed");
		return;
	}
	for (int i = 0; i < tc->period_count; i++) {
		if (i)
			text_add(&t, ",");
		if (tc->periods[i].moves)
			text_add(&t, "%d/", tc->periods[i].moves);
		add_minutes(&t, tc->periods[i].base_ms);
	}
	if (tc->bonus == CLOCK_BONUS_NONE || (unsigned)tc->bonus >= sizeof bonus_sign)
		text_add(&t, "+0");
	else
		text_add(&t, "%c%" PRId64, bonus_sign[tc->bonus], tc->bonus_ms / MS_PER_SECOND);
}

void clock_format_pgn(const struct clock_control *tc, char *buf, size_t len)
{
	struct text_out t;

	text_start(&t, buf, len);
	if (clock_untimed(tc)) {
		text_add(&t, "-");
		return;
	}
	for (int i = 0; i < tc->period_count; i++) {
		if (i)
			text_add(&t, ":");
		if (tc->periods[i].moves)
			text_add(&t, "%d/", tc->periods[i].moves);
		text_add(&t, "%" PRId64, tc->periods[i].base_ms / MS_PER_SECOND);
		if (tc->bonus == CLOCK_BONUS_FISCHER)
			text_add(&t, "+%" PRId64, tc->bonus_ms / MS_PER_SECOND);
	}
}

enum clock_category clock_category(const struct clock_control *tc)
{
	if (clock_untimed(tc))
		return CLOCK_CATEGORY_UNTIMED;
	int64_t bonus_ms = tc->bonus == CLOCK_BONUS_NONE ? 0 : tc->bonus_ms;
	/* 3t in ms, kept integral: 3 x base + 2 x 60 x bonus (seconds count as minutes). */
	int64_t t3_ms = 3 * tc->periods[0].base_ms + 2 * 60 * bonus_ms;
	if (t3_ms < 3 * (int64_t)CLOCK_LIGHTNING_BELOW_MIN * MS_PER_MINUTE)
		return CLOCK_CATEGORY_LIGHTNING;
	if (t3_ms < 3 * (int64_t)CLOCK_BLITZ_BELOW_MIN * MS_PER_MINUTE)
		return CLOCK_CATEGORY_BLITZ;
	return CLOCK_CATEGORY_STANDARD;
}

const char *clock_category_name(enum clock_category c)
{
	switch (c) {
	case CLOCK_CATEGORY_LIGHTNING:
		return "lightning";
	case CLOCK_CATEGORY_BLITZ:
		return "blitz";
	case CLOCK_CATEGORY_STANDARD:
		return "standard";
	case CLOCK_CATEGORY_UNTIMED:
		return "untimed";
	default:
		return "unknown";
	}
}

char clock_category_letter(enum clock_category c)
{
	static const char letters[CLOCK_CATEGORY_NB] = { 'l', 'b', 's', 'u' };

	if ((unsigned)c >= CLOCK_CATEGORY_NB)
		return '?';
	return letters[c];
}

/* The delay before main time runs, for either delay kind; 0 otherwise. */
static int64_t delay_ms(const struct clock_control *tc)
{
	if (tc->bonus == CLOCK_BONUS_BRONSTEIN || tc->bonus == CLOCK_BONUS_SIMPLE)
		return tc->bonus_ms;
	return 0;
}

void clock_side_init(const struct clock_control *tc, struct clock_side *s)
{
	memset(s, 0, sizeof *s);
	if (clock_untimed(tc))
		return;
	s->remaining_ms = tc->periods[0].base_ms;
	if (s->remaining_ms == 0)
		s->remaining_ms = CLOCK_ZERO_BASE_START_MS;
}

int64_t clock_side_left_ms(const struct clock_control *tc, const struct clock_side *s,
    int64_t elapsed_ms)
{
	if (clock_untimed(tc))
		return 0;
	return s->remaining_ms - max64(0, elapsed_ms - delay_ms(tc));
}

bool clock_side_flagged(const struct clock_control *tc, const struct clock_side *s,
    int64_t elapsed_ms)
{
	if (clock_untimed(tc))
		return false;
	return max64(0, elapsed_ms) > s->remaining_ms + delay_ms(tc);
}

int64_t clock_side_deadline_ms(const struct clock_control *tc, const struct clock_side *s)
{
	if (clock_untimed(tc))
		return CLOCK_NO_DEADLINE;
	return max64(0, s->remaining_ms + delay_ms(tc) + 1);
}

void clock_side_move(const struct clock_control *tc, struct clock_side *s, int64_t elapsed_ms)
{
	int64_t elapsed = max64(0, elapsed_ms);

	s->moves++;
	if (clock_untimed(tc))
		return;
	switch (tc->bonus) {
	case CLOCK_BONUS_FISCHER:
		s->remaining_ms += tc->bonus_ms - elapsed;
		break;
	case CLOCK_BONUS_BRONSTEIN:
		s->remaining_ms += min64(elapsed, tc->bonus_ms) - elapsed;
		break;
	case CLOCK_BONUS_SIMPLE:
		s->remaining_ms -= max64(0, elapsed - tc->bonus_ms);
		break;
	default:
		s->remaining_ms -= elapsed;
		break;
	}

	const struct clock_period *p = &tc->periods[s->period];
	s->period_moves++;
	if (p->moves > 0 && s->period_moves >= p->moves) {
		if (s->period + 1 < tc->period_count)
			s->period++;
		s->period_moves = 0;
		s->remaining_ms += tc->periods[s->period].base_ms;
	}
}

int clock_side_moves_to_go(const struct clock_control *tc, const struct clock_side *s)
{
	if (clock_untimed(tc) || tc->periods[s->period].moves == 0)
		return 0;
	return tc->periods[s->period].moves - s->period_moves;
}

int64_t clock_lag_gain_ms(const struct clock_control *tc)
{
	int64_t limit_s = clock_untimed(tc) ? 0 : tc->periods[0].base_ms / MS_PER_SECOND;
	int64_t bonus_s = tc->bonus == CLOCK_BONUS_NONE ? 0 : tc->bonus_ms / MS_PER_SECOND;
	int64_t estimate_s = limit_s + CLOCK_LAG_ESTIMATE_MOVES * bonus_s;

	/* lichess works in centiseconds with integer division; keep its rounding. */
	int64_t gain_ms = estimate_s * 2 / 5 * 10 + CLOCK_LAG_GAIN_BASE_MS;
	return min64(gain_ms, CLOCK_LAG_GAIN_MAX_MS);
}

void clock_lag_init(struct clock_lag *lag, const struct clock_control *tc)
{
	lag->quota_ms = CLOCK_LAG_QUOTA_START * clock_lag_gain_ms(tc);
}

int64_t clock_lag_credit(struct clock_lag *lag, const struct clock_control *tc,
    int64_t server_elapsed_ms, int64_t client_elapsed_ms)
{
	int64_t gain = clock_lag_gain_ms(tc);
	int64_t server = max64(0, server_elapsed_ms);
	int64_t comp = 0;

	if (client_elapsed_ms >= 0 && client_elapsed_ms < server)
		comp = max64(0, min64(server - client_elapsed_ms, lag->quota_ms));
	int64_t floor_ms = min64(server, CLOCK_MIN_CHARGE_MS);
	if (server - comp < floor_ms)
		comp = server - floor_ms;
	lag->quota_ms = min64(lag->quota_ms + gain - comp, CLOCK_LAG_QUOTA_CAP * gain);
	return server - comp;
}

int64_t clock_lag_grace_ms(const struct clock_lag *lag)
{
	return max64(0, min64(lag->quota_ms, CLOCK_LAG_GRACE_MAX_MS));
}
