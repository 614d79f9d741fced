#include "printable.h"

#include <stdbool.h>

#define ESC 0x1b
#define BEL 0x07

/* CSI: parameter and intermediate bytes, then the final byte if there is one. */
static size_t skip_csi(const unsigned char *s, size_t i)
{
	while (s[i] >= 0x20 && s[i] <= 0x3f)
		i++;
	return s[i] >= 0x40 && s[i] <= 0x7e ? i + 1 : i;
}

/*
 * OSC, DCS, SOS, PM, APC: a string up to BEL or ST (ESC \ or C1 ST), or the
 * end of the line.  Another ESC ends it unterminated, as terminals do.
 */
static size_t skip_string(const unsigned char *s, size_t i)
{
	for (; s[i]; i++) {
		if (s[i] == BEL || s[i] == 0x9c)
			return i + 1;
		if (s[i] == 0xc2 && s[i + 1] == 0x9c)
			return i + 2;
		if (s[i] == ESC)
			return s[i + 1] == '\\' ? i + 2 : i;
	}
	return i;
}

/* What follows a C1 control that introduces more (CSI, or a string). */
static size_t skip_c1_body(unsigned c1, const unsigned char *s, size_t i)
{
	switch (c1) {
	case 0x9b:
		return skip_csi(s, i);
	case 0x90: case 0x98: case 0x9d: case 0x9e: case 0x9f:
		return skip_string(s, i);
	default:
		return i;
	}
}

/* An ESC sequence starting at s[i]: the index just past it. */
static size_t skip_escape(const unsigned char *s, size_t i)
{
	unsigned char next = s[i + 1];

	/* ESC [ is CSI, ESC ] is OSC and so on: 7-bit forms of the C1 controls. */
	if (next >= 0x40 && next <= 0x5f)
		return skip_c1_body(next + 0x40u, s, i + 2);
	if (next >= 0x20 && next <= 0x2f) {	/* ESC ( B and the like */
		i += 2;
		while (s[i] >= 0x20 && s[i] <= 0x2f)
			i++;
		return s[i] >= 0x30 && s[i] <= 0x7e ? i + 1 : i;
	}
	return next >= 0x30 && next <= 0x7e ? i + 2 : i + 1;
}

/* Formatting characters that reorder or split what a terminal shows. */
static bool reorders(unsigned cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0x2028 || cp == 0x2029;
}

/* Length of the well-formed, minimal UTF-8 sequence at s (0 if none) and its code point. */
static int utf8_at(const unsigned char *s, unsigned *cp)
{
	unsigned char ch = s[0];
	int need = ch >= 0xc2 && ch <= 0xdf ? 1 : ch >= 0xe0 && ch <= 0xef ? 2 :
	    ch >= 0xf0 && ch <= 0xf4 ? 3 : -1;

	if (need < 0)
		return 0;
	*cp = ch & (0x3fu >> need);
	for (int k = 1; k <= need; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[k] & 0x3fu);
	}
	if ((need == 2 && (*cp < 0x800 || (*cp >= 0xd800 && *cp <= 0xdfff))) ||
	    (need == 3 && (*cp < 0x10000 || *cp > 0x10ffff)))
		return 0;
	return need + 1;
}

size_t printable_clean(char *line)
{
	unsigned char *s = (unsigned char *)line;
	size_t in = 0, out = 0;

	while (s[in]) {
		unsigned char ch = s[in];
		if (ch == ESC) {
			in = skip_escape(s, in);
			s[out++] = '?';
			continue;
		}
		if (ch < 0x80) {
			s[out++] = ch < 0x20 && ch != '\t' ? '?' : ch == 0x7f ? '?' : ch;
			in++;
			continue;
		}
		unsigned cp;
		int n = utf8_at(s + in, &cp);
		if (!n) {
			/* A raw 8-bit C1 byte is a control to some terminals: drop what it starts. */
			in = ch <= 0x9f ? skip_c1_body(ch, s, in + 1) : in + 1;
			s[out++] = '?';
			continue;
		}
		in += (size_t)n;
		if (cp <= 0x9f) {
			in = skip_c1_body(cp, s, in);
			s[out++] = '?';
		} else if (reorders(cp)) {
			s[out++] = '?';
		} else {
			for (int k = n; k > 0; k--)
				s[out++] = s[in - (size_t)k];
		}
	}
	s[out] = '\0';
	return out;
}
