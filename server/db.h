/*
 * The database: the only owner of the sqlite3 handle.  Writes join one
 * transaction per event-loop pass, committed by db_commit() before any
 * reply of that pass leaves the server (group commit, persist then reply).
 */
#ifndef CHESSD_DB_H
#define CHESSD_DB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DB_NAME_MAX 18		/* 17 letters and the NUL */
#define DB_PASSWORD_MAX 192

struct db;

struct db_user {
	int64_t id;
	char name[DB_NAME_MAX];
	char password[DB_PASSWORD_MAX];
	bool admin;
	int admin_level;	/* 0 for players; an admin acts only on lower levels */
	bool computer;		/* an engine's account: (C) */
	int64_t last_login;	/* 0: never */
};

/* Opens (creating and migrating) the database; NULL with a one-line reason. */
struct db *db_open(const char *path, char *err, size_t errlen);
void db_close(struct db *db);
/* Lets commits skip their fsync (synchronous=NORMAL): the caller then makes
 * the WAL durable itself (see syncer.h) before acknowledging anything. */
int db_set_deferred_sync(struct db *db, bool deferred);
/* After each commit grew the WAL, grew(arg, pages in it); SQLite's own
 * checkpoints are off from then on: the caller must run them. */
void db_watch_wal(struct db *db, void (*grew)(void *arg, int pages), void *arg);
/* Commits the open transaction, if any: 0, or -1 with the writes rolled back. */
int db_commit(struct db *db);
/*
 * Commits what the pass has written so far, now, for a write that must not
 * be acknowledged unless it is stored (a move): 0, or -1 with those writes
 * rolled back.  The pass still owes the end-of-pass db_commit(), which its
 * output waits on (db_pending() stays true).
 */
int db_commit_now(struct db *db);
/*
 * Before a write that must be committed on its own (db_commit_now after it):
 * commits what the pass wrote so far, so that its failure is its own; a
 * failure here is logged and those earlier writes are lost.
 */
void db_commit_earlier(struct db *db);
/* Rolls back the open transaction (one of its writes failed), if any. */
void db_rollback(struct db *db);
/* Whether the pass wrote anything db_commit() has yet to account for. */
bool db_pending(const struct db *db);

/* 1 found, 0 not found, -1 error. */
int db_user_find(struct db *db, const char *name, struct db_user *out);
/* 0 added, 1 the name is taken, -1 error. */
int db_user_add(struct db *db, const char *name, const char *password_hash, bool admin);
/*
 * Deletes an account and settles everything that refers to it, in one
 * savepoint: its settings, channels, aliases and ratings go (foreign keys),
 * games and tournaments keep the name with a NULL id, its adjourned games
 * (outside tournaments) end as a live game would, entries of tournaments
 * not started go, and running ones count it withdrawn from the next round.
 * A deleted_users row tells a running server.  no_server: none runs on this
 * database, so its games left active by a crash end too (a server ends its
 * live ones itself).  1 deleted (id_out set), 0 no such user, -1 error.
 */
int db_user_remove(struct db *db, const char *name, bool no_server, int64_t *id_out);
/* The newest deleted_users row, and calls fn for each account deleted after *last. */
int db_deleted_last(struct db *db, int64_t *last);
int db_deleted_since(struct db *db, int64_t *last, void (*fn)(void *arg, int64_t user_id),
    void *arg);
/*
 * Several writes that stand or fall together inside the pass's transaction:
 * db_savepoint_end keeps them (true) or undoes them all (false).  Not nested.
 */
int db_savepoint(struct db *db);
int db_savepoint_end(struct db *db, bool keep);
int db_user_set_password(struct db *db, int64_t id, const char *password_hash);
/* 1 changed, 0 no such user, -1 error. */
int db_user_set_admin(struct db *db, const char *name, bool admin);
/* 1 changed, 0 no such user, -1 error. */
int db_user_set_computer(struct db *db, const char *name, bool computer);
int db_user_touch(struct db *db, int64_t id, int64_t when);
/* Sets users.admin to a level (0: not an admin).  1 changed, 0 no such user, -1 error. */
int db_user_set_admin_level(struct db *db, const char *name, int level);

/* A variable's value, NULL to return it to the default. */
int db_var_set(struct db *db, int64_t user_id, const char *name, const char *value);
int db_var_each(struct db *db, int64_t user_id,
    void (*fn)(void *arg, const char *name, const char *value), void *arg);
