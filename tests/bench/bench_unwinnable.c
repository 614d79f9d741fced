/*
 * bench-unwinnable: the cost of deciding whether a side can still mate, the
 * quick static check and the full decision, on positions of random playouts
 * (the final one, and one at a random ply, where a flag might fall), each
 * asked for both sides, plus files of vectors.
 *   bench-unwinnable [--games N] [--seed N] [--nodes N] [--tsv FILE]...
 *                    [--cha PATH] [--cha-nodes N] [--slowest N] [--print]
 * A TSV is tests/data/unwinnable.tsv's layout: name, FEN, side, verdict.
 * Prints positions per second, mean, p99 and max per decision, and the
 * verdicts, every helpmate line played out; exit 1 if a vector's verdict
 * disagrees (undetermined on ours is reported, not failed) or a line fails
 * to mate, 2 on bad arguments.
 *
 * --cha PATH pipes the same positions, in the same run, through a locally
 * built CHA binary (one "FEN side" line each; it prints a verdict line with
 * its own time in microseconds per position in full mode, and only totals in
 * -quick mode) and prints its figures beside ours with the verdict agreement.
 * --slowest N lists the N positions our full decision took longest on (with
 * its verdict and time), where the tail of the distribution comes from.
 * --print writes the positions as CHA input lines and exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fen.h"
#include "movegen.h"
#include "unwinnable.h"

#define GAMES_DEFAULT 2000
#define SEED_DEFAULT 0x5eed2024u
#define PLAYOUT_MAX_PLIES 400
#define QUICK_REPEATS 100	/* the quick check is timed over this many calls */
#define TSV_MAX 8
#define CHA_NODES_DEFAULT 500000	/* CHA's own default limit */
#define CHA_LINE_MAX 8192

struct query {
	struct board board;
	enum color side;
	int expected;		/* enum unwinnable_verdict, or -1 when unknown */
};

struct stats {
	double mean_ns, p99_ns, max_ns, total_ns;
};

/* What CHA said about one position in full mode. */
struct cha_answer {
	int verdict;		/* enum unwinnable_verdict, -1 when unparsed */
	int64_t ns;
};

