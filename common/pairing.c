/*
 * Berger tables and the FIDE Dutch system.
 *
 * The Dutch pairing follows the weighted-matching formulation of bbpPairings:
 *
 *   - Players available this round are sorted by score, then start number;
 *     a score group is a run of equal scores.
 *   - Brackets are settled from the top: a bracket is the players moved
 *     down from above (MDPs) plus the next score group.  For each bracket
 *     one maximum-weight matching runs over every player still unpaired
 *     (plus a dummy vertex, joined only to bye-eligible players, when their
 *     number is odd).  Edges exist only between players the absolute
 *     criteria allow to meet (C1 no rematch, C3 no two non-topscorers with
 *     the same absolute colour preference, C2 via the dummy's edges).
 *   - Every edge weight packs, from the highest bits down: one per pair, so
 *     the matching is perfect and the round completes whenever it can (C4);
 *     pairs inside the bracket (C5); paired MDPs score level by score level
 *     (C6: the downfloaters' scores, highest first, as low as possible); pairs
 *     in the next bracket (C7, its pair count); topscorer colour limits (C8,
 *     C9); unmet colour preferences, then unmet strong ones (C10, C11);
 *     repeated downfloats and upfloats one and two rounds back (C12-C15);
 *     then the order of the MDPs' pairing, transpositions before exchanges,
 *     and the order of transpositions (see pair_order_cost()).  Each field
 *     is wide enough for its sum over any matching, so comparing totals
 *     compares the criteria in priority order.
 *   - Pairs with both players in the bracket are kept; the bracket's other
 *     players move down.  In the last bracket every pair is kept and the
 *     player matched to the dummy gets the pairing-allocated bye.
 *
 * Not done exactly: C16-C19 (score differences of repeated floaters) are
 * left out; C7 counts the next bracket's pairs but not its score
 * differences; the transposition order is exact only for as many S1
 * places as the 128-bit weight has room for (a distance cost after that),
 * and the order of exchanges and of the remainder after an MDP pairing is
 * approximated, so when several pairings are equally good by C1-C15 the one
 * chosen may differ from the rules' first one in the standard order.  Run
 * tests/tools/check_dutch.sh against bbpPairings to measure it.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairing.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

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
		return fail(err, errlen, "round robin of %d players (%d to %d)", nplayers,
		    PAIRING_BERGER_MIN, PAIRING_BERGER_MAX);
	if (round < 1 || round > pairing_berger_rounds(nplayers, double_round_robin))
		return fail(err, errlen, "no round %d in a round robin of %d players", round,
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

/*
 * Maximum-weight matching on a general graph: Edmonds' blossom algorithm
 * with dual variables, O(n^3), after Joris van Rantwijk's mwmatching.py
 * (public domain), here with 128-bit integer weights.  Dual variables hold
 * twice their value so that all arithmetic stays integral.
 */
__extension__ typedef __int128 weight_t;

struct blossom {
	int nvertex, nedge;
	const int *edge_end;		/* edge k joins edge_end[2k] and edge_end[2k + 1] */
	const weight_t *edge_weight;
	int *neigh_first, *neigh;	/* CSR lists of remote endpoints per vertex */
	int *mate;			/* remote endpoint of the matched edge, or -1 */
	int *label, *label_end, *in_blossom, *parent, *base, *best_edge;
	int **childs, **endps, *nchilds;
	int **best_list, *nbest_list;
	int *unused, nunused;
	weight_t *dual;
	bool *allow;
	int *queue, nqueue;
	int *leaves;			/* scratch for blossom_leaves() */
	int *best_to;			/* scratch for blossom_add() */
};

static weight_t blossom_slack(const struct blossom *m, int k)
{
	return m->dual[m->edge_end[2 * k]] + m->dual[m->edge_end[2 * k + 1]] -
	    2 * m->edge_weight[k];
}

/* Appends the vertices inside b to out; returns the new count. */
static int blossom_leaves(const struct blossom *m, int b, int *out, int n)
{
	if (b < m->nvertex) {
		out[n++] = b;
		return n;
	}
	for (int i = 0; i < m->nchilds[b]; i++)
		n = blossom_leaves(m, m->childs[b][i], out, n);
	return n;
}

static void blossom_assign_label(struct blossom *m, int w, int t, int p)
{
	for (;;) {
		int b = m->in_blossom[w];
		m->label[w] = m->label[b] = t;
		m->label_end[w] = m->label_end[b] = p;
		m->best_edge[w] = m->best_edge[b] = -1;
		if (t == 1) {
			m->nqueue = blossom_leaves(m, b, m->queue, m->nqueue);
			return;
		}
		int base = m->base[b];
		w = m->edge_end[m->mate[base]];
		p = m->mate[base] ^ 1;
		t = 1;
	}
}

/* Traces back from v and w; returns the base of a new blossom, or -1 for an augmenting path. */
static int blossom_scan(struct blossom *m, int v, int w)
{
	int path_len = 0, base = -1;
	int *path = m->leaves;

	while (v != -1 || w != -1) {
		int b = m->in_blossom[v];
		if (m->label[b] & 4) {
			base = m->base[b];
			break;
		}
		path[path_len++] = b;
		m->label[b] = 5;
		if (m->label_end[b] == -1) {
			v = -1;
		} else {
			v = m->edge_end[m->label_end[b]];
			b = m->in_blossom[v];
			v = m->edge_end[m->label_end[b]];
		}
		if (w != -1) {
			int tmp = v;
			v = w;
			w = tmp;
		}
	}
	for (int i = 0; i < path_len; i++)
		m->label[path[i]] = 1;
	return base;
}

