#include "movelist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

void movelist_init(struct movelist *ml)
{
	memset(ml, 0, sizeof *ml);
	ml->state = MOVELIST_HEADER;
}

static const char *skip_spaces(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static void header_line(struct movelist *ml, const char *line)
{
	int game, n = 0;

	if (sscanf(line, "Movelist for game " NUMBER_SCAN_INT ":%n", &game, &n) == 1 && n && !line[n]) {
		ml->game = game;
		return;
	}
	if (!ml->game)
		return;				/* text before the list: not ours */
	if (!ml->white[0] && strstr(line, " vs. ")) {
		char w[STYLE12_NAME_MAX], b[STYLE12_NAME_MAX];
		if (sscanf(line, "%31s (%*[^)]) vs. %31s (", w, b) == 2) {
			memcpy(ml->white, w, sizeof w);
			memcpy(ml->black, b, sizeof b);
		}
		return;
	}
	if (!strncmp(line, "----  ", 6))
		ml->state = ml->white[0] ? MOVELIST_MOVES : MOVELIST_BAD;
}

static int add_move(struct movelist *ml, const char *san, size_t len)
{
	if (ml->count == MOVELIST_PLIES_MAX) {
		ml->too_long = true;
		return -1;
	}
	if (len == 0 || len >= MOVE_TEXT_MAX ||
	    memchr(san, '(', len) || memchr(san, '{', len))
		return -1;
	memcpy(ml->san[ml->count], san, len);
	ml->san[ml->count][len] = '\0';
	ml->count++;
	return 0;
}

/* "  3.  Bb5     (0:02.000)      a6      (0:01.500)", or "  5.  ...  Nf6 (0:01.000)". */
static int move_line(struct movelist *ml, const char *line)
{
	char *end;
	long number = strtol(line, &end, 10);

	if (end == line || *end != '.' || number < 1)
		return -1;
	if (number > MOVELIST_PLIES_MAX) {
		ml->too_long = true;
		return -1;
	}
	int white_ply = (int)(number - 1) * 2;
	const char *p = skip_spaces(end + 1);
	bool first = ml->count == 0;
	int ply = white_ply;

	if (first) {
		ml->first_ply = white_ply;
	} else if (ml->first_ply + ml->count != white_ply) {
		return -1;			/* a gap, or a line that is not the next */
	}
	while (*p) {
		size_t len = strcspn(p, " \t");
		if (*p == '(') {
			/* the time the move took */
		} else if (len == 3 && !strncmp(p, "...", 3)) {
			if (!first || ply != white_ply || ml->count)
				return -1;
			ml->first_ply = white_ply + 1;
			ply++;
		} else {
			if (ply > white_ply + 1 || add_move(ml, p, len) < 0)
				return -1;
			ply++;
		}
		p = skip_spaces(p + len);
	}
	return ply > white_ply ? 0 : -1;
}

void movelist_feed(struct movelist *ml, const char *line)
{
	const char *p;

	switch (ml->state) {
	case MOVELIST_HEADER:
		header_line(ml, line);
		return;
	case MOVELIST_MOVES:
		p = skip_spaces(line);
		if (!*p)
			return;
		if (*p == '{') {
			const char *close = strrchr(p, '}');
			if (!close || close[1] != ' ' || strlen(close + 2) >= sizeof ml->result) {
				ml->state = MOVELIST_BAD;
				return;
			}
			snprintf(ml->result, sizeof ml->result, "%s", close + 2);
			ml->state = MOVELIST_DONE;
			return;
		}
		if (move_line(ml, p) < 0)
			ml->state = MOVELIST_BAD;
		return;
	case MOVELIST_DONE:
	case MOVELIST_BAD:
		return;
	}
}

bool movelist_complete(const struct movelist *ml)
{
	return ml->state == MOVELIST_DONE;
}
