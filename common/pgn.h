/*
 * Portable Game Notation: a game record (tags, moves, clock times, result),
 * export in PGN export format, and import from text.  No I/O: text comes in
 * as a buffer and goes out as a malloc'd string.
 */
#ifndef CHESS_PGN_H
#define CHESS_PGN_H

#include <stddef.h>
#include <stdint.h>

#include "position.h"

#define PGN_NO_CLOCK (-1)

struct pgn_game;

/* A new record starting from fen (NULL: the standard start; sets SetUp/FEN tags otherwise). */
struct pgn_game *pgn_game_new(const char *fen, char *err, size_t errlen);
void pgn_game_free(struct pgn_game *g);

/* Sets (or replaces) a tag; the Seven Tag Roster always exists, defaulting to "?". */
int pgn_game_set_tag(struct pgn_game *g, const char *name, const char *value);
/* The tag's value, or NULL. */
const char *pgn_game_tag(const struct pgn_game *g, const char *name);

/* The game's moves so far. */
const struct position *pgn_game_position(const struct pgn_game *g);
/* Plays the legal move m; clock_ms is the mover's remaining time after it, or PGN_NO_CLOCK. */
void pgn_game_play(struct pgn_game *g, move m, int64_t clock_ms);
/* Records the result and, when not NULL, the Termination tag's value. */
void pgn_game_set_result(struct pgn_game *g, enum result r, const char *termination);
enum result pgn_game_result(const struct pgn_game *g);

/*
 * The game in PGN export format: Seven Tag Roster first, then other tags,
 * movetext in SAN wrapped at 79 columns with [%clk h:mm:ss] comments where
 * clock times are known, and the result.  Caller frees; NULL on no memory.
 */
char *pgn_export(const struct pgn_game *g);

/*
 * Reads the next game from text[*offset..len).  Returns 1 with *out set,
 * 0 at the end of input, -1 on an error: err then says "line L: move N
 * (TEXT): why" (or "line L: why"), and *offset is past the bad game so the
 * caller can go on.  Comments, NAGs, variations and escape lines are skipped.
 * *line counts lines across calls; start it at 1.
 */
int pgn_parse_next(const char *text, size_t len, size_t *offset, int *line,
    struct pgn_game **out, char *err, size_t errlen);

#endif
