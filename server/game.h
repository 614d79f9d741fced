/*
 * Live games: two players, a position from the rules core, server-kept
 * clocks with a libevent timer for the flag, offers, observers.  Every
 * change is written to the database in the loop pass that makes it, and
 * what players and observers see is queued behind that pass's COMMIT.
 */
#ifndef CHESSD_GAME_H
#define CHESSD_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "limit.h"
#include "move.h"
#include "position.h"

struct server;
struct session;
struct game;
struct games;
struct fics_game_view;
struct examine;

/* One move played, as the game keeps it (plain data the formats read). */
struct game_ply {
	char san[MOVE_TEXT_MAX];
	char uci[MOVE_TEXT_MAX];
	int64_t time_ms;	/* thinking time charged */
	int64_t clock_ms;	/* mover's clock after the move */
};


struct game_params {
	struct clock_control tc;
	bool rated;
	const char *fen;		/* NULL: the standard start */
	/* Tournament games: the board they are played on; 0 otherwise. */
	int64_t tourney_id;
	int tourney_round, tourney_board;
};

/* Offers a player can make in a game (a set). */
enum game_offer {
	OFFER_DRAW = 1, OFFER_ABORT = 2, OFFER_ADJOURN = 4, OFFER_TAKEBACK = 8,
	OFFER_PAUSE = 16, OFFER_UNPAUSE = 32, OFFER_SWITCH = 64,
};
/* Every kind, for "accept" and "decline" to try in turn. */
#define GAME_OFFER_KINDS 7
#define GAME_OFFER_ALL ((1u << GAME_OFFER_KINDS) - 1)

/* The registry of live games, owned by the server. */
struct games *games_new(struct server *srv);
void games_free(struct games *gs);
struct game *games_find(struct games *gs, int number);
int games_count(const struct games *gs);
/* Calls fn for each live game in number order. */
void games_each(struct games *gs, void (*fn)(struct game *g, void *arg), void *arg);
/* Frees the games that ended this pass (the server's pass hook calls it). */
void games_reap(struct games *gs);
/* A live game whose empty seat belongs to s (its account or reconnect key), or NULL. */
struct game *games_find_absent(struct games *gs, struct session *s);
/* Whether a disconnected player of this name holds a seat in a live game. */
bool games_name_held(struct games *gs, const char *name);
/* At start-up: games left active by a crash become adjourned. */
int games_adjourn_orphans(struct server *srv);
/* The server is stopping: every game in progress is adjourned (guests' too,
 * as after a crash), with its moves and both clocks. */
void games_adjourn_all(struct games *gs, const char *reason);

/* Starts a game; both sessions must be free.  NULL with a reason on failure. */
struct game *game_start(struct server *srv, struct session *white, struct session *black,
    const struct game_params *p, char *err, size_t errlen);
/* Resumes the stored adjourned game id between these two sessions. */
struct game *game_resume(struct server *srv, int64_t id, struct session *a, struct session *b,
    char *err, size_t errlen);

/* A player's actions.  Each answers the player itself.  s plays g and g is
 * live: the command table checked it (CMD_PLAYING) before the handler ran. */
/* True when the move was played (and stored); false after the line saying why not. */
bool game_move(struct game *g, struct session *s, const char *text);
void game_resign(struct game *g, struct session *s);
void game_draw(struct game *g, struct session *s, const char *move_text);
void game_abort(struct game *g, struct session *s);
void game_adjourn(struct game *g, struct session *s);
void game_takeback(struct game *g, struct session *s, int plies);
void game_flag(struct game *g, struct session *s);
/* After a disconnected opponent's grace period: store the game for an admin to decide. */
void game_request_adjudication(struct game *g, struct session *s);
/* Declines (accept false) or accepts the opponent's pending offers of a kind. */
bool game_answer_offer(struct game *g, struct session *s, enum game_offer kind, bool accept);
/*
 * The same for the offer numbered as <pf> showed it to s; false when the
 * number is none of s's offers in g.  Game offers are numbered above
 * OFFER_ID_MAX, apart from challenges.
 */
bool game_answer_offer_number(struct game *g, struct session *s, long number, bool accept);
/*
 * Of the opponent's offers of the kinds in the set: accepts the first (in
 * bit order) or declines every one.  False when there is none.
 */
bool game_answer_kinds(struct game *g, struct session *s, unsigned kinds, bool accept);
/* Withdraws s's own offers in g (the one numbered so, or all with number 0); false if none. */
bool game_withdraw_offers(struct game *g, struct session *s, long number);
/* Withdraws s's own offers in g of the kinds in the set; false if none. */
bool game_withdraw_kinds(struct game *g, struct session *s, unsigned kinds);
/* Whether s has offers in g made to it (incoming) or by it. */
bool game_has_offers(const struct game *g, struct session *s, bool incoming);
/* Calls fn for each offer made to (incoming) or by s in g, with its number and lasker's words. */
void game_each_offer(struct game *g, struct session *s, bool incoming,
    void (*fn)(long number, const char *other, const char *what, void *arg), void *arg);
