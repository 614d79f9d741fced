/*
 * Live games on the web: each game's events encoded once (ndjson and SSE)
 * and shared by every viewer; published only once committed to disk and,
 * with public_delay_s, that much later.
 */
#ifndef CHESSD_WEB_STREAM_H
#define CHESSD_WEB_STREAM_H

#include <stdint.h>

#include <jansson.h>

#include "db.h"
#include "position.h"

struct server;
struct game;
struct evhttp_request;
struct evbuffer;
struct web_stream;

struct web_stream *web_stream_new(struct server *srv);
/* Forgets every viewer (their connections are the listeners' to free). */
void web_stream_free(struct web_stream *st);

void web_stream_game_changed(struct web_stream *st, struct game *g);
void web_stream_game_over(struct web_stream *st, struct game *g, enum result r,
    enum game_termination termination, enum game_status status);
void web_stream_pass_end(struct web_stream *st, uint64_t need, uint64_t durable);
void web_stream_durable(struct web_stream *st, uint64_t durable);

/* GET /api/stream/game/{number}: ndjson, or SSE when the client accepts it. */
void web_stream_game(struct web_stream *st, struct evhttp_request *req, const char *number);
/* GET /api/stream/tourney/{id}: the tournament, then again whenever one of its games
 * starts or ends (a round's pairing starts its games). */
void web_stream_tourney(struct web_stream *st, struct evhttp_request *req, const char *id);
/* GET /api/tv/feed: the featured game, switching when it ends. */
void web_stream_tv(struct web_stream *st, struct evhttp_request *req);
/* The live games as the web may show them: a JSON array. */
json_t *web_stream_live_games(struct web_stream *st);
/* The published description of the live game with this stored id, or NULL. */
json_t *web_stream_game_json(struct web_stream *st, int64_t id);
/* Prometheus lines of the streams. */
void web_stream_metrics(struct web_stream *st, struct evbuffer *out);

#endif
