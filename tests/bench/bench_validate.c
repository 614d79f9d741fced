/*
 * bench-validate: the cost of validating one move the way the server does,
 * position_play_text() on a position in memory, timed call by call over a
 * replay of random games, with its parts timed alone and a naive
 * make-and-test validator written here as a reference on the same machine.
 *   bench-validate [--games N] [--plies N] [--seed N]
 * Exit 0 after printing, 1 when any replayed move is refused (a bug), 2 on
 * bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "movegen.h"
#include "position.h"

#define GAMES_DEFAULT 2000
#define PLIES_DEFAULT 120
#define SEED_DEFAULT 0x5eed2024u
#define OVERHEAD_SAMPLES 1000000
#define TARGET_MEDIAN_NS 300

/* Percent of plies sent as canonical SAN and as SAN without + or #; the rest are coordinates. */
#define FORM_SAN_PCT 75
#define FORM_BARE_PCT 10

enum form { FORM_SAN, FORM_BARE, FORM_COORD, FORM_NB };

/* Every game's plies, flattened: text as the client sends it, and what it must become. */
struct workload {
	char (*text)[MOVE_TEXT_MAX];
	char (*san)[MOVE_TEXT_MAX];	/* canonical SAN, what the server must answer */
	move *moves;
	int *first;			/* first[g] .. first[g + 1] - 1 are game g's plies */
	int ngames, nplies;
	int forms[FORM_NB];
};

/* What one pass times for every ply. */
enum pass {
	PASS_PLAY_TEXT,
	PASS_SAN_PARSE,
	PASS_PLAY_SAN,
	PASS_PLAY_NO_SAN,
	PASS_SAN_FORMAT,
	PASS_SAN_FORMAT_WITH,
	PASS_MOVEGEN_LEGAL,
	PASS_MOVEGEN_COUNT,
	PASS_BOARD_MAKE,
	PASS_NAIVE,
	PASS_NB
};

static const char *const pass_names[PASS_NB] = {
	[PASS_PLAY_TEXT] = "position_play_text (whole)",
	[PASS_SAN_PARSE] = "  san_parse",
	[PASS_PLAY_SAN] = "  position_play, with SAN",
	[PASS_PLAY_NO_SAN] = "    position_play, no SAN",
	[PASS_SAN_FORMAT] = "    san_format",
	[PASS_SAN_FORMAT_WITH] = "    san_format_with (list given)",
	[PASS_MOVEGEN_LEGAL] = "  movegen_legal",
	[PASS_MOVEGEN_COUNT] = "  movegen_count",
	[PASS_BOARD_MAKE] = "  board_make (on a copy)",
	[PASS_NAIVE] = "naive make-and-test reference",
};

struct stats {
	int count;
	double median, p90, p99, mean;
};

/* splitmix64: fixed seed, so every run replays the same games. */
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

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fprintf(stderr, "bench-validate: out of memory\n");
		exit(1);
	}
	return p;
}

static struct position *new_game(void)
{
	char err[128];
	struct position *pos = position_new(NULL, err, sizeof err);

	if (!pos) {
		fprintf(stderr, "bench-validate: position_new: %s\n", err);
		exit(1);
	}
	return pos;
}

/* Drops trailing check and mate marks in place; returns the new length. */
static size_t strip_marks(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '+' || s[n - 1] == '#'))
		s[--n] = '\0';
	return n;
}

/* Random legal games from the start, recording each ply in a client's form. */
static void workload_build(struct workload *w, int ngames, int max_plies, uint64_t seed)
{
	size_t cap = (size_t)ngames * (size_t)max_plies;

	memset(w, 0, sizeof *w);
	w->text = xmalloc(cap * sizeof *w->text);
	w->san = xmalloc(cap * sizeof *w->san);
	w->moves = xmalloc(cap * sizeof *w->moves);
	w->first = xmalloc(((size_t)ngames + 1) * sizeof *w->first);
	w->ngames = ngames;
	for (int g = 0; g < ngames; g++) {
		struct position *pos = new_game();
		w->first[g] = w->nplies;
		for (int ply = 0; ply < max_plies && position_termination(pos) == TERM_NONE; ply++) {
			move legal[MAX_MOVES];
			int n = movegen_legal(position_board(pos), legal);
			move m = legal[rng_next(&seed) % (uint64_t)n];
			int i = w->nplies++;
			unsigned roll = (unsigned)(rng_next(&seed) % 100);
			enum form f = roll < FORM_SAN_PCT ? FORM_SAN :
			    roll < FORM_SAN_PCT + FORM_BARE_PCT ? FORM_BARE : FORM_COORD;

			san_format(position_board(pos), m, SAN_ENGLISH, w->san[i]);
			if (f == FORM_COORD) {
				move_format_uci(m, w->text[i]);
			} else {
				strcpy(w->text[i], w->san[i]);
				if (f == FORM_BARE)
					strip_marks(w->text[i]);
			}
			w->forms[f]++;
			w->moves[i] = m;
			position_play(pos, m, SAN_ENGLISH, NULL);
		}
		position_free(pos);
	}
	w->first[ngames] = w->nplies;
}

