/*
 * Black-box tests of the chess-rules program: what it prints on stdout and
 * stderr and how it exits, run as a user would run it.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fen.h"
#include "move.h"
#include "movegen.h"

#ifndef CHESS_BIN_DIR
#error "CHESS_BIN_DIR must name the directory holding chess-rules"
#endif
#define CHESS_RULES CHESS_BIN_DIR "/chess-rules"

#define OUTPUT_MAX 65536

extern char **environ;

struct run {
	int exit_code;		/* -1 when killed by a signal */
	char out[OUTPUT_MAX];
	char err[OUTPUT_MAX];
};

static void read_all(FILE *f, char *buf, size_t cap)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* Runs chess-rules with the NULL-terminated args, capturing both streams and the exit code. */
static struct run *run_argv(const char *const *args)
{
	const char *argv[64];
	int argc = 0;
	struct run *r = calloc(1, sizeof *r);
	FILE *out = tmpfile(), *err = tmpfile();
	posix_spawn_file_actions_t actions;
	pid_t pid;
	int status;

	assert_non_null(r);
	assert_non_null(out);
	assert_non_null(err);
	argv[argc++] = CHESS_RULES;
	for (; args[argc - 1]; argc++) {
		assert_true(argc < 63);
		argv[argc] = args[argc - 1];
	}
	argv[argc] = NULL;

	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&actions, fileno(out), 1);
	posix_spawn_file_actions_adddup2(&actions, fileno(err), 2);
	int rc = posix_spawn(&pid, CHESS_RULES, &actions, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	if (rc != 0)
		fail_msg("cannot run %s: %s", CHESS_RULES, strerror(rc));
	while (waitpid(pid, &status, 0) < 0)
		assert_int_equal(errno, EINTR);
	r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	read_all(out, r->out, sizeof r->out);
	read_all(err, r->err, sizeof r->err);
	return r;
}

#define RUN(...) run_argv((const char *const[]){ __VA_ARGS__, NULL })

