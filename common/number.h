/* Numbers read from text someone else wrote: checked, ranged, never wrapped. */
#ifndef CHESS_NUMBER_H
#define CHESS_NUMBER_H

enum number_status {
	NUMBER_OK,
	NUMBER_JUNK,	/* empty, not decimal digits, or something after them */
	NUMBER_RANGE,	/* a number, but outside [min, max] (overflow included) */
};

/*
 * Reads a decimal integer: optional blanks, an optional sign, digits,
 * optional blanks, and nothing else.  *out is set only on NUMBER_OK.
 */
enum number_status number_parse(const char *text, long min, long max, long *out);

/*
 * The scanf conversion for an int inside someone else's text: nine
 * characters at most, so that the value always fits (an int that does not
 * is undefined behaviour for scanf).
 */
#define NUMBER_SCAN_INT "%9d"

#endif
