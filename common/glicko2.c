#include <math.h>

#include "glicko2.h"

#define PI_SQUARED	9.86960440108935861883

/*
 * Expected scores are kept this far from 0 and 1 inside an update, so that
 * v = 1 / sum(g^2 E (1 - E)) stays finite whatever the rating gap.  Only gaps
 * of about 4800 points or more reach it.
 */
#define EXPECTED_MARGIN	1e-12

/* A rating period in the paper's scale: step 2 onwards. */
struct scaled {
	double mu, phi, sigma;
};

/* The inputs of f(x) in step 5. */
struct volatility_problem {
	double a;		/* ln(sigma^2) */
	double delta_squared;
	double phi_squared;
	double v;
	double tau_squared;
};

static double clamp(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* A score within [0, 1]; NaN counts as a loss. */
static double score_clamp(double s)
{
	if (!(s > 0.0))
		return 0.0;
	return s > 1.0 ? 1.0 : s;
}

/* Brings a stored rating into the paper's scale, within the bounds in glicko2.h. */
static struct scaled rating_scale(const struct glicko2_rating *r)
{
	struct scaled s;
	double rating = isfinite(r->rating) ? r->rating : GLICKO2_DEFAULT_RATING;
	double rd = r->rd >= 0.0 ? fmin(r->rd, GLICKO2_RD_MAX) : GLICKO2_RD_MAX;
	double sigma = r->volatility;

	if (isnan(sigma))
		sigma = GLICKO2_DEFAULT_VOLATILITY;
	s.mu = (rating - GLICKO2_DEFAULT_RATING) / GLICKO2_SCALE;
	s.phi = rd / GLICKO2_SCALE;
	s.sigma = clamp(sigma, GLICKO2_VOLATILITY_MIN, GLICKO2_VOLATILITY_MAX);
	return s;
}

static double rd_store(double phi)
{
	return clamp(phi * GLICKO2_SCALE, GLICKO2_RD_MIN, GLICKO2_RD_MAX);
}

/* g(phi): how much an opponent's uncertainty flattens the expectation. */
static double scaled_g(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / PI_SQUARED);
}

static double scaled_expected(double mu, double mu_opponent, double g)
{
	return 1.0 / (1.0 + exp(-g * (mu - mu_opponent)));
}

static double volatility_f(const struct volatility_problem *p, double x)
{
	double ex = exp(x);
	double d = p->phi_squared + p->v + ex;

	return ex * (p->delta_squared - p->phi_squared - p->v - ex) / (2.0 * d * d) -
	    (x - p->a) / p->tau_squared;
}

/* True when f changes sign (or vanishes) between the two values, without multiplying. */
static bool sign_change(double fx, double fy)
{
	return fx == 0.0 || fy == 0.0 || (fx < 0.0) != (fy < 0.0);
}

/*
 * Step 5: the new volatility, the root of f found by the Illinois variant
 * of regula falsi, starting from the old one (f can have further roots far
 * away; the paper's bracket finds the near one).  The bracket [A, B] always
 * holds a sign change, so each new point lies inside it.  When |f| differs
 * by many orders of magnitude between the ends (tiny volatilities, huge
 * gaps) each halving gains little, hence the volatility floor and the cap.
 */
static double volatility_new(const struct volatility_problem *p, double tau)
{
	double A = p->a, B, fa, fb;

	if (p->delta_squared > p->phi_squared + p->v) {
		B = log(p->delta_squared - p->phi_squared - p->v);
	} else {
		int k = 1;
		while (k < GLICKO2_ITERATIONS_MAX && volatility_f(p, p->a - k * tau) < 0.0)
			k++;
		B = p->a - k * tau;
	}
	fa = volatility_f(p, A);
	fb = volatility_f(p, B);
	for (int i = 0; i < GLICKO2_ITERATIONS_MAX && fabs(B - A) > GLICKO2_EPSILON; i++) {
		if (fb == fa)
			break;
		double C = A + (A - B) * fa / (fb - fa);
		double fc = volatility_f(p, C);
		if (!isfinite(C) || isnan(fc))
			break;
		if (sign_change(fc, fb)) {
			A = B;
			fa = fb;
		} else {
			fa /= 2.0;
		}
		B = C;
		fb = fc;
	}
	/* Cut short by the cap, the end nearer a root is the better answer. */
	if (fabs(B - A) > GLICKO2_EPSILON && fabs(fb) < fabs(fa))
		A = B;
	return exp(A / 2.0);
}

