#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "tourney.h"

void tourney_init(struct tourney *t, const char *name, int nrounds)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name ? name : "");
	t->system = TOURNEY_SWISS;
	t->nrounds = nrounds < 0 ? 0 : nrounds > TOURNEY_ROUNDS_MAX ? TOURNEY_ROUNDS_MAX : nrounds;
	t->pairing_bye_half = TOURNEY_WIN_HALF;
	t->initial_colour = TOURNEY_WHITE;
}

int tourney_player_add(struct tourney *t, const char *name, int rating)
{
	struct tourney_player *pl;

	if (t->nplayers >= TOURNEY_PLAYERS_MAX)
		return -1;
	pl = &t->players[++t->nplayers];
	memset(pl, 0, sizeof *pl);
	snprintf(pl->name, sizeof pl->name, "%s", name ? name : "");
	pl->rating = rating;
	pl->sex = ' ';
	return t->nplayers;
}

static bool round_ok(int r)
{
	return r >= 1 && r <= TOURNEY_ROUNDS_MAX;
}

static bool player_ok(const struct tourney *t, int p)
{
	return p >= 1 && p <= t->nplayers;
}

int tourney_game_add(struct tourney *t, int r, int white, int black, enum tourney_result res)
{
	struct tourney_round *rd;

	if (!round_ok(r) || !player_ok(t, white) || !player_ok(t, black) || white == black)
		return -1;
	rd = &t->rounds[r];
	if (rd->ngames >= TOURNEY_GAMES_MAX)
		return -1;
	rd->games[rd->ngames++] = (struct tourney_game){ white, black, res };
	if (r > t->rounds_paired)
		t->rounds_paired = r;
	return 0;
}

int tourney_bye_add(struct tourney *t, int r, int player, enum tourney_bye kind)
{
	struct tourney_round *rd;

	if (!round_ok(r) || !player_ok(t, player) || kind == TOURNEY_BYE_NONE)
		return -1;
	rd = &t->rounds[r];
	if (rd->nbyes >= TOURNEY_PLAYERS_MAX)
		return -1;
	rd->byes[rd->nbyes++] = (struct tourney_bye_entry){ player, kind };
	if (r > t->rounds_paired)
		t->rounds_paired = r;
	return 0;
}

int tourney_validate(const struct tourney *t, char *err, size_t errlen)
{
	unsigned char mark[TOURNEY_PLAYERS_MAX + 1];

	if (t->nplayers < 0 || t->nplayers > TOURNEY_PLAYERS_MAX)
		return error_set(err, errlen, "%d players (at most %d)", t->nplayers, TOURNEY_PLAYERS_MAX);
	if (t->nrounds < 0 || t->nrounds > TOURNEY_ROUNDS_MAX)
		return error_set(err, errlen, "%d rounds (at most %d)", t->nrounds, TOURNEY_ROUNDS_MAX);
	if (t->rounds_paired < 0 || t->rounds_paired > TOURNEY_ROUNDS_MAX)
		return error_set(err, errlen, "%d rounds paired", t->rounds_paired);
	if (t->pairing_bye_half != 1 && t->pairing_bye_half != 2)
		return error_set(err, errlen, "pairing bye worth %d half points", t->pairing_bye_half);
	for (int r = 1; r <= t->rounds_paired; r++) {
		const struct tourney_round *rd = &t->rounds[r];
		if (rd->ngames < 0 || rd->ngames > TOURNEY_GAMES_MAX || rd->nbyes < 0 ||
		    rd->nbyes > TOURNEY_PLAYERS_MAX)
			return error_set(err, errlen, "round %d: bad counts", r);
		memset(mark, 0, sizeof mark);
		for (int i = 0; i < rd->ngames; i++) {
			const struct tourney_game *g = &rd->games[i];
			if (!player_ok(t, g->white) || !player_ok(t, g->black) || g->white == g->black)
				return error_set(err, errlen, "round %d board %d: bad players %d-%d", r,
				    i + 1, g->white, g->black);
			if (g->result < TOURNEY_RESULT_NONE || g->result > TOURNEY_RESULT_DOUBLE_FORFEIT)
				return error_set(err, errlen, "round %d board %d: bad result", r, i + 1);
			if (mark[g->white]++ || mark[g->black]++)
				return error_set(err, errlen, "round %d: player %d twice", r,
				    mark[g->white] > 1 ? g->white : g->black);
		}
		for (int i = 0; i < rd->nbyes; i++) {
			const struct tourney_bye_entry *b = &rd->byes[i];
			if (!player_ok(t, b->player) || b->kind <= TOURNEY_BYE_NONE ||
			    b->kind > TOURNEY_BYE_FULL)
				return error_set(err, errlen, "round %d: bad bye entry %d", r, i + 1);
			if (mark[b->player]++)
				return error_set(err, errlen, "round %d: player %d twice", r, b->player);
		}
	}
	return 0;
}