/* Exit code, stdout and stderr all exactly as given. */
static void expect_run(struct run *r, int exit_code, const char *out, const char *err)
{
	if (r->exit_code != exit_code)
		fail_msg("exit %d, expected %d; stdout \"%s\" stderr \"%s\"", r->exit_code,
		    exit_code, r->out, r->err);
	assert_string_equal(r->out, out);
	assert_string_equal(r->err, err);
	free(r);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Exit 2, nothing on stdout, one line on stderr (containing `mentions` if given). */
static void expect_usage_error(struct run *r, const char *mentions)
{
	if (r->exit_code != 2)
		fail_msg("exit %d, expected 2; stdout \"%s\" stderr \"%s\"", r->exit_code, r->out,
		    r->err);
	assert_string_equal(r->out, "");
	assert_int_equal(count_lines(r->err), 1);
	assert_true(strlen(r->err) > 1);
	assert_int_equal(r->err[strlen(r->err) - 1], '\n');
	if (mentions && !strstr(r->err, mentions))
		fail_msg("stderr \"%s\" does not mention \"%s\"", r->err, mentions);
	free(r);
}

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#define PROMOS "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"

static void test_perft(void **state)
{
	(void)state;
	expect_run(RUN("perft", FEN_START, "3"), 0, "8902\n", "");
	expect_run(RUN("perft", FEN_START, "0"), 0, "1\n", "");
	expect_run(RUN("perft", KIWIPETE, "2"), 0, "2039\n", "");
	expect_run(RUN("perft", PROMOS, "3"), 0, "9483\n", "");
	expect_run(RUN("perft", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "1"),
	    0, "0\n", "");
}

/* Checks --divide output: one "uci: n" line per legal move, a blank line, the total. */
static void check_divide(const char *fen, const char *depth, int moves, unsigned long long total,
    const char *must_list)
{
	struct run *r = RUN("perft", fen, depth, "--divide");
	char seen[MAX_MOVES][8];
	int lines = 0, used = 0;
	unsigned long long sum = 0, last = 0;
	bool listed = false;

	if (r->exit_code != 0)
		fail_msg("exit %d: %s", r->exit_code, r->err);
	assert_string_equal(r->err, "");
	char *sep = strstr(r->out, "\n\n");
	if (!sep)
		fail_msg("no blank line before the total in \"%s\"", r->out);
	/* After the blank line: the total alone, then the end. */
	assert_int_equal(sscanf(sep + 2, "%llu\n%n", &last, &used), 1);
	assert_true(used > 0);
	assert_string_equal(sep + 2 + used, "");
	sep[1] = '\0';
	for (char *line = r->out, *nl; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
		char uci[8];
		unsigned long long n;
		*nl = '\0';
		if (sscanf(line, "%7[a-h1-8qrbn]: %llu%n", uci, &n, &used) != 2 || line[used])
			fail_msg("bad divide line \"%s\"", line);
		for (int i = 0; i < lines; i++)
			if (!strcmp(seen[i], uci))
				fail_msg("%s listed twice", uci);
		assert_true(lines < MAX_MOVES);
		strcpy(seen[lines++], uci);
		listed |= must_list && !strcmp(uci, must_list);
		sum += n;
	}
	assert_int_equal(lines, moves);
	assert_int_equal(sum, last);
	assert_int_equal(last, total);
	if (must_list && !listed)
		fail_msg("%s not listed", must_list);
	free(r);
}

static void test_perft_divide(void **state)
{
	(void)state;
	check_divide(FEN_START, "1", 20, 20, "g1f3");
	check_divide(FEN_START, "3", 20, 8902, "e2e4");
	check_divide(KIWIPETE, "3", 48, 97862, "e1c1");
	check_divide(PROMOS, "2", 24, 496, "g2g1q");

	/* The exact layout for a small case. */
	expect_run(RUN("perft", "k7/8/8/8/8/8/8/7K w - - 0 1", "1", "--divide"), 0,
	    "h1g1: 1\nh1g2: 1\nh1h2: 1\n\n3\n", "");
}

static void test_san(void **state)
{
	(void)state;
	expect_run(RUN("san", FEN_START, "e4", "e5", "Nf3"), 0, "e4\ne5\nNf3\n", "");
	expect_run(RUN("san", FEN_START, "e2e4", "e7-e5", "g1f3", "b8c6", "f1b5"), 0,
	    "e4\ne5\nNf3\nNc6\nBb5\n", "");
	expect_run(RUN("san", FEN_START, "f3", "e5", "g4", "Qh4"), 0, "f3\ne5\ng4\nQh4#\n", "");
	expect_run(RUN("san", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "o-o-o"), 0,
	    "O-O\nO-O-O\n", "");
	expect_run(RUN("san", FEN_START), 0, "", "");
	/* The first rejected move ends the run. */
	expect_run(RUN("san", FEN_START, "e4", "e4", "d4"), 1, "e4\nillegal e4\n", "");
	expect_run(RUN("san", FEN_START, "Nxf3"), 1, "illegal Nxf3\n", "");
	expect_run(RUN("san", "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "Nd7"), 1, "ambiguous Nd7\n",
	    "");
	expect_run(RUN("san", "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "Nfd7", "Kd2", "Nf6", "Ke1", "Nd7"),
	    1, "Nfd7\nKd2\nNf6\nKe1\nambiguous Nd7\n", "");
	expect_run(RUN("san", "7k/4P3/8/8/8/8/8/K7 w - - 0 1", "e8"), 1, "ambiguous e8\n", "");
	/* No move after the game ended. */
	expect_run(RUN("san", FEN_START, "f3", "e5", "g4", "Qh4", "a3"), 1,
	    "f3\ne5\ng4\nQh4#\nillegal a3\n", "");
	expect_run(RUN("san", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Kh7"), 1, "illegal Kh7\n", "");
}

static void test_san_spanish(void **state)
{
	(void)state;
	expect_run(RUN("san", "--lang", "es", FEN_START, "Cf3", "Cf6", "e4", "e6", "Ab5", "Ab4",
	    "Re2", "Dxd2+"), 1, "Cf3\nCf6\ne4\ne6\nAb5\nAb4\nRe2\nillegal Dxd2+\n", "");
	expect_run(RUN("san", "--lang", "es", FEN_START, "Cf3", "d5", "Cd4", "Dd6", "Cb5", "Dxh2"),
	    0, "Cf3\nd5\nCd4\nDd6\nCb5\nDxh2\n", "");
	/* --lang may also follow the FEN. */
	expect_run(RUN("san", FEN_START, "--lang", "es", "g1f3"), 0, "Cf3\n", "");
	expect_run(RUN("san", "--lang", "en", FEN_START, "Nf3"), 0, "Nf3\n", "");
	expect_run(RUN("san", "--lang", "es", FEN_START, "Nf3"), 1, "illegal Nf3\n", "");
	expect_run(RUN("san", "--lang", "es", "7k/4P3/8/8/8/8/8/K7 w - - 0 1", "e8=D"), 0,
	    "e8=D+\n", "");
	expect_usage_error(RUN("san", "--lang", "fr", FEN_START, "e4"), NULL);
	expect_usage_error(RUN("san", "--lang"), NULL);
}

#define STATUS(fen, result, termination, claimable) \
	"fen: " fen "\nresult: " result "\ntermination: " termination "\nclaimable: " claimable "\n"
/* A game still going also says what each side's flag fall would give (6.9). */
#define STATUS_LIVE(fen, claimable, white_flags, black_flags) \
	STATUS(fen, "*", "none", claimable) "white-flags: " white_flags "\nblack-flags: " \
	black_flags "\n"

static void test_status(void **state)
{
	(void)state;
	expect_run(RUN("status", FEN_START), 0, STATUS_LIVE(FEN_START, "none", "0-1", "1-0"), "");
	/* An EPD-style FEN comes back with its clocks. */
	expect_run(RUN("status", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"), 0,
	    STATUS_LIVE(FEN_START, "none", "0-1", "1-0"), "");
	expect_run(RUN("status", FEN_START, "f3", "e5", "g4", "Qh4#"), 0,
	    STATUS("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "0-1",
	    "checkmate", "none"), "");
	expect_run(RUN("status", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
	    "Qxf7"), 0,
	    STATUS("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4", "1-0",
	    "checkmate", "none"), "");
	expect_run(RUN("status", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), 0,
	    STATUS("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "1/2-1/2", "stalemate", "none"), "");
	expect_run(RUN("status", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "Qf7"), 0,
	    STATUS("7k/5Q2/6K1/8/8/8/8/8 b - - 1 1", "1/2-1/2", "stalemate", "none"), "");
	expect_run(RUN("status", FEN_START, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"),
	    0, STATUS_LIVE("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5",
	    "threefold-repetition", "0-1", "1-0"), "");
	expect_run(RUN("status", FEN_START, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8",
	    "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"), 0,
	    STATUS("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 16 9", "1/2-1/2",
	    "fivefold-repetition", "none"), "");
	expect_run(RUN("status", "6k1/5ppp/8/8/8/8/8/3R2K1 w - - 99 80", "Rc1", "Kf8", "Rd1", "Kg8",
	    "Rc1", "Kf8", "Rd1", "Kg8"), 0,
	    STATUS_LIVE("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 107 84",
	    "threefold-repetition fifty-move-rule", "0-1", "1-0"), "");
	expect_run(RUN("status", "6k1/5ppp/8/8/8/8/8/3R2K1 w - - 99 80", "Rc1"), 0,
	    STATUS_LIVE("6k1/5ppp/8/8/8/8/8/2R3K1 b - - 100 80", "fifty-move-rule", "0-1", "1-0"), "");
	expect_run(RUN("status", "8/8/4k3/8/8/4K3/4P3/8 w - - 149 200", "Kd3"), 0,
	    STATUS("8/8/4k3/8/8/3K4/4P3/8 b - - 150 200", "1/2-1/2", "seventy-five-move-rule",
	    "none"), "");
	expect_run(RUN("status", "8/8/4k3/8/8/4K3/8/8 w - - 0 1"), 0,
	    STATUS("8/8/4k3/8/8/4K3/8/8 w - - 0 1", "1/2-1/2", "dead-position", "none"), "");
	/* 6.9 beyond material: the knight mates with the pawn's help, the pawn side promotes;
	 * a lone king next to a queen can never mate. */
	expect_run(RUN("status", "8/8/4k3/4p3/8/4K3/8/1N6 w - - 0 1"), 0,
	    STATUS_LIVE("8/8/4k3/4p3/8/4K3/8/1N6 w - - 0 1", "none", "0-1", "1-0"), "");
	expect_run(RUN("status", "8/8/4k3/8/3q4/8/4K3/8 w - - 0 1"), 0,
	    STATUS_LIVE("8/8/4k3/8/3q4/8/4K3/8 w - - 0 1", "none", "0-1", "1/2-1/2"), "");
	/* A rejected move: only the rejection, exit 1. */
	expect_run(RUN("status", FEN_START, "e4", "Qh5"), 1, "illegal Qh5\n", "");
}

/* The line (UCI moves, one space apart) is legal from fen and mates winner's opponent. */
static void expect_mating_line(const char *fen, enum color winner, const char *line)
{
	char err[128], copy[OUTPUT_MAX], *save = NULL;
	struct board b;

	assert_int_equal(fen_parse(&b, fen, err, sizeof err), 0);
	snprintf(copy, sizeof copy, "%s", line);
	for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		move legal[MAX_MOVES];
		int n = movegen_legal(&b, legal), k = 0;
		char uci[MOVE_TEXT_MAX];
		for (; k < n; k++) {
			move_format_uci(legal[k], uci);
			if (!strcmp(uci, tok))
				break;
		}
		if (k == n)
			fail_msg("%s: %s is not legal", fen, tok);
		board_make(&b, legal[k]);
	}
	if (movegen_count(&b) != 0 || !board_in_check(&b) || b.side == winner)
		fail_msg("%s: the line does not mate", fen);
}

/* "winnable" and a line that mates, or "unwinnable" alone. */
static void expect_unwinnable_run(const char *fen, const char *side, enum color winner,
    bool winnable)
{
	struct run *r = side ? RUN("unwinnable", fen, side) : RUN("unwinnable", fen);

	if (r->exit_code != 0 || r->err[0])
		fail_msg("exit %d, stderr \"%s\"", r->exit_code, r->err);
	if (!winnable) {
		assert_string_equal(r->out, "unwinnable\n");
	} else {
		assert_int_equal(strncmp(r->out, "winnable\n", 9), 0);
		assert_int_equal(count_lines(r->out), 2);
		r->out[strlen(r->out) - 1] = '\0';
		expect_mating_line(fen, winner, r->out + 9);
	}
	free(r);
}

static void test_unwinnable(void **state)
{
	(void)state;
	/* The README's example: the pawn promotes to a knight that blocks its king. */
	expect_unwinnable_run("8/8/4k3/4p3/8/4K3/8/1N6 w - - 0 1", "white", WHITE, true);
	/* The side to move by default. */
	expect_unwinnable_run("8/8/4k3/4p3/8/4K3/8/1N6 w - - 0 1", NULL, WHITE, true);
	expect_unwinnable_run("8/8/4k3/8/8/4K3/8/8 w - - 0 1", "black", BLACK, false);
	/* A bishop given to a pawn, which promotes: 12 plies in CHA's line. */
	expect_unwinnable_run("1b1k4/p1p1p1p1/P1P1P1P1/p1p1pBp1/8/8/P1P1P1P1/3K4 w - - 0 1",
	    "black", BLACK, true);
	/* The queen must be taken, and what is left is a wall. */
	expect_unwinnable_run("k7/Q6r/2b5/1pBp1p1p/1P1P1P1P/KP6/1P6/8 b - - 0 1", "white", WHITE,
	    false);
	expect_usage_error(RUN("unwinnable"), NULL);
	expect_usage_error(RUN("unwinnable", "8/8/4k3/8/8/4K3/8/8 w - - 0 1", "purple"),
	    "invalid side");
	expect_usage_error(RUN("unwinnable", "8/8/8/8/8/4K3/8/8 w - - 0 1"), "no black king");
	expect_usage_error(RUN("unwinnable", "8/8/4k3/8/8/4K3/8/8 w - - 0 1", "white", "x"), NULL);
}

static void test_bad_arguments(void **state)
{
	(void)state;
	static const char *const bad_depths[] = { "abc", "-1", "13", "", "3x",
	    "99999999999999999999" };

	expect_usage_error(run_argv((const char *const[]){ NULL }), NULL);
	expect_usage_error(RUN("frobnicate"), NULL);
	expect_usage_error(RUN("perft"), NULL);
	expect_usage_error(RUN("perft", FEN_START), NULL);
	expect_usage_error(RUN("perft", FEN_START, "2", "--divide", "extra"), NULL);
	expect_usage_error(RUN("perft", FEN_START, "2", "--Divide"), NULL);
	expect_usage_error(RUN("san"), NULL);
	expect_usage_error(RUN("status"), NULL);
	for (size_t i = 0; i < sizeof bad_depths / sizeof bad_depths[0]; i++)
		expect_usage_error(RUN("perft", FEN_START, bad_depths[i]), NULL);

	/* Invalid FENs name the fault. */
	expect_usage_error(RUN("perft", "8/8/8/8/8/8/8/4K3 w - - 0 1", "1"), "no black king");
	expect_usage_error(RUN("perft", "not a fen", "1"), NULL);
	expect_usage_error(RUN("san", "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "Kd2"),
	    "castling right K without a rook on h1");
	expect_usage_error(RUN("status", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1"),
	    "rank 1 has 9 squares");
	expect_usage_error(RUN("status", ""), "empty FEN");
	/* The FEN is checked even with moves that would be rejected. */
	expect_usage_error(RUN("san", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "xyz"),
	    "side not to move is in check");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perft),
		cmocka_unit_test(test_perft_divide),
		cmocka_unit_test(test_san),
		cmocka_unit_test(test_san_spanish),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_unwinnable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
