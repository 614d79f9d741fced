/* The record: history, stored, oldmoves/smoves, resume, journal. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "account.h"
#include "blkcmd.h"
#include "cmd.h"
#include "db.h"
#include "fics.h"
#include "game.h"
#include "number.h"
#include "offer.h"
#include "position.h"
#include "server.h"
#include "session.h"

#define HISTORY_GAMES 10

/* FICS's three-letter end codes, from how the game ended. */
static const char *end_code(const char *reason)
{
	static const struct {
		const char *text, *code;
	} codes[] = {
		{ "checkmated", "Mat" }, { "resigns", "Res" }, { "forfeits on time", "Fla" },
		{ "ran out of time", "TM" }, { "fivefold", "Rep" }, { "repetition", "Rep" },
		{ "50 move", "50" }, { "75 move", "75" }, { "stalemate", "Sta" },
		{ "mutual agreement", "Agr" }, { "mating material", "NM" },
		{ "can checkmate", "NM" }, { "disconnection", "Dis" }, { "adjudicat", "Adj" },
		{ "adjourned", "Adj" },
	};

	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (strstr(reason, codes[i].text))
			return codes[i].code;
	return "???";
}

static void type_text(const struct db_game *g, char *buf, size_t len)
{
	struct clock_control tc;
	char err[64];
	long long min = 0, inc = 0;

	if (clock_parse(&tc, g->time_control, err, sizeof err) == 0 && !clock_untimed(&tc)) {
		min = tc.periods[0].base_ms / 60000;
		inc = tc.bonus == CLOCK_BONUS_FISCHER ? tc.bonus_ms / 1000 : 0;	/* a delay is no increment */
	}
	snprintf(buf, len, "[ %c%c%3lld %3lld]", g->category[0] ? g->category[0] : 'u',
	    g->rated ? 'r' : 'u', min, inc);
}

struct collected {
	struct db_game games[HISTORY_GAMES];
	int count;
};

static void collect(void *arg, const struct db_game *g)
{
	struct collected *c = arg;

	if (c->count < HISTORY_GAMES)
		c->games[c->count++] = *g;
}

/* The name asked about, or the user's own. */
static const char *subject(struct session *s, const struct cmd_args *a)
{
	return a->argc ? a->argv[0] : session_name(s);
}

struct history {
	struct db_game games[HISTORY_GAMES];
	int numbers[HISTORY_GAMES];
	int count;
};

static void collect_history(void *arg, int number, const struct db_game *g)
{
	struct history *h = arg;

	if (h->count < HISTORY_GAMES) {
		h->numbers[h->count] = number;
		h->games[h->count++] = *g;
	}
}

/* History shows ratings as plain numbers, as FICS does ("1500P" is 1500, "----" 0). */
static int history_rating(const char *text)
{
	return (int)strtol(text, NULL, 10);
}

static void stored_move(void *arg, const struct db_move *m)
{
	position_play_text(arg, m->uci, SAN_ENGLISH, NO_TYPE, NULL, NULL);
}

/* "39-39 W3": each side's strength, then who moves and the move number. */
static void stored_state_text(struct db *db, const struct db_game *g, char *buf, size_t len)
{
	char err[64], str[16];
	struct position *pos = position_new(g->start_fen[0] ? g->start_fen : NULL, err, sizeof err);

	if (!pos) {
		snprintf(buf, len, "  0-0 W1 ");
		return;
	}
	db_game_moves(db, g->id, stored_move, pos);
	const struct board *b = position_board(pos);
	snprintf(str, sizeof str, "%d-%d", fics_material(b, WHITE), fics_material(b, BLACK));
	snprintf(buf, len, "%5s %c%-3d", str, b->side == WHITE ? 'W' : 'B', b->fullmove_number);
	position_free(pos);
}

