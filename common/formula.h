/*
 * FICS formulas ("set formula ..."): an expression over the terms of an
 * offered game and the opponent, true when the player accepts such a game.
 * The grammar and variables are lasker's; f1..f9 are not offered (the
 * server keeps no such variables).  Pure: the caller supplies the facts
 * and the bounds.
 */
#ifndef CHESS_FORMULA_H
#define CHESS_FORMULA_H

#include <stdbool.h>
#include <stddef.h>

#include "clock.h"

/* Every value and intermediate result is kept within +-FORMULA_VALUE_MAX. */
#define FORMULA_VALUE_MAX 1000000000LL

/* The deepest nesting any configuration may allow (bounds the reader's stack). */
#define FORMULA_DEPTH_CAP 64

struct formula_limits {
	int max_chars;		/* longest formula text */
	int max_depth;		/* parentheses and unary operators nested at most */
};

/* What a formula may ask about an offered game, seen by the formula's owner. */
struct formula_facts {
	int rating, myrating;		/* the opponent's and the owner's, in the game's category */
	int time_min, inc_s;		/* each side's starting minutes and increment */
	enum clock_category category;
	bool rated;
	bool registered, computer, timeseal;	/* of the opponent */
	bool private_game;
	int assess_win, assess_draw, assess_loss;	/* the owner's rating change, 0 unrated */
};

/* Checks grammar and variables; -1 with a one-line reason when the text is no formula. */
int formula_check(const char *text, const struct formula_limits *lim, char *why, size_t len);
/* The formula's value for these facts (an empty formula is 1); -1 with why when bad. */
int formula_eval(const char *text, const struct formula_facts *f, const struct formula_limits *lim,
    long long *value, char *why, size_t len);
/* Whether the formula admits the game: non-zero value (a bad formula admits nothing). */
bool formula_admits(const char *text, const struct formula_facts *f,
    const struct formula_limits *lim);

#endif
