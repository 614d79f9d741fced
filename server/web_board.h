/*
 * The board as SVG, drawn by the server: squares, coordinates, the last
 * move marked and the pieces (the server's own artwork, in <defs>).  Each
 * square has one <rect> and one <use> with data-square="e4", so a page that
 * holds the SVG follows a game by pointing the <use> elements at other
 * pieces, with no drawing code of its own.
 */
#ifndef CHESSD_WEB_BOARD_H
#define CHESSD_WEB_BOARD_H

#include <stddef.h>

struct evbuffer;
struct evhttp_request;
struct server;
struct web_stream;

/*
 * Appends the SVG of the position in fen (all six fields, or the placement
 * alone) with the move lm (UCI; NULL or "": none) marked; -1 with a reason
 * on a bad FEN or move.
 */
int web_board_svg(struct evbuffer *out, const char *fen, const char *lm, char *err,
    size_t errlen);
/* GET /board.svg?fen=FEN&lm=UCI: any position (the same URL, the same bytes). */
void web_board_reply(struct evhttp_request *req, const char *query);
/* GET /board/{number}.svg: the live game as the web may show it now. */
void web_board_reply_live(struct server *srv, struct web_stream *st, struct evhttp_request *req,
    const char *rest);

#endif
