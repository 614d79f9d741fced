/*
 * Examine mode, as on FICS: a board with no players and no clocks that one
 * or more examiners step through (forward, backward, revert) or play on
 * for either side, set up (bsetup), and that others observe.  Nothing of it
 * is stored or rated.  The board itself is a game of game.c (the number,
 * the observers, the formats); this module keeps the line, the examiners
 * and the setup.
 */
#ifndef CHESSD_EXAMINE_H
#define CHESSD_EXAMINE_H

#include <stdbool.h>

#include "types.h"

struct board;
struct db_game;
struct examine;
struct game;
struct session;

/* Frees ex (the game that owns it calls this). */
void examine_free(struct examine *ex);
struct game *examine_game(const struct examine *ex);
bool examine_is_examiner(const struct examine *ex, const struct session *s);
/* In setup mode (bsetup): the board is being edited, not examined. */
bool examine_in_setup(const struct examine *ex);
/* While in setup mode, the board being edited (as clients are shown it); else NULL. */
const struct board *examine_setup_board(const struct examine *ex);
/* A scratch board (no names given): allobservers says "(scratch)". */
bool examine_scratch_board(const struct examine *ex);
void examine_each_examiner(struct examine *ex, void (*fn)(struct session *s, void *arg),
    void *arg);
/* Sends a line to every examiner but from and any who censor from; returns how many were told. */
int examine_tell_examiners(struct examine *ex, struct session *from, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Starting: s is free (not playing, not examining); each answers s. */
void examine_start_scratch(struct session *s, bool setup);
/* A stored game (finished or adjourned), from its first position. */
void examine_start_stored(struct session *s, const struct db_game *row);

/* An examiner's verbs; each answers s. */
/* A line typed while examining: a move (or, in setup, a drop); false when it is neither. */
bool examine_try_line(struct examine *ex, struct session *s, const char *line);
void examine_forward(struct examine *ex, struct session *s, int plies);
void examine_backward(struct examine *ex, struct session *s, int plies);
void examine_revert(struct examine *ex, struct session *s);
/* commit: the line as it stands becomes the main line revert returns to. */
void examine_commit(struct examine *ex, struct session *s);
/* unexamine: the board goes to the other examiners, or ends for its observers. */
void examine_leave(struct examine *ex, struct session *s);
/* The same when s went away (nothing is said to s). */
void examine_drop(struct examine *ex, struct session *s);
/* The server is stopping: the board ends for its examiners and observers. */
void examine_end(struct examine *ex);
/* mexamine: who (an observer of the board) becomes an examiner too. */
void examine_add_examiner(struct examine *ex, struct session *s, struct session *who);
/* bsetup [subcommand args]; NULL: enter setup mode. */
void examine_setup(struct examine *ex, struct session *s, const char *args);
/* wname / bname; NULL: s's own name. */
void examine_set_name(struct examine *ex, struct session *s, enum color c, const char *name);

#endif