static void cmd_history(struct session *s, const struct cmd_args *a)
{
	const char *name = subject(s, a);
	struct history c = { .count = 0 };
	char type[48], date[64];

	struct server *srv = session_server(s);
	int64_t owner = account_games_owner(srv, name);

	/* As on FICS, a name without an account keeps no history past its session. */
	db_history_each(server_db(srv), name, owner, HISTORY_GAMES, collect_history, &c);
	if (!c.count && owner <= 0) {
		session_printf(s, server_find_session(srv, name) ?
		    "Sorry, no game information available.\n" :
		    "There is no player matching that name.\n");
		return;
	}
	if (!c.count) {
		session_printf(s, "%s has no history games.\n", name);
		return;
	}
	session_printf(s, "\nHistory for %s:\n", c.games[0].white[0] && !strcasecmp(c.games[0].white,
	    name) ? c.games[0].white : c.games[0].black);
	session_printf(s, "                  Opponent      Type         ECO End Date\n");
	for (int i = 0; i < c.count; i++) {
		const struct db_game *g = &c.games[i];
		bool white = !strcasecmp(g->white, name);
		char mark = !strcmp(g->result, "1/2-1/2") ? '=' :
		    (!strcmp(g->result, "1-0") == white) ? '+' : '-';
		type_text(g, type, sizeof type);
		fics_date(g->ended ? g->ended : g->started, date, sizeof date);
		session_printf(s, "%2d: %c %4d %c %4d %-13.13s %s --- %-3s %s\n", c.numbers[i], mark,
		    history_rating(white ? g->white_rating : g->black_rating), white ? 'W' : 'B',
		    history_rating(white ? g->black_rating : g->white_rating),
		    white ? g->black : g->white, type, end_code(g->reason), date);
	}
}

static void cmd_stored(struct session *s, const struct cmd_args *a)
{
	const char *name = subject(s, a);
	struct collected c = { .count = 0 };
	char type[48], date[64];

	struct server *srv = session_server(s);

	db_games_of(server_db(srv), name, account_games_owner(srv, name), GAME_ADJOURNED,
	    HISTORY_GAMES, collect, &c);
	if (!c.count) {
		session_printf(s, "%s has no adjourned games.\n", name);
		return;
	}
	session_printf(s, "Stored games for %s:\n"
	    "    C Opponent       On Type          Str  M    ECO Date\n", name);
	for (int i = 0; i < c.count; i++) {
		const struct db_game *g = &c.games[i];
		bool white = !strcasecmp(g->white, name);
		const char *opp = white ? g->black : g->white;
		char state[32];
		type_text(g, type, sizeof type);
		fics_date(g->started, date, sizeof date);
		stored_state_text(server_db(session_server(s)), g, state, sizeof state);
		session_printf(s, "%2d: %c %-14.14s %c %s %s  ??? %s\n", i + 1, white ? 'W' : 'B', opp,
		    server_find_session(session_server(s), opp) ? 'Y' : 'N', type, state, date);
	}
}

struct movelist {
	struct session *s;
	int number, plies;
	bool first_black;
};

static void print_move(void *arg, const struct db_move *m)
{
	struct movelist *l = arg;
	bool white_ply = (l->plies + l->first_black) % 2 == 0;

	char text[FICS_LINE_MAX];

	fics_movelist_move(l->number, white_ply, l->plies == 0, m->san, m->time_ms, text,
	    sizeof text);
	session_printf(l->s, "%s", text);
	if (!white_ply)
		l->number++;
	l->plies++;
}

/* A movelist names the sides, not the players ("White resigns"), as FICS does. */
static void impersonal_reason(const char *reason, const char *white, const char *black,
    char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	while (*reason && n + 1 < len) {
		size_t w = strcspn(reason, " ");
		const char *word = reason;
		int wn = (int)w;
		if (w == strlen(white) && !strncasecmp(reason, white, w))
			word = "White", wn = 5;
		else if (w == strlen(black) && !strncasecmp(reason, black, w))
			word = "Black", wn = 5;
		n += (size_t)snprintf(buf + n, len - n, "%.*s%s", wn, word, reason[w] ? " " : "");
		reason += w + (reason[w] ? 1 : 0);
	}
}

bool cmd_record_number(struct session *s, const char *text, int *number)
{
	long n;

	if (!text) {
		*number = DB_RECORD_LATEST;
		return true;
	}
	/* The command table has checked the range; a number history never shows names no game. */
	switch (number_parse(text, INT_MIN, INT_MAX, &n)) {
	case NUMBER_OK:
		*number = n > -DB_HISTORY_NUMBERS && n < DB_HISTORY_NUMBERS ? (int)n : DB_HISTORY_NUMBERS;
		return true;
	case NUMBER_RANGE:
		*number = DB_HISTORY_NUMBERS;
		return true;
	case NUMBER_JUNK:
		break;
	}
	session_printf(s, "\"%s\" is not a game number from history.\n", text);
	return false;
}