void tourney_result_points(enum tourney_result res, int *white_half, int *black_half)
{
	int w = 0, b = 0;

	switch (res) {
	case TOURNEY_RESULT_WHITE_WINS:
	case TOURNEY_RESULT_WHITE_FORFEIT:
		w = TOURNEY_WIN_HALF;
		break;
	case TOURNEY_RESULT_BLACK_WINS:
	case TOURNEY_RESULT_BLACK_FORFEIT:
		b = TOURNEY_WIN_HALF;
		break;
	case TOURNEY_RESULT_DRAW:
		w = b = TOURNEY_DRAW_HALF;
		break;
	case TOURNEY_RESULT_NONE:
	case TOURNEY_RESULT_DOUBLE_FORFEIT:
		break;
	}
	*white_half = w;
	*black_half = b;
}

int tourney_bye_points(const struct tourney *t, enum tourney_bye kind)
{
	switch (kind) {
	case TOURNEY_BYE_PAIRING:
		return t->pairing_bye_half;
	case TOURNEY_BYE_HALF:
		return TOURNEY_DRAW_HALF;
	case TOURNEY_BYE_FULL:
		return TOURNEY_WIN_HALF;
	case TOURNEY_BYE_NONE:
	case TOURNEY_BYE_ZERO:
		break;
	}
	return 0;
}

bool tourney_result_played(enum tourney_result res)
{
	return res == TOURNEY_RESULT_WHITE_WINS || res == TOURNEY_RESULT_BLACK_WINS ||
	    res == TOURNEY_RESULT_DRAW;
}

static void slot_from_game(const struct tourney_game *g, bool as_white, struct tourney_slot *s)
{
	int w, b;

	tourney_result_points(g->result, &w, &b);
	s->opponent = as_white ? g->black : g->white;
	s->colour = as_white ? TOURNEY_WHITE : TOURNEY_BLACK;
	s->result = g->result;
	s->points_half = as_white ? w : b;
	s->played = tourney_result_played(g->result);
	s->forfeit_win = (as_white && g->result == TOURNEY_RESULT_WHITE_FORFEIT) ||
	    (!as_white && g->result == TOURNEY_RESULT_BLACK_FORFEIT);
}

static void slot_from_bye(const struct tourney *t, enum tourney_bye kind, struct tourney_slot *s)
{
	s->bye = kind;
	s->points_half = tourney_bye_points(t, kind);
	s->forfeit_win = s->points_half >= TOURNEY_WIN_HALF;
}

static void slot_clear(struct tourney_slot *s)
{
	memset(s, 0, sizeof *s);
	s->absent = true;
}

void tourney_slot_get(const struct tourney *t, int r, int p, struct tourney_slot *slot)
{
	const struct tourney_round *rd;

	slot_clear(slot);
	if (r < 1 || r > t->rounds_paired)
		return;
	rd = &t->rounds[r];
	for (int i = 0; i < rd->ngames; i++) {
		if (rd->games[i].white == p || rd->games[i].black == p) {
			slot->absent = false;
			slot_from_game(&rd->games[i], rd->games[i].white == p, slot);
			return;
		}
	}
	for (int i = 0; i < rd->nbyes; i++) {
		if (rd->byes[i].player == p) {
			slot->absent = false;
			slot_from_bye(t, rd->byes[i].kind, slot);
			return;
		}
	}
}

