/*
 * The web API over stored things: a game as PGN or JSON, a player's games
 * and ratings, a tournament's standings, TRF and round PGN.  Names and
 * results only: no account ids, password hashes or addresses are served.
 */
#include <limits.h>
#include <math.h>
#include <sys/queue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "account.h"
#include "archive.h"
#include "clock.h"
#include "config.h"
#include "db.h"
#include "game.h"
#include "number.h"
#include "pgn.h"
#include "rating.h"
#include "server.h"
#include "session.h"
#include "tiebreak.h"
#include "tournament.h"
#include "tourney.h"
#include "trf.h"
#include "web_api.h"
#include "web_http.h"
#include "web_stream.h"

#define PGN_TYPE "application/x-chess-pgn"

int web_api_delay_s(struct server *srv, int64_t tourney_id)
{
	struct tournament *t = tourney_id ? tournaments_find(server_tournaments(srv), tourney_id) :
	    NULL;

	return t && tournament_web_delay_s(t) >= 0 ? tournament_web_delay_s(t) :
	    server_config(srv)->public_delay_s;
}

/*
 * A live game as the web may show it: the plies its stream has published
 * (what was committed and is past the delay), as a game still going, with
 * the stored row changed to say so, and whether its clocks are paused (if
 * paused is given).  Returns the plies to show, -1: all.
 */
static int web_view(struct web_stream *st, struct db_game *row, bool *paused)
{
	int plies = -1;
	json_t *d = web_stream_game_json(st, row->id);

	if (paused)
		*paused = d && json_is_true(json_object_get(d, "paused"));
	if (d) {
		plies = (int)json_integer_value(json_object_get(d, "turns"));
		json_decref(d);
	} else if (row->status == GAME_ACTIVE) {
		/*
		 * Every live game the web may show has a stream from its first
		 * change on; one without is private (or has not changed yet):
		 * none of its moves are shown.
		 */
		plies = 0;
	}
	if (d || row->status == GAME_ACTIVE) {
		row->status = GAME_ACTIVE;
		snprintf(row->result, sizeof row->result, "*");
		row->reason[0] = '\0';
		row->termination = TERMINATION_NONE;
		row->ended = 0;
	}
	return plies;
}

/* lichess's status word for a stored game. */
static const char *stored_status(const struct db_game *row)
{
	switch (row->status) {
	case GAME_ACTIVE:
		return "started";
	case GAME_ABORTED:
		return "aborted";
	case GAME_ADJOURNED:
		return "adjourned";
	default:
		break;
	}
	switch (row->termination) {
	case TERMINATION_TIME_FORFEIT:
		return strcmp(row->result, "1/2-1/2") ? "outoftime" : "draw";
	case TERMINATION_ABANDONED:
		return "timeout";
	case TERMINATION_ADJUDICATION:
		return "adjudication";
	default:
		break;
	}
	if (!strcmp(row->result, "1/2-1/2"))
		return strstr(row->reason, "stalemate") ? "stalemate" : "draw";
	return strstr(row->reason, "checkmated") ? "mate" : "resign";
}

struct sans {
	json_t *list;
	int max_plies;		/* -1: all */
};

static void add_san(void *arg, const struct db_move *m)
{
	struct sans *s = arg;

	if (s->max_plies < 0 || m->ply <= s->max_plies)
		json_array_append_new(s->list, json_string(m->san));
}

