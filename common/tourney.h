/*
 * A tournament in memory: players, rounds, games and byes.  Plain data,
 * shared by pairing.c, tiebreak.c, trf.c and the server.
 *
 * Sizes are fixed (TOURNEY_PLAYERS_MAX, TOURNEY_ROUNDS_MAX), so a struct
 * tourney is about 700 KB: allocate it (calloc) rather than putting it on
 * the stack, and copy it with memcpy.  Nothing in it points anywhere, so it
 * needs no teardown.
 *
 * Players are numbered 1..nplayers; the start number is the pairing number
 * (the caller orders players by rating, title, name before numbering them).
 * Rounds are numbered 1..nrounds; rounds[r] for r <= rounds_paired holds the
 * pairings made so far.  Index 0 of players[] and rounds[] is unused.
 *
 * Points are kept in half points throughout: a win is 2, a draw 1.
 */
#ifndef CHESS_TOURNEY_H
#define CHESS_TOURNEY_H

#include <stdbool.h>
#include <stddef.h>

/* The Dutch matcher weighs a bracket in 256-bit integers: enough for brackets
 * of about 550 players, so a tournament is capped below that. */
#define TOURNEY_PLAYERS_MAX	500
#define TOURNEY_ROUNDS_MAX	30
#define TOURNEY_GAMES_MAX	(TOURNEY_PLAYERS_MAX / 2)
#define TOURNEY_NAME_MAX	64	/* tournament or player name plus NUL */
#define TOURNEY_TITLE_MAX	4	/* "GM", "WIM", "g"; plus NUL */
#define TOURNEY_FED_MAX		4	/* "NOR" plus NUL */
#define TOURNEY_FIDE_ID_MAX	12	/* 11 digits plus NUL */
#define TOURNEY_BIRTH_MAX	11	/* "YYYY/MM/DD" plus NUL */

#define TOURNEY_WIN_HALF	2
#define TOURNEY_DRAW_HALF	1

enum tourney_system {
	TOURNEY_SWISS,
	TOURNEY_ROUND_ROBIN,
};

enum tourney_colour {
	TOURNEY_COLOUR_NONE,
	TOURNEY_WHITE,
	TOURNEY_BLACK,
};

enum tourney_result {
	TOURNEY_RESULT_NONE,		/* paired, not yet played */
	TOURNEY_RESULT_WHITE_WINS,	/* 1-0 */
	TOURNEY_RESULT_BLACK_WINS,	/* 0-1 */
	TOURNEY_RESULT_DRAW,		/* ½-½ */
	TOURNEY_RESULT_WHITE_FORFEIT,	/* +- : black did not appear */
	TOURNEY_RESULT_BLACK_FORFEIT,	/* -+ : white did not appear */
	TOURNEY_RESULT_DOUBLE_FORFEIT,	/* -- : neither appeared */
};

enum tourney_bye {
	TOURNEY_BYE_NONE,
	TOURNEY_BYE_PAIRING,	/* 'U' pairing-allocated: t->pairing_bye_half points */
	TOURNEY_BYE_HALF,	/* 'H' requested half-point bye */
	TOURNEY_BYE_ZERO,	/* 'Z' zero-point bye */
	TOURNEY_BYE_FULL,	/* 'F' full-point bye */
};

struct tourney_game {
	int white, black;		/* start numbers */
	enum tourney_result result;
};

struct tourney_bye_entry {
	int player;
	enum tourney_bye kind;
};

/*
 * One round: the games in board order and the players who have a bye.  A
 * player in neither list is absent (withdrawn, or missing with no bye): an
 * unplayed round worth 0.
 */
struct tourney_round {
	int ngames;
	struct tourney_game games[TOURNEY_GAMES_MAX];
	int nbyes;
	struct tourney_bye_entry byes[TOURNEY_PLAYERS_MAX];
};

struct tourney_player {
	char name[TOURNEY_NAME_MAX];
	int rating;			/* 0 = unrated */
	char sex;			/* 'm', 'w' or ' ' */
	char title[TOURNEY_TITLE_MAX];
	char federation[TOURNEY_FED_MAX];
	char fide_id[TOURNEY_FIDE_ID_MAX];
	char birth[TOURNEY_BIRTH_MAX];
	/* First round the player no longer plays in; 0 while still in the event. */
	int withdrawn_round;
	/* Byes asked for in advance: TOURNEY_BYE_HALF, _ZERO or _FULL; NONE to play. */
	enum tourney_bye requested[TOURNEY_ROUNDS_MAX + 1];
};

