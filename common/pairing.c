/*
 * Berger tables and the FIDE Dutch system.
 *
 * The Dutch pairing follows the rules as bbpPairings implements them (the
 * 2025 edition of C.04.3, the acceptance oracle of this project): players
 * sorted by score then start number; brackets settled from the top, each
 * being the moved-down players (MDPs), the residents of one score group,
 * and the next score group for look-ahead.  One maximum-weight perfect
 * matching runs over all unpaired players (a dummy vertex joined to the
 * bye candidates when their number is odd); edges exist only where C1-C3
 * allow, and the quality criteria are packed into 256-bit edge weights
 * (see edge_encode()).  The order among equally good pairings is then
 * fixed one decision at a time, each re-solved on the warm matcher (see
 * dutch_bracket()).  The pairing-allocated bye goes to the lowest score it
 * can, and among those to the candidate with the most games played.
 * E.5 numbers the players as the checker does: by start number among those
 * paired this round or before, so absent players leave no gaps.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "matching.h"
#include "pairing.h"
#include "wide.h"

/* Round robin: Berger tables. */

int pairing_berger_rounds(int nplayers, bool double_round_robin)
{
	int single = nplayers % 2 ? nplayers : nplayers - 1;

	return double_round_robin ? 2 * single : single;
}

/* Maps v onto 1..m cyclically. */
static int wrap(int v, int m)
{
	return ((v - 1) % m + m) % m + 1;
}

int pairing_berger(int nplayers, int round, bool double_round_robin,
    struct pairing_pair *pairs, int *bye, char *err, size_t errlen)
{
	int n = nplayers + nplayers % 2;	/* with the dummy */
	int single = n - 1, r = round, npairs = 0, head;
	bool reverse = false;

	*bye = 0;
	if (nplayers < PAIRING_BERGER_MIN || nplayers > PAIRING_BERGER_MAX)
		return error_set(err, errlen, "round robin of %d players (%d to %d)", nplayers,
		    PAIRING_BERGER_MIN, PAIRING_BERGER_MAX);
	if (round < 1 || round > pairing_berger_rounds(nplayers, double_round_robin))
		return error_set(err, errlen, "no round %d in a round robin of %d players", round,
		    nplayers);
	if (double_round_robin) {
		if (r > single) {
			r -= single;
			reverse = true;
		} else if (single >= 2 && r >= single - 1) {
			/* Swapped so that nobody has one colour three times at the join. */
			r = r == single ? single - 1 : single;
		}
	}
	/*
	 * Player n meets head: (r + 1) / 2 in odd rounds with black, r / 2 + n / 2
	 * in even rounds with white; the others pair head + k against head - k.
	 */
	if (r % 2) {
		head = (r + 1) / 2;
		pairs[npairs++] = (struct pairing_pair){ head, n };
	} else {
		head = r / 2 + n / 2;
		pairs[npairs++] = (struct pairing_pair){ n, head };
	}
	for (int k = 1; k < n / 2; k++)
		pairs[npairs++] = (struct pairing_pair){ wrap(head + k, n - 1), wrap(head - k, n - 1) };
	if (reverse) {
		for (int i = 0; i < npairs; i++) {
			int tmp = pairs[i].white;
			pairs[i].white = pairs[i].black;
			pairs[i].black = tmp;
		}
	}
	if (n != nplayers) {
		/* Drop the dummy's game: its opponent has the bye. */
		for (int i = 0; i < npairs; i++) {
			if (pairs[i].white == n || pairs[i].black == n) {
				*bye = pairs[i].white == n ? pairs[i].black : pairs[i].white;
				memmove(&pairs[i], &pairs[i + 1], (size_t)(npairs - i - 1) * sizeof *pairs);
				npairs--;
				break;
			}
		}
	}
	return npairs;
}

/* Swiss: the Dutch system. */

enum pref_strength {
	PREF_NONE,
	PREF_MILD,
	PREF_STRONG,
	PREF_ABSOLUTE,
};

struct dutch_player {
	int id;				/* start number */
	/*
	 * Pairing number for E.5: the rank by start number among the players
	 * paired this round or in any earlier one (a game, forfeits included,
	 * or a pairing-allocated bye), as bbpPairings numbers them.
	 */
	int pairing_no;
	int score;			/* half points before this round */
	int colour_diff;		/* whites minus blacks, games played */
	int nplayed;
	enum tourney_colour *history;	/* colours of games played, oldest first */
	enum tourney_colour pref;
	enum tourney_colour repeated;	/* colour of the last two games if equal */
	enum pref_strength strength;
	enum tourney_float float1, float2;	/* one and two rounds back */
	bool bye_ok, topscorer;
};

/* What an edge of the matcher stands for; its weight follows from the bracket's layout. */
enum edge_kind {
	EDGE_NONE,	/* the players may not meet, or the edge was dropped */
	EDGE_PLAIN,	/* allowed, no criterion weighed (outside the bracket) */
	EDGE_WEIGHED,	/* the criteria of a bracket pair */
};

struct edge_state {
	unsigned char kind;
	bool curr, next, bye;	/* lower player in this bracket / next; bye field on */
	int64_t low;		/* added below the criteria: the order of the procedure */
};

