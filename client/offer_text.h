/*
 * The seek and offer lines meant for programs (<s>, <sr>, <sc>, <pf>, <pt>,
 * <pr>: FICS's seekinfo and pendinfo ivars) said in words for a person.
 * A pure function.
 */
#ifndef CHESS_CLIENT_OFFER_TEXT_H
#define CHESS_CLIENT_OFFER_TEXT_H
#include <stddef.h>

enum offer_text {
	OFFER_TEXT_NONE,	/* not such a line: show it as it is */
	OFFER_TEXT_SAID,	/* out holds the line in words */
	OFFER_TEXT_QUIET,	/* such a line, with nothing to tell a person (<sc>) */
};

enum offer_text offer_text_render(const char *line, char *out, size_t len);
#endif
