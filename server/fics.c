#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fics.h"
#include "game.h"
#include "move.h"
#include "session.h"

static const char piece_chars[] = "-PNBRQK--pnbrqk-";

/* The board a view shows: the position's, or the one being set up. */
static const struct board *view_board(const struct fics_game_view *g)
{
	return g->setup_board ? g->setup_board : position_board(g->pos);
}

/* Plies behind the board shown (none while a board is set up). */
static int view_plies(const struct fics_game_view *g)
{
	return g->setup_board ? 0 : position_ply_count(g->pos);
}

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

/* The increment clients may add on their own clocks: never a delay. */
static long long fics_increment_s(const struct clock_control *tc)
{
	return tc->bonus == CLOCK_BONUS_FISCHER ? tc->bonus_ms / 1000 : 0;
}

void fics_time_numbers(const struct clock_control *tc, long long *min, long long *inc)
{
	if (fics_minutes(tc, min, inc))
		return;
	*min = tc->periods[0].base_ms / 60000;
	if (!*min && tc->periods[0].base_ms > 0)
		*min = 1;	/* "0 0" would read as untimed */
	*inc = fics_increment_s(tc);
}

bool fics_time_plain(const struct clock_control *tc)
{
	long long min, inc;

	return fics_minutes(tc, &min, &inc);
}

void fics_time_text(const struct fics_game_view *g, char *buf, size_t len)
{
	long long min, inc;

	fics_time_numbers(g->tc, &min, &inc);
	snprintf(buf, len, "%lld %lld", min, inc);
}

void fics_type_text(const struct fics_game_view *g, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s", g->rated ? "rated" : "unrated",
	    clock_category_name(clock_category(g->tc)));
}

void fics_style12(const struct fics_game_view *g, enum fics_relation rel, bool ms, bool flip,
    char *buf, size_t len)
{
	const struct position *pos = g->pos;
	const struct board *b = view_board(g);
	const struct clock_control *tc = g->tc;
	char *p = buf, *end = buf + len;
	int plies = view_plies(g);

	p += snprintf(p, (size_t)(end - p), "<12>");
	for (int rank = 7; rank >= 0; rank--) {
		*p++ = ' ';
		for (int file = 0; file < 8; file++)
			*p++ = piece_chars[b->squares[square_make(file, rank)]];
	}
	char taken[32], san[MOVE_TEXT_MAX] = "none";
	if (plies > 0) {
		snprintf(san, sizeof san, "%s", g->plies[plies - 1].san);
		fics_time_taken(g->plies[plies - 1].time_ms, ms, taken, sizeof taken);
	} else {
		fics_time_taken(0, ms, taken, sizeof taken);
	}
	long long min = 0, inc = 0;
	fics_time_numbers(tc, &min, &inc);
	long long wclock = g->clock_ms[WHITE], bclock = g->clock_ms[BLACK];
	if (!ms) {
		wclock /= 1000;
		bclock /= 1000;
	}
	bool ticking = !clock_untimed(tc) && position_termination(pos) == TERM_NONE &&
	    g->seated[WHITE] && g->seated[BLACK] && !g->clock_stopped;
	snprintf(p, (size_t)(end - p),
	    " %c %d %d %d %d %d %d %d %s %s %d %lld %lld %d %d %lld %lld %d %s %s %s %d %d 0",
	    b->side == WHITE ? 'W' : 'B', g->last_dpp,
	    !!(b->castling & CASTLE_WK), !!(b->castling & CASTLE_WQ),
	    !!(b->castling & CASTLE_BK), !!(b->castling & CASTLE_BQ),
	    b->halfmove_clock, g->number, g->names[WHITE],
	    g->names[BLACK], (int)rel, min, inc, fics_material(b, WHITE),
	    fics_material(b, BLACK),
	    wclock, bclock, b->fullmove_number, g->last_verbose, taken, san, flip ? 1 : 0,
	    ticking ? 1 : 0);
}

