#include <string.h>

#include "movegen.h"
#include "san.h"

/* Upper-case piece letters indexed by piece type, per language. */
static const char *const lang_letters[] = {
	[SAN_ENGLISH] = " PNBRQK",
	[SAN_SPANISH] = " PCATDR",
};

/* The piece type named by an upper-case letter (never the pawn), or NO_TYPE. */
static enum piece_type letter_type(enum san_lang lang, char c)
{
	for (int t = KNIGHT; t <= KING; t++)
		if (lang_letters[lang][t] == c)
			return (enum piece_type)t;
	return NO_TYPE;
}

/* A promotion letter: the language's letters in either case. */
static enum piece_type promotion_type(enum san_lang lang, char c)
{
	enum piece_type t = letter_type(lang, (char)(c >= 'a' && c <= 'z' ? c - 32 : c));
	return t == KING ? NO_TYPE : t;
}

static bool is_file(char c) { return c >= 'a' && c <= 'h'; }
static bool is_rank(char c) { return c >= '1' && c <= '8'; }

/* What the text asks for; -1 in a field means "not given". */
struct san_query {
	enum piece_type type;	/* NO_TYPE: castling, matched by `castle` */
	int from_file, from_rank, to;
	enum piece_type promotion;
	bool capture;		/* an x was written */
	int castle;		/* 0 none, 1 king side, 2 queen side */
	bool coordinates;	/* UCI/LAN: castling may be written as the king's step */
};

/* Copies text without surrounding blanks and trailing + # ! ? "e.p." marks. */
static size_t strip(const char *text, char *buf, size_t cap)
{
	while (*text == ' ' || *text == '\t')
		text++;
	size_t n = strlen(text);
	if (n >= cap)
		return 0;
	memcpy(buf, text, n);
	buf[n] = '\0';
	for (;;) {
		while (n && strchr("+#!? \t", buf[n - 1]))
			buf[--n] = '\0';
		if (n >= 4 && !strcmp(buf + n - 4, "e.p.")) {
			n -= 4;
			buf[n] = '\0';
			continue;
		}
		break;
	}
	return n;
}

static int parse_castle(const char *s)
{
	static const char *const names[][2] = {
		{ "O-O", "O-O-O" }, { "0-0", "0-0-0" }, { "o-o", "o-o-o" },
	};
	for (int i = 0; i < 3; i++) {
		if (!strcmp(s, names[i][0]))
			return 1;
		if (!strcmp(s, names[i][1]))
			return 2;
	}
	return 0;
}

/* Coordinates and LAN: [piece] square [-|x] square [[=]promotion]. */
static bool parse_coordinates(const char *s, size_t n, enum san_lang lang, struct san_query *q)
{
	size_t i = 0;

	q->type = NO_TYPE;
	if (n && letter_type(lang, s[0])) {
		q->type = letter_type(lang, s[0]);
		i = 1;
	}
	if (i + 4 > n || !is_file(s[i]) || !is_rank(s[i + 1]))
		return false;
	q->from_file = s[i] - 'a';
	q->from_rank = s[i + 1] - '1';
	i += 2;
	if (s[i] == '-' || s[i] == 'x') {
		q->capture = s[i] == 'x';
		i++;
	} else if (q->type != NO_TYPE) {
		return false;	/* "Ng1f3" is no notation anyone uses */
	}
	if (i + 2 > n || !is_file(s[i]) || !is_rank(s[i + 1]))
		return false;
	q->to = square_make(s[i] - 'a', s[i + 1] - '1');
	i += 2;
	if (i < n && s[i] == '=')
		i++;
	if (i + 1 == n) {
		/* UCI letters are English; "=X" may also use the language's. */
		q->promotion = promotion_type(SAN_ENGLISH, s[i]);
		if (!q->promotion && s[i - 1] == '=')
			q->promotion = promotion_type(lang, s[i]);
		if (!q->promotion)
			return false;
		i++;
	}
	q->coordinates = true;
	return i == n;
}

