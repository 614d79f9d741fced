/*
 * The state of one game on screen: the latest style 12 position, the move
 * list in SAN (English or Spanish), the last move, clocks that tick locally
 * between server updates, and the result once the game ends.
 */
#ifndef CHESS_CLIENT_GAME_VIEW_H
#define CHESS_CLIENT_GAME_VIEW_H
#include <stdbool.h>
#include <stddef.h>
#include "san.h"
#include "style12.h"

#define GAME_VIEW_RESULT_MAX 160
/*
 * Moves a view keeps: the longest game the 75-move rule allows (8,848 moves
 * and a half).  Past it the oldest are dropped, whatever a server sends.
 */
#define GAME_VIEW_MOVES_MAX 17700

struct game_view;

struct game_view *game_view_new(enum san_lang lang);
void game_view_free(struct game_view *gv);
/*
 * Takes a position update received at now_ms (a monotonic clock).  The next
 * position of the same game extends the move list; another game, or a jump,
 * starts the list afresh from that position.
 */
void game_view_update(struct game_view *gv, const struct style12 *s, long long now_ms);
/* The game ended: "{Game 7 (a vs. b) b resigns} 1-0" gives reason and result. */
void game_view_end(struct game_view *gv, const char *reason, const char *result);
/*
 * The server announced a game ("Creating" or "Continuing"): a result shown
 * for an earlier game of the same number is dropped.
 */
void game_view_begin(struct game_view *gv);
/* The connection is lost: the clocks stand still at what they show now. */
void game_view_stop_clocks(struct game_view *gv, long long now_ms);
/*
 * The moves of the game on screen from its start (or from first_ply), as the
 * server lists them in English SAN: they replace the moves known before the
 * ply they reach, and the moves known after it are kept.  -1 (and nothing
 * changes) when they are of another game, do not join the moves known or
 * would make more than GAME_VIEW_MOVES_MAX.
 */
int game_view_set_history(struct game_view *gv, int game, const char *white, const char *black,
    int first_ply, const char (*san)[MOVE_TEXT_MAX], int count);
/* Parses a FICS end line; 0 and fills game, reason, result when it is one. */
int game_view_parse_end(const char *line, int *game, char *reason, size_t reason_len,
    char *result, size_t result_len);

bool game_view_has_position(const struct game_view *gv);
bool game_view_over(const struct game_view *gv);
int game_view_number(const struct game_view *gv);
const struct style12 *game_view_style12(const struct game_view *gv);
const struct board *game_view_board(const struct game_view *gv);
/* Moves known, the ply of the first one (0 = White's first move), and each. */
int game_view_move_count(const struct game_view *gv);
int game_view_first_ply(const struct game_view *gv);
const char *game_view_move(const struct game_view *gv, int index);
/* From and to squares of the last move; false when there is none. */
bool game_view_last_move(const struct game_view *gv, int *from, int *to);
/* A clock now: the last server value, less the time since when it is ticking. */
long long game_view_clock_ms(const struct game_view *gv, enum color c, long long now_ms);
/* "1-0 (bob resigns)", or "" while the game goes on. */
const char *game_view_result(const struct game_view *gv);
/* Pieces of colour c no longer on the board, per type (against the initial set). */
void game_view_lost(const struct game_view *gv, enum color c, int count[TYPE_NB]);
#endif
