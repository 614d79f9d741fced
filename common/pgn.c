#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "pgn.h"

/*
 * Limits on what import accepts, so hostile text costs bounded memory.  The
 * PGN standard recommends 255 characters as the longest token (8.1).
 */
#define PGN_TAGS_MAX		64	/* tags besides the Seven Tag Roster, SetUp and FEN */
#define PGN_TAG_NAME_MAX	255	/* bytes in a tag name */
#define PGN_TAG_VALUE_MAX	255	/* bytes in a tag value, after unescaping */
#define PGN_VARIATION_DEPTH_MAX	64	/* ( ... ) nesting */
#define PGN_PLIES_MAX		20000	/* longer than any game the 75-move rule allows */
#define PGN_TOKEN_MAX		31	/* longest move text we try to read */
#define PGN_LINE_MAX		79	/* export line width */

enum { ROSTER_EVENT, ROSTER_SITE, ROSTER_DATE, ROSTER_ROUND, ROSTER_WHITE,
	ROSTER_BLACK, ROSTER_RESULT, ROSTER_NB };

static const char *const roster_names[ROSTER_NB] = {
	"Event", "Site", "Date", "Round", "White", "Black", "Result",
};

struct pgn_tag {
	char *name;
	char *value;
};

/* What export needs per ply beyond the move: its SAN and the mover's clock. */
struct pgn_ply {
	int64_t clock_ms;
	char san[MOVE_TEXT_MAX];
};

struct pgn_game {
	struct position *pos;
	enum color start_side;
	int start_fullmove;
	struct pgn_ply *plies;	/* one per ply of pos */
	int ply_cap;
	char *roster[ROSTER_NB];	/* NULL: the default; Result is never stored */
	struct pgn_tag *tags;	/* tags beyond the roster, in insertion order */
	int ntags;
	enum result result;
};

/* strdup, which strict C11 lacks. */
static char *string_copy(const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = malloc(n);

	if (copy)
		memcpy(copy, s, n);
	return copy;
}

static bool is_letter(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static bool tag_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > PGN_TAG_NAME_MAX || !is_letter((unsigned char)name[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!is_letter((unsigned char)name[i]) && !is_digit((unsigned char)name[i]) &&
		    name[i] != '_')
			return false;
	return true;
}

/* Values stay on one line: no control characters, which export could not write. */
static bool tag_value_valid(const char *value)
{
	size_t n = strlen(value);

	if (n > PGN_TAG_VALUE_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f)
			return false;
	return true;
}

static int roster_index(const char *name)
{
	for (int i = 0; i < ROSTER_NB; i++)
		if (!strcmp(roster_names[i], name))
			return i;
	return -1;
}

static bool is_setup_tag(const char *name)
{
	return !strcmp(name, "SetUp") || !strcmp(name, "FEN");
}

static int result_parse(const char *text, size_t n, enum result *out)
{
	for (int r = RESULT_NONE; r <= RESULT_DRAW; r++) {
		const char *t = result_text((enum result)r);
		if (strlen(t) == n && !memcmp(t, text, n)) {
			*out = (enum result)r;
			return 0;
		}
	}
	return -1;
}

/* Sets any tag, SetUp and FEN included: the checks on names are the caller's. */
static int tag_store(struct pgn_game *g, const char *name, const char *value)
{
	int r = roster_index(name);
	char *copy;

	if (r == ROSTER_RESULT)
		return result_parse(value, strlen(value), &g->result);
	if (!(copy = string_copy(value)))
		return -1;
	if (r >= 0) {
		free(g->roster[r]);
		g->roster[r] = copy;
		return 0;
	}
	for (int i = 0; i < g->ntags; i++) {
		if (!strcmp(g->tags[i].name, name)) {
			free(g->tags[i].value);
			g->tags[i].value = copy;
			return 0;
		}
	}
	int others = 0;
	for (int i = 0; i < g->ntags; i++)
		others += !is_setup_tag(g->tags[i].name);
	char *name_copy = string_copy(name);
	struct pgn_tag *tags;
	if (!name_copy || (!is_setup_tag(name) && others >= PGN_TAGS_MAX) ||
	    !(tags = realloc(g->tags, (size_t)(g->ntags + 1) * sizeof *tags))) {
		free(name_copy);
		free(copy);
		return -1;
	}
	g->tags = tags;
	g->tags[g->ntags++] = (struct pgn_tag){ .name = name_copy, .value = copy };
	return 0;
}

struct pgn_game *pgn_game_new(const char *fen, char *err, size_t errlen)
{
	struct pgn_game *g = calloc(1, sizeof *g);

	if (!g) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!(g->pos = position_new(fen, err, errlen))) {
		free(g);
		return NULL;
	}
	const struct board *b = position_board(g->pos);
	g->start_side = (enum color)b->side;
	g->start_fullmove = b->fullmove_number;
	const char *start = position_start_fen(g->pos);
	if (strcmp(start, FEN_START) &&
	    (tag_store(g, "SetUp", "1") < 0 || tag_store(g, "FEN", start) < 0)) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		pgn_game_free(g);
		return NULL;
	}
	return g;
}

