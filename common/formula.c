#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "formula.h"
#include "number.h"

/*
 * A recursive-descent reader that evaluates as it reads.  Binary operators
 * by lasker's precedence, loosest first: or, and, equality, comparison,
 * sum, product; then the unary ! and -.  Each level loops over its own
 * operators, so only parentheses and unary operators deepen the recursion,
 * and those count against max_depth.
 */
enum level { LEVEL_OR, LEVEL_AND, LEVEL_EQUAL, LEVEL_COMPARE, LEVEL_SUM, LEVEL_PRODUCT,
	LEVEL_UNARY };

enum op { OP_NONE, OP_OR, OP_AND, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_ADD, OP_SUB,
	OP_MUL, OP_DIV };

struct reader {
	const char *at;
	const struct formula_facts *f;
	int depth, max_depth;
	bool failed;
	char *why;
	size_t len;
};

static void fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return;
	r->failed = true;
	n = snprintf(r->why, r->len, "Invalid formula: ");
	if (n >= 0 && (size_t)n < r->len) {
		va_start(ap, fmt);
		vsnprintf(r->why + n, r->len - (size_t)n, fmt, ap);
		va_end(ap);
	}
}

static long long clamp(long long v)
{
	return v > FORMULA_VALUE_MAX ? FORMULA_VALUE_MAX : v < -FORMULA_VALUE_MAX ? -FORMULA_VALUE_MAX : v;
}

static void skip_blanks(struct reader *r)
{
	while (isspace((unsigned char)*r->at))
		r->at++;
}

/* The end of the text: its last byte, or a '#' that starts a comment. */
static bool at_end(const struct reader *r)
{
	return !*r->at || *r->at == '#';
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Whether the text goes on with this word (any case, then no more letters); skips it if so. */
static bool take_word(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if (strncasecmp(r->at, word, n) || word_char(r->at[n]))
		return false;
	r->at += n;
	return true;
}

static bool take(struct reader *r, const char *symbol)
{
	size_t n = strlen(symbol);

	if (strncmp(r->at, symbol, n))
		return false;
	r->at += n;
	return true;
}

static enum level op_level(enum op op)
{
	switch (op) {
	case OP_OR: return LEVEL_OR;
	case OP_AND: return LEVEL_AND;
	case OP_EQ: case OP_NE: return LEVEL_EQUAL;
	case OP_LT: case OP_LE: case OP_GT: case OP_GE: return LEVEL_COMPARE;
	case OP_ADD: case OP_SUB: return LEVEL_SUM;
	default: return LEVEL_PRODUCT;
	}
}

/* The operator at r (two-character spellings first, as lasker reads them), not consumed. */
static enum op peek_op(struct reader *r, size_t *width)
{
	static const struct { const char *text; enum op op; } ops[] = {
		{ "||", OP_OR }, { "&&", OP_AND }, { "==", OP_EQ }, { "!=", OP_NE }, { "<>", OP_NE },
		{ ">=", OP_GE }, { "=>", OP_GE }, { "<=", OP_LE }, { "=<", OP_LE }, { "|", OP_OR },
		{ "&", OP_AND }, { ">", OP_GT }, { "<", OP_LT }, { "=", OP_EQ }, { "+", OP_ADD },
		{ "-", OP_SUB }, { "*", OP_MUL }, { "/", OP_DIV },
	};

	skip_blanks(r);
	if (!strncasecmp(r->at, "and", 3) && !word_char(r->at[3])) {
		*width = 3;
		return OP_AND;
	}
	if (!strncasecmp(r->at, "or", 2) && !word_char(r->at[2])) {
		*width = 2;
		return OP_OR;
	}
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		size_t n = strlen(ops[i].text);
		if (!strncmp(r->at, ops[i].text, n)) {
			*width = n;
			return ops[i].op;
		}
	}
	return OP_NONE;
}

static long long apply(enum op op, long long a, long long b)
{
	switch (op) {
	case OP_OR: return a || b;
	case OP_AND: return a && b;
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_LT: return a < b;
	case OP_LE: return a <= b;
	case OP_GT: return a > b;
	case OP_GE: return a >= b;
	case OP_ADD: return clamp(a + b);
	case OP_SUB: return clamp(a - b);
	case OP_MUL: return clamp(a * b);
	/* lasker divides by 0.001 instead of by zero. */
	case OP_DIV: return b ? a / b : clamp(a * 1000);
	default: return 0;
	}
}

static long long read_level(struct reader *r, enum level level);

static bool deeper(struct reader *r)
{
	if (++r->depth > r->max_depth) {
		fail(r, "nested too deeply (at most %d levels).", r->max_depth);
		return false;
	}
	return true;
}

/* "(expression)", the argument of maxtime and a parenthesised term alike. */
static long long read_parens(struct reader *r)
{
	skip_blanks(r);
	if (!take(r, "(")) {
		fail(r, "\"(\" expected at \"%.10s\".", r->at);
		return 0;
	}
	if (!deeper(r))
		return 0;
	long long v = read_level(r, LEVEL_OR);
	r->depth--;
	skip_blanks(r);
	if (!r->failed && !take(r, ")"))
		fail(r, "missing \")\".");
	return v;
}

