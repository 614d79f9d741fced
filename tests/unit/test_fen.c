/*
 * FEN: every rejection with its exact message, canonical output, the
 * legal-only en passant square, and FEN -> board -> FEN over random games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fen.h"
#include "unit_util.h"

#define PLAYOUT_GAMES 1000
#define PLAYOUT_MAX_PLIES 200

static const struct {
	const char *fen;
	const char *error;
} invalid_fens[] = {
	/* Fields. */
	{ "", "empty FEN" },
	{ "   ", "empty FEN" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "FEN has 1 fields, expected 6 (or 4)" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "FEN has 3 fields, expected 6 (or 4)" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "FEN has 5 fields, expected 6 (or 4)" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "FEN has more than 6 fields" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x y", "FEN has more than 6 fields" },
	/* Placement. */
	{ "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "invalid character '9' in rank 6" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "invalid character 'X' in rank 1" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 w KQkq - 0 1", "invalid character '0' in rank 1" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB.R w KQkq - 0 1", "invalid character '.' in rank 1" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw KQkq - 0", "invalid character '\\x09' in rank 1" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "rank 1 has 9 squares" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank 1 has 7 squares" },
	{ "rnbqkbnr/pppppppp/8/8/8/35p/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 3 has 9 squares" },
	{ "rnbqkbnr/pppppppp/8/8/8/88/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 3 has 16 squares" },
	{ "rnbqkbnr/pppppppp/8/8/8//PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 3 has 0 squares" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "more than 8 ranks" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks" },
	{ "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "only 7 ranks" },
	{ "4k3 w - - 0 1", "only 1 ranks" },
	/* Material. */
	{ "8/8/8/8/8/8/8/8 w - - 0 1", "no white king" },
	{ "8/8/8/8/8/8/8/4K3 w - - 0 1", "no black king" },
	{ "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "two white kings" },
	{ "3kk3/8/8/8/8/8/8/4K3 w - - 0 1", "two black kings" },
	{ "2kkk3/8/8/8/8/8/8/4K3 w - - 0 1", "several black kings" },
	{ "4k3/8/8/8/8/8/1PPPPPPP/P3K3 w - - 0 1", "pawn on a1 (first or last rank)" },
	{ "4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1", "white has 9 pawns" },
	{ "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "black has 9 pawns" },
	{ "4k3/8/8/8/NNNNNNNN/NNNNNNNN/8/4K3 w - - 0 1", "white has 17 pieces" },
	{ "3pk3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on d8 (first or last rank)" },
	{ "4k2p/8/8/8/8/8/8/P3K3 b - - 0 1", "pawn on a1 (first or last rank)" },
	/* Side to move. */
	{ "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move must be 'w' or 'b'" },
	{ "4k3/8/8/8/8/8/8/4K3 W - - 0 1", "side to move must be 'w' or 'b'" },
	{ "4k3/8/8/8/8/8/8/4K3 wb - - 0 1", "side to move must be 'w' or 'b'" },
	/* Castling. */
	{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", "castling field must be '-' or letters from KQkq" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "castling right K given twice" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w KQkk - 0 1", "castling right k given twice" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", "invalid castling letter 'X'" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w -K - 0 1", "invalid castling letter '-'" },
	{ "r3k2r/8/8/8/8/8/8/R3K2R w A - 0 1", "invalid castling letter 'A'" },
	{ "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling right K without a rook on h1" },
	{ "4k3/8/8/8/8/8/8/4K2R w Q - 0 1", "castling right Q without a rook on a1" },
	{ "r3k3/8/8/8/8/8/8/4K3 w k - 0 1", "castling right k without a rook on h8" },
	{ "4k2r/8/8/8/8/8/8/4K3 w q - 0 1", "castling right q without a rook on a8" },
	{ "r3k2r/8/8/8/8/8/8/R2K3R w K - 0 1", "castling right K without the king on e1" },
	{ "r2k3r/8/8/8/8/8/8/R3K2R w q - 0 1", "castling right q without the king on e8" },
	{ "r3k2r/8/8/8/8/8/8/R3K2n w K - 0 1", "castling right K without a rook on h1" },
	{ "r3k2R/8/8/8/8/8/8/R3K3 b k - 0 1", "castling right k without a rook on h8" },
	/* En passant. */
	{ "4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "invalid en passant square 'e9'" },
	{ "4k3/8/8/8/8/8/8/4K3 w - i6 0 1", "invalid en passant square 'i6'" },
	{ "4k3/8/8/8/8/8/8/4K3 w - e66 0 1", "invalid en passant square 'e66'" },
	{ "4k3/8/8/8/8/8/8/4K3 w - abcdefghijk 0 1", "invalid en passant square 'abcdefgh'" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
	  "en passant square e3 with no pawn that just moved" },
	{ "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
	  "en passant square e3 with no pawn that just moved" },
	{ "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1",
	  "en passant square e6 with no pawn that just moved" },
	{ "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
	  "en passant square e3 with no pawn that just moved" },
	{ "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1",
	  "en passant square e3 with no pawn that just moved" },
	{ "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/RNBQKB1R b KQkq e3 0 1",
	  "en passant square e3 with no pawn that just moved" },
	{ "4k3/8/8/3pP3/8/8/8/4K3 w - d6 1 1", "halfmove clock 1 after a double pawn step" },
	/* Numbers. */
	{ "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock must be a number from 0 to 9999" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock must be a number from 0 to 9999" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 10000 1", "halfmove clock must be a number from 0 to 9999" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1",
	  "halfmove clock must be a number from 0 to 9999" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - +5 1", "halfmove clock must be a number from 0 to 9999" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 5a 1", "halfmove clock must be a number from 0 to 9999" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number must be a number from 1 to 9999" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 10000", "fullmove number must be a number from 1 to 9999" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "fullmove number must be a number from 1 to 9999" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 1.", "fullmove number must be a number from 1 to 9999" },
	/* Checks. */
	{ "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "side not to move is in check" },
	{ "4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "side not to move is in check" },
	{ "8/8/8/8/8/8/8/3kK3 w - - 0 1", "side not to move is in check" },
	{ "4r1k1/8/8/b7/8/5n2/8/4K3 w - - 0 1", "king on e1 is in check from 3 pieces" },
};

/* Each invalid FEN is rejected with exactly its message. */
static void test_invalid_fens(void **state)
{
	(void)state;

	for (size_t i = 0; i < sizeof invalid_fens / sizeof invalid_fens[0]; i++) {
		struct board b;
		char err[128] = "";

		int rc = fen_parse(&b, invalid_fens[i].fen, err, sizeof err);
		if (rc != -1)
			fail_msg("accepted invalid FEN \"%s\" (expected \"%s\")", invalid_fens[i].fen,
			    invalid_fens[i].error);
		if (strcmp(err, invalid_fens[i].error))
			fail_msg("FEN \"%s\": expected error \"%s\", got \"%s\"", invalid_fens[i].fen,
			    invalid_fens[i].error, err);
	}
}

static void test_null_and_short_buffer(void **state)
{
	(void)state;
	struct board b;
	char err[8];

	assert_int_equal(fen_parse(&b, NULL, err, sizeof err), -1);
	assert_string_equal(err, "empty F");	/* truncated, still terminated */
	/* No buffer at all is allowed. */
	assert_int_equal(fen_parse(&b, "garbage", NULL, 0), -1);
}

/* Valid FENs: each formats back to its canonical text. */
static void test_valid_canonical(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ FEN_START, FEN_START },
		{ "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" },
		/* EPD: four fields get clock 0 and move 1. */
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", FEN_START },
		/* Surrounding and repeated blanks are tolerated. */
		{ "  4k3/8/8/8/8/8/8/4K3   b  -  -  7   42  ", "4k3/8/8/8/8/8/8/4K3 b - - 7 42" },
		/* Castling letters in any order come out as KQkq. */
		{ "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 3 9", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 9" },
		{ "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 0 1" },
		/* Run-length gaps merge. */
		{ "4k3/8/8/8/8/8/8/1111K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1" },
		{ "4k3/8/8/8/8/8/8/4K3 w - - 9999 9999", "4k3/8/8/8/8/8/8/4K3 w - - 9999 9999" },
		{ "4k3/8/8/8/8/8/8/4K3 w - - 007 01", "4k3/8/8/8/8/8/8/4K3 w - - 7 1" },
		/* Two checkers are possible (discovered double check). */
		{ "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1", "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1" },
	};
	char err[128], out[FEN_MAX];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct board b;
		if (fen_parse(&b, cases[i].in, err, sizeof err) < 0)
			fail_msg("rejected \"%s\": %s", cases[i].in, err);
		fen_format(&b, out);
		assert_string_equal(out, cases[i].out);
		assert_int_equal(b.key, board_compute_key(&b));
	}
}

/* The en passant square is kept only when a capture onto it is legal. */
static void test_en_passant_kept_only_when_legal(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		const char *ep;	/* what fen_format prints for the field */
	} cases[] = {
		/* No black pawn beside e4. */
		{ "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "-" },
		/* d4 pawn can take. */
		{ "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNB1KBNR b KQkq e3 0 3", "e3" },
		{ "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "d6" },
		/* Both sides of the pawn. */
		{ "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1", "d6" },
		/* d4 pinned on the d-file by Rd1: dxe3 is illegal. */
		{ "3k4/8/8/8/3pP3/8/8/3R3K b - e3 0 1", "-" },
		/* Removing both pawns opens the rank to the king. */
		{ "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", "-" },
		{ "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1", "-" },
		/* Pinned diagonally but capturing along the pin line is legal. */
		{ "8/8/8/2k5/3pP3/8/5B2/7K b - e3 0 1", "e3" },
		{ "4kb2/8/8/2Pp4/8/K7/8/8 w - d6 0 1", "d6" },
		/* Capturer pinned off the capture line. */
		{ "4k3/b7/8/2Pp4/8/8/8/6K1 w - d6 0 2", "-" },
		/* In check from the pawn that just moved: taking it en passant answers the check. */
		{ "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "d3" },
		/* In check from a piece the capture does not address. */
		{ "8/8/8/8/3Pp3/8/k6R/4K3 b - d3 0 1", "-" },
	};
	char err[128], out[FEN_MAX];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct board b;
		if (fen_parse(&b, cases[i].in, err, sizeof err) < 0)
			fail_msg("rejected \"%s\": %s", cases[i].in, err);
		fen_format(&b, out);
		/* The fourth field is what we check; the rest must be unchanged. */
		char expected[FEN_MAX];
		char copy[FEN_MAX];
		strcpy(copy, cases[i].in);
		char *f[6], *save = NULL;
		f[0] = strtok_r(copy, " ", &save);
		for (int k = 1; k < 6; k++)
			f[k] = strtok_r(NULL, " ", &save);
		snprintf(expected, sizeof expected, "%s %s %s %s %s %s", f[0], f[1], f[2],
		    cases[i].ep, f[4], f[5]);
		if (strcmp(out, expected))
			fail_msg("\"%s\": expected \"%s\", got \"%s\"", cases[i].in, expected, out);
		assert_int_equal(b.ep_square == SQ_NONE, !strcmp(cases[i].ep, "-"));
		assert_int_equal(b.key, board_compute_key(&b));
	}
}

/*
 * A FEN whose en passant square is dropped denotes the same position as the
 * one without it (FIDE 9.2.3): the keys match.
 */
static void test_dropped_ep_same_key(void **state)
{
	(void)state;
	struct board a, b;
	char err[128];

	assert_int_equal(fen_parse(&a, "3k4/8/8/8/3pP3/8/8/3R3K b - e3 0 1", err, sizeof err), 0);
	assert_int_equal(fen_parse(&b, "3k4/8/8/8/3pP3/8/8/3R3K b - - 0 1", err, sizeof err), 0);
	assert_int_equal(a.key, b.key);
	assert_int_equal(fen_parse(&a, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNB1KBNR b KQkq e3 0 3",
	    err, sizeof err), 0);
	assert_int_equal(fen_parse(&b, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 3",
	    err, sizeof err), 0);
	assert_int_not_equal(a.key, b.key);
}

/* Fields beyond FEN: the clocks land in the board. */
static void test_fields_parsed(void **state)
{
	(void)state;
	struct board b;
	char err[128];

	assert_int_equal(fen_parse(&b, "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 17 33", err, sizeof err), 0);
	assert_int_equal(b.side, BLACK);
	assert_int_equal(b.castling, CASTLE_WK | CASTLE_BQ);
	assert_int_equal(b.halfmove_clock, 17);
	assert_int_equal(b.fullmove_number, 33);
	assert_int_equal(b.squares[SQ_A8], B_ROOK);
	assert_int_equal(b.squares[SQ_E1], W_KING);
	assert_int_equal(bb_count(board_occupied(&b)), 6);
}

/* A failed parse after a good one reports only the new error. */
static void test_error_overwrites(void **state)
{
	(void)state;
	struct board b;
	char err[128];

	assert_int_equal(fen_parse(&b, "8/8/8/8/8/8/8/4K3 w - - 0 1", err, sizeof err), -1);
	assert_string_equal(err, "no black king");
	assert_int_equal(fen_parse(&b, "4k3/8/8/8/8/8/8/4K3 w - - 0 0", err, sizeof err), -1);
	assert_string_equal(err, "fullmove number must be a number from 1 to 9999");
}

/*
 * The error is one line (fen.h; chess-rules prints it as one line on
 * stderr and the server sends it on a line-based protocol), whatever byte
 * the FEN has in whichever field.
 */
static void test_error_is_one_line(void **state)
{
	(void)state;
	static const char *const templates[] = {
		"4k3/8/8/8/8/8/8/4K%c2 w - - 0 1",
		"4k3/8/8/8/8/8/8/4K3 %c - - 0 1",
		"4k3/8/8/8/8/8/8/4K2R w K%c - 0 1",
		"4k3/8/8/8/8/8/8/4K3 w - e%c 0 1",
		"4k3/8/8/8/8/8/8/4K3 w - - 1%c 1",
	};
	int rejected = 0;

	for (size_t t = 0; t < sizeof templates / sizeof templates[0]; t++) {
		for (int c = 1; c < 256; c++) {
			char fen[64], err[128] = "";
			struct board b;
			if (c == ' ')
				continue;
			snprintf(fen, sizeof fen, templates[t], c);
			if (fen_parse(&b, fen, err, sizeof err) == 0)
				continue;
			rejected++;
			if (err[0] == '\0' || strpbrk(err, "\r\n"))
				fail_msg("FEN with byte 0x%02x in field %zu: error \"%s\" is not one line",
				    c, t + 1, err);
		}
	}
	assert_true(rejected > 1000);
}

struct roundtrip_stats {
	long positions;
	long with_ep;
};

static void visit_roundtrip(const struct board *b, const move *legal, int n, void *ctx)
{
	struct roundtrip_stats *st = ctx;
	char text[FEN_MAX], again[FEN_MAX], err[128];
	struct board parsed;

	(void)legal;
	(void)n;
	st->positions++;
	if (b->ep_square != SQ_NONE)
		st->with_ep++;
	fen_format(b, text);
	assert_true(strlen(text) < FEN_MAX);
	if (fen_parse(&parsed, text, err, sizeof err) < 0)
		fail_msg("own output \"%s\" rejected: %s", text, err);
	fen_format(&parsed, again);
	assert_string_equal(again, text);
	assert_memory_equal(parsed.squares, b->squares, sizeof b->squares);
	assert_memory_equal(parsed.by_type, b->by_type, sizeof b->by_type);
	assert_memory_equal(parsed.by_color, b->by_color, sizeof b->by_color);
	assert_int_equal(parsed.side, b->side);
	assert_int_equal(parsed.castling, b->castling);
	assert_int_equal(parsed.ep_square, b->ep_square);
	assert_int_equal(parsed.halfmove_clock, b->halfmove_clock);
	assert_int_equal(parsed.fullmove_number, b->fullmove_number);
	/* The key made incrementally by play equals the one set up from text. */
	assert_int_equal(parsed.key, b->key);
}

/* FEN -> board -> FEN over every position of random games. */
static void test_roundtrip_playouts(void **state)
{
	(void)state;
	uint64_t rng = 0xfe11;
	struct roundtrip_stats st = { 0 };

	for (int g = 0; g < PLAYOUT_GAMES; g++) {
		struct board b;
		board_start(&b);
		unit_playout(&b, &rng, PLAYOUT_MAX_PLIES, visit_roundtrip, &st);
	}
	print_message("round trip: %ld positions, %ld with an en passant square\n", st.positions,
	    st.with_ep);
	assert_true(st.with_ep > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_fens),
		cmocka_unit_test(test_null_and_short_buffer),
		cmocka_unit_test(test_valid_canonical),
		cmocka_unit_test(test_en_passant_kept_only_when_legal),
		cmocka_unit_test(test_dropped_ep_same_key),
		cmocka_unit_test(test_fields_parsed),
		cmocka_unit_test(test_error_overwrites),
		cmocka_unit_test(test_error_is_one_line),
		cmocka_unit_test(test_roundtrip_playouts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
