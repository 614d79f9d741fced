/*
 * Chess clocks: time controls, their text forms, and the per-side arithmetic
 * in milliseconds.  Nothing here reads a clock; callers pass elapsed times.
 *
 * Text syntax accepted by clock_parse() (whitespace around the operators is
 * ignored; letters are lower case except the word "untimed"):
 *
 *   untimed | -          no clock
 *   MIN INC              FICS form, two words: "5 0", "2 12" (Fischer increment);
 *                        "0 0" is untimed
 *   PERIODS[BONUS]       "5", "3+2", "5d3", "40/90,30+30", "40/120,20/60,30"
 *
 *   PERIODS = PERIOD{,PERIOD}   at most CLOCK_PERIODS_MAX
 *   PERIOD  = [MOVES/]MIN       MIN minutes for MOVES moves; with no MOVES/ the
 *                               period covers the rest of the game and must come
 *                               last.  When the last period has a move count it
 *                               repeats: "40/120" adds 120 minutes every 40 moves.
 *   BONUS   = +SEC              Fischer increment after every move
 *           | dSEC              Bronstein delay (FIDE 6.3.2)
 *           | sSEC              simple (US) delay
 *                               The bonus is written once, after the last period,
 *                               and applies from move 1 in every period.
 *
 * MIN is whole minutes or a decimal that comes to whole seconds ("0.5" = 30 s,
 * "0.25", "1.5"); MOVES and SEC are whole numbers.  A single period of 0
 * minutes with no bonus ("0", "0+0", "0 0") is untimed.  0 minutes with a
 * bonus ("0+1", "0 2") is FICS's "0 INC" game: each side starts with
 * CLOCK_ZERO_BASE_START_MS.  No other period may have 0 minutes.
 *
 * Elapsed times are ms since the side's turn began; a negative one (clock
 * skew) counts as 0.
 */
#ifndef CHESS_CLOCK_H
#define CHESS_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLOCK_PERIODS_MAX	4
#define CLOCK_MOVES_MAX		200			/* moves in one period */
#define CLOCK_BASE_MAX_MS	(24 * 60 * 60 * 1000)	/* time added by one period */
#define CLOCK_BONUS_MAX_MS	(10 * 60 * 1000)	/* increment or delay per move */
#define CLOCK_INPUT_MAX		80			/* longest text clock_parse reads */
#define CLOCK_TEXT_MAX		64			/* longest formatted text plus NUL */

/* Starting time of a "0 INC" game, as on FICS. */
#define CLOCK_ZERO_BASE_START_MS	(10 * 1000)
/* clock_side_deadline_ms() of an untimed game. */
#define CLOCK_NO_DEADLINE	(-1)

/* FICS categories: t = minutes + 2/3 x increment seconds, lightning below 3, blitz below 15. */
#define CLOCK_LIGHTNING_BELOW_MIN	3
#define CLOCK_BLITZ_BELOW_MIN		15

/* Lag compensation (lichess LagTracker); see clock_lag_credit(). */
#define CLOCK_LAG_GAIN_MAX_MS	1000	/* quota gained per move, at most */
#define CLOCK_LAG_GAIN_BASE_MS	150	/* fixed part of the gain */
#define CLOCK_LAG_QUOTA_START	3	/* quota starts at this many gains */
#define CLOCK_LAG_QUOTA_CAP	7	/* and never exceeds this many */
#define CLOCK_LAG_GRACE_MAX_MS	2000	/* flag grace is min(quota, this) */
#define CLOCK_LAG_ESTIMATE_MOVES 40	/* moves of increment in the game estimate */
/* Compensation never brings a move's charge below this (ICC's 0.1 s). */
#define CLOCK_MIN_CHARGE_MS	100

/*
 * The two delays charge the same: a move of t ms costs max(0, t - delay) of
 * main time and the flag falls once t > remaining + delay.  They differ only
 * in how a physical clock shows it, and are kept apart for the text form.
 */
enum clock_bonus {
	CLOCK_BONUS_NONE,
	CLOCK_BONUS_FISCHER,	/* bonus_ms added after each move */
	CLOCK_BONUS_BRONSTEIN,	/* min(elapsed, bonus_ms) given back after each move */
	CLOCK_BONUS_SIMPLE,	/* main time runs only after bonus_ms */
};

enum clock_category {
	CLOCK_CATEGORY_LIGHTNING,
	CLOCK_CATEGORY_BLITZ,
	CLOCK_CATEGORY_STANDARD,
	CLOCK_CATEGORY_UNTIMED,
	CLOCK_CATEGORY_NB
};

struct clock_period {
	int moves;		/* moves in the period; 0 = the rest of the game */
	int64_t base_ms;	/* time added when the period starts */
};

/* A time control.  All zeros is a valid untimed control. */
struct clock_control {
	int period_count;	/* 0 = untimed, else 1..CLOCK_PERIODS_MAX */
	struct clock_period periods[CLOCK_PERIODS_MAX];
	enum clock_bonus bonus;	/* CLOCK_BONUS_NONE whenever bonus_ms is 0 */
	int64_t bonus_ms;
};