/* Weight fields, highest priority first; see edge_encode(). */
enum field {
	FIELD_PAIRS,		/* C5: pairs in the bracket */
	FIELD_PAIR_SCORES,	/* C6: their scores (per score) */
	FIELD_NEXT,		/* C7: pairs in the next bracket */
	FIELD_NEXT_SCORES,	/* C7: their scores (per score) */
	FIELD_BYE,		/* the bye assignee has played the most games */
	FIELD_COLOUR_WIDE,	/* topscorers' colour difference beyond 2 */
	FIELD_COLOUR_THREE,	/* topscorers' same colour three times */
	FIELD_COLOUR,		/* unmet colour preferences */
	FIELD_STRONG,		/* unmet strong colour preferences */
	FIELD_DOWN1,		/* repeated floats one and two rounds back */
	FIELD_UP1,
	FIELD_DOWN2,
	FIELD_UP2,
	FIELD_DOWN1_SCORES,	/* and their scores (per score) */
	FIELD_UP1_SCORES,
	FIELD_DOWN2_SCORES,
	FIELD_UP2_SCORES,
	FIELD_NB
};

#define SCORE_SLOTS	(2 * TOURNEY_ROUNDS_MAX + 8)
/* Every edge carries this bit: the matching is perfect, so it adds a constant. */
#define PRESENT_BIT	236

struct dutch {
	const struct tourney *t;
	int round, n, nv;		/* players; vertices (plus a dummy when n is odd) */
	struct dutch_player *pl;	/* available players, by score then start number */
	unsigned char *met;		/* met[i * n + j]: played over the board */
	enum tourney_colour *histories;
	int *partner;			/* final pairing, by sorted index; n = bye, -1 open */
	struct matching *m;		/* the weighted matcher over all unpaired players */
	struct edge_state *cur;		/* what the matcher holds, per edge */
	struct edge_state *base;	/* the bracket's base edges */
	int bye_score;			/* lowest score the bye can go to */
	bool bye_field;			/* the bye assignee is the bracket's only floater */
	int *bye_rank;			/* by games played */
	int low_bits;			/* room below the criteria */
	/* Per bracket. */
	int *list, nlist, nmdp, ncur;	/* MDPs, residents, next score group */
	int group_begin, group_end;	/* sorted indices of the residents */
	bool *matched;
	int pos[FIELD_NB], width[FIELD_NB];	/* width 0: the field is left out */
	bool topscorers;		/* anyone is a topscorer (the last round) */
	int score_shift[SCORE_SLOTS];
};

static enum tourney_colour colour_other(enum tourney_colour c)
{
	return c == TOURNEY_WHITE ? TOURNEY_BLACK : c == TOURNEY_BLACK ? TOURNEY_WHITE :
	    TOURNEY_COLOUR_NONE;
}

static int colour_imbalance(const struct dutch_player *p)
{
	return abs(p->colour_diff);
}

/* A.6 colour preference from the colours of games played. */
static void player_preference(struct dutch_player *p)
{
	int run = 0;
	enum tourney_colour last = TOURNEY_COLOUR_NONE;

	for (int i = 0; i < p->nplayed; i++) {
		run = p->history[i] == last ? run + 1 : 1;
		last = p->history[i];
	}
	enum tourney_colour lower = p->colour_diff > 0 ? TOURNEY_BLACK : TOURNEY_WHITE;
	p->repeated = run > 1 ? last : TOURNEY_COLOUR_NONE;
	p->pref = colour_imbalance(p) > 1 ? lower : run > 1 ? colour_other(last) :
	    colour_imbalance(p) > 0 ? lower : run ? colour_other(last) : TOURNEY_COLOUR_NONE;
	if (colour_imbalance(p) > 1 || p->repeated != TOURNEY_COLOUR_NONE)
		p->strength = PREF_ABSOLUTE;
	else if (colour_imbalance(p) > 0)
		p->strength = PREF_STRONG;
	else
		p->strength = run ? PREF_MILD : PREF_NONE;
}

static bool pref_absolute(const struct dutch_player *p)
{
	return p->strength == PREF_ABSOLUTE;
}

/* C1 and C3: whether the sorted players i and j may meet. */
static bool dutch_compatible(const struct dutch *d, int i, int j)
{
	const struct dutch_player *a = &d->pl[i], *b = &d->pl[j];

	if (d->met[(size_t)i * (size_t)d->n + (size_t)j])
		return false;
	if (pref_absolute(a) && pref_absolute(b) && a->pref == b->pref &&
	    !a->topscorer && !b->topscorer)
		return false;
	return true;
}

/*
 * E.1-E.5: the colour of the higher-ranked player hi (the lower sorted
 * index) against lo.
 */
static enum tourney_colour dutch_colour(const struct dutch *d, int hi, int lo)
{
	const struct dutch_player *a = &d->pl[hi], *b = &d->pl[lo];
	enum tourney_colour initial = d->t->initial_colour == TOURNEY_BLACK ? TOURNEY_BLACK :
	    TOURNEY_WHITE;

	if (a->pref != TOURNEY_COLOUR_NONE && b->pref != a->pref)
		return a->pref;					/* E.1 */
	if (a->pref == TOURNEY_COLOUR_NONE && b->pref != TOURNEY_COLOUR_NONE)
		return colour_other(b->pref);			/* E.1 */
	if (a->pref != TOURNEY_COLOUR_NONE) {
		int wa = abs(a->colour_diff), wb = abs(b->colour_diff);
		if (a->strength != b->strength)			/* E.2 */
			return a->strength > b->strength ? a->pref : colour_other(a->pref);
		if (a->strength == PREF_ABSOLUTE && wa != wb)
			return wa > wb ? a->pref : colour_other(a->pref);
		/* E.3: alternate from the latest game where their colours differed. */
		for (int ia = a->nplayed - 1, ib = b->nplayed - 1; ia >= 0 && ib >= 0; ia--, ib--)
			if (a->history[ia] != b->history[ib])
				return colour_other(a->history[ia]);
		return a->pref;					/* E.4 */
	}
	return a->pairing_no % 2 ? initial : colour_other(initial);	/* E.5 */
}

