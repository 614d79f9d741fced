/*
 * bench-perft: our movegen_perft against Stockfish's "go perft", run side by
 * side on this machine, with the node counts checked against known values.
 *   bench-perft [--stockfish PATH] [--runs N]
 * Exit 0 when every count is right, 1 on a wrong count or a Stockfish
 * failure mid-run, 2 on bad arguments or when Stockfish cannot be started.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fen.h"
#include "movegen.h"

#define STOCKFISH_DEFAULT "/usr/games/stockfish"
#define RUNS_DEFAULT 3
#define RUNS_MAX 100
#define UCI_LINE_MAX 4096

struct perft_case {
	const char *name;
	const char *fen;
	int depth;
	uint64_t nodes;
};

static const struct perft_case cases[] = {
	{ "startpos", FEN_START, 6, 119060324 },
	{ "kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	    5, 193690690 },
};
#define NCASES (sizeof cases / sizeof cases[0])

/* A Stockfish child process spoken to in UCI over two pipes. */
struct engine {
	pid_t pid;
	FILE *in;		/* we write commands here */
	FILE *out;		/* and read its replies here */
	char name[128];		/* from "id name" */
	char build[128];	/* Stockfish's "Compilation settings" line, if it told */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int engine_send(struct engine *e, const char *line)
{
	if (fprintf(e->in, "%s\n", line) < 0 || fflush(e->in) == EOF)
		return -1;
	return 0;
}

/* Reads lines until one starts with prefix; the line is left in buf. */
static int engine_expect(struct engine *e, const char *prefix, char *buf, size_t len)
{
	size_t n = strlen(prefix);

	while (fgets(buf, (int)len, e->out)) {
		buf[strcspn(buf, "\r\n")] = '\0';
		if (!strncmp(buf, "id name ", 8) && !e->name[0])
			snprintf(e->name, sizeof e->name, "%s", buf + 8);
		if (!strncmp(buf, "Compilation settings include:", 29) && !e->build[0])
			snprintf(e->build, sizeof e->build, "%s", buf + 29 + strspn(buf + 29, " "));
		if (!strncmp(buf, prefix, n))
			return 0;
	}
	return -1;
}

/*
 * Starts the engine and waits until it is ready, so that its start-up (and
 * the set-up of its tables) is over before any timing begins.
 */
static int engine_start(struct engine *e, const char *path)
{
	int to_child[2], from_child[2];
	char line[UCI_LINE_MAX];

	memset(e, 0, sizeof *e);
	if (access(path, X_OK) < 0)
		return -1;
	if (pipe(to_child) < 0 || pipe(from_child) < 0)
		return -1;
	e->pid = fork();
	if (e->pid < 0)
		return -1;
	if (e->pid == 0) {
		dup2(to_child[0], STDIN_FILENO);
		dup2(from_child[1], STDOUT_FILENO);
		close(to_child[0]);
		close(to_child[1]);
		close(from_child[0]);
		close(from_child[1]);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(to_child[0]);
	close(from_child[1]);
	e->in = fdopen(to_child[1], "w");
	e->out = fdopen(from_child[0], "r");
	if (!e->in || !e->out)
		return -1;
	if (engine_send(e, "uci") < 0 || engine_expect(e, "uciok", line, sizeof line) < 0)
		return -1;
	/* "compiler" is Stockfish's own command; other engines just answer readyok. */
	if (engine_send(e, "setoption name Threads value 1") < 0 ||
	    engine_send(e, "compiler") < 0 ||
	    engine_send(e, "isready") < 0 || engine_expect(e, "readyok", line, sizeof line) < 0)
		return -1;
	return 0;
}

static void engine_stop(struct engine *e)
{
	if (e->in) {
		engine_send(e, "quit");
		fclose(e->in);
	}
	if (e->out)
		fclose(e->out);
	if (e->pid > 0)
		waitpid(e->pid, NULL, 0);
}

/*
 * One Stockfish perft.  The position is set and acknowledged first, so the
 * clock covers only "go perft" up to the "Nodes searched" line.
 */
static int engine_perft(struct engine *e, const struct perft_case *c, uint64_t *nodes,
    double *seconds)
{
	char line[UCI_LINE_MAX], cmd[256];

	snprintf(cmd, sizeof cmd, "position fen %s", c->fen);
	if (engine_send(e, cmd) < 0 || engine_send(e, "isready") < 0 ||
	    engine_expect(e, "readyok", line, sizeof line) < 0)
		return -1;
	snprintf(cmd, sizeof cmd, "go perft %d", c->depth);
	double start = now_s();
	if (engine_send(e, cmd) < 0 ||
	    engine_expect(e, "Nodes searched:", line, sizeof line) < 0)
		return -1;
	*seconds = now_s() - start;
	*nodes = strtoull(line + strlen("Nodes searched:"), NULL, 10);
	return 0;
}

static void ours_perft(const struct perft_case *c, uint64_t *nodes, double *seconds)
{
	struct board b;
	char err[128];

	if (fen_parse(&b, c->fen, err, sizeof err) < 0) {
		fprintf(stderr, "bench-perft: bad FEN for %s: %s\n", c->name, err);
		exit(1);
	}
	double start = now_s();
	*nodes = movegen_perft(&b, c->depth);
	*seconds = now_s() - start;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench-perft [--stockfish PATH] [--runs N]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *stockfish = STOCKFISH_DEFAULT;
	long runs = RUNS_DEFAULT;
	struct engine sf;
	double best_ours[NCASES], best_sf[NCASES];
	int status = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--stockfish") && i + 1 < argc) {
			stockfish = argv[++i];
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			char *end;
			errno = 0;
			runs = strtol(argv[++i], &end, 10);
			if (errno || *end || runs < 1 || runs > RUNS_MAX)
				return usage();
		} else {
			return usage();
		}
	}