static void blossom_add(struct blossom *m, int base, int k)
{
	int v = m->edge_end[2 * k], w = m->edge_end[2 * k + 1];
	int bb = m->in_blossom[base], bv = m->in_blossom[v], bw = m->in_blossom[w];
	int b = m->unused[--m->nunused];
	int n = 0, *path, *endps;

	m->base[b] = base;
	m->parent[b] = -1;
	m->parent[bb] = b;
	path = m->childs[b];
	endps = m->endps[b];
	/* Walk from v back to the base, then reverse, then from w. */
	while (bv != bb) {
		m->parent[bv] = b;
		path[n] = bv;
		endps[n] = m->label_end[bv];
		n++;
		v = m->edge_end[m->label_end[bv]];
		bv = m->in_blossom[v];
	}
	path[n] = bb;
	for (int i = 0, j = n; i < j; i++, j--) {
		int tmp = path[i];
		path[i] = path[j];
		path[j] = tmp;
	}
	for (int i = 0, j = n - 1; i < j; i++, j--) {
		int tmp = endps[i];
		endps[i] = endps[j];
		endps[j] = tmp;
	}
	n++;
	endps[n - 1] = 2 * k;
	while (bw != bb) {
		m->parent[bw] = b;
		path[n] = bw;
		endps[n] = m->label_end[bw] ^ 1;
		n++;
		w = m->edge_end[m->label_end[bw]];
		bw = m->in_blossom[w];
	}
	m->nchilds[b] = n;
	m->label[b] = 1;
	m->label_end[b] = m->label_end[bb];
	m->dual[b] = 0;
	int nleaves = blossom_leaves(m, b, m->leaves, 0);
	for (int i = 0; i < nleaves; i++) {
		int x = m->leaves[i];
		if (m->label[m->in_blossom[x]] == 2)
			m->queue[m->nqueue++] = x;
		m->in_blossom[x] = b;
	}
	for (int i = 0; i < 2 * m->nvertex; i++)
		m->best_to[i] = -1;
	for (int c = 0; c < n; c++) {
		int sub = path[c];
		if (m->best_list[sub] == NULL) {
			int nl = blossom_leaves(m, sub, m->leaves, 0);
			for (int li = 0; li < nl; li++) {
				int x = m->leaves[li];
				for (int q = m->neigh_first[x]; q < m->neigh_first[x + 1]; q++) {
					int kk = m->neigh[q] / 2;
					int j = m->edge_end[m->neigh[q]];
					int bj = m->in_blossom[j];
					if (bj != b && m->label[bj] == 1 && (m->best_to[bj] == -1 ||
					    blossom_slack(m, kk) < blossom_slack(m, m->best_to[bj])))
						m->best_to[bj] = kk;
				}
			}
		} else {
			for (int li = 0; li < m->nbest_list[sub]; li++) {
				int kk = m->best_list[sub][li];
				int i = m->edge_end[2 * kk], j = m->edge_end[2 * kk + 1];
				if (m->in_blossom[j] == b)
					j = i;
				int bj = m->in_blossom[j];
				if (bj != b && m->label[bj] == 1 && (m->best_to[bj] == -1 ||
				    blossom_slack(m, kk) < blossom_slack(m, m->best_to[bj])))
					m->best_to[bj] = kk;
			}
			free(m->best_list[sub]);
		}
		m->best_list[sub] = NULL;
		m->nbest_list[sub] = 0;
		m->best_edge[sub] = -1;
	}
	int cnt = 0;
	for (int i = 0; i < 2 * m->nvertex; i++)
		cnt += m->best_to[i] != -1;
	free(m->best_list[b]);
	m->best_list[b] = malloc((size_t)(cnt ? cnt : 1) * sizeof(int));
	m->nbest_list[b] = 0;
	m->best_edge[b] = -1;
	for (int i = 0; i < 2 * m->nvertex; i++) {
		int kk = m->best_to[i];
		if (kk == -1)
			continue;
		if (m->best_list[b])
			m->best_list[b][m->nbest_list[b]++] = kk;
		if (m->best_edge[b] == -1 || blossom_slack(m, kk) < blossom_slack(m, m->best_edge[b]))
			m->best_edge[b] = kk;
	}
}

static int child_index(const struct blossom *m, int b, int child)
{
	for (int i = 0; i < m->nchilds[b]; i++)
		if (m->childs[b][i] == child)
			return i;
	return -1;
}

/* Python-style index into a blossom's cyclic lists (j may be negative). */
static int cyc(const struct blossom *m, int b, int j)
{
	return j < 0 ? j + m->nchilds[b] : j;
}

static void blossom_expand(struct blossom *m, int b, bool endstage)
{
	for (int i = 0; i < m->nchilds[b]; i++) {
		int s = m->childs[b][i];
		m->parent[s] = -1;
		if (s < m->nvertex) {
			m->in_blossom[s] = s;
		} else if (endstage && m->dual[s] == 0) {
			blossom_expand(m, s, endstage);
		} else {
			int nl = blossom_leaves(m, s, m->leaves, 0);
			for (int li = 0; li < nl; li++)
				m->in_blossom[m->leaves[li]] = s;
		}
	}
	if (!endstage && m->label[b] == 2) {
		int entry = m->in_blossom[m->edge_end[m->label_end[b] ^ 1]];
		int j = child_index(m, b, entry), jstep, trick;
		if (j & 1) {
			j -= m->nchilds[b];
			jstep = 1;
			trick = 0;
		} else {
			jstep = -1;
			trick = 1;
		}
		int p = m->label_end[b];
		while (j != 0) {
			m->label[m->edge_end[p ^ 1]] = 0;
			m->label[m->edge_end[m->endps[b][cyc(m, b, j - trick)] ^ trick ^ 1]] = 0;
			blossom_assign_label(m, m->edge_end[p ^ 1], 2, p);
			m->allow[m->endps[b][cyc(m, b, j - trick)] / 2] = true;
			j += jstep;
			p = m->endps[b][cyc(m, b, j - trick)] ^ trick;
			m->allow[p / 2] = true;
			j += jstep;
		}
		int bv = m->childs[b][cyc(m, b, j)];
		m->label[m->edge_end[p ^ 1]] = m->label[bv] = 2;
		m->label_end[m->edge_end[p ^ 1]] = m->label_end[bv] = p;
		m->best_edge[bv] = -1;
		j += jstep;
		while (m->childs[b][cyc(m, b, j)] != entry) {
			bv = m->childs[b][cyc(m, b, j)];
			if (m->label[bv] == 1) {
				j += jstep;
				continue;
			}
			int nl = blossom_leaves(m, bv, m->leaves, 0), v = -1;
			for (int li = 0; li < nl; li++) {
				v = m->leaves[li];
				if (m->label[v] != 0)
					break;
			}
			if (v >= 0 && m->label[v] != 0) {
				m->label[v] = 0;
				m->label[m->edge_end[m->mate[m->base[bv]]]] = 0;
				blossom_assign_label(m, v, 2, m->label_end[v]);
			}
			j += jstep;
		}
	}
	m->label[b] = m->label_end[b] = -1;
	m->nchilds[b] = 0;
	m->base[b] = -1;
	free(m->best_list[b]);
	m->best_list[b] = NULL;
	m->nbest_list[b] = 0;
	m->best_edge[b] = -1;
	m->unused[m->nunused++] = b;
}