static int bits_for(long bound)
{
	int bits = 0;

	while (bound > 0) {
		bits++;
		bound >>= 1;
	}
	return bits;
}

static struct edge_state *edge_at(const struct dutch *d, struct edge_state *a, int i, int j)
{
	return &a[matching_edge(d->m, i, j)];
}

/* w plus v * 2^shift in field f, unless the layout leaves f out. */
static struct wide field_add(const struct dutch *d, struct wide w, enum field f, uint64_t v, int shift)
{
	if (d->width[f] == 0 || v == 0)
		return w;
	return wide_add(w, wide_shifted(v, d->pos[f] + shift));
}

/*
 * The float criteria of one pair for floats one round back (step 0) or two
 * (step 2, the next pair of fields): how many repeated downfloats and
 * whether the higher player's upfloat is avoided, then the same at scores.
 * low/high are the pair's lower and higher players' floats and score shifts.
 */
static struct wide float_fields(const struct dutch *d, struct wide w, int step, bool higher_scores_more,
    enum tourney_float low, enum tourney_float high, int low_shift, int high_shift)
{
	int down = (low == TOURNEY_FLOAT_DOWN) + (!higher_scores_more && high == TOURNEY_FLOAT_DOWN);
	bool up = !(higher_scores_more && low == TOURNEY_FLOAT_UP);

	w = field_add(d, w, (enum field)(FIELD_DOWN1 + step), (uint64_t)down, 0);
	w = field_add(d, w, (enum field)(FIELD_UP1 + step), up, 0);
	if (low == TOURNEY_FLOAT_DOWN)
		w = field_add(d, w, (enum field)(FIELD_DOWN1_SCORES + step), 1, low_shift);
	if (high == TOURNEY_FLOAT_DOWN)
		w = field_add(d, w, (enum field)(FIELD_DOWN1_SCORES + step), 1, high_shift);
	if (up)
		w = field_add(d, w, (enum field)(FIELD_UP1_SCORES + step), 1, high_shift);
	return w;
}

/*
 * Weight of the edge between sorted players h < l in state e under the
 * bracket's layout.  Pairs whose lower player is in the bracket score the
 * pair (C5) at the higher player's score (C6); pairs into the next score
 * group score C7 likewise.  For bracket pairs: the topscorer colour
 * criteria, unmet colour preferences, strong ones, then repeated floats
 * one and two rounds back, counted and then at their scores (a pair scores
 * when it does NOT repeat a float).  The bye field, when on, prefers to
 * leave unpaired the bye candidate who has played the most games.
 */
static struct wide edge_encode(const struct dutch *d, int h, int l, const struct edge_state *e)
{
	if (e->kind == EDGE_NONE)
		return wide_zero;
	struct wide w = wide_bit(PRESENT_BIT);
	if (e->kind == EDGE_PLAIN)
		return w;
	const struct dutch_player *ph = &d->pl[h], *pll = &d->pl[l];
	const int *sh = d->score_shift;
	if (e->curr) {
		w = field_add(d, w, FIELD_PAIRS, 1, 0);
		w = field_add(d, w, FIELD_PAIR_SCORES, 1, sh[ph->score]);
	}
	if (e->next) {
		w = field_add(d, w, FIELD_NEXT, 1, 0);
		w = field_add(d, w, FIELD_NEXT_SCORES, 1, sh[ph->score]);
	}
	if (e->bye) {
		int rank = 0;
		if (ph->score == d->bye_score)
			rank += d->bye_rank[ph->nplayed];
		if (pll->score == d->bye_score)
			rank += d->bye_rank[pll->nplayed];
		w = field_add(d, w, FIELD_BYE, (uint64_t)rank, 0);
	}
	if (e->curr) {
		/* Seen from the lower player p against the higher o. */
		const struct dutch_player *p = pll, *o = ph;
		bool same = p->pref == o->pref;
		bool c1 = !(colour_imbalance(p) > 1 && colour_imbalance(o) > 1 && same);
		bool c2 = !pref_absolute(p) || !pref_absolute(o) || !same;
		if (!c2) {
			if (colour_imbalance(p) == colour_imbalance(o))
				c2 = p->repeated == TOURNEY_COLOUR_NONE || p->repeated != o->repeated;
			else
				c2 = (colour_imbalance(p) > colour_imbalance(o) ? o : p)->repeated !=
				    colour_other(p->pref);
		}
		bool c3 = !same || p->pref == TOURNEY_COLOUR_NONE;
		bool c4 = (p->strength != PREF_STRONG && !pref_absolute(p)) ||
		    (o->strength != PREF_STRONG && !pref_absolute(o)) ||
		    (pref_absolute(p) && pref_absolute(o)) || !same;
		w = field_add(d, w, FIELD_COLOUR_WIDE, c1, 0);
		w = field_add(d, w, FIELD_COLOUR_THREE, c2, 0);
		w = field_add(d, w, FIELD_COLOUR, c3, 0);
		w = field_add(d, w, FIELD_STRONG, c4, 0);
		bool hl = ph->score > pll->score;
		if (d->round > 1)
			w = float_fields(d, w, 0, hl, pll->float1, ph->float1, sh[pll->score],
			    sh[ph->score]);
		if (d->round > 2)
			w = float_fields(d, w, 2, hl, pll->float2, ph->float2, sh[pll->score],
			    sh[ph->score]);
	}
	return wide_add(w, wide_small(e->low));
}