	/* A dead engine must show up as a read error, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	if (engine_start(&sf, stockfish) < 0) {
		fprintf(stderr, "bench-perft: cannot run Stockfish at %s (install the Debian "
		    "\"stockfish\" package or pass --stockfish PATH)\n", stockfish);
		engine_stop(&sf);
		return 2;
	}
	printf("reference: %s (build: %s), Threads 1\n", sf.name[0] ? sf.name : "(unnamed engine)",
	    sf.build[0] ? sf.build : "not reported");
#ifdef ATTACKS_USE_PEXT
	printf("ours: PEXT slider attacks");
#else
	printf("ours: magic slider attacks");
#endif
	printf(", bulk-counted leaves; best of %ld runs each, alternating ours/stockfish\n", runs);

	for (size_t c = 0; c < NCASES; c++) {
		best_ours[c] = best_sf[c] = 1e300;
		for (long r = 0; r < runs; r++) {
			uint64_t nodes;
			double t;

			ours_perft(&cases[c], &nodes, &t);
			if (nodes != cases[c].nodes) {
				fprintf(stderr, "bench-perft: %s depth %d: ours counted %llu, expected %llu\n",
				    cases[c].name, cases[c].depth, (unsigned long long)nodes,
				    (unsigned long long)cases[c].nodes);
				status = 1;
			}
			if (t < best_ours[c])
				best_ours[c] = t;

			if (engine_perft(&sf, &cases[c], &nodes, &t) < 0) {
				fprintf(stderr, "bench-perft: Stockfish stopped answering\n");
				engine_stop(&sf);
				return 1;
			}
			if (nodes != cases[c].nodes) {
				fprintf(stderr, "bench-perft: %s depth %d: Stockfish counted %llu, expected %llu\n",
				    cases[c].name, cases[c].depth, (unsigned long long)nodes,
				    (unsigned long long)cases[c].nodes);
				status = 1;
			}
			if (t < best_sf[c])
				best_sf[c] = t;
		}
	}
	engine_stop(&sf);

	uint64_t total_nodes = 0;
	double total_ours = 0, total_sf = 0;
	printf("\n%-10s %5s %12s %10s %10s %8s\n", "position", "depth", "nodes", "ours Mnps",
	    "sf Mnps", "ours/sf");
	for (size_t c = 0; c < NCASES; c++) {
		double ours = (double)cases[c].nodes / best_ours[c] / 1e6;
		double ref = (double)cases[c].nodes / best_sf[c] / 1e6;
		printf("%-10s %5d %12llu %10.1f %10.1f %8.2f\n", cases[c].name, cases[c].depth,
		    (unsigned long long)cases[c].nodes, ours, ref, ours / ref);
		total_nodes += cases[c].nodes;
		total_ours += best_ours[c];
		total_sf += best_sf[c];
	}
	double ours = (double)total_nodes / total_ours / 1e6;
	double ref = (double)total_nodes / total_sf / 1e6;
	printf("%-10s %5s %12llu %10.1f %10.1f %8.2f\n", "combined", "",
	    (unsigned long long)total_nodes, ours, ref, ours / ref);
	printf("\ncombined ratio ours/stockfish: %.2f (%.3f s vs %.3f s for %llu nodes)%s\n",
	    ours / ref, total_ours, total_sf, (unsigned long long)total_nodes,
	    status ? "  [NODE COUNT MISMATCH]" : "");
	return status;
}
