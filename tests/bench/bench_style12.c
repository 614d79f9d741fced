/* Style 12 lines read in one pass by the load benchmarks (bench_style12.h). */
#include <string.h>

#include "bench_style12.h"

/* A decimal field, possibly negative; false on anything else. */
static bool field_int(const char *f, size_t len, int *out)
{
	size_t i = f[0] == '-';
	int v = 0;

	if (i == len)
		return false;
	for (; i < len; i++) {
		if (f[i] < '0' || f[i] > '9')
			return false;
		v = v * 10 + (f[i] - '0');
	}
	*out = f[0] == '-' ? -v : v;
	return true;
}

/*
 * Splits the line at spaces in one pass (sscanf cost the benchmarks'
 * clients more than a microsecond a board, time taken from the server's
 * share of the two cores).
 */
bool style12_parse(const char *line, struct style12 *s)
{
	enum { FIELDS = 27 };		/* "<12>" and the fields up to the move number */
	const char *at[FIELDS];
	size_t len[FIELDS];
	int n = 0;

	for (const char *p = line; *p && n < FIELDS;) {
		while (*p == ' ')
			p++;
		at[n] = p;
		while (*p && *p != ' ')
			p++;
		len[n] = (size_t)(p - at[n]);
		if (len[n])
			n++;
	}
	if (n < FIELDS || len[0] != 4 || memcmp(at[0], "<12>", 4) || len[9] != 1 ||
	    (at[9][0] != 'W' && at[9][0] != 'B'))
		return false;
	for (int r = 0; r < 8; r++) {
		if (len[1 + r] != 8)
			return false;
		memcpy(s->ranks[r], at[1 + r], 8);
		s->ranks[r][8] = '\0';
	}
	s->side = at[9][0];
	return field_int(at[10], len[10], &s->dpp_file) &&
	    field_int(at[11], len[11], &s->castle[0]) && field_int(at[12], len[12], &s->castle[1]) &&
	    field_int(at[13], len[13], &s->castle[2]) && field_int(at[14], len[14], &s->castle[3]) &&
	    field_int(at[15], len[15], &s->halfmove) && field_int(at[16], len[16], &s->game) &&
	    field_int(at[19], len[19], &s->relation) && field_int(at[26], len[26], &s->move_number);
}

/* Plies played before the position the line shows. */
int style12_ply(const struct style12 *s)
{
	return (s->move_number - 1) * 2 + (s->side == 'B');
}

/* Rebuilds the position of a style 12 line; -1 on a piece letter we do not know. */
int style12_board(const struct style12 *s, struct board *b)
{
	static const char letters[] = "PNBRQK";

	board_clear(b);
	for (int row = 0; row < 8; row++) {
		for (int file = 0; file < 8 && s->ranks[row][file]; file++) {
			char ch = s->ranks[row][file];
			if (ch == '-')
				continue;
			char upper = (char)(ch & ~0x20);
			const char *at = strchr(letters, upper);
			if (!at || !upper)
				return -1;
			enum color c = ch == upper ? WHITE : BLACK;
			board_put(b, piece_make(c, (enum piece_type)(at - letters + PAWN)),
			    square_make(file, 7 - row));
		}
	}
	enum color side = s->side == 'W' ? WHITE : BLACK;
	unsigned castling = (s->castle[0] ? CASTLE_WK : 0) | (s->castle[1] ? CASTLE_WQ : 0) |
	    (s->castle[2] ? CASTLE_BK : 0) | (s->castle[3] ? CASTLE_BQ : 0);
	int ep = s->dpp_file >= 0 && s->dpp_file < 8 ?
	    square_make(s->dpp_file, side == WHITE ? 5 : 2) : SQ_NONE;
	board_set_state(b, side, castling, ep);
	b->halfmove_clock = (uint16_t)s->halfmove;
	b->fullmove_number = (uint16_t)s->move_number;
	return 0;
}