static void rotate(int *a, int n, int by, int *scratch)
{
	memcpy(scratch, a + by, (size_t)(n - by) * sizeof *a);
	memcpy(scratch + (n - by), a, (size_t)by * sizeof *a);
	memcpy(a, scratch, (size_t)n * sizeof *a);
}

static void blossom_augment_inside(struct blossom *m, int b, int v)
{
	int t = v;

	while (m->parent[t] != b)
		t = m->parent[t];
	if (t >= m->nvertex)
		blossom_augment_inside(m, t, v);
	int i = child_index(m, b, t), j = i, jstep, trick;
	if (i & 1) {
		j -= m->nchilds[b];
		jstep = 1;
		trick = 0;
	} else {
		jstep = -1;
		trick = 1;
	}
	while (j != 0) {
		j += jstep;
		t = m->childs[b][cyc(m, b, j)];
		int p = m->endps[b][cyc(m, b, j - trick)] ^ trick;
		if (t >= m->nvertex)
			blossom_augment_inside(m, t, m->edge_end[p]);
		j += jstep;
		t = m->childs[b][cyc(m, b, j)];
		if (t >= m->nvertex)
			blossom_augment_inside(m, t, m->edge_end[p ^ 1]);
		m->mate[m->edge_end[p]] = p ^ 1;
		m->mate[m->edge_end[p ^ 1]] = p;
	}
	int *scratch = malloc((size_t)m->nchilds[b] * sizeof(int));
	if (scratch) {
		rotate(m->childs[b], m->nchilds[b], i, scratch);
		rotate(m->endps[b], m->nchilds[b], i, scratch);
		free(scratch);
	}
	m->base[b] = m->base[m->childs[b][0]];
}

static void blossom_augment(struct blossom *m, int k)
{
	int ends[2][2] = { { m->edge_end[2 * k], 2 * k + 1 }, { m->edge_end[2 * k + 1], 2 * k } };

	for (int e = 0; e < 2; e++) {
		int s = ends[e][0], p = ends[e][1];
		for (;;) {
			int bs = m->in_blossom[s];
			if (bs >= m->nvertex)
				blossom_augment_inside(m, bs, s);
			m->mate[s] = p;
			if (m->label_end[bs] == -1)
				break;
			int t = m->edge_end[m->label_end[bs]];
			int bt = m->in_blossom[t];
			s = m->edge_end[m->label_end[bt]];
			int j = m->edge_end[m->label_end[bt] ^ 1];
			if (bt >= m->nvertex)
				blossom_augment_inside(m, bt, j);
			m->mate[j] = m->label_end[bt];
			p = m->label_end[bt] ^ 1;
		}
	}
}

static void blossom_free(struct blossom *m)
{
	if (m->best_list)
		for (int i = 0; i < 2 * m->nvertex; i++)
			free(m->best_list[i]);
	if (m->childs)
		free(m->childs[0]);
	if (m->endps)
		free(m->endps[0]);
	free(m->neigh_first);
	free(m->neigh);
	free(m->mate);
	free(m->label);
	free(m->label_end);
	free(m->in_blossom);
	free(m->parent);
	free(m->base);
	free(m->best_edge);
	free(m->childs);
	free(m->endps);
	free(m->nchilds);
	free(m->best_list);
	free(m->nbest_list);
	free(m->unused);
	free(m->dual);
	free(m->allow);
	free(m->queue);
	free(m->leaves);
	free(m->best_to);
}

/*
 * Computes a maximum-weight matching of nvertex vertices and nedge edges
 * (edge k joins edge_end[2k] and edge_end[2k + 1], weight edge_weight[k] >= 0)
 * and writes each vertex's partner, or -1, to partner.  Returns -1 when out
 * of memory.
 */
