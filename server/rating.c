#include <stdio.h>

#include "db.h"
#include "rating.h"

int rating_load(struct db *db, int64_t user_id, enum clock_category category, struct rating *out)
{
	struct db_rating row;

	*out = (struct rating){ .value = glicko2_new() };
	if (!user_id)
		return 0;
	int found = db_rating_get(db, user_id, clock_category_name(category), &row);
	if (found < 0)
		return -1;
	if (found)
		*out = (struct rating){ { row.rating, row.rd, row.volatility }, row.wins, row.losses,
		    row.draws };
	return 0;
}

int rating_store(struct db *db, int64_t user_id, enum clock_category category, const struct rating *r)
{
	struct db_rating row = { r->value.rating, r->value.rd, r->value.volatility, r->wins,
	    r->losses, r->draws };

	return db_rating_put(db, user_id, clock_category_name(category), &row);
}

int rating_games(const struct rating *r)
{
	return r->wins + r->losses + r->draws;
}

void rating_text(const struct rating *r, int64_t user_id, char *buf, size_t len)
{
	if (!user_id)
		snprintf(buf, len, "++++");
	else if (!rating_games(r))
		snprintf(buf, len, "----");
	else
		snprintf(buf, len, "%d%s", glicko2_display(&r->value),
		    glicko2_provisional(&r->value) ? "P" : "");
}

int rating_apply(struct db *db, enum clock_category category, int64_t white_id, int64_t black_id,
    double white_score, struct rating *white_before, struct rating *white_after,
    struct rating *black_before, struct rating *black_after)
{
	if (rating_load(db, white_id, category, white_before) < 0 ||
	    rating_load(db, black_id, category, black_before) < 0)
		return -1;
	*white_after = *white_before;
	*black_after = *black_before;
	glicko2_game(&white_before->value, &black_before->value, white_score, GLICKO2_TAU,
	    &white_after->value, &black_after->value);
	if (white_score > 0.75) {
		white_after->wins++;
		black_after->losses++;
	} else if (white_score < 0.25) {
		white_after->losses++;
		black_after->wins++;
	} else {
		white_after->draws++;
		black_after->draws++;
	}
	/* Both players' ratings change, or neither does. */
	if (db_savepoint(db) < 0)
		return -1;
	if (rating_store(db, white_id, category, white_after) < 0 ||
	    rating_store(db, black_id, category, black_after) < 0) {
		db_savepoint_end(db, false);
		return -1;
	}
	return db_savepoint_end(db, true);
}

void rating_assess(const struct rating *a, const struct rating *b, struct rating_assessment *out)
{
	static const double a_scores[3] = { 1, 0.5, 0 };
	int a_shown = glicko2_display(&a->value), b_shown = glicko2_display(&b->value);

	for (int i = 0; i < 3; i++) {
		struct glicko2_rating na, nb;
		glicko2_game(&a->value, &b->value, a_scores[i], GLICKO2_TAU, &na, &nb);
		out->first[i] = glicko2_display(&na) - a_shown;
		/* b's win is a's loss. */
		out->second[2 - i] = glicko2_display(&nb) - b_shown;
		if (i == 1) {
			out->first_rd = na.rd;
			out->second_rd = nb.rd;
		}
	}
}
