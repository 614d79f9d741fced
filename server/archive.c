#include <stdio.h>
#include <string.h>
#include <time.h>

#include "archive.h"
#include "db.h"
#include "pgn.h"

void archive_tags(struct pgn_game *pg, const char *site, const char *event, bool rated,
    int64_t started, const char *white, const char *black, const struct clock_control *tc)
{
	char date[16], text[64];
	time_t t = (time_t)started;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%Y.%m.%d", &tm);
	pgn_game_set_tag(pg, "Event", event ? event : rated ? "Rated game" : "Unrated game");
	pgn_game_set_tag(pg, "Site", site);
	pgn_game_set_tag(pg, "Date", date);
	pgn_game_set_tag(pg, "White", white);
	pgn_game_set_tag(pg, "Black", black);
	clock_format_pgn(tc, text, sizeof text);
	pgn_game_set_tag(pg, "TimeControl", text);
	/* PGN's TimeControl has no delay: the whole control goes in a tag of its own. */
	if (tc->bonus == CLOCK_BONUS_BRONSTEIN || tc->bonus == CLOCK_BONUS_SIMPLE) {
		clock_format(tc, text, sizeof text);
		pgn_game_set_tag(pg, "ChessdTimeControl", text);
	}
}

struct replay {
	struct pgn_game *pg;
	bool timed, ok;
	int max_plies;		/* -1: all */
};

static void replay_move(void *arg, const struct db_move *m)
{
	struct replay *r = arg;
	move mv;

	if (r->max_plies >= 0 && m->ply > r->max_plies)
		return;
	if (!r->ok || san_parse(position_board(pgn_game_position(r->pg)), m->uci, SAN_ENGLISH,
	    NO_TYPE, &mv) != SAN_OK) {
		r->ok = false;
		return;
	}
	pgn_game_play(r->pg, mv, r->timed ? m->clock_ms : PGN_NO_CLOCK);
}

static enum result result_of(const char *text)
{
	return !strcmp(text, "1-0") ? RESULT_WHITE_WINS : !strcmp(text, "0-1") ? RESULT_BLACK_WINS :
	    !strcmp(text, "1/2-1/2") ? RESULT_DRAW : RESULT_NONE;
}

struct pgn_game *archive_pgn(struct db *db, const struct db_game *row, const char *site,
    const char *event, const char *round, char *err, size_t errlen)
{
	return archive_pgn_plies(db, row, site, event, round, -1, err, errlen);
}

struct pgn_game *archive_pgn_plies(struct db *db, const struct db_game *row, const char *site,
    const char *event, const char *round, int max_plies, char *err, size_t errlen)
{
	struct clock_control tc;

	if (clock_parse(&tc, row->time_control, err, errlen) < 0) {
		snprintf(err, errlen, "The stored game is damaged.");
		return NULL;
	}
	struct pgn_game *pg = pgn_game_new(row->start_fen[0] ? row->start_fen : NULL, err, errlen);
	if (!pg)
		return NULL;
	archive_tags(pg, site, event, row->rated, row->started, row->white, row->black, &tc);
	if (round)
		pgn_game_set_tag(pg, "Round", round);
	struct replay r = { pg, !clock_untimed(&tc), true, max_plies };
	if (db_game_moves(db, row->id, replay_move, &r) < 0 || !r.ok) {
		pgn_game_free(pg);
		snprintf(err, errlen, "The stored game is damaged.");
		return NULL;
	}
	pgn_game_set_result(pg, result_of(row->result), db_game_termination_name(row->termination));
	return pg;
}