static int blossom_match(int nvertex, int nedge, const int *edge_end,
    const weight_t *edge_weight, int *partner)
{
	struct blossom m = { 0 };
	size_t n2 = 2 * (size_t)nvertex;
	int rc = -1;

	for (int v = 0; v < nvertex; v++)
		partner[v] = -1;
	if (nvertex == 0 || nedge == 0)
		return 0;
	m.nvertex = nvertex;
	m.nedge = nedge;
	m.edge_end = edge_end;
	m.edge_weight = edge_weight;
	m.neigh_first = calloc((size_t)nvertex + 1, sizeof(int));
	m.neigh = malloc(2 * (size_t)nedge * sizeof(int));
	m.mate = malloc((size_t)nvertex * sizeof(int));
	m.label = calloc(n2, sizeof(int));
	m.label_end = malloc(n2 * sizeof(int));
	m.in_blossom = malloc((size_t)nvertex * sizeof(int));
	m.parent = malloc(n2 * sizeof(int));
	m.base = malloc(n2 * sizeof(int));
	m.best_edge = malloc(n2 * sizeof(int));
	m.childs = calloc(n2, sizeof(int *));
	m.endps = calloc(n2, sizeof(int *));
	m.nchilds = calloc(n2, sizeof(int));
	m.best_list = calloc(n2, sizeof(int *));
	m.nbest_list = calloc(n2, sizeof(int));
	m.unused = malloc((size_t)nvertex * sizeof(int));
	m.dual = malloc(n2 * sizeof(weight_t));
	m.allow = malloc((size_t)nedge * sizeof(bool));
	m.queue = malloc(n2 * sizeof(int) * 2);
	m.leaves = malloc(n2 * sizeof(int));
	m.best_to = malloc(n2 * sizeof(int));
	if (!m.neigh_first || !m.neigh || !m.mate || !m.label || !m.label_end ||
	    !m.in_blossom || !m.parent || !m.base || !m.best_edge || !m.childs || !m.endps ||
	    !m.nchilds || !m.best_list || !m.nbest_list || !m.unused || !m.dual || !m.allow ||
	    !m.queue || !m.leaves || !m.best_to)
		goto out;
	/*
	 * One slab per list kind, shared by the nvertex non-trivial blossoms
	 * (numbered nvertex..2 nvertex - 1): none has more than nvertex children.
	 */
	m.childs[0] = malloc((size_t)nvertex * (size_t)nvertex * sizeof(int));
	m.endps[0] = malloc((size_t)nvertex * (size_t)nvertex * sizeof(int));
	if (!m.childs[0] || !m.endps[0])
		goto out;
	for (size_t b = 0; b < (size_t)nvertex; b++) {
		m.childs[nvertex + b] = m.childs[0] + b * (size_t)nvertex;
		m.endps[nvertex + b] = m.endps[0] + b * (size_t)nvertex;
	}

	for (int k = 0; k < nedge; k++) {
		m.neigh_first[edge_end[2 * k] + 1]++;
		m.neigh_first[edge_end[2 * k + 1] + 1]++;
	}
	for (int v = 0; v < nvertex; v++)
		m.neigh_first[v + 1] += m.neigh_first[v];
	{
		int *fill = malloc((size_t)nvertex * sizeof(int));
		if (!fill)
			goto out;
		memcpy(fill, m.neigh_first, (size_t)nvertex * sizeof(int));
		for (int k = 0; k < nedge; k++) {
			m.neigh[fill[edge_end[2 * k]]++] = 2 * k + 1;
			m.neigh[fill[edge_end[2 * k + 1]]++] = 2 * k;
		}
		free(fill);
	}
	weight_t maxw = 0;
	for (int k = 0; k < nedge; k++)
		if (edge_weight[k] > maxw)
			maxw = edge_weight[k];
	for (int v = 0; v < nvertex; v++) {
		m.mate[v] = -1;
		m.in_blossom[v] = v;
		m.unused[v] = nvertex + v;
		m.dual[v] = maxw;
		m.dual[nvertex + v] = 0;
	}
	m.nunused = nvertex;
	for (size_t b = 0; b < n2; b++) {
		m.label_end[b] = -1;
		m.parent[b] = -1;
		m.base[b] = b < (size_t)nvertex ? (int)b : -1;
	}

	for (int stage = 0; stage < nvertex; stage++) {
		bool augmented = false;

		for (size_t b = 0; b < n2; b++) {
			m.label[b] = 0;
			m.best_edge[b] = -1;
		}
		for (size_t b = (size_t)nvertex; b < n2; b++) {
			free(m.best_list[b]);
			m.best_list[b] = NULL;
			m.nbest_list[b] = 0;
		}
		memset(m.allow, 0, (size_t)nedge * sizeof(bool));
		m.nqueue = 0;
		for (int v = 0; v < nvertex; v++)
			if (m.mate[v] == -1 && m.label[m.in_blossom[v]] == 0)
				blossom_assign_label(&m, v, 1, -1);
		for (;;) {
			while (m.nqueue > 0 && !augmented) {
				int v = m.queue[--m.nqueue];
				for (int q = m.neigh_first[v]; q < m.neigh_first[v + 1]; q++) {
					int p = m.neigh[q], k = p / 2, w = edge_end[p];
					weight_t ks = 0;
					if (m.in_blossom[v] == m.in_blossom[w])
						continue;
					if (!m.allow[k]) {
						ks = blossom_slack(&m, k);
						if (ks <= 0)
							m.allow[k] = true;
					}
					if (m.allow[k]) {
						if (m.label[m.in_blossom[w]] == 0) {
							blossom_assign_label(&m, w, 2, p ^ 1);
						} else if (m.label[m.in_blossom[w]] == 1) {
							int base = blossom_scan(&m, v, w);
							if (base >= 0) {
								blossom_add(&m, base, k);
							} else {
								blossom_augment(&m, k);
								augmented = true;
								break;
							}
						} else if (m.label[w] == 0) {
							m.label[w] = 2;
							m.label_end[w] = p ^ 1;
						}
					} else if (m.label[m.in_blossom[w]] == 1) {
						int b = m.in_blossom[v];
						if (m.best_edge[b] == -1 || ks < blossom_slack(&m, m.best_edge[b]))
							m.best_edge[b] = k;
					} else if (m.label[w] == 0) {
						if (m.best_edge[w] == -1 || ks < blossom_slack(&m, m.best_edge[w]))
							m.best_edge[w] = k;
					}
				}
			}
			if (augmented)
				break;

			int dtype = 1, dedge = -1, dblossom = -1;
			weight_t delta = m.dual[0];
			for (int v = 1; v < nvertex; v++)
				if (m.dual[v] < delta)
					delta = m.dual[v];
			for (int v = 0; v < nvertex; v++) {
				if (m.label[m.in_blossom[v]] == 0 && m.best_edge[v] != -1) {
					weight_t d = blossom_slack(&m, m.best_edge[v]);
					if (d < delta) {
						delta = d;
						dtype = 2;
						dedge = m.best_edge[v];
					}
				}
			}
			for (size_t b = 0; b < n2; b++) {
				if (m.parent[b] == -1 && m.label[b] == 1 && m.best_edge[b] != -1) {
					weight_t d = blossom_slack(&m, m.best_edge[b]) / 2;
					if (d < delta) {
						delta = d;
						dtype = 3;
						dedge = m.best_edge[b];
					}
				}
			}
			for (size_t b = (size_t)nvertex; b < n2; b++) {
				if (m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 2 &&
				    m.dual[b] < delta) {
					delta = m.dual[b];
					dtype = 4;
					dblossom = (int)b;
				}
			}
			for (int v = 0; v < nvertex; v++) {
				int l = m.label[m.in_blossom[v]];
				if (l == 1)
					m.dual[v] -= delta;
				else if (l == 2)
					m.dual[v] += delta;
			}
			for (size_t b = (size_t)nvertex; b < n2; b++) {
				if (m.base[b] >= 0 && m.parent[b] == -1) {
					if (m.label[b] == 1)
						m.dual[b] += delta;
					else if (m.label[b] == 2)
						m.dual[b] -= delta;
				}
			}
			if (dtype == 1) {
				break;
			} else if (dtype == 2) {
				m.allow[dedge] = true;
				int i = edge_end[2 * dedge], j = edge_end[2 * dedge + 1];
				if (m.label[m.in_blossom[i]] == 0)
					i = j;
				m.queue[m.nqueue++] = i;
			} else if (dtype == 3) {
				m.allow[dedge] = true;
				m.queue[m.nqueue++] = edge_end[2 * dedge];
			} else {
				blossom_expand(&m, dblossom, false);
			}
		}
		if (!augmented)
			break;
		for (size_t b = (size_t)nvertex; b < n2; b++)
			if (m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.dual[b] == 0)
				blossom_expand(&m, (int)b, true);
	}
	for (int v = 0; v < nvertex; v++)
		partner[v] = m.mate[v] >= 0 ? edge_end[m.mate[v]] : -1;
	rc = 0;
out:
	blossom_free(&m);
	return rc;
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
	int score;			/* half points before this round */
	int colour_diff;		/* whites minus blacks, games played */
	int nplayed;
	enum tourney_colour *history;	/* colours of games played, oldest first */
	enum tourney_colour pref;
	enum pref_strength strength;
	enum tourney_float float1, float2;	/* one and two rounds back */
	bool bye_ok, topscorer;
};

