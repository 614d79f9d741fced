#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "trf.h"

#define COL_ROUNDS	92	/* first column of round 1 */
#define ROUND_WIDTH	10

/* Output that counts what it could not store, like snprintf. */
struct out {
	char *buf;
	size_t len, used;
};

static void out_text(struct out *o, const char *s, size_t n)
{
	if (o->used < o->len) {
		size_t room = o->len - o->used;
		memcpy(o->buf + o->used, s, n < room ? n : room);
	}
	o->used += n;
}

static void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_printf(struct out *o, const char *fmt, ...)
{
	char line[TRF_LINE_MAX + 64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n > 0)
		out_text(o, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* Copies s into line at 1-based column col, at most width chars, left or right aligned. */
static void put_field(char *line, int col, int width, const char *s, bool right)
{
	size_t n = strlen(s);

	if (n > (size_t)width)
		n = (size_t)width;
	memcpy(line + col - 1 + (right ? width - (int)n : 0), s, n);
}

static char bye_letter(enum tourney_bye kind)
{
	switch (kind) {
	case TOURNEY_BYE_PAIRING:
		return 'U';
	case TOURNEY_BYE_HALF:
		return 'H';
	case TOURNEY_BYE_FULL:
		return 'F';
	case TOURNEY_BYE_ZERO:
	case TOURNEY_BYE_NONE:
		break;
	}
	return 'Z';
}

/* The result letter of a game from one player's side. */
static char game_letter(enum tourney_result res, bool white)
{
	switch (res) {
	case TOURNEY_RESULT_NONE:
		return ' ';
	case TOURNEY_RESULT_WHITE_WINS:
		return white ? '1' : '0';
	case TOURNEY_RESULT_BLACK_WINS:
		return white ? '0' : '1';
	case TOURNEY_RESULT_DRAW:
		return '=';
	case TOURNEY_RESULT_WHITE_FORFEIT:
		return white ? '+' : '-';
	case TOURNEY_RESULT_BLACK_FORFEIT:
		return white ? '-' : '+';
	case TOURNEY_RESULT_DOUBLE_FORFEIT:
		return '-';
	}
	return ' ';
}

static void put_round(char *line, int r, int opponent, char colour, char result)
{
	char num[16];
	int col = COL_ROUNDS + (r - 1) * ROUND_WIDTH;

	snprintf(num, sizeof num, "%04d", opponent);
	if (opponent > 0)
		snprintf(num, sizeof num, "%4d", opponent);
	put_field(line, col, 4, num, true);
	line[col + 4] = colour;
	line[col + 6] = result;
}

size_t trf_export(const struct tourney *t, const enum tiebreak *order, int norder, char *buf,
    size_t len)
{
	struct tiebreak_row *rows = NULL;
	struct out o = { buf, len, 0 };
	struct tourney_slot slots[TOURNEY_PLAYERS_MAX + 1];
	int score[TOURNEY_PLAYERS_MAX + 1], rank[TOURNEY_PLAYERS_MAX + 1];
	static const size_t line_cap = TRF_LINE_MAX;
	char (*lines)[TRF_LINE_MAX] = NULL;
	int n = t->nplayers < 0 ? 0 : t->nplayers > TOURNEY_PLAYERS_MAX ?
	    TOURNEY_PLAYERS_MAX : t->nplayers;

	out_printf(&o, "012 %s\n", t->name);
	out_printf(&o, "XXR %d\n", t->nrounds);
	out_printf(&o, "XXC %s\n", t->initial_colour == TOURNEY_BLACK ? "black1" : "white1");
	if (t->pairing_bye_half == TOURNEY_DRAW_HALF)
		out_printf(&o, "BBU  0.5\n");
	lines = malloc((size_t)(n + 1) * line_cap);
	if (!lines)
		goto done;
	for (int p = 1; p <= n; p++) {
		memset(lines[p], ' ', line_cap);
		score[p] = 0;
	}
	for (int r = 1; r <= t->rounds_paired; r++) {
		tourney_round_slots(t, r, slots);
		for (int p = 1; p <= n; p++) {
			const struct tourney_slot *s = &slots[p];
			score[p] += s->points_half;
			if (s->opponent > 0)
				put_round(lines[p], r, s->opponent,
				    s->colour == TOURNEY_WHITE ? 'w' : 'b',
				    game_letter(s->result, s->colour == TOURNEY_WHITE));
			else if (s->bye != TOURNEY_BYE_NONE)
				put_round(lines[p], r, 0, '-', bye_letter(s->bye));
			else
				put_round(lines[p], r, 0, '-', '-');
		}
	}
	/* Byes asked for rounds to come, as the pairing will grant them: not to the withdrawn. */
	for (int p = 1; p <= n; p++) {
		const struct tourney_player *pl = &t->players[p];
		for (int r = t->rounds_paired + 1; r <= TOURNEY_ROUNDS_MAX; r++)
			if (pl->requested[r] != TOURNEY_BYE_NONE &&
			    !(pl->withdrawn_round > 0 && r >= pl->withdrawn_round))
				put_round(lines[p], r, 0, '-', bye_letter(pl->requested[r]));
	}
	/* Rank: the standings everyone is shown, tie-breaks included. */
	if (!(rows = calloc((size_t)(t->nplayers > n ? t->nplayers : n) + 1, sizeof *rows)))
		goto done;
	char err[128];
	if (tiebreak_standings(t, t->rounds_paired, order, norder, rows, err, sizeof err) < 0)
		tiebreak_standings(t, t->rounds_paired, NULL, 0, rows, err, sizeof err);
	for (int i = 0; i < n; i++)
		rank[rows[i].player] = rows[i].rank;
	for (int p = 1; p <= n; p++) {
		const struct tourney_player *pl = &t->players[p];
		char *line = lines[p], num[16];
		size_t end;
		memcpy(line, "001", 3);
		snprintf(num, sizeof num, "%d", p);
		put_field(line, 5, 4, num, true);
		line[9] = pl->sex ? pl->sex : ' ';
		put_field(line, 11, 3, pl->title, true);
		put_field(line, 15, 33, pl->name, false);
		if (pl->rating > 0) {
			snprintf(num, sizeof num, "%d", pl->rating);
			put_field(line, 49, 4, num, true);
		}
		put_field(line, 54, 3, pl->federation, false);
		put_field(line, 58, 11, pl->fide_id, true);
		put_field(line, 70, 10, pl->birth, false);
		snprintf(num, sizeof num, "%d.%d", score[p] / 2, score[p] % 2 ? 5 : 0);
		put_field(line, 81, 4, num, true);
		snprintf(num, sizeof num, "%d", rank[p]);
		put_field(line, 86, 4, num, true);
		end = line_cap - 1;
		while (end > 0 && line[end - 1] == ' ')
			end--;
		out_text(&o, line, end);
		out_text(&o, "\n", 1);
	}
done:
	free(rows);
	free(lines);
	if (len > 0)
		buf[o.used < len ? o.used : len - 1] = '\0';
	return o.used;
}

/* Import. */

struct entry {
	int opponent;
	char colour, result;
	bool present;
};

struct reader {
	struct tourney *t;
	struct entry (*entries)[TOURNEY_ROUNDS_MAX + 1];	/* [player][round] */
	int last_round;
};

/* Copies columns col..col+width-1 (1-based) of line, trimmed, into out. */
static void get_field(const char *line, size_t len, int col, int width, char *out, size_t outlen)
{
	size_t start = (size_t)col - 1, end = start + (size_t)width, n;

	if (outlen == 0)
		return;
	out[0] = '\0';
	if (start >= len)
		return;
	if (end > len)
		end = len;
	while (start < end && line[start] == ' ')
		start++;
	while (end > start && line[end - 1] == ' ')
		end--;
	n = end - start < outlen - 1 ? end - start : outlen - 1;
	memcpy(out, line + start, n);
	out[n] = '\0';
}

static int parse_int(const char *s, int *out)
{
	char *end;
	long v;

	if (*s == '\0') {
		*out = 0;
		return 0;
	}
	v = strtol(s, &end, 10);
	if (*end != '\0' || v < 0 || v > 99999999)
		return -1;
	*out = (int)v;
	return 0;
}

static int read_player(struct reader *rd, const char *line, size_t len, int lineno,
    char *err, size_t errlen)
{
	struct tourney *t = rd->t;
	struct tourney_player *pl;
	char field[64];
	int num, rating;

	get_field(line, len, 5, 4, field, sizeof field);
	if (parse_int(field, &num) < 0 || num < 1 || num > TOURNEY_PLAYERS_MAX)
		return error_set(err, errlen, "line %d: bad start number '%s'", lineno, field);
	pl = &t->players[num];
	if (pl->name[0] || num <= 0)
		return error_set(err, errlen, "line %d: player %d twice", lineno, num);
	get_field(line, len, 15, 33, pl->name, sizeof pl->name);
	if (pl->name[0] == '\0')
		snprintf(pl->name, sizeof pl->name, "?");
	pl->sex = len >= 10 && line[9] != ' ' ? line[9] : ' ';
	get_field(line, len, 11, 3, pl->title, sizeof pl->title);
	get_field(line, len, 49, 4, field, sizeof field);
	if (parse_int(field, &rating) < 0)
		return error_set(err, errlen, "line %d: bad rating '%s'", lineno, field);
	pl->rating = rating;
	get_field(line, len, 54, 3, pl->federation, sizeof pl->federation);
	get_field(line, len, 58, 11, pl->fide_id, sizeof pl->fide_id);
	get_field(line, len, 70, 10, pl->birth, sizeof pl->birth);
	if (num > t->nplayers)
		t->nplayers = num;
	for (int r = 1; ; r++) {
		size_t col = (size_t)COL_ROUNDS - 1 + (size_t)(r - 1) * ROUND_WIDTH;
		struct entry *e;
		int opp;
		if (col >= len)
			break;
		if (r > TOURNEY_ROUNDS_MAX)
			return error_set(err, errlen, "line %d: more than %d rounds", lineno,
			    TOURNEY_ROUNDS_MAX);
		e = &rd->entries[num][r];
		get_field(line, len, (int)col + 1, 4, field, sizeof field);
		char colour = col + 5 < len ? line[col + 5] : ' ';
		char result = col + 7 < len ? line[col + 7] : ' ';
		if (field[0] == '\0' && colour == ' ' && result == ' ')
			continue;
		if (parse_int(field, &opp) < 0 || opp > TOURNEY_PLAYERS_MAX || opp == num)
			return error_set(err, errlen, "line %d round %d: bad opponent '%s'", lineno, r, field);
		if (!strchr("wb- ", colour))
			return error_set(err, errlen, "line %d round %d: bad colour '%c'", lineno, r, colour);
		result = (char)toupper((unsigned char)result);
		if (!strchr("10=+-WDLHFUZ ", result))
			return error_set(err, errlen, "line %d round %d: bad result '%c'", lineno, r, result);
		if (opp == 0 && !strchr("-WDLHFUZ", result))
			return error_set(err, errlen, "line %d round %d: result '%c' without opponent",
			    lineno, r, result);
		if (opp > 0 && strchr("HFUZ", result))
			return error_set(err, errlen, "line %d round %d: bye '%c' with an opponent",
			    lineno, r, result);
		*e = (struct entry){ opp, colour, result, true };
		if (r > rd->last_round)
			rd->last_round = r;
	}
	return 0;
}

static enum tourney_bye bye_kind(char result)
{
	switch (result) {
	case 'U':
		return TOURNEY_BYE_PAIRING;
	case 'H':
	case 'D':
		return TOURNEY_BYE_HALF;
	case 'F':
	case 'W':
		return TOURNEY_BYE_FULL;
	case 'Z':
	case 'L':
		return TOURNEY_BYE_ZERO;
	}
	return TOURNEY_BYE_NONE;
}

/* The game's result from the white player's letter and black's. */
static enum tourney_result game_result(char w, char b)
{
	switch (w) {
	case '1':
		return TOURNEY_RESULT_WHITE_WINS;
	case '0':
		return TOURNEY_RESULT_BLACK_WINS;
	case '=':
	case 'D':
		return TOURNEY_RESULT_DRAW;
	case '+':
	case 'W':
		return TOURNEY_RESULT_WHITE_FORFEIT;
	case '-':
	case 'L':
		return b == '-' || b == 'L' ? TOURNEY_RESULT_DOUBLE_FORFEIT :
		    TOURNEY_RESULT_BLACK_FORFEIT;
	}
	return TOURNEY_RESULT_NONE;
}

/* Builds the rounds from the per-player entries, checking both sides agree. */
static int build_rounds(struct reader *rd, char *err, size_t errlen)
{
	struct tourney *t = rd->t;
	int paired = 0;

	for (int r = 1; r <= rd->last_round; r++)
		for (int p = 1; p <= t->nplayers; p++) {
			const struct entry *e = &rd->entries[p][r];
			if (e->present && (e->opponent > 0 || !strchr("HFZ", e->result)))
				paired = r;
		}
	for (int r = 1; r <= rd->last_round; r++) {
		for (int p = 1; p <= t->nplayers; p++) {
			const struct entry *e = &rd->entries[p][r];
			if (!e->present)
				continue;
			if (r > paired) {
				t->players[p].requested[r] = bye_kind(e->result);
				continue;
			}
			if (e->opponent == 0) {
				if (e->result != '-' && tourney_bye_add(t, r, p, bye_kind(e->result)) < 0)
					return error_set(err, errlen, "round %d: cannot add bye of %d", r, p);
				continue;
			}
			int q = e->opponent;
			const struct entry *f = &rd->entries[q][r];
			if (q > t->nplayers || !f->present || f->opponent != p)
				return error_set(err, errlen, "round %d: %d meets %d, who does not meet %d",
				    r, p, q, p);
			bool p_white = e->colour == 'w' || (e->colour != 'b' && f->colour != 'w' && p < q);
			if ((e->colour == 'w' && f->colour == 'w') || (e->colour == 'b' && f->colour == 'b'))
				return error_set(err, errlen, "round %d: %d and %d have the same colour", r, p, q);
			if (!p_white)
				continue;	/* added from white's line */
			if (tourney_game_add(t, r, p, q, game_result(e->result, f->result)) < 0)
				return error_set(err, errlen, "round %d: cannot add game %d-%d", r, p, q);
		}
	}
	t->rounds_paired = paired;
	return 0;
}

int trf_import(struct tourney *t, const char *text, size_t len, char *err, size_t errlen)
{
	struct reader rd = { t, NULL, 0 };
	size_t pos = 0;
	int lineno = 0, rc = -1, nrounds = 0;

	tourney_init(t, "", 0);
	rd.entries = calloc(TOURNEY_PLAYERS_MAX + 1, sizeof *rd.entries);
	if (!rd.entries)
		return error_set(err, errlen, "out of memory");
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		char field[64];
		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n > 0 && line[n - 1] == '\r')
			n--;
		if (n > TRF_LINE_MAX) {
			error_set(err, errlen, "line %d: too long", lineno);
			goto out;
		}
		if (n < 3)
			continue;
		if (memcmp(line, "012", 3) == 0) {
			get_field(line, n, 5, (int)n, t->name, sizeof t->name);
		} else if (memcmp(line, "XXR", 3) == 0) {
			get_field(line, n, 4, (int)n, field, sizeof field);
			if (parse_int(field, &nrounds) < 0 || nrounds > TOURNEY_ROUNDS_MAX) {
				error_set(err, errlen, "line %d: bad round count", lineno);
				goto out;
			}
		} else if (memcmp(line, "XXC", 3) == 0) {
			get_field(line, n, 4, (int)n, field, sizeof field);
			if (strncmp(field, "black1", 6) == 0)
				t->initial_colour = TOURNEY_BLACK;
			else if (strncmp(field, "white1", 6) == 0)
				t->initial_colour = TOURNEY_WHITE;
		} else if (memcmp(line, "BBU", 3) == 0) {
			get_field(line, n, 4, (int)n, field, sizeof field);
			if (strcmp(field, "0.5") == 0)
				t->pairing_bye_half = TOURNEY_DRAW_HALF;
		} else if (memcmp(line, "001", 3) == 0) {
			if (read_player(&rd, line, n, lineno, err, errlen) < 0)
				goto out;
		}
	}
	for (int p = 1; p <= t->nplayers; p++) {
		if (t->players[p].name[0] == '\0') {
			error_set(err, errlen, "no line for player %d", p);
			goto out;
		}
	}
	if (build_rounds(&rd, err, errlen) < 0)
		goto out;
	t->nrounds = nrounds > rd.last_round ? nrounds : rd.last_round;
	if (t->nrounds > TOURNEY_ROUNDS_MAX)
		t->nrounds = TOURNEY_ROUNDS_MAX;
	rc = tourney_validate(t, err, errlen);
out:
	free(rd.entries);
	return rc;
}
