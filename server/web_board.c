/*
 * Boards as SVG.  The pieces are drawn here (simple shapes on a 45-unit
 * square, made for chessd), once per colour as a <symbol>; every square
 * then has a <rect> and a <use> naming the piece on it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/queue.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "fen.h"
#include "game.h"
#include "limit.h"
#include "number.h"
#include "server.h"
#include "web_board.h"
#include "web_http.h"
#include "web_stream.h"

#define SQUARE 45
#define BOARD_TYPE "image/svg+xml; charset=utf-8"

/* Each shape takes its fill and outline from the symbol; details use currentColor. */
static const char *const shapes[TYPE_NB] = {
	[PAWN] = "<path d=\"M16 36C17 29 19.5 25 20 21h5c.5 4 3 8 4 15z\"/>"
	    "<rect x=\"16\" y=\"18.5\" width=\"13\" height=\"3\" rx=\"1.5\"/>"
	    "<circle cx=\"22.5\" cy=\"13\" r=\"5.5\"/>"
	    "<rect x=\"11\" y=\"35\" width=\"23\" height=\"4\" rx=\"2\"/>",
	[KNIGHT] = "<rect x=\"9\" y=\"35\" width=\"27\" height=\"4\" rx=\"2\"/>"
	    "<path d=\"M14 35c0-7 5-10 6-13-3 1-6 3-8 4-3 0-4-3-3-5 3-5 6-9 9-11l-1-4 3 2.5 2-3.5 "
	    "2 4c7 1 11 8 10 26z\"/>"
	    "<circle cx=\"16.5\" cy=\"14\" r=\"1.4\" fill=\"currentColor\" stroke=\"none\"/>"
	    "<path d=\"M25 12c3 3 5 9 5 20\" fill=\"none\" stroke=\"currentColor\"/>",
	[BISHOP] = "<rect x=\"10\" y=\"35\" width=\"25\" height=\"4\" rx=\"2\"/>"
	    "<path d=\"M15 34c-2-7 1-13 7.5-22 6.5 9 9.5 15 7.5 22z\"/>"
	    "<rect x=\"14\" y=\"31\" width=\"17\" height=\"3.5\" rx=\"1\"/>"
	    "<circle cx=\"22.5\" cy=\"9\" r=\"3\"/>"
	    "<path d=\"M22.5 18v8M18.5 22h8\" fill=\"none\" stroke=\"currentColor\"/>",
	[ROOK] = "<rect x=\"9\" y=\"35\" width=\"27\" height=\"4\" rx=\"1\"/>"
	    "<rect x=\"12\" y=\"31\" width=\"21\" height=\"4\"/>"
	    "<rect x=\"14\" y=\"16\" width=\"17\" height=\"15\"/>"
	    "<path d=\"M11 16V8h4v3h4.5V8h6v3H30V8h4v8z\"/>"
	    "<path d=\"M14 19h17M14 28h17\" fill=\"none\" stroke=\"currentColor\"/>",
	[QUEEN] = "<rect x=\"9\" y=\"35\" width=\"27\" height=\"4\" rx=\"2\"/>"
	    "<path d=\"M11 34L8 13l6 11 1-14 4 12 3.5-14L26 22l4-12 1 14 6-11-3 21z\"/>"
	    "<circle cx=\"8\" cy=\"12\" r=\"2.2\"/><circle cx=\"15\" cy=\"9\" r=\"2.2\"/>"
	    "<circle cx=\"22.5\" cy=\"7\" r=\"2.2\"/><circle cx=\"30\" cy=\"9\" r=\"2.2\"/>"
	    "<circle cx=\"37\" cy=\"12\" r=\"2.2\"/>"
	    "<path d=\"M11.5 30h22\" fill=\"none\" stroke=\"currentColor\"/>",
	[KING] = "<rect x=\"9\" y=\"35\" width=\"27\" height=\"4\" rx=\"2\"/>"
	    "<path d=\"M21 4h3v4h3v3h-3v5h-3v-5h-3V8h3z\"/>"
	    "<path d=\"M22.5 24c-2-3-2.5-5-2.5-8h5c0 3-.5 5-2.5 8z\"/>"
	    "<path d=\"M11 34C8 26 10 19 16.5 19c3 0 6 2 6 5 0-3 3-5 6-5C35 19 37 26 34 34z\"/>"
	    "<path d=\"M12 30h21\" fill=\"none\" stroke=\"currentColor\"/>",
};

