/*
 * trf-roundtrip: reads a TRF-16 report on stdin with trf_import(), checks
 * it with tourney_validate(), and writes it again with trf_export(), so a
 * test can compare the two texts.
 *   trf-roundtrip < FILE
 * Exit 0 after writing, 1 when the text does not import, 2 on a read error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "trf.h"

int main(void)
{
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
	size_t out_len = trf_export(t, NULL, 0, NULL, 0);
	char *out = malloc(out_len + 1);
	if (!out)
		return 2;
	trf_export(t, NULL, 0, out, out_len + 1);
	fwrite(out, 1, out_len, stdout);
	free(out);
	free(text);
	free(t);
	return 0;
}