/* SAN proper: [piece][file][rank][x]square[[=]promotion]. */
static bool parse_algebraic(const char *s, size_t n, enum san_lang lang, struct san_query *q)
{
	size_t i = 0;

	q->type = PAWN;
	if (n && s[0] >= 'A' && s[0] <= 'Z') {
		q->type = letter_type(lang, s[0]);
		if (!q->type)
			return false;
		i = 1;
	}
	/* Promotion at the end: a letter after the destination square. */
	if (n >= 2 && !is_rank(s[n - 1])) {
		q->promotion = promotion_type(lang, s[n - 1]);
		if (!q->promotion || q->type != PAWN)
			return false;
		n -= s[n - 2] == '=' ? 2 : 1;
	}
	if (n < i + 2 || !is_file(s[n - 2]) || !is_rank(s[n - 1]))
		return false;
	q->to = square_make(s[n - 2] - 'a', s[n - 1] - '1');
	n -= 2;
	if (n > i && s[n - 1] == 'x') {
		q->capture = true;
		n--;
	}
	if (i < n && is_file(s[i]))
		q->from_file = s[i++] - 'a';
	if (i < n && is_rank(s[i]))
		q->from_rank = s[i++] - '1';
	return i == n;
}

static bool query_matches(const struct board *b, const struct san_query *q, move m)
{
	int from = move_from(m), to = move_to(m);
	enum move_kind kind = move_kind_of(m);

	if (q->castle)
		return kind == MOVE_CASTLING && (to > from ? 1 : 2) == q->castle;
	if (to != q->to)
		return false;
	if (kind == MOVE_CASTLING && !q->coordinates)
		return false;	/* "Kg1" is not how castling is written */
	if (q->type && piece_type_of(b->squares[from]) != q->type)
		return false;
	if (q->from_file >= 0 && square_file(from) != q->from_file)
		return false;
	if (q->from_rank >= 0 && square_rank(from) != q->from_rank)
		return false;
	if (q->promotion && (kind != MOVE_PROMOTION || move_promotion(m) != q->promotion))
		return false;
	return true;
}

/* Reads text into a query; false when it is no move in any notation. */
static bool read_query(const char *text, enum san_lang lang, struct san_query *q)
{
	char s[32];
	size_t n = text ? strip(text, s, sizeof s) : 0;

	*q = (struct san_query){ .from_file = -1, .from_rank = -1, .to = -1 };
	if (n == 0)
		return false;
	q->castle = parse_castle(s);
	if (q->castle || parse_coordinates(s, n, lang, q))
		return true;
	*q = (struct san_query){ .from_file = -1, .from_rank = -1, .to = -1 };
	return parse_algebraic(s, n, lang, q);
}

/* The squares the move can land on: the destination, or the king's castling step. */
static bitboard query_dest(const struct board *b, const struct san_query *q)
{
	if (q->castle) {
		int ksq = board_king(b, (enum color)b->side);
		int to = q->castle == 1 ? ksq + 2 : ksq - 2;
		return to >= 0 && to < 64 ? bb_square(to) : 0;
	}
	return bb_square(q->to);
}

/* Picks the one legal move the query names, among legal. */
static enum san_status match_query(const struct board *b, const move *legal, int nlegal,
    const struct san_query *q, enum piece_type promote, move *out)
{
	int found = 0, promotions = 0;
	move match = MOVE_NONE;

	for (int i = 0; i < nlegal; i++) {
		if (!query_matches(b, q, legal[i]))
			continue;
		if (move_kind_of(legal[i]) == MOVE_PROMOTION && !q->promotion) {
			/* Count each destination once; the preference picks the piece. */
			if (move_promotion(legal[i]) != (promote ? promote : QUEEN))
				continue;
			promotions++;
		}
		found++;
		match = legal[i];
	}
	if (found == 0)
		return SAN_ILLEGAL;
	if (found > 1 || (promotions && !promote))
		return SAN_AMBIGUOUS;
	/* A capture mark on a move that captures nothing is a different move. */
	bool captures = b->squares[move_to(match)] || move_kind_of(match) == MOVE_EN_PASSANT;
	if (q->capture && !captures)
		return SAN_ILLEGAL;
	/* A pawn capture must name the file it comes from. */
	if (q->type == PAWN && !q->coordinates && captures && q->from_file < 0)
		return SAN_ILLEGAL;
	*out = match;
	return SAN_OK;
}

