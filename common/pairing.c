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
#include "pairing.h"

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

/*
 * Maximum-weight matching on a general graph: Edmonds' blossom algorithm
 * with dual variables, O(n^3), after Joris van Rantwijk's mwmatching.py
 * (public domain), here with 256-bit integer weights.  Dual variables hold
 * twice their value so that all arithmetic stays integral.
 *
 * The matcher is kept between solves over a fixed complete graph whose
 * edges are switched off with weight zero, and looks for a perfect
 * matching of maximum weight.  A solve starts from the previous matching
 * and duals: a changed edge that would break dual feasibility raises one
 * endpoint's dual and frees it, so only the freed vertices are augmented
 * again.  Blossoms are dissolved at the end of every solve (their duals
 * folded into their vertices), so each solve starts without any.
 */
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* A 256-bit two's complement integer: room for every criterion of a bracket. */
struct wide {
	u128 lo;
	i128 hi;
};

static const struct wide wide_zero;

static struct wide wide_add(struct wide a, struct wide b)
{
	struct wide r;

	r.lo = a.lo + b.lo;
	r.hi = a.hi + b.hi + (r.lo < a.lo);
	return r;
}

static struct wide wide_sub(struct wide a, struct wide b)
{
	struct wide r;

	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (a.lo < b.lo);
	return r;
}

static int wide_cmp(struct wide a, struct wide b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

static bool wide_is_zero(struct wide a)
{
	return a.lo == 0 && a.hi == 0;
}

/* a / 2 rounded down (a is even wherever it is used). */
static struct wide wide_half(struct wide a)
{
	struct wide r;

	r.lo = (a.lo >> 1) | ((u128)a.hi << 127);
	r.hi = a.hi >> 1;
	return r;
}

/* 2^k for 0 <= k < 254. */
static struct wide wide_bit(int k)
{
	struct wide r = { 0, 0 };

	if (k < 128)
		r.lo = (u128)1 << k;
	else
		r.hi = (i128)((u128)1 << (k - 128));
	return r;
}

/* v * 2^k for 0 <= v < 2^32 and v * 2^k < 2^255. */
static struct wide wide_shifted(uint64_t v, int k)
{
	struct wide r = { 0, 0 };

	if (k == 0)
		r.lo = v;
	else if (k < 128) {
		r.lo = (u128)v << k;
		r.hi = (i128)((u128)v >> (128 - k));
	} else {
		r.hi = (i128)((u128)v << (k - 128));
	}
	return r;
}

static struct wide wide_small(int64_t v)
{
	struct wide r;

	r.lo = (u128)(i128)v;
	r.hi = v < 0 ? -1 : 0;
	return r;
}

typedef struct wide weight_t;

struct blossom {
	int nvertex, nedge;
	int *edge_end;			/* edge k joins edge_end[2k] and edge_end[2k + 1] */
	/*
	 * Edge weights as a symmetric nvertex x nvertex matrix (zero: no
	 * edge), so that a vertex's edges lie in one row: the scan of a
	 * vertex's neighbours reads memory in order.
	 */
	weight_t *weight;
	int *neigh_first, *neigh;	/* CSR lists of remote endpoints per vertex */
	int *mate;			/* remote endpoint of the matched edge, or -1 */
	int *label, *label_end, *in_blossom, *parent, *base, *best_edge;
	int **childs, **endps, *nchilds;
	int **best_list, *nbest_list;
	int *unused, nunused;
	/*
	 * The vertices with an edge to anyone but their retired mate: only
	 * these are scanned.  active_at[v] is v's place in active, -1 if none.
	 */
	int *active, *active_at, nactive;
	weight_t *dual;
	/* Edge v-x is tight and usable in this stage when allow[v * nvertex + x] == stage. */
	unsigned *allow, stage;
	int *queue, nqueue;
	int *leaves;			/* scratch for blossom_leaves() */
	int *best_to;			/* scratch for blossom_add() */
	int *result;			/* partner of each vertex after the last solve */
	bool *raise;			/* dual to raise before the next solve */
	bool started;
};

static inline size_t cell(const struct blossom *m, int v, int x)
{
	return (size_t)v * (size_t)m->nvertex + (size_t)x;
}

static inline weight_t edge_weight(const struct blossom *m, int k)
{
	return m->weight[cell(m, m->edge_end[2 * k], m->edge_end[2 * k + 1])];
}

static inline void allow_edge(struct blossom *m, int k)
{
	int i = m->edge_end[2 * k], j = m->edge_end[2 * k + 1];

	m->allow[cell(m, i, j)] = m->allow[cell(m, j, i)] = m->stage;
}

static inline weight_t blossom_slack(const struct blossom *m, int k)
{
	weight_t w = edge_weight(m, k);

	return wide_sub(wide_add(m->dual[m->edge_end[2 * k]], m->dual[m->edge_end[2 * k + 1]]),
	    wide_add(w, w));
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
	m->dual[b] = wide_zero;
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
					if (wide_is_zero(m->weight[cell(m, x, j)]))
						continue;
					int bj = m->in_blossom[j];
					if (bj != b && m->label[bj] == 1 && (m->best_to[bj] == -1 ||
					    wide_cmp(blossom_slack(m, kk), blossom_slack(m, m->best_to[bj])) < 0))
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
				    wide_cmp(blossom_slack(m, kk), blossom_slack(m, m->best_to[bj])) < 0))
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
		if (m->best_edge[b] == -1 || wide_cmp(blossom_slack(m, kk), blossom_slack(m, m->best_edge[b])) < 0)
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