void pgn_game_free(struct pgn_game *g)
{
	if (!g)
		return;
	position_free(g->pos);
	free(g->plies);
	for (int i = 0; i < ROSTER_NB; i++)
		free(g->roster[i]);
	for (int i = 0; i < g->ntags; i++) {
		free(g->tags[i].name);
		free(g->tags[i].value);
	}
	free(g->tags);
	free(g);
}

/*
 * Result sets the result; SetUp and FEN follow the start position and cannot
 * be set apart from it.
 */
int pgn_game_set_tag(struct pgn_game *g, const char *name, const char *value)
{
	if (!name || !value || !tag_name_valid(name) || !tag_value_valid(value) ||
	    is_setup_tag(name))
		return -1;
	return tag_store(g, name, value);
}

const char *pgn_game_tag(const struct pgn_game *g, const char *name)
{
	int r = roster_index(name);

	if (r == ROSTER_RESULT)
		return result_text(g->result);
	if (r >= 0)
		return g->roster[r] ? g->roster[r] : r == ROSTER_DATE ? "????.??.??" : "?";
	for (int i = 0; i < g->ntags; i++)
		if (!strcmp(g->tags[i].name, name))
			return g->tags[i].value;
	return NULL;
}

const struct position *pgn_game_position(const struct pgn_game *g)
{
	return g->pos;
}

/* Plays m with its clock; -1 (nothing played) when the ply array cannot grow. */
static int game_play(struct pgn_game *g, move m, int64_t clock_ms)
{
	int ply = position_ply_count(g->pos);

	if (ply == g->ply_cap) {
		int cap = g->ply_cap ? g->ply_cap * 2 : 128;
		struct pgn_ply *plies = realloc(g->plies, (size_t)cap * sizeof *plies);
		if (!plies)
			return -1;
		g->plies = plies;
		g->ply_cap = cap;
	}
	g->plies[ply].clock_ms = clock_ms < 0 ? PGN_NO_CLOCK : clock_ms;
	position_play(g->pos, m, SAN_ENGLISH, g->plies[ply].san);
	return 0;
}

/* Any negative clock_ms counts as unknown. */
void pgn_game_play(struct pgn_game *g, move m, int64_t clock_ms)
{
	if (game_play(g, m, clock_ms) < 0)
		abort();	/* out of memory mid-game, as position_play does */
}

void pgn_game_set_result(struct pgn_game *g, enum result r, const char *termination)
{
	g->result = r;
	if (termination)
		pgn_game_set_tag(g, "Termination", termination);
}

enum result pgn_game_result(const struct pgn_game *g)
{
	return g->result;
}

/* A growing string; after a failed allocation every append is a no-op. */
struct strbuf {
	char *s;
	size_t n, cap;
	bool failed;
};

