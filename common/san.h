/*
 * Standard Algebraic Notation, in English (K Q R B N) or Spanish (R D T A C)
 * piece letters, and the other move texts real clients send.
 */
#ifndef CHESS_SAN_H
#define CHESS_SAN_H

#include <stddef.h>

#include "move.h"

enum san_lang { SAN_ENGLISH, SAN_SPANISH };

enum san_status { SAN_OK, SAN_ILLEGAL, SAN_AMBIGUOUS };

/*
 * Reads a move typed for board b.  Accepts SAN, and leniently what clients
 * send: coordinates (e2e4, e7e8q, e7e8=q, e1g1), LAN (e2-e4, Ng1-f3), castling
 * as O-O / 0-0 / o-o, a missing capture mark, an over-specified origin, and
 * trailing + # ! ? or "e.p.".  Rejects a capture mark on a non-capture, a
 * lower-case piece letter or an explicit P.  Two or more matching moves are
 * SAN_AMBIGUOUS, never guessed; a promotion without a piece is ambiguous
 * unless promote names the piece to use (NO_TYPE for none).  Coordinates
 * take English promotion letters in either language.
 */
enum san_status san_parse(const struct board *b, const char *text, enum san_lang lang,
    enum piece_type promote, move *out);

/* Whether text has the form of a move in any accepted notation (no board needed). */
bool san_looks_like_move(const char *text, enum san_lang lang);

/*
 * san_parse that also hands back, in legal/nlegal, the legal moves to the
 * named destination: all that san_format_plain() needs for the move found.
 */
enum san_status san_parse_moves(const struct board *b, const char *text, enum san_lang lang,
    enum piece_type promote, move *out, move *legal, int *nlegal);

/*
 * san_parse_moves for what a player typed in their language.  English
 * letters are tried only when the text is no move at all in that language
 * ("Nf3" to a Spanish player), never when it is one that is illegal or
 * ambiguous here: to a Spanish player "Rf1" is the king's move (rey), even
 * where only a rook could go.  Coordinates read the same in both.
 */
enum san_status san_parse_typed(const struct board *b, const char *text, enum san_lang lang,
    enum piece_type promote, move *out, move *legal, int *nlegal);

/* san_parse given the legal moves of b (saves generating them again). */
enum san_status san_parse_with(const struct board *b, const move *legal, int nlegal,
    const char *text, enum san_lang lang, enum piece_type promote, move *out);

/* Canonical SAN of the legal move m on b, with minimal disambiguation and + or #. */
void san_format(const struct board *b, move m, enum san_lang lang, char *buf);

/* The same, given the legal moves of b (saves generating them again). */
void san_format_with(const struct board *b, const move *legal, int nlegal, move m,
    enum san_lang lang, char *buf);

/* SAN without the + or # suffix; returns its length.  For callers that know
 * already whether the move checks or mates. */
size_t san_format_plain(const struct board *b, const move *legal, int nlegal, move m,
    enum san_lang lang, char *buf);

#endif
