/*
 * fen_parse on arbitrary bytes.  Whatever it accepts must format to a FEN
 * that parses again to the same text and key, with a usable board.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"

#define FUZZ_TEXT_MAX 512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[FUZZ_TEXT_MAX + 1], err[128], fen[FEN_MAX], again[FEN_MAX];
	struct board b, reparsed;
	move legal[MAX_MOVES];

	if (size > FUZZ_TEXT_MAX)
		size = FUZZ_TEXT_MAX;
	memcpy(text, data, size);
	text[size] = '\0';

	err[0] = '\0';
	if (fen_parse(&b, text, err, sizeof err) < 0) {
		if (err[0] == '\0')
			abort();	/* a rejection must say why */
		return 0;
	}
	fen_format(&b, fen);
	if (strlen(fen) >= FEN_MAX)
		abort();
	if (fen_parse(&reparsed, fen, err, sizeof err) < 0)
		abort();	/* our own output rejected */
	fen_format(&reparsed, again);
	if (strcmp(fen, again) != 0)
		abort();
	if (b.key != reparsed.key || b.key != board_compute_key(&b))
		abort();

	/* The board must be sound enough to generate and play moves on. */
	int n = movegen_legal(&b, legal);
	if (n != movegen_count(&b) || n > MAX_MOVES)
		abort();
	for (int i = 0; i < n; i++) {
		struct board child = b;
		board_make(&child, legal[i]);
		if (child.key != board_compute_key(&child))
			abort();
	}
	return 0;
}