/* Puts state s on edge owner-other and into the matcher. */
static void edge_put(struct dutch *d, int owner, int other, struct edge_state s)
{
	int h = owner < other ? owner : other, l = owner < other ? other : owner;

	*edge_at(d, d->cur, h, l) = s;
	matching_set(d->m, owner, other, edge_encode(d, h, l, &s));
}

/* The base edge of list positions a, b with low added (none if the base edge is off). */
static struct edge_state edge_base(struct dutch *d, int a, int b, int64_t low)
{
	struct edge_state s = *edge_at(d, d->base, d->list[a], d->list[b]);

	if (s.kind != EDGE_NONE)
		s.low = low;
	return s;
}

static void edge_drop_base(struct dutch *d, int a, int b)
{
	edge_at(d, d->base, d->list[a], d->list[b])->kind = EDGE_NONE;
}

/* Partner of sorted player v in the last solve; v itself for the bye. */
static int mate_of(const struct dutch *d, int v)
{
	int w = matching_partner(d->m, v);

	return w >= d->n || w < 0 ? v : w;
}

static void pair_finalize(struct dutch *d, int v, int w)
{
	d->matched[v] = d->matched[w] = true;
	if (w != v)
		matching_retire(d->m, v, w);
}

static int solve(struct dutch *d)
{
	return matching_solve(d->m);
}

/* Field positions for the bracket in d->list; -1 when they need too many bits. */
static int bracket_layout(struct dutch *d)
{
	int count[SCORE_SLOTS] = { 0 }, *width = d->width, shift = 0, total = 0;
	int nb = bits_for(d->nlist);

	for (int i = 0; i < d->nlist; i++)
		count[d->pl[d->list[i]].score]++;
	for (int s = 0; s < SCORE_SLOTS; s++) {
		d->score_shift[s] = shift;
		shift += bits_for(count[s]);
	}
	for (int f = 0; f < FIELD_NB; f++)
		width[f] = nb;
	width[FIELD_PAIR_SCORES] = width[FIELD_NEXT_SCORES] = shift;
	width[FIELD_DOWN1_SCORES] = width[FIELD_UP1_SCORES] = shift;
	width[FIELD_DOWN2_SCORES] = width[FIELD_UP2_SCORES] = shift;
	width[FIELD_BYE] = 2 * bits_for(d->n) + 1;
	/*
	 * Fields that cannot tell matchings apart take no bits: floats before
	 * round 1 or 2, and the topscorers' colour limits (which without
	 * topscorers hold for every allowed pair, by C3) outside the last round.
	 */
	if (d->round <= 1)
		width[FIELD_DOWN1] = width[FIELD_UP1] = width[FIELD_DOWN1_SCORES] =
		    width[FIELD_UP1_SCORES] = 0;
	if (d->round <= 2)
		width[FIELD_DOWN2] = width[FIELD_UP2] = width[FIELD_DOWN2_SCORES] =
		    width[FIELD_UP2_SCORES] = 0;
	if (!d->topscorers)
		width[FIELD_COLOUR_WIDE] = width[FIELD_COLOUR_THREE] = 0;
	total = d->low_bits;
	for (int f = FIELD_NB - 1; f >= 0; f--) {
		d->pos[f] = total;
		total += width[f];
	}
	return total < PRESENT_BIT - 2 ? 0 : -1;
}

/* Whether sorted player v is the higher player of a pair inside the residents. */
static bool pairs_down(const struct dutch *d, int v)
{
	int w = mate_of(d, v);

	return w > v && w < d->group_end;
}

static bool is_resident(const struct dutch *d, int w)
{
	return w >= d->group_begin && w < d->group_end;
}

/* Remainder edge weight: transpositions before exchanges, then small exchanges. */
static struct edge_state remainder_edge(struct dutch *d, const int *rem, int a, int b, int pairs,
    int64_t extra)
{
	int64_t low = ((int64_t)(a < pairs) << (2 * (d->low_bits - 1) / 3)) - a;

	return edge_base(d, rem[a], rem[b], 2 * low + extra);
}

/*
 * Pairs one bracket: list[0..nmdp) the moved-down players, list[nmdp..ncur)
 * the residents, list[ncur..nlist) the next score group.  The criteria
 * settle a maximum-weight matching; then, one decision at a time, each
 * re-solved: which MDPs are paired (higher ranks first), their opponents
 * (highest-ranked resident that still allows an optimal pairing), which S1
 * players are exchanged (lowest first) and which S2 players (highest
 * first), and the S1 players' opponents in order.  Returns -1 on failure.
 */
