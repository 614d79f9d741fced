/*
 * pair-trf: reads a TRF-16 report on stdin and pairs its next round with
 * pairing_dutch(), printing the pairs as `bbpPairings --dutch FILE -p`
 * does (the number of pairs, then "white black" per board, "player 0" for
 * the pairing-allocated bye), so the two can be compared with diff.  An
 * absence ('0000 - -') in the round to pair counts as a withdrawal.
 *   pair-trf < FILE
 * Exit 0 after writing, 1 when the text does not import or the round
 * cannot be paired, 2 on a read error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairing.h"
#include "trf.h"

/* Marks players with an absence entry in round r of the 001 lines as withdrawn. */
static void mark_absences(struct tourney *t, const char *text, size_t len, int r)
{
	size_t col = 91 + 10 * (size_t)(r - 1);

	for (size_t at = 0; at < len;) {
		const char *line = text + at, *end = memchr(line, '\n', len - at);
		size_t n = end ? (size_t)(end - line) : len - at;
		int p = n > 8 && memcmp(line, "001", 3) == 0 ? atoi(line + 4) : 0;
		if (p >= 1 && p <= t->nplayers && n > col + 7 &&
		    memcmp(line + col, "0000 - -", 8) == 0)
			t->players[p].withdrawn_round = r;
		at += n + 1;
	}
}

int main(void)
{
	size_t len = 0, cap = 1 << 16;
	char *text = malloc(cap), err[256];
	struct tourney *t = calloc(1, sizeof *t);
	struct tourney_round *rd = calloc(1, sizeof *rd);

	if (!text || !t || !rd)
		return 2;
	for (size_t n; (n = fread(text + len, 1, cap - len, stdin)) > 0;) {
		len += n;
		if (len == cap && !(text = realloc(text, cap *= 2)))
			return 2;
	}
	if (ferror(stdin))
		return 2;
	int rc = trf_import(t, text, len, err, sizeof err);
	if (rc == 0) {
		int r = t->rounds_paired;
		/* A last round of only requested byes and absences is still to pair. */
		bool open = r > 0 && t->rounds[r].ngames == 0;
		for (int i = 0; open && i < t->rounds[r].nbyes; i++)
			open = t->rounds[r].byes[i].kind != TOURNEY_BYE_PAIRING;
		if (open) {
			for (int i = 0; i < t->rounds[r].nbyes; i++)
				t->players[t->rounds[r].byes[i].player].requested[r] =
				    t->rounds[r].byes[i].kind;
			memset(&t->rounds[r], 0, sizeof t->rounds[r]);
			t->rounds_paired--;
		}
		mark_absences(t, text, len, t->rounds_paired + 1);
		rc = pairing_dutch(t, t->rounds_paired + 1, rd, err, sizeof err);
	}
	if (rc < 0) {
		fprintf(stderr, "pair-trf: %s\n", err);
		return 1;
	}
	int npairs = rd->ngames;
	for (int i = 0; i < rd->nbyes; i++)
		npairs += rd->byes[i].kind == TOURNEY_BYE_PAIRING;
	printf("%d\n", npairs);
	for (int i = 0; i < rd->ngames; i++)
		printf("%d %d\n", rd->games[i].white, rd->games[i].black);
	for (int i = 0; i < rd->nbyes; i++)
		if (rd->byes[i].kind == TOURNEY_BYE_PAIRING)
			printf("%d 0\n", rd->byes[i].player);
	free(rd);
	free(text);
	free(t);
	return 0;
}
