/*
 * FIDE TRF-16 tournament report files: export of a struct tourney and import
 * of the same lines.  Text in memory only; the caller reads and writes files.
 *
 * Written: 012 (name), XXR (rounds planned), XXC white1/black1, BBU 0.5
 * when a pairing-allocated bye is worth half a point (bbpPairings'
 * extension), then one 001 line per player.  Each round takes 10 columns
 * from column 92: opponent (92-95, 0000 for none), colour at 97 (w, b, -),
 * result at 99: 1 = 0 played, + - forfeit, U H F Z byes, '-' with 0000 for
 * an absence, blank for a game not yet played.  Byes requested for rounds
 * not yet paired are written as entries after the last paired round.
 *
 * Read: the lines above (other header lines are ignored), plus W D L for
 * unplayed rounds that counted (read as forfeits when there is an opponent).
 * Export, import, export gives the same text.
 */
#ifndef CHESS_TRF_H
#define CHESS_TRF_H

#include <stddef.h>

#include "tiebreak.h"
#include "tourney.h"

#define TRF_LINE_MAX	(91 + 10 * TOURNEY_ROUNDS_MAX + 2)	/* 001 line plus newline, NUL */

/*
 * Writes t as TRF into buf (at most len bytes, NUL-terminated when len > 0)
 * and returns the length of the whole text, as snprintf does: call with
 * len 0 to size the buffer.  The ranks (columns 86-89) are those of
 * tiebreak_standings() with the tie-breaks order[0..norder-1], as the
 * tournament publishes them: players equal on points and every tie-break
 * share a rank.
 */
size_t trf_export(const struct tourney *t, const enum tiebreak *order, int norder, char *buf,
    size_t len);
/*
 * Reads TRF text (len bytes, lines ending in LF or CRLF) into t.  Returns -1
 * with "line N: ..." in err when the text is malformed or inconsistent.
 */
int trf_import(struct tourney *t, const char *text, size_t len, char *err, size_t errlen);

#endif