static void strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->failed)
		return;
	if (sb->n + n + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 1024;
		while (sb->n + n + 1 > cap)
			cap *= 2;
		char *grown = realloc(sb->s, cap);
		if (!grown) {
			sb->failed = true;
			return;
		}
		sb->s = grown;
		sb->cap = cap;
	}
	memcpy(sb->s + sb->n, s, n);
	sb->n += n;
	sb->s[sb->n] = '\0';
}

static void strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

static void export_tag(struct strbuf *sb, const char *name, const char *value)
{
	strbuf_puts(sb, "[");
	strbuf_puts(sb, name);
	strbuf_puts(sb, " \"");
	for (const char *p = value; *p; p++) {
		if (*p == '\\' || *p == '"')
			strbuf_add(sb, "\\", 1);
		strbuf_add(sb, p, 1);
	}
	strbuf_puts(sb, "\"]\n");
}

/* Adds one unbreakable unit of movetext, starting a new line if it would not fit. */
static void export_unit(struct strbuf *sb, size_t *column, const char *unit)
{
	size_t n = strlen(unit);

	if (*column > 0 && *column + 1 + n > PGN_LINE_MAX) {
		strbuf_add(sb, "\n", 1);
		*column = 0;
	} else if (*column > 0) {
		strbuf_add(sb, " ", 1);
		(*column)++;
	}
	strbuf_add(sb, unit, n);
	*column += n;
}

/*
 * Clock times are truncated to whole seconds, as a clock display shows them:
 * a player is never shown more time than they had.
 */
static void clock_format(int64_t ms, char *buf, size_t len)
{
	int64_t s = ms / 1000;

	snprintf(buf, len, "{[%%clk %" PRId64 ":%02d:%02d]}", s / 3600, (int)(s / 60 % 60),
	    (int)(s % 60));
}

/*
 * A move number goes before White's moves, and before Black's at the start
 * and after a comment (PGN 8.2.2.2).  A move number and its move stay on one
 * line.
 */
char *pgn_export(const struct pgn_game *g)
{
	struct strbuf sb = { 0 };
	size_t column = 0;
	int plies = position_ply_count(g->pos);
	bool after_comment = true;
	char unit[64];

	for (int i = 0; i < ROSTER_NB; i++)
		export_tag(&sb, roster_names[i], pgn_game_tag(g, roster_names[i]));
	for (int i = 0; i < g->ntags; i++)
		export_tag(&sb, g->tags[i].name, g->tags[i].value);
	strbuf_add(&sb, "\n", 1);
	for (int ply = 0; ply < plies; ply++) {
		const struct pgn_ply *p = &g->plies[ply];
		int index = ply + (g->start_side == BLACK);
		int number = g->start_fullmove + index / 2;
		if (index % 2 == 0)
			snprintf(unit, sizeof unit, "%d. %s", number, p->san);
		else if (after_comment)
			snprintf(unit, sizeof unit, "%d... %s", number, p->san);
		else
			snprintf(unit, sizeof unit, "%s", p->san);
		export_unit(&sb, &column, unit);
		after_comment = p->clock_ms >= 0;
		if (after_comment) {
			clock_format(p->clock_ms, unit, sizeof unit);
			export_unit(&sb, &column, unit);
		}
	}
	export_unit(&sb, &column, result_text(g->result));
	strbuf_add(&sb, "\n", 1);
	if (sb.failed) {
		free(sb.s);
		return NULL;
	}
	return sb.s;
}

/*
 * Import.  One pass over the text, no recursion: variations are only counted,
 * since their moves are skipped.  After the first error the rest of the game
 * is still tokenized, in "failed" mode, to find where the next game starts.
 */
struct parser {
	const char *text;
	size_t len, p;
	int line;
	int last_line;		/* line of the last token read */
	bool failed;
	char *err;
	size_t errlen;
	struct pgn_tag staged[ROSTER_NB + 2 + PGN_TAGS_MAX];	/* tags before the game exists */
	int nstaged;
	int fen_line;
	size_t unclosed_from;	/* no '}' at or after this offset */
	struct pgn_game *game;
};

