/* Playing: moves, resign, draw, abort, adjourn, takeback, flag, say, and
 * the game's record: moves, refresh, pgn. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "account.h"
#include "archive.h"
#include "blkcmd.h"
#include "cmd.h"
#include "config.h"
#include "db.h"
#include "examine.h"
#include "fics.h"
#include "game.h"
#include "lists.h"
#include "number.h"
#include "pgn.h"
#include "server.h"
#include "session.h"

bool cmd_try_move(struct session *s, const char *line)
{
	enum san_lang lang = session_var(s, VAR_LANG) == 1 ? SAN_SPANISH : SAN_ENGLISH;

	if (session_examining(s))
		return examine_try_line(session_examining(s), s, line);
	if (!san_looks_like_move(line, lang) && !san_looks_like_move(line, SAN_ENGLISH))
		return false;
	struct game *g = session_game(s);
	session_block_begin(s, g ? BLOCK_MOVE : BLOCK_NOT_PLAYING);
	if (g)
		game_move(g, s, line);
	else
		session_printf(s, "You are not playing a game.\n");
	return true;
}

static void cmd_resign(struct session *s, const struct cmd_args *a)
{
	game_resign(a->game, s);
}

static void cmd_draw(struct session *s, const struct cmd_args *a)
{
	game_draw(a->game, s, a->argc ? a->argv[0] : NULL);
}

static void cmd_abort(struct session *s, const struct cmd_args *a)
{
	game_abort(a->game, s);
}

static void cmd_adjourn(struct session *s, const struct cmd_args *a)
{
	game_adjourn(a->game, s);
}

static void cmd_takeback(struct session *s, const struct cmd_args *a)
{
	game_takeback(a->game, s, a->argc ? a->number[0] : 1);
}

static void cmd_flag(struct session *s, const struct cmd_args *a)
{
	game_flag(a->game, s);
}

static void cmd_say(struct session *s, const struct cmd_args *a)
{
	struct game *g = session_game(s);
	const char *name = NULL;
	struct session *to = NULL;

	if (g) {
		int c = game_color_of(g, s);
		to = game_player(g, color_other((enum color)c));
		name = game_player_name(g, color_other((enum color)c));
	} else if (*session_last_opponent(s)) {
		name = session_last_opponent(s);
		to = session_last_opponent_online(s);
	}
	if (!name) {
		session_printf(s, "I don't know whom to say that to.\n");
		return;
	}
	if (!to) {
		session_printf(s, "%s is not logged in.\n", name);
		return;
	}
	if (lists_censors(to, s)) {
		session_printf(s, "Player \"%s\" is censoring you.\n", session_name(to));
		return;
	}
	if (g)
		session_notify(to, "%s%s[%d] says: %s", session_name(s), session_flags(s),
		    game_number(g), a->argv[0]);
	else
		session_notify(to, "%s%s says: %s", session_name(s), session_flags(s), a->argv[0]);
	session_printf(s, "(told %s)\n", session_name(to));
}

/* A game named by number, or by a player in it; defaults to one's own. */
struct game *cmd_find_game(struct session *s, const char *which)
{
	struct server *srv = session_server(s);

	if (!which) {
		struct game *g = session_game(s);
		if (!g && session_examining(s))
			g = examine_game(session_examining(s));
		if (!g && session_observed_count(s))
			g = session_observed_at(s, 0);
		if (!g)
			session_printf(s, "You are neither playing nor observing a game.\n");
		return g;
	}
	long n;
	enum number_status st = number_parse(which, 1, INT_MAX, &n);
	/* As lasker's GameNumFromParam: a number below 1 is no game number at all. */
	if (st == NUMBER_RANGE && number_parse(which, INT_MIN, 0, &n) == NUMBER_OK) {
		session_printf(s, "%ld is not a valid game number.\n", n);
		return NULL;
	}
	if (st != NUMBER_JUNK) {
		struct game *g = st == NUMBER_OK ? games_find(server_games(srv), (int)n) : NULL;
		if (!g)
			session_printf(s, "There is no such game.\n");
		return g;
	}
	struct session *who = server_find_session(srv, which);
	if (!who) {
		session_printf(s, "No user named \"%s\" is logged in.\n", which);
		return NULL;
	}
	if (!session_game(who) && session_examining(who))
		return examine_game(session_examining(who));
	if (!session_game(who)) {
		session_printf(s, "%s is not playing a game.\n", session_name(who));
		return NULL;
	}
	return session_game(who);
}

/* As lasker: a private game's moves and board are for its players and admins. */
static bool open_to(struct session *s, struct game *g)
{
	if (game_open_to(g, s))
		return true;
	session_printf(s, "Sorry, that is a private game.\n");
	return false;
}

static void cmd_moves(struct session *s, const struct cmd_args *a)
{
	struct fics_game_view v;

	if (!open_to(s, a->game))
		return;
	game_view(a->game, &v);
	fics_movelist(s, &v);
}

static void cmd_refresh(struct session *s, const struct cmd_args *a)
{
	if (!open_to(s, a->game))
		return;
	game_send_board(a->game, s);
}

static void print_pgn(struct session *s, struct pgn_game *pg)
{
	char *text = pgn_export(pg);

	pgn_game_free(pg);
	if (!text) {
		session_printf(s, "Out of memory.\n");
		return;
	}
	session_printf(s, "%s", text);
	free(text);
}