struct dutch {
	const struct tourney *t;
	int round, n;
	struct dutch_player *pl;	/* available players, by score then start number */
	unsigned char *met;		/* met[i * n + j]: played over the board */
	enum tourney_colour *histories;
	int *partner;			/* final pairing, by sorted index; n = bye, -1 open */
	/* Per bracket. */
	int *role;			/* ROLE_* of each sorted player */
	int *bpos;			/* position in the bracket (MDPs first) */
	int *level;			/* C6 score level of a bracket player, 0 = residents */
	int nmdp, nres, bsize;
	weight_t *order_w;		/* see pair_order_cost() */
	weight_t order_max;
	int order_exact;
};

enum role {
	ROLE_DONE,	/* paired already */
	ROLE_BRACKET,
	ROLE_NEXT,	/* in the next score group */
	ROLE_LOWER,
};

static enum tourney_colour colour_other(enum tourney_colour c)
{
	return c == TOURNEY_WHITE ? TOURNEY_BLACK : c == TOURNEY_BLACK ? TOURNEY_WHITE :
	    TOURNEY_COLOUR_NONE;
}

/* A.6 colour preference from the colours of games played. */
static void player_preference(struct dutch_player *p)
{
	enum tourney_colour last, prev;

	p->pref = TOURNEY_COLOUR_NONE;
	p->strength = PREF_NONE;
	if (p->nplayed == 0)
		return;
	last = p->history[p->nplayed - 1];
	prev = p->nplayed >= 2 ? p->history[p->nplayed - 2] : TOURNEY_COLOUR_NONE;
	if (p->colour_diff > 1 || (last == TOURNEY_WHITE && prev == TOURNEY_WHITE)) {
		p->pref = TOURNEY_BLACK;
		p->strength = PREF_ABSOLUTE;
	} else if (p->colour_diff < -1 || (last == TOURNEY_BLACK && prev == TOURNEY_BLACK)) {
		p->pref = TOURNEY_WHITE;
		p->strength = PREF_ABSOLUTE;
	} else if (p->colour_diff != 0) {
		p->pref = p->colour_diff > 0 ? TOURNEY_BLACK : TOURNEY_WHITE;
		p->strength = PREF_STRONG;
	} else {
		p->pref = colour_other(last);
		p->strength = PREF_MILD;
	}
}