void tourney_round_slots(const struct tourney *t, int r, struct tourney_slot *slots)
{
	const struct tourney_round *rd;

	for (int p = 0; p <= t->nplayers; p++)
		slot_clear(&slots[p]);
	if (r < 1 || r > t->rounds_paired)
		return;
	rd = &t->rounds[r];
	for (int i = 0; i < rd->ngames; i++) {
		const struct tourney_game *g = &rd->games[i];
		if (player_ok(t, g->white)) {
			slots[g->white].absent = false;
			slot_from_game(g, true, &slots[g->white]);
		}
		if (player_ok(t, g->black)) {
			slots[g->black].absent = false;
			slot_from_game(g, false, &slots[g->black]);
		}
	}
	for (int i = 0; i < rd->nbyes; i++) {
		int p = rd->byes[i].player;
		if (player_ok(t, p)) {
			slots[p].absent = false;
			slot_from_bye(t, rd->byes[i].kind, &slots[p]);
		}
	}
}

int tourney_score_half(const struct tourney *t, int p, int r)
{
	struct tourney_slot s;
	int sum = 0;

	if (r > t->rounds_paired)
		r = t->rounds_paired;
	for (int i = 1; i <= r; i++) {
		tourney_slot_get(t, i, p, &s);
		sum += s.points_half;
	}
	return sum;
}

enum tourney_colour tourney_colour_in(const struct tourney *t, int p, int r)
{
	struct tourney_slot s;

	tourney_slot_get(t, r, p, &s);
	return s.played ? s.colour : TOURNEY_COLOUR_NONE;
}

int tourney_colour_history(const struct tourney *t, int p, int r, enum tourney_colour *colours)
{
	int n = 0;

	if (r > t->rounds_paired)
		r = t->rounds_paired;
	for (int i = 1; i <= r; i++) {
		enum tourney_colour c = tourney_colour_in(t, p, i);
		if (c != TOURNEY_COLOUR_NONE)
			colours[n++] = c;
	}
	return n;
}

bool tourney_have_met(const struct tourney *t, int a, int b, int r)
{
	if (r > t->rounds_paired)
		r = t->rounds_paired;
	for (int i = 1; i <= r; i++) {
		const struct tourney_round *rd = &t->rounds[i];
		for (int j = 0; j < rd->ngames; j++) {
			const struct tourney_game *g = &rd->games[j];
			if (((g->white == a && g->black == b) || (g->white == b && g->black == a)) &&
			    tourney_result_played(g->result))
				return true;
		}
	}
	return false;
}

enum tourney_float tourney_float_in(const struct tourney *t, int p, int r)
{
	struct tourney_slot s;
	int mine, theirs;

	tourney_slot_get(t, r, p, &s);
	/* As bbpPairings: any unplayed round that scored counts as a downfloat. */
	if (!s.played)
		return s.points_half > 0 ? TOURNEY_FLOAT_DOWN : TOURNEY_FLOAT_NONE;
	mine = tourney_score_half(t, p, r - 1);
	theirs = tourney_score_half(t, s.opponent, r - 1);
	return mine > theirs ? TOURNEY_FLOAT_DOWN : mine < theirs ? TOURNEY_FLOAT_UP :
	    TOURNEY_FLOAT_NONE;
}

bool tourney_player_available(const struct tourney *t, int p, int r)
{
	const struct tourney_player *pl = &t->players[p];

	if (pl->withdrawn_round > 0 && r >= pl->withdrawn_round)
		return false;
	return r < 1 || r > TOURNEY_ROUNDS_MAX || pl->requested[r] == TOURNEY_BYE_NONE;
}