/* A stored game as PGN, from the database: the one `history` numbers so (see db_record_find). */
static void stored_pgn(struct session *s, const char *name, const char *number_text)
{
	struct db *db = server_db(session_server(s));
	struct db_game row;
	int number;
	char err[160];

	if (!cmd_record_number(s, number_text, &number))
		return;
	if (db_record_find(db, name, account_games_owner(session_server(s), name), number,
	    &row) <= 0) {
		session_printf(s, "%s has no such game.\n", name);
		return;
	}
	struct pgn_game *pg = archive_pgn(db, &row, server_config(session_server(s))->server_name,
	    NULL, NULL, err, sizeof err);
	if (!pg) {
		session_printf(s, "%s\n", err);
		return;
	}
	print_pgn(s, pg);
}

/*
 * A game as PGN from the rules core's exporter: a live game by number or
 * player, else (pgn NAME [N]) a player's game numbered N in history.
 */
static void cmd_pgn(struct session *s, const struct cmd_args *a)
{
	char err[160];
	struct game *g = NULL;

	if (a->argc == 2) {
		stored_pgn(s, a->argv[0], a->argv[1]);
		return;
	}
	if (a->argc == 1) {
		long n;
		bool number = number_parse(a->argv[0], LONG_MIN, LONG_MAX, &n) != NUMBER_JUNK;
		struct session *who = server_find_session(session_server(s), a->argv[0]);
		if (!number && !(who && (session_game(who) || session_examining(who)))) {
			stored_pgn(s, a->argv[0], NULL);
			return;
		}
	}
	if (!(g = cmd_find_game(s, a->argc ? a->argv[0] : NULL)) || !open_to(s, g))
		return;
	const struct position *pos = game_position(g);
	struct pgn_game *pg = pgn_game_new(position_start_fen(pos), err, sizeof err);
	if (!pg) {
		session_printf(s, "%s\n", err);
		return;
	}
	archive_tags(pg, server_config(session_server(s))->server_name, NULL, game_rated(g),
	    game_started(g), game_player_name(g, WHITE), game_player_name(g, BLACK), game_clock(g));
	for (int ply = 0; ply < position_ply_count(pos); ply++)
		pgn_game_play(pg, position_move_at(pos, ply),
		    clock_untimed(game_clock(g)) ? PGN_NO_CLOCK : game_move_clock_ms(g, ply));
	print_pgn(s, pg);
}

const struct cmd_entry cmd_resign_entry = {
	.name = "resign",
	.args = "",
	.code = BLKCMD_RESIGN,
	.flags = CMD_PLAYING,
	.exec = cmd_resign,
	.usage = "resign",
	.summary = "Resign your game",
};
const struct cmd_entry cmd_draw_entry = {
	.name = "draw",
	.args = "o",
	.code = BLKCMD_DRAW,
	.flags = CMD_PLAYING,
	.exec = cmd_draw,
	.usage = "draw [move]",
	.summary = "Offer or accept a draw, or claim one (also with the move you intend)",
};
const struct cmd_entry cmd_abort_entry = {
	.name = "abort",
	.args = "",
	.code = BLKCMD_ABORT,
	.flags = CMD_PLAYING,
	.exec = cmd_abort,
	.usage = "abort",
	.summary = "Ask to abort the game",
};
const struct cmd_entry cmd_adjourn_entry = {
	.name = "adjourn",
	.args = "",
	.code = BLKCMD_ADJOURN,
	.flags = CMD_PLAYING,
	.exec = cmd_adjourn,
	.usage = "adjourn",
	.summary = "Ask to adjourn the game",
};
const struct cmd_entry cmd_takeback_entry = {
	.name = "takeback",
	.args = "n",
	.code = BLKCMD_TAKEBACK,
	.flags = CMD_PLAYING,
	.exec = cmd_takeback,
	.usage = "takeback [half-moves]",
	.summary = "Ask to take moves back",
};
const struct cmd_entry cmd_flag_entry = {
	.name = "flag",
	.args = "",
	.code = BLKCMD_FLAG,
	.flags = CMD_PLAYING,
	.exec = cmd_flag,
	.usage = "flag",
	.summary = "Claim a win on time or over an absent opponent (a draw if you cannot mate)",
};
const struct cmd_entry cmd_say_entry = {
	.name = "say",
	.args = "S",
	.code = BLKCMD_SAY,
	.exec = cmd_say,
	.usage = "say <message>",
	.summary = "Talk to your opponent",
};
const struct cmd_entry cmd_moves_entry = {
	.name = "moves",
	.args = "o",
	.code = BLKCMD_MOVES,
	.flags = CMD_GAME_ARG,
	.exec = cmd_moves,
	.usage = "moves [game|name]",
	.summary = "The moves of a game",
};
const struct cmd_entry cmd_refresh_entry = {
	.name = "refresh",
	.args = "o",
	.code = BLKCMD_REFRESH,
	.flags = CMD_GAME_ARG,
	.exec = cmd_refresh,
	.usage = "refresh [game|name]",
	.summary = "The board again",
};
const struct cmd_entry cmd_pgn_entry = {
	.name = "pgn",
	.args = "oo",
	.code = BLKCMD_NULL,
	.exec = cmd_pgn,
	.usage = "pgn [game|name [n]]",
	.summary = "A live game, or a player's n-th most recent stored game, as PGN",
};