/* C1 and C3: whether the sorted players i and j may meet. */
static bool dutch_compatible(const struct dutch *d, int i, int j)
{
	const struct dutch_player *a = &d->pl[i], *b = &d->pl[j];

	if (d->met[(size_t)i * (size_t)d->n + (size_t)j])
		return false;
	if (a->strength == PREF_ABSOLUTE && b->strength == PREF_ABSOLUTE && a->pref == b->pref &&
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
	return a->id % 2 ? initial : colour_other(initial);	/* E.5 */
}

/* C8 and C9 faults of one player given colour c: colour difference beyond 2, three in a row. */
static void colour_faults(const struct dutch_player *p, enum tourney_colour c, int *wide, int *three)
{
	int diff = p->colour_diff + (c == TOURNEY_WHITE ? 1 : -1);

	if (diff > 2 || diff < -2)
		(*wide)++;
	if (p->nplayed >= 2 && p->history[p->nplayed - 1] == c && p->history[p->nplayed - 2] == c)
		(*three)++;
}

/* Weight fields, highest priority first. */
enum field {
	FIELD_EDGE,		/* C4: every pair counts */
	FIELD_PAIRS,		/* C5 */
	FIELD_LEVEL_FIRST,	/* C6: one field per MDP score level, highest first */
	FIELD_LEVEL_LAST = FIELD_LEVEL_FIRST + TOURNEY_ROUNDS_MAX * 2,
	FIELD_NEXT,		/* C7 */
	FIELD_TOP_WIDE,		/* C8 */
	FIELD_TOP_THREE,	/* C9 */
	FIELD_COLOUR,		/* C10 */
	FIELD_STRONG,		/* C11 */
	FIELD_DOWN1,		/* C12 */
	FIELD_UP1,		/* C13 */
	FIELD_DOWN2,		/* C14 */
	FIELD_UP2,		/* C15 */
	FIELD_MDP_ORDER,	/* order of the MDPs' pairing (S1 = MDPs) */
	FIELD_EXCHANGE,		/* then remainder transpositions before exchanges */
	FIELD_ORDER,		/* then the order of transpositions */
	FIELD_NB
};

/* Weights must leave the matching's dual arithmetic room below 2^127. */
#define WEIGHT_BITS_MAX	120

static int bits_for(weight_t bound)
{
	int bits = 0;

	while (bound > 0) {
		bits++;
		bound >>= 1;
	}
	return bits;
}

/*
 * Where bracket players u and v stand in the standard order.  *exchange is
 * set for pairs the order reaches only by exchanges (two MDPs, two players
 * of one half of the remainder).  Otherwise the cost is j x order_w[q]: the
 * S1 player's place q in the sequence (MDPs first, then the remainder's S1)
 * times the index j of its S2 partner, so that with order_w[] decreasing
 * geometrically the smallest total is the lexicographically first
 * transposition.  Past the places the weight's bits allow, the cost is the
 * distance from the S1[i]-S2[i] partner.  An S1 player floating out costs
 * the most.
 */
/* Sequence place q, S1 index i, S2 index j: exact places weigh j, the tail its distance. */
static weight_t order_term(const struct dutch *d, int q, int i, int j)
{
	if (q < d->order_exact)
		return (weight_t)j * d->order_w[q];
	return (weight_t)(j > i ? j - i : i - j);
}

static weight_t pair_order_cost(const struct dutch *d, int u, int v, bool *exchange)
{
	int pu = d->bpos[u], pv;
	int k0 = d->nmdp < d->nres ? d->nmdp : d->nres;
	int half = (d->nres - k0) / 2;

	*exchange = false;
	if (v < 0 || d->role[v] != ROLE_BRACKET) {
		int r = pu - d->nmdp - k0;
		return pu < d->nmdp || (r >= 0 && r < half) ? d->order_max : 0;
	}
	pv = d->bpos[v];
	if (pu > pv) {
		int tmp = pu;
		pu = pv;
		pv = tmp;
	}
	if (pv < d->nmdp) {
		*exchange = true;
		return 0;
	}
	if (pu < d->nmdp)				/* S1 = MDPs, S2 = residents */
		return order_term(d, pu, pu, pv - d->nmdp);
	int i = pu - d->nmdp - k0, j = pv - d->nmdp - k0 - half;
	if (i < 0)
		i = 0;
	if (i >= half || j < 0) {
		*exchange = true;
		return 0;
	}
	return order_term(d, d->nmdp + i, i, j);
}

/* Float penalties of bracket player u paired with v (-1 for the dummy). */
static void float_faults(const struct dutch *d, int u, int v, int fault[4])
{
	const struct dutch_player *p = &d->pl[u];
	bool down = v < 0 || d->role[v] != ROLE_BRACKET || d->pl[v].score < p->score;
	bool up = v >= 0 && d->role[v] == ROLE_BRACKET && d->pl[v].score > p->score;

	fault[0] = down && p->float1 == TOURNEY_FLOAT_DOWN;
	fault[1] = up && p->float1 == TOURNEY_FLOAT_UP;
	fault[2] = down && p->float2 == TOURNEY_FLOAT_DOWN;
	fault[3] = up && p->float2 == TOURNEY_FLOAT_UP;
}

/*
 * Field values of the edge u-v (v = -1 for the dummy); u, v are sorted
 * indices.  Values are "goodness", never negative.
 */
static void edge_fields(const struct dutch *d, int u, int v, weight_t maxcost, weight_t *f)
{
	bool ub = d->role[u] == ROLE_BRACKET, vb = v >= 0 && d->role[v] == ROLE_BRACKET;

	memset(f, 0, FIELD_NB * sizeof *f);
	f[FIELD_EDGE] = 1;
	if (!ub && vb) {
		int tmp = u;
		u = v;
		v = tmp;
		ub = true;
		vb = false;
	}
	if (!ub) {
		bool un = d->role[u] == ROLE_NEXT, vn = v >= 0 && d->role[v] == ROLE_NEXT;
		f[FIELD_NEXT] = un && vn;
		return;
	}
	f[FIELD_NEXT] = !vb && v >= 0 && d->role[v] == ROLE_NEXT;
	int fu[4], fv[4] = { 0, 0, 0, 0 };
	float_faults(d, u, v, fu);
	if (vb)
		float_faults(d, v, u, fv);
	int ends = vb ? 2 : 1;
	f[FIELD_DOWN1] = ends - fu[0] - fv[0];
	f[FIELD_UP1] = ends - fu[1] - fv[1];
	f[FIELD_DOWN2] = ends - fu[2] - fv[2];
	f[FIELD_UP2] = ends - fu[3] - fv[3];
	bool exchange;
	weight_t cost = pair_order_cost(d, u, v, &exchange);
	if (vb && (d->bpos[u] < d->nmdp) != (d->bpos[v] < d->nmdp)) {
		/* The MDPs' pairing is settled before the remainder is looked at. */
		f[FIELD_MDP_ORDER] = maxcost - cost;
		cost = 0;
	}
	f[FIELD_ORDER] = maxcost * ends - cost;
	f[FIELD_EXCHANGE] = ends - exchange;
	f[FIELD_TOP_WIDE] = 2 * ends;
	f[FIELD_TOP_THREE] = 2 * ends;
	f[FIELD_COLOUR] = ends;
	f[FIELD_STRONG] = ends;
	if (!vb)
		return;
	f[FIELD_PAIRS] = 1;
	if (d->level[u] > 0)
		f[FIELD_LEVEL_FIRST + d->level[u] - 1]++;
	if (d->level[v] > 0)
		f[FIELD_LEVEL_FIRST + d->level[v] - 1]++;

	const struct dutch_player *a = &d->pl[u], *b = &d->pl[v];
	int hi = u < v ? u : v, lo = u < v ? v : u;
	enum tourney_colour chi = dutch_colour(d, hi, lo);
	if (d->pl[hi].topscorer || d->pl[lo].topscorer) {
		int wide = 0, three = 0;
		colour_faults(&d->pl[hi], chi, &wide, &three);
		colour_faults(&d->pl[lo], colour_other(chi), &wide, &three);
		f[FIELD_TOP_WIDE] -= wide;
		f[FIELD_TOP_THREE] -= three;
	}
	if (a->pref != TOURNEY_COLOUR_NONE && a->pref == b->pref) {
		f[FIELD_COLOUR]--;
		if (a->strength >= PREF_STRONG && b->strength >= PREF_STRONG)
			f[FIELD_STRONG]--;
	}
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

	d->t = t;
	d->round = round;
	d->pl = calloc((size_t)t->nplayers + 1, sizeof *d->pl);
	d->histories = calloc(((size_t)t->nplayers + 1) * ((size_t)prior + 1), sizeof *d->histories);
	slots = calloc((size_t)t->nplayers + 1, sizeof *slots);
	index = malloc(((size_t)t->nplayers + 1) * sizeof *index);
	if (!d->pl || !d->histories || !slots || !index)
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
	}
	qsort(d->pl, (size_t)d->n, sizeof *d->pl, sort_players);
	for (int p = 0; p <= t->nplayers; p++)
		index[p] = -1;
	for (int i = 0; i < d->n; i++)
		index[d->pl[i].id] = i;
	d->met = calloc((size_t)d->n * (size_t)d->n + 1, 1);
	d->partner = malloc(((size_t)d->n + 1) * sizeof *d->partner);
	d->role = malloc(((size_t)d->n + 1) * sizeof *d->role);
	d->bpos = malloc(((size_t)d->n + 1) * sizeof *d->bpos);
	d->level = malloc(((size_t)d->n + 1) * sizeof *d->level);
	d->order_w = malloc(((size_t)d->n + 1) * sizeof *d->order_w);
	if (!d->met || !d->partner || !d->role || !d->bpos || !d->level || !d->order_w)
		goto out;
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
	return rc;
}