struct tourney {
	char name[TOURNEY_NAME_MAX];
	enum tourney_system system;
	int nplayers;
	int nrounds;			/* rounds planned */
	int rounds_paired;		/* rounds[1..rounds_paired] hold pairings */
	int pairing_bye_half;		/* value of a 'U' bye: 2 (default) or 1 */
	/* Colour of the higher-ranked player on the top board of round 1 (XXC). */
	enum tourney_colour initial_colour;
	struct tourney_player players[TOURNEY_PLAYERS_MAX + 1];
	struct tourney_round rounds[TOURNEY_ROUNDS_MAX + 1];
};

/*
 * What one player did in one round, seen from that player.  played is true
 * only for a game over the board; a forfeit has an opponent but is not played.
 */
struct tourney_slot {
	int opponent;			/* 0 if none */
	enum tourney_colour colour;	/* NONE unless there was a game (played or forfeit) */
	enum tourney_bye bye;		/* NONE unless the player had a bye */
	enum tourney_result result;	/* the game's result as recorded, if any */
	int points_half;		/* 0 for a game not yet played */
	bool played;			/* a game over the board with a result */
	bool forfeit_win;		/* won without playing: +, U (full) or F */
	bool absent;			/* no game and no bye at all */
};

/* Float of a player in one round (Dutch A.4). */
enum tourney_float {
	TOURNEY_FLOAT_NONE,
	TOURNEY_FLOAT_DOWN,	/* met a lower score, or a bye/forfeit win */
	TOURNEY_FLOAT_UP,	/* met a higher score */
};

/* Empties t and sets defaults: Swiss, 1-point pairing bye, white on board 1 in round 1. */
void tourney_init(struct tourney *t, const char *name, int nrounds);
/* Adds a player with the next start number; returns it, or -1 when full. */
int tourney_player_add(struct tourney *t, const char *name, int rating);
/* Appends a game to round r; -1 when the round is full or the numbers are bad. */
int tourney_game_add(struct tourney *t, int r, int white, int black, enum tourney_result res);
/* Appends a bye to round r; -1 when the number is bad. */
int tourney_bye_add(struct tourney *t, int r, int player, enum tourney_bye kind);
/*
 * Checks that every start number and round index is in range and that each
 * player appears at most once per round.  On error writes the first fault.
 */
int tourney_validate(const struct tourney *t, char *err, size_t errlen);

/* Points of white and black, in half points, for a result (0 for NONE). */
void tourney_result_points(enum tourney_result res, int *white_half, int *black_half);
/* Points of a bye in half points (a 'U' bye is worth t->pairing_bye_half). */
int tourney_bye_points(const struct tourney *t, enum tourney_bye kind);
/* Whether the game has a result that was decided over the board. */
bool tourney_result_played(enum tourney_result res);

/* Fills slot with what player p did in round r (a round scan: O(players)). */
void tourney_slot_get(const struct tourney *t, int r, int p, struct tourney_slot *slot);
/*
 * Fills slots[1..nplayers] for round r in one pass; slots must have room for
 * nplayers + 1 entries.  Use this when looking up many players.
 */
void tourney_round_slots(const struct tourney *t, int r, struct tourney_slot *slots);

/* Score in half points of player p after rounds 1..r (byes and forfeits included). */
int tourney_score_half(const struct tourney *t, int p, int r);
/* Colour p had in round r: WHITE, BLACK, or NONE (no game, or a forfeit). */
enum tourney_colour tourney_colour_in(const struct tourney *t, int p, int r);
/*
 * Fills colours[0..n-1] with p's colours in games played over the board in
 * rounds 1..r, oldest first; returns n.  colours needs room for r entries.
 */
int tourney_colour_history(const struct tourney *t, int p, int r, enum tourney_colour *colours);
/* Whether a and b played each other over the board in rounds 1..r. */
bool tourney_have_met(const struct tourney *t, int a, int b, int r);
/* p's float in round r, from the scores before that round. */
enum tourney_float tourney_float_in(const struct tourney *t, int p, int r);
/* Whether p takes part in the pairing of round r: not withdrawn, no bye requested. */
bool tourney_player_available(const struct tourney *t, int p, int r);

#endif
