/*
 * A game's position with its history: what FIDE's Laws need beyond the
 * board to decide endings and draw claims (Articles 5, 9).
 */
#ifndef CHESS_POSITION_H
#define CHESS_POSITION_H

#include <stddef.h>

#include "san.h"

enum termination {
	TERM_NONE,
	TERM_CHECKMATE,
	TERM_STALEMATE,
	TERM_DEAD_POSITION,
	TERM_FIVEFOLD,
	TERM_SEVENTY_FIVE_MOVES,
};

enum result { RESULT_NONE, RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW };

/* Draws the side to move may claim (9.2, 9.3), as a set. */
enum claim { CLAIM_THREEFOLD = 1, CLAIM_FIFTY_MOVES = 2 };

struct position;

/* A new game from fen (NULL for the standard start); NULL with err on a bad FEN. */
struct position *position_new(const char *fen, char *err, size_t errlen);
void position_free(struct position *pos);
struct position *position_copy(const struct position *pos);

const struct board *position_board(const struct position *pos);
/* The FEN the game started from. */
const char *position_start_fen(const struct position *pos);
int position_ply_count(const struct position *pos);
move position_move_at(const struct position *pos, int ply);

/*
 * Plays the legal move m.  When san is not NULL it receives the move's SAN
 * in lang, computed from the move list the call generates anyway.
 */
void position_play(struct position *pos, move m, enum san_lang lang, char *san);
/* position_play given legal moves that include every one to m's destination
 * (as san_parse_moves returns), so the SAN costs no second generation. */
void position_play_listed(struct position *pos, move m, const move *legal, int nlegal,
    enum san_lang lang, char *san);
/* Parses text (see san_parse) and plays it on success. */
enum san_status position_play_text(struct position *pos, const char *text,
    enum san_lang lang, enum piece_type promote, move *played, char *san);
/* Takes back the last n plies (n <= ply count); returns -1 if there are fewer. */
int position_undo(struct position *pos, int n);

/* How the game ended on the board, if it did. */
enum termination position_termination(const struct position *pos);
enum result position_result(const struct position *pos);
/* Claims available to the side to move now; 0 once the game has ended. */
unsigned position_claimable(const struct position *pos);
/* Claims the side to move could make by announcing move m first (9.2.1, 9.3.1). */
unsigned position_claimable_after(const struct position *pos, move m);
/* Times the current position has occurred, counting this one. */
int position_repetitions(const struct position *pos);
/* Outcome when `flagged` runs out of time (6.9): a win, or a draw if the opponent cannot mate. */
enum result position_flag_result(const struct position *pos, enum color flagged);
/* The same, the search visiting at most budget_nodes positions (past it: a win). */
enum result position_flag_result_within(const struct position *pos, enum color flagged,
    long budget_nodes);

const char *termination_name(enum termination t);
const char *result_text(enum result r);

#endif
