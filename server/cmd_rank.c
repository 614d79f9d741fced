/*
 * The rating lists: best, hbest, rank, hrank, in lasker's layout.
 *
 * lasker ranks a player with 20 games in a category; a Glicko-2 rating
 * says how well it is known by its RD instead, so a player is ranked here
 * once the rating is no longer provisional (RD below GLICKO2_PROVISIONAL_RD,
 * the rating finger shows without its P).  lasker's third column, wild, is
 * lightning here; names get their full 17 letters where lasker cut them at 12.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkcmd.h"
#include "cmd.h"
#include "config.h"
#include "db.h"
#include "glicko2.h"
#include "number.h"
#include "rating.h"
#include "server.h"
#include "session.h"

/* lasker's list of the best, and the lines above a player that rank shows. */
#define BEST_LINES 20
#define RANK_LINES_ABOVE 10
#define COLUMNS 3
/* "%4d. %-17s %4s  ": one column of a line. */
#define COLUMN_WIDTH 30

/* The columns in lasker's order (blitz, standard, then wild: lightning here). */
static const struct {
	enum clock_category category;
	char letter;
	const char *title;
} columns[COLUMNS] = {
	{ CLOCK_CATEGORY_BLITZ, 'b', "Blitz" },
	{ CLOCK_CATEGORY_STANDARD, 's', "Standard" },
	{ CLOCK_CATEGORY_LIGHTNING, 'l', "Lightning" },
};

struct rank_line {
	int place;		/* 1 the best; 0 a tie with the line above; -1 not ranked */
	char name[DB_NAME_MAX];
	char rating[8];
};

struct rank_column {
	struct rank_line *lines;
	int count, max;
	int first_place;	/* the place of the first line read */
};

/* Which columns "bsl" asks for (a bit each); -1 for any other letter. */
static int shown_from(const char *letters)
{
	int shown = 0;

	for (const char *p = letters; *p; p++) {
		int i = 0;
		while (i < COLUMNS && columns[i].letter != *p)
			i++;
		if (i == COLUMNS)
			return -1;
		shown |= 1 << i;
	}
	return shown;
}

static void add_ranked(void *arg, const struct db_ranked *r)
{
	struct rank_column *col = arg;
	struct glicko2_rating g = { r->rating, r->rd, 0 };

	if (col->count >= col->max)
		return;
	struct rank_line *l = &col->lines[col->count];
	l->place = col->first_place + col->count;
	snprintf(l->name, sizeof l->name, "%s", r->name);
	snprintf(l->rating, sizeof l->rating, "%d", glicko2_display(&g));
	col->count++;
}

/* Reads count ranked players from place first (1 the best) into col. */
static int column_read(struct session *s, struct rank_column *col, int c, bool humans,
    int first, int count)
{
	col->first_place = first;
	col->count = 0;
	col->max = count;
	return db_rating_ranked(server_db(session_server(s)), clock_category_name(columns[c].category),
	    GLICKO2_PROVISIONAL_RD, humans, first - 1, count, add_ranked, col);
}

/* A tie with the line above shows no place, as in lasker. */
static void column_mark_ties(struct rank_column *col)
{
	for (int i = 1; i < col->count; i++)
		if (col->lines[i].place > 0 && col->lines[i - 1].place != -1 &&
		    !strcmp(col->lines[i].rating, col->lines[i - 1].rating))
			col->lines[i].place = 0;
}

static void print_head(struct session *s, int shown)
{
	char line[COLUMNS * COLUMN_WIDTH + 1];
	size_t n = 0;

	for (int c = 0; c < COLUMNS; c++) {
		if (!(shown & (1 << c)))
			continue;
		int len = (int)strlen(columns[c].title), left = (COLUMN_WIDTH - len) / 2;
		n += (size_t)snprintf(line + n, sizeof line - n, "%*s%-*s", left, "",
		    COLUMN_WIDTH - left, columns[c].title);
	}
	while (n && line[n - 1] == ' ')
		n--;
	line[n] = '\0';
	session_printf(s, "%s\n\n", line);
}

