#define _GNU_SOURCE
/* Watching: observe, unobserve, follow, games, allobservers, kibitz, whisper. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blkcmd.h"
#include "cmd.h"
#include "examine.h"
#include "fics.h"
#include "game.h"
#include "number.h"
#include "server.h"
#include "session.h"

/* Adds s to g's observers and shows the game as FICS does. */
static void watch(struct session *s, struct game *g)
{
	char err[FICS_LINE_MAX];

	if (game_watch(g, s, err, sizeof err) < 0)
		session_printf(s, "%s\n", err);
}

static void cmd_observe(struct session *s, const struct cmd_args *a)
{
	watch(s, a->game);
}

static void cmd_unobserve(struct session *s, const struct cmd_args *a)
{
	if (!a->argc) {
		if (!session_observed_count(s)) {
			session_printf(s, "You are not observing any games.\n");
			return;
		}
		while (session_observed_count(s)) {
			struct game *g = session_observed_at(s, 0);
			session_printf(s, "Removing game %d from observation list.\n", game_number(g));
			session_unobserve(s, g);
		}
		return;
	}
	struct game *g = cmd_find_game(s, a->argv[0]);
	if (!g)
		return;
	if (!session_observing(s, g)) {
		session_printf(s, "You are not observing game %d.\n", game_number(g));
		return;
	}
	session_unobserve(s, g);
	session_printf(s, "Removing game %d from observation list.\n", game_number(g));
}

static void cmd_follow(struct session *s, const struct cmd_args *a)
{
	if (!a->argc) {
		if (!*session_following(s))
			session_printf(s, "You are not following any player's games.\n");
		else
			session_printf(s, "You will not follow %s's games any more.\n",
			    session_following(s));
		session_set_following(s, NULL);
		return;
	}
	struct session *who = server_find_session(session_server(s), a->argv[0]);
	if (!who) {
		session_printf(s, "No user named \"%s\" is logged in.\n", a->argv[0]);
		return;
	}
	if (who == s) {
		session_printf(s, "You can't follow your own games.\n");
		return;
	}
	session_set_following(s, who);
	session_printf(s, "You will now be following %s's games.\n", session_name(who));
	if (session_game(who))
		watch(s, session_game(who));
}

/* Lines gathered before they go to the session: a few thousand bytes per write. */
#define LISTING_CHUNK 8192

struct listing {
	struct session *s;
	const char *filter;
	int number;		/* "games N" shows game N only; 0 for all */
	int shown;
};

/* `games`: the listing and its lines not yet written. */
struct games_list {
	struct listing l;
	size_t used;
	char text[LISTING_CHUNK];
};

static void games_flush(struct games_list *gl)
{
	if (gl->used)
		session_write(gl->l.s, gl->text, gl->used);
	gl->used = 0;
}

/* "games /b" by category letter, /r /u by rated, or a part of a name. */
static bool game_matches(struct game *g, const struct listing *l)
{
	const char *filter = l->filter;

	if (l->number)
		return game_number(g) == l->number;
	if (!filter)
		return true;
	if (filter[0] == '/') {
		for (const char *f = filter + 1; *f; f++) {
			char cat = clock_category_letter(clock_category(game_clock(g)));
			if ((*f == 'r' && game_rated(g)) || (*f == 'u' && !game_rated(g) && cat != 'u') ||
			    *f == cat)
				return true;
		}
		return false;
	}
	return strcasestr(game_player_name(g, WHITE), filter) ||
	    strcasestr(game_player_name(g, BLACK), filter);
}

static void games_line(struct game *g, void *arg)
{
	struct games_list *gl = arg;
	struct fics_game_view v;

	if (!game_matches(g, &gl->l))
		return;
	if (sizeof gl->text - gl->used < FICS_LINE_MAX + 1)
		games_flush(gl);
	game_list_view(g, &v);
	gl->used += fics_games_line(&v, gl->text + gl->used, FICS_LINE_MAX);
	gl->text[gl->used++] = '\n';
	gl->l.shown++;
}

static void cmd_games(struct session *s, const struct cmd_args *a)
{
	struct games_list gl = { .l = { s, a->argc ? a->argv[0] : NULL, 0, 0 } };
	struct listing *l = &gl.l;
	struct games *gs = server_games(session_server(s));
	long number;

	/*
	 * lasker's line, except for a plain "games": eboard reads that list
	 * until "N games displayed." and would wait on.
	 */
	if (!games_count(gs) && l->filter) {
		session_printf(s, "There are no games in progress.\n");
		return;
	}
	/* As in FICS, a number names a game, anything else filters by player. */
	if (l->filter && number_parse(l->filter, 1, INT_MAX, &number) == NUMBER_OK)
		l->number = (int)number;
	games_each(gs, games_line, &gl);
	games_flush(&gl);
	if (!l->shown && l->filter)
		session_printf(s, "No matching games were found (of %d in progress).\n",
		    games_count(gs));
	/* Clients wait for "N games displayed." (eboard matches that wording). */
	else if (l->filter)
		session_printf(s, "\n  %d games displayed (of %d in progress).\n", l->shown,
		    games_count(gs));
	else
		session_printf(s, "\n  %d games displayed.\n", l->shown);
}

