#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "db.h"
#include "examine.h"
#include "fen.h"
#include "fics.h"
#include "game.h"
#include "lists.h"
#include "log.h"
#include "offer.h"
#include "server.h"
#include "session.h"

/* One move of the line, with what a stored game said of its time. */
struct line_move {
	move m;
	int64_t time_ms, clock_ms;	/* clock_ms < 0: the examiner played it */
};

/* The position bsetup edits: any placement, checked only at "bsetup done". */
struct setup_board {
	uint8_t squares[64];		/* enum piece */
	enum color side;
	unsigned castling;
	int ep_file;			/* -1: none */
};

struct examine {
	struct server *srv;
	struct game *game;
	struct session **examiners;
	int examiner_count, examiner_cap;
	/* The line from the start position; the board shows its first plies. */
	struct line_move *line;
	int line_len, line_cap;
	/* The stored game's moves, which revert returns to. */
	struct line_move *mainline;
	int main_len;
	bool scratch;
	char end_text[sizeof ((struct db_game *)0)->reason + 16];	/* "{reason} 1-0" */
	bool setup;
	struct setup_board edit;
	struct board shown;		/* edit as a board, for the formats */
};

static const char piece_letters[] = " PNBRQK  pnbrqk";

static void setup_from_board(struct setup_board *e, const struct board *b);

void examine_free(struct examine *ex)
{
	if (!ex)
		return;
	free(ex->examiners);
	free(ex->line);
	free(ex->mainline);
	free(ex);
}

struct game *examine_game(const struct examine *ex) { return ex->game; }
bool examine_in_setup(const struct examine *ex) { return ex->setup; }
bool examine_scratch_board(const struct examine *ex) { return ex->scratch; }

const struct board *examine_setup_board(const struct examine *ex)
{
	return ex->setup ? &ex->shown : NULL;
}

/* The edited board as a board (unchecked: it may lack kings) for clients to see. */
static void setup_shown(struct examine *ex)
{
	board_clear(&ex->shown);
	for (int sq = 0; sq < 64; sq++)
		if (ex->edit.squares[sq])
			board_put(&ex->shown, (enum piece)ex->edit.squares[sq], sq);
	board_set_state(&ex->shown, ex->edit.side, ex->edit.castling, SQ_NONE);
}

bool examine_is_examiner(const struct examine *ex, const struct session *s)
{
	for (int i = 0; i < ex->examiner_count; i++)
		if (ex->examiners[i] == s)
			return true;
	return false;
}

void examine_each_examiner(struct examine *ex, void (*fn)(struct session *s, void *arg),
    void *arg)
{
	for (int i = 0; i < ex->examiner_count; i++)
		fn(ex->examiners[i], arg);
}

int examine_tell_examiners(struct examine *ex, struct session *from, const char *fmt, ...)
{
	char text[FICS_BOARD_MAX];
	va_list ap;
	int told = 0;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	for (int i = 0; i < ex->examiner_count; i++) {
		/* As a player of a game, an examiner hears no one it censors. */
		if (ex->examiners[i] == from || lists_censors(ex->examiners[i], from))
			continue;
		session_notify(ex->examiners[i], "%s", text);
		told++;
	}
	return told;
}

static void tell_one(struct session *s, void *text)
{
	session_notify(s, "%s", (const char *)text);
}

/* A line for all but one. */
struct told_but {
	struct session *skip;
	char text[FICS_LINE_MAX];
};

static void tell_but(struct session *s, void *arg)
{
	struct told_but *t = arg;

	if (s != t->skip)
		session_notify(s, "%s", t->text);
}

