/* Tournaments: `tourney SUBCOMMAND ...`, one table entry with its subcommands
 * parsed here; the work is done by tournament.c, the listings here. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "archive.h"
#include "blkcmd.h"
#include "cmd.h"
#include "config.h"
#include "db.h"
#include "limit.h"
#include "number.h"
#include "pgn.h"
#include "san.h"
#include "server.h"
#include "session.h"
#include "tournament.h"
#include "trf.h"

#define TOURNEY_WORDS_MAX 10

struct words {
	int n;
	char *w[TOURNEY_WORDS_MAX];
};

static bool split(char *text, struct words *out)
{
	char *save = NULL;

	out->n = 0;
	for (char *w = strtok_r(text, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (out->n == TOURNEY_WORDS_MAX)
			return false;
		out->w[out->n++] = w;
	}
	return true;
}

/* A whole number from text that fits an int, or -1. */
static long number(const char *text)
{
	long n;

	return number_parse(text, 0, INT_MAX, &n) == NUMBER_OK ? n : -1;
}

/* The tournament a word names, or NULL after saying so. */
static struct tournament *find(struct session *s, const char *word)
{
	long id = number(word);
	struct tournament *t = id > 0 ? tournaments_find(server_tournaments(session_server(s)), id) :
	    NULL;

	if (!t)
		session_printf(s, "There is no tourney %s.\n", word);
	return t;
}

static void usage(struct session *s)
{
	session_printf(s, "Usage: tourney create|join|leave|list|show|pairings|crosstable|start|bye|"
	    "result|pause|resume|withdraw|set|trf|pgn|observe|unobserve ...  (\"help tourney\")\n");
}

/* --- listings --- */

static void list_one(struct tournament *t, void *arg)
{
	struct session *s = arg;
	const struct tourney *c = tournament_core(t);

	session_printf(s, "%4lld %-24s %-5s %-8s %2d/%-2d %3d  %s %s  %s\n", (long long)tournament_id(t),
	    c->name, tournament_kind_name(tournament_kind(t)), tournament_state_name(tournament_state(t)),
	    c->rounds_paired, c->nrounds, c->nplayers, tournament_rated(t) ? "rated" : "unrated",
	    tournament_time_control(t), tournament_director(t));
}

static void cmd_list(struct session *s)
{
	session_printf(s, "  ID Name                     Kind  State    Round Plyrs Terms  Director\n");
	tournaments_each(server_tournaments(session_server(s)), list_one, s);
}

static void header(struct session *s, struct tournament *t)
{
	const struct tourney *c = tournament_core(t);

	session_printf(s, "Tourney %lld \"%s\": %s, %d rounds, %s %s, director %s; %s, round %d of %d.\n",
	    (long long)tournament_id(t), c->name, tournament_kind_name(tournament_kind(t)), c->nrounds,
	    tournament_rated(t) ? "rated" : "unrated", tournament_time_control(t),
	    tournament_director(t), tournament_state_name(tournament_state(t)), c->rounds_paired,
	    c->nrounds);
}

/* A player's mark in listings: withdrawn or paused. */
static const char *mark(struct tournament *t, int p)
{
	const struct tourney *c = tournament_core(t);

	if (c->players[p].withdrawn_round)
		return " (withdrawn)";
	return tournament_player_paused(t, p) ? " (paused)" : "";
}

static void cmd_show(struct session *s, struct tournament *t)
{
	const struct tourney *c = tournament_core(t);
	enum tiebreak order[TIEBREAK_MAX];
	int n = tournament_tiebreaks(t, order);
	char err[128];

	header(s, t);
	if (tournament_state(t) == TOURNAMENT_CREATED) {
		session_printf(s, "Players (%d):\n", c->nplayers);
		for (int p = 1; p <= c->nplayers; p++)
			session_printf(s, "  %s\n", c->players[p].name);
		return;
	}
	struct tiebreak_row *rows = calloc((size_t)c->nplayers + 1, sizeof *rows);
	if (!rows || tiebreak_standings(c, c->rounds_paired, order, n, rows, err, sizeof err) < 0) {
		session_printf(s, "Standings unavailable: %s\n", rows ? err : "out of memory");
		free(rows);
		return;
	}
	session_printf(s, "Standings after round %d:\nRank  No Name              Rtng   Pts", c->rounds_paired);
	for (int i = 0; i < n; i++)
		session_printf(s, " %7s", tiebreak_name(order[i]));
	session_printf(s, "\n");
	for (int i = 0; i < c->nplayers; i++) {
		const struct tiebreak_row *r = &rows[i];
		session_printf(s, "%4d %3d %-17s %4d %5.1f", r->rank, r->player,
		    c->players[r->player].name, c->players[r->player].rating, r->points_half / 2.0);
		for (int k = 0; k < n; k++)
			session_printf(s, " %7.2f", r->value[k]);
		session_printf(s, "%s\n", mark(t, r->player));
	}
	free(rows);
}