static void dutch_free(struct dutch *d)
{
	free(d->pl);
	free(d->histories);
	free(d->met);
	free(d->partner);
	free(d->role);
	free(d->bpos);
	free(d->level);
	free(d->order_w);
}

/*
 * Pairs one bracket: the open players with role BRACKET (positions and
 * levels set).  Keeps the pairs inside the bracket, or all pairs when last.
 * Returns 0, or -1 with err set.
 */
static int dutch_bracket(struct dutch *d, bool last, char *err, size_t errlen)
{
	int *vertex = NULL, *sorted_of = NULL, *edge_end = NULL, *partner = NULL;
	weight_t *weight = NULL;
	int nv = 0, ne = 0, dummy = -1, rc = -1;
	weight_t bound[FIELD_NB], f[FIELD_NB];
	int shift[FIELD_NB];
	size_t cap;

	vertex = malloc(((size_t)d->n + 1) * sizeof *vertex);
	sorted_of = malloc(((size_t)d->n + 1) * sizeof *sorted_of);
	if (!vertex || !sorted_of)
		goto oom;
	for (int i = 0; i < d->n; i++) {
		vertex[i] = -1;
		if (d->role[i] != ROLE_DONE) {
			vertex[i] = nv;
			sorted_of[nv++] = i;
		}
	}
	if (nv % 2)
		dummy = nv++;
	cap = (size_t)nv * (size_t)(nv - 1) / 2 + 1;
	edge_end = malloc(2 * cap * sizeof *edge_end);
	weight = malloc(cap * sizeof *weight);
	partner = malloc((size_t)nv * sizeof *partner);
	if (!edge_end || !weight || !partner)
		goto oom;

	/* Field widths from bounds on each field's sum over any matching. */
	int nnext = 0;
	for (int i = 0; i < d->n; i++)
		nnext += d->role[i] == ROLE_NEXT;
	memset(bound, 0, sizeof bound);
	bound[FIELD_EDGE] = nv / 2;
	bound[FIELD_PAIRS] = d->bsize / 2;
	for (int i = 0; i < d->n; i++)
		if (d->role[i] == ROLE_BRACKET && d->level[i] > 0)
			bound[FIELD_LEVEL_FIRST + d->level[i] - 1]++;
	bound[FIELD_NEXT] = (d->bsize + nnext) / 2;
	/* Fields nobody in the bracket can score differently on take no bits. */
	bool any_top = false, any_pref = false, any_float[4] = { false, false, false, false };
	for (int i = 0; i < d->n; i++) {
		const struct dutch_player *p = &d->pl[i];
		if (d->role[i] != ROLE_BRACKET)
			continue;
		any_top |= p->topscorer;
		any_pref |= p->pref != TOURNEY_COLOUR_NONE;
		any_float[0] |= p->float1 == TOURNEY_FLOAT_DOWN;
		any_float[1] |= p->float1 == TOURNEY_FLOAT_UP;
		any_float[2] |= p->float2 == TOURNEY_FLOAT_DOWN;
		any_float[3] |= p->float2 == TOURNEY_FLOAT_UP;
	}
	if (any_top)
		bound[FIELD_TOP_WIDE] = bound[FIELD_TOP_THREE] = 2 * (weight_t)d->bsize;
	if (any_pref)
		bound[FIELD_COLOUR] = bound[FIELD_STRONG] = d->bsize;
	bound[FIELD_DOWN1] = any_float[0] ? d->bsize : 0;
	bound[FIELD_UP1] = any_float[1] ? d->bsize : 0;
	bound[FIELD_DOWN2] = any_float[2] ? d->bsize : 0;
	bound[FIELD_UP2] = any_float[3] ? d->bsize : 0;
	bound[FIELD_EXCHANGE] = d->bsize;
	int used = 0;
	for (int k = 0; k < FIELD_NB; k++)
		if (k != FIELD_ORDER && k != FIELD_MDP_ORDER)
			used += bits_for(bound[k]);
	/*
	 * Order weights: exact (base > any index) for the first `exact` places of
	 * the sequence, as the bits allow, then flat for the tail, scaled so the
	 * tail never outweighs one step of the last exact place.
	 */
	{
		int k0 = d->nmdp < d->nres ? d->nmdp : d->nres;
		int seq = d->nmdp + (d->nres - k0) / 2, exact = seq;
		int room = (WEIGHT_BITS_MAX - used - 2 * bits_for(d->bsize) - 2) / 2;
		weight_t base = d->bsize + 1, tail, top;
		for (;; exact--) {
			tail = (weight_t)(seq - exact) * base + 1;
			top = tail;
			for (int i = 0; i < exact && bits_for(top) <= room; i++)
				top *= base;
			if (bits_for(top) <= room || exact == 0)
				break;
		}
		if (bits_for(top) > room) {
			fail(err, errlen, "bracket of %d players too large to weigh", d->bsize);
			goto out;
		}
		for (int q = 0; q < seq; q++) {
			weight_t w = 1;
			if (q < exact) {
				w = tail;
				for (int i = q + 1; i < exact; i++)
					w *= base;
			}
			d->order_w[q] = w;
		}
		d->order_max = top;
		d->order_exact = exact;
	}
	weight_t maxcost = d->order_max;
	bound[FIELD_ORDER] = maxcost * d->bsize;
	bound[FIELD_MDP_ORDER] = maxcost * d->nmdp;
	{
		int total = 0;
		for (int k = FIELD_NB - 1; k >= 0; k--) {
			shift[k] = total;
			total += bits_for(bound[k]);
		}
	}

	for (int a = 0; a < nv; a++) {
		for (int b = a + 1; b < nv; b++) {
			int u = sorted_of[a], v = b == dummy ? -1 : sorted_of[b];
			if (v < 0 ? !d->pl[u].bye_ok : !dutch_compatible(d, u, v))
				continue;
			edge_fields(d, u, v, maxcost, f);
			weight_t w = 0;
			for (int k = 0; k < FIELD_NB; k++)
				if (bound[k] > 0)
					w += f[k] << shift[k];
			edge_end[2 * ne] = a;
			edge_end[2 * ne + 1] = b;
			weight[ne++] = w;
		}
	}
	if (blossom_match(nv, ne, edge_end, weight, partner) < 0)
		goto oom;
	for (int a = 0; a < nv; a++) {
		if (partner[a] < 0) {
			fail(err, errlen, "no pairing satisfies the absolute criteria (C1-C3)");
			goto out;
		}
	}
	for (int a = 0; a < nv; a++) {
		if (a == dummy)
			continue;
		int u = sorted_of[a], b = partner[a];
		if (b == dummy) {
			if (last)
				d->partner[u] = d->n;
			continue;
		}
		int v = sorted_of[b];
		if (last || (d->role[u] == ROLE_BRACKET && d->role[v] == ROLE_BRACKET))
			d->partner[u] = v;
	}
	rc = 0;
	goto out;
oom:
	fail(err, errlen, "out of memory");
out:
	free(vertex);
	free(sorted_of);
	free(edge_end);
	free(weight);
	free(partner);
	return rc;
}

