/*
 * Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"): one rating
 * period at a time, on the Glicko scale centred on 1500.  Pure arithmetic;
 * callers store the numbers and decide what a rating period is.
 *
 * Departures from the paper, all at the edges, so that no stored rating can
 * degenerate: an input RD is taken within [0, GLICKO2_RD_MAX] and an input
 * volatility within [GLICKO2_VOLATILITY_MIN, GLICKO2_VOLATILITY_MAX] (a
 * non-finite rating counts as GLICKO2_DEFAULT_RATING, an unknown RD as
 * GLICKO2_RD_MAX); a new volatility is kept within the same bounds before
 * it is used; a new RD is stored within [GLICKO2_RD_MIN, GLICKO2_RD_MAX];
 * scores are taken within [0, 1].  Inside those bounds the results are the
 * paper's.
 */
#ifndef CHESS_GLICKO2_H
#define CHESS_GLICKO2_H

#include <stdbool.h>

/* Glicko-2's internal scale: mu = (r - 1500) / 173.7178, phi = RD / 173.7178. */
#define GLICKO2_SCALE			173.7178
#define GLICKO2_DEFAULT_RATING		1500.0
/*
 * A new player's RD.  350 is Glickman's and FICS's value; lichess starts at
 * 500 but its numbers are not ours to match, and 350 already means "unknown"
 * (a 95% interval of +-700 points).
 */
#define GLICKO2_DEFAULT_RD		350.0
#define GLICKO2_DEFAULT_VOLATILITY	0.06
/*
 * The system constant: how far one period can move the volatility.  Glickman
 * suggests 0.3 to 1.2; 0.5 is his example's value (lichess uses 0.75).
 * Smaller values keep ratings of players who have a lucky run steadier.
 */
#define GLICKO2_TAU			0.5
/* Convergence tolerance of the volatility iteration, on ln(sigma^2). */
#define GLICKO2_EPSILON			1e-6
/* Cap on the volatility iteration (and on its bracketing search). */
#define GLICKO2_ITERATIONS_MAX		100
/* A rating is provisional while RD >= this, as on lichess. */
#define GLICKO2_PROVISIONAL_RD		110.0
/*
 * A stored RD stays within [MIN, MAX]: the floor keeps a very active
 * player's rating able to move, the ceiling is the new-player value, so
 * idleness never makes a player less known than a newcomer.
 */
#define GLICKO2_RD_MIN			30.0
#define GLICKO2_RD_MAX			GLICKO2_DEFAULT_RD
/*
 * A volatility stays within [MIN, MAX].  The floor, far below any real
 * player's, keeps ln(sigma^2) finite and the volatility iteration short; the
 * ceiling (lichess's) keeps an absurd volatility from inflating the RD.  With
 * both RD and volatility capped, one game moves a rating by at most
 * (RD_MAX^2 / SCALE + VOLATILITY_MAX^2 x SCALE), about 707 points.
 */
#define GLICKO2_VOLATILITY_MIN		1e-6
#define GLICKO2_VOLATILITY_MAX		0.1
/* glicko2_display() clamps to what a four-column FICS rating field holds. */
#define GLICKO2_DISPLAY_MIN		0
#define GLICKO2_DISPLAY_MAX		9999

/* One player's rating in one category.  Plain data: copy it, store it. */
struct glicko2_rating {
	double rating;		/* Glicko scale, 1500-centred */
	double rd;		/* rating deviation, same scale */
	double volatility;	/* sigma, Glicko-2 scale */
};

/* One game of a rating period, from the rated player's side. */
struct glicko2_result {
	struct glicko2_rating opponent;	/* the opponent's pre-period rating */
	double score;			/* 1 win, 0.5 draw, 0 loss */
};

/* The rating of a player who has never played: 1500 / 350 / 0.06. */
static inline struct glicko2_rating glicko2_new(void)
{
	return (struct glicko2_rating){ GLICKO2_DEFAULT_RATING, GLICKO2_DEFAULT_RD,
	    GLICKO2_DEFAULT_VOLATILITY };
}

/*
 * Rates one period of n games (steps 1-8 of the paper) and writes the new
 * rating to out, which may be player itself.  With n <= 0 only the RD grows:
 * phi* = sqrt(phi^2 + sigma^2).  A tau that is not positive and finite means
 * GLICKO2_TAU.
 */
void glicko2_update(const struct glicko2_rating *player, const struct glicko2_result *results,
    int n, double tau, struct glicko2_rating *out);
/*
 * Rates one game as a rating period of its own, as online servers do: both
 * players are rated from their pre-game ratings.  white_score is 1, 0.5 or
 * 0; black scores the rest.  The outputs may be the inputs.
 */
void glicko2_game(const struct glicko2_rating *white, const struct glicko2_rating *black,
    double white_score, double tau, struct glicko2_rating *new_white,
    struct glicko2_rating *new_black);
/*
 * Grows r's RD for periods rating periods without games (fractions allowed):
 * phi = sqrt(phi^2 + periods x sigma^2), at most GLICKO2_RD_MAX.  For
 * servers that count idle time in rating periods.
 */
void glicko2_idle(struct glicko2_rating *r, double periods);
/* True while the RD is GLICKO2_PROVISIONAL_RD or more (or unknown). */
bool glicko2_provisional(const struct glicko2_rating *r);
/* The rating shown to users: rounded half away from zero, within the display bounds. */
int glicko2_display(const struct glicko2_rating *r);
/*
 * a's expected score against b: 1 / (1 + exp(-g(phi_b)(mu_a - mu_b))).  Only
 * b's RD counts, as in the paper; a's is the caller's business.
 */
double glicko2_expected(const struct glicko2_rating *a, const struct glicko2_rating *b);

#endif