static void cmd_pairings(struct session *s, struct tournament *t, long round)
{
	const struct tourney *c = tournament_core(t);
	unsigned char seen[TOURNEY_PLAYERS_MAX + 1] = { 0 };

	if (round < 0)
		round = c->rounds_paired;
	if (round < 1 || round > c->rounds_paired) {
		session_printf(s, "Tourney %lld has no round %ld paired.\n", (long long)tournament_id(t),
		    round);
		return;
	}
	const struct tourney_round *rd = &c->rounds[round];
	session_printf(s, "Tourney %lld round %ld:\n", (long long)tournament_id(t), round);
	for (int b = 0; b < rd->ngames; b++) {
		const struct tourney_game *g = &rd->games[b];
		int live = round == c->rounds_paired ? tournament_board_game(t, b + 1) : 0;
		seen[g->white] = seen[g->black] = 1;
		session_printf(s, "Board %2d: %-17s (%d) - %-17s (%d) %s", b + 1, c->players[g->white].name,
		    g->white, c->players[g->black].name, g->black, tournament_result_text(g->result));
		if (live)
			session_printf(s, " game %d", live);
		session_printf(s, "\n");
	}
	static const char letters[] = "?UHZF";
	for (int i = 0; i < rd->nbyes; i++) {
		seen[rd->byes[i].player] = 1;
		session_printf(s, "Bye (%c): %s (%d)\n", letters[rd->byes[i].kind],
		    c->players[rd->byes[i].player].name, rd->byes[i].player);
	}
	for (int p = 1; p <= c->nplayers; p++)
		if (!seen[p])
			session_printf(s, "Not paired: %s (%d)\n", c->players[p].name, p);
}

/* One round of a player as in TRF: opponent, colour, result letter. */
static void slot_text(const struct tourney_slot *sl, char *buf, size_t len)
{
	static const char letters[] = "?UHZF";
	char res = '-', col = '-';

	if (sl->bye != TOURNEY_BYE_NONE) {
		res = letters[sl->bye];
	} else if (sl->opponent) {
		col = sl->colour == TOURNEY_WHITE ? 'w' : 'b';
		if (sl->result == TOURNEY_RESULT_NONE)
			res = '*';
		else if (sl->played)
			res = sl->points_half == 2 ? '1' : sl->points_half == 1 ? '=' : '0';
		else
			res = sl->points_half ? '+' : '-';
	}
	snprintf(buf, len, "%4d %c %c", sl->opponent, col, res);
}

static void cmd_crosstable(struct session *s, struct tournament *t)
{
	const struct tourney *c = tournament_core(t);
	struct tourney_slot sl;
	char cell[16];

	header(s, t);
	session_printf(s, " No Name                Pts");
	for (int r = 1; r <= c->rounds_paired; r++)
		session_printf(s, "  Rd%-6d", r);
	session_printf(s, "\n");
	for (int p = 1; p <= c->nplayers; p++) {
		session_printf(s, "%3d %-17s %5.1f", p, c->players[p].name,
		    tourney_score_half(c, p, c->rounds_paired) / 2.0);
		for (int r = 1; r <= c->rounds_paired; r++) {
			tourney_slot_get(c, r, p, &sl);
			slot_text(&sl, cell, sizeof cell);
			session_printf(s, "  %s", cell);
		}
		session_printf(s, "%s\n", mark(t, p));
	}
}

static void cmd_trf(struct session *s, struct tournament *t)
{
	enum tiebreak order[TIEBREAK_MAX];
	int norder = tournament_tiebreaks(t, order);
	size_t len = trf_export(tournament_core(t), order, norder, NULL, 0);
	char *text = malloc(len + 1);

	if (!text) {
		session_printf(s, "Out of memory.\n");
		return;
	}
	trf_export(tournament_core(t), order, norder, text, len + 1);
	session_printf(s, "%s", text);
	free(text);
}

/* --- PGN of every game played --- */

struct pgn_rows {
	struct db_tourney_pairing *rows;
	int count, cap;
};

static void collect_row(void *arg, const struct db_tourney_pairing *p)
{
	struct pgn_rows *l = arg;

	if (!p->game_id || p->black == 0)
		return;
	if (l->count == l->cap) {
		int cap = l->cap ? l->cap * 2 : 32;
		struct db_tourney_pairing *rows = realloc(l->rows, (size_t)cap * sizeof *rows);
		if (!rows)
			return;
		l->rows = rows;
		l->cap = cap;
	}
	l->rows[l->count++] = *p;
}

