/*
 * simulate-swiss: plays a whole random Swiss tournament paired by
 * pairing_dutch() and writes its TRF-16 report to stdout, for checking with
 * an independent pairing engine (tests/tools/check_dutch.sh).
 *   simulate-swiss [--players N] [--rounds N] [--seed N] [--plain]
 * Results are random with draws; unless --plain there are also forfeits,
 * requested half-point byes and withdrawals.  Exit 0 after writing, 1 when a
 * round cannot be paired or a check fails, 2 on bad arguments.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairing.h"
#include "trf.h"

static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int usage(void)
{
	fprintf(stderr, "usage: simulate-swiss [--players N] [--rounds N] [--seed N] [--plain]\n");
	return 2;
}

int main(int argc, char **argv)
{
	int nplayers = 30, nrounds = 7;
	uint64_t seed = 1;
	bool plain = false;
	struct tourney *t;
	struct tourney_round *round;
	char err[256];

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--plain") == 0)
			plain = true;
		else if (i + 1 < argc && strcmp(argv[i], "--players") == 0)
			nplayers = atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--rounds") == 0)
			nrounds = atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
			seed = strtoull(argv[++i], NULL, 10);
		else
			return usage();
	}
	if (nplayers < 2 || nplayers > TOURNEY_PLAYERS_MAX || nrounds < 1 ||
	    nrounds > TOURNEY_ROUNDS_MAX)
		return usage();
	t = calloc(1, sizeof *t);
	round = calloc(1, sizeof *round);
	if (!t || !round)
		return 1;
	tourney_init(t, "Simulated Swiss", nrounds);
	for (int p = 1; p <= nplayers; p++) {
		char name[32];
		snprintf(name, sizeof name, "Player %d", p);
		tourney_player_add(t, name, 2400 - p * 5);
	}
	for (int r = 1; r <= nrounds; r++) {
		if (!plain) {
			for (int p = 1; p <= nplayers; p++) {
				uint64_t x = rng_next(&seed) % 1000;
				if (r > 1 && r < nrounds && x < 8 && t->players[p].withdrawn_round == 0)
					t->players[p].withdrawn_round = r;
				else if (x >= 8 && x < 40)
					t->players[p].requested[r] = TOURNEY_BYE_HALF;
			}
		}
		if (pairing_dutch(t, r, round, err, sizeof err) < 0) {
			fprintf(stderr, "simulate-swiss: round %d: %s\n", r, err);
			return 1;
		}
		for (int i = 0; i < round->ngames; i++) {
			uint64_t x = rng_next(&seed) % 1000;
			enum tourney_result res = x < 380 ? TOURNEY_RESULT_WHITE_WINS :
			    x < 700 ? TOURNEY_RESULT_DRAW : TOURNEY_RESULT_BLACK_WINS;
			if (!plain && x % 50 == 0)
				res = TOURNEY_RESULT_WHITE_FORFEIT;
			else if (!plain && x % 50 == 1)
				res = TOURNEY_RESULT_BLACK_FORFEIT;
			else if (!plain && x == 998)
				res = TOURNEY_RESULT_DOUBLE_FORFEIT;
			round->games[i].result = res;
		}
		t->rounds[r] = *round;
		t->rounds_paired = r;
	}
	size_t len = trf_export(t, NULL, 0);
	char *text = malloc(len + 1);
	if (!text)
		return 1;
	trf_export(t, text, len + 1);
	fwrite(text, 1, len, stdout);
	free(text);
	free(round);
	free(t);
	return 0;
}
