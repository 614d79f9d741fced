/*
 * chess-rules: the rules core on the command line, for users and for tests.
 *   chess-rules perft FEN DEPTH [--divide]
 *   chess-rules san [--lang es] FEN MOVE...
 *   chess-rules status FEN [MOVE...]
 *   chess-rules pgn [FILE]
 *   chess-rules unwinnable FEN [white|black]
 * Bad arguments or FEN: one line on stderr, exit 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "pgn.h"
#include "position.h"
#include "unwinnable.h"

#define PERFT_MAX_DEPTH 12

static int usage(void)
{
	fprintf(stderr, "usage: chess-rules perft FEN DEPTH [--divide] | san [--lang en|es] FEN MOVE... |"
	    " status FEN [MOVE...] | pgn [FILE] | unwinnable FEN [white|black]\n");
	return 2;
}

static int bad(const char *what, const char *detail)
{
	fprintf(stderr, "chess-rules: %s: %s\n", what, detail);
	return 2;
}

static int cmd_perft(int argc, char **argv)
{
	struct board b;
	char err[128], *end;
	bool divide = false;

	if (argc == 4 && !strcmp(argv[3], "--divide"))
		divide = true;
	else if (argc != 3)
		return usage();
	if (fen_parse(&b, argv[1], err, sizeof err) < 0)
		return bad("invalid FEN", err);
	errno = 0;
	long depth = strtol(argv[2], &end, 10);
	if (errno || *end || end == argv[2] || depth < 0 || depth > PERFT_MAX_DEPTH)
		return bad("invalid depth", "expected a number from 0 to 12");

	uint64_t total = 0;
	if (divide && depth > 0) {
		move list[MAX_MOVES];
		int n = movegen_legal(&b, list);
		for (int i = 0; i < n; i++) {
			struct board child = b;
			char uci[MOVE_TEXT_MAX];
			board_make(&child, list[i]);
			uint64_t nodes = movegen_perft(&child, (int)depth - 1);
			move_format_uci(list[i], uci);
			printf("%s: %llu\n", uci, (unsigned long long)nodes);
			total += nodes;
		}
		printf("\n");
	} else {
		total = movegen_perft(&b, (int)depth);
	}
	printf("%llu\n", (unsigned long long)total);
	return 0;
}

/* Reads "--lang xx" at argv[*i], if present. */
static int parse_lang(int argc, char **argv, int *i, enum san_lang *lang)
{
	if (*i < argc && !strcmp(argv[*i], "--lang")) {
		if (*i + 1 >= argc)
			return -1;
		if (!strcmp(argv[*i + 1], "es"))
			*lang = SAN_SPANISH;
		else if (!strcmp(argv[*i + 1], "en"))
			*lang = SAN_ENGLISH;
		else
			return -1;
		*i += 2;
	}
	return 0;
}

/*
 * Plays argv[first..] on pos.  For san, prints each move's SAN; the first
 * rejected move is reported as "illegal X" or "ambiguous X" and ends the run.
 */
static int play_moves(struct position *pos, int argc, char **argv, int first,
    enum san_lang lang, bool print)
{
	for (int i = first; i < argc; i++) {
		char san[MOVE_TEXT_MAX];
		enum san_status st;

		if (position_termination(pos) != TERM_NONE)
			st = SAN_ILLEGAL;	/* the game is over: no move is legal */
		else
			st = position_play_text(pos, argv[i], lang, NO_TYPE, NULL, san);
		if (st != SAN_OK) {
			printf("%s %s\n", st == SAN_AMBIGUOUS ? "ambiguous" : "illegal", argv[i]);
			return 1;
		}
		if (print)
			printf("%s\n", san);
	}
	return 0;
}

static int cmd_san(int argc, char **argv)
{
	enum san_lang lang = SAN_ENGLISH;
	int i = 1;
	char err[128];

	if (parse_lang(argc, argv, &i, &lang) < 0 || i >= argc)
		return usage();
	const char *fen = argv[i++];
	if (parse_lang(argc, argv, &i, &lang) < 0)
		return usage();
	struct position *pos = position_new(fen, err, sizeof err);
	if (!pos)
		return bad("invalid FEN", err);
	int rc = play_moves(pos, argc, argv, i, lang, true);
	position_free(pos);
	return rc;
}