int db_alias_set(struct db *db, int64_t user_id, const char *name, const char *value);
int db_alias_each(struct db *db, int64_t user_id,
    void (*fn)(void *arg, const char *name, const char *value), void *arg);
int db_channel_set(struct db *db, int64_t user_id, int channel, bool member);
int db_channel_each(struct db *db, int64_t user_id, void (*fn)(void *arg, int channel), void *arg);
int db_news_add(struct db *db, int64_t when, const char *title);
int db_news_each(struct db *db, int limit,
    void (*fn)(void *arg, int64_t id, int64_t when, const char *title), void *arg);

/* --- messages, finger notes, comments, the admin log (sql/0009) --- */

/* A stored message; text lives until the callback returns. */
struct db_message {
	int64_t id;
	int64_t sender_id;		/* 0 when the sender's account is gone */
	char sender[DB_NAME_MAX];
	int64_t sent;			/* unix seconds */
	const char *text;
};
int db_message_add(struct db *db, int64_t recipient_id, int64_t sender_id, const char *sender,
    int64_t when, const char *text);
/* Messages an account holds, or -1. */
int db_message_count(struct db *db, int64_t recipient_id);
/* An account's messages, oldest first. */
int db_message_each(struct db *db, int64_t recipient_id,
    void (*fn)(void *arg, const struct db_message *m), void *arg);
int db_message_delete(struct db *db, int64_t recipient_id, int64_t id);
/* Finger notes ("set 1 TEXT" .. "set 10 TEXT"), lines 1..n in order;
 * db_notes_put replaces them all. */
#define DB_FINGER_NOTES 10
int db_notes_each(struct db *db, int64_t user_id,
    void (*fn)(void *arg, int line, const char *text), void *arg);
int db_notes_put(struct db *db, int64_t user_id, const char *const *lines, int n);
int db_comment_add(struct db *db, int64_t user_id, int64_t admin_id, const char *admin,
    int64_t when, const char *text);
int db_comment_each(struct db *db, int64_t user_id,
    void (*fn)(void *arg, const char *admin, int64_t when, const char *text), void *arg);
/* One admin action: who (account and name), what, on whom, when. */
struct db_admin_action {
	int64_t at;
	int64_t admin_id;
	const char *admin;
	const char *action;
	int64_t target_id;		/* 0: no account */
	const char *target;
	const char *detail;
};
int db_admin_log_add(struct db *db, const struct db_admin_action *a);
/* The latest limit actions, oldest first. */
int db_admin_log_each(struct db *db, int limit,
    void (*fn)(void *arg, int64_t id, const struct db_admin_action *a), void *arg);
/* Adds (on) or removes a banned range: 1 changed, 0 nothing to do, -1 error. */
int db_address_ban_set(struct db *db, const char *range, int64_t admin_id, int64_t when, bool on);
int db_address_ban_each(struct db *db, void (*fn)(void *arg, const char *range), void *arg);

/* Where a stored game stands; stored as its name (db_game_status_name()). */
enum game_status {
	GAME_ACTIVE,
	GAME_ADJOURNED,
	GAME_FINISHED,
	GAME_ABORTED,			/* kept only once both sides moved */
	GAME_STATUS_COUNT
};

/* How a stored game ended, as its PGN Termination tag says. */
enum game_termination {
	TERMINATION_NONE,		/* still being played: no tag */
	TERMINATION_NORMAL,
	TERMINATION_TIME_FORFEIT,
	TERMINATION_ABANDONED,
	TERMINATION_ADJUDICATION,
	TERMINATION_UNTERMINATED,	/* adjourned */
	TERMINATION_COUNT
};

/* The stored text of a status or termination; NULL for TERMINATION_NONE. */
const char *db_game_status_name(enum game_status status);
const char *db_game_termination_name(enum game_termination termination);

/* A game as stored; strings are NUL-terminated, empty when NULL. */
struct db_game {
	int64_t id;
	char white[DB_NAME_MAX], black[DB_NAME_MAX];
	int64_t white_id, black_id;	/* 0 for guests */
	char white_rating[8], black_rating[8];
	bool rated;
	char category[12];
	char time_control[64];
	char start_fen[96];
	int64_t started, ended;
	enum game_status status;
	char result[8];
	char reason[96];
	enum game_termination termination;
	char white_clock[48], black_clock[48];
	int clock_ply;			/* the clocks as they stood after this ply */
};