static const char letters[TYPE_NB] = { [PAWN] = 'P', [KNIGHT] = 'N', [BISHOP] = 'B',
    [ROOK] = 'R', [QUEEN] = 'Q', [KING] = 'K' };

/* The symbols: chessd-wP .. chessd-bK, and chessd-none for an empty square. */
static void add_defs(struct evbuffer *out)
{
	evbuffer_add_printf(out, "<defs><symbol id=\"chessd-none\" viewBox=\"0 0 %d %d\"/>",
	    SQUARE, SQUARE);
	for (int c = WHITE; c <= BLACK; c++)
		for (int t = PAWN; t <= KING; t++)
			evbuffer_add_printf(out, "<symbol id=\"chessd-%c%c\" viewBox=\"0 0 %d %d\">"
			    "<g fill=\"%s\" stroke=\"#000\" color=\"%s\" stroke-width=\"1.5\" "
			    "stroke-linejoin=\"round\">%s</g></symbol>", c == WHITE ? 'w' : 'b',
			    letters[t], SQUARE, SQUARE, c == WHITE ? "#fff" : "#222",
			    c == WHITE ? "#000" : "#eee", shapes[t]);
	evbuffer_add_printf(out, "</defs>");
}

/* Reads a square name ("e4") into sq; false when it is none. */
static bool square_parse(const char *text, int *sq)
{
	if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
		return false;
	*sq = square_make(text[0] - 'a', text[1] - '1');
	return true;
}

int web_board_svg(struct evbuffer *out, const char *fen, const char *lm, char *err,
    size_t errlen)
{
	struct board b;
	char full[FEN_MAX + 16];
	int from = SQ_NONE, to = SQ_NONE;

	/* The placement alone is enough to draw. */
	if (strlen(fen) > FEN_MAX) {
		snprintf(err, errlen, "the FEN is too long");
		return -1;
	}
	snprintf(full, sizeof full, "%s%s", fen, strchr(fen, ' ') ? "" : " w - - 0 1");
	if (fen_parse(&b, full, err, errlen) < 0)
		return -1;
	fen_format(&b, full);	/* canonical: only FEN's own characters go in the label */
	if (lm && *lm) {
		size_t n = strlen(lm);
		if ((n != 4 && n != 5) || !square_parse(lm, &from) || !square_parse(lm + 2, &to) ||
		    (n == 5 && !strchr("qrbn", lm[4]))) {
			snprintf(err, errlen, "lm is a move in UCI, like e2e4");
			return -1;
		}
	}
	evbuffer_add_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "viewBox=\"0 0 %d %d\" class=\"chessd-board\" role=\"img\" aria-label=\"%s\">"
	    "<style>.chessd-light.chessd-last{fill:#cdd26a}.chessd-dark.chessd-last{fill:#aaa23a}"
	    "</style>", 8 * SQUARE, 8 * SQUARE, full);
	add_defs(out);
	/* White at the bottom: rank 8 is the top row. */
	for (int row = 0; row < 8; row++)
		for (int file = 0; file < 8; file++) {
			int sq = square_make(file, 7 - row), x = file * SQUARE, y = row * SQUARE;
			bool light = (row + file) % 2 == 0;
			int p = b.squares[sq];
			char name[3] = { (char)('a' + file), (char)('1' + 7 - row), '\0' };
			evbuffer_add_printf(out, "<rect class=\"chessd-sq chessd-%s%s\" "
			    "data-square=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			    "fill=\"%s\"/>", light ? "light" : "dark",
			    sq == from || sq == to ? " chessd-last" : "", name, x, y, SQUARE, SQUARE,
			    light ? "#f0d9b5" : "#b58863");
			if (file == 0)
				evbuffer_add_printf(out, "<text x=\"%d\" y=\"%d\" font-size=\"9\" "
				    "font-family=\"sans-serif\" fill=\"%s\">%c</text>", x + 2, y + 10,
				    light ? "#b58863" : "#f0d9b5", name[1]);
			if (row == 7)
				evbuffer_add_printf(out, "<text x=\"%d\" y=\"%d\" font-size=\"9\" "
				    "font-family=\"sans-serif\" fill=\"%s\">%c</text>", x + SQUARE - 8,
				    y + SQUARE - 3, light ? "#b58863" : "#f0d9b5", name[0]);
			if (piece_type_of(p) == NO_TYPE)
				evbuffer_add_printf(out, "<use data-square=\"%s\" href=\"#chessd-none\" "
				    "x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", name, x, y, SQUARE,
				    SQUARE);
			else
				evbuffer_add_printf(out, "<use data-square=\"%s\" href=\"#chessd-%c%c\" "
				    "x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", name,
				    piece_color(p) == WHITE ? 'w' : 'b', letters[piece_type_of(p)], x, y,
				    SQUARE, SQUARE);
		}
	evbuffer_add_printf(out, "</svg>\n");
	return 0;
}