static int dutch_bracket(struct dutch *d)
{
	int *list = d->list, nmdp = d->nmdp, ncur = d->ncur, nlist = d->nlist;
	int *rem = NULL, *half_at = NULL, nrem = 0, pairs = 0, rc = -1;

	for (int l = nmdp; l < nlist; l++) {
		for (int s = 0; s < l; s++) {
			struct edge_state e = { EDGE_NONE, false, false, false, 0 };
			if (dutch_compatible(d, list[s], list[l])) {
				e.kind = EDGE_WEIGHED;
				e.curr = l < ncur;
				e.next = l >= ncur;
				e.bye = d->bye_field;
			}
			*edge_at(d, d->base, list[s], list[l]) = e;
			edge_put(d, list[l], list[s], e);
		}
	}
	/* The MDPs' edges among themselves keep their state under the new layout. */
	for (int a = 0; a < nmdp; a++)
		for (int b = a + 1; b < nmdp; b++)
			edge_put(d, list[a], list[b], *edge_at(d, d->cur, list[a], list[b]));
	if (solve(d) < 0)
		return -1;

	/* Which MDPs are paired in the bracket: per score, the highest first. */
	int level = -1, left = 0, left_paired = 0;
	for (int i = 0; i < nmdp; i++) {
		int v = list[i];
		if (i == 0 || d->pl[v].score < level) {
			level = d->pl[v].score;
			left = left_paired = 0;
			for (int k = i; k < nmdp && d->pl[list[k]].score >= level; k++) {
				left++;
				left_paired += is_resident(d, mate_of(d, list[k]));
			}
		}
		if (!left_paired)
			continue;
		if (left <= left_paired) {
			d->matched[v] = true;
			continue;
		}
		left--;
		if (!is_resident(d, mate_of(d, v))) {
			for (int o = nmdp; o < ncur; o++) {
				struct edge_state e = edge_base(d, o, i, 1);
				if (e.kind != EDGE_NONE)
					edge_put(d, v, list[o], e);
			}
			if (solve(d) < 0)
				return -1;
		}
		if (is_resident(d, mate_of(d, v))) {
			d->matched[v] = true;
			left_paired--;
			for (int o = nmdp; o < ncur; o++) {
				struct edge_state e = edge_base(d, o, i, ncur - nmdp + 1);
				if (e.kind != EDGE_NONE)
					edge_put(d, v, list[o], e);
			}
		}
	}
	/* The MDPs' opponents: the highest-ranked resident possible. */
	for (int i = 0; i < nmdp; i++) {
		int v = list[i];
		if (!d->matched[v])
			continue;
		int64_t addend = nlist;
		for (int o = ncur - 1; o >= nmdp; o--) {
			if (d->matched[list[o]])
				continue;
			struct edge_state e = edge_base(d, o, i, addend);
			if (e.kind != EDGE_NONE) {
				edge_put(d, v, list[o], e);
				addend++;
			}
		}
		if (solve(d) < 0)
			return -1;
		pair_finalize(d, v, mate_of(d, v));
	}

	/* The remainder: residents not paired with an MDP. */
	rem = malloc(((size_t)ncur + 1) * sizeof *rem);
	half_at = malloc(((size_t)ncur + 1) * sizeof *half_at);
	if (!rem || !half_at) {
		free(rem);
		free(half_at);
		return -1;
	}
	for (int k = nmdp; k < ncur; k++) {
		int v = list[k], w = mate_of(d, v);
		if (w < d->group_begin)
			continue;
		rem[nrem++] = k;
		if (w < v)
			pairs++;
	}
	for (int b = 0; b < nrem; b++)
		for (int a = 0; a < b; a++)
			edge_put(d, list[rem[a]], list[rem[b]], remainder_edge(d, rem, a, b, pairs, 0));
	if (solve(d) < 0)
		goto out;
	int exchanges = 0;
	for (int a = 0; a < pairs; a++)
		exchanges += !pairs_down(d, list[rem[a]]);

	/* S1 players to exchange: the lowest first. */
	int todo = exchanges;
	for (int a = pairs - 1; a >= 0 && todo; a--) {
		int v = list[rem[a]];
		if (pairs_down(d, v)) {
			for (int b = a + 1; b < nrem; b++) {
				struct edge_state e = remainder_edge(d, rem, a, b, pairs, -1);
				if (e.kind != EDGE_NONE)
					edge_put(d, v, list[rem[b]], e);
			}
			if (solve(d) < 0)
				goto out;
		}
		bool exchange = !pairs_down(d, v);
		todo -= exchange;
		for (int b = a + 1; b < nrem; b++) {
			if (exchange)
				edge_drop_base(d, rem[a], rem[b]);
			edge_put(d, v, list[rem[b]], remainder_edge(d, rem, a, b, pairs, 0));
		}
	}
	/* S2 players to exchange: the highest first. */
	todo = exchanges;
	for (int a = pairs; a < nrem && todo > 1; a++) {
		int v = list[rem[a]];
		bool already = pairs_down(d, v);
		if (!already) {
			for (int b = a + 1; b < nrem; b++) {
				struct edge_state e = remainder_edge(d, rem, a, b, pairs, 1);
				if (e.kind != EDGE_NONE)
					edge_put(d, v, list[rem[b]], e);
			}
			if (solve(d) < 0)
				goto out;
		}
		if (pairs_down(d, v)) {
			todo--;
			for (int b = 0; b < a; b++) {
				edge_drop_base(d, rem[b], rem[a]);
				edge_put(d, v, list[rem[b]], edge_base(d, rem[b], rem[a], 0));
			}
			for (int o = ncur; o < nlist; o++) {
				edge_drop_base(d, rem[a], o);
				edge_put(d, v, list[o], edge_base(d, rem[a], o, 0));
			}
		}
		if (!already)
			for (int b = a + 1; b < nrem; b++)
				edge_put(d, v, list[rem[b]], remainder_edge(d, rem, a, b, pairs, 0));
	}
	/*
	 * Settle who is in S1: only S1-S2 edges stay.  Below the order of
	 * opponents set next, the edges favour S1[i] against S2[i] (a pair
	 * loses the distance between their places in S1 and S2), so that the
	 * matching held tends to give each S1 player the opponent the order
	 * picks, and its solve can be skipped.  half_at[a]: place in S1 or S2.
	 */
	int64_t near = (int64_t)1 << (2 * ((d->low_bits - 1) / 3));
	for (int a = 0, n1 = 0, n2 = 0; a < nrem; a++)
		half_at[a] = pairs_down(d, list[rem[a]]) ? n1++ : n2++;
	for (int a = 0; a < nrem; a++) {
		int v = list[rem[a]];
		for (int b = a + 1; b < nrem; b++) {
			if (!pairs_down(d, v) || pairs_down(d, list[rem[b]]))
				edge_drop_base(d, rem[a], rem[b]);
			edge_put(d, v, list[rem[b]], edge_base(d, rem[a], rem[b],
			    -(int64_t)abs(half_at[a] - half_at[b])));
		}
	}
	/* The S1 players' opponents, in order: the highest possible first. */
	for (int a = 0; a < nrem; a++) {
		int v = list[rem[a]];
		if (!pairs_down(d, v))
			continue;
		int64_t addend = 0;
		int top = -1;
		for (int b = nrem - 1; b > a; b--) {
			if (d->matched[list[rem[b]]])
				continue;
			struct edge_state e = edge_base(d, rem[a], rem[b], addend * near -
			    abs(half_at[a] - half_at[b]));
			if (e.kind != EDGE_NONE) {
				edge_put(d, v, list[rem[b]], e);
				top = b;
			}
			addend++;
		}
		/*
		 * The matching is optimal for the weights without v's addends; if
		 * it already gives v the highest-ranked opponent, it is optimal
		 * with them too, and the solve can wait for the next change.
		 */
		if ((top < 0 || list[rem[top]] != mate_of(d, v)) && solve(d) < 0)
			goto out;
		pair_finalize(d, v, mate_of(d, v));
	}
	rc = 0;
out:
	free(rem);
	free(half_at);
	return rc;
}