/* The columns side by side, as long as the longest. */
static void print_columns(struct session *s, int shown, struct rank_column *cols)
{
	int rows = 0;

	for (int c = 0; c < COLUMNS; c++)
		if ((shown & (1 << c)) && cols[c].count > rows)
			rows = cols[c].count;
	print_head(s, shown);
	for (int i = 0; i < rows; i++) {
		for (int c = 0; c < COLUMNS; c++) {
			if (!(shown & (1 << c)))
				continue;
			const struct rank_line *l = i < cols[c].count ? &cols[c].lines[i] : NULL;
			if (!l)
				session_printf(s, "%*s", COLUMN_WIDTH, "");
			else if (l->place > 0)
				session_printf(s, "%4d. %-17s %4s  ", l->place, l->name, l->rating);
			else
				session_printf(s, "%s  %-17s %4s  ", l->place ? "----" : "    ", l->name,
				    l->rating);
		}
		session_printf(s, "\n");
	}
}

/* Places first to first + count - 1 of each column shown. */
static void show_places(struct session *s, int shown, bool humans, int first, int count)
{
	struct rank_line *lines = calloc((size_t)COLUMNS * (size_t)count, sizeof *lines);
	struct rank_column cols[COLUMNS] = { 0 };
	int any = 0;

	if (!lines) {
		session_printf(s, "Server out of memory; no ratings shown.\n");
		return;
	}
	for (int c = 0; c < COLUMNS; c++) {
		cols[c].lines = lines + (size_t)c * (size_t)count;
		if (!(shown & (1 << c)))
			continue;
		if (column_read(s, &cols[c], c, humans, first, count) < 0) {
			any = -1;
			break;
		}
		column_mark_ties(&cols[c]);
		any |= cols[c].count > 0 ? 1 << c : 0;
	}
	if (any < 0)
		session_printf(s, "Server error; no ratings shown.\n");
	else if (!any)
		session_printf(s, "No ratings to show.\n");
	else
		print_columns(s, any, cols);
	free(lines);
}

/*
 * One column around a player: the RANK_LINES_ABOVE above and the rest of
 * BEST_LINES below; a player not ranked is put among them by rating, with
 * ---- for a place.  0 when the player has no rating there, -1 on error.
 */
static int column_around(struct session *s, struct rank_column *col, int c, bool humans,
    const struct db_user *who)
{
	struct db *db = server_db(session_server(s));
	struct rating r;

	if (rating_load(db, who->id, columns[c].category, &r) < 0)
		return -1;
	if (!rating_games(&r))
		return 0;
	int ahead = db_rating_ahead(db, clock_category_name(columns[c].category),
	    GLICKO2_PROVISIONAL_RD, humans, r.value.rating, who->id);
	if (ahead < 0)
		return -1;
	bool ranked = !glicko2_provisional(&r.value) && (!humans || !who->computer);
	int first = ahead > RANK_LINES_ABOVE ? ahead - RANK_LINES_ABOVE + 1 : 1;
	if (column_read(s, col, c, humans, first, BEST_LINES - !ranked) < 0)
		return -1;
	if (!ranked) {
		int at = ahead - (first - 1);
		if (at > col->count)
			at = col->count;
		memmove(&col->lines[at + 1], &col->lines[at],
		    (size_t)(col->count - at) * sizeof col->lines[0]);
		col->lines[at] = (struct rank_line){ .place = -1 };
		snprintf(col->lines[at].name, sizeof col->lines[at].name, "%s", who->name);
		rating_text(&r, who->id, col->lines[at].rating, sizeof col->lines[at].rating);
		col->count++;
		/* The lines below the player keep their places. */
		for (int i = at + 1; i < col->count; i++)
			col->lines[i].place = first + i - 1;
	}
	column_mark_ties(col);
	return 1;
}

static void show_around(struct session *s, int shown, bool humans, const struct db_user *who)
{
	struct rank_line lines[COLUMNS][BEST_LINES];
	struct rank_column cols[COLUMNS] = { 0 };
	int any = 0;

	for (int c = 0; c < COLUMNS; c++) {
		cols[c].lines = lines[c];
		if (!(shown & (1 << c)))
			continue;
		int rc = column_around(s, &cols[c], c, humans, who);
		if (rc < 0) {
			session_printf(s, "Server error; no ratings shown.\n");
			return;
		}
		any |= rc ? 1 << c : 0;
	}
	if (!any) {
		session_printf(s, "No ratings to show.\n");
		return;
	}
	print_columns(s, any, cols);
}

