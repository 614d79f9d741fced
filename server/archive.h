/* Stored games as PGN records, for `pgn NAME` and `tourney pgn`. */
#ifndef CHESSD_ARCHIVE_H
#define CHESSD_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"

struct db;
struct db_game;
struct pgn_game;

/* The tags every exported game gets; event NULL: "Rated game"/"Unrated game". */
void archive_tags(struct pgn_game *pg, const char *site, const char *event, bool rated,
    int64_t started, const char *white, const char *black, const struct clock_control *tc);
/*
 * A stored game as a PGN record: tags (round when not NULL), the moves with
 * their clocks, the result and the Termination tag.  NULL with a reason
 * when the stored game is damaged.
 */
struct pgn_game *archive_pgn(struct db *db, const struct db_game *row, const char *site,
    const char *event, const char *round, char *err, size_t errlen);
/* The same with at most max_plies of its moves (-1: all). */
struct pgn_game *archive_pgn_plies(struct db *db, const struct db_game *row, const char *site,
    const char *event, const char *round, int max_plies, char *err, size_t errlen);

#endif
