/*
 * Maximum-weight perfect matching on a general graph (Edmonds' blossom
 * algorithm with integral duals), over a fixed complete graph whose edges
 * are switched on by a non-zero weight and off by zero.
 *
 * The matcher keeps its matching and duals between solves, so a caller
 * that changes a few weights and solves again pays only for the vertices
 * those changes freed.  The Dutch pairing (pairing.c) is its one user.
 */
#ifndef CHESS_MATCHING_H
#define CHESS_MATCHING_H

#include "wide.h"

struct matching;

/* A matcher on the complete graph of nvertex vertices, every edge off; NULL when out of memory. */
struct matching *matching_new(int nvertex);
void matching_free(struct matching *m);

/* Edges of the complete graph, and the number (0..count-1) of edge i-j, i != j. */
int matching_edge_count(const struct matching *m);
int matching_edge(const struct matching *m, int i, int j);

/*
 * Sets the weight of edge owner-other (zero: no edge).  When the change
 * breaks dual feasibility, owner's dual is raised before the next solve.
 */
void matching_set(struct matching *m, int owner, int other, struct wide w);
/*
 * Switches off every edge of the pair a-b except theirs and matches them
 * on it: they stay matched, and later solves no longer scan them.
 */
void matching_retire(struct matching *m, int a, int b);
/* Completes a perfect matching of maximum weight; -1 when none exists. */
int matching_solve(struct matching *m);
/* v's partner in the last solve. */
int matching_partner(const struct matching *m, int v);
/* Makes the next solve start from no matching (after many weights changed). */
void matching_restart(struct matching *m);

#endif