static void workload_free(struct workload *w)
{
	free(w->text);
	free(w->san);
	free(w->moves);
	free(w->first);
}

/* Squares of colour `by` attacking sq (the naive validator's only question). */
static bool naive_attacked(const struct board *b, int sq, enum color by)
{
	return (board_attackers(b, sq, board_occupied(b)) & b->by_color[by]) != 0;
}

static int naive_pawn(move *list, int n, int from, int to, bitboard promo_rank)
{
	if (!(promo_rank & bb_square(to))) {
		list[n++] = move_make(from, to);
		return n;
	}
	for (int t = QUEEN; t >= KNIGHT; t--)
		list[n++] = move_make_promotion(from, to, (enum piece_type)t);
	return n;
}

/*
 * Pseudo-legal moves straight from the attack tables, piece by piece: what a
 * simple server writes before filtering with make-and-test.
 */
static int naive_pseudo(const struct board *b, move *list)
{
	enum color us = (enum color)b->side, them = color_other(us);
	bitboard ours = b->by_color[us], theirs = b->by_color[them];
	bitboard occ = ours | theirs;
	bitboard promo_rank = us == WHITE ? BB_RANK_8 : BB_RANK_1;
	int up = us == WHITE ? 8 : -8, n = 0;

	for (bitboard p = ours; p;) {
		int from = bb_pop(&p);
		enum piece_type type = piece_type_of(b->squares[from]);
		if (type == PAWN) {
			int to = from + up;
			if (!(occ & bb_square(to))) {
				n = naive_pawn(list, n, from, to, promo_rank);
				int home = us == WHITE ? 1 : 6;
				if (square_rank(from) == home && !(occ & bb_square(to + up)))
					list[n++] = move_make(from, to + up);
			}
			for (bitboard t = attacks_pawn(from, us) & theirs; t;)
				n = naive_pawn(list, n, from, bb_pop(&t), promo_rank);
			if (b->ep_square != SQ_NONE && (attacks_pawn(from, us) & bb_square(b->ep_square)))
				list[n++] = move_make_kind(from, b->ep_square, MOVE_EN_PASSANT);
			continue;
		}
		for (bitboard t = attacks_of(type, from, occ) & ~ours; t;)
			list[n++] = move_make(from, bb_pop(&t));
	}

	int ksq = board_king(b, us);
	unsigned ks = us == WHITE ? CASTLE_WK : CASTLE_BK;
	unsigned qs = us == WHITE ? CASTLE_WQ : CASTLE_BQ;
	if ((b->castling & (ks | qs)) && !naive_attacked(b, ksq, them)) {
		if ((b->castling & ks) && !(occ & (bb_square(ksq + 1) | bb_square(ksq + 2))) &&
		    !naive_attacked(b, ksq + 1, them) && !naive_attacked(b, ksq + 2, them))
			list[n++] = move_make_kind(ksq, ksq + 2, MOVE_CASTLING);
		if ((b->castling & qs) &&
		    !(occ & (bb_square(ksq - 1) | bb_square(ksq - 2) | bb_square(ksq - 3))) &&
		    !naive_attacked(b, ksq - 1, them) && !naive_attacked(b, ksq - 2, them))
			list[n++] = move_make_kind(ksq, ksq - 2, MOVE_CASTLING);
	}
	return n;
}

/*
 * The reference validator: every pseudo-legal move is made on a copy and
 * kept if our king is safe; the text is matched against each legal
 * candidate's coordinates, then its SAN from san_format.  The match is then
 * played with position_play, so state keeping costs the same as ours.
 */