void glicko2_update(const struct glicko2_rating *player, const struct glicko2_result *results,
    int n, double tau, struct glicko2_rating *out)
{
	struct scaled p = rating_scale(player);
	double rating = isfinite(player->rating) ? player->rating : GLICKO2_DEFAULT_RATING;
	double v_inverse = 0.0, improvement = 0.0;	/* sum g^2 E (1-E), sum g (s - E) */
	double v, sigma, phi_star, phi;

	if (!(tau > 0.0) || !isfinite(tau))
		tau = GLICKO2_TAU;
	if (n <= 0) {
		out->rating = rating;
		out->rd = rd_store(sqrt(p.phi * p.phi + p.sigma * p.sigma));
		out->volatility = p.sigma;
		return;
	}

	/* Steps 3 and 4: read every result before out, which may alias them, is written. */
	for (int i = 0; i < n; i++) {
		struct scaled o = rating_scale(&results[i].opponent);
		double g = scaled_g(o.phi);
		double e = clamp(scaled_expected(p.mu, o.mu, g), EXPECTED_MARGIN,
		    1.0 - EXPECTED_MARGIN);
		v_inverse += g * g * e * (1.0 - e);
		improvement += g * (score_clamp(results[i].score) - e);
	}
	v = 1.0 / v_inverse;

	struct volatility_problem vp = {
		.a = log(p.sigma * p.sigma),
		.delta_squared = (v * improvement) * (v * improvement),
		.phi_squared = p.phi * p.phi,
		.v = v,
		.tau_squared = tau * tau,
	};
	sigma = clamp(volatility_new(&vp, tau), GLICKO2_VOLATILITY_MIN, GLICKO2_VOLATILITY_MAX);

	/*
	 * Steps 6 to 8.  The rating moves by phi'^2 x improvement, added on the
	 * Glicko scale so that a zero improvement leaves the stored rating bit for bit.
	 */
	phi_star = sqrt(p.phi * p.phi + sigma * sigma);
	phi = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
	out->rating = rating + phi * phi * improvement * GLICKO2_SCALE;
	out->rd = rd_store(phi);
	out->volatility = sigma;
}

void glicko2_game(const struct glicko2_rating *white, const struct glicko2_rating *black,
    double white_score, double tau, struct glicko2_rating *new_white,
    struct glicko2_rating *new_black)
{
	double s = score_clamp(white_score);
	struct glicko2_result vs_black = { *black, s }, vs_white = { *white, 1.0 - s };
	struct glicko2_rating w = *white, b = *black;

	glicko2_update(&w, &vs_black, 1, tau, new_white);
	glicko2_update(&b, &vs_white, 1, tau, new_black);
}

void glicko2_idle(struct glicko2_rating *r, double periods)
{
	struct scaled s = rating_scale(r);

	if (!(periods > 0.0))
		periods = 0.0;
	r->rd = rd_store(sqrt(s.phi * s.phi + periods * s.sigma * s.sigma));
}

bool glicko2_provisional(const struct glicko2_rating *r)
{
	return !(r->rd < GLICKO2_PROVISIONAL_RD);
}

int glicko2_display(const struct glicko2_rating *r)
{
	if (isnan(r->rating))
		return GLICKO2_DISPLAY_MIN;
	return (int)lround(clamp(r->rating, GLICKO2_DISPLAY_MIN, GLICKO2_DISPLAY_MAX));
}

double glicko2_expected(const struct glicko2_rating *a, const struct glicko2_rating *b)
{
	struct scaled sa = rating_scale(a), sb = rating_scale(b);

	return scaled_expected(sa.mu, sb.mu, scaled_g(sb.phi));
}
