#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "fen.h"

static const char piece_letters[] = " PNBRQK  pnbrqk";

static void square_name(int sq, char out[3])
{
	out[0] = (char)('a' + square_file(sq));
	out[1] = (char)('1' + square_rank(sq));
	out[2] = '\0';
}

/* A byte as it may appear in a one-line message: itself if printable, else \xNN. */
static const char *shown(char c, char buf[8])
{
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, 8, "%c", c);
	else
		snprintf(buf, 8, "\\x%02x", (unsigned char)c);
	return buf;
}

static const char *color_name(enum color c)
{
	return c == WHITE ? "white" : "black";
}

/* Reads a decimal field that must be entirely digits and at most max. */
static int parse_number(const char *s, size_t len, long max, long *out)
{
	long v = 0;

	if (len == 0 || len > 6)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_placement(struct board *b, const char *s, size_t len, char *err, size_t errlen)
{
	int rank = 7, file = 0;

	for (size_t i = 0; i <= len; i++) {
		char c = i < len ? s[i] : '/';
		if (c == '/') {
			if (file != 8)
				return error_set(err, errlen, "rank %d has %d squares", rank + 1, file);
			if (i == len)
				break;
			if (--rank < 0)
				return error_set(err, errlen, "more than 8 ranks");
			file = 0;
		} else if (c >= '1' && c <= '8') {
			file += c - '0';
		} else {
			const char *p = c ? strchr(piece_letters, c) : NULL;
			char shown_buf[8];
			if (!p || c == ' ')
				return error_set(err, errlen, "invalid character '%s' in rank %d", shown(c, shown_buf),
				    rank + 1);
			/* Keep counting past 8 so the error can say how many there were. */
			if (file < 8)
				board_put(b, (enum piece)(p - piece_letters), square_make(file, rank));
			file++;
		}
	}
	if (rank != 0)
		return error_set(err, errlen, "only %d ranks", 8 - rank);
	return 0;
}

static int check_material(const struct board *b, char *err, size_t errlen)
{
	for (int c = WHITE; c <= BLACK; c++) {
		int kings = bb_count(board_pieces(b, (enum color)c, KING));
		if (kings == 0)
			return error_set(err, errlen, "no %s king", color_name((enum color)c));
		if (kings > 1)
			return error_set(err, errlen, "%s %s kings", kings == 2 ? "two" : "several",
			    color_name((enum color)c));
		if (bb_count(board_pieces(b, (enum color)c, PAWN)) > 8)
			return error_set(err, errlen, "%s has %d pawns", color_name((enum color)c),
			    bb_count(board_pieces(b, (enum color)c, PAWN)));
		if (bb_count(b->by_color[c]) > 16)
			return error_set(err, errlen, "%s has %d pieces", color_name((enum color)c),
			    bb_count(b->by_color[c]));
	}
	bitboard edge_pawns = b->by_type[PAWN] & (BB_RANK_1 | BB_RANK_8);
	if (edge_pawns) {
		char name[3];
		square_name(bb_lsb(edge_pawns), name);
		return error_set(err, errlen, "pawn on %s (first or last rank)", name);
	}
	return 0;
}

static int parse_castling(const struct board *b, const char *s, size_t len, unsigned *out,
    char *err, size_t errlen)
{
	static const struct {
		char letter;
		unsigned right;
		int king, rook;
	} rights[4] = {
		{ 'K', CASTLE_WK, SQ_E1, SQ_H1 }, { 'Q', CASTLE_WQ, SQ_E1, SQ_A1 },
		{ 'k', CASTLE_BK, SQ_E8, SQ_H8 }, { 'q', CASTLE_BQ, SQ_E8, SQ_A8 },
	};
	unsigned set = 0;

	*out = 0;
	if (len == 1 && s[0] == '-')
		return 0;
	if (len == 0 || len > 4)
		return error_set(err, errlen, "castling field must be '-' or letters from KQkq");
	for (size_t i = 0; i < len; i++) {
		int r;
		for (r = 0; r < 4 && rights[r].letter != s[i]; r++)
			;
		char shown_buf[8];
		if (r == 4)
			return error_set(err, errlen, "invalid castling letter '%s'", shown(s[i], shown_buf));
		if (set & rights[r].right)
			return error_set(err, errlen, "castling right %c given twice", s[i]);
		enum color c = r < 2 ? WHITE : BLACK;
		char name[3];
		if (b->squares[rights[r].king] != piece_make(c, KING)) {
			square_name(rights[r].king, name);
			return error_set(err, errlen, "castling right %c without the king on %s",
			    s[i], name);
		}
		if (b->squares[rights[r].rook] != piece_make(c, ROOK)) {
			square_name(rights[r].rook, name);
			return error_set(err, errlen, "castling right %c without a rook on %s",
			    s[i], name);
		}
		set |= rights[r].right;
	}
	*out = set;
	return 0;
}

/* The en passant square must sit behind a pawn that just made a double step. */
static int parse_ep(const struct board *b, enum color side, const char *s, size_t len,
    int *out, char *err, size_t errlen)
{
	*out = SQ_NONE;
	if (len == 1 && s[0] == '-')
		return 0;
	if (len != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') {
		char text[40] = "", shown_buf[8];
		for (size_t i = 0; i < len && i < 8; i++)
			strcat(text, shown(s[i], shown_buf));
		return error_set(err, errlen, "invalid en passant square '%s'", text);
	}
	int sq = square_make(s[0] - 'a', s[1] - '1');
	int rank = side == WHITE ? 5 : 2;
	int pawn_sq = side == WHITE ? sq - 8 : sq + 8;
	int origin = side == WHITE ? sq + 8 : sq - 8;
	if (square_rank(sq) != rank || b->squares[pawn_sq] != piece_make(color_other(side), PAWN) ||
	    b->squares[sq] || b->squares[origin])
		return error_set(err, errlen, "en passant square %.2s with no pawn that just moved", s);
	*out = sq;
	return 0;
}

int fen_parse(struct board *b, const char *text, char *err, size_t errlen)
{
	const char *field[7];
	size_t flen[7];
	int n = 0;
	const char *p = text;
	char name[3];

	if (!text)
		return error_set(err, errlen, "empty FEN");
	/* Split on single spaces; leading/trailing blanks are tolerated. */
	while (*p == ' ')
		p++;
	while (*p && n < 7) {
		field[n] = p;
		while (*p && *p != ' ')
			p++;
		flen[n] = (size_t)(p - field[n]);
		n++;
		while (*p == ' ')
			p++;
	}
	if (n == 0)
		return error_set(err, errlen, "empty FEN");
	if (n == 7 || *p)
		return error_set(err, errlen, "FEN has more than 6 fields");
	if (n != 4 && n != 6)
		return error_set(err, errlen, "FEN has %d fields, expected 6 (or 4)", n);

	board_clear(b);
	if (parse_placement(b, field[0], flen[0], err, errlen) < 0 ||
	    check_material(b, err, errlen) < 0)
		return -1;

	enum color side;
	if (flen[1] == 1 && field[1][0] == 'w')
		side = WHITE;
	else if (flen[1] == 1 && field[1][0] == 'b')
		side = BLACK;
	else
		return error_set(err, errlen, "side to move must be 'w' or 'b'");

	unsigned castling;
	int ep;
	if (parse_castling(b, field[2], flen[2], &castling, err, errlen) < 0 ||
	    parse_ep(b, side, field[3], flen[3], &ep, err, errlen) < 0)
		return -1;

	long halfmove = 0, fullmove = 1;
	if (n == 6) {
		if (parse_number(field[4], flen[4], 9999, &halfmove) < 0)
			return error_set(err, errlen, "halfmove clock must be a number from 0 to 9999");
		if (parse_number(field[5], flen[5], 9999, &fullmove) < 0 || fullmove < 1)
			return error_set(err, errlen, "fullmove number must be a number from 1 to 9999");
		if (ep != SQ_NONE && halfmove != 0)
			return error_set(err, errlen, "halfmove clock %ld after a double pawn step", halfmove);
	}

	/* The side that just moved may not have left its king in check. */
	int their_king = board_king(b, color_other(side));
	if (board_attackers(b, their_king, board_occupied(b)) & b->by_color[side])
		return error_set(err, errlen, "side not to move is in check");
	int our_king = board_king(b, side);
	int checks = bb_count(board_attackers(b, our_king, board_occupied(b)) &
	    b->by_color[color_other(side)]);
	if (checks > 2) {
		square_name(our_king, name);
		return error_set(err, errlen, "king on %s is in check from %d pieces", name, checks);
	}

	board_set_state(b, side, castling, ep);
	b->halfmove_clock = (uint16_t)halfmove;
	b->fullmove_number = (uint16_t)fullmove;
	return 0;
}

void fen_format(const struct board *b, char *buf)
{
	char *out = buf;

	for (int rank = 7; rank >= 0; rank--) {
		int gap = 0;
		for (int file = 0; file < 8; file++) {
			int p = b->squares[square_make(file, rank)];
			if (!p) {
				gap++;
				continue;
			}
			if (gap)
				*out++ = (char)('0' + gap);
			gap = 0;
			*out++ = piece_letters[p];
		}
		if (gap)
			*out++ = (char)('0' + gap);
		if (rank)
			*out++ = '/';
	}
	*out++ = ' ';
	*out++ = b->side == WHITE ? 'w' : 'b';
	*out++ = ' ';
	if (!b->castling)
		*out++ = '-';
	if (b->castling & CASTLE_WK)
		*out++ = 'K';
	if (b->castling & CASTLE_WQ)
		*out++ = 'Q';
	if (b->castling & CASTLE_BK)
		*out++ = 'k';
	if (b->castling & CASTLE_BQ)
		*out++ = 'q';
	*out++ = ' ';
	if (b->ep_square == SQ_NONE) {
		*out++ = '-';
	} else {
		*out++ = (char)('a' + square_file(b->ep_square));
		*out++ = (char)('1' + square_rank(b->ep_square));
	}
	sprintf(out, " %u %u", b->halfmove_clock, b->fullmove_number);
}
