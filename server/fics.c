#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fics.h"
#include "conn.h"
#include "game.h"
#include "move.h"
#include "session.h"

static const char piece_chars[] = "-PNBRQK--pnbrqk-";

int fics_material(const struct board *b, enum color c)
{
	return bb_count(board_pieces(b, c, PAWN)) + 3 * bb_count(board_pieces(b, c, KNIGHT)) +
	    3 * bb_count(board_pieces(b, c, BISHOP)) + 5 * bb_count(board_pieces(b, c, ROOK)) +
	    9 * bb_count(board_pieces(b, c, QUEEN));
}

void fics_time_taken(long long ms, bool with_ms, char *buf, size_t len)
{
	if (ms < 0)
		ms = 0;
	if (with_ms)
		snprintf(buf, len, "(%lld:%02lld.%03lld)", ms / 60000, ms / 1000 % 60, ms % 1000);
	else
		snprintf(buf, len, "(%lld:%02lld)", ms / 60000, ms / 1000 % 60);
}

void fics_clock_text(long long ms, char *buf, size_t len)
{
	const char *sign = ms < 0 ? "-" : "";
	long long s = (ms < 0 ? -ms : ms) / 1000;

	if (s >= 3600)
		snprintf(buf, len, "%s%lld:%02lld:%02lld", sign, s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%s%lld:%02lld", sign, s / 60, s % 60);
}

/* Minutes and increment as FICS shows them; false for other controls. */
static bool fics_minutes(const struct clock_control *tc, long long *min, long long *inc)
{
	if (clock_untimed(tc)) {
		*min = *inc = 0;
		return true;
	}
	if (tc->period_count != 1 || tc->periods[0].moves || tc->periods[0].base_ms % 60000 ||
	    (tc->bonus != CLOCK_BONUS_NONE && tc->bonus != CLOCK_BONUS_FISCHER) ||
	    tc->bonus_ms % 1000)
		return false;
	*min = tc->periods[0].base_ms / 60000;
	*inc = tc->bonus == CLOCK_BONUS_FISCHER ? tc->bonus_ms / 1000 : 0;
	return true;
}

/*
 * A single-period delay control ("5d3", "5s3"): FICS has no field for a
 * delay, and clients treat whatever is in the increment field as an
 * increment, so they are shown the minutes with increment 0.
 */
static bool fics_delay_minutes(const struct clock_control *tc, long long *min)
{
	if (tc->period_count != 1 || tc->periods[0].moves || tc->periods[0].base_ms % 60000 ||
	    (tc->bonus != CLOCK_BONUS_BRONSTEIN && tc->bonus != CLOCK_BONUS_SIMPLE))
		return false;
	*min = tc->periods[0].base_ms / 60000;
	return true;
}

/* The increment clients may add on their own clocks: never a delay. */
static long long fics_increment_s(const struct clock_control *tc)
{
	return tc->bonus == CLOCK_BONUS_FISCHER ? tc->bonus_ms / 1000 : 0;
}

void fics_time_text(const struct game *g, char *buf, size_t len)
{
	long long min, inc;

	if (fics_minutes(game_clock(g), &min, &inc))
		snprintf(buf, len, "%lld %lld", min, inc);
	else if (fics_delay_minutes(game_clock(g), &min))
		snprintf(buf, len, "%lld 0", min);
	else
		clock_format(game_clock(g), buf, len);
}

void fics_type_text(const struct game *g, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s", game_rated(g) ? "rated" : "unrated",
	    clock_category_name(clock_category(game_clock(g))));
}

void fics_style12(const struct game *g, enum fics_relation rel, bool ms, bool flip,
    char *buf, size_t len)
{
	const struct position *pos = game_position(g);
	const struct board *b = position_board(pos);
	const struct clock_control *tc = game_clock(g);
	char *p = buf, *end = buf + len;
	int plies = position_ply_count(pos);

	p += snprintf(p, (size_t)(end - p), "<12>");
	for (int rank = 7; rank >= 0; rank--) {
		*p++ = ' ';
		for (int file = 0; file < 8; file++)
			*p++ = piece_chars[b->squares[square_make(file, rank)]];
	}
	char taken[32], san[MOVE_TEXT_MAX] = "none";
	if (plies > 0) {
		snprintf(san, sizeof san, "%s", game_move_san(g, plies - 1));
		fics_time_taken(game_move_time_ms(g, plies - 1), ms, taken, sizeof taken);
	} else {
		fics_time_taken(0, ms, taken, sizeof taken);
	}
	long long min = 0, inc = 0;
	if (!fics_minutes(tc, &min, &inc)) {
		min = tc->periods[0].base_ms / 60000;
		inc = fics_increment_s(tc);
	}
	long long wclock = game_clock_ms(g, WHITE), bclock = game_clock_ms(g, BLACK);
	if (!ms) {
		wclock /= 1000;
		bclock /= 1000;
	}
	bool ticking = !clock_untimed(tc) && position_termination(pos) == TERM_NONE &&
	    game_player(g, WHITE) && game_player(g, BLACK);
	snprintf(p, (size_t)(end - p),
	    " %c %d %d %d %d %d %d %d %s %s %d %lld %lld %d %d %lld %lld %d %s %s %s %d %d 0",
	    b->side == WHITE ? 'W' : 'B', game_last_dpp(g),
	    !!(b->castling & CASTLE_WK), !!(b->castling & CASTLE_WQ),
	    !!(b->castling & CASTLE_BK), !!(b->castling & CASTLE_BQ),
	    b->halfmove_clock, game_number(g), game_player_name(g, WHITE),
	    game_player_name(g, BLACK), (int)rel, min, inc, fics_material(b, WHITE),
	    fics_material(b, BLACK),
	    wclock, bclock, b->fullmove_number, game_last_verbose(g), taken, san, flip ? 1 : 0,
	    ticking ? 1 : 0);
}

