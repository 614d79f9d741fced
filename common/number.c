#include <limits.h>
#include <stdbool.h>

#include "number.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

enum number_status number_parse(const char *text, long min, long max, long *out)
{
	const char *p = text;
	bool negative = false, range = false;
	unsigned long magnitude = 0;
	/* The largest magnitude a long holds on each side of zero. */
	const unsigned long limit_pos = LONG_MAX, limit_neg = (unsigned long)LONG_MAX + 1;

	while (is_blank(*p))
		p++;
	if (*p == '+' || *p == '-')
		negative = *p++ == '-';
	if (*p < '0' || *p > '9')
		return NUMBER_JUNK;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned digit = (unsigned)(*p - '0');
		unsigned long limit = negative ? limit_neg : limit_pos;
		if (range || magnitude > (limit - digit) / 10)
			range = true;	/* keep reading: trailing junk is still junk */
		else
			magnitude = magnitude * 10 + digit;
	}
	while (is_blank(*p))
		p++;
	if (*p)
		return NUMBER_JUNK;
	if (range)
		return NUMBER_RANGE;
	long v = negative ? (magnitude == limit_neg ? LONG_MIN : -(long)magnitude) : (long)magnitude;
	if (v < min || v > max)
		return NUMBER_RANGE;
	*out = v;
	return NUMBER_OK;
}