/* The most n moves can take, in seconds, for both players or (players 1) the owner only. */
static long long max_time(const struct formula_facts *f, long long moves, int players)
{
	long long each = 60LL * f->time_min + clamp(moves * f->inc_s);

	/* lasker: a game starting at zero minutes gives each side ten seconds. */
	if (f->category != CLOCK_CATEGORY_UNTIMED && !f->time_min)
		each += 10;
	return clamp(players * each);
}

static long long read_variable(struct reader *r)
{
	const struct formula_facts *f = r->f;
	const char *start = r->at;
	size_t n = 0;

	while (word_char(start[n]))
		n++;
	if (take_word(r, "maxtime"))
		return max_time(f, read_parens(r), 2);
	if (take_word(r, "mymaxtime"))
		return max_time(f, read_parens(r), 1);
	const struct { const char *name; long long value; } vars[] = {
		{ "rating", f->rating }, { "myrating", f->myrating },
		{ "ratingdiff", (long long)f->rating - f->myrating },
		{ "time", f->time_min }, { "inc", f->inc_s }, { "rated", f->rated },
		{ "lightning", f->category == CLOCK_CATEGORY_LIGHTNING },
		{ "blitz", f->category == CLOCK_CATEGORY_BLITZ },
		{ "standard", f->category == CLOCK_CATEGORY_STANDARD },
		{ "untimed", f->category == CLOCK_CATEGORY_UNTIMED },
		/* Games here are never wild nor bughouse, and both clocks start alike. */
		{ "wild", 0 }, { "bughouse", 0 }, { "nonstandard", 0 },
		{ "registered", f->registered }, { "computer", f->computer },
		{ "timeseal", f->timeseal }, { "private", f->private_game },
		{ "assesswin", f->assess_win }, { "assessdraw", f->assess_draw },
		{ "assessloss", f->assess_loss },
	};
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		if (take_word(r, vars[i].name))
			return vars[i].value;
	if (n == 2 && tolower((unsigned char)start[0]) == 'f' && isdigit((unsigned char)start[1]) &&
	    start[1] != '0')
		fail(r, "f1-f9 are not supported on this server; write the expression instead.");
	else if (n == 6 && !strncasecmp(start, "abuser", 6))
		fail(r, "this server keeps no abuser list.");
	else
		fail(r, "unknown variable \"%.*s\".", (int)(n > 20 ? 20 : n), start);
	return 0;
}

static long long read_number(struct reader *r)
{
	char digits[16];
	size_t n = 0;
	long v;

	while (isdigit((unsigned char)r->at[n]))
		n++;
	if (n >= sizeof digits || (memcpy(digits, r->at, n), digits[n] = '\0',
	    number_parse(digits, 0, FORMULA_VALUE_MAX, &v) != NUMBER_OK)) {
		fail(r, "number \"%.12s\" is too large.", r->at);
		return 0;
	}
	r->at += n;
	skip_blanks(r);
	if (take_word(r, "minutes"))
		v = (long)clamp(v * 60LL);
	return v;
}

static long long read_unary(struct reader *r)
{
	skip_blanks(r);
	char c = *r->at;
	if (c == '!' || c == '-') {
		r->at++;
		if (!deeper(r))
			return 0;
		long long v = read_unary(r);
		r->depth--;
		return c == '!' ? !v : -v;
	}
	if (c == '(')
		return read_parens(r);
	if (isdigit((unsigned char)c))
		return read_number(r);
	if (isalpha((unsigned char)c))
		return read_variable(r);
	if (at_end(r))
		fail(r, "it ends where a value is expected.");
	else
		fail(r, "unexpected \"%c\" where a value is expected.", c);
	return 0;
}

static long long read_level(struct reader *r, enum level level)
{
	if (level == LEVEL_UNARY)
		return read_unary(r);
	long long v = read_level(r, level + 1);
	size_t width;
	enum op op;
	while (!r->failed && (op = peek_op(r, &width)) != OP_NONE && op_level(op) == level) {
		r->at += width;
		v = apply(op, v, read_level(r, level + 1));
	}
	return v;
}

int formula_eval(const char *text, const struct formula_facts *f, const struct formula_limits *lim,
    long long *value, char *why, size_t len)
{
	struct reader r = { .at = text, .f = f, .max_depth = lim->max_depth, .why = why, .len = len };

	if (strlen(text) > (size_t)lim->max_chars) {
		fail(&r, "too long (at most %d characters).", lim->max_chars);
		return -1;
	}
	skip_blanks(&r);
	if (at_end(&r)) {
		*value = 1;
		return 0;
	}
	long long v = read_level(&r, LEVEL_OR);
	skip_blanks(&r);
	if (!r.failed && !at_end(&r))
		fail(&r, "unexpected \"%.10s\".", r.at);
	if (r.failed)
		return -1;
	*value = v;
	return 0;
}

int formula_check(const char *text, const struct formula_limits *lim, char *why, size_t len)
{
	const struct formula_facts none = { .category = CLOCK_CATEGORY_BLITZ };
	long long v;

	return formula_eval(text, &none, lim, &v, why, len);
}

bool formula_admits(const char *text, const struct formula_facts *f,
    const struct formula_limits *lim)
{
	char why[128];
	long long v;

	return formula_eval(text, f, lim, &v, why, sizeof why) == 0 && v != 0;
}
