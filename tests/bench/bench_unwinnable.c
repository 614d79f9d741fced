/*
 * bench-unwinnable: the cost of deciding whether a side can still mate, the
 * quick static check and the full decision, on the final positions of
 * random playouts (where real flags fall late in a game) plus a file of
 * vectors, each position asked for both sides.
 *   bench-unwinnable [--games N] [--seed N] [--nodes N] [--tsv FILE]
 * The TSV is tests/data/unwinnable.tsv's layout: name, FEN, side, verdict.
 * Prints positions per second, mean, p99 and max per decision, and the
 * verdicts, every helpmate line played out; exit 1 if a vector's verdict
 * disagrees or a line fails to mate, 2 on bad arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fen.h"
#include "movegen.h"
#include "unwinnable.h"

#define GAMES_DEFAULT 2000
#define SEED_DEFAULT 0x5eed2024u
#define PLAYOUT_MAX_PLIES 400
#define QUICK_REPEATS 100	/* the quick check is timed over this many calls */

struct query {
	struct board board;
	enum color side;
	int expected;		/* enum unwinnable_verdict, or -1 when unknown */
};

struct stats {
	double mean_ns, p99_ns, max_ns, total_ns;
};

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "bench-unwinnable: out of memory\n");
		exit(1);
	}
	return p;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static struct stats stats_of(int64_t *ns, int n)
{
	struct stats s = { 0 };

	qsort(ns, (size_t)n, sizeof *ns, cmp_i64);
	for (int i = 0; i < n; i++)
		s.total_ns += (double)ns[i];
	s.mean_ns = s.total_ns / n;
	s.p99_ns = (double)ns[(int)((int64_t)n * 99 / 100)];
	s.max_ns = (double)ns[n - 1];
	return s;
}

static void add_query(struct query **q, int *n, const struct board *b, enum color side,
    int expected)
{
	*q = xrealloc(*q, (size_t)(*n + 1) * sizeof **q);
	(*q)[(*n)++] = (struct query){ .board = *b, .side = side, .expected = expected };
}

/* The position where a random game stopped: mate, stalemate, dead, or the ply cap. */
static void add_playouts(struct query **q, int *n, long games, uint64_t seed)
{
	move legal[MAX_MOVES];

	for (long g = 0; g < games; g++) {
		struct board b;
		board_start(&b);
		for (int ply = 0; ply < PLAYOUT_MAX_PLIES; ply++) {
			int k = movegen_legal(&b, legal);
			if (k == 0 || board_is_dead(&b))
				break;
			board_make(&b, legal[rng_next(&seed) % (uint64_t)k]);
		}
		add_query(q, n, &b, WHITE, -1);
		add_query(q, n, &b, BLACK, -1);
	}
}

static int add_tsv(struct query **q, int *n, const char *path)
{
	char line[1024], err[128];
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "bench-unwinnable: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		char *field[4] = { 0 };
		struct board b;
		int k = 0;

		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		for (char *p = line; k < 4 && p; k++) {
			field[k] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (k < 4 || fen_parse(&b, field[1], err, sizeof err) < 0)
			continue;
		int expected = !strcmp(field[3], "winnable") ? UNWINNABLE_WINNABLE :
		    !strcmp(field[3], "unwinnable") ? UNWINNABLE_UNWINNABLE : -1;
		add_query(q, n, &b, strcmp(field[2], "black") ? WHITE : BLACK, expected);
	}
	fclose(f);
	return 0;
}

/* The helpmate is legal move by move and ends with side mating. */
static bool line_mates(const struct board *start, enum color side, const struct helpmate *line)
{
	struct board b = *start;
	move legal[MAX_MOVES];

	for (int i = 0; i < line->nplies; i++) {
		int n = movegen_legal(&b, legal), k = 0;
		while (k < n && legal[k] != line->moves[i])
			k++;
		if (k == n)
			return false;
		board_make(&b, line->moves[i]);
	}
	return movegen_count(&b) == 0 && board_in_check(&b) && b.side != side;
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 0);
	return !errno && *s && !*end && *out >= lo && *out <= hi;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench-unwinnable [--games N] [--seed N] [--nodes N] [--tsv FILE]\n");
	return 2;
}

