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

static void cmd_pause(struct session *s, const struct cmd_args *a)
{
	game_pause(a->game, s);
}

static void cmd_unpause(struct session *s, const struct cmd_args *a)
{
	game_unpause(a->game, s);
}

static void cmd_switch(struct session *s, const struct cmd_args *a)
{
	game_switch(a->game, s);
}

/*
 * As lasker's com_moretime: a whole number of seconds above zero, cut to
 * the limit with a line saying so.  Read here, for the words of lasker's
 * errors, through the one checked parser.
 */
static void cmd_moretime(struct session *s, const struct cmd_args *a)
{
	long max = server_config(session_server(s))->limits.moretime_max_s, seconds;

	if (session_examining(s)) {
		session_printf(s, "You cannot use moretime in an examined game.\n");
		return;
	}
	switch (number_parse(a->argv[0], LONG_MIN, LONG_MAX, &seconds)) {
	case NUMBER_JUNK:
		session_printf(s, "Usage: moretime seconds\n");
		return;
	case NUMBER_RANGE:
		/* Past what a long holds: its sign says which way. */
		seconds = a->argv[0][strspn(a->argv[0], " ")] == '-' ? 0 : LONG_MAX;
		break;
	case NUMBER_OK:
		break;
	}
	if (seconds <= 0) {
		session_printf(s, "Moretime requires an integer value greater than zero.\n");
		return;
	}
	struct game *g = session_game(s);
	if (!g) {
		session_printf(s, "You are not playing a game.\n");
		return;
	}
	if (seconds > max) {
		session_printf(s, "Moretime has a maximum limit of %ld seconds.\n", max);
		seconds = max;
	}
	game_moretime(g, s, seconds);
}

/* lasker's "m mins, s secs" of a clock in ms, truncated toward zero as its tenths are. */
static void clock_words(long long ms, char *buf, size_t len)
{
	long long tenths = ms / 100;

	snprintf(buf, len, "%lld mins, %lld secs", tenths / 600, (tenths - tenths / 600 * 600) / 10);
}

/* As lasker's com_time: both clocks of one's own game, or of the game named. */
static void cmd_time(struct session *s, const struct cmd_args *a)
{
	struct game *g = a->argc ? cmd_find_game(s, a->argv[0]) : session_game(s);
	char words[2][48];

	if (!g) {
		if (!a->argc)
			session_printf(s, "You are not playing a game.\n");
		return;
	}
	if (game_examine(g) || game_over(g)) {
		session_printf(s, "There is no such game.\n");
		return;
	}
	for (int c = WHITE; c <= BLACK; c++)
		clock_words(game_clock_ms(g, (enum color)c), words[c], sizeof words[c]);
	session_printf(s, "White (%s) : %s\nBlack (%s) : %s\n", game_player_name(g, WHITE), words[WHITE],
	    game_player_name(g, BLACK), words[BLACK]);
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
const struct cmd_entry cmd_pause_entry = {
	.name = "pause",
	.args = "",
	.code = BLKCMD_PAUSE,
	.flags = CMD_PLAYING,
	.exec = cmd_pause,
	.usage = "pause",
	.summary = "Ask to stop the clocks (or agree to your opponent's request)",
};
const struct cmd_entry cmd_unpause_entry = {
	.name = "unpause",
	.args = "",
	.code = BLKCMD_UNPAUSE,
	.flags = CMD_PLAYING,
	.exec = cmd_unpause,
	.usage = "unpause",
	.summary = "Ask to start the stopped clocks again (or agree to it)",
};
const struct cmd_entry cmd_switch_entry = {
	.name = "switch",
	.args = "",
	.code = BLKCMD_SWITCH,
	.flags = CMD_PLAYING,
	.exec = cmd_switch,
	.usage = "switch",
	.summary = "Ask to change colours before the first move",
};
const struct cmd_entry cmd_moretime_entry = {
	.name = "moretime",
	.args = "w",
	.code = BLKCMD_MORETIME,
	.exec = cmd_moretime,
	.usage = "moretime <seconds>",
	.summary = "Add seconds to your opponent's clock",
};
const struct cmd_entry cmd_time_entry = {
	.name = "time",
	.args = "o",
	.code = BLKCMD_TIME,
	.exec = cmd_time,
	.usage = "time [game|name]",
	.summary = "Both clocks of your game, or of the game named",
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