static void best(struct session *s, const struct cmd_args *a, bool humans, const char *usage)
{
	int shown = a->argc ? shown_from(a->argv[0]) : (1 << COLUMNS) - 1;

	if (shown <= 0) {
		session_printf(s, "Usage: %s\n", usage);
		return;
	}
	show_places(s, shown, humans, 1, BEST_LINES);
}

/* "M-N" into first and count; false when it is not two places in order. */
static bool parse_places(const char *text, int max_lines, int *first, int *count)
{
	const char *dash = strchr(text, '-');
	char left[16];
	long m, n;

	if (!dash || dash == text || (size_t)(dash - text) >= sizeof left)
		return false;
	memcpy(left, text, (size_t)(dash - text));
	left[dash - text] = '\0';
	if (number_parse(left, 0, INT_MAX, &m) != NUMBER_OK ||
	    number_parse(dash + 1, 0, INT_MAX, &n) != NUMBER_OK || n < m || n < 1)
		return false;
	if (m < 1)
		m = 1;
	*first = (int)m;
	*count = n - m + 1 > max_lines ? max_lines : (int)(n - m + 1);
	return true;
}

static void rank(struct session *s, const struct cmd_args *a, bool humans, const char *usage)
{
	int shown = a->argc > 1 ? shown_from(a->argv[1]) : (1 << COLUMNS) - 1;
	const char *target = a->argc ? a->argv[0] : session_name(s);
	struct db_user who;

	if (shown <= 0) {
		session_printf(s, "Usage: %s\n", usage);
		return;
	}
	if (target[0] >= '0' && target[0] <= '9') {
		int first, count;
		if (!parse_places(target, server_config(session_server(s))->limits.rank_lines,
		    &first, &count)) {
			session_printf(s, "Usage: %s\n", usage);
			return;
		}
		show_places(s, shown, humans, first, count);
		return;
	}
	int found = db_user_find(server_db(session_server(s)), target, &who);
	if (found < 0) {
		session_printf(s, "Server error; no ratings shown.\n");
		return;
	}
	/* A guest has no ratings: lasker finds none for one asking of themself. */
	if (!found && !a->argc) {
		session_printf(s, "No ratings to show.\n");
		return;
	}
	if (!found) {
		session_printf(s, "Target %s not found.\n", target);
		return;
	}
	show_around(s, shown, humans, &who);
}

#define BEST_USAGE "best [b][s][l]"
#define HBEST_USAGE "hbest [b][s][l]"
#define RANK_USAGE "rank [name [b][s][l]] | rank M-N [b][s][l]"
#define HRANK_USAGE "hrank [name [b][s][l]] | hrank M-N [b][s][l]"

static void cmd_best(struct session *s, const struct cmd_args *a)
{
	best(s, a, false, BEST_USAGE);
}

static void cmd_hbest(struct session *s, const struct cmd_args *a)
{
	best(s, a, true, HBEST_USAGE);
}

static void cmd_rank(struct session *s, const struct cmd_args *a)
{
	rank(s, a, false, RANK_USAGE);
}

static void cmd_hrank(struct session *s, const struct cmd_args *a)
{
	rank(s, a, true, HRANK_USAGE);
}

const struct cmd_entry cmd_best_entry = {
	.name = "best",
	.args = "o",
	.code = BLKCMD_BEST,
	.exec = cmd_best,
	.usage = BEST_USAGE,
	.summary = "The 20 best-rated players in blitz, standard, lightning",
};
const struct cmd_entry cmd_hbest_entry = {
	.name = "hbest",
	.args = "o",
	.code = BLKCMD_HBEST,
	.exec = cmd_hbest,
	.usage = HBEST_USAGE,
	.summary = "The 20 best-rated human players",
};
const struct cmd_entry cmd_rank_entry = {
	.name = "rank",
	.args = "oo",
	.code = BLKCMD_RANK,
	.exec = cmd_rank,
	.usage = RANK_USAGE,
	.summary = "Where a player ranks, or the players ranked M to N",
};
const struct cmd_entry cmd_hrank_entry = {
	.name = "hrank",
	.args = "oo",
	.code = BLKCMD_HRANK,
	.exec = cmd_hrank,
	.usage = HRANK_USAGE,
	.summary = "The same as rank, among human players only",
};