static enum san_status naive_play_text(struct position *pos, const char *text, move *played,
    char *san)
{
	const struct board *b = position_board(pos);
	enum color us = (enum color)b->side;
	move pseudo[MAX_MOVES];
	char want[MOVE_TEXT_MAX], cand[MOVE_TEXT_MAX];
	int n = naive_pseudo(b, pseudo);

	snprintf(want, sizeof want, "%s", text);
	strip_marks(want);
	for (int i = 0; i < n; i++) {
		struct board after = *b;
		board_make(&after, pseudo[i]);
		if (naive_attacked(&after, board_king(&after, us), color_other(us)))
			continue;
		move_format_uci(pseudo[i], cand);
		bool match = !strcmp(cand, want);
		san_format(b, pseudo[i], SAN_ENGLISH, cand);
		if (!match) {
			char bare[MOVE_TEXT_MAX];
			memcpy(bare, cand, sizeof bare);
			strip_marks(bare);
			match = !strcmp(bare, want);
		}
		if (match) {
			*played = pseudo[i];
			strcpy(san, cand);
			position_play(pos, pseudo[i], SAN_ENGLISH, NULL);
			return SAN_OK;
		}
	}
	*played = MOVE_NONE;
	return SAN_ILLEGAL;
}

static void refuse(const struct workload *w, int i, const char *what, int st)
{
	fprintf(stderr, "bench-validate: %s refused ply %d \"%s\" (status %d)\n", what, i,
	    w->text[i], st);
	exit(1);
}

/*
 * Replays every game on a fresh position, timing one call per ply into ns[]
 * (which must hold nplies).  The call under test is the only thing between
 * the two clock reads; whatever else keeps the game going is untimed.
 */
static void run_pass(const struct workload *w, enum pass pass, int64_t *ns)
{
	move list[MAX_MOVES];
	char san[MOVE_TEXT_MAX];

	for (int g = 0; g < w->ngames; g++) {
		struct position *pos = new_game();
		for (int i = w->first[g]; i < w->first[g + 1]; i++) {
			const struct board *b = position_board(pos);
			const char *text = w->text[i];
			move want = w->moves[i], m = MOVE_NONE;
			struct board copy;
			int64_t t0 = 0, t1 = 0;
			int st = SAN_OK, nlegal;
			bool played = false;

			switch (pass) {
			case PASS_PLAY_TEXT:
				t0 = now_ns();
				st = position_play_text(pos, text, SAN_ENGLISH, QUEEN, &m, san);
				t1 = now_ns();
				if (st != SAN_OK || m != want || strcmp(san, w->san[i]))
					refuse(w, i, "position_play_text", st);
				played = true;
				break;
			case PASS_SAN_PARSE:
				t0 = now_ns();
				st = san_parse(b, text, SAN_ENGLISH, QUEEN, &m);
				t1 = now_ns();
				if (st != SAN_OK || m != want)
					refuse(w, i, "san_parse", st);
				break;
			case PASS_PLAY_SAN:
				t0 = now_ns();
				position_play(pos, want, SAN_ENGLISH, san);
				t1 = now_ns();
				played = true;
				break;
			case PASS_PLAY_NO_SAN:
				t0 = now_ns();
				position_play(pos, want, SAN_ENGLISH, NULL);
				t1 = now_ns();
				played = true;
				break;
			case PASS_SAN_FORMAT:
				t0 = now_ns();
				san_format(b, want, SAN_ENGLISH, san);
				t1 = now_ns();
				break;
			case PASS_SAN_FORMAT_WITH:
				nlegal = movegen_legal(b, list);
				t0 = now_ns();
				san_format_with(b, list, nlegal, want, SAN_ENGLISH, san);
				t1 = now_ns();
				break;
			case PASS_MOVEGEN_LEGAL:
				t0 = now_ns();
				nlegal = movegen_legal(b, list);
				t1 = now_ns();
				break;
			case PASS_MOVEGEN_COUNT:
				t0 = now_ns();
				nlegal = movegen_count(b);
				t1 = now_ns();
				break;
			case PASS_BOARD_MAKE:
				copy = *b;
				t0 = now_ns();
				board_make(&copy, want);
				t1 = now_ns();
				break;
			case PASS_NAIVE:
				t0 = now_ns();
				st = naive_play_text(pos, text, &m, san);
				t1 = now_ns();
				if (st != SAN_OK || m != want || strcmp(san, w->san[i]))
					refuse(w, i, "naive validator", st);
				played = true;
				break;
			case PASS_NB:
				break;
			}
			ns[i] = t1 - t0;
			if (!played)
				position_play(pos, want, SAN_ENGLISH, NULL);
		}
		position_free(pos);
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Sorts ns in place; figures have the timer's own cost taken off. */
static struct stats stats_of(int64_t *ns, int n, double overhead_ns)
{
	struct stats s = { .count = n };
	double sum = 0;

	qsort(ns, (size_t)n, sizeof *ns, cmp_i64);
	for (int i = 0; i < n; i++)
		sum += (double)ns[i];
	s.median = (double)ns[n / 2] - overhead_ns;
	s.p90 = (double)ns[(int)((int64_t)n * 90 / 100)] - overhead_ns;
	s.p99 = (double)ns[(int)((int64_t)n * 99 / 100)] - overhead_ns;
	s.mean = sum / n - overhead_ns;
	return s;
}

/* The median cost of an empty pair of clock reads, as seen by run_pass. */
static double timer_overhead_ns(void)
{
	int64_t *ns = xmalloc(OVERHEAD_SAMPLES * sizeof *ns);

	for (int i = 0; i < OVERHEAD_SAMPLES; i++) {
		int64_t t0 = now_ns();
		int64_t t1 = now_ns();
		ns[i] = t1 - t0;
	}
	struct stats s = stats_of(ns, OVERHEAD_SAMPLES, 0);
	free(ns);
	return s.median;
}

/* Keeps the process on the CPU it started on, so no sample spans a migration. */
static int pin_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set) < 0 ? -1 : cpu;
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
	fprintf(stderr, "usage: bench-validate [--games N] [--plies N] [--seed N]\n");
	return 2;
}

