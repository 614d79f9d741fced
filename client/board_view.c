#include "board_view.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ESC_RESET "\033[0m"
#define ESC_LIGHT "\033[48;5;180m"
#define ESC_DARK "\033[48;5;137m"
#define ESC_LIGHT_LAST "\033[48;5;150m"
#define ESC_DARK_LAST "\033[48;5;107m"
#define ESC_WHITE_PIECE "\033[1;97m"
#define ESC_BLACK_PIECE "\033[1;30m"
#define ESC_TO_MOVE "\033[7m"

struct out {
	char *buf;
	size_t len, used;
	int lines;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->used + 1 >= o->len)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	o->used += (size_t)n < o->len - o->used ? (size_t)n : o->len - o->used - 1;
}

static void end_line(struct out *o)
{
	while (o->used && o->buf[o->used - 1] == ' ')
		o->used--;
	o->buf[o->used] = '\0';
	put(o, "\n");
	o->lines++;
}

static const char *piece_text(int p, const struct board_view_options *opt)
{
	static const char *const glyphs[PIECE_NB] = {
		[W_PAWN] = "\u2659", [W_KNIGHT] = "\u2658", [W_BISHOP] = "\u2657",
		[W_ROOK] = "\u2656", [W_QUEEN] = "\u2655", [W_KING] = "\u2654",
		[B_PAWN] = "\u265f", [B_KNIGHT] = "\u265e", [B_BISHOP] = "\u265d",
		[B_ROOK] = "\u265c", [B_QUEEN] = "\u265b", [B_KING] = "\u265a",
	};
	static const char *const english[PIECE_NB] = {
		[W_PAWN] = "P", [W_KNIGHT] = "N", [W_BISHOP] = "B", [W_ROOK] = "R",
		[W_QUEEN] = "Q", [W_KING] = "K", [B_PAWN] = "p", [B_KNIGHT] = "n",
		[B_BISHOP] = "b", [B_ROOK] = "r", [B_QUEEN] = "q", [B_KING] = "k",
	};
	static const char *const spanish[PIECE_NB] = {
		[W_PAWN] = "P", [W_KNIGHT] = "C", [W_BISHOP] = "A", [W_ROOK] = "T",
		[W_QUEEN] = "D", [W_KING] = "R", [B_PAWN] = "p", [B_KNIGHT] = "c",
		[B_BISHOP] = "a", [B_ROOK] = "t", [B_QUEEN] = "d", [B_KING] = "r",
	};
	if (opt->unicode)
		return glyphs[p];
	return opt->lang == SAN_SPANISH ? spanish[p] : english[p];
}