/* A line to every examiner and observer of the board. */
static void __attribute__((format(printf, 2, 3))) tell_all(struct examine *ex, const char *fmt, ...)
{
	char text[FICS_LINE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	examine_each_examiner(ex, tell_one, text);
	game_each_observer(ex->game, tell_one, text);
}

/* The board to every examiner (relation 2) and observer (-2). */
static void show_boards(struct examine *ex)
{
	for (int i = 0; i < ex->examiner_count; i++)
		game_send_board(ex->game, ex->examiners[i]);
	game_examined_show(ex->game);
}

static int add_examiner(struct examine *ex, struct session *s)
{
	if (ex->examiner_count == ex->examiner_cap) {
		int cap = ex->examiner_cap ? ex->examiner_cap * 2 : 4;
		struct session **e = realloc(ex->examiners, (size_t)cap * sizeof *e);
		if (!e)
			return -1;
		ex->examiners = e;
		ex->examiner_cap = cap;
	}
	ex->examiners[ex->examiner_count++] = s;
	session_set_examining(s, ex);
	return 0;
}

static int ensure_line(struct line_move **line, int *cap, int n)
{
	if (n <= *cap)
		return 0;
	int want = *cap ? *cap * 2 : 64;
	while (want < n)
		want *= 2;
	struct line_move *l = realloc(*line, (size_t)want * sizeof *l);
	if (!l)
		return -1;
	*line = l;
	*cap = want;
	return 0;
}

/* --- starting --- */

struct counting {
	int examined;
};

static void count_examined(struct game *g, void *arg)
{
	if (game_examine(g))
		((struct counting *)arg)->examined++;
}

/* Whether the server may open one more examined board; says why not to s. */
static bool room_for_board(struct session *s)
{
	struct server *srv = session_server(s);
	struct counting c = { 0 };
	int most = server_config(srv)->limits.examined_games;

	games_each(server_games(srv), count_examined, &c);
	if (c.examined >= most) {
		session_printf(s, "There are %d games being examined, the most this server allows; "
		    "try again later.\n", most);
		return false;
	}
	return true;
}

/* s stops watching whatever it watched, as FICS does when examining begins. */
static void drop_watching(struct session *s)
{
	while (session_observed_count(s)) {
		struct game *g = session_observed_at(s, 0);
		session_printf(s, "Removing game %d from observation list.\n", game_number(g));
		session_unobserve(s, g);
	}
}

/* Opens the board for s with p; NULL after a line saying why not. */
static struct examine *open_board(struct session *s, const struct game_examined *p)
{
	struct server *srv = session_server(s);
	char err[FICS_LINE_MAX];

	if (!room_for_board(s))
		return NULL;
	struct examine *ex = calloc(1, sizeof *ex);
	if (!ex) {
		session_printf(s, "Out of memory.\n");
		return NULL;
	}
	ex->srv = srv;
	ex->edit.ep_file = -1;
	if (!(ex->game = game_open_examined(srv, ex, p, err, sizeof err))) {
		examine_free(ex);
		session_printf(s, "%s\n", err);
		return NULL;
	}
	if (add_examiner(ex, s) < 0) {
		game_examined_close(ex->game);
		session_printf(s, "Out of memory.\n");
		return NULL;
	}
	drop_watching(s);
	offers_drop_session(server_offers(srv), s);
	return ex;
}

void examine_start_scratch(struct session *s, bool setup)
{
	const char *rating = session_rating_text(s, CLOCK_CATEGORY_STANDARD);
	struct game_examined p = { .names = { session_name(s), session_name(s) },
	    .ratings = { rating, rating } };
	struct examine *ex = open_board(s, &p);

	if (!ex)
		return;
	ex->scratch = true;
	session_printf(s, "Starting a game in examine (%s) mode.\n\n", setup ? "setup" : "scratch");
	if (setup) {
		ex->setup = true;
		memset(ex->edit.squares, 0, sizeof ex->edit.squares);
		ex->edit.side = WHITE;
		ex->edit.castling = 0;
		setup_shown(ex);
	}
	game_send_board(ex->game, s);
	log_info("%s examines game %d (scratch)", session_name(s), game_number(ex->game));
}

struct loading {
	struct position *pos;
	struct line_move *line;
	int len, cap, most;
	bool cut;		/* not every stored move was loaded */
};

/* Reads a stored move onto the scratch position; a move that is not legal ends the line. */
static void load_move(void *arg, const struct db_move *m)
{
	struct loading *l = arg;
	move mv;

	if (l->cut || l->len >= l->most) {
		l->cut = true;
		return;
	}
	if (san_parse(position_board(l->pos), m->uci, SAN_ENGLISH, NO_TYPE, &mv) != SAN_OK ||
	    ensure_line(&l->line, &l->cap, l->len + 1) < 0) {
		l->cut = true;
		return;
	}
	position_play(l->pos, mv, SAN_ENGLISH, NULL);
	l->line[l->len++] = (struct line_move){ mv, m->time_ms, m->clock_ms };
}

void examine_start_stored(struct session *s, const struct db_game *row)
{
	struct server *srv = session_server(s);
	char err[FICS_LINE_MAX];
	struct game_examined p = { .names = { row->white, row->black },
	    .ratings = { row->white_rating, row->black_rating }, .rated = row->rated,
	    .fen = row->start_fen[0] ? row->start_fen : NULL, .started_unix = row->started };

	if (clock_parse(&p.tc, row->time_control, err, sizeof err) < 0)
		p.tc = (struct clock_control){ 0 };
	struct loading l = { .most = server_config(srv)->limits.examine_plies };
	if (!(l.pos = position_new(p.fen, err, sizeof err))) {
		session_printf(s, "That game cannot be examined: %s.\n", err);
		return;
	}
	db_game_moves(server_db(srv), row->id, load_move, &l);
	position_free(l.pos);
	struct examine *ex = open_board(s, &p);
	if (!ex) {
		free(l.line);
		return;
	}
	ex->mainline = l.line;
	ex->main_len = l.len;
	if (ensure_line(&ex->line, &ex->line_cap, l.len) < 0) {
		examine_leave(ex, s);
		return;
	}
	if (l.len)
		memcpy(ex->line, l.line, (size_t)l.len * sizeof *l.line);
	ex->line_len = l.len;
	/* The result belongs to the end of the game, which a cut line does not reach. */
	if (!l.cut && row->result[0] && strcmp(row->result, "*"))
		snprintf(ex->end_text, sizeof ex->end_text, "{%s} %s", row->reason, row->result);
	session_printf(s, "Starting a game in examine mode: %s vs. %s, %d move%s stored.\n\n",
	    row->white, row->black, l.len, l.len == 1 ? "" : "s");
	game_send_board(ex->game, s);
	log_info("%s examines game %d (stored #%lld)", session_name(s), game_number(ex->game),
	    (long long)row->id);
}

/* --- moving --- */

static void announce_ending(struct examine *ex)
{
	const struct position *pos = game_position(ex->game);
	const struct board *b = position_board(pos);

	switch (position_termination(pos)) {
	case TERM_NONE:
		break;
	case TERM_CHECKMATE:
		tell_all(ex, "%s has been checkmated.", b->side == WHITE ? "White" : "Black");
		break;
	case TERM_STALEMATE:
		tell_all(ex, "Stalemate.");
		break;
	case TERM_DEAD_POSITION:
		tell_all(ex, "No mating material.");
		break;
	case TERM_FIVEFOLD:
		tell_all(ex, "The position has occurred five times.");
		break;
	case TERM_SEVENTY_FIVE_MOVES:
		tell_all(ex, "Seventy-five moves without a capture or a pawn move.");
		break;
	}
}

/* "P@e4", "wp@e4", "bp@e4", "x@e4" ("*" for "@"): the piece (0 to clear) and square. */
static bool parse_drop(const char *text, int *piece, int *sq)
{
	size_t len = strlen(text);
	const char *at = strpbrk(text, "@*");

	if (!at || (len != 4 && len != 5) || at != text + len - 3)
		return false;
	int file = at[1] - 'a', rank = at[2] - '1';
	if (file < 0 || file > 7 || rank < 0 || rank > 7)
		return false;
	*sq = square_make(file, rank);
	if (at == text + 1 && (text[0] == 'x' || text[0] == 'X')) {
		*piece = 0;
		return true;
	}
	char letter = text[at - text - 1];
	const char *found = strchr("PNBRQK", toupper((unsigned char)letter));
	if (!found || !letter)
		return false;
	enum color c;
	if (at == text + 2) {
		if (text[0] != 'w' && text[0] != 'b')
			return false;
		c = text[0] == 'w' ? WHITE : BLACK;
	} else {
		c = isupper((unsigned char)letter) ? WHITE : BLACK;
	}
	*piece = piece_make(c, (enum piece_type)(found - "PNBRQK" + PAWN));
	return true;
}

static bool setup_line(struct examine *ex, struct session *s, const char *line)
{
	int piece, sq;
	char name[3];

	if (parse_drop(line, &piece, &sq)) {
		session_block_begin(s, BLKCMD_BSETUP);
		ex->edit.squares[sq] = (uint8_t)piece;
		square_format(sq, name);
		if (piece)
			session_printf(s, "%s %s placed on %s.\n", piece_color(piece) == WHITE ?
			    "White" : "Black", (const char *[]){ "", "pawn", "knight", "bishop", "rook",
			    "queen", "king" }[piece_type_of(piece)], name);
		else
			session_printf(s, "%s cleared.\n", name);
		setup_shown(ex);
		show_boards(ex);
		return true;
	}
	if (!san_looks_like_move(line, SAN_ENGLISH))
		return false;
	session_block_begin(s, BLKCMD_BSETUP);
	session_printf(s, "You are still setting up the position.\n"
	    "Type 'bsetup done' when you are finished editing.\n");
	return true;
}

/* Setup mode from the board as it stands (its line is dropped at "bsetup done"). */
static void enter_setup(struct examine *ex, struct session *s)
{
	setup_from_board(&ex->edit, position_board(game_position(ex->game)));
	ex->setup = true;
	setup_shown(ex);
	session_printf(s, "Entering examine(setup) mode.\n");
}

bool examine_try_line(struct examine *ex, struct session *s, const char *line)
{
	int piece, sq;

	/* A drop while examining edits the board, as xboard's piece menu expects. */
	if (!ex->setup && parse_drop(line, &piece, &sq)) {
		session_block_begin(s, BLKCMD_BSETUP);
		enter_setup(ex, s);
	}
	if (ex->setup)
		return setup_line(ex, s, line);
	enum san_lang lang = session_var(s, VAR_LANG) == 1 ? SAN_SPANISH : SAN_ENGLISH;
	if (!san_looks_like_move(line, lang) && !san_looks_like_move(line, SAN_ENGLISH))
		return false;
	session_block_begin(s, BLOCK_MOVE);
	static const enum piece_type promote_types[] = { QUEEN, ROOK, BISHOP, KNIGHT };
	enum piece_type promote = promote_types[session_var(s, VAR_PROMOTE) & 3];
	const struct position *pos = game_position(ex->game);
	move m, legal[MAX_MOVES];
	int nlegal;
	enum san_status st = san_parse_typed(position_board(pos), line, lang, promote, &m, legal,
	    &nlegal);
	if (st != SAN_OK) {
		session_printf(s, st == SAN_AMBIGUOUS ? "Ambiguous move (%s).\n" : "Illegal move (%s).\n",
		    line);
		return true;
	}
	int ply = position_ply_count(pos), most = server_config(ex->srv)->limits.examine_plies;
	if (ply >= most) {
		session_printf(s, "This line has %d plies, the most an examined game may have.\n", most);
		return true;
	}
	/* The same move as the line's next keeps the rest of it; another cuts it there. */
	if (!(ply < ex->line_len && ex->line[ply].m == m)) {
		if (ensure_line(&ex->line, &ex->line_cap, ply + 1) < 0) {
			session_printf(s, "Out of memory; move not made.\n");
			return true;
		}
		ex->line[ply] = (struct line_move){ m, 0, -1 };
		ex->line_len = ply + 1;
	}
	if (game_examined_play(ex->game, m, ex->line[ply].time_ms, ex->line[ply].clock_ms) < 0) {
		session_printf(s, "Out of memory; move not made.\n");
		return true;
	}
	const struct position *after = game_position(ex->game);
	const char *san = game_ply_san(ex->game, position_ply_count(after) - 1);
	show_boards(ex);
	tell_all(ex, "%s moves: %s", session_name(s), san);
	announce_ending(ex);
	return true;
}

/* How many of the first n moves two lines share. */
static int common_plies(const struct line_move *a, const struct line_move *b, int n)
{
	int i = 0;

	while (i < n && a[i].m == b[i].m)
		i++;
	return i;
}

void examine_forward(struct examine *ex, struct session *s, int plies)
{
	int number = game_number(ex->game);

	if (ex->setup) {
		session_printf(s, "You can't move forward yet, the position is still being set up.\n");
		return;
	}
	int ply = position_ply_count(game_position(ex->game)), left = ex->line_len - ply;
	if (left <= 0) {
		session_printf(s, "Game %d: End of game.\n", number);
		return;
	}
	int n = plies < left ? plies : left;
	tell_all(ex, "Game %d: %s goes forward %d move%s.", number, session_name(s), n,
	    n == 1 ? "" : "s");
	for (int i = ply; i < ply + n; i++)
		if (game_examined_play(ex->game, ex->line[i].m, ex->line[i].time_ms,
		    ex->line[i].clock_ms) < 0)
			break;
	show_boards(ex);
	int now = position_ply_count(game_position(ex->game));
	bool on_mainline = ex->line_len == ex->main_len &&
	    common_plies(ex->line, ex->mainline, ex->main_len) == ex->main_len;
	if (now == ex->line_len && on_mainline && ex->end_text[0])
		tell_all(ex, "Game %d: %s", number, ex->end_text);
	else if (now == ex->line_len && plies > n)
		tell_all(ex, "Game %d: End of game.", number);
	announce_ending(ex);
}

void examine_backward(struct examine *ex, struct session *s, int plies)
{
	int number = game_number(ex->game);

	if (ex->setup) {
		session_printf(s, "You can't move backward yet, the position is still being set up.\n");
		return;
	}
	int ply = position_ply_count(game_position(ex->game));
	if (!ply) {
		session_printf(s, "Game %d: Beginning of game.\n", number);
		return;
	}
	int n = plies < ply ? plies : ply;
	tell_all(ex, "Game %d: %s backs up %d move%s.", number, session_name(s), n,
	    n == 1 ? "" : "s");
	game_examined_undo(ex->game, n);
	show_boards(ex);
	if (n < plies)
		tell_all(ex, "Game %d: Beginning of game.", number);
}

void examine_revert(struct examine *ex, struct session *s)
{
	int number = game_number(ex->game);

	if (ex->setup) {
		session_printf(s, "You can't revert yet, the position is still being set up.\n");
		return;
	}
	/* Back to where the line left the stored game (the start, for a scratch board). */
	int ply = position_ply_count(game_position(ex->game));
	int common = common_plies(ex->line, ex->mainline, ply < ex->main_len ? ply : ex->main_len);
	bool same = ex->line_len == ex->main_len &&
	    common_plies(ex->line, ex->mainline, ex->main_len) == ex->main_len;
	if (common == ply && same) {
		session_printf(s, "Game %d: Already at mainline.\n", number);
		return;
	}
	tell_all(ex, "Game %d: %s reverts to mainline.", number, session_name(s));
	if (ply > common)
		game_examined_undo(ex->game, ply - common);
	if (ex->main_len)
		memcpy(ex->line, ex->mainline, (size_t)ex->main_len * sizeof *ex->line);
	ex->line_len = ex->main_len;
	show_boards(ex);
}

void examine_commit(struct examine *ex, struct session *s)
{
	struct line_move *main = NULL;

	if (ex->setup) {
		session_printf(s, "You can't commit yet, the position is still being set up.\n");
		return;
	}
	if (ex->line_len && !(main = malloc((size_t)ex->line_len * sizeof *main))) {
		session_printf(s, "Out of memory.\n");
		return;
	}
	if (ex->line_len)
		memcpy(main, ex->line, (size_t)ex->line_len * sizeof *main);
	free(ex->mainline);
	ex->mainline = main;
	ex->main_len = ex->line_len;
	/* The stored game's result belongs to its own moves. */
	ex->end_text[0] = '\0';
	tell_all(ex, "Game %d: %s makes this line of %d move%s the main line.", game_number(ex->game),
	    session_name(s), ex->line_len, ex->line_len == 1 ? "" : "s");
}

/* --- examiners --- */

static void drop_examiner(struct examine *ex, struct session *s)
{
	for (int i = 0; i < ex->examiner_count; i++) {
		if (ex->examiners[i] == s) {
			memmove(&ex->examiners[i], &ex->examiners[i + 1],
			    (size_t)(ex->examiner_count - i - 1) * sizeof *ex->examiners);
			ex->examiner_count--;
			break;
		}
	}
	session_set_examining(s, NULL);
}

static void tell_no_examiners(struct session *o, void *arg)
{
	session_notify(o, "There are no examiners.\nRemoving game %d from observation list.",
	    *(int *)arg);
}

void examine_leave(struct examine *ex, struct session *s)
{
	int number = game_number(ex->game);

	examine_drop(ex, s);
	session_printf(s, "You are no longer examining game %d.\n", number);
}

void examine_drop(struct examine *ex, struct session *s)
{
	int number = game_number(ex->game);

	drop_examiner(ex, s);
	tell_all(ex, "%s stopped examining game %d.", session_name(s), number);
	if (!ex->examiner_count) {
		game_each_observer(ex->game, tell_no_examiners, &number);
		log_info("examined game %d ended", number);
		/* The game owns ex and frees it at the end of the pass. */
		game_examined_close(ex->game);
	} else {
		tell_all(ex, "Game %d is now examined by %s.", number,
		    session_name(ex->examiners[0]));
	}
}

static void tell_unobserved(struct session *o, void *arg)
{
	session_notify(o, "Removing game %d from observation list.", *(int *)arg);
}

void examine_end(struct examine *ex)
{
	int number = game_number(ex->game);

	while (ex->examiner_count) {
		struct session *e = ex->examiners[ex->examiner_count - 1];
		drop_examiner(ex, e);
		session_notify(e, "You are no longer examining game %d.", number);
	}
	game_each_observer(ex->game, tell_unobserved, &number);
	game_examined_close(ex->game);
}

void examine_add_examiner(struct examine *ex, struct session *s, struct session *who)
{
	struct game *g = ex->game;

	/* lasker's com_mexamine: first the observing, then anything else of theirs. */
	if (!session_observing(who, g)) {
		session_printf(s, "%s must observe the game you are analysing.\n", session_name(who));
		return;
	}
	if (session_game(who) || session_examining(who)) {
		session_printf(s, "%s is already analysing the game.\n", session_name(who));
		return;
	}
	if (add_examiner(ex, who) < 0) {
		session_printf(s, "Out of memory.\n");
		return;
	}
	/* Clients drop their observer's board on this line and open an examiner's. */
	session_unobserve(who, g);
	session_notify(who, "Removing game %d from observation list.", game_number(g));
	session_notify(who, "%s has made you an examiner of game %d.", session_name(s),
	    game_number(g));
	game_send_board(g, who);
	/* Everyone else of the board, as lasker (the new examiner has its own line). */
	struct told_but t = { who, "" };
	snprintf(t.text, sizeof t.text, "%s is now examiner of game %d.", session_name(who),
	    game_number(g));
	examine_each_examiner(ex, tell_but, &t);
	game_each_observer(g, tell_but, &t);
}

/* --- bsetup --- */

/* The FEN of the edited board, as "bsetup done" checks it. */
static void setup_fen(const struct setup_board *e, char *buf, size_t len)
{
	size_t n = 0;

	for (int rank = 7; rank >= 0; rank--) {
		int empty = 0;
		for (int file = 0; file < 8; file++) {
			int p = e->squares[square_make(file, rank)];
			if (!p) {
				empty++;
				continue;
			}
			if (empty)
				buf[n++] = (char)('0' + empty);
			empty = 0;
			buf[n++] = piece_letters[p];
		}
		if (empty)
			buf[n++] = (char)('0' + empty);
		if (rank)
			buf[n++] = '/';
	}
	char castle[5] = "", ep[3] = "-";
	int k = 0;
	static const char letters[] = "KQkq";
	for (int i = 0; i < 4; i++)
		if (e->castling & (1u << i))
			castle[k++] = letters[i];
	if (!k)
		castle[k++] = '-';
	castle[k] = '\0';
	if (e->ep_file >= 0)
		square_format(square_make(e->ep_file, e->side == WHITE ? 5 : 2), ep);
	snprintf(buf + n, len - n, " %c %s %s 0 1", e->side == WHITE ? 'w' : 'b', castle, ep);
}

/* The placement, side, castling and en passant fields of a FEN, unchecked. */
static int setup_from_fen(struct setup_board *e, const char *fen)
{
	struct setup_board out = { .ep_file = -1 };
	int rank = 7, file = 0;
	const char *p = fen;

	while (*p == ' ')
		p++;
	for (; *p && *p != ' '; p++) {
		if (*p == '/') {
			if (file != 8 || rank == 0)
				return -1;
			rank--;
			file = 0;
		} else if (*p >= '1' && *p <= '8') {
			file += *p - '0';
			if (file > 8)
				return -1;
		} else {
			const char *at = strchr(piece_letters, *p);
			if (!at || *p == ' ' || file > 7)
				return -1;
			out.squares[square_make(file++, rank)] = (uint8_t)(at - piece_letters);
		}
	}
	if (rank || file != 8)
		return -1;
	char side[8] = "w", castle[8] = "-", ep[8] = "-";
	if (sscanf(p, " %7s %7s %7s", side, castle, ep) < 0 && *p)
		return -1;
	if (strcmp(side, "w") && strcmp(side, "b"))
		return -1;
	out.side = side[0] == 'w' ? WHITE : BLACK;
	if (strcmp(castle, "-")) {
		for (const char *c = castle; *c; c++) {
			const char *at = strchr("KQkq", *c);
			if (!at)
				return -1;
			out.castling |= 1u << (at - "KQkq");
		}
	}
	if (strcmp(ep, "-")) {
		if (ep[0] < 'a' || ep[0] > 'h')
			return -1;
		out.ep_file = ep[0] - 'a';
	}
	*e = out;
	return 0;
}

/* The board as it is, for editing. */
static void setup_from_board(struct setup_board *e, const struct board *b)
{
	memcpy(e->squares, b->squares, sizeof e->squares);
	e->side = (enum color)b->side;
	e->castling = b->castling;
	e->ep_file = b->ep_square != SQ_NONE ? square_file(b->ep_square) : -1;
}

static void setup_done(struct examine *ex, struct session *s)
{
	char fen[FEN_MAX + 16], err[FICS_LINE_MAX];

	setup_fen(&ex->edit, fen, sizeof fen);
	if (game_examined_reset(ex->game, fen, err, sizeof err) < 0) {
		session_printf(s, "The position is not valid (%s) - staying in setup mode.\n", err);
		return;
	}
	ex->setup = false;
	ex->line_len = 0;
	ex->main_len = 0;
	ex->end_text[0] = '\0';
	session_printf(s, "Game is validated - entering examine mode.\n");
	show_boards(ex);
	announce_ending(ex);
}

static bool castle_rights(const char *word, enum color c, unsigned *rights)
{
	static const struct {
		const char *name;
		unsigned white;
	} table[] = { { "none", 0 }, { "kside", CASTLE_WK }, { "qside", CASTLE_WQ },
	    { "both", CASTLE_WK | CASTLE_WQ } };

	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (!strcasecmp(word, table[i].name)) {
			unsigned mask = c == WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ;
			*rights = (*rights & ~mask) | (c == WHITE ? table[i].white : table[i].white << 2);
			return true;
		}
	}
	return false;
}

