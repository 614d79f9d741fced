/*
 * trf-roundtrip: reads a TRF-16 report on stdin with trf_import(), checks
 * it with tourney_validate(), and writes it again with trf_export(), so a
 * test can compare the two texts.  The ranks are written with the
 * tie-breaks named (as "tourney show" heads its columns), none by default.
 *   trf-roundtrip [TIEBREAK...] < FILE
 * Exit 0 after writing, 1 when the text does not import or a tie-break is
 * unknown, 2 on a read error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trf.h"

int main(int argc, char **argv)
{
	enum tiebreak order[TIEBREAK_MAX];
	int norder = 0;

	for (int i = 1; i < argc; i++) {
		int tb = 0;
		while (tb < TIEBREAK_NB && strcmp(argv[i], tiebreak_name((enum tiebreak)tb)))
			tb++;
		if (tb == TIEBREAK_NB || norder == TIEBREAK_MAX - 1) {
			fprintf(stderr, "trf-roundtrip: %s: unknown tie-break, or too many\n", argv[i]);
			return 1;
		}
		order[norder++] = (enum tiebreak)tb;
	}
	size_t len = 0, cap = 1 << 16;
	char *text = malloc(cap), err[256];
	struct tourney *t = calloc(1, sizeof *t);

	if (!text || !t)
		return 2;
	for (size_t n; (n = fread(text + len, 1, cap - len, stdin)) > 0;) {
		len += n;
		if (len == cap && !(text = realloc(text, cap *= 2)))
			return 2;
	}
	if (ferror(stdin))
		return 2;
	if (trf_import(t, text, len, err, sizeof err) < 0 ||
	    tourney_validate(t, err, sizeof err) < 0) {
		fprintf(stderr, "trf-roundtrip: %s\n", err);
		return 1;
	}
	size_t out_len = trf_export(t, order, norder, NULL, 0);
	char *out = malloc(out_len + 1);
	if (!out)
		return 2;
	trf_export(t, order, norder, out, out_len + 1);
	fwrite(out, 1, out_len, stdout);
	free(out);
	free(text);
	free(t);
	return 0;
}
