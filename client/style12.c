#include "style12.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "number.h"

#define STYLE12_FIELDS 32
/* A clock field (seconds or milliseconds) beyond this is no clock: 31 years in ms. */
#define CLOCK_FIELD_MAX 1000000000000L

static int piece_from_char(char c)
{
	static const char letters[] = "PNBRQK";
	const char *p;

	if (c == '-')
		return NO_PIECE;
	if ((p = strchr(letters, c)) && c)
		return piece_make(WHITE, (enum piece_type)(p - letters + 1));
	if (c >= 'a' && c <= 'z' && (p = strchr(letters, c - 32)))
		return piece_make(BLACK, (enum piece_type)(p - letters + 1));
	return -1;
}

static int int_field(const char *text, long lo, long hi, long *out)
{
	return number_parse(text, lo, hi, out) == NUMBER_OK ? 0 : -1;
}

/* A text field (a name, a move, a time) is printable ASCII, as FICS.md has it. */
static int copy_field(char *dst, size_t len, const char *src)
{
	if (strlen(src) >= len)
		return -1;
	for (const char *c = src; *c; c++)
		if (*c < '!' || *c > '~')
			return -1;
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

/*
 * Whether the rules core can hold the position: one king a side, no pawn on
 * the first or last rank, no side not to move in check and so on (the FEN
 * reader's checks).  A hostile server's 64 kings would break move generation.
 */
static bool position_possible(const struct style12 *s)
{
	struct board b;
	char fen[FEN_MAX], why[128];

	board_clear(&b);
	for (int sq = 0; sq < 64; sq++)
		if (s->squares[sq] != NO_PIECE)
			board_put(&b, (enum piece)s->squares[sq], sq);
	board_set_state(&b, s->side, 0, SQ_NONE);
	fen_format(&b, fen);
	return fen_parse(&b, fen, why, sizeof why) == 0;
}

int style12_parse(const char *line, struct style12 *out)
{
	char copy[512], *field[STYLE12_FIELDS + 1], *save = NULL;
	int n = 0;
	long v[STYLE12_FIELDS + 1];

	if (strncmp(line, "<12> ", 5) || strlen(line) >= sizeof copy)
		return -1;
	memcpy(copy, line + 5, strlen(line + 5) + 1);
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n == STYLE12_FIELDS)
			return -1;
		field[++n] = t;
	}
	if (n != STYLE12_FIELDS)
		return -1;
	memset(out, 0, sizeof *out);
	for (int r = 0; r < 8; r++) {
		if (strlen(field[r + 1]) != 8)
			return -1;
		for (int f = 0; f < 8; f++) {
			int p = piece_from_char(field[r + 1][f]);
			if (p < 0)
				return -1;
			out->squares[square_make(f, 7 - r)] = (uint8_t)p;
		}
	}
	if (strcmp(field[9], "W") && strcmp(field[9], "B"))
		return -1;
	out->side = field[9][0] == 'W' ? WHITE : BLACK;
	if (!position_possible(out))
		return -1;
	static const struct { int index; long lo, hi; } ranges[] = {
		{ 10, -1, 7 }, { 11, 0, 1 }, { 12, 0, 1 }, { 13, 0, 1 }, { 14, 0, 1 },
		{ 15, 0, 100000 }, { 16, 0, 1000000000 }, { 19, -3, 2 }, { 20, 0, 100000 },
		{ 21, 0, 100000 }, { 22, 0, 1000 }, { 23, 0, 1000 }, { 26, 1, 100000 },
		{ 30, 0, 1 }, { 31, 0, 1 }, { 32, -1000000000, 1000000000 },
	};
	for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
		if (int_field(field[ranges[i].index], ranges[i].lo, ranges[i].hi,
		    &v[ranges[i].index]) < 0)
			return -1;
	out->double_push_file = (int)v[10];
	out->castling = (v[11] ? CASTLE_WK : 0) | (v[12] ? CASTLE_WQ : 0) |
	    (v[13] ? CASTLE_BK : 0) | (v[14] ? CASTLE_BQ : 0);
	out->halfmove_clock = (int)v[15];
	out->game = (int)v[16];
	if (copy_field(out->white, sizeof out->white, field[17]) < 0 ||
	    copy_field(out->black, sizeof out->black, field[18]) < 0 ||
	    copy_field(out->verbose, sizeof out->verbose, field[27]) < 0 ||
	    copy_field(out->taken, sizeof out->taken, field[28]) < 0 ||
	    copy_field(out->san, sizeof out->san, field[29]) < 0)
		return -1;
	out->relation = (enum style12_relation)v[19];
	out->initial_min = (int)v[20];
	out->increment_s = (int)v[21];
	out->material[WHITE] = (int)v[22];
	out->material[BLACK] = (int)v[23];
	/* xboard's rule: the clocks are milliseconds when the time taken has a '.'. */
	bool ms = strchr(out->taken, '.') != NULL;
	for (int c = 0; c < COLOR_NB; c++) {
		long t;
		if (number_parse(field[24 + c], -CLOCK_FIELD_MAX, CLOCK_FIELD_MAX, &t) != NUMBER_OK)
			return -1;
		out->clock_ms[c] = ms ? t : t * 1000;
	}
	out->move_number = (int)v[26];
	out->flip = v[30];
	out->ticking = v[31];
	out->lag_ms = (int)v[32];
	return 0;
}

void style12_board(const struct style12 *s, struct board *out)
{
	int ep = SQ_NONE;

	board_clear(out);
	for (int sq = 0; sq < 64; sq++)
		if (s->squares[sq] != NO_PIECE)
			board_put(out, (enum piece)s->squares[sq], sq);
	/* Castling rights the board cannot have (a moved rook) are dropped. */
	unsigned rights = s->castling;
	if (s->squares[SQ_E1] != W_KING)
		rights &= ~(unsigned)(CASTLE_WK | CASTLE_WQ);
	if (s->squares[SQ_H1] != W_ROOK)
		rights &= ~(unsigned)CASTLE_WK;
	if (s->squares[SQ_A1] != W_ROOK)
		rights &= ~(unsigned)CASTLE_WQ;
	if (s->squares[SQ_E8] != B_KING)
		rights &= ~(unsigned)(CASTLE_BK | CASTLE_BQ);
	if (s->squares[SQ_H8] != B_ROOK)
		rights &= ~(unsigned)CASTLE_BK;
	if (s->squares[SQ_A8] != B_ROOK)
		rights &= ~(unsigned)CASTLE_BQ;
	if (s->double_push_file >= 0)
		ep = square_make(s->double_push_file, s->side == WHITE ? 5 : 2);
	board_set_state(out, s->side, rights, ep);	/* keeps ep only when a capture is legal */
	out->halfmove_clock = (uint16_t)s->halfmove_clock;
	out->fullmove_number = (uint16_t)s->move_number;
}

int style12_ply(const struct style12 *s)
{
	return (s->move_number - 1) * 2 + (s->side == BLACK);
}

bool style12_playing(const struct style12 *s)
{
	return s->relation == REL_PLAYING_MY_MOVE || s->relation == REL_PLAYING_THEIR_MOVE;
}

enum color style12_my_color(const struct style12 *s)
{
	if (s->relation == REL_PLAYING_MY_MOVE)
		return s->side;
	if (s->relation == REL_PLAYING_THEIR_MOVE)
		return color_other(s->side);
	return WHITE;
}