static void print_stats(const char *name, struct stats s, int n)
{
	printf("%-22s %8d %12.0f %10.1f %10.1f %10.1f\n", name, n, n / (s.total_ns / 1e9),
	    s.mean_ns / 1e3, s.p99_ns / 1e3, s.max_ns / 1e3);
}

int main(int argc, char **argv)
{
	long games = GAMES_DEFAULT, seed = SEED_DEFAULT, nodes = UNWINNABLE_FLAG_NODES;
	const char *tsv = NULL;
	struct query *q = NULL;
	int n = 0, disagree = 0, vectors = 0, bad_lines = 0;
	int quick_count[3] = { 0 }, full_count[3] = { 0 };

	for (int i = 1; i < argc; i++) {
		bool ok = i + 1 < argc;
		if (ok && !strcmp(argv[i], "--games"))
			ok = parse_long(argv[++i], 0, 1000000, &games);
		else if (ok && !strcmp(argv[i], "--seed"))
			ok = parse_long(argv[++i], 0, 0x7fffffffL, &seed);
		else if (ok && !strcmp(argv[i], "--nodes"))
			ok = parse_long(argv[++i], 1, 100000000, &nodes);
		else if (ok && !strcmp(argv[i], "--tsv"))
			tsv = argv[++i];
		else
			ok = false;
		if (!ok)
			return usage();
	}
	add_playouts(&q, &n, games, (uint64_t)seed);
	if (tsv && add_tsv(&q, &n, tsv) < 0)
		return 2;
	if (n == 0)
		return usage();

	int64_t *quick_ns = xrealloc(NULL, (size_t)n * sizeof *quick_ns);
	int64_t *full_ns = xrealloc(NULL, (size_t)n * sizeof *full_ns);
	for (int i = 0; i < n; i++) {
		enum unwinnable_verdict v = UNWINNABLE_UNDETERMINED;
		int64_t t0 = now_ns();
		for (int r = 0; r < QUICK_REPEATS; r++)
			v = unwinnable_quick(&q[i].board, q[i].side);
		quick_ns[i] = (now_ns() - t0) / QUICK_REPEATS;
		quick_count[v]++;

		struct helpmate line;
		t0 = now_ns();
		v = unwinnable_decide(&q[i].board, q[i].side, nodes, &line);
		full_ns[i] = now_ns() - t0;
		full_count[v]++;
		if (v == UNWINNABLE_WINNABLE && !line_mates(&q[i].board, q[i].side, &line))
			bad_lines++;
		if (q[i].expected >= 0) {
			vectors++;
			if ((int)v != q[i].expected) {
				char fen[FEN_MAX];
				fen_format(&q[i].board, fen);
				printf("disagrees: %s %s: %s\n", fen, q[i].side == WHITE ? "white" : "black",
				    unwinnable_verdict_name(v));
				disagree++;
			}
		}
	}
	printf("positions: %d (final positions of %ld random playouts, both sides; %d vectors)\n",
	    n, games, vectors);
	printf("full decision budget: %ld nodes\n\n", nodes);
	printf("%-22s %8s %12s %10s %10s %10s\n", "decision", "count", "per second", "mean us",
	    "p99 us", "max us");
	print_stats("quick (static)", stats_of(quick_ns, n), n);
	print_stats("full (search)", stats_of(full_ns, n), n);
	printf("\nverdicts      winnable unwinnable undetermined\n");
	printf("quick         %8d %10d %12d\n", quick_count[0], quick_count[1], quick_count[2]);
	printf("full          %8d %10d %12d\n", full_count[0], full_count[1], full_count[2]);
	printf("helpmate lines that fail to mate: %d of %d\n", bad_lines, full_count[0]);
	if (vectors)
		printf("vectors agreeing: %d of %d\n", vectors - disagree, vectors);
	free(quick_ns);
	free(full_ns);
	free(q);
	return disagree || bad_lines ? 1 : 0;
}
