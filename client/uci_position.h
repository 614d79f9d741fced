/*
 * The argument of a UCI "position" command for one game: "startpos moves
 * e2e4 ..." or "fen FEN moves ...", one move appended per ply.  It holds at
 * most UCI_POSITION_PLIES_MAX moves, so a server that sends a game longer
 * than any game can be cannot make the line, or the engine's input, grow
 * without end.  Plain data, so it can be unit-tested.
 */
#ifndef CHESS_CLIENT_UCI_POSITION_H
#define CHESS_CLIENT_UCI_POSITION_H
#include "game_view.h"
#include "move.h"

/* The longest game the 75-move rule allows, as the board's move list keeps. */
#define UCI_POSITION_PLIES_MAX GAME_VIEW_MOVES_MAX

struct board;
struct uci_position;

struct uci_position *uci_position_new(void);
void uci_position_free(struct uci_position *p);
/* Starts again from board b: "startpos moves" when it is the start, else its FEN. */
void uci_position_reset(struct uci_position *p, const struct board *b);
/* Appends m; -1 (and nothing changes) when it would make more than UCI_POSITION_PLIES_MAX. */
int uci_position_add(struct uci_position *p, move m);
int uci_position_plies(const struct uci_position *p);
/* The text after "position "; "" before the first reset (and nothing may be added then). */
const char *uci_position_text(const struct uci_position *p);
#endif
