#include <string.h>

#include "move.h"

static const char type_letters[] = " PNBRQK";

void square_format(int sq, char *buf)
{
	buf[0] = (char)('a' + square_file(sq));
	buf[1] = (char)('1' + square_rank(sq));
	buf[2] = '\0';
}

void move_format_uci(move m, char *buf)
{
	square_format(move_from(m), buf);
	square_format(move_to(m), buf + 2);
	if (move_kind_of(m) == MOVE_PROMOTION) {
		buf[4] = (char)(type_letters[move_promotion(m)] | 0x20);
		buf[5] = '\0';
	}
}

void move_format_verbose(const struct board *b, move m, char *buf)
{
	if (move_kind_of(m) == MOVE_CASTLING) {
		strcpy(buf, move_to(m) > move_from(m) ? "o-o" : "o-o-o");
		return;
	}
	buf[0] = type_letters[piece_type_of(b->squares[move_from(m)])];
	buf[1] = '/';
	square_format(move_from(m), buf + 2);
	buf[4] = '-';
	square_format(move_to(m), buf + 5);
	if (move_kind_of(m) == MOVE_PROMOTION) {
		buf[7] = '=';
		buf[8] = type_letters[move_promotion(m)];
		buf[9] = '\0';
	}
}
