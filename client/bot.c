#include "bot.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <event2/event.h>

#include "engine.h"
#include "number.h"
#include "san.h"
#include "style12.h"
#include "uci_position.h"

/* One game the account plays, with the engine that plays it. */
struct bot_game {
	struct bot *bot;
	struct engine *engine;
	int number;			/* 0: free */
	char opponent[STYLE12_NAME_MAX];
	struct style12 s12;
	struct board board;
	int ply;
	struct uci_position *position;	/* what the engine is told */
	int thinking_ply;		/* ply the engine is searching, or -1 */
	bool given_up;			/* longer than any game: resigned, not followed */
};

struct bot {
	struct event_base *base;
	struct ics *ics;
	struct bot_options opt;
	struct bot_game games[BOT_GAMES_MAX];
	struct event *sigint, *sigterm;
	enum ics_exit code;
	bool seeking;
};

static void post_seek(struct bot *b)
{
	char cmd[128];

	if (!b->opt.seek || b->seeking)
		return;
	int active = 0;
	for (int i = 0; i < b->opt.max_games; i++)
		active += b->games[i].number != 0;
	if (active >= b->opt.max_games)
		return;
	snprintf(cmd, sizeof cmd, "seek %s", b->opt.seek);
	ics_command(b->ics, cmd);
	b->seeking = true;
}

static void engine_bestmove(void *arg, const char *uci)
{
	struct bot_game *g = arg;

	if (!g->number || g->thinking_ply != g->ply || !strcmp(uci, "(none)"))
		return;
	ics_command(g->bot->ics, uci);
}

static void engine_died(void *arg, const char *why)
{
	struct bot_game *g = arg;

	fprintf(stderr, "chess: engine for game %d: %s\n", g->number, why);
	if (g->number)
		ics_command(g->bot->ics, "resign");
	engine_free(g->engine);
	g->engine = NULL;
}

static struct bot_game *game_find(struct bot *b, int number)
{
	for (int i = 0; i < b->opt.max_games; i++)
		if (b->games[i].number == number)
			return &b->games[i];
	return NULL;
}

/* A position update of a game the account plays: track moves, think when on move. */
static void bot_position(struct bot *b, const struct style12 *s)
{
	static const struct engine_callbacks cb = { engine_bestmove, engine_died };
	struct bot_game *g = game_find(b, s->game);
	int ply = style12_ply(s);
	char why[256];

	if (!g) {
		if (!(g = game_find(b, 0)))
			return;			/* more games than engines: the server will not ask */
		if (!g->position && !(g->position = uci_position_new())) {
			fprintf(stderr, "chess: out of memory for game %d\n", s->game);
			return;
		}
		if (!g->engine && !(g->engine = engine_new(b->base, b->opt.engine, b->opt.options,
		    b->opt.option_count, &cb, g, why, sizeof why))) {
			fprintf(stderr, "chess: %s\n", why);
			return;
		}
		engine_new_game(g->engine);
		g->number = s->game;
		g->ply = -1;
		g->thinking_ply = -1;
		g->given_up = false;
		b->seeking = false;		/* the server drops seeks when a game starts */
	}
	if (g->given_up)
		return;
	snprintf(g->opponent, sizeof g->opponent, "%s",
	    style12_my_color(s) == WHITE ? s->black : s->white);
	move m;
	if (g->ply >= 0 && ply == g->ply + 1 &&
	    san_parse(&g->board, s->san, SAN_ENGLISH, NO_TYPE, &m) == SAN_OK) {
		if (uci_position_add(g->position, m) < 0) {
			fprintf(stderr, "chess: game %d: more than %d plies, longer than any game can "
			    "be; resigning it\n", g->number, UCI_POSITION_PLIES_MAX);
			g->given_up = true;
			g->thinking_ply = -1;
			ics_command(b->ics, "resign");
			return;
		}
	} else if (ply != g->ply) {
		style12_board(s, &g->board);
		uci_position_reset(g->position, &g->board);
	}
	style12_board(s, &g->board);
	g->s12 = *s;
	g->ply = ply;
	if (s->relation == REL_PLAYING_MY_MOVE && g->thinking_ply != ply && g->engine) {
		g->thinking_ply = ply;
		engine_go(g->engine, uci_position_text(g->position), s->clock_ms[WHITE],
		    s->clock_ms[BLACK], s->increment_s * 1000LL, s->increment_s * 1000LL);
	}
}