struct resumable {
	const char *me, *opponent;
	int64_t id;
	char other[DB_NAME_MAX];
	int count;
};

static void find_resumable(void *arg, const struct db_game *g)
{
	struct resumable *r = arg;
	const char *other = !strcasecmp(g->white, r->me) ? g->black : g->white;

	if (r->opponent && strcasecmp(other, r->opponent))
		return;
	if (!r->id) {
		r->id = g->id;
		snprintf(r->other, sizeof r->other, "%s", other);
	}
	r->count++;
}

bool cmd_find_adjourned(struct server *srv, const char *name, const char *opponent,
    struct db_game *found)
{
	struct db *db = server_db(srv);
	struct resumable r = { name, opponent, 0, "", 0 };

	db_games_of(db, name, account_games_owner(srv, name), GAME_ADJOURNED, HISTORY_GAMES,
	    find_resumable, &r);
	return r.id && db_game_load(db, r.id, found) > 0;
}

/*
 * oldmoves/smoves NAME [N|OPPONENT]: the moves of the game numbered N in the
 * player's history (the latest game, finished or adjourned, without N), or
 * of the game adjourned with OPPONENT (as clients preview stored games).
 */
static void cmd_oldmoves(struct session *s, const struct cmd_args *a)
{
	struct db *db = server_db(session_server(s));
	const char *which = a->argc > 1 ? a->argv[1] : NULL;
	struct db_game found;
	struct clock_control tc;
	int number;
	char err[64];

	if (which && isalpha((unsigned char)which[0])) {
		if (!cmd_find_adjourned(session_server(s), a->argv[0], which, &found)) {
			session_printf(s, "%s has no adjourned game with %s.\n", a->argv[0], which);
			return;
		}
	} else if (!cmd_record_number(s, which, &number)) {
		return;
	} else if (db_record_find(db, a->argv[0],
	    account_games_owner(session_server(s), a->argv[0]), number, &found) <= 0) {
		session_printf(s, "%s has no such game.\n", a->argv[0]);
		return;
	}
	struct db_game copy = found;
	if (clock_parse(&tc, copy.time_control, err, sizeof err) < 0)
		tc = (struct clock_control){ 0 };
	const char *names[2] = { copy.white, copy.black };
	const char *ratings[2] = { copy.white_rating, copy.black_rating };
	struct movelist l = { s, 1, 0, false };
	if (copy.start_fen[0]) {
		struct position *pos = position_new(copy.start_fen, err, sizeof err);
		if (pos) {
			l.first_black = position_board(pos)->side == BLACK;
			l.number = position_board(pos)->fullmove_number;
			position_free(pos);
		}
	}
	char header[FICS_BOARD_MAX];
	fics_movelist_header(names, ratings, copy.started, copy.rated, &tc, header, sizeof header);
	session_printf(s, "%s", header);
	db_game_moves(server_db(session_server(s)), copy.id, print_move, &l);
	if ((l.plies + l.first_black) % 2 == 1)
		session_printf(s, "\n");
	char reason[sizeof copy.reason + 16];
	impersonal_reason(copy.reason[0] ? copy.reason : "Still in progress", copy.white, copy.black,
	    reason, sizeof reason);
	session_printf(s, "      {%s} %s\n", reason, copy.result);
}

/* Whether s and other are the accounts that played g (game_resume asks it too): a guest's
 * seat ended with its session, so nobody under its name is asked to resume it. */
static bool resumable_by(const struct db_game *g, const struct session *s,
    const struct session *other)
{
	int64_t mine = session_user_id(s), theirs = session_user_id(other);

	return mine && theirs && ((g->white_id == mine && g->black_id == theirs) ||
	    (g->black_id == mine && g->white_id == theirs));
}