static int sort_players(const void *x, const void *y)
{
	const struct dutch_player *a = x, *b = y;

	if (a->score != b->score)
		return b->score - a->score;
	return a->id - b->id;
}

/* Gathers what the pairing needs from t; -1 when out of memory. */
static int dutch_load(struct dutch *d, const struct tourney *t, int round)
{
	struct tourney_slot *slots = NULL;
	int *index = NULL, rc = -1;
	int prior = round - 1;
	bool *paired_before = NULL;

	d->t = t;
	d->round = round;
	d->pl = calloc((size_t)t->nplayers + 1, sizeof *d->pl);
	d->histories = calloc(((size_t)t->nplayers + 1) * ((size_t)prior + 1), sizeof *d->histories);
	slots = calloc((size_t)t->nplayers + 1, sizeof *slots);
	index = malloc(((size_t)t->nplayers + 1) * sizeof *index);
	paired_before = calloc((size_t)t->nplayers + 1, sizeof *paired_before);
	if (!d->pl || !d->histories || !slots || !index || !paired_before)
		goto out;
	d->n = 0;
	for (int p = 1; p <= t->nplayers; p++) {
		if (!tourney_player_available(t, p, round))
			continue;
		struct dutch_player *dp = &d->pl[d->n++];
		dp->id = p;
		dp->history = d->histories + (size_t)p * ((size_t)prior + 1);
		dp->bye_ok = true;
	}
	for (int r = 1; r <= prior; r++) {
		tourney_round_slots(t, r, slots);
		for (int p = 1; p <= t->nplayers; p++)
			if (slots[p].opponent != 0 || slots[p].bye == TOURNEY_BYE_PAIRING)
				paired_before[p] = true;
		for (int i = 0; i < d->n; i++) {
			struct dutch_player *dp = &d->pl[i];
			const struct tourney_slot *s = &slots[dp->id];
			if (s->played) {
				dp->history[dp->nplayed++] = s->colour;
				dp->colour_diff += s->colour == TOURNEY_WHITE ? 1 : -1;
			}
			if (s->bye == TOURNEY_BYE_PAIRING ||
			    (!s->played && s->points_half >= TOURNEY_WIN_HALF))
				dp->bye_ok = false;
		}
		/* Floats need the scores before round r, still being summed. */
		for (int i = 0; i < d->n; i++) {
			struct dutch_player *dp = &d->pl[i];
			const struct tourney_slot *s = &slots[dp->id];
			enum tourney_float fl = TOURNEY_FLOAT_NONE;
			if (!s->played) {
				if (s->points_half > 0)
					fl = TOURNEY_FLOAT_DOWN;
			} else {
				int theirs = tourney_score_half(t, s->opponent, r - 1);
				fl = dp->score > theirs ? TOURNEY_FLOAT_DOWN :
				    dp->score < theirs ? TOURNEY_FLOAT_UP : TOURNEY_FLOAT_NONE;
			}
			if (r == prior)
				dp->float1 = fl;
			if (r == prior - 1)
				dp->float2 = fl;
		}
		for (int i = 0; i < d->n; i++)
			d->pl[i].score += slots[d->pl[i].id].points_half;
	}
	for (int i = 0; i < d->n; i++) {
		struct dutch_player *dp = &d->pl[i];
		player_preference(dp);
		/* Topscorers: more than half the maximum score, in the last round only. */
		dp->topscorer = round >= t->nrounds && dp->score > prior;
		d->topscorers |= dp->topscorer;
	}
	for (int p = 1, k = 0, i = 0; p <= t->nplayers; p++) {
		bool now = i < d->n && d->pl[i].id == p;
		if (now || paired_before[p])
			k++;
		if (now)
			d->pl[i++].pairing_no = k;
	}
	qsort(d->pl, (size_t)d->n, sizeof *d->pl, sort_players);
	for (int p = 0; p <= t->nplayers; p++)
		index[p] = -1;
	for (int i = 0; i < d->n; i++)
		index[d->pl[i].id] = i;
	d->met = calloc((size_t)d->n * (size_t)d->n + 1, 1);
	d->partner = malloc(((size_t)d->n + 1) * sizeof *d->partner);
	d->list = malloc(((size_t)d->n + 1) * sizeof *d->list);
	d->matched = calloc((size_t)d->n + 2, sizeof *d->matched);
	d->bye_rank = calloc((size_t)round + 2, sizeof *d->bye_rank);
	d->nv = d->n + d->n % 2;
	if (!d->met || !d->partner || !d->list || !d->matched || !d->bye_rank)
		goto out;
	if (!(d->m = matching_new(d->nv)))
		goto out;
	{
		size_t nedge = (size_t)matching_edge_count(d->m) + 1;
		d->cur = calloc(nedge, sizeof *d->cur);
		d->base = calloc(nedge, sizeof *d->base);
		if (!d->cur || !d->base)
			goto out;
	}
	for (int r = 1; r <= prior; r++) {
		const struct tourney_round *rd = &t->rounds[r];
		for (int g = 0; g < rd->ngames; g++) {
			int i = index[rd->games[g].white], j = index[rd->games[g].black];
			if (i < 0 || j < 0 || !tourney_result_played(rd->games[g].result))
				continue;
			d->met[(size_t)i * (size_t)d->n + (size_t)j] = 1;
			d->met[(size_t)j * (size_t)d->n + (size_t)i] = 1;
		}
	}
	for (int i = 0; i < d->n; i++)
		d->partner[i] = -1;
	rc = 0;
out:
	free(slots);
	free(index);
	free(paired_before);
	return rc;
}