/*
 * Where a walk from child j of blossom b to its base starts, and which way
 * it goes: round the side with an even number of edges.
 */
static int walk_start(const struct blossom *m, int b, int j, int *step, int *trick)
{
	if (j & 1) {
		*step = 1;
		*trick = 0;
		return j - m->nchilds[b];
	}
	*step = -1;
	*trick = 1;
	return j;
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
		} else if (endstage && wide_is_zero(m->dual[s])) {
			blossom_expand(m, s, endstage);
		} else {
			int nl = blossom_leaves(m, s, m->leaves, 0);
			for (int li = 0; li < nl; li++)
				m->in_blossom[m->leaves[li]] = s;
		}
	}
	if (!endstage && m->label[b] == 2) {
		int entry = m->in_blossom[m->edge_end[m->label_end[b] ^ 1]];
		int jstep, trick, j = walk_start(m, b, child_index(m, b, entry), &jstep, &trick);
		int p = m->label_end[b];
		while (j != 0) {
			m->label[m->edge_end[p ^ 1]] = 0;
			m->label[m->edge_end[m->endps[b][cyc(m, b, j - trick)] ^ trick ^ 1]] = 0;
			blossom_assign_label(m, m->edge_end[p ^ 1], 2, p);
			allow_edge(m, m->endps[b][cyc(m, b, j - trick)] / 2);
			j += jstep;
			p = m->endps[b][cyc(m, b, j - trick)] ^ trick;
			allow_edge(m, p / 2);
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
	int i = child_index(m, b, t), jstep, trick, j = walk_start(m, b, i, &jstep, &trick);
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

static void matcher_free(struct blossom *m)
{
	if (m->best_list)
		for (int i = 0; i < 2 * m->nvertex; i++)
			free(m->best_list[i]);
	if (m->childs)
		free(m->childs[0]);
	if (m->endps)
		free(m->endps[0]);
	free(m->edge_end);
	free(m->weight);
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
	free(m->active);
	free(m->active_at);
	free(m->dual);
	free(m->allow);
	free(m->queue);
	free(m->leaves);
	free(m->best_to);
	free(m->result);
	free(m->raise);
	memset(m, 0, sizeof *m);
}

/* Edge number of the vertices i != j of the complete graph. */
static int matcher_edge(const struct blossom *m, int i, int j)
{
	if (i > j) {
		int tmp = i;
		i = j;
		j = tmp;
	}
	return (int)((long)i * (2L * m->nvertex - i - 1) / 2) + (j - i - 1);
}

/* Sets up a matcher on the complete graph of nvertex vertices, all edges off; -1 when out of memory. */
static int matcher_init(struct blossom *m, int nvertex)
{
	size_t n2 = 2 * (size_t)nvertex, nv = (size_t)nvertex;
	size_t nedge = nv * (nv > 0 ? nv - 1 : 0) / 2;

	memset(m, 0, sizeof *m);
	m->nvertex = nvertex;
	m->nedge = (int)nedge;
	m->edge_end = malloc((2 * nedge + 1) * sizeof(int));
	m->weight = calloc(nv * nv + 1, sizeof(weight_t));
	m->neigh_first = calloc(nv + 1, sizeof(int));
	m->neigh = malloc((2 * nedge + 1) * sizeof(int));
	m->mate = malloc((nv + 1) * sizeof(int));
	m->label = calloc(n2 + 1, sizeof(int));
	m->label_end = malloc((n2 + 1) * sizeof(int));
	m->in_blossom = malloc((nv + 1) * sizeof(int));
	m->parent = malloc((n2 + 1) * sizeof(int));
	m->base = malloc((n2 + 1) * sizeof(int));
	m->best_edge = malloc((n2 + 1) * sizeof(int));
	m->childs = calloc(n2 + 1, sizeof(int *));
	m->endps = calloc(n2 + 1, sizeof(int *));
	m->nchilds = calloc(n2 + 1, sizeof(int));
	m->best_list = calloc(n2 + 1, sizeof(int *));
	m->nbest_list = calloc(n2 + 1, sizeof(int));
	m->unused = malloc((nv + 1) * sizeof(int));
	m->active = malloc((nv + 1) * sizeof(int));
	m->active_at = malloc((nv + 1) * sizeof(int));
	m->dual = calloc(n2 + 1, sizeof(weight_t));
	m->allow = calloc(nv * nv + 1, sizeof(unsigned));
	m->queue = malloc((n2 * 2 + 1) * sizeof(int));
	m->leaves = malloc((n2 + 1) * sizeof(int));
	m->best_to = malloc((n2 + 1) * sizeof(int));
	m->result = malloc((nv + 1) * sizeof(int));
	m->raise = calloc(nv + 1, sizeof(bool));
	if (!m->edge_end || !m->weight || !m->neigh_first || !m->neigh || !m->mate ||
	    !m->label || !m->label_end || !m->in_blossom || !m->parent || !m->base ||
	    !m->best_edge || !m->childs || !m->endps || !m->nchilds || !m->best_list ||
	    !m->nbest_list || !m->unused || !m->active || !m->active_at || !m->dual ||
	    !m->allow || !m->queue || !m->leaves || !m->best_to || !m->result || !m->raise)
		return -1;
	/* One slab per list kind, shared by the nvertex non-trivial blossoms. */
	m->childs[0] = malloc((nv * nv + 1) * sizeof(int));
	m->endps[0] = malloc((nv * nv + 1) * sizeof(int));
	if (!m->childs[0] || !m->endps[0])
		return -1;
	for (size_t b = 0; b < nv; b++) {
		m->childs[nv + b] = m->childs[0] + b * nv;
		m->endps[nv + b] = m->endps[0] + b * nv;
	}
	for (int i = 0, k = 0; i < nvertex; i++) {
		for (int j = i + 1; j < nvertex; j++, k++) {
			m->edge_end[2 * k] = i;
			m->edge_end[2 * k + 1] = j;
		}
	}
	for (int v = 0; v < nvertex; v++)
		m->neigh_first[v + 1] = m->neigh_first[v] + nvertex - 1;
	for (int v = 0; v < nvertex; v++) {
		int q = m->neigh_first[v];
		for (int x = 0; x < nvertex; x++) {
			if (x == v)
				continue;
			int k = matcher_edge(m, v, x);
			m->neigh[q++] = m->edge_end[2 * k] == v ? 2 * k + 1 : 2 * k;
		}
	}
	for (int v = 0; v < nvertex; v++) {
		m->mate[v] = -1;
		m->result[v] = -1;
		m->active[v] = v;
		m->active_at[v] = v;
	}
	m->nactive = nvertex;
	return 0;
}

static void matcher_activate(struct blossom *m, int v)
{
	if (m->active_at[v] < 0) {
		m->active_at[v] = m->nactive;
		m->active[m->nactive++] = v;
	}
}

static void matcher_deactivate(struct blossom *m, int v)
{
	int at = m->active_at[v];

	if (at >= 0) {
		int last = m->active[--m->nactive];
		m->active[at] = last;
		m->active_at[last] = at;
		m->active_at[v] = -1;
	}
}

/* Endpoint index p of edge v-w with edge_end[p] == w. */
static int matcher_endpoint(const struct blossom *m, int v, int w)
{
	return m->neigh[m->neigh_first[v] + w - (w > v)];
}

static void matcher_unmatch(struct blossom *m, int v)
{
	if (m->mate[v] >= 0) {
		int w = m->edge_end[m->mate[v]];
		m->mate[w] = -1;
		m->mate[v] = -1;
	}
}

/*
 * Sets the weight of edge owner-other (zero: no edge).  When the change
 * breaks dual feasibility, owner's dual is raised before the next solve.
 */
static void matcher_set(struct blossom *m, int owner, int other, weight_t w)
{
	int k = matcher_edge(m, owner, other);

	if (wide_cmp(m->weight[cell(m, owner, other)], w) == 0)
		return;
	m->weight[cell(m, owner, other)] = m->weight[cell(m, other, owner)] = w;
	if (!wide_is_zero(w)) {
		matcher_activate(m, owner);
		matcher_activate(m, other);
	}
	if (!m->started)
		return;
	if (m->mate[owner] >= 0 && m->mate[owner] / 2 == k) {
		m->raise[owner] = m->raise[other] = true;
	} else if (!wide_is_zero(w) && wide_cmp(blossom_slack(m, k), wide_zero) < 0) {
		m->raise[owner] = true;
	}
}

/*
 * Switches off every edge of the pair a-b except theirs and matches them
 * on it, tight: they stay matched, and the solver no longer scans them.
 */
static void matcher_retire(struct blossom *m, int a, int b)
{
	for (int x = 0; x < m->nvertex; x++) {
		if (x != a && x != b) {
			m->weight[cell(m, a, x)] = m->weight[cell(m, x, a)] = wide_zero;
			m->weight[cell(m, b, x)] = m->weight[cell(m, x, b)] = wide_zero;
		}
	}
	if (m->mate[a] >= 0)
		matcher_unmatch(m, a);
	if (m->mate[b] >= 0)
		matcher_unmatch(m, b);
	m->mate[a] = matcher_endpoint(m, a, b);
	m->mate[b] = m->mate[a] ^ 1;
	m->dual[a] = m->dual[b] = m->weight[cell(m, a, b)];
	m->raise[a] = m->raise[b] = false;
	matcher_deactivate(m, a);
	matcher_deactivate(m, b);
}

/* Restores dual feasibility around the vertices marked for raising. */
static void matcher_prepare(struct blossom *m)
{
	int n = m->nvertex;

	if (!m->started) {
		/* Each vertex's heaviest edge bounds its dual: feasible, and often tight. */
		for (int v = 0; v < n; v++) {
			m->mate[v] = -1;
			m->dual[v] = wide_zero;
			m->raise[v] = false;
			for (int q = m->neigh_first[v]; q < m->neigh_first[v + 1]; q++)
				if (wide_cmp(m->weight[cell(m, v, m->edge_end[m->neigh[q]])], m->dual[v]) > 0)
					m->dual[v] = m->weight[cell(m, v, m->edge_end[m->neigh[q]])];
		}
		m->started = true;
	} else {
		for (int v = 0; v < n; v++)
			if (m->raise[v])
				matcher_unmatch(m, v);
	}
	for (int v = 0; v < n; v++) {
		if (!m->raise[v])
			continue;
		m->raise[v] = false;
		for (int q = m->neigh_first[v]; q < m->neigh_first[v + 1]; q++) {
			int x = m->edge_end[m->neigh[q]];
			weight_t w = m->weight[cell(m, v, x)];
			if (wide_is_zero(w))
				continue;
			weight_t need = wide_sub(wide_add(w, w), m->dual[x]);
			if (wide_cmp(need, m->dual[v]) > 0)
				m->dual[v] = need;
		}
	}
	/* Match free vertices joined by a tight edge straight away. */
	for (int v = 0; v < n; v++) {
		for (int q = m->neigh_first[v]; q < m->neigh_first[v + 1] && m->mate[v] < 0; q++) {
			int p = m->neigh[q], k = p / 2, x = m->edge_end[p];
			if (m->mate[x] >= 0 || wide_is_zero(m->weight[cell(m, v, x)]) ||
			    !wide_is_zero(blossom_slack(m, k)))
				continue;
			m->mate[v] = p;
			m->mate[x] = p ^ 1;
		}
	}
}

/*
 * Completes the matching to a perfect matching of maximum weight and
 * writes it to m->result.  Returns -1 when there is no perfect matching.
 */
static int matcher_solve(struct blossom *m)
{
	int nvertex = m->nvertex;
	size_t n2 = 2 * (size_t)nvertex;
	int rc = 0;

	matcher_prepare(m);
	for (int v = 0; v < nvertex; v++) {
		m->in_blossom[v] = v;
		m->unused[v] = nvertex + v;
		m->dual[nvertex + v] = wide_zero;
	}
	m->nunused = nvertex;
	for (size_t b = 0; b < n2; b++) {
		m->label_end[b] = -1;
		m->parent[b] = -1;
		m->base[b] = b < (size_t)nvertex ? (int)b : -1;
		m->nchilds[b] = 0;
	}

	for (;;) {
		bool augmented = false, exposed = false;

		for (int v = 0; v < nvertex; v++)
			exposed |= m->mate[v] == -1;
		if (!exposed)
			break;
		for (size_t b = 0; b < n2; b++) {
			m->label[b] = 0;
			m->best_edge[b] = -1;
		}
		for (size_t b = (size_t)nvertex; b < n2; b++) {
			free(m->best_list[b]);
			m->best_list[b] = NULL;
			m->nbest_list[b] = 0;
		}
		if (++m->stage == 0) {
			memset(m->allow, 0, (size_t)nvertex * (size_t)nvertex * sizeof *m->allow);
			m->stage = 1;
		}
		m->nqueue = 0;
		for (int v = 0; v < nvertex; v++)
			if (m->mate[v] == -1 && m->label[m->in_blossom[v]] == 0)
				blossom_assign_label(m, v, 1, -1);
		for (;;) {
			while (m->nqueue > 0 && !augmented) {
				int v = m->queue[--m->nqueue];
				const int *row = m->neigh + m->neigh_first[v];
				for (int i = 0; i < m->nactive; i++) {
					int w = m->active[i];
					if (w == v)
						continue;
					int p = row[w - (w > v)], k = p / 2;
					weight_t ks = wide_zero, wt = m->weight[cell(m, v, w)];
					int bw = m->in_blossom[w];
					if (m->in_blossom[v] == bw || wide_is_zero(wt))
						continue;
					/* An edge into a labelled T vertex changes nothing. */
					if (m->label[bw] == 2 && m->label[w] != 0)
						continue;
					bool allowed = m->allow[cell(m, v, w)] == m->stage;
					if (!allowed) {
						ks = wide_sub(wide_add(m->dual[v], m->dual[w]), wide_add(wt, wt));
						if (wide_cmp(ks, wide_zero) <= 0) {
							allow_edge(m, k);
							allowed = true;
						}
					}
					if (allowed) {
						if (m->label[m->in_blossom[w]] == 0) {
							blossom_assign_label(m, w, 2, p ^ 1);
						} else if (m->label[m->in_blossom[w]] == 1) {
							int base = blossom_scan(m, v, w);
							if (base >= 0) {
								blossom_add(m, base, k);
							} else {
								blossom_augment(m, k);
								augmented = true;
								break;
							}
						} else if (m->label[w] == 0) {
							m->label[w] = 2;
							m->label_end[w] = p ^ 1;
						}
					} else if (m->label[m->in_blossom[w]] == 1) {
						int b = m->in_blossom[v];
						if (m->best_edge[b] == -1 ||
						    wide_cmp(ks, blossom_slack(m, m->best_edge[b])) < 0)
							m->best_edge[b] = k;
					} else if (m->label[w] == 0) {
						if (m->best_edge[w] == -1 ||
						    wide_cmp(ks, blossom_slack(m, m->best_edge[w])) < 0)
							m->best_edge[w] = k;
					}
				}
			}
			if (augmented)
				break;

			/* Perfect matching: no delta for exposed vertices' duals. */
			int dtype = -1, dedge = -1, dblossom = -1;
			weight_t delta = wide_zero;
			for (int v = 0; v < nvertex; v++) {
				if (m->label[m->in_blossom[v]] == 0 && m->best_edge[v] != -1) {
					weight_t d = blossom_slack(m, m->best_edge[v]);
					if (dtype == -1 || wide_cmp(d, delta) < 0) {
						delta = d;
						dtype = 2;
						dedge = m->best_edge[v];
					}
				}
			}
			for (size_t b = 0; b < n2; b++) {
				if (m->parent[b] == -1 && m->label[b] == 1 && m->best_edge[b] != -1) {
					weight_t d = wide_half(blossom_slack(m, m->best_edge[b]));
					if (dtype == -1 || wide_cmp(d, delta) < 0) {
						delta = d;
						dtype = 3;
						dedge = m->best_edge[b];
					}
				}
			}
			for (size_t b = (size_t)nvertex; b < n2; b++) {
				if (m->base[b] >= 0 && m->parent[b] == -1 && m->label[b] == 2 &&
				    (dtype == -1 || wide_cmp(m->dual[b], delta) < 0)) {
					delta = m->dual[b];
					dtype = 4;
					dblossom = (int)b;
				}
			}
			if (dtype == -1)
				break;
			for (int v = 0; v < nvertex; v++) {
				int l = m->label[m->in_blossom[v]];
				if (l == 1)
					m->dual[v] = wide_sub(m->dual[v], delta);
				else if (l == 2)
					m->dual[v] = wide_add(m->dual[v], delta);
			}
			for (size_t b = (size_t)nvertex; b < n2; b++) {
				if (m->base[b] >= 0 && m->parent[b] == -1) {
					if (m->label[b] == 1)
						m->dual[b] = wide_add(m->dual[b], delta);
					else if (m->label[b] == 2)
						m->dual[b] = wide_sub(m->dual[b], delta);
				}
			}
			if (dtype == 2) {
				allow_edge(m, dedge);
				int i = m->edge_end[2 * dedge], j = m->edge_end[2 * dedge + 1];
				if (m->label[m->in_blossom[i]] == 0)
					i = j;
				m->queue[m->nqueue++] = i;
			} else if (dtype == 3) {
				allow_edge(m, dedge);
				m->queue[m->nqueue++] = m->edge_end[2 * dedge];
			} else {
				blossom_expand(m, dblossom, false);
			}
		}
		if (!augmented) {
			rc = -1;
			break;
		}
		for (size_t b = (size_t)nvertex; b < n2; b++)
			if (m->parent[b] == -1 && m->base[b] >= 0 && m->label[b] == 1 &&
			    wide_is_zero(m->dual[b]))
				blossom_expand(m, (int)b, true);
	}
	for (int v = 0; v < nvertex; v++)
		m->result[v] = m->mate[v] >= 0 ? m->edge_end[m->mate[v]] : -1;
	/* Dissolve the blossoms; matched edges no longer tight are freed. */
	for (int v = 0; v < nvertex; v++) {
		weight_t add = wide_zero;
		for (int b = m->parent[v]; b >= 0; b = m->parent[b])
			add = wide_add(add, m->dual[b]);
		m->dual[v] = wide_add(m->dual[v], add);
	}
	for (int v = 0; v < nvertex; v++) {
		if (m->mate[v] >= 0 && !wide_is_zero(blossom_slack(m, m->mate[v] / 2)))
			matcher_unmatch(m, v);
	}
	for (size_t b = (size_t)nvertex; b < n2; b++) {
		free(m->best_list[b]);
		m->best_list[b] = NULL;
		m->nbest_list[b] = 0;
		m->parent[b] = -1;
	}
	for (int v = 0; v < nvertex; v++)
		m->parent[v] = -1;
	if (rc < 0)
		m->started = false;
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
	struct blossom m;
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
	return &a[matcher_edge(&d->m, i, j)];
}

/* w plus v * 2^shift in field f, unless the layout leaves f out. */
static weight_t field_add(const struct dutch *d, weight_t w, enum field f, uint64_t v, int shift)
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
static weight_t float_fields(const struct dutch *d, weight_t w, int step, bool higher_scores_more,
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
static weight_t edge_encode(const struct dutch *d, int h, int l, const struct edge_state *e)
{
	if (e->kind == EDGE_NONE)
		return wide_zero;
	weight_t w = wide_bit(PRESENT_BIT);
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
	matcher_set(&d->m, owner, other, edge_encode(d, h, l, &s));
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
	int w = d->m.result[v];

	return w >= d->n || w < 0 ? v : w;
}

static void pair_finalize(struct dutch *d, int v, int w)
{
	d->matched[v] = d->matched[w] = true;
	if (w != v)
		matcher_retire(&d->m, v, w);
}

static int solve(struct dutch *d)
{
	return matcher_solve(&d->m);
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
	if (matcher_init(&d->m, d->nv) < 0)
		goto out;
	{
		size_t nedge = (size_t)d->m.nedge + 1;
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
	matcher_free(&d->m);
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
			weight_t w = wide_zero;
			if (dutch_compatible(d, i, j)) {
				e.kind = EDGE_PLAIN;
				w = wide_add(wide_bit(PRESENT_BIT), wide_shifted((uint64_t)(group[d->pl[i].score] +
				    group[d->pl[j].score]), 1));
				if (d->pl[j].score >= d->pl[0].score)
					w = wide_add(w, wide_small(1));
			}
			*edge_at(d, d->cur, i, j) = e;
			*edge_at(d, d->base, i, j) = e;
			matcher_set(&d->m, i, j, n % 2 ? w : edge_encode(d, i, j, &e));
		}
	}
	if (n % 2 == 0)
		return 0;
	for (int i = 0; i < n; i++)
		matcher_set(&d->m, i, n, d->pl[i].bye_ok ? wide_bit(PRESENT_BIT) : wide_zero);
	if (matcher_solve(&d->m) < 0)
		return -1;
	int bye = d->m.result[n], top = d->pl[0].score;
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
	d->m.started = false;
	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j < n; j++)
			matcher_set(&d->m, i, j, edge_encode(d, i, j, edge_at(d, d->cur, i, j)));
		matcher_set(&d->m, i, n, d->pl[i].bye_ok && d->pl[i].score <= d->bye_score ?
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