struct db_move {
	int ply;
	char uci[16];
	char san[16];
	int64_t time_ms, clock_ms;
};

struct db_rating {
	double rating, rd, volatility;
	int wins, losses, draws;
};

/* Inserts a new game (g->id ignored); returns its id, or -1. */
int64_t db_game_insert(struct db *db, const struct db_game *g);
/*
 * Appends one move.  The game's clocks are not rewritten: its time_ms
 * brings the last saved clocks up to date (db_game.clock_ply).
 */
int db_game_move(struct db *db, int64_t id, const struct db_move *m);
/* Saves both clocks as they stand after ply. */
int db_game_clocks(struct db *db, int64_t id, const char *white_clock, const char *black_clock,
    int ply);
/* White and black change places in a game's row (names, accounts, ratings). */
int db_game_swap_sides(struct db *db, int64_t id);
/* Drops moves after ply `keep` (a takeback). */
int db_game_truncate(struct db *db, int64_t id, int keep);
/* Sets status, result, reason, termination, end time and clocks. */
int db_game_update(struct db *db, const struct db_game *g);
/*
 * Ends adjourned game id for good, as one nobody can resume: finished with
 * result ("1-0", "0-1", "1/2-1/2") and reason when it has two moves, else,
 * or with result "*", aborted and not kept (as a live game would be); it
 * rates nobody.  1 finished, 0 dropped or not adjourned, -1 error.  Account
 * deletion ends an account's stored games the same way.
 */
int db_game_end_stored(struct db *db, int64_t id, const char *result, const char *reason,
    enum game_termination termination);
/* Removes a game and its moves (a tournament pairing keeps no reference). */
int db_game_delete(struct db *db, int64_t id);
/* 1 found, 0 none, -1 error. */
int db_game_load(struct db *db, int64_t id, struct db_game *out);
int db_game_moves(struct db *db, int64_t id, void (*fn)(void *arg, const struct db_move *m), void *arg);
/* Games with a status, oldest first. */
int db_games_with_status(struct db *db, enum game_status status,
    void (*fn)(void *arg, const struct db_game *g), void *arg);
/*
 * A player's games with a status, newest first, at most limit.  A player is
 * a name and the account id that played under it, as every by-name record
 * lookup below takes it; minus N: the games played without an account from
 * id N on (a guest's session's).  0 owns no games: a guest's or a deleted
 * account's games are nobody's to find by the name once the session ended.
 */
int db_games_of(struct db *db, const char *name, int64_t user_id, enum game_status status,
    int limit, void (*fn)(void *arg, const struct db_game *g), void *arg);
/* The id the next game will get: ids are never reused, an aborted game's neither; -1 on an error. */
int64_t db_games_next_id(struct db *db);
/* Finished games, the last to end first, at most limit. */
int db_games_recent(struct db *db, int limit, void (*fn)(void *arg, const struct db_game *g),
    void *arg);

/*
 * A player's history: the finished games (aborted ones are not kept),
 * numbered in order as `history` shows them, modulo DB_HISTORY_NUMBERS as
 * on FICS, so a game keeps its number while it is in the list.
 */
#define DB_HISTORY_NUMBERS 100
/* The latest `limit` games of the history, oldest first, with their numbers. */
int db_history_each(struct db *db, const char *name, int64_t user_id, int limit,
    void (*fn)(void *arg, int number, const struct db_game *g), void *arg);
/* For db_record_find(): the latest game, finished or adjourned. */
#define DB_RECORD_LATEST INT_MIN
/*
 * The game every record command (smoves, oldmoves, pgn) means by a number:
 * the history game that `history` shows with it (the latest one, if the
 * numbers went round); a negative number counts back from the latest (-1).
 * 1 found, 0 none, -1 error.
 */
int db_record_find(struct db *db, const char *name, int64_t user_id, int number,
    struct db_game *out);

/* 1 found, 0 none (out untouched), -1 error. */
int db_rating_get(struct db *db, int64_t user_id, const char *category, struct db_rating *out);
int db_rating_put(struct db *db, int64_t user_id, const char *category, const struct db_rating *r);

/* One ranked player of a category, as the rating lists show them. */
struct db_ranked {
	int64_t user_id;
	char name[DB_NAME_MAX];
	double rating, rd;
};
/*
 * The ranked players of category (RD below max_rd; humans only when asked),
 * best first and ties by id, from place offset (0: the best), at most count.
 */
