/* Client text made safe to process and to pass on to others. */
#ifndef CHESSD_TEXT_H
#define CHESSD_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Cleans a line in place: telnet IAC sequences removed, NUL and control
 * characters dropped (tab becomes a space), invalid UTF-8 replaced by '?',
 * and the characters that reorder or break other text when someone else
 * reads it (C1 controls, bidi overrides and isolates, U+2028/U+2029)
 * dropped.  Every line a client sends passes here before anything reads it.  Writes a NUL at the new end (line needs len + 1 bytes) and returns
 * the new length.
 */
size_t text_sanitize(char *line, size_t len);

/*
 * Copies as much of text as fits in out (cap >= 2) with each \n written
 * as \n\r, as telnet clients want, never splitting a \n\r.  Sets *taken
 * to the bytes of text consumed (at least one when len > 0) and returns
 * the bytes written.
 */
size_t text_crlf(const char *text, size_t len, char *out, size_t cap, size_t *taken);

#endif
