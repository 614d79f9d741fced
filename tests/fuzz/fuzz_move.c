/*
 * san_parse on arbitrary move text.  The first byte picks a position and a
 * language, the second the promotion preference, the rest is the text.  An
 * accepted move must be legal, and its SAN and UCI must read back as it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "san.h"

#define FUZZ_TEXT_MAX 64

static const char *const fens[] = {
	FEN_START,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
	"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
	"4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
	"1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1",
	"1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1",
	"3r4/4Pk2/8/8/8/8/8/K7 w - - 0 1",
};
#define NFENS (sizeof fens / sizeof fens[0])

static const enum piece_type promotions[] = { NO_TYPE, KNIGHT, BISHOP, ROOK, QUEEN };

static struct board boards[NFENS];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[128];

	(void)argc;
	(void)argv;
	for (size_t i = 0; i < NFENS; i++)
		if (fen_parse(&boards[i], fens[i], err, sizeof err) < 0)
			abort();
	return 0;
}

/* text must read as exactly m on b. */
static void expect_reads_as(const struct board *b, const char *text, enum san_lang lang, move m)
{
	move back;

	if (san_parse(b, text, lang, NO_TYPE, &back) != SAN_OK || back != m)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[FUZZ_TEXT_MAX + 1], buf[MOVE_TEXT_MAX];
	move legal[MAX_MOVES], m;

	if (size < 2)
		return 0;
	const struct board *b = &boards[data[0] % NFENS];
	enum san_lang lang = (data[0] / NFENS) & 1 ? SAN_SPANISH : SAN_ENGLISH;
	enum piece_type promote = promotions[data[1] % 5];
	size -= 2;
	if (size > FUZZ_TEXT_MAX)
		size = FUZZ_TEXT_MAX;
	memcpy(text, data + 2, size);
	text[size] = '\0';

	enum san_status st = san_parse(b, text, lang, promote, &m);
	if (st != SAN_OK) {
		if ((st != SAN_ILLEGAL && st != SAN_AMBIGUOUS) || m != MOVE_NONE)
			abort();
		return 0;
	}
	int n = movegen_legal(b, legal), found = 0;
	for (int i = 0; i < n; i++)
		found += legal[i] == m;
	if (found != 1)
		abort();
	san_format(b, m, lang, buf);
	expect_reads_as(b, buf, lang, m);
	san_format(b, m, lang == SAN_ENGLISH ? SAN_SPANISH : SAN_ENGLISH, buf);
	expect_reads_as(b, buf, lang == SAN_ENGLISH ? SAN_SPANISH : SAN_ENGLISH, m);
	move_format_uci(m, buf);
	expect_reads_as(b, buf, lang, m);
	return 0;
}