/* CHA's quick mode prints only its totals (and the unwinnable positions). */
struct cha_quick {
	int count, unwinnable;
	double mean_us, max_us;
	bool ok;
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

/*
 * Per game: the position where a random game stopped (mate, stalemate,
 * dead, or the ply cap) and the one at a random ply before it, both sides.
 */
static void add_playouts(struct query **q, int *n, long games, uint64_t seed)
{
	move legal[MAX_MOVES];

	for (long g = 0; g < games; g++) {
		struct board b, at_random;
		int stop = 1 + (int)(rng_next(&seed) % PLAYOUT_MAX_PLIES);
		bool stopped = false;
		board_start(&b);
		for (int ply = 0; ply < PLAYOUT_MAX_PLIES; ply++) {
			int k = movegen_legal(&b, legal);
			if (k == 0 || board_is_dead(&b))
				break;
			board_make(&b, legal[rng_next(&seed) % (uint64_t)k]);
			if (ply + 1 == stop) {
				at_random = b;
				stopped = true;
			}
		}
		for (int c = WHITE; c <= BLACK; c++) {
			add_query(q, n, &b, (enum color)c, -1);
			if (stopped && at_random.key != b.key)
				add_query(q, n, &at_random, (enum color)c, -1);
		}
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

static const char *side_name(enum color c)
{
	return c == WHITE ? "white" : "black";
}

/* One "FEN side" line per query, CHA's input. */
static FILE *queries_file(const struct query *q, int n)
{
	FILE *f = tmpfile();

	if (!f)
		return NULL;
	for (int i = 0; i < n; i++) {
		char fen[FEN_MAX];
		fen_format(&q[i].board, fen);
		fprintf(f, "%s %s\n", fen, side_name(q[i].side));
	}
	if (fflush(f) != 0) {
		fclose(f);
		return NULL;
	}
	rewind(f);
	return f;
}

/* Runs CHA with the queries on its stdin; its stdout to read, NULL on failure. */
static FILE *cha_start(const char *path, FILE *input, const char *mode, long nodes, pid_t *pid)
{
	int out[2];
	char limit[32];

	snprintf(limit, sizeof limit, "%ld", nodes);
	rewind(input);
	if (pipe(out) < 0)
		return NULL;
	*pid = fork();
	if (*pid < 0) {
		close(out[0]);
		close(out[1]);
		return NULL;
	}
	if (*pid == 0) {
		dup2(fileno(input), STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		close(out[0]);
		close(out[1]);
		if (mode)
			execl(path, path, mode, "-limit", limit, (char *)NULL);
		else
			execl(path, path, "-limit", limit, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	return fdopen(out[0], "r");
}

static bool cha_finish(FILE *out, pid_t pid)
{
	int status;

	fclose(out);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* "winnable ... nodes N time T (FEN side)": the verdict and T (microseconds). */
static bool cha_parse_answer(const char *line, struct cha_answer *a)
{
	const char *t = strstr(line, " time ");

	a->verdict = !strncmp(line, "winnable", 8) ? UNWINNABLE_WINNABLE :
	    !strncmp(line, "unwinnable", 10) ? UNWINNABLE_UNWINNABLE :
	    !strncmp(line, "undetermined", 12) ? UNWINNABLE_UNDETERMINED : -1;
	if (a->verdict < 0 || !t)
		return false;
	a->ns = 1000 * strtoll(t + 6, NULL, 10);
	return true;
}

/* CHA's full decision, a line per position in order; false if it said less. */
static bool cha_full(const char *path, FILE *input, long nodes, struct cha_answer *a, int n)
{
	static char line[CHA_LINE_MAX];
	pid_t pid;
	FILE *out = cha_start(path, input, NULL, nodes, &pid);
	int got = 0;

	if (!out)
		return false;
	while (fgets(line, sizeof line, out))
		if (got < n && cha_parse_answer(line, &a[got]))
			got++;
	return cha_finish(out, pid) && got == n;
}

/* "Analyzed N positions in M ms (avg: A us; std: S us; max: X us)" */
static struct cha_quick cha_quick(const char *path, FILE *input, long nodes)
{
	static char line[CHA_LINE_MAX];
	struct cha_quick r = { 0 };
	pid_t pid;
	FILE *out = cha_start(path, input, "-quick", nodes, &pid);

	if (!out)
		return r;
	while (fgets(line, sizeof line, out)) {
		double std_us;
		long total_ms;
		if (!strncmp(line, "unwinnable", 10))
			r.unwinnable++;
		else if (sscanf(line, "Analyzed %d positions in %ld ms (avg: %lf us; std: %lf us; "
		    "max: %lf us)", &r.count, &total_ms, &r.mean_us, &std_us, &r.max_us) == 5)
			r.ok = true;
	}
	r.ok = cha_finish(out, pid) && r.ok;
	return r;
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
	fprintf(stderr, "usage: bench-unwinnable [--games N] [--seed N] [--nodes N] [--tsv FILE]... "
	    "[--cha PATH] [--cha-nodes N] [--slowest N] [--print]\n");
	return 2;
}

static void print_stats(const char *name, struct stats s, int n)
{
	printf("%-22s %8d %12.0f %10.1f %10.1f %10.1f\n", name, n, n / (s.total_ns / 1e9),
	    s.mean_ns / 1e3, s.p99_ns / 1e3, s.max_ns / 1e3);
}

/* The `count` slowest full decisions, slowest first. */
static void print_slowest(const struct query *q, const int64_t *ns,
    const enum unwinnable_verdict *verdict, int n, long count)
{
	int *order = xrealloc(NULL, (size_t)n * sizeof *order);

	for (int i = 0; i < n; i++) {
		int j = i;
		while (j > 0 && ns[order[j - 1]] < ns[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	printf("\nslowest full decisions:\n");
	for (int i = 0; i < n && i < count; i++) {
		char fen[FEN_MAX];
		fen_format(&q[order[i]].board, fen);
		printf("%10.1f us  %-12s %s %s\n", (double)ns[order[i]] / 1e3,
		    unwinnable_verdict_name(verdict[order[i]]), fen, side_name(q[order[i]].side));
	}
	free(order);
}

static void print_query(const char *what, const struct query *q, enum unwinnable_verdict ours,
    int theirs)
{
	char fen[FEN_MAX];

	fen_format(&q->board, fen);
	printf("%s: %s %s: ours %s, CHA %s\n", what, fen, side_name(q->side),
	    unwinnable_verdict_name(ours), theirs < 0 ? "?" :
	    unwinnable_verdict_name((enum unwinnable_verdict)theirs));
}

/* CHA's figures beside ours, and where the two full decisions differ; false if unsound. */
static bool compare_cha(const char *path, long nodes, const struct query *q, int n,
    const enum unwinnable_verdict *ours, int quick_unwinnable)
{
	FILE *input = queries_file(q, n);
	struct cha_answer *a = xrealloc(NULL, (size_t)n * sizeof *a);
	int64_t *ns = xrealloc(NULL, (size_t)n * sizeof *ns);
	int count[3] = { 0 }, agree = 0, ours_open = 0, cha_open = 0, both_open = 0;
	int unsound = 0, cha_wrong = 0;

	if (!input) {
		fprintf(stderr, "bench-unwinnable: cannot write CHA's input\n");
		exit(1);
	}
	struct cha_quick quick = cha_quick(path, input, nodes);
	bool full_ok = cha_full(path, input, nodes, a, n);
	fclose(input);
	if (!quick.ok || !full_ok) {
		fprintf(stderr, "bench-unwinnable: %s did not answer every position\n", path);
		exit(1);
	}
	for (int i = 0; i < n; i++) {
		ns[i] = a[i].ns;
		count[a[i].verdict]++;
	}
	printf("%-22s %8d %12.0f %10.1f %10s %10.1f\n", "CHA quick (-quick)", quick.count,
	    quick.mean_us > 0 ? 1e6 / quick.mean_us : 0.0, quick.mean_us, "-", quick.max_us);
	print_stats("CHA full", stats_of(ns, n), n);
	printf("\nCHA quick: %d unwinnable (ours: %d)\n", quick.unwinnable, quick_unwinnable);
	printf("CHA full      %8d %10d %12d\n", count[0], count[1], count[2]);
	for (int i = 0; i < n; i++) {
		int theirs = a[i].verdict;
		bool ours_det = ours[i] != UNWINNABLE_UNDETERMINED;
		bool cha_det = theirs != UNWINNABLE_UNDETERMINED;
		if (ours_det && cha_det && (int)ours[i] == theirs) {
			agree++;
		} else if (ours_det && cha_det) {
			/* Our winnable comes with a line played to mate, so CHA erred there. */
			if (ours[i] == UNWINNABLE_UNWINNABLE) {
				unsound++;
				print_query("UNSOUND", &q[i], ours[i], theirs);
			} else {
				cha_wrong++;
				print_query("CHA contradicted by our line", &q[i], ours[i], theirs);
			}
		} else if (!ours_det && !cha_det) {
			both_open++;
			print_query("undetermined by both", &q[i], ours[i], theirs);
		} else if (!ours_det) {
			ours_open++;
			print_query("undetermined by ours", &q[i], ours[i], theirs);
		} else {
			cha_open++;
			print_query("undetermined by CHA", &q[i], ours[i], theirs);
		}
	}
	printf("agreement with CHA (full): %d of %d agree; ours undetermined where CHA decided: "
	    "%d; CHA undetermined where ours decided: %d; both undetermined: %d; "
	    "ours unwinnable where CHA found a mate: %d; CHA unwinnable where ours found a mate: %d\n",
	    agree, n, ours_open, cha_open, both_open, unsound, cha_wrong);
	free(a);
	free(ns);
	return unsound == 0;
}

int main(int argc, char **argv)
{
	long games = GAMES_DEFAULT, seed = SEED_DEFAULT, nodes = UNWINNABLE_FLAG_NODES;
	long cha_nodes = CHA_NODES_DEFAULT, slowest = 0;
	const char *tsv[TSV_MAX], *cha = NULL;
	struct query *q = NULL;
	int ntsv = 0, n = 0, disagree = 0, vectors = 0, bad_lines = 0, open_vectors = 0;
	int quick_count[3] = { 0 }, full_count[3] = { 0 };
	bool print = false, sound = true;

	for (int i = 1; i < argc; i++) {
		bool ok = i + 1 < argc;
		if (!strcmp(argv[i], "--print"))
			ok = print = true;
		else if (ok && !strcmp(argv[i], "--games"))
			ok = parse_long(argv[++i], 0, 1000000, &games);
		else if (ok && !strcmp(argv[i], "--seed"))
			ok = parse_long(argv[++i], 0, 0x7fffffffL, &seed);
		else if (ok && !strcmp(argv[i], "--nodes"))
			ok = parse_long(argv[++i], 1, 100000000, &nodes);
		else if (ok && !strcmp(argv[i], "--cha-nodes"))
			ok = parse_long(argv[++i], 1, 100000000, &cha_nodes);
		else if (ok && !strcmp(argv[i], "--slowest"))
			ok = parse_long(argv[++i], 1, 1000000, &slowest);
		else if (ok && !strcmp(argv[i], "--tsv") && ntsv < TSV_MAX)
			tsv[ntsv++] = argv[++i];
		else if (ok && !strcmp(argv[i], "--cha"))
			cha = argv[++i];
		else
			ok = false;
		if (!ok)
			return usage();
	}
	add_playouts(&q, &n, games, (uint64_t)seed);
	for (int i = 0; i < ntsv; i++)
		if (add_tsv(&q, &n, tsv[i]) < 0)
			return 2;
	if (n == 0)
		return usage();
	if (print) {
		for (int i = 0; i < n; i++) {
			char fen[FEN_MAX];
			fen_format(&q[i].board, fen);
			printf("%s %s\n", fen, side_name(q[i].side));
		}
		free(q);
		return 0;
	}

	int64_t *quick_ns = xrealloc(NULL, (size_t)n * sizeof *quick_ns);
	int64_t *full_ns = xrealloc(NULL, (size_t)n * sizeof *full_ns);
	int64_t *full_ns_at = xrealloc(NULL, (size_t)n * sizeof *full_ns_at);
	enum unwinnable_verdict *full = xrealloc(NULL, (size_t)n * sizeof *full);
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
		full_ns[i] = full_ns_at[i] = now_ns() - t0;
		full_count[v]++;
		full[i] = v;
		if (v == UNWINNABLE_WINNABLE && !line_mates(&q[i].board, q[i].side, &line))
			bad_lines++;
		if (q[i].expected >= 0) {
			vectors++;
			if (v == UNWINNABLE_UNDETERMINED) {
				open_vectors++;
			} else if ((int)v != q[i].expected) {
				char fen[FEN_MAX];
				fen_format(&q[i].board, fen);
				printf("disagrees: %s %s: %s\n", fen, side_name(q[i].side),
				    unwinnable_verdict_name(v));
				disagree++;
			}
		}
	}
	printf("positions: %d (%ld random playouts: final position and one at a random ply, "
	    "both sides; %d vectors)\n", n, games, vectors);
	printf("full decision budget: %ld nodes", nodes);
	if (cha)
		printf("; CHA -limit %ld", cha_nodes);
	printf("\n\n%-22s %8s %12s %10s %10s %10s\n", "decision", "count", "per second",
	    "mean us", "p99 us", "max us");
	print_stats("quick (static)", stats_of(quick_ns, n), n);
	print_stats("full (search)", stats_of(full_ns, n), n);
	if (!cha)
		printf("CHA not run (--cha PATH); the paper's figures, on lichess timeouts: "
		    "quick 3 us mean, full 340 us mean\n");
	printf("\nverdicts      winnable unwinnable undetermined\n");
	printf("quick         %8d %10d %12d\n", quick_count[0], quick_count[1], quick_count[2]);
	printf("full          %8d %10d %12d\n", full_count[0], full_count[1], full_count[2]);
	if (cha)
		sound = compare_cha(cha, cha_nodes, q, n, full, quick_count[UNWINNABLE_UNWINNABLE]);
	printf("helpmate lines that fail to mate: %d of %d\n", bad_lines, full_count[0]);
	if (slowest)
		print_slowest(q, full_ns_at, full, n, slowest);
	if (vectors)
		printf("vectors agreeing: %d of %d (%d undetermined by ours)\n",
		    vectors - disagree - open_vectors, vectors, open_vectors);
	free(quick_ns);
	free(full_ns);
	free(full_ns_at);
	free(full);
	free(q);
	return disagree || bad_lines || !sound ? 1 : 0;
}