bool san_looks_like_move(const char *text, enum san_lang lang)
{
	struct san_query q;

	return read_query(text, lang, &q);
}

enum san_status san_parse_moves(const struct board *b, const char *text, enum san_lang lang,
    enum piece_type promote, move *out, move *legal, int *nlegal)
{
	struct san_query q;

	*out = MOVE_NONE;
	*nlegal = 0;
	if (!read_query(text, lang, &q))
		return SAN_ILLEGAL;
	*nlegal = movegen_legal_to(b, query_dest(b, &q), legal);
	return match_query(b, legal, *nlegal, &q, promote, out);
}

enum san_status san_parse_typed(const struct board *b, const char *text, enum san_lang lang,
    enum piece_type promote, move *out, move *legal, int *nlegal)
{
	struct san_query q;

	if (lang != SAN_ENGLISH && !read_query(text, lang, &q))
		lang = SAN_ENGLISH;
	return san_parse_moves(b, text, lang, promote, out, legal, nlegal);
}

enum san_status san_parse(const struct board *b, const char *text, enum san_lang lang,
    enum piece_type promote, move *out)
{
	move legal[MAX_MOVES];
	int n;

	return san_parse_moves(b, text, lang, promote, out, legal, &n);
}

enum san_status san_parse_with(const struct board *b, const move *legal, int nlegal,
    const char *text, enum san_lang lang, enum piece_type promote, move *out)
{
	struct san_query q;

	*out = MOVE_NONE;
	if (!read_query(text, lang, &q))
		return SAN_ILLEGAL;
	return match_query(b, legal, nlegal, &q, promote, out);
}

size_t san_format_plain(const struct board *b, const move *legal, int nlegal, move m,
    enum san_lang lang, char *buf)
{
	int from = move_from(m), to = move_to(m);
	enum piece_type type = piece_type_of(b->squares[from]);
	char *p = buf;

	if (move_kind_of(m) == MOVE_CASTLING) {
		strcpy(p, to > from ? "O-O" : "O-O-O");
		p += strlen(p);
	} else {
		bool capture = b->squares[to] || move_kind_of(m) == MOVE_EN_PASSANT;
		if (type == PAWN) {
			if (capture)
				*p++ = (char)('a' + square_file(from));
		} else {
			bool others = false, same_file = false, same_rank = false;
			*p++ = lang_letters[lang][type];
			for (int i = 0; i < nlegal; i++) {
				int f = move_from(legal[i]);
				if (move_to(legal[i]) != to || f == from ||
				    piece_type_of(b->squares[f]) != type ||
				    move_kind_of(legal[i]) == MOVE_CASTLING)
					continue;
				others = true;
				same_file |= square_file(f) == square_file(from);
				same_rank |= square_rank(f) == square_rank(from);
			}
			if (others && (!same_file || same_rank))
				*p++ = (char)('a' + square_file(from));
			if (others && same_file)
				*p++ = (char)('1' + square_rank(from));
		}
		if (capture)
			*p++ = 'x';
		square_format(to, p);
		p += 2;
		if (move_kind_of(m) == MOVE_PROMOTION) {
			*p++ = '=';
			*p++ = lang_letters[lang][move_promotion(m)];
		}
	}
	*p = '\0';
	return (size_t)(p - buf);
}

void san_format_with(const struct board *b, const move *legal, int nlegal, move m,
    enum san_lang lang, char *buf)
{
	char *p = buf + san_format_plain(b, legal, nlegal, m, lang, buf);
	struct board after = *b;

	board_make(&after, m);
	if (board_in_check(&after))
		*p++ = movegen_count(&after) ? '+' : '#';
	*p = '\0';
}

void san_format(const struct board *b, move m, enum san_lang lang, char *buf)
{
	move legal[MAX_MOVES];
	int n = movegen_legal(b, legal);

	san_format_with(b, legal, n, m, lang, buf);
}