static void dutch_free(struct dutch *d)
{
	free(d->pl);
	free(d->histories);
	free(d->met);
	free(d->partner);
	free(d->list);
	free(d->matched);
	free(d->bye_rank);
	free(d->cur);
	free(d->base);
	matching_free(d->m);
}

/*
 * Puts every allowed pair on the matcher as a plain edge.  With an odd
 * number of players, first finds the lowest score the pairing-allocated
 * bye can go to (the dummy vertex is joined to the eligible players) and
 * whether the top score group then pairs within itself; the dummy keeps
 * edges only to the bye candidates.  Returns -1 when no pairing exists.
 */
static int dutch_setup(struct dutch *d)
{
	int n = d->n, group[SCORE_SLOTS] = { 0 }, ngroups = 0;

	for (int i = n - 1; i >= 0; i--)
		if (i == n - 1 || d->pl[i].score != d->pl[i + 1].score)
			group[d->pl[i].score] = ngroups++;
	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j < n; j++) {
			struct edge_state e = { EDGE_NONE, false, false, false, 0 };
			struct wide w = wide_zero;
			if (dutch_compatible(d, i, j)) {
				e.kind = EDGE_PLAIN;
				w = wide_add(wide_bit(PRESENT_BIT), wide_shifted((uint64_t)(group[d->pl[i].score] +
				    group[d->pl[j].score]), 1));
				if (d->pl[j].score >= d->pl[0].score)
					w = wide_add(w, wide_small(1));
			}
			*edge_at(d, d->cur, i, j) = e;
			*edge_at(d, d->base, i, j) = e;
			matching_set(d->m, i, j, n % 2 ? w : edge_encode(d, i, j, &e));
		}
	}
	if (n % 2 == 0)
		return 0;
	for (int i = 0; i < n; i++)
		matching_set(d->m, i, n, d->pl[i].bye_ok ? wide_bit(PRESENT_BIT) : wide_zero);
	if (matching_solve(d->m) < 0)
		return -1;
	int bye = matching_partner(d->m, n), top = d->pl[0].score;
	d->bye_score = d->pl[bye].score;
	d->bye_field = d->bye_score >= top;
	for (int i = 0; i < n && d->pl[i].score >= top; i++)
		if (d->pl[mate_of(d, i)].score < top)
			d->bye_field = false;
	for (int i = 0; i < n; i++) {
		if (d->pl[i].score != d->bye_score)
			continue;
		int rank = -1;
		for (int j = 0; j < n; j++)
			rank += d->pl[j].score == d->bye_score && d->pl[j].nplayed >= d->pl[i].nplayed;
		d->bye_rank[d->pl[i].nplayed] = rank;
	}
	/* Start afresh: plain edges, the dummy joined to the candidates. */
	matching_restart(d->m);
	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j < n; j++)
			matching_set(d->m, i, j, edge_encode(d, i, j, edge_at(d, d->cur, i, j)));
		matching_set(d->m, i, n, d->pl[i].bye_ok && d->pl[i].score <= d->bye_score ?
		    wide_bit(PRESENT_BIT) : wide_zero);
	}
	return 0;
}