static int cmd_status(int argc, char **argv)
{
	char err[128], fen[FEN_MAX];

	if (argc < 2)
		return usage();
	struct position *pos = position_new(argv[1], err, sizeof err);
	if (!pos)
		return bad("invalid FEN", err);
	int rc = play_moves(pos, argc, argv, 2, SAN_ENGLISH, false);
	if (rc == 0) {
		unsigned claims = position_claimable(pos);
		fen_format(position_board(pos), fen);
		printf("fen: %s\n", fen);
		printf("result: %s\n", result_text(position_result(pos)));
		printf("termination: %s\n", termination_name(position_termination(pos)));
		printf("claimable:%s%s%s\n", claims & CLAIM_THREEFOLD ? " threefold-repetition" : "",
		    claims & CLAIM_FIFTY_MOVES ? " fifty-move-rule" : "", claims ? "" : " none");
		if (position_termination(pos) == TERM_NONE) {
			/* What a flag fall would give now, each side's flag in turn (6.9). */
			printf("white-flags: %s\n", result_text(position_flag_result(pos, WHITE)));
			printf("black-flags: %s\n", result_text(position_flag_result(pos, BLACK)));
		}
	}
	position_free(pos);
	return rc;
}

/* Reads all of in into a NUL-terminated malloc'd buffer. */
static char *slurp(FILE *in, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap), *grown;

	while (buf && (got = fread(buf + n, 1, cap - n - 1, in)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			if (!(grown = realloc(buf, cap * 2))) {
				free(buf);
				return NULL;
			}
			buf = grown;
			cap *= 2;
		}
	}
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/* Validates each game and writes it back in export format; exit 1 if any was bad. */
static int cmd_pgn(int argc, char **argv)
{
	FILE *in = stdin;
	size_t len, offset = 0;
	int line = 1, rc = 0, r;
	struct pgn_game *g;
	char err[256];

	if (argc > 2)
		return usage();
	if (argc == 2 && strcmp(argv[1], "-") && !(in = fopen(argv[1], "r")))
		return bad(argv[1], strerror(errno));
	char *text = slurp(in, &len);
	if (in != stdin)
		fclose(in);
	if (!text)
		return bad("pgn", "out of memory");
	while ((r = pgn_parse_next(text, len, &offset, &line, &g, err, sizeof err)) != 0) {
		if (r < 0) {
			fprintf(stderr, "chess-rules: pgn: %s\n", err);
			rc = 1;
			continue;
		}
		char *out = pgn_export(g);
		if (out)
			printf("%s\n", out);
		free(out);
		pgn_game_free(g);
	}
	free(text);
	return rc;
}

/*
 * Whether a side (default: the side to move) can still mate: the verdict,
 * then for "winnable" the helpmate line in UCI on one line.
 */
static int cmd_unwinnable(int argc, char **argv)
{
	struct board b;
	struct helpmate line;
	char err[128];

	if (argc < 2 || argc > 3)
		return usage();
	if (fen_parse(&b, argv[1], err, sizeof err) < 0)
		return bad("invalid FEN", err);
	enum color side = (enum color)b.side;
	if (argc == 3) {
		if (!strcmp(argv[2], "white"))
			side = WHITE;
		else if (!strcmp(argv[2], "black"))
			side = BLACK;
		else
			return bad("invalid side", "expected white or black");
	}
	enum unwinnable_verdict v = unwinnable_decide(&b, side, UNWINNABLE_FLAG_NODES, &line);
	printf("%s\n", unwinnable_verdict_name(v));
	if (v == UNWINNABLE_WINNABLE) {
		for (int i = 0; i < line.nplies; i++) {
			char uci[MOVE_TEXT_MAX];
			move_format_uci(line.moves[i], uci);
			printf("%s%s", i ? " " : "", uci);
		}
		printf("\n");
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "perft"))
		return cmd_perft(argc - 1, argv + 1);
	if (!strcmp(argv[1], "san"))
		return cmd_san(argc - 1, argv + 1);
	if (!strcmp(argv[1], "status"))
		return cmd_status(argc - 1, argv + 1);
	if (!strcmp(argv[1], "pgn"))
		return cmd_pgn(argc - 1, argv + 1);
	if (!strcmp(argv[1], "unwinnable"))
		return cmd_unwinnable(argc - 1, argv + 1);
	return usage();
}