void fics_style1(const struct game *g, bool black_at_bottom, char *buf, size_t len)
{
	static const char *const names[] = { "   ", " P ", " N ", " B ", " R ", " Q ", " K ", "",
	    "   ", " *P", " *N", " *B", " *R", " *Q", " *K" };
	static const char border[] = "       ---------------------------------";
	static const char rule[] = "       |---+---+---+---+---+---+---+---|";
	const struct position *pos = game_position(g);
	const struct board *b = position_board(pos);
	int plies = position_ply_count(pos);
	char side[8][64] = { "" }, wc[32], bc[32], taken[32];
	size_t n = 0;

	fics_clock_text(game_clock_ms(g, WHITE), wc, sizeof wc);
	fics_clock_text(game_clock_ms(g, BLACK), bc, sizeof bc);
	snprintf(side[0], sizeof side[0], "     Move # : %d (%s)", b->fullmove_number,
	    b->side == WHITE ? "White" : "Black");
	if (plies > 0) {
		fics_time_taken(game_move_time_ms(g, plies - 1), false, taken, sizeof taken);
		snprintf(side[1], sizeof side[1], "     %s moves : %s %s",
		    b->side == WHITE ? "Black" : "White", game_move_san(g, plies - 1), taken);
	}
	snprintf(side[3], sizeof side[3], "     Black Clock : %s", bc);
	snprintf(side[4], sizeof side[4], "     White Clock : %s", wc);
	n += (size_t)snprintf(buf + n, len - n, "Game %d (%s vs. %s)\n\n%s\n", game_number(g),
	    game_player_name(g, WHITE), game_player_name(g, BLACK), border);
	for (int row = 0; row < 8 && n < len; row++) {
		int rank = black_at_bottom ? row : 7 - row;
		n += (size_t)snprintf(buf + n, len - n, "    %d  |", rank + 1);
		for (int col = 0; col < 8 && n < len; col++) {
			int file = black_at_bottom ? 7 - col : col;
			n += (size_t)snprintf(buf + n, len - n, "%s|",
			    names[b->squares[square_make(file, rank)]]);
		}
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s\n%s\n", side[row],
			    row < 7 ? rule : border);
	}
	if (n < len)
		snprintf(buf + n, len - n, "         %s", black_at_bottom ?
		    "h   g   f   e   d   c   b   a" : "a   b   c   d   e   f   g   h");
}

void fics_creating(const struct game *g, char *buf, size_t len)
{
	char type[48], tc[64];

	fics_type_text(g, type, sizeof type);
	fics_time_text(g, tc, sizeof tc);
	snprintf(buf, len, "Creating: %s (%s) %s (%s) %s %s", game_player_name(g, WHITE),
	    game_rating_text(g, WHITE), game_player_name(g, BLACK), game_rating_text(g, BLACK),
	    type, tc);
}

void fics_game_intro(const struct game *g, bool continuing, char *buf, size_t len)
{
	char type[48];

	fics_type_text(g, type, sizeof type);
	snprintf(buf, len, "{Game %d (%s vs. %s) %s %s match.}", game_number(g),
	    game_player_name(g, WHITE), game_player_name(g, BLACK),
	    continuing ? "Continuing" : "Creating", type);
}

void fics_end_line(const struct game *g, const char *reason, const char *result,
    char *buf, size_t len)
{
	snprintf(buf, len, "{Game %d (%s vs. %s) %s} %s", game_number(g), game_player_name(g, WHITE),
	    game_player_name(g, BLACK), reason, result);
}

void fics_gameinfo(const struct game *g, char *buf, size_t len)
{
	const struct clock_control *tc = game_clock(g);
	long long secs = tc->periods[0].base_ms / 1000, inc = tc->bonus_ms / 1000;
	const struct session *w = game_player(g, WHITE), *b = game_player(g, BLACK);

	snprintf(buf, len, "<g1> %d p=0 t=%s r=%d u=%d,%d it=%lld,%lld i=%lld,%lld pt=0 rt=%s,%s "
	    "ts=%d,%d m=2 n=0", game_number(g), clock_category_name(clock_category(tc)),
	    game_rated(g) ? 1 : 0, w && !session_registered(w), b && !session_registered(b), secs,
	    secs, inc, inc, game_rating_text(g, WHITE), game_rating_text(g, BLACK),
	    w && conn_timeseal(session_conn(w)), b && conn_timeseal(session_conn(b)));
}