/* Pairs the brackets from the top score group down; -1 with err set on failure. */
static int dutch_pair(struct dutch *d, char *err, size_t errlen)
{
	int n = d->n, next = 0, maxgroup = 0;

	if (n == 0)
		return 0;
	for (int i = 0, run = 0; i < n; i++) {
		run = i > 0 && d->pl[i].score == d->pl[i - 1].score ? run + 1 : 1;
		if (run > maxgroup)
			maxgroup = run;
	}
	d->low_bits = 3 * bits_for(maxgroup) + 1;
	if (dutch_setup(d) < 0)
		return error_set(err, errlen, "no pairing satisfies the absolute criteria (C1-C3)");
	d->nlist = d->nmdp = 0;
	while (next < n && d->pl[next].score == d->pl[0].score)
		d->list[d->nlist++] = next++;
	while (d->nlist > 1 || next < n) {
		int ncur = d->nlist, paired = 0, carried = 0, nmdp = 0;
		bool had_next = next < n;
		d->ncur = ncur;
		d->group_end = next;
		d->group_begin = next - (ncur - d->nmdp);
		if (had_next) {
			int s = d->pl[next].score;
			while (next < n && d->pl[next].score == s)
				d->list[d->nlist++] = next++;
		}
		if (bracket_layout(d) < 0)
			return error_set(err, errlen, "bracket of %d players too large to weigh", d->nlist);
		if (dutch_bracket(d) < 0)
			return error_set(err, errlen, "no pairing satisfies the absolute criteria (C1-C3)");
		int next_score = had_next ? d->pl[d->list[ncur]].score : 0;
		bool field = n % 2 && had_next && d->bye_score >= next_score;
		for (int k = 0; k < d->nlist; k++) {
			int v = d->list[k], w = mate_of(d, v);
			if (k < ncur && d->matched[v]) {
				if (w != v) {
					d->partner[v] = w;
					d->partner[w] = v;
					paired++;
				}
			} else {
				d->list[carried++] = v;
				nmdp += k < ncur;
				if (field && d->pl[w].score < next_score)
					field = false;
			}
		}
		d->nlist = carried;
		d->nmdp = nmdp;
		d->bye_field = field;
		if (!had_next && !paired) {
			/* Nothing settled and nobody left to add: take the matching as it is. */
			for (int k = 0; k < d->nlist; k++) {
				int v = d->list[k], w = mate_of(d, v);
				if (w != v)
					d->partner[v] = w;
			}
			d->nlist = 0;
			for (int v = 0; v < n; v++)
				if (d->partner[v] < 0)
					d->list[d->nlist++] = v;
			break;
		}
	}
	if (d->nlist == 1) {
		if (n % 2 == 0 || !d->pl[d->list[0]].bye_ok)
			return error_set(err, errlen, "no pairing satisfies the absolute criteria (C1-C3)");
		d->partner[d->list[0]] = n;
	} else if (d->nlist > 1) {
		return error_set(err, errlen, "no pairing satisfies the absolute criteria (C1-C3)");
	}
	return 0;
}

struct board {
	int hi, lo;	/* sorted indices, hi ranked higher */
};

int pairing_dutch(const struct tourney *t, int round, struct tourney_round *out,
    char *err, size_t errlen)
{
	struct dutch d = { 0 };
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (tourney_validate(t, err, errlen) < 0)
		return -1;
	if (round < 1 || round > TOURNEY_ROUNDS_MAX)
		return error_set(err, errlen, "no round %d", round);
	if (round != t->rounds_paired + 1)
		return error_set(err, errlen, "round %d cannot be paired after %d rounds", round,
		    t->rounds_paired);
	if (dutch_load(&d, t, round) < 0) {
		error_set(err, errlen, "out of memory");
		goto out;
	}
	if (d.n == 1 && !d.pl[0].bye_ok) {
		error_set(err, errlen, "the only player cannot have the bye");
		goto out;
	}

	if (dutch_pair(&d, err, errlen) < 0)
		goto out;

	/*
	 * Boards: by the higher score in the pair, then the sum, then the
	 * higher player's rank (insertion sort: qsort would need the scores
	 * through a global).
	 */
	struct board *boards = malloc(((size_t)d.n / 2 + 1) * sizeof *boards);
	int nboards = 0, bye = -1;
	if (!boards) {
		error_set(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < d.n; i++) {
		if (d.partner[i] == d.n)
			bye = i;
		else if (d.partner[i] > i)
			boards[nboards++] = (struct board){ i, d.partner[i] };
	}
	for (int i = 1; i < nboards; i++) {
		struct board b = boards[i];
		int key_sum = d.pl[b.hi].score + d.pl[b.lo].score, j = i;
		while (j > 0) {
			const struct board *c = &boards[j - 1];
			int csum = d.pl[c->hi].score + d.pl[c->lo].score;
			bool before = d.pl[b.hi].score > d.pl[c->hi].score ||
			    (d.pl[b.hi].score == d.pl[c->hi].score &&
			    (key_sum > csum || (key_sum == csum && b.hi < c->hi)));
			if (!before)
				break;
			boards[j] = boards[j - 1];
			j--;
		}
		boards[j] = b;
	}
	for (int i = 0; i < nboards; i++) {
		int hi = boards[i].hi, lo = boards[i].lo;
		enum tourney_colour c = dutch_colour(&d, hi, lo);
		struct tourney_game *g = &out->games[out->ngames++];
		g->white = c == TOURNEY_WHITE ? d.pl[hi].id : d.pl[lo].id;
		g->black = c == TOURNEY_WHITE ? d.pl[lo].id : d.pl[hi].id;
		g->result = TOURNEY_RESULT_NONE;
	}
	free(boards);
	if (bye >= 0)
		out->byes[out->nbyes++] = (struct tourney_bye_entry){ d.pl[bye].id,
		    TOURNEY_BYE_PAIRING };
	for (int p = 1; p <= t->nplayers; p++) {
		const struct tourney_player *pl = &t->players[p];
		if (pl->withdrawn_round > 0 && round >= pl->withdrawn_round)
			continue;
		if (pl->requested[round] != TOURNEY_BYE_NONE)
			out->byes[out->nbyes++] = (struct tourney_bye_entry){ p, pl->requested[round] };
	}
	rc = 0;
out:
	dutch_free(&d);
	return rc;
}