/* The stored game as lichess's game JSON, with at most max_plies moves (-1: all). */
static json_t *stored_json(struct db *db, const struct db_game *row, int max_plies)
{
	char id[24], text[64];
	json_t *sans = json_array();
	struct clock_control tc;
	struct sans acc = { sans, max_plies };

	snprintf(id, sizeof id, "%lld", (long long)row->id);
	db_game_moves(db, row->id, add_san, &acc);
	size_t len = 0;
	for (size_t i = 0; i < json_array_size(sans); i++)
		len += strlen(json_string_value(json_array_get(sans, i))) + 1;
	char *moves = calloc(1, len + 1);
	for (size_t i = 0; moves && i < json_array_size(sans); i++) {
		if (i)
			strcat(moves, " ");
		strcat(moves, json_string_value(json_array_get(sans, i)));
	}
	json_decref(sans);
	json_t *clock = json_null();
	if (clock_parse(&tc, row->time_control, NULL, 0) == 0 && !clock_untimed(&tc)) {
		if (tc.period_count == 1 && !tc.periods[0].moves &&
		    (tc.bonus == CLOCK_BONUS_NONE || tc.bonus == CLOCK_BONUS_FISCHER)) {
			clock = json_pack("{s:I,s:I}", "initial", (json_int_t)(tc.periods[0].base_ms / 1000),
			    "increment", (json_int_t)(tc.bonus_ms / 1000));
		} else {
			clock_format(&tc, text, sizeof text);
			clock = json_string(text);
		}
	}
	json_t *players = json_object();
	const char *names[2] = { row->white, row->black }, *ratings[2] = { row->white_rating,
	    row->black_rating }, *colours[2] = { "white", "black" };
	for (int c = 0; c < 2; c++) {
		char lower[DB_NAME_MAX], *end;
		snprintf(lower, sizeof lower, "%s", names[c]);
		for (char *p = lower; *p; p++)
			*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
		long r = strtol(ratings[c], &end, 10);
		json_object_set_new(players, colours[c], json_pack("{s:{s:s,s:s},s:o}", "user",
		    "name", names[c], "id", lower, "rating", end != ratings[c] ? json_integer(r) :
		    json_null()));
	}
	json_t *g = json_pack("{s:s,s:b,s:s,s:s,s:s,s:I,s:s,s:o,s:s,s:o}",
	    "id", id, "rated", row->rated, "variant", "standard", "speed", row->category,
	    "perf", row->category, "createdAt", (json_int_t)row->started * 1000,
	    "status", stored_status(row), "players", players, "moves", moves ? moves : "",
	    "clock", clock);
	free(moves);
	if (g && row->ended)
		json_object_set_new(g, "lastMoveAt", json_integer((json_int_t)row->ended * 1000));
	if (g && row->status == GAME_FINISHED && strcmp(row->result, "1/2-1/2"))
		json_object_set_new(g, "winner", json_string(!strcmp(row->result, "1-0") ? "white" :
		    "black"));
	if (g && row->start_fen[0])
		json_object_set_new(g, "initialFen", json_string(row->start_fen));
	return g;
}

/* Appends the stored game's PGN and a blank line; -1 when it is damaged. */
static int add_pgn(struct server *srv, struct evbuffer *out, const struct db_game *row,
    const char *event, const char *round, int max_plies)
{
	char err[160];
	struct pgn_game *pg = archive_pgn_plies(server_db(srv), row, server_config(srv)->server_name,
	    event, round, max_plies, err, sizeof err);

	if (!pg)
		return -1;
	char *text = pgn_export(pg);
	pgn_game_free(pg);
	if (!text)
		return -1;
	evbuffer_add_printf(out, "%s\n", text);
	free(text);
	return 0;
}

void web_api_export(struct server *srv, struct web_stream *st, struct evhttp_request *req,
    const char *id_text)
{
	long id;
	struct db_game row;

	if (web_number(id_text, 1, INT64_MAX > LONG_MAX ? LONG_MAX : INT64_MAX, &id) != NUMBER_OK) {
		web_reply_error(req, 400, "a game id is a whole number from 1");
		return;
	}
	int found = db_game_load(server_db(srv), id, &row);
	if (found < 0) {
		web_reply_error(req, 500, "the game could not be read");
		return;
	}
	if (!found) {
		web_reply_error(req, 404, "no such game");
		return;
	}
	bool paused;
	int plies = web_view(st, &row, &paused);
	if (web_accepts(req, "application/json")) {
		json_t *g = stored_json(server_db(srv), &row, plies);
		if (g && paused)
			json_object_set_new(g, "paused", json_true());
		web_reply_json(req, 200, g);
		return;
	}
	struct evbuffer *out = evbuffer_new();
	if (!out || add_pgn(srv, out, &row, NULL, NULL, plies) < 0) {
		if (out)
			evbuffer_free(out);
		web_reply_error(req, 500, "the stored game is damaged");
		return;
	}
	web_reply_body(req, PGN_TYPE, out);
}