/* Asks to resume s's adjourned game with opponent (the only one, if NULL), or agrees. */
static void resume_game(struct session *s, const char *opponent)
{
	struct server *srv = session_server(s);
	struct resumable r = { session_name(s), opponent, 0, "", 0 };
	char why[160];

	if (session_game(s)) {
		session_printf(s, "You are already playing a game.\n");
		return;
	}
	if (session_examining(s)) {
		session_printf(s, "You cannot resume a game while you are examining one.\n");
		return;
	}
	db_games_of(server_db(srv), session_name(s), account_games_owner(srv, session_name(s)),
	    GAME_ADJOURNED, 100, find_resumable, &r);
	if (!r.id) {
		session_printf(s, opponent ? "You have no adjourned game with %s.\n" :
		    "You have no adjourned games.\n", opponent ? opponent : "");
		return;
	}
	if (!opponent && r.count > 1) {
		session_printf(s, "You have more than one adjourned game; say whom to resume with.\n");
		return;
	}
	struct session *other = server_find_session(srv, r.other);
	if (!other) {
		session_printf(s, "%s is not logged in.\n", r.other);
		return;
	}
	if (session_game(other) || session_examining(other)) {
		session_printf(s, "%s is %s a game.\n", r.other,
		    session_game(other) ? "playing" : "examining");
		return;
	}
	/* If the other player asked first, this is the answer. */
	struct offers *o = server_offers(srv);
	struct challenge *theirs = offers_find_challenge(o, other, s);
	if (theirs && theirs->resume_id == r.id) {
		offers_remove_challenge(o, theirs);
		if (!game_resume(srv, r.id, other, s, why, sizeof why))
			session_printf(s, "%s\n", why);
		return;
	}
	struct challenge proto = { .from = s, .to = other, .color = -1, .resume_id = r.id };
	struct db_game row;
	if (db_game_load(server_db(srv), r.id, &row) <= 0 || !resumable_by(&row, s, other)) {
		session_printf(s, "Only the accounts that played a stored game can resume it.\n");
		return;
	}
	clock_parse(&proto.tc, row.time_control, why, sizeof why);
	proto.rated = row.rated;
	if (!offers_challenge(o, &proto, why, sizeof why))
		session_printf(s, "%s\n", why);
}

static void cmd_resume(struct session *s, const struct cmd_args *a)
{
	resume_game(s, a->argc ? a->argv[0] : NULL);
}

bool cmd_resume_adjourned(struct session *s, const char *opponent)
{
	struct db_game g;

	if (!session_registered(s) ||
	    !cmd_find_adjourned(session_server(s), session_name(s), opponent, &g))
		return false;
	/* Not the player it was with: an ordinary challenge. */
	struct session *other = server_find_session(session_server(s), opponent);
	if (other && !resumable_by(&g, s, other))
		return false;
	resume_game(s, opponent);
	return true;
}

static void cmd_journal(struct session *s, const struct cmd_args *a)
{
	session_printf(s, "%s has no journal entries.\n", subject(s, a));
}

const struct cmd_entry cmd_history_entry = {
	.name = "history",
	.args = "o",
	.code = BLKCMD_HISTORY,
	.exec = cmd_history,
	.usage = "history [name]",
	.summary = "A player's recent games",
};
const struct cmd_entry cmd_stored_entry = {
	.name = "stored",
	.args = "o",
	.code = BLKCMD_STORED,
	.exec = cmd_stored,
	.usage = "stored [name]",
	.summary = "Adjourned games",
};
const struct cmd_entry cmd_oldmoves_entry = {
	.name = "oldmoves",
	.args = "wo",
	.code = BLKCMD_OLDMOVES,
	.exec = cmd_oldmoves,
	.usage = "oldmoves <name> [n|opponent]",
	.summary = "Moves of a past game",
};
const struct cmd_entry cmd_smoves_entry = {
	.name = "smoves",
	.args = "wo",
	.code = BLKCMD_SMOVES,
	.exec = cmd_oldmoves,
	.usage = "smoves <name> [n|opponent]",
	.summary = "Moves of a past game",
};
const struct cmd_entry cmd_resume_entry = {
	.name = "resume",
	.args = "o",
	.code = BLKCMD_RESUME,
	.exec = cmd_resume,
	.usage = "resume [name]",
	.summary = "Continue an adjourned game",
};
const struct cmd_entry cmd_journal_entry = {
	.name = "journal",
	.args = "o",
	.code = BLKCMD_JOURNAL,
	.exec = cmd_journal,
	.usage = "journal [name]",
	.summary = "Stored positions (none kept)",
};