/* One bsetup edit of the board in setup mode; false after a line saying what was wrong. */
static bool setup_edit(struct examine *ex, struct session *s, const char *word, const char *value)
{
	if (!strcasecmp(word, "clear")) {
		ex->edit = (struct setup_board){ .side = ex->edit.side, .ep_file = -1 };
		session_printf(s, "Board cleared.\n");
	} else if (!strcasecmp(word, "start")) {
		struct board b;
		board_start(&b);
		setup_from_board(&ex->edit, &b);
		session_printf(s, "Board set up as starting position.\n");
	} else if (!strcasecmp(word, "fen")) {
		if (!value[0] || setup_from_fen(&ex->edit, value) < 0) {
			session_printf(s, "That is not a FEN: bsetup fen <placement> [w|b] [KQkq|-] "
			    "[ep|-].\n");
			return false;
		}
		session_printf(s, "Board set up by FEN.\n");
	} else if (!strcasecmp(word, "tomove")) {
		if (strcasecmp(value, "white") && strcasecmp(value, "black")) {
			session_printf(s, "Please type: bsetup tomove white    or   bsetup tomove black\n");
			return false;
		}
		ex->edit.side = tolower((unsigned char)value[0]) == 'w' ? WHITE : BLACK;
		session_printf(s, "%s to move.\n", ex->edit.side == WHITE ? "White" : "Black");
	} else if (!strcasecmp(word, "wcastle") || !strcasecmp(word, "bcastle")) {
		enum color c = tolower((unsigned char)word[0]) == 'w' ? WHITE : BLACK;
		if (!castle_rights(value, c, &ex->edit.castling)) {
			session_printf(s, "Usage: bsetup %s none|kside|qside|both\n", word);
			return false;
		}
		session_printf(s, "%s may castle: %s.\n", c == WHITE ? "White" : "Black", value);
	} else if (!strcasecmp(word, "eppos")) {
		if (!strcasecmp(value, "none")) {
			ex->edit.ep_file = -1;
			session_printf(s, "No en passant capture.\n");
		} else if (strlen(value) == 1 && value[0] >= 'a' && value[0] <= 'h') {
			ex->edit.ep_file = value[0] - 'a';
			session_printf(s, "En passant capture on the %c file.\n", value[0]);
		} else {
			session_printf(s, "Usage: bsetup eppos a..h|none\n");
			return false;
		}
	} else {
		session_printf(s, "You have supplied an incorrect parameter to bsetup.\n");
		return false;
	}
	return true;
}

