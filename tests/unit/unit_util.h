/*
 * Helpers shared by the unit tests: a fixed-seed PRNG, random playouts,
 * test-data files and TAB splitting.  Header-only so each test_NAME.c
 * stays one program; include after <cmocka.h>.
 */
#ifndef CHESS_UNIT_UTIL_H
#define CHESS_UNIT_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

#ifndef CHESS_TESTDATA_DIR
#error "CHESS_TESTDATA_DIR must name tests/data"
#endif

/* Sanitizer builds run the same checks on smaller budgets. */
#if defined(__SANITIZE_ADDRESS__)
#define UNIT_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNIT_UNDER_SANITIZER 1
#endif
#endif
#ifndef UNIT_UNDER_SANITIZER
#define UNIT_UNDER_SANITIZER 0
#endif

/* splitmix64: a small, well-mixed generator; the same seed gives the same games. */
static inline uint64_t unit_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Opens tests/data/name for reading, failing the test if it is missing. */
static inline FILE *unit_open_data(const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", CHESS_TESTDATA_DIR, name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	return f;
}

/* Removes a trailing newline (and CR) in place. */
static inline void unit_chomp(char *line)
{
	size_t n = strlen(line);

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
}

/* Splits line in place on TABs, keeping empty fields; returns the field count. */
static inline int unit_split_tabs(char *line, char **fields, int max)
{
	int n = 0;

	while (n < max) {
		fields[n++] = line;
		char *tab = strchr(line, '\t');
		if (!tab)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	return n;
}

/*
 * Plays one random game from b until it ends (no legal move) or max_plies,
 * calling visit on every position before its move is chosen (including
 * the final one).  visit gets the legal moves; returns the plies played.
 */
typedef void unit_visit_fn(const struct board *b, const move *legal, int nlegal, void *ctx);

static inline int unit_playout(struct board *b, uint64_t *rng, int max_plies,
    unit_visit_fn *visit, void *ctx)
{
	move legal[MAX_MOVES];
	int ply;

	for (ply = 0;; ply++) {
		int n = movegen_legal(b, legal);
		visit(b, legal, n, ctx);
		if (n == 0 || ply == max_plies)
			break;
		board_make(b, legal[unit_rng_next(rng) % (uint64_t)n]);
	}
	return ply;
}

#endif
