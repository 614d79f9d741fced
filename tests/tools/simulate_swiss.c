/*
 * simulate-swiss: plays a whole random Swiss tournament paired by
 * pairing_dutch() and writes its TRF-16 report to stdout, for checking with
 * an independent pairing engine (tests/tools/check_dutch.sh).
 *   simulate-swiss [--players N] [--rounds N] [--seed N] [--plain | --mixed]
 * Results are random with draws; unless --plain there are also forfeits,
 * requested half-point byes and withdrawals.  --mixed adds zero- and
 * full-point requested byes, late entries (byes in the first rounds),
 * double forfeits, more forfeits, for odd seeds a half-point
 * pairing-allocated bye and for half the seeds black on board 1.
 * Exit 0 after writing, 2 on bad arguments, 1 on other failures, and 3
 * when a round cannot be paired: the report then holds the rounds paired
 * so far and the next round's absences, for a checker to confirm.
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
	bool plain = false, mixed = false;
	struct tourney *t;
	struct tourney_round *round;
	char err[256];
	int status = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--plain") == 0)
			plain = true;
		else if (strcmp(argv[i], "--mixed") == 0)
			mixed = true;
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
	    nrounds > TOURNEY_ROUNDS_MAX || (plain && mixed))
		return usage();
	t = calloc(1, sizeof *t);
	round = calloc(1, sizeof *round);
	if (!t || !round)
		return 1;
	tourney_init(t, "Simulated Swiss", nrounds);
	if (mixed && seed % 2)
		t->pairing_bye_half = TOURNEY_DRAW_HALF;
	if (mixed && seed % 4 >= 2)
		t->initial_colour = TOURNEY_BLACK;
	for (int p = 1; p <= nplayers; p++) {
		char name[32];
		snprintf(name, sizeof name, "Player %d", p);
		tourney_player_add(t, name, 2400 - p * 5);
	}
	for (int p = 1; mixed && p <= nplayers; p++) {
		/* Late entries: zero-point byes in the first round or two. */
		if (p % 11 == 4)
			t->players[p].requested[1] = TOURNEY_BYE_ZERO;
		if (p % 22 == 4 && nrounds > 2)
			t->players[p].requested[2] = TOURNEY_BYE_ZERO;
	}
	for (int r = 1; r <= nrounds; r++) {
		if (!plain) {
			for (int p = 1; p <= nplayers; p++) {
				uint64_t x = rng_next(&seed) % 1000;
				if (r > 1 && r < nrounds && x < 8 && t->players[p].withdrawn_round == 0)
					t->players[p].withdrawn_round = r;
				else if (x >= 8 && x < 40)
					t->players[p].requested[r] = TOURNEY_BYE_HALF;
				else if (mixed && x >= 40 && x < 60)
					t->players[p].requested[r] = x < 50 ? TOURNEY_BYE_ZERO :
					    TOURNEY_BYE_FULL;
			}
		}
		if (pairing_dutch(t, r, round, err, sizeof err) < 0) {
			fprintf(stderr, "simulate-swiss: round %d: %s\n", r, err);
			/*
			 * Leave round r for a checker to fail on too; the withdrawn are
			 * written as zero-point byes of r, which keeps them out as well.
			 */
			for (int p = 1; p <= nplayers; p++)
				if (t->players[p].withdrawn_round && r >= t->players[p].withdrawn_round)
					t->players[p].requested[r] = TOURNEY_BYE_ZERO;
			status = 3;
			break;
		}
		for (int i = 0; i < round->ngames; i++) {
			uint64_t x = rng_next(&seed) % 1000;
			enum tourney_result res = x < 380 ? TOURNEY_RESULT_WHITE_WINS :
			    x < 700 ? TOURNEY_RESULT_DRAW : TOURNEY_RESULT_BLACK_WINS;
			int every = mixed ? 15 : 50;
			if (!plain && x % (uint64_t)every == 0)
				res = TOURNEY_RESULT_WHITE_FORFEIT;
			else if (!plain && x % (uint64_t)every == 1)
				res = TOURNEY_RESULT_BLACK_FORFEIT;
			else if (!plain && (x == 998 || (mixed && x % 97 == 2)))
				res = TOURNEY_RESULT_DOUBLE_FORFEIT;
			round->games[i].result = res;
		}
		t->rounds[r] = *round;
		t->rounds_paired = r;
	}
	size_t len = trf_export(t, NULL, 0, NULL, 0);
	char *text = malloc(len + 1);
	if (!text)
		return 1;
	trf_export(t, NULL, 0, text, len + 1);
	fwrite(text, 1, len, stdout);
	free(text);
	free(round);
	free(t);
	return status;
}
