#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "tiebreak.h"

const char *tiebreak_name(enum tiebreak tb)
{
	static const char *const names[TIEBREAK_NB] = {
		[TIEBREAK_BUCHHOLZ] = "BH",
		[TIEBREAK_BUCHHOLZ_CUT1] = "BH-C1",
		[TIEBREAK_SONNEBORN_BERGER] = "SB",
		[TIEBREAK_DIRECT_ENCOUNTER] = "DE",
		[TIEBREAK_WINS] = "WIN",
		[TIEBREAK_WON] = "WON",
	};

	return tb >= 0 && tb < TIEBREAK_NB ? names[tb] : "?";
}

/* A round the player chose not to play: requested bye, forfeit loss, absence. */
static bool slot_voluntarily_unplayed(const struct tourney_slot *s)
{
	if (s->played || s->forfeit_win || s->bye == TOURNEY_BYE_PAIRING)
		return false;
	if (s->opponent > 0)
		return s->result != TOURNEY_RESULT_NONE;	/* forfeit loss or double forfeit */
	return true;
}

static int clamp_rounds(const struct tourney *t, int rounds)
{
	return rounds < 0 ? 0 : rounds > t->rounds_paired ? t->rounds_paired : rounds;
}

/* A player's score, and the same with late voluntarily unplayed rounds as draws. */
static void player_scores(const struct tourney *t, int rounds, int p, int *score, int *adjusted)
{
	struct tourney_slot s;
	int last_played = 0;

	*score = *adjusted = 0;
	for (int r = 1; r <= rounds; r++) {
		tourney_slot_get(t, r, p, &s);
		if (s.played)
			last_played = r;
	}
	for (int r = 1; r <= rounds; r++) {
		tourney_slot_get(t, r, p, &s);
		*score += s.points_half;
		if (r > last_played && slot_voluntarily_unplayed(&s))
			*adjusted += TOURNEY_DRAW_HALF;
		else
			*adjusted += s.points_half;
	}
}

double tiebreak_value(const struct tourney *t, int rounds, int player, enum tiebreak tb)
{
	struct tourney_slot s;
	bool swiss = t->system == TOURNEY_SWISS;
	int own, own_adj, sum = 0, sb_quarter = 0, lowest = -1, count = 0;

	rounds = clamp_rounds(t, rounds);
	player_scores(t, rounds, player, &own, &own_adj);
	for (int r = 1; r <= rounds; r++) {
		int contrib, opp, opp_adj;
		tourney_slot_get(t, r, player, &s);
		if (tb == TIEBREAK_WINS || tb == TIEBREAK_WON) {
			if (s.points_half == TOURNEY_WIN_HALF && (tb == TIEBREAK_WINS || s.played))
				count++;
			continue;
		}
		if (swiss && !s.played) {
			contrib = own;				/* the dummy opponent */
		} else if (s.opponent > 0 && (s.played || s.result != TOURNEY_RESULT_NONE)) {
			player_scores(t, rounds, s.opponent, &opp, &opp_adj);
			contrib = swiss ? opp_adj : opp;
		} else {
			continue;		/* round robin rest round, or not yet played */
		}
		sum += contrib;
		sb_quarter += contrib * s.points_half;
		if (lowest < 0 || contrib < lowest)
			lowest = contrib;
	}
	switch (tb) {
	case TIEBREAK_BUCHHOLZ:
		return sum / 2.0;
	case TIEBREAK_BUCHHOLZ_CUT1:
		return (sum - (lowest > 0 ? lowest : 0)) / 2.0;
	case TIEBREAK_SONNEBORN_BERGER:
		return sb_quarter / 4.0;
	case TIEBREAK_WINS:
	case TIEBREAK_WON:
		return count;
	case TIEBREAK_DIRECT_ENCOUNTER:
	case TIEBREAK_NB:
		break;
	}
	return 0;
}

