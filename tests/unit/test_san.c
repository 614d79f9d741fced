/*
 * SAN: every row of tests/data/san.tsv under this server's policy, Spanish
 * piece letters, the promotion preference, and format -> parse round trips
 * over random games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fen.h"
#include "move.h"
#include "san.h"
#include "unit_util.h"

/* Data lines in san.tsv (its footer says so too). */
#define SAN_TSV_ROWS 84

#define PLAYOUT_GAMES (UNIT_UNDER_SANITIZER ? 150 : 300)
#define PLAYOUT_MAX_PLIES 200

/*
 * Rows marked "X (lenient)" that this server rejects anyway.  The issue's
 * rule: a capture mark on a non-capture is rejected, in SAN and LAN alike.
 */
static const struct {
	const char *id;
	const char *reason;
} rejected_lenient[] = {
	{ "start-lan-false-x", "capture mark on a non-capture" },
};
#define NREJECTED (sizeof rejected_lenient / sizeof rejected_lenient[0])

static const char *status_name(enum san_status st)
{
	switch (st) {
	case SAN_OK: return "ok";
	case SAN_ILLEGAL: return "illegal";
	case SAN_AMBIGUOUS: return "ambiguous";
	}
	return "?";
}

static void parse_fen_or_fail(struct board *b, const char *fen)
{
	char err[128];

	if (fen_parse(b, fen, err, sizeof err) < 0)
		fail_msg("bad FEN \"%s\": %s", fen, err);
}

/* Every data row: illegal, ambiguous, or the move whose canonical SAN is given. */
static void test_san_tsv(void **state)
{
	(void)state;
	FILE *f = unit_open_data("san.tsv");
	char line[1024];
	int data_lines = 0, rows = 0, lenient = 0, lineno = 0;
	bool policy_seen[NREJECTED] = { false };

	while (fgets(line, sizeof line, f)) {
		char *fields[16] = { 0 };
		lineno++;
		unit_chomp(line);
		if (line[0] == '#' || line[0] == '\0')
			continue;
		data_lines++;
		int nf = unit_split_tabs(line, fields, 16);
		if (nf < 4)
			fail_msg("san.tsv line %d: %d fields", lineno, nf);
		const char *id = fields[0], *fen = fields[1], *input = fields[2];
		char expected[64];
		snprintf(expected, sizeof expected, "%s", fields[3]);

		enum san_status want = SAN_OK;
		char *mark = strstr(expected, " (lenient)");
		if (mark) {
			*mark = '\0';
			lenient++;
		}
		for (size_t k = 0; k < NREJECTED; k++)
			if (!strcmp(id, rejected_lenient[k].id)) {
				if (!mark)
					fail_msg("%s: policy row is no longer marked lenient", id);
				policy_seen[k] = true;
				want = SAN_ILLEGAL;
			}
		if (!strcmp(expected, "illegal"))
			want = SAN_ILLEGAL;
		else if (!strcmp(expected, "ambiguous"))
			want = SAN_AMBIGUOUS;

		struct board b;
		move m = 0xffff;
		char san[MOVE_TEXT_MAX];
		parse_fen_or_fail(&b, fen);
		enum san_status got = san_parse(&b, input, SAN_ENGLISH, NO_TYPE, &m);
		if (got != want)
			fail_msg("%s: \"%s\": expected %s (%s), got %s", id, input,
			    status_name(want), expected, status_name(got));
		if (want == SAN_OK) {
			move legal[MAX_MOVES];
			int n = movegen_legal(&b, legal), found = 0;
			for (int i = 0; i < n; i++)
				found += legal[i] == m;
			assert_int_equal(found, 1);
			san_format(&b, m, SAN_ENGLISH, san);
			if (strcmp(san, expected))
				fail_msg("%s: \"%s\" parsed to %s, expected %s", id, input, san,
				    expected);
		} else {
			assert_int_equal(m, MOVE_NONE);
		}
		rows++;
	}
	fclose(f);

	for (size_t k = 0; k < NREJECTED; k++)
		if (!policy_seen[k])
			fail_msg("policy row %s (%s) not found in san.tsv", rejected_lenient[k].id,
			    rejected_lenient[k].reason);
	assert_int_equal(rows, data_lines);
	assert_int_equal(rows, SAN_TSV_ROWS);
	assert_true(lenient > 0);
}