void board_view_clock_text(long long ms, char *buf, size_t len)
{
	long long s = ms / 1000;

	if (s >= 3600)
		snprintf(buf, len, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%lld:%02lld", s / 60, s % 60);
}

enum color board_view_bottom(const struct game_view *gv)
{
	const struct style12 *s = game_view_style12(gv);

	if (style12_playing(s))
		return style12_my_color(s);
	return s->flip ? BLACK : WHITE;
}

/* A player's line: name, clock (marked when on move), what they captured. */
static void player_line(struct out *o, const struct game_view *gv,
    const struct board_view_options *opt, enum color c, long long now_ms)
{
	const struct style12 *s = game_view_style12(gv);
	char clock[24];
	int lost[TYPE_NB];
	bool on_move = s->side == c && !game_view_over(gv);

	board_view_clock_text(game_view_clock_ms(gv, c, now_ms), clock, sizeof clock);
	put(o, "%s %-14.14s ", on_move && !opt->color ? ">" : " ", c == WHITE ? s->white : s->black);
	if (on_move && opt->color)
		put(o, ESC_TO_MOVE " %7s " ESC_RESET, clock);
	else
		put(o, " %7s ", clock);
	game_view_lost(gv, color_other(c), lost);
	bool any = false;
	for (int t = QUEEN; t >= PAWN; t--)
		for (int i = 0; i < lost[t]; i++) {
			put(o, "%s%s", any ? "" : " ", piece_text(piece_make(color_other(c), (enum piece_type)t), opt));
			any = true;
		}
	int diff = s->material[c] - s->material[color_other(c)];
	if (diff > 0)
		put(o, " +%d", diff);
	end_line(o);
}

static void square_text(struct out *o, const struct game_view *gv,
    const struct board_view_options *opt, int sq)
{
	int from, to;
	bool last = game_view_last_move(gv, &from, &to) && (sq == from || sq == to);
	bool light = (square_file(sq) + square_rank(sq)) % 2 == 1;
	int p = game_view_board(gv)->squares[sq];

	if (opt->color) {
		put(o, "%s", light ? (last ? ESC_LIGHT_LAST : ESC_LIGHT) : (last ? ESC_DARK_LAST : ESC_DARK));
		if (p != NO_PIECE)
			put(o, " %s%s" ESC_RESET, piece_color(p) == WHITE ? ESC_WHITE_PIECE : ESC_BLACK_PIECE,
			    piece_text(p, opt));
		else
			put(o, "  " ESC_RESET);
		put(o, "%s %s", light ? (last ? ESC_LIGHT_LAST : ESC_LIGHT) : (last ? ESC_DARK_LAST : ESC_DARK),
		    ESC_RESET);
		return;
	}
	const char *text = p != NO_PIECE ? piece_text(p, opt) : opt->unicode ? "\u00b7" : ".";
	put(o, last ? "[%s]" : " %s ", text);
}

/* Move list row r of rows, from the newest moves backwards: " 12. Nf3     Nc6". */
static void move_row(struct out *o, const struct game_view *gv, int row, int rows)
{
	int count = game_view_move_count(gv), first = game_view_first_ply(gv);
	int first_row_ply = first - first % 2;		/* White's ply of the first row */
	int last_ply = first + count - 1;
	int total_rows = count ? (last_ply - first_row_ply) / 2 + 1 : 0;
	int shown_from = total_rows > rows ? total_rows - rows : 0;
	int r = shown_from + row;

	if (r >= total_rows)
		return;
	int white_ply = first_row_ply + 2 * r;
	put(o, "%3d. ", white_ply / 2 + 1);
	const char *w = white_ply >= first ? game_view_move(gv, white_ply - first) : "...";
	put(o, "%-8s", w);
	if (white_ply + 1 <= last_ply)
		put(o, "%s", game_view_move(gv, white_ply + 1 - first));
}

int board_view_render(const struct game_view *gv, const struct board_view_options *opt,
    long long now_ms, char *buf, size_t len)
{
	struct out o = { buf, len, 0, 0 };
	const struct style12 *s = game_view_style12(gv);
	bool spanish = opt->lang == SAN_SPANISH;
	bool panel = opt->width >= BOARD_VIEW_SIDE_PANEL_WIDTH;
	enum color bottom = opt->bottom;

	if (len)
		buf[0] = '\0';
	if (!game_view_has_position(gv))
		return 0;
	put(&o, "%s %d: %s %s %s (%d %d)", spanish ? "Partida" : "Game", s->game, s->white,
	    spanish ? "contra" : "vs.", s->black, s->initial_min, s->increment_s);
	end_line(&o);
	player_line(&o, gv, opt, color_other(bottom), now_ms);
	for (int row = 0; row < 8; row++) {
		int rank = bottom == WHITE ? 7 - row : row;
		put(&o, "%d ", rank + 1);
		for (int col = 0; col < 8; col++) {
			int file = bottom == WHITE ? col : 7 - col;
			square_text(&o, gv, opt, square_make(file, rank));
		}
		if (panel) {
			put(&o, "   ");
			move_row(&o, gv, row, BOARD_VIEW_MOVE_ROWS);
		}
		end_line(&o);
	}
	put(&o, " ");
	for (int col = 0; col < 8; col++)
		put(&o, "  %c", bottom == WHITE ? 'a' + col : 'h' - col);
	end_line(&o);
	player_line(&o, gv, opt, bottom, now_ms);
	if (!panel) {
		/* Narrow: the last moves on one line under the board. */
		int count = game_view_move_count(gv), first = game_view_first_ply(gv);
		int shown = 0, room = opt->width - 2, used = 0;
		char line[256];
		for (int i = count - 1; i >= 0; i--) {
			int need = (int)strlen(game_view_move(gv, i)) + 1 + ((first + i) % 2 == 0 ? 5 : 0);
			if (used + need > room)
				break;
			used += need;
			shown++;
		}
		line[0] = '\0';
		for (int i = count - shown; i < count; i++) {
			size_t n = strlen(line);
			int ply = first + i;
			if (ply % 2 == 0 || i == count - shown)
				snprintf(line + n, sizeof line - n, "%s%d.%s%s", n ? " " : "", ply / 2 + 1,
				    ply % 2 ? ".." : "", game_view_move(gv, i));
			else
				snprintf(line + n, sizeof line - n, " %s", game_view_move(gv, i));
		}
		if (line[0]) {
			put(&o, "  %s", line);
			end_line(&o);
		}
	}
	if (game_view_over(gv)) {
		put(&o, "  %s: %s", spanish ? "Resultado" : "Result", game_view_result(gv));
		end_line(&o);
	}
	return o.lines;
}