static int compare_rows(const void *x, const void *y)
{
	const struct tiebreak_row *a = x, *b = y;
	int n = (int)a->value[TIEBREAK_MAX - 1];	/* see tiebreak_standings() */

	if (a->points_half != b->points_half)
		return b->points_half - a->points_half;
	for (int k = 0; k < n; k++)
		if (a->value[k] != b->value[k])
			return a->value[k] < b->value[k] ? 1 : -1;
	return a->player - b->player;
}

static bool rows_tied(const struct tiebreak_row *a, const struct tiebreak_row *b, int upto)
{
	if (a->points_half != b->points_half)
		return false;
	for (int k = 0; k < upto; k++)
		if (a->value[k] != b->value[k])
			return false;
	return true;
}

/* Points p scored against q in rounds 1..rounds; -1 if they never had a game with a result. */
static int points_against(const struct tourney *t, int rounds, int p, int q)
{
	struct tourney_slot s;
	int sum = -1;

	for (int r = 1; r <= rounds; r++) {
		tourney_slot_get(t, r, p, &s);
		if (s.opponent == q && s.result != TOURNEY_RESULT_NONE)
			sum = (sum < 0 ? 0 : sum) + s.points_half;
	}
	return sum;
}

/* Fills value[k] with direct encounter for each group tied on everything before k. */
static void direct_encounter(const struct tourney *t, int rounds, struct tiebreak_row *rows,
    int n, int k)
{
	for (int i = 0; i < n;) {
		int j = i + 1;
		while (j < n && rows_tied(&rows[i], &rows[j], k))
			j++;
		bool all_met = j - i > 1;
		for (int a = i; a < j && all_met; a++)
			for (int b = a + 1; b < j && all_met; b++)
				if (points_against(t, rounds, rows[a].player, rows[b].player) < 0)
					all_met = false;
		for (int a = i; a < j; a++) {
			int sum = 0;
			for (int b = i; b < j && all_met; b++)
				if (b != a)
					sum += points_against(t, rounds, rows[a].player, rows[b].player);
			rows[a].value[k] = all_met ? sum / 2.0 : 0;
		}
		i = j;
	}
}

int tiebreak_standings(const struct tourney *t, int rounds, const enum tiebreak *order,
    int norder, struct tiebreak_row *rows, char *err, size_t errlen)
{
	int n = t->nplayers;

	if (norder < 0 || norder > TIEBREAK_MAX - 1)
		return error_set(err, errlen, "%d tie-breaks (at most %d)", norder, TIEBREAK_MAX - 1);
	for (int k = 0; k < norder; k++)
		if (order[k] < 0 || order[k] >= TIEBREAK_NB)
			return error_set(err, errlen, "unknown tie-break %d", (int)order[k]);
	rounds = clamp_rounds(t, rounds);
	for (int i = 0; i < n; i++) {
		struct tiebreak_row *row = &rows[i];
		memset(row, 0, sizeof *row);
		row->player = i + 1;
		row->points_half = tourney_score_half(t, i + 1, rounds);
		for (int k = 0; k < norder; k++)
			if (order[k] != TIEBREAK_DIRECT_ENCOUNTER)
				row->value[k] = tiebreak_value(t, rounds, i + 1, order[k]);
		/* The comparison's key count rides in the last, unused slot. */
		row->value[TIEBREAK_MAX - 1] = norder;
	}
	qsort(rows, (size_t)n, sizeof *rows, compare_rows);
	for (int k = 0; k < norder; k++) {
		if (order[k] != TIEBREAK_DIRECT_ENCOUNTER)
			continue;
		direct_encounter(t, rounds, rows, n, k);
		qsort(rows, (size_t)n, sizeof *rows, compare_rows);
	}
	for (int i = 0; i < n; i++) {
		rows[i].rank = i > 0 && rows_tied(&rows[i - 1], &rows[i], norder) ?
		    rows[i - 1].rank : i + 1;
		rows[i].value[TIEBREAK_MAX - 1] = 0;
	}
	return 0;
}