static void observer_name(struct session *o, void *arg)
{
	session_printf(arg, " %s%s", session_name(o), session_flags(o));
}

static void examiner_name(struct session *e, void *arg)
{
	session_printf(arg, " #%s%s", session_name(e), session_flags(e));
}

/* As lasker: "Examining 3 [alice vs bob]:" (or "(scratch)"), examiners marked "#". */
static void examiners_of(struct game *g, struct listing *l)
{
	struct examine *ex = game_examine(g);

	if (examine_scratch_board(ex))
		session_printf(l->s, "Examining %2d (scratch):", game_number(g));
	else
		session_printf(l->s, "Examining %2d [%s vs %s]:", game_number(g),
		    game_player_name(g, WHITE), game_player_name(g, BLACK));
	examine_each_examiner(ex, examiner_name, l->s);
	game_each_observer(g, observer_name, l->s);
	session_printf(l->s, " (%d user%s)\n", game_observer_count(g),
	    game_observer_count(g) == 1 ? "" : "s");
	l->shown++;
}

static void observers_of(struct game *g, void *arg)
{
	struct listing *l = arg;

	/* As lasker: who watches a private game is for admins to see. */
	if (game_private(g) && !session_admin(l->s))
		return;
	if (game_examine(g)) {
		examiners_of(g, l);
		return;
	}
	/* For one game asked by name or number: the line pychess's on_allob_no reads. */
	if (!game_observer_count(g)) {
		if (l->filter)
			session_printf(l->s, "No one is observing game %d.\n", game_number(g));
		return;
	}
	session_printf(l->s, "Observing %2d [%s vs. %s]:", game_number(g), game_player_name(g, WHITE),
	    game_player_name(g, BLACK));
	game_each_observer(g, observer_name, l->s);
	session_printf(l->s, " (%d user%s)\n", game_observer_count(g),
	    game_observer_count(g) == 1 ? "" : "s");
	l->shown++;
}

static void cmd_allobservers(struct session *s, const struct cmd_args *a)
{
	struct listing l = { s, NULL, 0, 0 };

	if (a->argc) {
		struct game *g = cmd_find_game(s, a->argv[0]);
		if (g) {
			l.filter = a->argv[0];
			observers_of(g, &l);
		}
		return;
	}
	games_each(server_games(session_server(s)), observers_of, &l);
	session_printf(s, "  %d game%s displayed.\n", l.shown, l.shown == 1 ? "" : "s");
}

/*
 * As lasker: a guest talks only in a game of its own (played or examined),
 * never into other people's, so a throwaway name cannot spam their observers.
 */
static void chat(struct session *s, const char *text, bool whisper)
{
	struct game *g = session_game(s);

	if (!g && session_examining(s))
		g = examine_game(session_examining(s));
	bool own = g != NULL;
	if (!g && session_observed_count(s))
		g = session_observed_at(s, 0);
	if (!g) {
		session_printf(s, "You are not playing or observing a game.\n");
		return;
	}
	if (!own && !session_registered(s)) {
		session_printf(s, "You must be registered to %s other people's games.\n",
		    whisper ? "whisper" : "kibitz");
		return;
	}
	game_chat(g, s, text, whisper);
}

static void cmd_kibitz(struct session *s, const struct cmd_args *a)
{
	chat(s, a->argv[0], false);
}

static void cmd_whisper(struct session *s, const struct cmd_args *a)
{
	chat(s, a->argv[0], true);
}

const struct cmd_entry cmd_observe_entry = {
	.name = "observe",
	.args = "w",
	.flags = CMD_GAME_ARG,
	.code = BLKCMD_OBSERVE,
	.exec = cmd_observe,
	.usage = "observe <game|name>",
	.summary = "Watch a game",
};
const struct cmd_entry cmd_unobserve_entry = {
	.name = "unobserve",
	.args = "o",
	.code = BLKCMD_UNOBSERVE,
	.exec = cmd_unobserve,
	.usage = "unobserve [game|name]",
	.summary = "Stop watching",
};
const struct cmd_entry cmd_follow_entry = {
	.name = "follow",
	.args = "o",
	.code = BLKCMD_FOLLOW,
	.exec = cmd_follow,
	.usage = "follow [name]",
	.summary = "Watch every game a player starts",
};
const struct cmd_entry cmd_games_entry = {
	.name = "games",
	.args = "o",
	.code = BLKCMD_GAMES,
	.exec = cmd_games,
	.usage = "games [name|/blsur]",
	.summary = "Games in progress",
};
const struct cmd_entry cmd_allobservers_entry = {
	.name = "allobservers",
	.args = "o",
	.code = BLKCMD_ALLOBSERVERS,
	.exec = cmd_allobservers,
	.usage = "allobservers [game|name]",
	.summary = "Who watches which game",
};
const struct cmd_entry cmd_kibitz_entry = {
	.name = "kibitz",
	.args = "S",
	.code = BLKCMD_KIBITZ,
	.exec = cmd_kibitz,
	.usage = "kibitz <message>",
	.summary = "Talk to players and observers",
};
const struct cmd_entry cmd_whisper_entry = {
	.name = "whisper",
	.args = "S",
	.code = BLKCMD_WHISPER,
	.exec = cmd_whisper,
	.usage = "whisper <message>",
	.summary = "Talk to observers only",
};