static void pgn_one(struct session *s, struct tournament *t, const struct db_tourney_pairing *p)
{
	struct db *db = server_db(session_server(s));
	struct db_game row;
	char err[160], round[32];

	if (db_game_load(db, p->game_id, &row) <= 0 || row.status != GAME_FINISHED)
		return;
	snprintf(round, sizeof round, "%d.%d", p->round, p->board);
	struct pgn_game *pg = archive_pgn(db, &row, server_config(session_server(s))->server_name,
	    tournament_name(t), round, err, sizeof err);
	if (!pg)
		return;
	char *out = pgn_export(pg);
	if (out)
		session_printf(s, "%s\n", out);
	free(out);
	pgn_game_free(pg);
}

static void cmd_pgn(struct session *s, struct tournament *t)
{
	struct pgn_rows l = { NULL, 0, 0 };

	if (db_tourney_pairings(server_db(session_server(s)), tournament_id(t), collect_row, &l) < 0) {
		session_printf(s, "The games could not be read.\n");
		free(l.rows);
		return;
	}
	for (int i = 0; i < l.count; i++)
		pgn_one(s, t, &l.rows[i]);
	if (!l.count)
		session_printf(s, "No games have been played in tourney %lld.\n",
		    (long long)tournament_id(t));
	free(l.rows);
}

/* --- the command --- */

static void cmd_create(struct session *s, const struct words *w)
{
	enum tournament_kind kind;
	char tc[64];
	long rounds = w->n >= 4 ? number(w->w[3]) : -1;

	if (w->n < 6 || w->n > 7 || rounds < 0 || rounds > TOURNEY_ROUNDS_MAX ||
	    number(w->w[4]) < 0 || number(w->w[5]) < 0 ||
	    (w->n == 7 && strcasecmp(w->w[6], "rated") && strcasecmp(w->w[6], "unrated"))) {
		session_printf(s, "Usage: tourney create NAME rr|drr|swiss ROUNDS MINUTES INC "
		    "[rated|unrated]  (ROUNDS 1-%d; a round robin works out its own)\n",
		    TOURNEY_ROUNDS_MAX);
		return;
	}
	if (!strcasecmp(w->w[2], "rr"))
		kind = TOURNAMENT_RR;
	else if (!strcasecmp(w->w[2], "drr"))
		kind = TOURNAMENT_DRR;
	else if (!strcasecmp(w->w[2], "swiss"))
		kind = TOURNAMENT_SWISS;
	else {
		session_printf(s, "The kind is rr, drr or swiss.\n");
		return;
	}
	if (kind == TOURNAMENT_SWISS && rounds < 1) {
		session_printf(s, "A Swiss needs at least one round.\n");
		return;
	}
	if (strlen(w->w[1]) >= TOURNEY_NAME_MAX) {
		session_printf(s, "The name is too long (at most %d characters).\n", TOURNEY_NAME_MAX - 1);
		return;
	}
	snprintf(tc, sizeof tc, "%s %s", w->w[4], w->w[5]);
	tournament_create(server_tournaments(session_server(s)), s, w->w[1], kind, (int)rounds, tc,
	    w->n == 7 ? !strcasecmp(w->w[6], "rated") : true);
}

