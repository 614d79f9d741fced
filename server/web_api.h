/* The web API's stored things: games, players, tournaments (read-only). */
#ifndef CHESSD_WEB_API_H
#define CHESSD_WEB_API_H

#include <stdint.h>

#include <jansson.h>

struct server;
struct evhttp_request;
struct web_stream;

/* Seconds the web holds back moves of a game of this tournament (0: none). */
int web_api_delay_s(struct server *srv, int64_t tourney_id);
/* GET /game/export/{id}: PGN, or JSON with Accept: application/json; a live
 * game as far as its stream has shown it (after the delay). */
void web_api_export(struct server *srv, struct web_stream *st, struct evhttp_request *req,
    const char *id);
/* GET /api/user/{name}. */
void web_api_user(struct server *srv, struct evhttp_request *req, const char *name);
/* GET /api/games/user/{name}?max&since&until&rated&perfType: PGN or ndjson. */
void web_api_user_games(struct server *srv, struct web_stream *st, struct evhttp_request *req,
    const char *name, const char *query);
/* GET /api/games/recent?max: the last games to finish, newest first, as JSON. */
void web_api_recent(struct server *srv, struct web_stream *st, struct evhttp_request *req,
    const char *query);
/* GET /api/tourney: every tournament, with its state and round. */
void web_api_tourneys(struct server *srv, struct evhttp_request *req);
/* The tournament as /api/tourney/{id} shows it, or NULL. */
json_t *web_api_tourney_json(struct server *srv, int64_t id);
/* GET /api/tourney/{id}. */
void web_api_tourney(struct server *srv, struct evhttp_request *req, const char *id);
/* GET /tourney/{id}.trf and /tourney/{id}/round/{n}.pgn. */
void web_api_tourney_file(struct server *srv, struct web_stream *st, struct evhttp_request *req,
    const char *rest);

#endif
