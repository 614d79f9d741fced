#include <string.h>

#include "text.h"

/*
 * Characters that change how other text shows rather than showing
 * themselves: C1 controls, the bidi embeddings, overrides and isolates
 * (a name can be made to read backwards), and the line and paragraph
 * separators (a fake line under someone else's name).
 */
static bool hidden(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

size_t text_sanitize(char *line, size_t len)
{
	unsigned char *s = (unsigned char *)line;
	size_t in = 0, out = 0;

	while (in < len) {
		unsigned char ch = s[in];
		if (ch == 255) {			/* IAC */
			if (in + 1 >= len) {
				in++;
			} else if (s[in + 1] >= 251 && s[in + 1] <= 254) {
				in += 3;		/* WILL/WONT/DO/DONT option */
			} else if (s[in + 1] == 250) {	/* SB ... IAC SE */
				in += 2;
				while (in + 1 < len && !(s[in] == 255 && s[in + 1] == 240))
					in++;
				in += 2;
			} else {
				in += 2;
			}
			continue;
		}
		if (ch < 0x80) {
			if (ch == '\t')
				s[out++] = ' ';
			else if (ch >= 0x20 && ch != 0x7f)
				s[out++] = ch;
			in++;
			continue;
		}
		/* A UTF-8 sequence: keep it only when well formed and minimal. */
		int need = ch >= 0xc2 && ch <= 0xdf ? 1 : ch >= 0xe0 && ch <= 0xef ? 2 :
		    ch >= 0xf0 && ch <= 0xf4 ? 3 : -1;
		bool ok = need > 0 && in + (size_t)need < len;
		for (int k = 1; ok && k <= need; k++)
			ok = (s[in + k] & 0xc0) == 0x80;
		if (ok && need == 2) {
			unsigned cp = (ch & 0x0fu) << 12 | (s[in + 1] & 0x3fu) << 6;
			ok = cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff);
		}
		if (ok && need == 3) {
			unsigned cp = (ch & 0x07u) << 18 | (s[in + 1] & 0x3fu) << 12;
			ok = cp >= 0x10000 && cp <= 0x10ffff;
		}
		if (!ok) {
			s[out++] = '?';
			in++;
			continue;
		}
		unsigned cp = ch & (0x3fu >> need);
		for (int k = 1; k <= need; k++)
			cp = cp << 6 | (s[in + k] & 0x3fu);
		if (hidden(cp)) {
			in += (size_t)need + 1;
			continue;
		}
		for (int k = 0; k <= need; k++)
			s[out++] = s[in++];
	}
	s[out] = '\0';
	return out;
}


size_t text_crlf(const char *text, size_t len, char *out, size_t cap, size_t *taken)
{
	size_t in = 0, used = 0;

	while (in < len) {
		const char *nl = memchr(text + in, '\n', len - in);
		size_t piece = nl ? (size_t)(nl - text) - in : len - in, room = cap - used;

		if (piece >= room) {
			memcpy(out + used, text + in, room);
			used += room;
			in += room;
			break;
		}
		memcpy(out + used, text + in, piece);
		used += piece;
		in += piece;
		if (!nl || cap - used < 2)
			break;
		out[used++] = '\n';
		out[used++] = '\r';
		in++;
	}
	*taken = in;
	return used;
}
