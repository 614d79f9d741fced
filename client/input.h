/* What the user types: a move in SAN (English or Spanish) or coordinates, or a command. */
#ifndef CHESS_CLIENT_INPUT_H
#define CHESS_CLIENT_INPUT_H
#include <stdbool.h>
#include <stddef.h>
#include "game_view.h"

#define INPUT_LINE_MAX 1024

enum input_kind {
	INPUT_COMMAND,		/* pass through to the server */
	INPUT_MOVE,		/* a legal move on the board: out holds its coordinates */
	INPUT_BAD_MOVE		/* looks like a move, but is illegal or ambiguous here: out says why */
};

/*
 * Reads a typed line against the game in gv (NULL or none: everything is a
 * command).  Moves are checked on the board when it is the player's turn and
 * sent as coordinates (e2e4, e7e8q), so Spanish SAN works on any server.
 */
enum input_kind input_read(const struct game_view *gv, enum san_lang lang, const char *text,
    char *out, size_t out_len);
#endif