int main(int argc, char **argv)
{
	long games = GAMES_DEFAULT, plies = PLIES_DEFAULT, seed = SEED_DEFAULT;
	struct workload w;
	struct stats st[PASS_NB];

	for (int i = 1; i < argc; i++) {
		bool ok = i + 1 < argc;
		if (ok && !strcmp(argv[i], "--games"))
			ok = parse_long(argv[++i], 1, 1000000, &games);
		else if (ok && !strcmp(argv[i], "--plies"))
			ok = parse_long(argv[++i], 1, 10000, &plies);
		else if (ok && !strcmp(argv[i], "--seed"))
			ok = parse_long(argv[++i], 0, 0x7fffffffL, &seed);
		else
			ok = false;
		if (!ok)
			return usage();
	}

	int cpu = pin_cpu();
	workload_build(&w, (int)games, (int)plies, (uint64_t)seed);
	int64_t *ns = xmalloc((size_t)w.nplies * sizeof *ns);
	double overhead = timer_overhead_ns();

	printf("workload: %d games of up to %ld plies, seed %#lx: %d plies (SAN %.1f%%, "
	    "SAN without +/# %.1f%%, coordinates %.1f%%)\n", w.ngames, plies, seed, w.nplies,
	    100.0 * w.forms[FORM_SAN] / w.nplies, 100.0 * w.forms[FORM_BARE] / w.nplies,
	    100.0 * w.forms[FORM_COORD] / w.nplies);
	printf("timer: clock_gettime(CLOCK_MONOTONIC) per call, empty pair %.0f ns "
	    "(median of %d), subtracted below; pinned to cpu %d\n", overhead, OVERHEAD_SAMPLES, cpu);

	/* A first pass whose figures are thrown away warms caches and branch predictors. */
	run_pass(&w, PASS_PLAY_TEXT, ns);
	for (int p = 0; p < PASS_NB; p++) {
		run_pass(&w, (enum pass)p, ns);
		st[p] = stats_of(ns, w.nplies, overhead);
	}

	printf("\n%-32s %8s %8s %8s %8s %8s\n", "ns per call", "count", "median", "p90", "p99",
	    "mean");
	for (int p = 0; p < PASS_NB; p++)
		printf("%-32s %8d %8.0f %8.0f %8.0f %8.1f\n", pass_names[p], st[p].count,
		    st[p].median, st[p].p90, st[p].p99, st[p].mean);

	double median = st[PASS_PLAY_TEXT].median;
	printf("\ntarget: median <= %d ns: median %.0f ns, ratio %.2f (%s)\n", TARGET_MEDIAN_NS,
	    median, median / TARGET_MEDIAN_NS, median <= TARGET_MEDIAN_NS ? "met" : "missed");
	printf("ours / naive reference, median: %.3f (%.0f ns vs %.0f ns, %.1fx faster)\n",
	    median / st[PASS_NAIVE].median, median, st[PASS_NAIVE].median,
	    st[PASS_NAIVE].median / median);

	free(ns);
	workload_free(&w);
	return 0;
}