struct text_case {
	const char *fen;
	const char *input;
	enum san_lang lang;
	enum piece_type promote;
	enum san_status status;
	const char *uci;		/* the move, when status is SAN_OK */
	const char *san_en, *san_es;	/* its canonical SAN in each language */
};

/* Runs cases through san_parse, or san_parse_typed when typed. */
static void run_text_cases(const struct text_case *cases, size_t n, bool typed)
{
	for (size_t i = 0; i < n; i++) {
		const struct text_case *c = &cases[i];
		struct board b;
		move m;
		char buf[MOVE_TEXT_MAX];

		parse_fen_or_fail(&b, c->fen);
		move legal[MAX_MOVES];
		int nlegal;
		enum san_status got = typed ? san_parse_typed(&b, c->input, c->lang, c->promote, &m,
		    legal, &nlegal) : san_parse(&b, c->input, c->lang, c->promote, &m);
		if (got != c->status)
			fail_msg("\"%s\" (%s, promote %d) on %s: expected %s, got %s", c->input,
			    c->lang == SAN_SPANISH ? "es" : "en", c->promote, c->fen,
			    status_name(c->status), status_name(got));
		if (got != SAN_OK)
			continue;
		move_format_uci(m, buf);
		if (strcmp(buf, c->uci))
			fail_msg("\"%s\": expected %s, got %s", c->input, c->uci, buf);
		san_format(&b, m, SAN_ENGLISH, buf);
		assert_string_equal(buf, c->san_en);
		san_format(&b, m, SAN_SPANISH, buf);
		assert_string_equal(buf, c->san_es);
	}
}

#define CASTLE_FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#define PROMO_FEN "7k/4P3/8/8/8/8/8/K7 w - - 0 1"
#define PROMO_CAP_FEN "3r4/4Pk2/8/8/8/8/8/K7 w - - 0 1"
#define AFTER_E4_E5 "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"

