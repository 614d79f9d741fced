/*
 * Whether a side can still checkmate by any series of legal moves (FIDE
 * 6.9, and 5.2.2 when neither side can): a static check of material and
 * locked pawns, then a cooperative (helpmate) search with a node budget.
 * The verdict is sound: "unwinnable" only when no helpmate exists.
 */
#ifndef CHESS_UNWINNABLE_H
#define CHESS_UNWINNABLE_H

#include "board.h"

enum unwinnable_verdict {
	UNWINNABLE_WINNABLE,		/* a helpmate exists; the line proves it */
	UNWINNABLE_UNWINNABLE,		/* no series of legal moves mates */
	UNWINNABLE_UNDETERMINED,	/* the budget ran out first */
};

/* Longest helpmate line handed back; a longer proof counts as undetermined. */
#define HELPMATE_MAX_PLIES 256

/* Nodes the full decision may visit when a flag falls or a claim is judged:
 * about 20 ms on one core at the worst. */
#define UNWINNABLE_FLAG_NODES 100000

/* Moves from the position, both sides cooperating, ending in mate of the loser. */
struct helpmate {
	int nplies;
	move moves[HELPMATE_MAX_PLIES];
};

/* Static check only, cheap enough for every move: UNWINNABLE or UNDETERMINED. */
enum unwinnable_verdict unwinnable_quick(const struct board *b, enum color side);

/*
 * The full decision for `side` visiting at most budget_nodes positions.
 * line (may be NULL) receives the helpmate when the verdict is WINNABLE.
 */
enum unwinnable_verdict unwinnable_decide(const struct board *b, enum color side,
    long budget_nodes, struct helpmate *line);

const char *unwinnable_verdict_name(enum unwinnable_verdict v);

#endif