/* Sends the SVG, or a 400 naming what is wrong. */
static void reply_svg(struct evhttp_request *req, const char *fen, const char *lm,
    const char *cache)
{
	struct evbuffer *out = evbuffer_new();
	char err[160];

	if (!out) {
		web_reply_error(req, 500, "out of memory");
		return;
	}
	if (web_board_svg(out, fen, lm, err, sizeof err) < 0) {
		evbuffer_free(out);
		web_reply_error(req, 400, err);
		return;
	}
	evhttp_add_header(evhttp_request_get_output_headers(req), "Cache-Control", cache);
	web_reply_body(req, BOARD_TYPE, out);
}

void web_board_reply(struct evhttp_request *req, const char *query)
{
	struct evkeyvalq q;

	TAILQ_INIT(&q);
	if (!query || evhttp_parse_query_str(query, &q) < 0) {
		web_reply_error(req, 400, "fen is needed");
		return;
	}
	const char *fen = evhttp_find_header(&q, "fen"), *lm = evhttp_find_header(&q, "lm");
	if (!fen)
		web_reply_error(req, 400, "fen is needed");
	else	/* The same query draws the same board: caches may keep it. */
		reply_svg(req, fen, lm, "public, max-age=31536000, immutable");
	evhttp_clear_headers(&q);
}

void web_board_reply_live(struct server *srv, struct web_stream *st, struct evhttp_request *req,
    const char *rest)
{
	long number;
	char text[16];
	size_t n = strlen(rest);

	if (n < 5 || n - 4 >= sizeof text || strcmp(rest + n - 4, ".svg")) {
		web_reply_error(req, 404, "not found");
		return;
	}
	snprintf(text, sizeof text, "%.*s", (int)(n - 4), rest);
	if (web_number(text, 1, LIMIT_GAMES, &number) != NUMBER_OK) {
		web_reply_error(req, 400, "a game number is a whole number from 1");
		return;
	}
	/* The game on the registry by its number, its board as its stream shows it;
	 * one that left the registry while its end is delayed, by a walk of all. */
	struct game *live = games_find(server_games(srv), (int)number);
	json_t *d = live && !game_examine(live) ? web_stream_game_json(st, game_id(live)) : NULL;
	json_t *games = d ? NULL : web_stream_live_games(st), *g;
	size_t i;
	json_array_foreach(games, i, g) {
		if (json_integer_value(json_object_get(g, "number")) == number) {
			d = json_incref(g);
			break;
		}
	}
	json_decref(games);
	if (!d) {
		web_reply_error(req, 404, "no such live game");
		return;
	}
	json_t *lm = json_object_get(d, "lastMove");
	reply_svg(req, json_string_value(json_object_get(d, "fen")), lm ? json_string_value(lm) : NULL,
	    "no-cache");
	json_decref(d);
}