/* Spanish letters: R rey, D dama, T torre, A alfil, C caballo. */
static void test_spanish(void **state)
{
	(void)state;
	static const struct text_case cases[] = {
		{ FEN_START, "Cf3", SAN_SPANISH, NO_TYPE, SAN_OK, "g1f3", "Nf3", "Cf3" },
		{ FEN_START, "Cg1-f3", SAN_SPANISH, NO_TYPE, SAN_OK, "g1f3", "Nf3", "Cf3" },
		{ FEN_START, "e4", SAN_SPANISH, NO_TYPE, SAN_OK, "e2e4", "e4", "e4" },
		{ FEN_START, "e2e4", SAN_SPANISH, NO_TYPE, SAN_OK, "e2e4", "e4", "e4" },
		{ FEN_START, "Nf3", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ FEN_START, "Cf3", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ AFTER_E4_E5, "Ac4", SAN_SPANISH, NO_TYPE, SAN_OK, "f1c4", "Bc4", "Ac4" },
		{ AFTER_E4_E5, "Bc4", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ AFTER_E4_E5, "Dh5", SAN_SPANISH, NO_TYPE, SAN_OK, "d1h5", "Qh5", "Dh5" },
		{ AFTER_E4_E5, "Qh5", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ AFTER_E4_E5, "Re2", SAN_SPANISH, NO_TYPE, SAN_OK, "e1e2", "Ke2", "Re2" },
		{ AFTER_E4_E5, "Ke2", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		/* R is a rook in English and a king in Spanish. */
		{ "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Rd1", SAN_ENGLISH, NO_TYPE, SAN_OK, "a1d1",
		  "Rd1", "Td1" },
		{ "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Rd1", SAN_SPANISH, NO_TYPE, SAN_OK, "e1d1",
		  "Kd1", "Rd1" },
		{ "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Td1", SAN_SPANISH, NO_TYPE, SAN_OK, "a1d1",
		  "Rd1", "Td1" },
		{ "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra2", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL,
		  NULL, NULL },
		{ "3rk3/8/8/8/8/8/8/3QK3 w - - 0 1", "Dxd8+", SAN_SPANISH, NO_TYPE, SAN_OK, "d1d8",
		  "Qxd8+", "Dxd8+" },
		{ "3rk3/8/8/8/8/8/8/3QK3 w - - 0 1", "Dxd8", SAN_SPANISH, NO_TYPE, SAN_OK, "d1d8",
		  "Qxd8+", "Dxd8+" },
		{ "3rk3/8/8/8/8/8/8/3QK3 w - - 0 1", "Qxd8+", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL,
		  NULL, NULL, NULL },
		{ PROMO_FEN, "e8=D", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8q", "e8=Q+", "e8=D+" },
		{ PROMO_FEN, "e8D", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8q", "e8=Q+", "e8=D+" },
		{ PROMO_FEN, "e8=T", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8r", "e8=R+", "e8=T+" },
		{ PROMO_FEN, "e8=A", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8b", "e8=B", "e8=A" },
		{ PROMO_FEN, "e8=C", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8n", "e8=N", "e8=C" },
		/* e8=R would be a king in Spanish; Q is not a Spanish letter. */
		{ PROMO_FEN, "e8=R", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ PROMO_FEN, "e8=Q", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ PROMO_FEN, "e8=R", SAN_ENGLISH, NO_TYPE, SAN_OK, "e7e8r", "e8=R+", "e8=T+" },
		/* Coordinates keep English letters in either language; "=X" may be Spanish. */
		{ PROMO_FEN, "e7e8q", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8q", "e8=Q+", "e8=D+" },
		{ PROMO_FEN, "e7e8n", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8n", "e8=N", "e8=C" },
		{ PROMO_FEN, "e7-e8=D", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8q", "e8=Q+", "e8=D+" },
		{ PROMO_CAP_FEN, "exd8=C+", SAN_SPANISH, NO_TYPE, SAN_OK, "e7d8n", "exd8=N+",
		  "exd8=C+" },
		{ CASTLE_FEN, "O-O", SAN_SPANISH, NO_TYPE, SAN_OK, "e1g1", "O-O", "O-O" },
		{ CASTLE_FEN, "0-0-0", SAN_SPANISH, NO_TYPE, SAN_OK, "e1c1", "O-O-O", "O-O-O" },
		{ CASTLE_FEN, "Tf1", SAN_SPANISH, NO_TYPE, SAN_OK, "h1f1", "Rf1", "Tf1" },
		{ CASTLE_FEN, "Rf1", SAN_SPANISH, NO_TYPE, SAN_OK, "e1f1", "Kf1", "Rf1" },
		{ CASTLE_FEN, "Rg1", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
	};

	run_text_cases(cases, sizeof cases / sizeof cases[0], false);
}

#define KING_ROOK_F1_FEN "4kr2/8/8/8/8/8/8/4K2R w - - 0 1"	/* f1 attacked: only the rook */
#define TWO_KNIGHTS_FEN "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"	/* both reach d2 */
#define TWO_ROOKS_FEN "4k3/8/8/8/8/8/4K3/R6R w - - 0 1"	/* both reach d1 */

/*
 * What a player types is read in the player's language only; English is
 * tried only for text that is no move in it.  Every letter the languages
 * use differently: R (rey / rook), D, T, A, C against K, Q, B, N.
 */
static void test_typed(void **state)
{
	(void)state;
	static const struct text_case cases[] = {
		/* R is the king to a Spanish player, even where only a rook can go. */
		{ KING_ROOK_F1_FEN, "Rf1", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ KING_ROOK_F1_FEN, "Rf1", SAN_ENGLISH, NO_TYPE, SAN_OK, "h1f1", "Rf1", "Tf1" },
		{ KING_ROOK_F1_FEN, "Tf1", SAN_SPANISH, NO_TYPE, SAN_OK, "h1f1", "Rf1", "Tf1" },
		{ KING_ROOK_F1_FEN, "Rd2", SAN_SPANISH, NO_TYPE, SAN_OK, "e1d2", "Kd2", "Rd2" },
		{ KING_ROOK_F1_FEN, "Kf1", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ KING_ROOK_F1_FEN, "Kd2", SAN_SPANISH, NO_TYPE, SAN_OK, "e1d2", "Kd2", "Rd2" },
		{ KING_ROOK_F1_FEN, "Tf1", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		/* Ambiguous in the player's language stays ambiguous. */
		{ TWO_KNIGHTS_FEN, "Cd2", SAN_SPANISH, NO_TYPE, SAN_AMBIGUOUS, NULL, NULL, NULL },
		{ TWO_KNIGHTS_FEN, "Cbd2", SAN_SPANISH, NO_TYPE, SAN_OK, "b1d2", "Nbd2", "Cbd2" },
		{ TWO_KNIGHTS_FEN, "Nd2", SAN_SPANISH, NO_TYPE, SAN_AMBIGUOUS, NULL, NULL, NULL },
		{ TWO_KNIGHTS_FEN, "Nfd2", SAN_SPANISH, NO_TYPE, SAN_OK, "f1d2", "Nfd2", "Cfd2" },
		{ TWO_KNIGHTS_FEN, "Cd2", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ TWO_ROOKS_FEN, "Td1", SAN_SPANISH, NO_TYPE, SAN_AMBIGUOUS, NULL, NULL, NULL },
		{ TWO_ROOKS_FEN, "Tad1", SAN_SPANISH, NO_TYPE, SAN_OK, "a1d1", "Rad1", "Tad1" },
		{ TWO_ROOKS_FEN, "Rd1", SAN_SPANISH, NO_TYPE, SAN_OK, "e2d1", "Kd1", "Rd1" },
		{ TWO_ROOKS_FEN, "Rd1", SAN_ENGLISH, NO_TYPE, SAN_AMBIGUOUS, NULL, NULL, NULL },
		/* D, A, C and their English letters. */
		{ AFTER_E4_E5, "Dh5", SAN_SPANISH, NO_TYPE, SAN_OK, "d1h5", "Qh5", "Dh5" },
		{ AFTER_E4_E5, "Qh5", SAN_SPANISH, NO_TYPE, SAN_OK, "d1h5", "Qh5", "Dh5" },
		{ AFTER_E4_E5, "Dh4", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ AFTER_E4_E5, "Ac4", SAN_SPANISH, NO_TYPE, SAN_OK, "f1c4", "Bc4", "Ac4" },
		{ AFTER_E4_E5, "Bc4", SAN_SPANISH, NO_TYPE, SAN_OK, "f1c4", "Bc4", "Ac4" },
		{ AFTER_E4_E5, "Ac5", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ AFTER_E4_E5, "Cf3", SAN_SPANISH, NO_TYPE, SAN_OK, "g1f3", "Nf3", "Cf3" },
		{ AFTER_E4_E5, "Nf3", SAN_SPANISH, NO_TYPE, SAN_OK, "g1f3", "Nf3", "Cf3" },
		{ AFTER_E4_E5, "Dh5", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ AFTER_E4_E5, "Ac4", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		/* Coordinates read the same in both. */
		{ KING_ROOK_F1_FEN, "h1f1", SAN_SPANISH, NO_TYPE, SAN_OK, "h1f1", "Rf1", "Tf1" },
		{ KING_ROOK_F1_FEN, "e1f1", SAN_SPANISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		/* Promotions: "=Q" and "=R" are no Spanish moves, so they are English. */
		{ PROMO_FEN, "e8=D", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8q", "e8=Q+", "e8=D+" },
		{ PROMO_FEN, "e8=Q", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8q", "e8=Q+", "e8=D+" },
		{ PROMO_FEN, "e8=T", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8r", "e8=R+", "e8=T+" },
		{ PROMO_FEN, "e8=R", SAN_SPANISH, NO_TYPE, SAN_OK, "e7e8r", "e8=R+", "e8=T+" },
	};
	run_text_cases(cases, sizeof cases / sizeof cases[0], true);
}

/* The promote argument picks the piece for a promotion written without one. */
static void test_promote_preference(void **state)
{
	(void)state;
	static const struct text_case cases[] = {
		{ PROMO_FEN, "e8", SAN_ENGLISH, KNIGHT, SAN_OK, "e7e8n", "e8=N", "e8=C" },
		{ PROMO_FEN, "e8", SAN_ENGLISH, QUEEN, SAN_OK, "e7e8q", "e8=Q+", "e8=D+" },
		{ PROMO_FEN, "e8", SAN_ENGLISH, ROOK, SAN_OK, "e7e8r", "e8=R+", "e8=T+" },
		{ PROMO_FEN, "e8", SAN_SPANISH, BISHOP, SAN_OK, "e7e8b", "e8=B", "e8=A" },
		{ PROMO_FEN, "e8", SAN_ENGLISH, NO_TYPE, SAN_AMBIGUOUS, NULL, NULL, NULL },
		{ PROMO_FEN, "e7e8", SAN_ENGLISH, KNIGHT, SAN_OK, "e7e8n", "e8=N", "e8=C" },
		{ PROMO_FEN, "e7e8", SAN_ENGLISH, NO_TYPE, SAN_AMBIGUOUS, NULL, NULL, NULL },
		/* A written piece wins over the preference. */
		{ PROMO_FEN, "e8=B", SAN_ENGLISH, KNIGHT, SAN_OK, "e7e8b", "e8=B", "e8=A" },
		{ PROMO_FEN, "e7e8r", SAN_ENGLISH, QUEEN, SAN_OK, "e7e8r", "e8=R+", "e8=T+" },
		{ PROMO_CAP_FEN, "exd8", SAN_ENGLISH, KNIGHT, SAN_OK, "e7d8n", "exd8=N+", "exd8=C+" },
		{ PROMO_CAP_FEN, "exd8", SAN_ENGLISH, QUEEN, SAN_OK, "e7d8q", "exd8=Q", "exd8=D" },
		/* Two promotions (push and capture) stay apart. */
		{ PROMO_CAP_FEN, "e8", SAN_ENGLISH, QUEEN, SAN_OK, "e7e8q", "e8=Q+", "e8=D+" },
		/* The preference does not touch non-promotions. */
		{ FEN_START, "e4", SAN_ENGLISH, KNIGHT, SAN_OK, "e2e4", "e4", "e4" },
		{ FEN_START, "Nf3", SAN_ENGLISH, QUEEN, SAN_OK, "g1f3", "Nf3", "Cf3" },
	};

	run_text_cases(cases, sizeof cases / sizeof cases[0], false);
}

/* Inputs outside the TSV that the header of san.h promises to accept or reject. */
static void test_other_inputs(void **state)
{
	(void)state;
	static const struct text_case cases[] = {
		{ FEN_START, "  e4  ", SAN_ENGLISH, NO_TYPE, SAN_OK, "e2e4", "e4", "e4" },
		{ FEN_START, "e4!!", SAN_ENGLISH, NO_TYPE, SAN_OK, "e2e4", "e4", "e4" },
		{ FEN_START, "Nf3?", SAN_ENGLISH, NO_TYPE, SAN_OK, "g1f3", "Nf3", "Cf3" },
		{ FEN_START, "Pe2e4", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ FEN_START, "E4", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		/* Piece with a full origin square reads as over-disambiguated SAN. */
		{ FEN_START, "Ng1f3", SAN_ENGLISH, NO_TYPE, SAN_OK, "g1f3", "Nf3", "Cf3" },
		{ FEN_START, "Ng1xf3", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ FEN_START, "O-O", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ FEN_START, "Ke2", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		{ FEN_START, "e2e4e6", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		/* Pawn captures need their file (strictly); coordinates do not. */
		{ "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "xd5", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL,
		  NULL, NULL, NULL },
		{ "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "d5", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL,
		  NULL, NULL, NULL },
		{ "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5", SAN_ENGLISH, NO_TYPE, SAN_OK,
		  "e4d5", "exd5", "exd5" },
		{ "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", SAN_ENGLISH, NO_TYPE, SAN_OK,
		  "e4d5", "exd5", "exd5" },
		{ "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4xd5", SAN_ENGLISH, NO_TYPE, SAN_OK,
		  "e4d5", "exd5", "exd5" },
		{ "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4-e5", SAN_ENGLISH, NO_TYPE, SAN_OK,
		  "e4e5", "e5", "e5" },
		{ "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4xe5", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL,
		  NULL, NULL, NULL },
		/* Castling by king step or as coordinates with a dash. */
		{ CASTLE_FEN, "e1c1", SAN_ENGLISH, NO_TYPE, SAN_OK, "e1c1", "O-O-O", "O-O-O" },
		{ CASTLE_FEN, "e1-g1", SAN_ENGLISH, NO_TYPE, SAN_OK, "e1g1", "O-O", "O-O" },
		{ CASTLE_FEN, "O-O+", SAN_ENGLISH, NO_TYPE, SAN_OK, "e1g1", "O-O", "O-O" },
		{ CASTLE_FEN, "Kc1", SAN_ENGLISH, NO_TYPE, SAN_ILLEGAL, NULL, NULL, NULL },
		/* Disambiguation when both knights are free: Nbd2 vs Nfd2. */
		{ "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", SAN_ENGLISH, NO_TYPE, SAN_AMBIGUOUS,
		  NULL, NULL, NULL },
		{ "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nfd2", SAN_ENGLISH, NO_TYPE, SAN_OK,
		  "f3d2", "Nfd2", "Cfd2" },
		{ "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3d2", SAN_ENGLISH, NO_TYPE, SAN_OK,
		  "f3d2", "Nfd2", "Cfd2" },
	};

	run_text_cases(cases, sizeof cases / sizeof cases[0], false);
}

static void test_null_and_empty(void **state)
{
	(void)state;
	struct board b;
	move m = 1;

	board_start(&b);
	assert_int_equal(san_parse(&b, NULL, SAN_ENGLISH, NO_TYPE, &m), SAN_ILLEGAL);
	assert_int_equal(m, MOVE_NONE);
	m = 1;
	assert_int_equal(san_parse(&b, "+", SAN_ENGLISH, NO_TYPE, &m), SAN_ILLEGAL);
	assert_int_equal(m, MOVE_NONE);
}

/* UCI and FICS verbose forms. */
static void test_uci_and_verbose(void **state)
{
	(void)state;
	static const struct {
		const char *fen, *uci, *verbose;
	} cases[] = {
		{ FEN_START, "e2e4", "P/e2-e4" },
		{ FEN_START, "g1f3", "N/g1-f3" },
		{ CASTLE_FEN, "e1g1", "o-o" },
		{ CASTLE_FEN, "e1c1", "o-o-o" },
		{ "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", "o-o" },
		{ "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "o-o-o" },
		{ CASTLE_FEN, "a1a8", "R/a1-a8" },
		{ PROMO_FEN, "e7e8q", "P/e7-e8=Q" },
		{ PROMO_FEN, "e7e8n", "P/e7-e8=N" },
		{ PROMO_CAP_FEN, "e7d8r", "P/e7-d8=R" },
		{ "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "P/e5-d6" },
		{ AFTER_E4_E5, "d1h5", "Q/d1-h5" },
		{ AFTER_E4_E5, "e1e2", "K/e1-e2" },
		{ AFTER_E4_E5, "f1b5", "B/f1-b5" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct board b;
		move m;
		char buf[MOVE_TEXT_MAX];

		parse_fen_or_fail(&b, cases[i].fen);
		assert_int_equal(san_parse(&b, cases[i].uci, SAN_ENGLISH, NO_TYPE, &m), SAN_OK);
		move_format_uci(m, buf);
		assert_string_equal(buf, cases[i].uci);
		move_format_verbose(&b, m, buf);
		assert_string_equal(buf, cases[i].verbose);
	}
}

static void test_square_format(void **state)
{
	(void)state;
	char buf[3];

	square_format(SQ_A1, buf);
	assert_string_equal(buf, "a1");
	square_format(SQ_H8, buf);
	assert_string_equal(buf, "h8");
	square_format(SQ_E4, buf);
	assert_string_equal(buf, "e4");
}

struct roundtrip_stats {
	long moves;
	long checks;
	long mates;
};

/* Parses text in lang and requires exactly move m back. */
static void expect_parses_to(const struct board *b, const char *text, enum san_lang lang,
    move m)
{
	move got;
	enum san_status st = san_parse(b, text, lang, NO_TYPE, &got);
	char fen[FEN_MAX], uci[MOVE_TEXT_MAX], got_uci[MOVE_TEXT_MAX] = "-";

	if (st == SAN_OK && got == m)
		return;
	fen_format(b, fen);
	move_format_uci(m, uci);
	if (st == SAN_OK)
		move_format_uci(got, got_uci);
	fail_msg("%s: \"%s\" (%s) for %s gave %s %s", fen, text, lang == SAN_SPANISH ? "es" : "en",
	    uci, status_name(st), got_uci);
}

static void visit_roundtrip(const struct board *b, const move *legal, int n, void *ctx)
{
	struct roundtrip_stats *st = ctx;
	char sans[MAX_MOVES][MOVE_TEXT_MAX];

	for (int i = 0; i < n; i++) {
		move m = legal[i];
		char es[MOVE_TEXT_MAX], uci[MOVE_TEXT_MAX];

		san_format_with(b, legal, n, m, SAN_ENGLISH, sans[i]);
		san_format_with(b, legal, n, m, SAN_SPANISH, es);
		move_format_uci(m, uci);
		expect_parses_to(b, sans[i], SAN_ENGLISH, m);
		expect_parses_to(b, es, SAN_SPANISH, m);
		expect_parses_to(b, uci, SAN_ENGLISH, m);
		expect_parses_to(b, uci, SAN_SPANISH, m);

		/* The suffix tells check and mate as the board does. */
		struct board after = *b;
		board_make(&after, m);
		size_t len = strlen(sans[i]);
		char last = sans[i][len - 1];
		char want = board_in_check(&after) ? (movegen_count(&after) ? '+' : '#') : 0;
		if (want) {
			assert_int_equal(last, want);
			assert_int_equal(es[strlen(es) - 1], want);
			st->checks++;
			st->mates += want == '#';
		} else {
			assert_true(last != '+' && last != '#');
		}
		/* Only the piece letters differ between the languages. */
		assert_int_equal(len, strlen(es));
		for (int j = 0; j < i; j++)
			if (!strcmp(sans[i], sans[j]))
				fail_msg("two moves share the SAN %s", sans[i]);
		st->moves++;
	}
}

/* san_format then san_parse, in both languages, and UCI then san_parse, give each move back. */
static void test_roundtrip_playouts(void **state)
{
	(void)state;
	static const char *const starts[] = {
		FEN_START,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
		"1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1",
	};
	uint64_t rng = 0x5a11;
	struct roundtrip_stats st = { 0 };

	for (int g = 0; g < PLAYOUT_GAMES; g++) {
		struct board b;
		parse_fen_or_fail(&b, starts[g % 4]);
		unit_playout(&b, &rng, PLAYOUT_MAX_PLIES, visit_roundtrip, &st);
	}
	print_message("san round trip: %ld moves, %ld checks, %ld mates\n", st.moves, st.checks,
	    st.mates);
	assert_true(st.mates > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_san_tsv),
		cmocka_unit_test(test_spanish),
		cmocka_unit_test(test_typed),
		cmocka_unit_test(test_promote_preference),
		cmocka_unit_test(test_other_inputs),
		cmocka_unit_test(test_null_and_empty),
		cmocka_unit_test(test_uci_and_verbose),
		cmocka_unit_test(test_square_format),
		cmocka_unit_test(test_roundtrip_playouts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