static void parser_fail(struct parser *ps, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Keeps the first error of a game: later ones are usually its echoes. */
static void parser_fail(struct parser *ps, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return;
	ps->failed = true;
	if (!ps->err || !ps->errlen)
		return;
	n = snprintf(ps->err, ps->errlen, "line %d: ", line);
	if (n < 0 || (size_t)n >= ps->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static int parser_peek(const struct parser *ps)
{
	return ps->p < ps->len ? (unsigned char)ps->text[ps->p] : -1;
}

static void parser_advance(struct parser *ps)
{
	if (ps->p >= ps->len)
		return;
	if (ps->text[ps->p] == '\n' && ps->line < INT_MAX)
		ps->line++;
	ps->p++;
}

static bool parser_at_line_start(const struct parser *ps)
{
	return ps->p == 0 || (ps->p <= ps->len && ps->text[ps->p - 1] == '\n');
}

/* Skips to the start of the next line. */
static void parser_skip_line(struct parser *ps)
{
	while (ps->p < ps->len && ps->text[ps->p] != '\n')
		ps->p++;
	parser_advance(ps);
}

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Skips white space; true if it held a blank line. */
static bool parser_skip_space(struct parser *ps)
{
	bool blank = false, line_start = parser_at_line_start(ps);
	int c;

	while (is_space(c = parser_peek(ps))) {
		if (c == '\n') {
			blank |= line_start;
			line_start = true;
		}
		parser_advance(ps);
	}
	return blank;
}

static bool is_symbol_char(int c)
{
	return is_letter(c) || is_digit(c) || c == '_' || c == '+' || c == '#' || c == '=' ||
	    c == ':' || c == '-' || c == '/';
}

/* Reads "h:mm:ss" with an optional fraction at s[*i..n) into milliseconds. */
static int clock_parse(const char *s, size_t n, size_t *i, int64_t *out)
{
	int64_t field[3] = { 0, 0, 0 }, ms = 0;

	for (int f = 0; f < 3; f++) {
		size_t digits = 0;
		if (f > 0) {
			if (*i >= n || s[*i] != ':')
				return -1;
			(*i)++;
		}
		while (*i < n && is_digit((unsigned char)s[*i]) && digits < 9) {
			field[f] = field[f] * 10 + (s[*i] - '0');
			(*i)++;
			digits++;
		}
		if (digits == 0 || (f > 0 && (digits != 2 || field[f] > 59)))
			return -1;
	}
	if (*i < n && s[*i] == '.') {
		int64_t scale = 100;
		(*i)++;
		if (*i >= n || !is_digit((unsigned char)s[*i]))
			return -1;
		for (; *i < n && is_digit((unsigned char)s[*i]); (*i)++, scale /= 10)
			ms += (s[*i] - '0') * scale;
	}
	*out = ((field[0] * 60 + field[1]) * 60 + field[2]) * 1000 + ms;
	return 0;
}

/* The last well-formed [%clk ...] command in a comment's text, or PGN_NO_CLOCK. */
static int64_t comment_clock(const char *s, size_t n)
{
	static const char key[] = "[%clk";
	const size_t keylen = sizeof key - 1;
	int64_t found = PGN_NO_CLOCK, ms;

	for (size_t i = 0; i + keylen <= n; i++) {
		if (memcmp(s + i, key, keylen))
			continue;
		size_t j = i + keylen;
		if (j >= n || !is_space((unsigned char)s[j]))
			continue;
		while (j < n && is_space((unsigned char)s[j]))
			j++;
		if (clock_parse(s, n, &j, &ms) < 0)
			continue;
		while (j < n && is_space((unsigned char)s[j]))
			j++;
		if (j < n && s[j] == ']')
			found = ms;
	}
	return found;
}

/*
 * Skips a {comment}, reading its clock for the last move if wanted.  An
 * unterminated comment would swallow the rest of the text, so the parser
 * resumes on the line after the brace instead; remembering that no brace
 * follows keeps a run of them from costing quadratic time.
 */
static bool parser_comment(struct parser *ps, bool want_clock)
{
	size_t start = ps->p + 1;
	int line = ps->line;
	const char *close = NULL;

	if (start < ps->unclosed_from)
		close = memchr(ps->text + start, '}', ps->len - start);
	if (!close) {
		ps->unclosed_from = start;
		parser_fail(ps, line, "unterminated comment");
		parser_skip_line(ps);
		return false;
	}
	size_t end = (size_t)(close - ps->text);
	if (want_clock && ps->game) {
		int64_t ms = comment_clock(ps->text + start, end - start);
		int ply = position_ply_count(ps->game->pos);
		if (ms != PGN_NO_CLOCK && ply > 0)
			ps->game->plies[ply - 1].clock_ms = ms;
	}
	while (ps->p <= end)
		parser_advance(ps);
	return true;
}

static void staged_free(struct parser *ps)
{
	for (int i = 0; i < ps->nstaged; i++) {
		free(ps->staged[i].name);
		free(ps->staged[i].value);
	}
	ps->nstaged = 0;
}

static const char *staged_value(const struct parser *ps, const char *name)
{
	for (int i = 0; i < ps->nstaged; i++)
		if (!strcmp(ps->staged[i].name, name))
			return ps->staged[i].value;
	return NULL;
}

static void parser_stage(struct parser *ps, const char *name, const char *value, int line)
{
	for (int i = 0; i < ps->nstaged; i++) {
		if (!strcmp(ps->staged[i].name, name)) {
			char *copy = string_copy(value);
			if (!copy) {
				parser_fail(ps, line, "out of memory");
				return;
			}
			free(ps->staged[i].value);
			ps->staged[i].value = copy;
			return;
		}
	}
	int others = 0;
	for (int i = 0; i < ps->nstaged; i++)
		others += roster_index(ps->staged[i].name) < 0 && !is_setup_tag(ps->staged[i].name);
	if (roster_index(name) < 0 && !is_setup_tag(name) && others >= PGN_TAGS_MAX) {
		parser_fail(ps, line, "too many tags");
		return;
	}
	struct pgn_tag *t = &ps->staged[ps->nstaged];
	t->name = string_copy(name);
	t->value = string_copy(value);
	if (!t->name || !t->value) {
		free(t->name);
		free(t->value);
		parser_fail(ps, line, "out of memory");
		return;
	}
	ps->nstaged++;
	if (!strcmp(name, "FEN"))
		ps->fen_line = line;
}

static void skip_blanks_in_line(struct parser *ps)
{
	while (parser_peek(ps) == ' ' || parser_peek(ps) == '\t')
		parser_advance(ps);
}

/* Reads one [Name "value"] pair; the cursor is on the '['. */
static void parser_tag(struct parser *ps)
{
	char name[PGN_TAG_NAME_MAX + 1], value[PGN_TAG_VALUE_MAX + 1];
	size_t n = 0;
	int line = ps->line, c;

	ps->last_line = line;
	parser_advance(ps);
	skip_blanks_in_line(ps);
	while (is_letter(c = parser_peek(ps)) || is_digit(c) || c == '_') {
		if (n == PGN_TAG_NAME_MAX) {
			parser_fail(ps, line, "tag too long");
			goto skip;
		}
		name[n++] = (char)c;
		parser_advance(ps);
	}
	name[n] = '\0';
	skip_blanks_in_line(ps);
	if (n == 0 || !is_letter((unsigned char)name[0]) || parser_peek(ps) != '"')
		goto bad;
	parser_advance(ps);
	n = 0;
	for (;;) {
		c = parser_peek(ps);
		if (c == '"')
			break;
		if (c == '\\' && ps->p + 1 < ps->len &&
		    (ps->text[ps->p + 1] == '\\' || ps->text[ps->p + 1] == '"')) {
			parser_advance(ps);
			c = parser_peek(ps);
		}
		if (c < 0x20 || c == 0x7f)
			goto bad;	/* the end of the line or text, or a control character */
		if (n == PGN_TAG_VALUE_MAX) {
			parser_fail(ps, line, "tag too long");
			goto skip;
		}
		value[n++] = (char)c;
		parser_advance(ps);
	}
	value[n] = '\0';
	parser_advance(ps);
	skip_blanks_in_line(ps);
	if (parser_peek(ps) != ']')
		goto bad;
	parser_advance(ps);
	if (!ps->failed)
		parser_stage(ps, name, value, line);
	return;
bad:
	parser_fail(ps, line, "bad tag");
skip:
	parser_skip_line(ps);
}

/*
 * The tag section, with any comments and escape lines around it.  Returns
 * false when the game ends here: at the end of the text, or, once the game
 * has failed, at a tag after a blank line, which starts the next game.
 */
static bool parser_tags(struct parser *ps, bool *content)
{
	for (;;) {
		bool blank = parser_skip_space(ps);
		int c = parser_peek(ps);
		if (c < 0)
			return false;
		if (c == '%' && parser_at_line_start(ps)) {
			parser_skip_line(ps);
		} else if (c == '{') {
			parser_comment(ps, false);
		} else if (c == ';') {
			parser_skip_line(ps);
		} else if (c == '[') {
			if (ps->failed && blank && parser_at_line_start(ps))
				return false;
			*content = true;
			parser_tag(ps);
		} else {
			*content = true;
			return true;
		}
	}
}

/* Makes the game from the staged tags once the movetext begins. */
static void parser_start_game(struct parser *ps)
{
	const char *fen = staged_value(ps, "FEN");
	char fen_err[128];

	if (ps->failed)
		return;
	if (!(ps->game = pgn_game_new(fen, fen_err, sizeof fen_err))) {
		if (fen)
			parser_fail(ps, ps->fen_line, "bad FEN: %s", fen_err);
		else
			parser_fail(ps, ps->line, "%s", fen_err);
		return;
	}
	for (int i = 0; i < ps->nstaged; i++) {
		const char *name = ps->staged[i].name;
		if (!strcmp(name, "FEN") || !strcmp(name, "SetUp") || !strcmp(name, "Result"))
			continue;
		if (tag_store(ps->game, name, ps->staged[i].value) < 0) {
			parser_fail(ps, ps->line, "out of memory");
			return;
		}
	}
}

static void parser_move(struct parser *ps, const char *text, size_t n, int line)
{
	const struct board *b = position_board(ps->game->pos);
	char buf[PGN_TOKEN_MAX + 1];
	enum san_status st = SAN_ILLEGAL;
	move m;

	if (n <= PGN_TOKEN_MAX) {
		memcpy(buf, text, n);
		buf[n] = '\0';
		st = san_parse(b, buf, SAN_ENGLISH, NO_TYPE, &m);
	}
	if (st != SAN_OK) {
		parser_fail(ps, line, "move %d%s (%.*s%s): %s", b->fullmove_number,
		    b->side == BLACK ? "..." : "", (int)(n > PGN_TOKEN_MAX ? PGN_TOKEN_MAX : n),
		    text, n > PGN_TOKEN_MAX ? "..." : "",
		    st == SAN_AMBIGUOUS ? "ambiguous move" : "illegal move");
		return;
	}
	if (position_ply_count(ps->game->pos) >= PGN_PLIES_MAX)
		parser_fail(ps, line, "game too long");
	else if (game_play(ps->game, m, PGN_NO_CLOCK) < 0)
		parser_fail(ps, line, "out of memory");
}

static void parser_unexpected(struct parser *ps, int c, int line)
{
	if (c > 0x20 && c < 0x7f)
		parser_fail(ps, line, "unexpected character '%c'", c);
	else
		parser_fail(ps, line, "unexpected byte 0x%02x", c);
}

/*
 * The movetext, up to its termination marker.  Returns true with *result set
 * when one ends the game; false at the end of the text or at a tag at the
 * start of a line (the next game), the cursor left there.
 */
static bool parser_movetext(struct parser *ps, enum result *result)
{
	size_t depth = 0;
	int variation_line = 0;

	for (;;) {
		parser_skip_space(ps);
		int c = parser_peek(ps), line = ps->line;
		bool live = depth == 0 && !ps->failed;	/* moves here are played */
		if (c < 0 || (c == '[' && parser_at_line_start(ps)))
			break;
		if (c == '%' && parser_at_line_start(ps)) {
			parser_skip_line(ps);
			continue;
		}
		if (c == '{') {
			if (!parser_comment(ps, live))
				depth = 0;	/* resuming on the next line */
			continue;
		}
		if (c == ';') {
			parser_skip_line(ps);
			continue;
		}
		ps->last_line = line;
		if (c == '(') {
			if (depth++ == 0)
				variation_line = line;
			if (depth > PGN_VARIATION_DEPTH_MAX)
				parser_fail(ps, line, "variations nested too deeply");
			parser_advance(ps);
		} else if (c == ')') {
			if (depth == 0)
				parser_fail(ps, line, "unexpected ')'");
			else
				depth--;
			parser_advance(ps);
		} else if (c == '$') {
			parser_advance(ps);
			if (!is_digit(parser_peek(ps)) && live)
				parser_fail(ps, line, "bad NAG");
			while (is_digit(parser_peek(ps)))
				parser_advance(ps);
		} else if (c == '!' || c == '?' || c == '.') {
			parser_advance(ps);
		} else if (c == '*' || is_symbol_char(c)) {
			size_t start = ps->p, n;
			bool digits = c != '*';
			if (c == '*') {
				parser_advance(ps);
			} else {
				while (is_symbol_char(c = parser_peek(ps))) {
					digits &= is_digit(c);
					parser_advance(ps);
				}
			}
			n = ps->p - start;
			if (digits)
				continue;	/* a move number; its periods are skipped alone */
			if (result_parse(ps->text + start, n, result) == 0) {
				if (depth == 0)
					return true;
			} else if (live) {
				parser_move(ps, ps->text + start, n, line);
			}
		} else {
			if (live)
				parser_unexpected(ps, c, line);
			parser_advance(ps);
		}
	}
	if (depth > 0)
		parser_fail(ps, variation_line, "unterminated variation");
	else
		parser_fail(ps, ps->last_line, "missing result");
	return false;
}

/* The Result tag, when given, must agree with the termination marker. */
static void parser_check_result(struct parser *ps, enum result r, int line)
{
	const char *tag = staged_value(ps, "Result");
	enum result tagged;

	if (tag && (result_parse(tag, strlen(tag), &tagged) < 0 || tagged != r))
		parser_fail(ps, line, "result %s does not match Result tag \"%s\"",
		    result_text(r), tag);
}

int pgn_parse_next(const char *text, size_t len, size_t *offset, int *line,
    struct pgn_game **out, char *err, size_t errlen)
{
	struct parser *ps;
	bool content = false;
	enum result r = RESULT_NONE;
	int rc = -1;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	if (!text || *offset >= len)
		return 0;
	/* The staged tags make the parser too big for a small stack. */
	if (!(ps = calloc(1, sizeof *ps))) {
		if (err && errlen)
			snprintf(err, errlen, "line %d: out of memory", *line);
		return -1;
	}
	*ps = (struct parser){ .text = text, .len = len, .p = *offset, .line = *line,
		.last_line = *line, .err = err, .errlen = errlen, .unclosed_from = len };
	bool more = parser_tags(ps, &content);
	if (!more && !content && !ps->failed) {
		rc = 0;
		goto done;
	}
	if (more) {
		parser_start_game(ps);
		if (parser_movetext(ps, &r))
			parser_check_result(ps, r, ps->last_line);
	} else {
		parser_fail(ps, ps->last_line, "missing result");
	}
	if (!ps->failed) {
		ps->game->result = r;
		*out = ps->game;
		ps->game = NULL;
		rc = 1;
	}
done:
	*offset = ps->p;
	*line = ps->line;
	pgn_game_free(ps->game);
	staged_free(ps);
	free(ps);
	return rc;
}
