/*
 * Lines of the server's listings the client reads for itself: the players
 * in "who" output (for name completion) and the games in "stored" output
 * (to offer the resumption of an adjourned game).  Pure functions.
 */
#ifndef CHESS_CLIENT_LISTING_H
#define CHESS_CLIENT_LISTING_H
#include <stddef.h>
#include "style12.h"

#define LISTING_WHO_PER_LINE 16

/*
 * The players on one "who" line ("1500 alice", "----.bob(C)", "++++^GuestABCD(U)",
 * several per line on FICS); returns how many, 0 when it is not such a line.
 */
int listing_who_names(const char *line, char names[][STYLE12_NAME_MAX], int max);
/*
 * One game of a "stored" list (" 1: W bob            Y  [ br  5   0] ..."):
 * 0 with the opponent and the colour we had ('W' or 'B'), else -1.
 */
int listing_stored_game(const char *line, char *opponent, size_t opponent_len, char *color);
#endif
