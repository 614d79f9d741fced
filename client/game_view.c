#include "game_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "number.h"

struct game_view {
	enum san_lang lang;
	bool have;
	struct style12 s12;
	struct board board;
	long long received_ms;
	char (*moves)[MOVE_TEXT_MAX];
	int move_count, move_cap;
	int first_ply;
	int last_from, last_to;
	char result[GAME_VIEW_RESULT_MAX];
};

struct game_view *game_view_new(enum san_lang lang)
{
	struct game_view *gv = calloc(1, sizeof *gv);

	if (!gv)
		return NULL;
	gv->lang = lang;
	gv->last_from = gv->last_to = SQ_NONE;
	board_start(&gv->board);
	return gv;
}

void game_view_free(struct game_view *gv)
{
	if (!gv)
		return;
	free(gv->moves);
	free(gv);
}

static int square_parse(const char *t)
{
	if (t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8')
		return SQ_NONE;
	return square_make(t[0] - 'a', t[1] - '1');
}

/* Last move squares from the verbose field: P/e2-e4, o-o, o-o-o. */
static void last_move_from_verbose(struct game_view *gv, const struct style12 *s)
{
	int back = s->side == WHITE ? 7 : 0;	/* the mover's back rank */
	const char *slash = strchr(s->verbose, '/');

	gv->last_from = gv->last_to = SQ_NONE;
	if (!strcmp(s->verbose, "o-o") || !strcmp(s->verbose, "o-o-o")) {
		gv->last_from = square_make(4, back);
		gv->last_to = square_make(s->verbose[3] ? 2 : 6, back);
	} else if (slash && strlen(slash) >= 6 && slash[3] == '-') {
		gv->last_from = square_parse(slash + 1);
		gv->last_to = square_parse(slash + 4);
	}
}

static int append_move(struct game_view *gv, const char *san)
{
	if (gv->move_count == GAME_VIEW_MOVES_MAX) {
		/* The list stays the moves up to the position: it now starts a ply later. */
		memmove(gv->moves, gv->moves + 1, (size_t)(gv->move_count - 1) * sizeof *gv->moves);
		gv->move_count--;
		gv->first_ply++;
	}
	if (gv->move_count == gv->move_cap) {
		int cap = gv->move_cap ? gv->move_cap * 2 : 64;
		if (cap > GAME_VIEW_MOVES_MAX)
			cap = GAME_VIEW_MOVES_MAX;
		void *grown = realloc(gv->moves, (size_t)cap * sizeof *gv->moves);
		if (!grown)
			return -1;
		gv->moves = grown;
		gv->move_cap = cap;
	}
	snprintf(gv->moves[gv->move_count++], MOVE_TEXT_MAX, "%s", san);
	return 0;
}

void game_view_update(struct game_view *gv, const struct style12 *s, long long now_ms)
{
	struct board next;
	int ply = style12_ply(s);
	bool same_game = gv->have && gv->s12.game == s->game && !strcmp(gv->s12.white, s->white) &&
	    !strcmp(gv->s12.black, s->black);

	style12_board(s, &next);
	if (same_game && ply == style12_ply(&gv->s12) + 1 && strcmp(s->san, "none")) {
		move m;
		char san[MOVE_TEXT_MAX];
		if (san_parse(&gv->board, s->san, SAN_ENGLISH, NO_TYPE, &m) == SAN_OK) {
			san_format(&gv->board, m, gv->lang, san);
			append_move(gv, san);
		} else {
			append_move(gv, s->san);
		}
	} else if (same_game && ply < style12_ply(&gv->s12) && ply >= gv->first_ply &&
	    gv->move_count - (style12_ply(&gv->s12) - ply) >= 0) {
		gv->move_count -= style12_ply(&gv->s12) - ply;	/* a takeback */
	} else if (!same_game || ply != style12_ply(&gv->s12)) {
		gv->move_count = 0;
		gv->first_ply = ply;
		gv->result[0] = '\0';
	}
	if (!same_game)
		gv->result[0] = '\0';
	gv->s12 = *s;
	gv->board = next;
	gv->received_ms = now_ms;
	gv->have = true;
	last_move_from_verbose(gv, s);
}

void game_view_begin(struct game_view *gv)
{
	gv->result[0] = '\0';
}

void game_view_stop_clocks(struct game_view *gv, long long now_ms)
{
	if (!gv->have || !gv->s12.ticking)
		return;
	gv->s12.clock_ms[gv->s12.side] = game_view_clock_ms(gv, gv->s12.side, now_ms);
	gv->s12.ticking = false;
	gv->received_ms = now_ms;
}

/*
 * Replays the listed moves from the standard start to write them in the
 * view's language; false when they do not replay (a game set up from a
 * position), and then they are kept as the server wrote them.
 */
static bool replay_history(const struct game_view *gv, int first_ply,
    const char (*san)[MOVE_TEXT_MAX], int count, char (*out)[MOVE_TEXT_MAX])
{
	struct board b;

	if (first_ply != 0)
		return false;
	board_start(&b);
	for (int i = 0; i < count; i++) {
		move m;
		if (san_parse(&b, san[i], SAN_ENGLISH, NO_TYPE, &m) != SAN_OK)
			return false;
		san_format(&b, m, gv->lang, out[i]);
		board_make(&b, m);
	}
	/* When the list reaches the position on screen, it must be that position. */
	if (count == style12_ply(&gv->s12) && memcmp(b.squares, gv->board.squares, sizeof b.squares))
		return false;
	return true;
}

int game_view_set_history(struct game_view *gv, int game, const char *white, const char *black,
    int first_ply, const char (*san)[MOVE_TEXT_MAX], int count)
{
	int reach = first_ply + count;		/* the ply after the listed moves */
	int known_from = gv->first_ply, known_to = gv->first_ply + gv->move_count;

	if (!gv->have || gv->s12.game != game || strcmp(gv->s12.white, white) ||
	    strcmp(gv->s12.black, black) || count < 0 || first_ply < 0 ||
	    reach < known_from || reach > known_to || first_ply > known_from)
		return -1;
	int keep = known_to - reach;		/* moves known after the list */
	int total = count + keep;
	if (total > GAME_VIEW_MOVES_MAX)
		return -1;
	char (*moves)[MOVE_TEXT_MAX] = malloc((size_t)(total ? total : 1) * sizeof *moves);
	if (!moves)
		return -1;
	if (!replay_history(gv, first_ply, san, count, moves))
		for (int i = 0; i < count; i++)
			snprintf(moves[i], MOVE_TEXT_MAX, "%s", san[i]);
	for (int i = 0; i < keep; i++)
		memcpy(moves[count + i], gv->moves[reach - known_from + i], MOVE_TEXT_MAX);
	free(gv->moves);
	gv->moves = moves;
	gv->move_count = gv->move_cap = total;
	gv->first_ply = first_ply;
	return 0;
}

void game_view_end(struct game_view *gv, const char *reason, const char *result)
{
	snprintf(gv->result, sizeof gv->result, "%s (%s)", result, reason);
}

int game_view_parse_end(const char *line, int *game, char *reason, size_t reason_len,
    char *result, size_t result_len)
{
	int n = 0;
	const char *close, *names_end;

	if (sscanf(line, "{Game " NUMBER_SCAN_INT " (%n", game, &n) != 1 || !n)
		return -1;
	if (!(names_end = strstr(line + n, ") ")) || !(close = strrchr(line, '}')) ||
	    close < names_end || close[1] != ' ')
		return -1;
	const char *res = close + 2;
	if (strcmp(res, "1-0") && strcmp(res, "0-1") && strcmp(res, "1/2-1/2") && strcmp(res, "*"))
		return -1;
	if (strstr(line, "Creating") || strstr(line, "Continuing"))
		return -1;
	snprintf(reason, reason_len, "%.*s", (int)(close - names_end - 2), names_end + 2);
	snprintf(result, result_len, "%s", res);
	return 0;
}

bool game_view_has_position(const struct game_view *gv)
{
	return gv->have;
}

bool game_view_over(const struct game_view *gv)
{
	return gv->result[0] != '\0';
}

int game_view_number(const struct game_view *gv)
{
	return gv->have ? gv->s12.game : 0;
}

const struct style12 *game_view_style12(const struct game_view *gv)
{
	return &gv->s12;
}

const struct board *game_view_board(const struct game_view *gv)
{
	return &gv->board;
}

int game_view_move_count(const struct game_view *gv)
{
	return gv->move_count;
}

int game_view_first_ply(const struct game_view *gv)
{
	return gv->first_ply;
}

const char *game_view_move(const struct game_view *gv, int index)
{
	return index >= 0 && index < gv->move_count ? gv->moves[index] : "";
}

bool game_view_last_move(const struct game_view *gv, int *from, int *to)
{
	*from = gv->last_from;
	*to = gv->last_to;
	return gv->last_from != SQ_NONE && gv->last_to != SQ_NONE;
}

long long game_view_clock_ms(const struct game_view *gv, enum color c, long long now_ms)
{
	long long ms = gv->s12.clock_ms[c];

	if (gv->have && gv->s12.ticking && !game_view_over(gv) && gv->s12.side == c &&
	    now_ms > gv->received_ms)
		ms -= now_ms - gv->received_ms;
	return ms < 0 ? 0 : ms;
}

const char *game_view_result(const struct game_view *gv)
{
	return gv->result;
}

void game_view_lost(const struct game_view *gv, enum color c, int count[TYPE_NB])
{
	static const int initial[TYPE_NB] = { 0, 8, 2, 2, 2, 1, 1 };
	int on_board[TYPE_NB] = { 0 };

	for (int sq = 0; sq < 64; sq++) {
		int p = gv->board.squares[sq];
		if (p != NO_PIECE && piece_color(p) == c)
			on_board[piece_type_of(p)]++;
	}
	/* A promoted piece stands for the pawn that became it. */
	int promoted = 0;
	for (int t = KNIGHT; t <= QUEEN; t++)
		if (on_board[t] > initial[t])
			promoted += on_board[t] - initial[t];
	for (int t = 0; t < TYPE_NB; t++) {
		int lost = initial[t] - on_board[t] - (t == PAWN ? promoted : 0);
		count[t] = lost > 0 ? lost : 0;
	}
}