void fics_game_header(const struct game *g, char *buf, size_t len)
{
	char type[48], tc[64];

	fics_type_text(g, type, sizeof type);
	fics_time_text(g, tc, sizeof tc);
	snprintf(buf, len, "Game %d: %s (%s) %s (%s) %s %s", game_number(g), game_player_name(g, WHITE),
	    game_rating_text(g, WHITE), game_player_name(g, BLACK), game_rating_text(g, BLACK), type, tc);
}

void fics_games_line(const struct game *g, char *buf, size_t len)
{
	const struct position *pos = game_position(g);
	const struct board *b = position_board(pos);
	const struct clock_control *tc = game_clock(g);
	char wc[32], bc[32];
	long long min = 0, inc = 0;

	if (!fics_minutes(tc, &min, &inc)) {
		min = tc->periods[0].base_ms / 60000;
		inc = fics_increment_s(tc);
	}
	/* As lasker: a clock below zero shows as 0:00, an hour or more as h:mm:ss. */
	fics_clock_text(game_clock_ms(g, WHITE) > 0 ? game_clock_ms(g, WHITE) : 0, wc, sizeof wc);
	fics_clock_text(game_clock_ms(g, BLACK) > 0 ? game_clock_ms(g, BLACK) : 0, bc, sizeof bc);
	snprintf(buf, len, "%3d %4s %-11.11s %4s %-10.10s [ %c%c%3lld %3lld] %6s -%6s (%2d-%2d) %c: %2d",
	    game_number(g), game_rating_text(g, WHITE), game_player_name(g, WHITE),
	    game_rating_text(g, BLACK), game_player_name(g, BLACK),
	    clock_category_letter(clock_category(tc)), game_rated(g) ? 'r' : 'u', min, inc, wc, bc,
	    fics_material(b, WHITE), fics_material(b, BLACK), b->side == WHITE ? 'W' : 'B',
	    b->fullmove_number);
}

void fics_movelist_header(struct session *s, const char *const names[2],
    const char *const ratings[2], int64_t started_unix, bool rated,
    const struct clock_control *tc)
{
	char control[FICS_LINE_MAX], when[64];
	long long min = 0, inc = 0;
	time_t started = (time_t)started_unix;
	struct tm tm;

	gmtime_r(&started, &tm);
	strftime(when, sizeof when, "%a %b %e, %H:%M UTC %Y", &tm);
	session_printf(s, "%s (%s) vs. %s (%s) --- %s\n", names[WHITE], ratings[WHITE], names[BLACK],
	    ratings[BLACK], when);
	const char *type = clock_category_name(clock_category(tc));
	if (fics_minutes(tc, &min, &inc) || fics_delay_minutes(tc, &min)) {
		session_printf(s, "%s %s match, initial time: %lld minutes, increment: %lld seconds.\n\n",
		    rated ? "Rated" : "Unrated", type, min, inc);
	} else {
		clock_format(tc, control, sizeof control);
		session_printf(s, "%s %s match, time control: %s.\n\n", rated ? "Rated" : "Unrated", type,
		    control);
	}
	session_printf(s, "Move  %-23s %s\n", names[WHITE], names[BLACK]);
	session_printf(s, "----  ---------------------   ---------------------\n");
}

void fics_movelist_move(struct session *s, int number, bool white_ply, bool first, const char *san,
    long long time_ms)
{
	char taken[32];

	fics_time_taken(time_ms, true, taken, sizeof taken);
	if (white_ply)
		session_printf(s, "%3d.  %-7s %-14s", number, san, taken);
	else if (first)
		session_printf(s, "%3d.  %-7s %-14s  %-7s %s\n", number, "...", "", san, taken);
	else
		session_printf(s, "  %-7s %s\n", san, taken);
}

void fics_movelist(struct session *s, const struct game *g)
{
	const struct position *pos = game_position(g);
	int plies = position_ply_count(pos);
	const char *names[2] = { game_player_name(g, WHITE), game_player_name(g, BLACK) };
	const char *ratings[2] = { game_rating_text(g, WHITE), game_rating_text(g, BLACK) };

	session_printf(s, "Movelist for game %d:\n\n", game_number(g));
	fics_movelist_header(s, names, ratings, game_started(g), game_rated(g), game_clock(g));
	const struct board *start = NULL;
	struct position *copy = position_copy(pos);
	if (copy) {
		position_undo(copy, plies);
		start = position_board(copy);
	}
	int first_black = start && start->side == BLACK;
	int number = start ? start->fullmove_number : 1;
	for (int ply = 0; ply < plies; ply++) {
		bool white_ply = (ply + first_black) % 2 == 0;
		fics_movelist_move(s, number, white_ply, ply == 0, game_move_san(g, ply),
		    game_move_time_ms(g, ply));
		if (!white_ply)
			number++;
	}
	if ((plies + first_black) % 2 == 1)
		session_printf(s, "\n");
	position_free(copy);
	enum result r = position_result(pos);
	session_printf(s, "      {Still in progress} %s\n", r == RESULT_NONE ? "*" : result_text(r));
}
