#include "input.h"

#include <stdio.h>
#include <string.h>

#include "movegen.h"

enum input_kind input_read(const struct game_view *gv, enum san_lang lang, const char *text,
    char *out, size_t out_len)
{
	move m;

	snprintf(out, out_len, "%s", text);
	if (!gv || !game_view_has_position(gv) || game_view_over(gv) ||
	    game_view_style12(gv)->relation != REL_PLAYING_MY_MOVE || strchr(text, ' '))
		return INPUT_COMMAND;
	if (!san_looks_like_move(text, lang) && !(lang != SAN_ENGLISH &&
	    san_looks_like_move(text, SAN_ENGLISH)))
		return INPUT_COMMAND;
	move legal[MAX_MOVES];
	int nlegal;
	enum san_status st = san_parse_typed(game_view_board(gv), text, lang, NO_TYPE, &m, legal,
	    &nlegal);
	if (st == SAN_OK) {
		char uci[MOVE_TEXT_MAX];
		move_format_uci(m, uci);
		snprintf(out, out_len, "%s", uci);
		return INPUT_MOVE;
	}
	snprintf(out, out_len, "%s move: %s", st == SAN_AMBIGUOUS ? "Ambiguous" : "Illegal", text);
	return INPUT_BAD_MOVE;
}
