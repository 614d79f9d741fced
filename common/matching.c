/*
 * Maximum-weight perfect matching on a complete graph whose edges are
 * switched on and off between solves; see matching.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "matching.h"
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

struct matching {
	int nvertex, nedge;
	int *edge_end;			/* edge k joins edge_end[2k] and edge_end[2k + 1] */
	/*
	 * Edge weights as a symmetric nvertex x nvertex matrix (zero: no
	 * edge), so that a vertex's edges lie in one row: the scan of a
	 * vertex's neighbours reads memory in order.
	 */
	struct wide *weight;
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
	struct wide *dual;
	/* Edge v-x is tight and usable in this stage when allow[v * nvertex + x] == stage. */
	unsigned *allow, stage;
	int *queue, nqueue;
	int *leaves;			/* scratch for blossom_leaves() */
	int *best_to;			/* scratch for blossom_add() */
	int *result;			/* partner of each vertex after the last solve */
	bool *raise;			/* dual to raise before the next solve */
	bool started;
};

static inline size_t cell(const struct matching *m, int v, int x)
{
	return (size_t)v * (size_t)m->nvertex + (size_t)x;
}

static inline struct wide edge_weight(const struct matching *m, int k)
{
	return m->weight[cell(m, m->edge_end[2 * k], m->edge_end[2 * k + 1])];
}

static inline void allow_edge(struct matching *m, int k)
{
	int i = m->edge_end[2 * k], j = m->edge_end[2 * k + 1];

	m->allow[cell(m, i, j)] = m->allow[cell(m, j, i)] = m->stage;
}

static inline struct wide blossom_slack(const struct matching *m, int k)
{
	struct wide w = edge_weight(m, k);

	return wide_sub(wide_add(m->dual[m->edge_end[2 * k]], m->dual[m->edge_end[2 * k + 1]]),
	    wide_add(w, w));
}

/* Appends the vertices inside b to out; returns the new count. */
static int blossom_leaves(const struct matching *m, int b, int *out, int n)
{
	if (b < m->nvertex) {
		out[n++] = b;
		return n;
	}
	for (int i = 0; i < m->nchilds[b]; i++)
		n = blossom_leaves(m, m->childs[b][i], out, n);
	return n;
}

static void blossom_assign_label(struct matching *m, int w, int t, int p)
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
static int blossom_scan(struct matching *m, int v, int w)
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

static void blossom_add(struct matching *m, int base, int k)
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

static int child_index(const struct matching *m, int b, int child)
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
static int walk_start(const struct matching *m, int b, int j, int *step, int *trick)
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
static int cyc(const struct matching *m, int b, int j)
{
	return j < 0 ? j + m->nchilds[b] : j;
}

static void blossom_expand(struct matching *m, int b, bool endstage)
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

static void blossom_augment_inside(struct matching *m, int b, int v)
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

static void blossom_augment(struct matching *m, int k)
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

static void matching_free_parts(struct matching *m)
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
int matching_edge(const struct matching *m, int i, int j)
{
	if (i > j) {
		int tmp = i;
		i = j;
		j = tmp;
	}
	return (int)((long)i * (2L * m->nvertex - i - 1) / 2) + (j - i - 1);
}

/* Sets up m on the complete graph of nvertex vertices, all edges off; -1 when out of memory. */
static int matching_init(struct matching *m, int nvertex)
{
	size_t n2 = 2 * (size_t)nvertex, nv = (size_t)nvertex;
	size_t nedge = nv * (nv > 0 ? nv - 1 : 0) / 2;

	memset(m, 0, sizeof *m);
	m->nvertex = nvertex;
	m->nedge = (int)nedge;
	m->edge_end = malloc((2 * nedge + 1) * sizeof(int));
	m->weight = calloc(nv * nv + 1, sizeof(struct wide));
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
	m->dual = calloc(n2 + 1, sizeof(struct wide));
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
			int k = matching_edge(m, v, x);
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

static void matcher_activate(struct matching *m, int v)
{
	if (m->active_at[v] < 0) {
		m->active_at[v] = m->nactive;
		m->active[m->nactive++] = v;
	}
}

static void matcher_deactivate(struct matching *m, int v)
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
static int matcher_endpoint(const struct matching *m, int v, int w)
{
	return m->neigh[m->neigh_first[v] + w - (w > v)];
}

static void matcher_unmatch(struct matching *m, int v)
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
void matching_set(struct matching *m, int owner, int other, struct wide w)
{
	int k = matching_edge(m, owner, other);

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
void matching_retire(struct matching *m, int a, int b)
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
static void matcher_prepare(struct matching *m)
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
			struct wide w = m->weight[cell(m, v, x)];
			if (wide_is_zero(w))
				continue;
			struct wide need = wide_sub(wide_add(w, w), m->dual[x]);
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
int matching_solve(struct matching *m)
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
					struct wide ks = wide_zero, wt = m->weight[cell(m, v, w)];
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
			struct wide delta = wide_zero;
			for (int v = 0; v < nvertex; v++) {
				if (m->label[m->in_blossom[v]] == 0 && m->best_edge[v] != -1) {
					struct wide d = blossom_slack(m, m->best_edge[v]);
					if (dtype == -1 || wide_cmp(d, delta) < 0) {
						delta = d;
						dtype = 2;
						dedge = m->best_edge[v];
					}
				}
			}
			for (size_t b = 0; b < n2; b++) {
				if (m->parent[b] == -1 && m->label[b] == 1 && m->best_edge[b] != -1) {
					struct wide d = wide_half(blossom_slack(m, m->best_edge[b]));
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
		struct wide add = wide_zero;
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

struct matching *matching_new(int nvertex)
{
	struct matching *m = calloc(1, sizeof *m);

	if (m && matching_init(m, nvertex) < 0) {
		matching_free(m);
		return NULL;
	}
	return m;
}

void matching_free(struct matching *m)
{
	if (!m)
		return;
	matching_free_parts(m);
	free(m);
}

int matching_edge_count(const struct matching *m)
{
	return m->nedge;
}

int matching_partner(const struct matching *m, int v)
{
	return m->result[v];
}

void matching_restart(struct matching *m)
{
	m->started = false;
}
