/*
 * The FICS output formats real clients parse: style 12 boards, game
 * creation and end lines, `games` lines, movelists.  Handlers never format
 * these themselves.
 */
#ifndef CHESSD_FICS_H
#define CHESSD_FICS_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include "types.h"

struct board;
struct clock_control;
struct game_ply;
struct position;
struct session;

/*
 * A game as the formats read it: plain data, filled by game_view() (or by
 * a test), so that every format below is a pure function of it.
 */
struct fics_game_view {
	int number;
	const char *names[COLOR_NB];
	const char *ratings[COLOR_NB];	/* "1500", "----", "1500P" */
	bool rated;
	bool private_game;		/* `games` marks it "p", as lasker */
	const struct clock_control *tc;
	const struct position *pos;
	const struct game_ply *plies;	/* position_ply_count(pos) of them */
	int64_t clock_ms[COLOR_NB];	/* left now */
	bool seated[COLOR_NB];		/* connected: the clock may tick */
	bool guest[COLOR_NB];		/* seated and not registered */
	bool timeseal[COLOR_NB];	/* seated with timeseal */
	bool clock_stopped;		/* paused by the players' agreement */
	const char *last_verbose;	/* "P/e2-e4", "none" before any move */
	int last_dpp;			/* file of a double pawn push just made, or -1 */
	int64_t started_unix;
	/* Examined boards: "Exam." (or "Setup" while set up) in `games`, else NULL. */
	const char *examined;
	/* While set up (bsetup): the board being edited, shown instead of the position. */
	const struct board *setup_board;
};

/* Style 12 relations. */
enum fics_relation {
	REL_ISOLATED = -3, REL_OBSERVING_EXAMINED = -2, REL_THEIR_MOVE = -1,
	REL_OBSERVING = 0, REL_MY_MOVE = 1, REL_EXAMINER = 2,
};

#define FICS_LINE_MAX 512
#define FICS_BOARD_MAX 2048	/* a style 1 board */

/* A moment as FICS writes it in movelists, history, finger and messages:
 * "Tue Dec  1, 13:40 UTC 2026" (UTC). */
void fics_date(int64_t when, char *buf, size_t len);

/* FICS's "strength": material, pawn 1, minor 3, rook 5, queen 9. */
int fics_material(const struct board *b, enum color c);
/* The <12> line for one viewer; ms selects milliseconds (iset ms 1). */
void fics_style12(const struct fics_game_view *g, enum fics_relation rel, bool ms, bool flip,
    char *buf, size_t len);
/* The board for people (style 1 and every style but 12): a drawing from
 * the viewer's side with the clocks and the last move beside it. */
void fics_style1(const struct fics_game_view *g, bool black_at_bottom, char *buf, size_t len);
/*
 * The minutes and increment that every line a client parses carries (style
 * 12, Creating:, Game N:, games, the movelist header, offers).  FICS has no
 * form for several periods, a delay or odd seconds, and clients add the
 * increment field on their own clocks: other controls give their first
 * period's minutes (at least 1) and their Fischer increment, a delay none.
 * Texts for people and the records (PGN, history) show the control itself.
 */
void fics_time_numbers(const struct clock_control *tc, long long *min, long long *inc);
/* Whether the two numbers are the whole control (FICS has a form for it). */
bool fics_time_plain(const struct clock_control *tc);
/* "5 0": fics_time_numbers() as text. */
void fics_time_text(const struct fics_game_view *g, char *buf, size_t len);
/* "rated blitz" / "unrated standard". */
void fics_type_text(const struct fics_game_view *g, char *buf, size_t len);
/* "Creating: alice (1500) bob (1612) rated blitz 5 0", also when a game
 * resumes: clients open a board on this line only (the intro line after it
 * says "Continuing"). */
void fics_creating(const struct fics_game_view *g, char *buf, size_t len);
/* "{Game 7 (alice vs. bob) Creating rated blitz match.}" */
void fics_game_intro(const struct fics_game_view *g, bool continuing, char *buf, size_t len);
/* After "Game notification: ": "alice (1500) vs. bob (1520) rated blitz 5 0: Game 7". */
void fics_game_notification(const struct fics_game_view *g, char *buf, size_t len);
/* "{Game 7 (alice vs. bob) bob resigns} 1-0" */
void fics_end_line(const struct fics_game_view *g, const char *reason, const char *result,
    char *buf, size_t len);
/* "<g1> ..." game information for clients that set "iset gameinfo 1". */
void fics_gameinfo(const struct fics_game_view *g, char *buf, size_t len);
/* One line of `games`, without its newline; returns its length. */
size_t fics_games_line(const struct fics_game_view *g, char *buf, size_t len);
/* "Game 7: alice (1500) bob (1612) rated blitz 5 0" (observe, moves). */
void fics_game_header(const struct fics_game_view *g, char *buf, size_t len);
/* The lines above a movelist (moves, smoves, oldmoves): players and date,
 * then "Rated blitz match, initial time: 5 minutes, increment: 0 seconds.",
 * a blank line and the column heads. */
void fics_movelist_header(const char *const names[2], const char *const ratings[2],
    int64_t started_unix, bool rated, const struct clock_control *tc, char *buf, size_t len);
/* One movelist line's worth: a move and its thinking time, in columns (a
 * white move leaves the line open for black's). */
void fics_movelist_move(int number, bool white_ply, bool first, const char *san,
    long long time_ms, char *buf, size_t len);
/* The whole `moves` listing, written to the session. */
void fics_movelist(struct session *s, const struct fics_game_view *g);
/* "(m:ss)" or "(m:ss.mmm)" for a thinking time. */
void fics_time_taken(long long ms, bool with_ms, char *buf, size_t len);
/* Clock as "m:ss" (or "h:mm:ss"), negative as "-m:ss". */
void fics_clock_text(long long ms, char *buf, size_t len);

#endif