void web_api_user(struct server *srv, struct evhttp_request *req, const char *name)
{
	struct db_user u;
	char why[160];

	if (!session_valid_name(name, why, sizeof why)) {
		web_reply_error(req, 400, why);
		return;
	}
	int found = db_user_find(server_db(srv), name, &u);
	struct session *s = server_find_session(srv, name);
	if (found < 0 || (!found && !s)) {
		web_reply_error(req, found < 0 ? 500 : 404, found < 0 ? "the account could not be read" :
		    "no such player");
		return;
	}
	json_t *perfs = json_object();
	for (int c = CLOCK_CATEGORY_LIGHTNING; found && c <= CLOCK_CATEGORY_STANDARD; c++) {
		struct rating r;
		if (rating_load(server_db(srv), u.id, (enum clock_category)c, &r) < 0)
			continue;
		json_object_set_new(perfs, clock_category_name((enum clock_category)c),
		    json_pack("{s:i,s:i,s:i}", "rating", (int)lround(r.value.rating),
		    "rd", (int)lround(r.value.rd), "games", rating_games(&r)));
	}
	char lower[DB_NAME_MAX];
	snprintf(lower, sizeof lower, "%s", found ? u.name : session_name(s));
	json_t *user = json_pack("{s:s,s:s,s:o,s:b,s:b}", "username", lower, "id", lower,
	    "perfs", perfs, "online", s != NULL, "registered", found > 0);
	for (char *p = lower; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
	json_object_set_new(user, "id", json_string(lower));
	struct game *g = s ? session_game(s) : NULL;
	if (g) {
		char id[24];
		snprintf(id, sizeof id, "%lld", (long long)game_id(g));
		json_object_set_new(user, "playing", json_pack("{s:s,s:i}", "id", id, "number",
		    game_number(g)));
	}
	web_reply_json(req, 200, user);
}

/* The filters of /api/games/user, as given. */
struct game_filter {
	long max;
	long since_ms, until_ms;	/* -1: none */
	int rated;			/* -1: either */
	char perf[16];			/* "": any */
	bool ndjson;
	struct server *srv;
	struct web_stream *st;
	struct evbuffer *out;
	long count;
};

static void filter_game(void *arg, const struct db_game *row)
{
	struct game_filter *f = arg;

	json_t *live = web_stream_game_json(f->st, row->id);

	/* A game whose end the delay still holds back is not finished on the web. */
	json_decref(live);
	if (live || f->count >= f->max || (f->since_ms >= 0 && row->started * 1000 < f->since_ms) ||
	    (f->until_ms >= 0 && row->started * 1000 > f->until_ms) ||
	    (f->rated >= 0 && row->rated != f->rated) || (f->perf[0] && strcmp(f->perf, row->category)))
		return;
	if (f->ndjson) {
		json_t *g = stored_json(server_db(f->srv), row, -1);
		char *text = g ? json_dumps(g, JSON_COMPACT) : NULL;
		json_decref(g);
		if (!text)
			return;
		evbuffer_add_printf(f->out, "%s\n", text);
		free(text);
	} else if (add_pgn(f->srv, f->out, row, NULL, NULL, -1) < 0) {
		return;
	}
	f->count++;
}

/* Reads the query into f; false after a 400 naming the bad parameter. */
static bool read_filter(struct evhttp_request *req, const char *query, struct game_filter *f)
{
	struct evkeyvalq q;
	bool ok = true;

	TAILQ_INIT(&q);
	if (query && evhttp_parse_query_str(query, &q) < 0) {
		web_reply_error(req, 400, "bad query string");
		return false;
	}
	for (struct evkeyval *kv = q.tqh_first; kv && ok; kv = kv->next.tqe_next) {
		long v;
		const char *why = NULL;
		if (!strcmp(kv->key, "max")) {
			int cap = server_config(f->srv)->limits.web_games_per_request;
			if (web_number(kv->value, 1, cap, &v) != NUMBER_OK)
				why = "max must be a whole number from 1 to web_games_per_request";
			else
				f->max = v;
		} else if (!strcmp(kv->key, "since") || !strcmp(kv->key, "until")) {
			if (web_number(kv->value, 0, LONG_MAX, &v) != NUMBER_OK)
				why = "since and until are times in milliseconds since 1970";
			else
				*(kv->key[0] == 's' ? &f->since_ms : &f->until_ms) = v;
		} else if (!strcmp(kv->key, "rated")) {
			if (strcmp(kv->value, "true") && strcmp(kv->value, "false"))
				why = "rated must be true or false";
			else
				f->rated = !strcmp(kv->value, "true");
		} else if (!strcmp(kv->key, "perfType")) {
			if (strcmp(kv->value, "lightning") && strcmp(kv->value, "blitz") &&
			    strcmp(kv->value, "standard") && strcmp(kv->value, "untimed"))
				why = "perfType must be lightning, blitz, standard or untimed";
			else
				snprintf(f->perf, sizeof f->perf, "%s", kv->value);
		}
		if (why) {
			web_reply_error(req, 400, why);
			ok = false;
		}
	}
	evhttp_clear_headers(&q);
	return ok;
}

void web_api_user_games(struct server *srv, struct web_stream *st, struct evhttp_request *req,
    const char *name, const char *query)
{
	char why[160];
	int cap = server_config(srv)->limits.web_games_per_request;
	struct game_filter f = { .max = cap, .since_ms = -1, .until_ms = -1, .rated = -1,
	    .srv = srv, .st = st, .ndjson = web_accepts(req, "application/x-ndjson") };

	if (!session_valid_name(name, why, sizeof why)) {
		web_reply_error(req, 400, why);
		return;
	}
	if (!read_filter(req, query, &f))
		return;
	if (!(f.out = evbuffer_new())) {
		web_reply_error(req, 500, "out of memory");
		return;
	}
	/* A name without an account owns no games: unknown to the API, as lichess's 404. */
	int64_t owner = account_id_of(srv, name);
	if (!owner) {
		evbuffer_free(f.out);
		web_reply_error(req, 404, "no such player");
		return;
	}
	/* Newest first; filters look at at most web_games_per_request stored games. */
	if (db_games_of(server_db(srv), name, owner, GAME_FINISHED, cap,
	    filter_game, &f) < 0) {
		evbuffer_free(f.out);
		web_reply_error(req, 500, "the games could not be read");
		return;
	}
	web_reply_body(req, f.ndjson ? "application/x-ndjson" : PGN_TYPE, f.out);
}

/* Games /api/games/recent lists when no max is given. */
#define RECENT_GAMES_DEFAULT 20
/* Rows read beyond max, for ended games a delay still holds back (skipped). */
#define RECENT_GAMES_SLACK 64

struct recent {
	struct web_stream *st;
	struct db *db;
	json_t *list;
	long max;
};

static void recent_game(void *arg, const struct db_game *row)
{
	struct recent *r = arg;
	json_t *live;

	if ((long)json_array_size(r->list) >= r->max)
		return;
	if ((live = web_stream_game_json(r->st, row->id))) {
		json_decref(live);
		return;
	}
	json_array_append_new(r->list, stored_json(r->db, row, -1));
}

void web_api_recent(struct server *srv, struct web_stream *st, struct evhttp_request *req,
    const char *query)
{
	int cap = server_config(srv)->limits.web_games_per_request;
	struct recent r = { st, server_db(srv), json_array(), RECENT_GAMES_DEFAULT < cap ?
	    RECENT_GAMES_DEFAULT : cap };
	struct evkeyvalq q;

	TAILQ_INIT(&q);
	if (query && evhttp_parse_query_str(query, &q) < 0) {
		json_decref(r.list);
		web_reply_error(req, 400, "bad query string");
		return;
	}
	const char *max = evhttp_find_header(&q, "max");
	bool bad = max && web_number(max, 1, cap, &r.max) != NUMBER_OK;
	evhttp_clear_headers(&q);
	if (bad) {
		json_decref(r.list);
		web_reply_error(req, 400, "max must be a whole number from 1 to web_games_per_request");
		return;
	}
	long rows = r.max + RECENT_GAMES_SLACK < cap ? r.max + RECENT_GAMES_SLACK : cap;
	if (!r.list || db_games_recent(server_db(srv), (int)rows, recent_game, &r) < 0) {
		json_decref(r.list);
		web_reply_error(req, 500, "the games could not be read");
		return;
	}
	web_reply_json(req, 200, r.list);
}

/* The tournament a path's id names; NULL after a 400 or 404. */
static struct tournament *find_tourney(struct server *srv, struct evhttp_request *req,
    const char *id_text)
{
	long id;

	if (web_number(id_text, 1, LONG_MAX, &id) != NUMBER_OK) {
		web_reply_error(req, 400, "a tournament id is a whole number from 1");
		return NULL;
	}
	struct tournament *t = tournaments_find(server_tournaments(srv), id);
	if (!t)
		web_reply_error(req, 404, "no such tournament");
	return t;
}

static json_t *rounds_json(const struct tournament *t, const struct tourney *core)
{
	json_t *rounds = json_array();

	for (int r = 1; r <= core->rounds_paired; r++) {
		const struct tourney_round *round = &core->rounds[r];
		json_t *pairings = json_array();
		for (int b = 0; b < round->ngames; b++) {
			const struct tourney_game *gm = &round->games[b];
			json_array_append_new(pairings, json_pack("{s:i,s:s,s:s,s:s}", "board", b + 1,
			    "white", core->players[gm->white].name, "black", core->players[gm->black].name,
			    "result", gm->result == TOURNEY_RESULT_NONE ? "*" :
			    tournament_result_text(gm->result)));
			int live = r == core->rounds_paired ? tournament_board_game(t, b + 1) : 0;
			json_object_set_new(json_array_get(pairings, json_array_size(pairings) - 1),
			    "game", live ? json_integer(live) : json_null());
		}
		json_t *byes = json_array();
		for (int i = 0; i < round->nbyes; i++)
			json_array_append_new(byes, json_string(core->players[round->byes[i].player].name));
		json_array_append_new(rounds, json_pack("{s:i,s:o,s:o}", "round", r, "pairings",
		    pairings, "byes", byes));
	}
	return rounds;
}

/* One round of a player as the crosstable shows it: result as in TRF ("1", "=",
 * "0", "+", "-", "*" not yet, or a bye's letter U, H, Z, F). */
static json_t *slot_json(const struct tourney_slot *sl)
{
	static const char bye_letters[] = "?UHZF";
	char res[2] = "-";

	if (sl->bye != TOURNEY_BYE_NONE)
		res[0] = bye_letters[sl->bye];
	else if (sl->opponent && sl->result == TOURNEY_RESULT_NONE)
		res[0] = '*';
	else if (sl->opponent && sl->played)
		res[0] = sl->points_half == 2 ? '1' : sl->points_half == 1 ? '=' : '0';
	else if (sl->opponent)
		res[0] = sl->points_half ? '+' : '-';
	return json_pack("{s:o,s:o,s:s}", "opponent", sl->opponent ? json_integer(sl->opponent) :
	    json_null(), "color", !sl->opponent || sl->bye != TOURNEY_BYE_NONE ? json_null() :
	    json_string(sl->colour == TOURNEY_WHITE ? "white" : "black"), "result", res);
}

/* Every player by start number, with each round's opponent, colour and result. */
static json_t *crosstable_json(const struct tourney *core)
{
	json_t *rows = json_array();
	struct tourney_slot *slots = calloc((size_t)core->nplayers + 1, sizeof *slots);

	for (int p = 1; slots && p <= core->nplayers; p++)
		json_array_append_new(rows, json_pack("{s:i,s:s,s:i,s:f,s:[]}", "no", p,
		    "name", core->players[p].name, "rating", core->players[p].rating,
		    "score", tourney_score_half(core, p, core->rounds_paired) / 2.0, "rounds"));
	for (int r = 1; slots && r <= core->rounds_paired; r++) {
		tourney_round_slots(core, r, slots);
		for (int p = 1; p <= core->nplayers; p++)
			json_array_append_new(json_object_get(json_array_get(rows, (size_t)p - 1),
			    "rounds"), slot_json(&slots[p]));
	}
	free(slots);
	return rows;
}

static void list_tourney(struct tournament *t, void *arg)
{
	json_array_append_new(arg, json_pack("{s:I,s:s,s:s,s:s,s:i,s:i}",
	    "id", (json_int_t)tournament_id(t), "name", tournament_name(t),
	    "system", tournament_kind_name(tournament_kind(t)),
	    "state", tournament_state_name(tournament_state(t)),
	    "rounds", tournament_core(t)->nrounds, "currentRound", tournament_core(t)->rounds_paired));
}

void web_api_tourneys(struct server *srv, struct evhttp_request *req)
{
	json_t *list = json_array();

	if (list)
		tournaments_each(server_tournaments(srv), list_tourney, list);
	web_reply_json(req, 200, list);
}

json_t *web_api_tourney_json(struct server *srv, int64_t id)
{
	struct tournament *t = tournaments_find(server_tournaments(srv), id);

	if (!t)
		return NULL;
	const struct tourney *core = tournament_core(t);
	enum tiebreak order[TIEBREAK_MAX];
	int norder = tournament_tiebreaks(t, order);
	struct tiebreak_row rows[TOURNEY_PLAYERS_MAX];
	char err[160];
	json_t *standings = json_array(), *names = json_array();

	for (int i = 0; i < norder; i++)
		json_array_append_new(names, json_string(tiebreak_name(order[i])));
	if (core->nplayers > 0 && tiebreak_standings(core, tournament_rounds_done(t), order, norder,
	    rows, err, sizeof err) == 0) {
		for (int i = 0; i < core->nplayers; i++) {
			const struct tourney_player *p = &core->players[rows[i].player];
			json_t *tb = json_object();
			for (int k = 0; k < norder; k++)
				json_object_set_new(tb, tiebreak_name(order[k]), json_real(rows[i].value[k]));
			json_array_append_new(standings, json_pack("{s:i,s:s,s:i,s:f,s:o}",
			    "rank", rows[i].rank, "name", p->name, "rating", p->rating,
			    "score", rows[i].points_half / 2.0, "tiebreaks", tb));
		}
	}
	return json_pack("{s:I,s:s,s:s,s:s,s:i,s:i,s:i,s:s,s:b,s:i,s:o,s:o,s:o,s:o}",
	    "id", (json_int_t)tournament_id(t), "name", tournament_name(t),
	    "system", tournament_kind_name(tournament_kind(t)),
	    "state", tournament_state_name(tournament_state(t)),
	    "rounds", core->nrounds, "currentRound", core->rounds_paired,
	    "roundsDone", tournament_rounds_done(t), "timeControl", tournament_time_control(t),
	    "rated", tournament_rated(t), "delay", web_api_delay_s(srv, tournament_id(t)),
	    "tiebreaks", names, "standings", standings,
	    "pairings", rounds_json(t, core), "crosstable", crosstable_json(core));
}

void web_api_tourney(struct server *srv, struct evhttp_request *req, const char *id_text)
{
	struct tournament *t = find_tourney(srv, req, id_text);

	if (t)
		web_reply_json(req, 200, web_api_tourney_json(srv, tournament_id(t)));
}

struct round_games {
	struct server *srv;
	struct web_stream *st;
	struct tournament *t;
	long round;
	struct evbuffer *out;
};

static void round_game(void *arg, const struct db_tourney_pairing *p)
{
	struct round_games *rg = arg;
	struct db_game row;
	char round[32];

	if (p->round != rg->round || !p->game_id ||
	    db_game_load(server_db(rg->srv), p->game_id, &row) <= 0)
		return;
	int plies = web_view(rg->st, &row, NULL);
	snprintf(round, sizeof round, "%d.%d", p->round, p->board);
	add_pgn(rg->srv, rg->out, &row, tournament_name(rg->t), round, plies);
}

void web_api_tourney_file(struct server *srv, struct web_stream *st, struct evhttp_request *req,
    const char *rest)
{
	char id_text[32];
	size_t n = strcspn(rest, "./");

	if (n >= sizeof id_text) {
		web_reply_error(req, 400, "a tournament id is a whole number from 1");
		return;
	}
	memcpy(id_text, rest, n);
	id_text[n] = '\0';
	const char *tail = rest + n;
	bool trf = !strcmp(tail, ".trf");
	const char *round_text = !strncmp(tail, "/round/", 7) ? tail + 7 : NULL;
	size_t rlen = round_text ? strlen(round_text) : 0;
	if (!trf && !(round_text && rlen > 4 && !strcmp(round_text + rlen - 4, ".pgn"))) {
		web_reply_error(req, 404, "not found");
		return;
	}
	struct tournament *t = find_tourney(srv, req, id_text);
	if (!t)
		return;
	struct evbuffer *out = evbuffer_new();
	if (!out) {
		web_reply_error(req, 500, "out of memory");
		return;
	}
	if (trf) {
		enum tiebreak order[TIEBREAK_MAX];
		int norder = tournament_tiebreaks(t, order);
		size_t len = trf_export(tournament_core(t), order, norder, NULL, 0);
		char *text = malloc(len + 1);
		if (!text) {
			evbuffer_free(out);
			web_reply_error(req, 500, "out of memory");
			return;
		}
		trf_export(tournament_core(t), order, norder, text, len + 1);
		evbuffer_add(out, text, len);
		free(text);
		web_reply_body(req, "text/plain; charset=utf-8", out);
		return;
	}
	char number[16];
	long round;
	snprintf(number, sizeof number, "%.*s", (int)(rlen - 4), round_text);
	if (rlen - 4 >= sizeof number ||
	    web_number(number, 1, TOURNEY_ROUNDS_MAX, &round) != NUMBER_OK) {
		evbuffer_free(out);
		web_reply_error(req, 400, "a round is a whole number from 1");
		return;
	}
	struct round_games rg = { srv, st, t, round, out };
	if (db_tourney_pairings(server_db(srv), tournament_id(t), round_game, &rg) < 0) {
		evbuffer_free(out);
		web_reply_error(req, 500, "the games could not be read");
		return;
	}
	web_reply_body(req, PGN_TYPE, out);
}