struct board {
	int hi, lo;	/* sorted indices, hi ranked higher */
};

int pairing_dutch(const struct tourney *t, int round, struct tourney_round *out,
    char *err, size_t errlen)
{
	struct dutch d = { 0 };
	int rc = -1, next = 0;

	memset(out, 0, sizeof *out);
	if (tourney_validate(t, err, errlen) < 0)
		return -1;
	if (round < 1 || round > TOURNEY_ROUNDS_MAX)
		return fail(err, errlen, "no round %d", round);
	if (round != t->rounds_paired + 1)
		return fail(err, errlen, "round %d cannot be paired after %d rounds", round,
		    t->rounds_paired);
	if (dutch_load(&d, t, round) < 0) {
		fail(err, errlen, "out of memory");
		goto out;
	}
	if (d.n == 1 && !d.pl[0].bye_ok) {
		fail(err, errlen, "the only player cannot have the bye");
		goto out;
	}

	/* Brackets from the top: the MDPs left open plus the next score group. */
	for (;;) {
		int open = 0, bsize = 0, nmdp = 0, levels = 0, prev_score = -1;
		int group_score = -1;
		for (int i = 0; i < d.n; i++)
			open += d.partner[i] < 0;
		if (open == 0)
			break;
		if (next < d.n)
			group_score = d.pl[next].score;
		for (int i = 0; i < d.n; i++) {
			d.role[i] = ROLE_DONE;
			d.level[i] = 0;
			if (d.partner[i] >= 0)
				continue;
			if (i < next) {
				d.role[i] = ROLE_BRACKET;
				d.bpos[i] = bsize++;
				nmdp++;
			} else if (d.pl[i].score == group_score) {
				d.role[i] = ROLE_BRACKET;
				d.bpos[i] = bsize++;
			} else {
				d.role[i] = ROLE_LOWER;
			}
		}
		/* C6 levels: distinct MDP scores, the highest getting the first field. */
		for (int i = 0; i < next; i++) {
			if (d.role[i] != ROLE_BRACKET)
				continue;
			if (d.pl[i].score != prev_score) {
				levels++;
				prev_score = d.pl[i].score;
			}
			d.level[i] = levels;
		}
		while (next < d.n && d.pl[next].score == group_score)
			next++;
		if (next < d.n) {
			int ns = d.pl[next].score;
			for (int i = next; i < d.n && d.pl[i].score == ns; i++)
				d.role[i] = ROLE_NEXT;
		}
		d.nmdp = nmdp;
		d.nres = bsize - nmdp;
		d.bsize = bsize;
		bool last = true;
		for (int i = 0; i < d.n; i++)
			if (d.role[i] == ROLE_NEXT || d.role[i] == ROLE_LOWER)
				last = false;
		if (dutch_bracket(&d, last, err, errlen) < 0)
			goto out;
	}

	/*
	 * Boards: by the higher score in the pair, then the sum, then the
	 * higher player's rank (insertion sort: qsort would need the scores
	 * through a global).
	 */
	struct board *boards = malloc(((size_t)d.n / 2 + 1) * sizeof *boards);
	int nboards = 0, bye = -1;
	if (!boards) {
		fail(err, errlen, "out of memory");
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