void fics_style1(const struct fics_game_view *g, bool black_at_bottom, char *buf, size_t len)
{
	static const char *const names[] = { "   ", " P ", " N ", " B ", " R ", " Q ", " K ", "",
	    "   ", " *P", " *N", " *B", " *R", " *Q", " *K" };
	static const char border[] = "       ---------------------------------";
	static const char rule[] = "       |---+---+---+---+---+---+---+---|";
	const struct board *b = view_board(g);
	int plies = view_plies(g);
	char side[8][80] = { "" }, wc[32], bc[32], taken[32];
	size_t n = 0;

	fics_clock_text(g->clock_ms[WHITE], wc, sizeof wc);
	fics_clock_text(g->clock_ms[BLACK], bc, sizeof bc);
	snprintf(side[0], sizeof side[0], "     Move # : %d (%s)", b->fullmove_number,
	    b->side == WHITE ? "White" : "Black");
	if (plies > 0) {
		fics_time_taken(g->plies[plies - 1].time_ms, false, taken, sizeof taken);
		snprintf(side[1], sizeof side[1], "     %s moves : %s %s",
		    b->side == WHITE ? "Black" : "White", g->plies[plies - 1].san, taken);
	}
	snprintf(side[3], sizeof side[3], "     Black Clock : %s", bc);
	snprintf(side[4], sizeof side[4], "     White Clock : %s", wc);
	n += (size_t)snprintf(buf + n, len - n, "Game %d (%s vs. %s)\n\n%s\n", g->number,
	    g->names[WHITE], g->names[BLACK], border);
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

void fics_creating(const struct fics_game_view *g, char *buf, size_t len)
{
	char type[48], tc[64];

	fics_type_text(g, type, sizeof type);
	fics_time_text(g, tc, sizeof tc);
	snprintf(buf, len, "Creating: %s (%s) %s (%s) %s %s", g->names[WHITE],
	    g->ratings[WHITE], g->names[BLACK], g->ratings[BLACK],
	    type, tc);
}

void fics_game_notification(const struct fics_game_view *g, char *buf, size_t len)
{
	char type[48], tc[64];

	fics_type_text(g, type, sizeof type);
	fics_time_text(g, tc, sizeof tc);
	snprintf(buf, len, "%s (%s) vs. %s (%s) %s %s: Game %d", g->names[WHITE], g->ratings[WHITE],
	    g->names[BLACK], g->ratings[BLACK], type, tc, g->number);
}

void fics_game_intro(const struct fics_game_view *g, bool continuing, char *buf, size_t len)
{
	char type[48];

	fics_type_text(g, type, sizeof type);
	snprintf(buf, len, "{Game %d (%s vs. %s) %s %s match.}", g->number,
	    g->names[WHITE], g->names[BLACK],
	    continuing ? "Continuing" : "Creating", type);
}

void fics_end_line(const struct fics_game_view *g, const char *reason, const char *result,
    char *buf, size_t len)
{
	snprintf(buf, len, "{Game %d (%s vs. %s) %s} %s", g->number, g->names[WHITE],
	    g->names[BLACK], reason, result);
}

void fics_gameinfo(const struct fics_game_view *g, char *buf, size_t len)
{
	const struct clock_control *tc = g->tc;
	long long secs = tc->periods[0].base_ms / 1000, inc = tc->bonus_ms / 1000;

	snprintf(buf, len, "<g1> %d p=0 t=%s r=%d u=%d,%d it=%lld,%lld i=%lld,%lld pt=0 rt=%s,%s "
	    "ts=%d,%d m=2 n=0", g->number, clock_category_name(clock_category(tc)),
	    g->rated ? 1 : 0, g->guest[WHITE], g->guest[BLACK], secs,
	    secs, inc, inc, g->ratings[WHITE], g->ratings[BLACK],
	    g->timeseal[WHITE], g->timeseal[BLACK]);
}

void fics_game_header(const struct fics_game_view *g, char *buf, size_t len)
{
	char type[48], tc[64];

	fics_type_text(g, type, sizeof type);
	fics_time_text(g, tc, sizeof tc);
	snprintf(buf, len, "Game %d: %s (%s) %s (%s) %s %s", g->number, g->names[WHITE],
	    g->ratings[WHITE], g->names[BLACK], g->ratings[BLACK], type, tc);
}

/*
 * A bounded writer for lines listed by the thousand (`games`): each field
 * is placed as the printf conversion named beside its helper would place
 * it, without parsing a format per field.  Like snprintf, it cuts what
 * does not fit and always ends the text.
 */
struct line_out {
	char *p, *end;	/* end: the last byte, kept for the terminator */
};

static void out_bytes(struct line_out *o, const char *text, size_t n)
{
	size_t room = (size_t)(o->end - o->p);

	if (n > room)
		n = room;
	memcpy(o->p, text, n);
	o->p += n;
}

static void out_char(struct line_out *o, char c)
{
	if (o->p < o->end)
		*o->p++ = c;
}

static void out_spaces(struct line_out *o, size_t n)
{
	size_t room = (size_t)(o->end - o->p);

	if (n > room)
		n = room;
	memset(o->p, ' ', n);
	o->p += n;
}

/* %*s */
static void out_right(struct line_out *o, const char *text, size_t width)
{
	size_t n = strlen(text);

	if (n < width)
		out_spaces(o, width - n);
	out_bytes(o, text, n);
}

/* %-*.*s */
static void out_left_cut(struct line_out *o, const char *text, size_t width)
{
	size_t n = strnlen(text, width);

	out_bytes(o, text, n);
	out_spaces(o, width - n);
}

/* Digits of v, most significant first, into digits[]; their count. */
static size_t decimal(long long v, char digits[24])
{
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	char rev[24];
	size_t n = 0, len = 0;

	do
		rev[n++] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		digits[len++] = '-';
	while (n)
		digits[len++] = rev[--n];
	return len;
}

/* %*lld, and %0*lld when zero is true (v not negative). */
static void out_number(struct line_out *o, long long v, size_t width, bool zero)
{
	char digits[24];
	size_t n = decimal(v, digits);

	if (n < width) {
		if (zero)
			for (size_t pad = width - n; pad; pad--)
				out_char(o, '0');
		else
			out_spaces(o, width - n);
	}
	out_bytes(o, digits, n);
}

/* fics_clock_text() of a clock not below zero, right-aligned to six as `games` has it. */
static void out_clock(struct line_out *o, long long ms)
{
	char text[64];
	struct line_out t = { text, text + sizeof text - 1 };
	long long s = ms / 1000;

	if (s >= 3600) {
		out_number(&t, s / 3600, 0, false);
		out_char(&t, ':');
		out_number(&t, s / 60 % 60, 2, true);
	} else {
		out_number(&t, s / 60, 0, false);
	}
	out_char(&t, ':');
	out_number(&t, s % 60, 2, true);
	*t.p = '\0';
	out_right(o, text, 6);
}

/* "[br  5   0]": private, category, rated, minutes and increment. */
static void out_games_type(struct line_out *o, const struct fics_game_view *g)
{
	long long min = 0, inc = 0;

	fics_time_numbers(g->tc, &min, &inc);
	out_char(o, '[');
	out_char(o, g->private_game ? 'p' : ' ');
	out_char(o, clock_category_letter(clock_category(g->tc)));
	out_char(o, g->rated ? 'r' : 'u');
	out_number(o, min, 3, false);
	out_char(o, ' ');
	out_number(o, inc, 3, false);
	out_char(o, ']');
}

/*
 * lasker's line, "%3d %4s %-11.11s %4s %-10.10s [%c%c%c%3lld %3lld] %6s
 * -%6s (%2d-%2d) %c: %2d"; an examined board has "(Exam. ...)" and the
 * board's state instead of the clocks.  Returns the length written.
 */
size_t fics_games_line(const struct fics_game_view *g, char *buf, size_t len)
{
	const struct board *b = view_board(g);

	if (!len)
		return 0;
	struct line_out o = { buf, buf + len - 1 };
	out_number(&o, g->number, 3, false);
	out_char(&o, ' ');
	if (g->examined) {
		out_char(&o, '(');
		out_bytes(&o, g->examined, strlen(g->examined));
		out_char(&o, ' ');
	}
	out_right(&o, g->ratings[WHITE], 4);
	out_char(&o, ' ');
	out_left_cut(&o, g->names[WHITE], 11);
	out_char(&o, ' ');
	out_right(&o, g->ratings[BLACK], 4);
	out_char(&o, ' ');
	out_left_cut(&o, g->names[BLACK], 10);
	out_bytes(&o, g->examined ? ") " : " ", g->examined ? 2 : 1);
	out_games_type(&o, g);
	out_char(&o, ' ');
	if (!g->examined) {
		/* As lasker: a clock below zero shows as 0:00, an hour or more as h:mm:ss. */
		out_clock(&o, g->clock_ms[WHITE] > 0 ? g->clock_ms[WHITE] : 0);
		out_bytes(&o, " -", 2);
		out_clock(&o, g->clock_ms[BLACK] > 0 ? g->clock_ms[BLACK] : 0);
		out_bytes(&o, " (", 2);
		out_number(&o, fics_material(b, WHITE), 2, false);
		out_char(&o, '-');
		out_number(&o, fics_material(b, BLACK), 2, false);
		out_bytes(&o, ") ", 2);
	}
	out_char(&o, b->side == WHITE ? 'W' : 'B');
	out_bytes(&o, ": ", 2);
	out_number(&o, b->fullmove_number, 2, false);
	*o.p = '\0';
	return (size_t)(o.p - buf);
}

void fics_date(int64_t when, char *buf, size_t len)
{
	time_t t = (time_t)when;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%a %b %e, %H:%M UTC %Y", &tm);
}

void fics_movelist_header(const char *const names[2], const char *const ratings[2],
    int64_t started_unix, bool rated, const struct clock_control *tc, char *buf, size_t len)
{
	char when[64];
	long long min = 0, inc = 0;

	fics_date(started_unix, when, sizeof when);
	size_t n = (size_t)snprintf(buf, len, "%s (%s) vs. %s (%s) --- %s\n", names[WHITE],
	    ratings[WHITE], names[BLACK], ratings[BLACK], when);
	const char *type = clock_category_name(clock_category(tc));
	/* The line xboard and pychess read the clocks from: FICS's two numbers. */
	fics_time_numbers(tc, &min, &inc);
	n += (size_t)snprintf(buf + n, n < len ? len - n : 0,
	    "%s %s match, initial time: %lld minutes, increment: %lld seconds.\n\n",
	    rated ? "Rated" : "Unrated", type, min, inc);
	snprintf(buf + n, n < len ? len - n : 0, "Move  %-23s %s\n"
	    "----  ---------------------   ---------------------\n", names[WHITE], names[BLACK]);
}

void fics_movelist_move(int number, bool white_ply, bool first, const char *san,
    long long time_ms, char *buf, size_t len)
{
	char taken[32];

	fics_time_taken(time_ms, true, taken, sizeof taken);
	if (white_ply)
		snprintf(buf, len, "%3d.  %-7s %-14s", number, san, taken);
	else if (first)
		snprintf(buf, len, "%3d.  %-7s %-14s  %-7s %s\n", number, "...", "", san, taken);
	else
		snprintf(buf, len, "  %-7s %s\n", san, taken);
}

void fics_movelist(struct session *s, const struct fics_game_view *g)
{
	const struct position *pos = g->pos;
	int plies = position_ply_count(pos);
	const char *names[2] = { g->names[WHITE], g->names[BLACK] };
	const char *ratings[2] = { g->ratings[WHITE], g->ratings[BLACK] };
	char text[FICS_BOARD_MAX];

	session_printf(s, "Movelist for game %d:\n\n", g->number);
	fics_movelist_header(names, ratings, g->started_unix, g->rated, g->tc, text, sizeof text);
	session_printf(s, "%s", text);
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
		fics_movelist_move(number, white_ply, ply == 0, g->plies[ply].san,
		    (long long)g->plies[ply].time_ms, text, sizeof text);
		session_printf(s, "%s", text);
		if (!white_ply)
			number++;
	}
	if ((plies + first_black) % 2 == 1)
		session_printf(s, "\n");
	position_free(copy);
	enum result r = position_result(pos);
	session_printf(s, "      {Still in progress} %s\n", r == RESULT_NONE ? "*" : result_text(r));
}
