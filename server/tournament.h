/*
 * Club tournaments run by the server: the live registry, owned by
 * the server like `struct games`.  Each tournament keeps the pure core's
 * struct tourney (players, rounds, results) and, for the round being
 * played, what happens on each board: waiting for its players, playing a
 * live game, or done.  Every change is written to the database, so a
 * restart in any state rebuilds the same tournament: a command's change is
 * committed before anyone is told of it (refused, it is undone and its
 * user reads one line saying so); what a game's end or the timer changes
 * joins the pass's commit.
 *
 * Rules the server applies (see also `help tourney`):
 * - A round is paired when the previous one has a result on every board:
 *   round robins by the Berger tables, Swiss rounds by the Dutch system.
 * - A board's game starts as soon as both players are logged in and free.
 *   A player still missing tourney_forfeit_ms after the round was paired
 *   (or after the board's game was aborted or adjourned) loses by forfeit
 *   (+- or -+; -- when both are missing).
 * - An aborted game is played again from the start; an adjourned one,
 *   and one that was in progress when the server stopped (adjourned at
 *   start-up), continues from its stored moves as soon as both players are
 *   back (or with `resume`), under the same forfeit rule.  A board settled
 *   without it (a forfeit, a withdrawal, the director's result) ends it
 *   with the board's result, as an adjudication rating nobody.
 * - A withdrawn player is not paired again; in a round robin the remaining
 *   games against them are forfeits.  A paused player gets a zero-point
 *   bye in a Swiss (a forfeit in a round robin) until resumed.
 * - Who follows a tournament (`tourney observe`) is not kept across a restart.
 */
#ifndef CHESSD_TOURNAMENT_H
#define CHESSD_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"

#include "position.h"
#include "tiebreak.h"
#include "tourney.h"

struct server;
struct session;
struct tournament;
struct tournaments;

/* The channel tournament announcements go to ("help channel_list"). */
#define TOURNAMENT_CHANNEL 49
/*
 * Tournaments kept in memory (each holds a struct tourney of about 700 KB).
 * When the registry is full the oldest finished one is dropped from memory;
 * it stays in the database.
 */
#define TOURNAMENTS_MAX 256

enum tournament_kind { TOURNAMENT_RR, TOURNAMENT_DRR, TOURNAMENT_SWISS };
enum tournament_state {
	TOURNAMENT_CREATED, TOURNAMENT_RUNNING, TOURNAMENT_PAUSED, TOURNAMENT_FINISHED,
};

struct tournaments *tournaments_new(struct server *srv);
void tournaments_free(struct tournaments *ts);
/* At start-up, after games_adjourn_orphans(): rebuilds every tournament. */
int tournaments_load(struct tournaments *ts);
struct tournament *tournaments_find(struct tournaments *ts, int64_t id);
/* Calls fn for each tournament, oldest first. */
void tournaments_each(struct tournaments *ts, void (*fn)(struct tournament *t, void *arg),
    void *arg);

/* game.c calls this when a tournament game ends (status finished, adjourned, aborted). */
void tournament_game_over(struct server *srv, int64_t tourney_id, int round, int board,
    int64_t game_id, enum result r, enum game_status status);
/* ... this when its adjourned game is resumed (by the tournament, or with
 * `resume`/`match`): the board is being played, as if the tournament had
 * started it (no absence forfeit, no withdrawal or result settles it). */
void tournament_game_resumed(struct server *srv, int64_t tourney_id, int round, int board,
    int64_t game_id, int game_number);
/* ... and this instead when it was aborted, by `by` (a colour, or -1 for both). */
void tournament_game_aborted(struct server *srv, int64_t tourney_id, int round, int board, int by);

/* An account was deleted: it directs nothing, leaves tournaments not
 * started, and is withdrawn from running ones, where every game it had
 * left to play in the current round, live, adjourned or not begun, is lost
 * by forfeit (account.c calls this before it ends the account's games). */
void tournaments_account_deleted(struct tournaments *ts, int64_t user_id);

/*
 * The verbs behind `tourney ...`.  Each answers the session itself.  Those
 * for the director alone (start, pause, set_result, set) leave the check of
 * tournament_may_direct() to the caller; the others check who may do it.
 */
bool tournament_may_direct(const struct tournament *t, const struct session *s);
struct tournament *tournament_create(struct tournaments *ts, struct session *director,
    const char *name, enum tournament_kind kind, int rounds, const char *time_control,
    bool rated);
void tournament_join(struct tournament *t, struct session *s);
void tournament_start(struct tournament *t, struct session *s);
/* Withdraws (name NULL: oneself), pauses or resumes a player. */
void tournament_withdraw(struct tournament *t, struct session *s, const char *name);
void tournament_pause_player(struct tournament *t, struct session *s, const char *name,
    bool paused);
/* Pauses (no new round is paired) or resumes the whole tournament. */
void tournament_pause(struct tournament *t, struct session *s, bool paused);
void tournament_request_bye(struct tournament *t, struct session *s, int round);
void tournament_set_result(struct tournament *t, struct session *s, int round, int board,
    enum tourney_result res);
void tournament_set(struct tournament *t, struct session *s, const char *key, const char *value);
/* Observes every board being played now, and those of later rounds as they start. */
void tournament_follow(struct tournament *t, struct session *s, bool follow);

/* What the display commands read. */
int64_t tournament_id(const struct tournament *t);
const char *tournament_name(const struct tournament *t);
enum tournament_kind tournament_kind(const struct tournament *t);
const char *tournament_kind_name(enum tournament_kind kind);
enum tournament_state tournament_state(const struct tournament *t);
const char *tournament_state_name(enum tournament_state state);
const char *tournament_director(const struct tournament *t);
const char *tournament_time_control(const struct tournament *t);
bool tournament_rated(const struct tournament *t);
/* Seconds its games' moves are held back on the web, -1: the server's public_delay_s. */
int tournament_web_delay_s(const struct tournament *t);
/* The pure core: players by start number (join order before the start). */
const struct tourney *tournament_core(const struct tournament *t);
int tournament_tiebreaks(const struct tournament *t, enum tiebreak *order);
/* Rounds whose every board has a result (the standings are after these). */
int tournament_rounds_done(const struct tournament *t);
/* The live game number on a board of the current round, or 0. */
int tournament_board_game(const struct tournament *t, int board);
bool tournament_player_paused(const struct tournament *t, int player);

/* Result text as in TRF-like listings: "1-0", "+-", "*". */
const char *tournament_result_text(enum tourney_result res);
/* Parses "1-0", "0-1", "1/2-1/2" (or "=") "+-", "-+", "--"; -1 when none. */
int tournament_result_parse(const char *text, enum tourney_result *out);
/* Parses "BH,BH-C1,SB,DE,WIN,WON"; returns the count or -1. */
int tournament_tiebreaks_parse(const char *text, enum tiebreak *order);

#endif
