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
	if (tournament_web_delay_s(t) >= 0)
		session_printf(s, "Its games' moves reach the web %d seconds late.\n",
		    tournament_web_delay_s(t));
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
	/* Only rounds with every result in count; the one being played is named. */
	int done = tournament_rounds_done(t);
	struct tiebreak_row *rows = calloc((size_t)c->nplayers + 1, sizeof *rows);
	if (!rows || tiebreak_standings(c, done, order, n, rows, err, sizeof err) < 0) {
		session_printf(s, "Standings unavailable: %s\n", rows ? err : "out of memory");
		free(rows);
		return;
	}
	if (done == c->rounds_paired)
		session_printf(s, "Standings after round %d:\n", done);
	else if (done > 0)
		session_printf(s, "Standings after round %d (round %d in progress):\n", done,
		    c->rounds_paired);
	else
		session_printf(s, "Standings before round 1 (round 1 in progress):\n");
	session_printf(s, "Rank  No Name              Rtng   Pts");
	for (int i = 0; i < n; i++)
		session_printf(s, " %7s", tiebreak_name(order[i]));
	session_printf(s, "\n");
	for (int i = 0; i < c->nplayers; i++) {
		const struct tiebreak_row *r = &rows[i];
		char rating[16];
		snprintf(rating, sizeof rating, "%d", c->players[r->player].rating);
		session_printf(s, "%4d %3d %-17s %4s %5.1f", r->rank, r->player,
		    c->players[r->player].name, c->players[r->player].rating ? rating : "-",
		    r->points_half / 2.0);
		/* Tie-breaks mean nothing before a round has been played. */
		for (int k = 0; k < n; k++)
			if (done)
				session_printf(s, " %7.2f", r->value[k]);
			else
				session_printf(s, " %7s", "-");
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
	/* A bye, or a round without a game, has no opponent. */
	if (sl->opponent)
		snprintf(buf, len, "%4d %c %c", sl->opponent, col, res);
	else
		snprintf(buf, len, "%4s %c %c", "-", col, res);
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
	long rounds = number(w->w[3]);
	int name_max = server_config(session_server(s))->limits.tourney_name_chars;

	if (rounds < 0 || rounds > TOURNEY_ROUNDS_MAX || number(w->w[4]) < 0 ||
	    number(w->w[5]) < 0 ||
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
	if (strlen(w->w[1]) > (size_t)name_max || strlen(w->w[1]) >= TOURNEY_NAME_MAX) {
		session_printf(s, "The tournament name is too long (at most %d characters).\n",
		    name_max < TOURNEY_NAME_MAX ? name_max : TOURNEY_NAME_MAX - 1);
		return;
	}
	snprintf(tc, sizeof tc, "%s %s", w->w[4], w->w[5]);
	tournament_create(server_tournaments(session_server(s)), s, w->w[1], kind, (int)rounds, tc,
	    w->n == 7 ? !strcasecmp(w->w[6], "rated") : true);
}

/* The handlers of the subcommands: w->w[0] is the subcommand, t the tournament named. */

static void sub_list(struct session *s, struct tournament *t, const struct words *w)
{
	(void)t;
	(void)w;
	cmd_list(s);
}

static void sub_create(struct session *s, struct tournament *t, const struct words *w)
{
	(void)t;
	cmd_create(s, w);
}

static void sub_join(struct session *s, struct tournament *t, const struct words *w)
{
	(void)w;
	tournament_join(t, s);
}

static void sub_leave(struct session *s, struct tournament *t, const struct words *w)
{
	(void)w;
	tournament_withdraw(t, s, NULL);
}

static void sub_show(struct session *s, struct tournament *t, const struct words *w)
{
	(void)w;
	cmd_show(s, t);
}

static void sub_pairings(struct session *s, struct tournament *t, const struct words *w)
{
	cmd_pairings(s, t, w->n == 3 ? number(w->w[2]) : -1);
}

static void sub_crosstable(struct session *s, struct tournament *t, const struct words *w)
{
	(void)w;
	cmd_crosstable(s, t);
}

static void sub_start(struct session *s, struct tournament *t, const struct words *w)
{
	(void)w;
	tournament_start(t, s);
}

static void sub_bye(struct session *s, struct tournament *t, const struct words *w)
{
	long round = number(w->w[2]);

	if (round < 1) {
		session_printf(s, "Usage: tourney bye ID ROUND\n");
		return;
	}
	tournament_request_bye(t, s, (int)round);
}

static void sub_result(struct session *s, struct tournament *t, const struct words *w)
{
	enum tourney_result res;

	if (tournament_result_parse(w->w[4], &res) < 0 || number(w->w[2]) < 0 || number(w->w[3]) < 0)
		session_printf(s, "Usage: tourney result ID ROUND BOARD 1-0|0-1|1/2-1/2|+-|-+|--\n");
	else
		tournament_set_result(t, s, (int)number(w->w[2]), (int)number(w->w[3]), res);
}

static void sub_pause_all(struct session *s, struct tournament *t, const struct words *w)
{
	tournament_pause(t, s, !strcasecmp(w->w[0], "pause"));
}

static void sub_pause_player(struct session *s, struct tournament *t, const struct words *w)
{
	tournament_pause_player(t, s, w->w[1], !strcasecmp(w->w[0], "pause"));
}

static void sub_withdraw(struct session *s, struct tournament *t, const struct words *w)
{
	tournament_withdraw(t, s, w->w[1]);
}

static void sub_set(struct session *s, struct tournament *t, const struct words *w)
{
	tournament_set(t, s, w->w[2], w->w[3]);
}

static void sub_trf(struct session *s, struct tournament *t, const struct words *w)
{
	(void)w;
	cmd_trf(s, t);
}

static void sub_pgn(struct session *s, struct tournament *t, const struct words *w)
{
	(void)w;
	cmd_pgn(s, t);
}

static void sub_observe(struct session *s, struct tournament *t, const struct words *w)
{
	tournament_follow(t, s, !strcasecmp(w->w[0], "observe"));
}

/* Set on a subcommand only the tournament's director (or an admin) may use. */
#define TSUB_DIRECTOR 0x1

/*
 * The subcommands.  min/max count the words after the subcommand; id is
 * the word (1-based, after the subcommand) naming the tournament, 0 none.
 * A name may appear twice with different word counts (pause ID, pause
 * PLAYER ID): the first entry whose count fits is run.  The checks are
 * done once, here, before the handler.
 */
static const struct tsub {
	const char *name;
	int min, max;
	int id;
	unsigned flags;
	const char *what;	/* "Only the director ... can WHAT tourney N." */
	void (*run)(struct session *s, struct tournament *t, const struct words *w);
	const char *usage;
} tsubs[] = {
	{ "list", 0, 0, 0, 0, NULL, sub_list, "tourney list" },
	{ "create", 5, 6, 0, 0, NULL, sub_create,
	    "tourney create NAME rr|drr|swiss ROUNDS MINUTES INC [rated|unrated]" },
	{ "join", 1, 1, 1, 0, NULL, sub_join, "tourney join ID" },
	{ "leave", 1, 1, 1, 0, NULL, sub_leave, "tourney leave ID" },
	{ "show", 1, 1, 1, 0, NULL, sub_show, "tourney show ID" },
	{ "pairings", 1, 2, 1, 0, NULL, sub_pairings, "tourney pairings ID [ROUND]" },
	{ "crosstable", 1, 1, 1, 0, NULL, sub_crosstable, "tourney crosstable ID" },
	{ "start", 1, 1, 1, TSUB_DIRECTOR, "start", sub_start, "tourney start ID" },
	{ "bye", 2, 2, 1, 0, NULL, sub_bye, "tourney bye ID ROUND" },
	{ "result", 4, 4, 1, TSUB_DIRECTOR, "set results in", sub_result,
	    "tourney result ID ROUND BOARD 1-0|0-1|1/2-1/2|+-|-+|--" },
	{ "pause", 1, 1, 1, TSUB_DIRECTOR, "pause", sub_pause_all, "tourney pause [PLAYER] ID" },
	{ "pause", 2, 2, 2, 0, NULL, sub_pause_player, "tourney pause [PLAYER] ID" },
	{ "resume", 1, 1, 1, TSUB_DIRECTOR, "resume", sub_pause_all, "tourney resume [PLAYER] ID" },
	{ "resume", 2, 2, 2, 0, NULL, sub_pause_player, "tourney resume [PLAYER] ID" },
	{ "withdraw", 2, 2, 2, 0, NULL, sub_withdraw, "tourney withdraw PLAYER ID" },
	{ "set", 3, 3, 1, TSUB_DIRECTOR, "change settings of", sub_set,
	    "tourney set ID tiebreaks LIST | byevalue 1|0.5 | delay SECONDS|default" },
	{ "trf", 1, 1, 1, 0, NULL, sub_trf, "tourney trf ID" },
	{ "pgn", 1, 1, 1, 0, NULL, sub_pgn, "tourney pgn ID" },
	{ "observe", 1, 1, 1, 0, NULL, sub_observe, "tourney observe ID" },
	{ "unobserve", 1, 1, 1, 0, NULL, sub_observe, "tourney unobserve ID" },
};

static void cmd_tourney(struct session *s, const struct cmd_args *a)
{
	char text[LIMIT_LINE_BYTES + 1];
	struct words w;
	const struct tsub *named = NULL, *sub = NULL;
	struct tournament *t = NULL;

	snprintf(text, sizeof text, "%s", a->argc ? a->argv[0] : "");
	if (!split(text, &w) || w.n == 0) {
		usage(s);
		return;
	}
	for (size_t i = 0; i < sizeof tsubs / sizeof tsubs[0] && !sub; i++) {
		if (strcasecmp(w.w[0], tsubs[i].name))
			continue;
		named = named ? named : &tsubs[i];
		if (w.n - 1 >= tsubs[i].min && w.n - 1 <= tsubs[i].max)
			sub = &tsubs[i];
	}
	if (!named) {
		usage(s);
		return;
	}
	if (!sub) {
		session_printf(s, "Usage: %s\n", named->usage);
		return;
	}
	if (sub->id && !(t = find(s, w.w[sub->id])))
		return;
	if ((sub->flags & TSUB_DIRECTOR) && !tournament_may_direct(t, s)) {
		session_printf(s, "Only the director (%s) or an admin can %s tourney %lld.\n",
		    tournament_director(t), sub->what, (long long)tournament_id(t));
		return;
	}
	sub->run(s, t, &w);
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
	    "  tourney show ID                     standings with tie-breaks, after the last\n"
	    "                                      round whose games are all over\n"
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
	    "  tourney set ID delay SECONDS|default   how late its games' moves reach the web\n"
	    "                                      (public pages, API, streams; at most %d s;\n"
	    "                                      default: public_delay_s, now %d s); the\n"
	    "                                      players' own connections are never delayed\n"
	    "  tourney trf ID                      the FIDE TRF-16 report\n"
	    "  tourney pgn ID                      every finished game as PGN\n"
	    "  tourney observe|unobserve ID        observe every board as its game starts\n\n"
	    "Round robins follow the FIDE Berger tables, Swiss rounds the FIDE Dutch system.\n"
	    "A round is paired when every board of the last one has a result.  Games start\n"
	    "when both players are logged in and free; a player still missing %d seconds\n"
	    "after the round is paired loses by forfeit (a restart does not reset the time).\n"
	    "An aborted game is played again; an adjourned game (also one cut short by a\n"
	    "server restart, which gives the board a fresh period) continues when both\n"
	    "players are back, or with \"resume\".  A board settled without it (a forfeit,\n"
	    "a withdrawal, the director's result) ends it with the board's result, as an\n"
	    "adjudication that rates nobody.  Announcements go to the players and to\n"
	    "channel %d.\n",
	    server_config(session_server(s))->limits.tourney_delay_max_s,
	    server_config(session_server(s))->public_delay_s,
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