void examine_setup(struct examine *ex, struct session *s, const char *args)
{
	char word[16] = "", value[FICS_LINE_MAX] = "";

	if (args)
		sscanf(args, "%15s %511[^\n]", word, value);
	if (!word[0] && ex->setup) {
		session_printf(s, "You are already setting up a position.\n");
		return;
	}
	if (!strcasecmp(word, "done") && !ex->setup) {
		session_printf(s, "You are not setting up a position.\n");
		return;
	}
	/* "bsetup fen ..." right after "examine" sets up at once, as xboard's upload expects. */
	if (!ex->setup) {
		enter_setup(ex, s);
		if (!word[0]) {
			show_boards(ex);
			return;
		}
	}
	if (!strcasecmp(word, "done")) {
		setup_done(ex, s);
		return;
	}
	/* A drop given as a bsetup argument ("bsetup P@e4") is a drop. */
	if (!value[0] && setup_line(ex, s, word))
		return;
	if (setup_edit(ex, s, word, value)) {
		setup_shown(ex);
		show_boards(ex);
	}
}

void examine_set_name(struct examine *ex, struct session *s, enum color c, const char *name)
{
	if (!name)
		name = session_name(s);
	size_t len = strlen(name);
	bool ok = len >= 1 && len <= SESSION_NAME_MAX;
	for (size_t i = 0; ok && i < len; i++)
		ok = isalnum((unsigned char)name[i]) || name[i] == '_';
	if (!ok) {
		session_printf(s, "A name is 1 to %d letters or digits.\n", SESSION_NAME_MAX);
		return;
	}
	game_examined_set_name(ex->game, c, name);
	show_boards(ex);
}