/* One player's clock between turns.  Plain data: copy it, store it. */
struct clock_side {
	int64_t remaining_ms;	/* main time at the start of the next turn */
	int moves;		/* moves completed */
	int period;		/* index of the current period */
	int period_moves;	/* moves completed in the current period */
};

/* One player's lag allowance for one game (zeroed: no quota yet). */
struct clock_lag {
	int64_t quota_ms;	/* compensation still available */
};

static inline bool clock_untimed(const struct clock_control *tc)
{
	return tc->period_count == 0;
}

/*
 * Parses a time control in the syntax above.  On error returns -1, leaves tc
 * untimed and writes one line naming the fault into err.
 */
int clock_parse(struct clock_control *tc, const char *text, char *err, size_t errlen);
/*
 * Writes the canonical text: "untimed", or the periods followed by the bonus
 * ("+0" when there is none), e.g. "5+0", "5d3", "40/90,30+30".  Parsing it
 * gives tc back for every control clock_parse accepts.  Truncates to len.
 */
void clock_format(const struct clock_control *tc, char *buf, size_t len);
/*
 * Writes the PGN TimeControl tag value, in seconds: "-" when untimed, "300",
 * "180+2", "40/5400+30:1800+30" (the increment, which runs from move 1, on
 * every period).  PGN has no delay notation, so a delay is left out ("5d3"
 * gives "300"); keep clock_format()'s text in another tag if it matters.
 */
void clock_format_pgn(const struct clock_control *tc, char *buf, size_t len);

/*
 * The FICS category from the first period and the bonus (a delay counts as
 * an increment): t = minutes + 2/3 x seconds, lightning if t < 3, blitz if
 * t < 15, standard otherwise.
 */
enum clock_category clock_category(const struct clock_control *tc);
/* "lightning", "blitz", "standard" or "untimed". */
const char *clock_category_name(enum clock_category c);
/* The letter FICS shows in games lists: 'l', 'b', 's' or 'u' ('?' if out of range). */
char clock_category_letter(enum clock_category c);

/* Sets a side's clock for the start of the game. */
void clock_side_init(const struct clock_control *tc, struct clock_side *s);
/*
 * Main time left elapsed_ms into the side's turn.  With a delay, main time
 * runs only once the delay has passed.  Negative once the flag has fallen;
 * 0 for an untimed game.
 */
int64_t clock_side_left_ms(const struct clock_control *tc, const struct clock_side *s,
    int64_t elapsed_ms);
/*
 * True when the flag has fallen elapsed_ms into the turn: elapsed exceeds
 * remaining (+ delay).  Exactly nothing left is not yet a fall.  Never for
 * an untimed game.
 */
bool clock_side_flagged(const struct clock_control *tc, const struct clock_side *s,
    int64_t elapsed_ms);
/*
 * The first elapsed time, in ms from the turn start, at which the flag has
 * fallen (for arming a timer); CLOCK_NO_DEADLINE when untimed.
 */
int64_t clock_side_deadline_ms(const struct clock_control *tc, const struct clock_side *s);
/*
 * Charges a completed move that took elapsed_ms, applies the bonus, counts
 * the move and, when it completes a period, adds the next period's time to
 * what is left (the last period repeats if it has a move count).  Call it
 * only when the side has not flagged.
 */
void clock_side_move(const struct clock_control *tc, struct clock_side *s, int64_t elapsed_ms);
/* Moves left before the next time is added; 0 in a sudden-death period or untimed. */
int clock_side_moves_to_go(const struct clock_control *tc, const struct clock_side *s);

/*
 * Quota gained per move, as lichess: min(100, E x 2/5 + 15) centiseconds
 * (integer division), where E = limit + 40 x bonus in whole seconds, limit
 * is the first period's time and a delay counts as an increment.
 */
int64_t clock_lag_gain_ms(const struct clock_control *tc);
/* Starts a player's allowance at CLOCK_LAG_QUOTA_START gains. */
void clock_lag_init(struct clock_lag *lag, const struct clock_control *tc);
/*
 * Returns the ms to charge for a move the server timed at server_elapsed_ms
 * and the client (timeseal) at client_elapsed_ms: the server time less
 * compensation, where compensation is the lag (server - client) bounded by
 * the quota, and never brings the charge below CLOCK_MIN_CHARGE_MS (or the
 * server time, if less).  A negative client time means no report and earns
 * no compensation; a client time above the server's earns none either.
 * The quota then gains clock_lag_gain_ms(), less what was used, up to
 * CLOCK_LAG_QUOTA_CAP gains.  The result lies in [0, server_elapsed_ms].
 */
int64_t clock_lag_credit(struct clock_lag *lag, const struct clock_control *tc,
    int64_t server_elapsed_ms, int64_t client_elapsed_ms);
/* How long after the deadline the server waits before calling the flag: min(quota, 2 s). */
int64_t clock_lag_grace_ms(const struct clock_lag *lag);

#endif