static void bot_game_over(struct bot *b, int number)
{
	struct bot_game *g = game_find(b, number);

	if (!g)
		return;
	g->number = 0;
	g->thinking_ply = -1;
	g->given_up = false;
	post_seek(b);
}

static void bot_draw_offer(struct bot *b, const char *from)
{
	for (int i = 0; i < b->opt.max_games; i++) {
		struct bot_game *g = &b->games[i];
		int cp;
		if (!g->number || strcasecmp(g->opponent, from) || !g->engine)
			continue;
		/* The last search was on our move: its score is from our side. */
		bool known = engine_score_cp(g->engine, &cp);
		ics_command(b->ics, known && cp <= BOT_DRAW_ACCEPT_CP ? "accept" : "decline");
		return;
	}
}

static void bot_challenge(struct bot *b, const char *line)
{
	char name[STYLE12_NAME_MAX], cmd[64];
	int id;

	if (sscanf(line, "<pf> " NUMBER_SCAN_INT " w=%31s", &id, name) != 2)
		return;
	for (int i = 0; i < b->opt.accept_count; i++)
		if (!strcasecmp(b->opt.accept_from[i], name) && game_find(b, 0)) {
			snprintf(cmd, sizeof cmd, "accept %d", id);
			ics_command(b->ics, cmd);
			return;
		}
}

static void on_online(void *arg)
{
	struct bot *b = arg;

	post_seek(b);
}

static void on_line(void *arg, const char *line, long block)
{
	struct bot *b = arg;
	struct style12 s;
	int number, n = 0;
	char who[STYLE12_NAME_MAX];

	(void)block;
	if (*line) {
		printf("%s\n", line);
		fflush(stdout);
	}
	if (!style12_parse(line, &s)) {
		if (style12_playing(&s))
			bot_position(b, &s);
	} else if (sscanf(line, "{Game " NUMBER_SCAN_INT " (%*[^)]) %n", &number, &n) == 1 && n &&
	    !strstr(line, "Creating") && !strstr(line, "Continuing") && strrchr(line, '}')) {
		bot_game_over(b, number);
	} else if (sscanf(line, "%31s offers you a draw%n", who, &n) == 1 && n) {
		bot_draw_offer(b, who);
	} else if (!strncmp(line, "<pf> ", 5)) {
		bot_challenge(b, line);
	}
}

static void on_block_end(void *arg, long id)
{
	(void)arg;
	(void)id;
}

static void on_ended(void *arg, enum ics_exit code, const char *why)
{
	struct bot *b = arg;

	fprintf(stderr, "chess: %s\n", why);
	b->code = code;
	event_base_loopexit(b->base, NULL);
}

const struct ics_handler *bot_handler(void)
{
	static const struct ics_handler h = { on_online, on_line, on_block_end, on_ended };
	return &h;
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct bot *b = arg;

	(void)sig;
	(void)what;
	b->code = EXIT_OK;
	event_base_loopexit(b->base, NULL);
}

struct bot *bot_new(struct event_base *base, const struct bot_options *o, char *why, size_t why_len)
{
	struct bot *b = calloc(1, sizeof *b);

	if (!b) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	b->base = base;
	b->opt = *o;
	if (b->opt.max_games > BOT_GAMES_MAX)
		b->opt.max_games = BOT_GAMES_MAX;
	for (int i = 0; i < BOT_GAMES_MAX; i++) {
		b->games[i].bot = b;
		b->games[i].thinking_ply = -1;
	}
	if (access(o->engine, X_OK) < 0) {
		snprintf(why, why_len, "%s: cannot run it", o->engine);
		bot_free(b);
		return NULL;
	}
	b->sigint = evsignal_new(base, SIGINT, on_signal, b);
	b->sigterm = evsignal_new(base, SIGTERM, on_signal, b);
	if (!b->sigint || !b->sigterm) {
		snprintf(why, why_len, "cannot watch signals");
		bot_free(b);
		return NULL;
	}
	evsignal_add(b->sigint, NULL);
	evsignal_add(b->sigterm, NULL);
	return b;
}

void bot_attach(struct bot *b, struct ics *c)
{
	b->ics = c;
}

enum ics_exit bot_exit_code(const struct bot *b)
{
	return b->code;
}

void bot_free(struct bot *b)
{
	if (!b)
		return;
	for (int i = 0; i < BOT_GAMES_MAX; i++) {
		engine_free(b->games[i].engine);
		uci_position_free(b->games[i].position);
	}
	if (b->sigint)
		event_free(b->sigint);
	if (b->sigterm)
		event_free(b->sigterm);
	free(b);
}
