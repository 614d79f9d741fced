#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "position.h"
#include "unwinnable.h"

/* One entry per position reached, the start included. */
struct position_entry {
	uint64_t key;
	move played;		/* the move that led here (MOVE_NONE at the start) */
	uint16_t repetitions;	/* occurrences so far, this one included */
};

struct position {
	struct board board;
	struct board start;
	char start_fen[FEN_MAX];
	struct position_entry *history;
	int count, cap;		/* entries; count - 1 plies played */
	enum termination termination;
};

/*
 * Repetitions of the newest entry: positions are identical (9.2.3) when their
 * keys match, and only positions since the last irreversible move can match.
 */
static int count_repetitions(const struct position *pos)
{
	const struct position_entry *h = pos->history;
	int last = pos->count - 1;
	int window = pos->board.halfmove_clock;

	for (int i = last - 2; i >= 0 && last - i <= window; i -= 2)
		if (h[i].key == h[last].key)
			return h[i].repetitions + 1;
	return 1;
}

/* Checkmate first: it stands even on the move that completes 75 moves (9.6.2). */
static enum termination judge(const struct position *pos)
{
	const struct board *b = &pos->board;

	if (movegen_count(b) == 0)
		return board_in_check(b) ? TERM_CHECKMATE : TERM_STALEMATE;
	if (board_is_dead(b))
		return TERM_DEAD_POSITION;
	if (pos->history[pos->count - 1].repetitions >= 5)
		return TERM_FIVEFOLD;
	if (b->halfmove_clock >= 150)
		return TERM_SEVENTY_FIVE_MOVES;
	return TERM_NONE;
}

static int push_entry(struct position *pos, move m)
{
	if (pos->count == pos->cap) {
		/* Room for a long game up front keeps reallocation off the move path. */
		int cap = pos->cap ? pos->cap * 2 : 256;
		struct position_entry *h = realloc(pos->history, (size_t)cap * sizeof *h);
		if (!h)
			return -1;
		pos->history = h;
		pos->cap = cap;
	}
	pos->history[pos->count++] = (struct position_entry){ .key = pos->board.key, .played = m };
	pos->history[pos->count - 1].repetitions = (uint16_t)count_repetitions(pos);
	return 0;
}

struct position *position_new(const char *fen, char *err, size_t errlen)
{
	struct position *pos = calloc(1, sizeof *pos);

	if (!pos) {
		if (err && errlen)
			strncpy(err, "out of memory", errlen - 1);
		return NULL;
	}
	if (fen_parse(&pos->board, fen ? fen : FEN_START, err, errlen) < 0 ||
	    push_entry(pos, MOVE_NONE) < 0) {
		position_free(pos);
		return NULL;
	}
	pos->start = pos->board;
	fen_format(&pos->board, pos->start_fen);
	pos->termination = judge(pos);
	return pos;
}

void position_free(struct position *pos)
{
	if (!pos)
		return;
	free(pos->history);
	free(pos);
}

struct position *position_copy(const struct position *pos)
{
	struct position *copy = malloc(sizeof *copy);

	if (!copy)
		return NULL;
	*copy = *pos;
	copy->history = malloc((size_t)pos->cap * sizeof *pos->history);
	if (!copy->history) {
		free(copy);
		return NULL;
	}
	memcpy(copy->history, pos->history, (size_t)pos->count * sizeof *pos->history);
	return copy;
}

const struct board *position_board(const struct position *pos) { return &pos->board; }
const char *position_start_fen(const struct position *pos) { return pos->start_fen; }
int position_ply_count(const struct position *pos) { return pos->count - 1; }

move position_move_at(const struct position *pos, int ply)
{
	return ply >= 0 && ply < pos->count - 1 ? pos->history[ply + 1].played : MOVE_NONE;
}

static void play(struct position *pos, move m)
{
	board_make(&pos->board, m);
	if (push_entry(pos, m) < 0)
		abort();	/* out of memory mid-game: nothing sane to continue with */
	pos->termination = judge(pos);
}

/* Plays m, writing its SAN; the suffix comes from judge(), which looked already. */
static void play_with_san(struct position *pos, const move *legal, int nlegal, move m,
    enum san_lang lang, char *san)
{
	char *end = san + san_format_plain(&pos->board, legal, nlegal, m, lang, san);

	play(pos, m);
	if (pos->termination == TERM_CHECKMATE)
		*end++ = '#';
	else if (board_in_check(&pos->board))
		*end++ = '+';
	*end = '\0';
}