int db_rating_ranked(struct db *db, const char *category, double max_rd, bool humans,
    int offset, int count, void (*fn)(void *arg, const struct db_ranked *r), void *arg);
/* How many ranked players come before one of that rating and id (ranked or not); -1. */
int db_rating_ahead(struct db *db, const char *category, double max_rd, bool humans,
    double rating, int64_t user_id);
/* The account names beginning with prefix (letters only, 1 to 17), in order, at most count. */
int db_user_prefix(struct db *db, const char *prefix, int count,
    void (*fn)(void *arg, const char *name), void *arg);

/* --- tournaments (sql/0003-tourneys.sql) --- */

struct db_tourney {
	int64_t id;
	char name[64];
	char kind[8];			/* rr, drr, swiss */
	int rounds;
	char time_control[64];
	bool rated;
	int64_t director_id;		/* 0 when the account is gone */
	char director[DB_NAME_MAX];
	char state[12];			/* created, running, paused, finished */
	int current_round;
	char tiebreaks[64];
	int bye_half;
	int64_t created, finished;	/* unix seconds; finished 0 until then */
	int web_delay_s;		/* -1: the server's public_delay_s */
};

struct db_tourney_player {
	int64_t user_id;
	char name[DB_NAME_MAX];
	int joined, start_no, rating, withdrawn_round;
	bool paused;
};

/* One board of a round; a bye has black 0 and its letter as result. */
struct db_tourney_pairing {
	int round, board, white, black;
	char result[8];
	int64_t game_id;		/* 0: none */
	int64_t absent_deadline_ms;	/* unix ms a waiting board forfeits the absent; 0 none */
};

/* Inserts a tournament (t->id ignored); returns its id, or -1. */
int64_t db_tourney_insert(struct db *db, const struct db_tourney *t);
/* Writes state, current round, rounds, tie-breaks, bye value, end time and web delay. */
int db_tourney_update(struct db *db, const struct db_tourney *t);
int db_tourney_each(struct db *db, void (*fn)(void *arg, const struct db_tourney *t), void *arg);
/* Inserts or replaces a participant. */
int db_tourney_player_put(struct db *db, int64_t tourney_id, const struct db_tourney_player *p);
int db_tourney_player_remove(struct db *db, int64_t tourney_id, int64_t user_id);
/* Participants in start-number order, then joining order. */
int db_tourney_players(struct db *db, int64_t tourney_id,
    void (*fn)(void *arg, const struct db_tourney_player *p), void *arg);
/* A bye asked for in advance; kind NULL removes it. */
int db_tourney_bye_set(struct db *db, int64_t tourney_id, int64_t user_id, int round,
    const char *kind);
int db_tourney_byes(struct db *db, int64_t tourney_id,
    void (*fn)(void *arg, int64_t user_id, int round, const char *kind), void *arg);
/* Inserts or replaces one board of a round. */
int db_tourney_pairing_put(struct db *db, int64_t tourney_id, const struct db_tourney_pairing *p);
/* Every board of every round, by round then board. */
int db_tourney_pairings(struct db *db, int64_t tourney_id,
    void (*fn)(void *arg, const struct db_tourney_pairing *p), void *arg);
/* Marks a games row as a tournament game, and reads the mark (1 found, 0 not one). */
int db_game_set_tourney(struct db *db, int64_t game_id, int64_t tourney_id, int round, int board);
int db_game_tourney(struct db *db, int64_t game_id, int64_t *tourney_id, int *round, int *board);

/* --- end of tournaments --- */

/* --- lists (sql/0008-lists.sql) --- */

/*
 * Adds (on) or removes an entry: owner_id's personal list, or with
 * owner_id 0 a public list (td, muzzle, cmuzzle, ban; admin and computer
 * are the users columns, set with db_user_set_admin/computer).
 */
int db_list_set(struct db *db, int64_t owner_id, const char *list, int64_t member_id, bool on);
/* The accounts on a list (owner_id 0: a public list, admin and computer too), by name. */
int db_list_each(struct db *db, int64_t owner_id, const char *list,
    void (*fn)(void *arg, int64_t member_id, const char *name), void *arg);
/* Whether owner_id has member_id on a personal list: 1, 0, or -1 on error. */
int db_list_has(struct db *db, int64_t owner_id, const char *list, int64_t member_id);
/* Whether an account is on a public list kept in public_lists: 1, 0, or -1 on error. */
int db_public_has(struct db *db, const char *list, int64_t member_id);

#endif
