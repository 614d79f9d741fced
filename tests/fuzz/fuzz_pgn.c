/*
 * libFuzzer target for PGN import: every game that parses must export, and
 * the export must import again to the same text.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Export, import the export and export again: both texts must be equal. */
static void check_round_trip(const struct pgn_game *g)
{
	char *out = pgn_export(g), *again;
	struct pgn_game *back;
	size_t offset = 0;
	int line = 1;
	char err[256];

	if (!out)
		return;
	if (pgn_parse_next(out, strlen(out), &offset, &line, &back, err, sizeof err) != 1)
		__builtin_trap();
	again = pgn_export(back);
	if (again && strcmp(out, again))
		__builtin_trap();
	free(again);
	pgn_game_free(back);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	size_t offset = 0, before;
	int line = 1, r;
	struct pgn_game *g;
	char err[256];

	do {
		before = offset;
		r = pgn_parse_next(text, size, &offset, &line, &g, err, sizeof err);
		if (r == 1) {
			check_round_trip(g);
			pgn_game_free(g);
		} else if (r < 0 && (g || !memchr(err, '\0', sizeof err) || strncmp(err, "line ", 5))) {
			__builtin_trap();	/* an error must say where, and hand back no game */
		}
		if (r != 0 && offset <= before)
			__builtin_trap();	/* no progress: the caller would loop forever */
	} while (r != 0);
	return 0;
}