static void cmd_tourney(struct session *s, const struct cmd_args *a)
{
	char text[LIMIT_LINE_BYTES + 1];
	struct words w;
	struct tournament *t;

	snprintf(text, sizeof text, "%s", a->argc ? a->argv[0] : "");
	if (!split(text, &w) || w.n == 0) {
		usage(s);
		return;
	}
	const char *sub = w.w[0];
	if (!strcasecmp(sub, "list")) {
		cmd_list(s);
		return;
	}
	if (!strcasecmp(sub, "create")) {
		cmd_create(s, &w);
		return;
	}
	/* "pause|resume|withdraw PLAYER ID" take a name first; the others an ID. */
	bool named = (!strcasecmp(sub, "pause") || !strcasecmp(sub, "resume") ||
	    !strcasecmp(sub, "withdraw")) && w.n == 3;
	if (w.n < 2 || !(t = find(s, w.w[named ? 2 : 1]))) {
		if (w.n < 2)
			usage(s);
		return;
	}
	if (!strcasecmp(sub, "join") && w.n == 2)
		tournament_join(t, s);
	else if (!strcasecmp(sub, "leave") && w.n == 2)
		tournament_withdraw(t, s, NULL);
	else if (!strcasecmp(sub, "show") && w.n == 2)
		cmd_show(s, t);
	else if (!strcasecmp(sub, "pairings") && (w.n == 2 || w.n == 3))
		cmd_pairings(s, t, w.n == 3 ? number(w.w[2]) : -1);
	else if (!strcasecmp(sub, "crosstable") && w.n == 2)
		cmd_crosstable(s, t);
	else if (!strcasecmp(sub, "start") && w.n == 2)
		tournament_start(t, s);
	else if (!strcasecmp(sub, "bye") && w.n == 3 && number(w.w[2]) > 0)
		tournament_request_bye(t, s, (int)number(w.w[2]));
	else if (!strcasecmp(sub, "result") && w.n == 5) {
		enum tourney_result res;
		if (tournament_result_parse(w.w[4], &res) < 0 || number(w.w[2]) < 0 || number(w.w[3]) < 0)
			session_printf(s, "Usage: tourney result ID ROUND BOARD 1-0|0-1|1/2-1/2|+-|-+|--\n");
		else
			tournament_set_result(t, s, (int)number(w.w[2]), (int)number(w.w[3]), res);
	} else if ((!strcasecmp(sub, "pause") || !strcasecmp(sub, "resume")) && named)
		tournament_pause_player(t, s, w.w[1], !strcasecmp(sub, "pause"));
	else if ((!strcasecmp(sub, "pause") || !strcasecmp(sub, "resume")) && w.n == 2)
		tournament_pause(t, s, !strcasecmp(sub, "pause"));
	else if (!strcasecmp(sub, "withdraw") && named)
		tournament_withdraw(t, s, w.w[1]);
	else if (!strcasecmp(sub, "set") && w.n == 4)
		tournament_set(t, s, w.w[2], w.w[3]);
	else if (!strcasecmp(sub, "trf") && w.n == 2)
		cmd_trf(s, t);
	else if (!strcasecmp(sub, "pgn") && w.n == 2)
		cmd_pgn(s, t);
	else if (!strcasecmp(sub, "observe") && w.n == 2)
		tournament_follow(t, s, true);
	else if (!strcasecmp(sub, "unobserve") && w.n == 2)
		tournament_follow(t, s, false);
	else
		usage(s);
}

/* "help tourney": every subcommand (cmd_info.c shows it). */
void cmd_help_tourney(struct session *s)
{
	session_printf(s,
	    "Club tournaments run by the server.\n\n"
	    "  tourney list                        all tournaments\n"
	    "  tourney create NAME rr|drr|swiss ROUNDS MINUTES INC [rated|unrated]\n"
	    "                                      you direct it (ROUNDS: a round robin works\n"
	    "                                      out its own from the number of players)\n"
	    "  tourney join|leave ID               enter, or leave (after the start: withdraw)\n"
	    "  tourney start ID                    director: number the players by rating, pair\n"
	    "                                      round 1 and start its games\n"
	    "  tourney show ID                     standings with tie-breaks\n"
	    "  tourney pairings ID [ROUND]         the boards of a round and their results\n"
	    "  tourney crosstable ID               every player's rounds: opponent, colour, result\n"
	    "  tourney bye ID ROUND                ask for a half-point bye in a later round (Swiss)\n"
	    "  tourney result ID ROUND BOARD 1-0|0-1|1/2-1/2|+-|-+|--   director: set a result\n"
	    "                                      (not while its game is on; correcting an\n"
	    "                                      earlier round changes standings, not pairings)\n"
	    "  tourney pause|resume PLAYER ID      a paused player is not paired (zero-point bye\n"
	    "                                      in a Swiss, forfeit in a round robin)\n"
	    "  tourney pause|resume ID             director: stop or restart pairing new rounds\n"
	    "  tourney withdraw PLAYER ID          not paired again; an unstarted game is forfeited\n"
	    "  tourney set ID tiebreaks BH,BH-C1,SB,DE,WIN,WON    the standings' order\n"
	    "  tourney set ID byevalue 1|0.5       what a pairing-allocated bye scores\n"
	    "  tourney trf ID                      the FIDE TRF-16 report\n"
	    "  tourney pgn ID                      every finished game as PGN\n"
	    "  tourney observe|unobserve ID        observe every board as its game starts\n\n"
	    "Round robins follow the FIDE Berger tables, Swiss rounds the FIDE Dutch system.\n"
	    "A round is paired when every board of the last one has a result.  Games start\n"
	    "when both players are logged in and free; a player still missing %d seconds\n"
	    "after the round is paired loses by forfeit.  An aborted game is played again;\n"
	    "an adjourned game (also one cut short by a server restart) continues when both\n"
	    "players are back, or with \"resume\".  Announcements go to the players and to\n"
	    "channel %d.\n",
	    server_config(session_server(s))->limits.tourney_forfeit_ms / 1000, TOURNAMENT_CHANNEL);
}

const struct cmd_entry cmd_tourney_entry = {
	.name = "tourney",
	.args = "T",
	.code = BLKCMD_NULL,
	.exec = cmd_tourney,
	.usage = "tourney SUBCOMMAND ... (\"help tourney\")",
	.summary = "Club tournaments: create, join, standings, pairings",
};