void position_play(struct position *pos, move m, enum san_lang lang, char *san)
{
	move legal[MAX_MOVES];

	if (!san) {
		play(pos, m);
		return;
	}
	play_with_san(pos, legal, movegen_legal(&pos->board, legal), m, lang, san);
}

void position_play_listed(struct position *pos, move m, const move *legal, int nlegal,
    enum san_lang lang, char *san)
{
	if (san)
		play_with_san(pos, legal, nlegal, m, lang, san);
	else
		play(pos, m);
}

enum san_status position_play_text(struct position *pos, const char *text,
    enum san_lang lang, enum piece_type promote, move *played, char *san)
{
	move legal[MAX_MOVES], m;
	int nlegal;
	enum san_status st = san_parse_moves(&pos->board, text, lang, promote, &m, legal, &nlegal);

	if (played)
		*played = m;
	if (st != SAN_OK)
		return st;
	if (san)
		play_with_san(pos, legal, nlegal, m, lang, san);
	else
		play(pos, m);
	return st;
}

int position_undo(struct position *pos, int n)
{
	if (n < 0 || n > pos->count - 1)
		return -1;
	int keep = pos->count - n;
	pos->board = pos->start;
	pos->count = 1;
	for (int i = 1; i < keep; i++) {
		board_make(&pos->board, pos->history[i].played);
		pos->count++;
	}
	pos->termination = judge(pos);
	return 0;
}

enum termination position_termination(const struct position *pos)
{
	return pos->termination;
}

enum result position_result(const struct position *pos)
{
	switch (pos->termination) {
	case TERM_NONE:
		return RESULT_NONE;
	case TERM_CHECKMATE:
		return pos->board.side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
	default:
		return RESULT_DRAW;
	}
}

unsigned position_claimable(const struct position *pos)
{
	unsigned claims = 0;

	if (pos->termination != TERM_NONE)
		return 0;
	if (pos->history[pos->count - 1].repetitions >= 3)
		claims |= CLAIM_THREEFOLD;
	if (pos->board.halfmove_clock >= 100)
		claims |= CLAIM_FIFTY_MOVES;
	return claims;
}

unsigned position_claimable_after(const struct position *pos, move m)
{
	struct position trial = *pos;
	unsigned claims;

	if (pos->termination != TERM_NONE)
		return 0;
	/* Borrow the history array: one slot past the end is all the trial writes. */
	trial.history = malloc((size_t)(pos->count + 1) * sizeof *pos->history);
	if (!trial.history)
		return 0;
	memcpy(trial.history, pos->history, (size_t)pos->count * sizeof *pos->history);
	trial.cap = pos->count + 1;
	play(&trial, m);
	/* A move that mates wins instead (5.1.1); otherwise the claim holds. */
	if (trial.termination == TERM_CHECKMATE)
		claims = 0;
	else
		claims = (trial.history[trial.count - 1].repetitions >= 3 ? CLAIM_THREEFOLD : 0) |
		    (trial.board.halfmove_clock >= 100 ? CLAIM_FIFTY_MOVES : 0);
	free(trial.history);
	return claims;
}

int position_repetitions(const struct position *pos)
{
	return pos->history[pos->count - 1].repetitions;
}

enum result position_flag_result(const struct position *pos, enum color flagged)
{
	return position_flag_result_within(pos, flagged, UNWINNABLE_FLAG_NODES);
}

enum result position_flag_result_within(const struct position *pos, enum color flagged,
    long budget_nodes)
{
	/* Only a proof of "no helpmate" draws: an undetermined search is a loss. */
	if (unwinnable_decide(&pos->board, color_other(flagged), budget_nodes, NULL) ==
	    UNWINNABLE_UNWINNABLE)
		return RESULT_DRAW;
	return flagged == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
}

const char *termination_name(enum termination t)
{
	static const char *const names[] = {
		[TERM_NONE] = "none",
		[TERM_CHECKMATE] = "checkmate",
		[TERM_STALEMATE] = "stalemate",
		[TERM_DEAD_POSITION] = "dead-position",
		[TERM_FIVEFOLD] = "fivefold-repetition",
		[TERM_SEVENTY_FIVE_MOVES] = "seventy-five-move-rule",
	};
	return names[t];
}

const char *result_text(enum result r)
{
	static const char *const texts[] = {
		[RESULT_NONE] = "*",
		[RESULT_WHITE_WINS] = "1-0",
		[RESULT_BLACK_WINS] = "0-1",
		[RESULT_DRAW] = "1/2-1/2",
	};
	return texts[r];
}
