/*
 * bench-pairing: the time pairing_dutch() takes for one round of a large
 * Swiss event, after several rounds of random results.
 *   bench-pairing [--players N] [--rounds N] [--seed N]
 * Prints each round's time; the target is under a second for 500 players.
 * Exit 0 after printing, 1 when a round cannot be paired, 2 on bad arguments.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pairing.h"

static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int nplayers = 500, nrounds = 9;
	uint64_t seed = 2024;
	struct tourney *t = calloc(1, sizeof *t);
	struct tourney_round *rd = calloc(1, sizeof *rd);
	char err[256];
	double worst = 0;

	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--players") == 0)
			nplayers = atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--rounds") == 0)
			nrounds = atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
			seed = strtoull(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: bench-pairing [--players N] [--rounds N] [--seed N]\n");
			return 2;
		}
	}
	if (!t || !rd || nplayers < 2 || nplayers > TOURNEY_PLAYERS_MAX || nrounds < 1 ||
	    nrounds > TOURNEY_ROUNDS_MAX)
		return 2;
	tourney_init(t, "bench", nrounds);
	for (int p = 1; p <= nplayers; p++)
		tourney_player_add(t, "Player", 2800 - p);
	printf("bench-pairing: %d players, %d rounds (Dutch, weighted matching)\n", nplayers,
	    nrounds);
	for (int r = 1; r <= nrounds; r++) {
		double start = now_s(), took;
		if (pairing_dutch(t, r, rd, err, sizeof err) < 0) {
			fprintf(stderr, "bench-pairing: round %d: %s\n", r, err);
			return 1;
		}
		took = now_s() - start;
		if (took > worst)
			worst = took;
		printf("  round %2d: %4d games, %8.1f ms\n", r, rd->ngames, took * 1e3);
		for (int i = 0; i < rd->ngames; i++) {
			uint64_t x = rng_next(&seed) % 100;
			rd->games[i].result = x < 38 ? TOURNEY_RESULT_WHITE_WINS :
			    x < 70 ? TOURNEY_RESULT_DRAW : TOURNEY_RESULT_BLACK_WINS;
		}
		t->rounds[r] = *rd;
		t->rounds_paired = r;
	}
	printf("slowest round: %.1f ms (target: under 1000 ms for 500 players)\n", worst * 1e3);
	free(rd);
	free(t);
	return 0;
}
