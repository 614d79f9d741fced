/* Glicko-2 ratings per FICS category, as stored and as shown. */
#ifndef CHESSD_RATING_H
#define CHESSD_RATING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "glicko2.h"

struct db;

struct rating {
	struct glicko2_rating value;
	int wins, losses, draws;
};

/* The user's rating in a category; a new player's default when none is stored. */
int rating_load(struct db *db, int64_t user_id, enum clock_category category, struct rating *out);
int rating_store(struct db *db, int64_t user_id, enum clock_category category, const struct rating *r);
/* As FICS shows it: "1517", "1517P" while provisional, "----" before any
 * rated game, "++++" for guests (user_id 0). */
void rating_text(const struct rating *r, int64_t user_id, char *buf, size_t len);
int rating_games(const struct rating *r);

/*
 * What one game between a and b would do (assess): the change of each
 * displayed rating for a's win, draw and loss ([0] [1] [2]) and of b's for
 * b's win, draw and loss, and both RDs after a draw.
 */
struct rating_assessment {
	int first[3], second[3];
	double first_rd, second_rd;
};
void rating_assess(const struct rating *a, const struct rating *b, struct rating_assessment *out);

/* A rated game's result (white_score 1, 0.5 or 0) applied to both players. */
int rating_apply(struct db *db, enum clock_category category, int64_t white_id, int64_t black_id,
    double white_score, struct rating *white_before, struct rating *white_after,
    struct rating *black_before, struct rating *black_after);

#endif