/* "pause" and "unpause": offers; accepted, the clocks stop or go on. */
void game_pause(struct game *g, struct session *s);
void game_unpause(struct game *g, struct session *s);
/* "switch": an offer to change colours before the first move. */
void game_switch(struct game *g, struct session *s);
/* "moretime": seconds (1..the limit) added to the opponent's clock, stored first. */
void game_moretime(struct game *g, struct session *s, long seconds);
/* Whether g's clocks stand still by the players' agreement. */
bool game_clock_paused(const struct game *g);
/* The player's session went away; the returning owner of the seat calls game_player_back. */
void game_player_left(struct game *g, struct session *s);
void game_player_back(struct game *g, struct session *s);
/* A player's account was deleted: that side loses by forfeit (aborted before
 * move 2), and the game changes no rating. */
void game_account_deleted(struct game *g, int64_t user_id);

int game_observe(struct game *g, struct session *s);
void game_unobserve(struct game *g, struct session *s);
int game_observer_count(const struct game *g);
void game_each_observer(struct game *g, void (*fn)(struct session *s, void *arg), void *arg);

/* Starts s observing g and shows the observe header and board; -1 and a
 * one-line reason in err when s may not. */
int game_watch(struct game *g, struct session *s, char *err, size_t errlen);
/* Sends the current board (style 12) to one viewer. */
void game_send_board(struct game *g, struct session *viewer);
/* "kibitz" / "whisper": to observers (and players, for kibitz). */
void game_chat(struct game *g, struct session *from, const char *text, bool whisper);

int game_number(const struct game *g);
int64_t game_id(const struct game *g);
const char *game_player_name(const struct game *g, enum color c);
struct session *game_player(const struct game *g, enum color c);
/* The players' ratings as FICS shows them ("1517", "1517P", "----", "++++"). */
void game_rating_texts(const struct game *g, char out[COLOR_NB][8]);
/* The colour s plays, or -1 when s is not a player. */
int game_color_of(const struct game *g, const struct session *s);
const struct position *game_position(const struct game *g);
const struct clock_control *game_clock(const struct game *g);
bool game_rated(const struct game *g);
/* Only its players (and admins) may watch it. */
bool game_private(const struct game *g);
/* Whether s may watch g or read its moves: a private game only its players and admins. */
bool game_open_to(const struct game *g, const struct session *s);
/* Clock time left now for a side, in ms. */
int64_t game_clock_ms(const struct game *g, enum color c);
int64_t game_started(const struct game *g);
/* The mover's clock after a ply. */
int64_t game_move_clock_ms(const struct game *g, int ply);
/* The game as the FICS formats show it, as it stands now (clocks included);
 * valid until the game next changes.  game_list_view() fills only what a
 * `games` line shows (fics_games_line()); game_view() fills it all. */
void game_list_view(const struct game *g, struct fics_game_view *v);
void game_view(const struct game *g, struct fics_game_view *v);
bool game_over(const struct game *g);
/* Tournament games: the tournament's id, 0 for other games. */
int64_t game_tourney_id(const struct game *g);

/*
 * Examined boards (examine.c drives them): a game number shared with
 * played games, observers and the formats, but no players, no running
 * clocks, nothing stored and no rating.  The game owns ex and frees it.
 */
struct game_examined {
	const char *names[COLOR_NB];
	const char *ratings[COLOR_NB];
	struct clock_control tc;
	bool rated;
	const char *fen;		/* NULL: the standard start */
	int64_t started_unix;
};
struct game *game_open_examined(struct server *srv, struct examine *ex,
    const struct game_examined *p, char *err, size_t errlen);
/* The examine session of an examined board, NULL for a played game. */
struct examine *game_examine(const struct game *g);
/* A new start position (no moves); -1 and the FEN's fault in err. */
int game_examined_reset(struct game *g, const char *fen, char *err, size_t errlen);
/* Plays the legal move m; the mover's clock is shown as clock_ms (< 0: unchanged). */
int game_examined_play(struct game *g, move m, int64_t time_ms, int64_t clock_ms);
void game_examined_undo(struct game *g, int plies);
/* The SAN of a ply shown (0 <= ply < the position's ply count). */
const char *game_ply_san(const struct game *g, int ply);
void game_examined_set_name(struct game *g, enum color c, const char *name);
/* The board to every observer (examine.c shows the examiners theirs). */
void game_examined_show(struct game *g);
/* Ends the board: observers are dropped without a word (examine.c told them). */
void game_examined_close(struct game *g);

#endif
