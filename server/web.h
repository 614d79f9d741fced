/*
 * The web face: HTTP and HTTPS on the server's event loop (evhttp), a
 * read-only API shaped like lichess's, and live streams of games.  What
 * the web shows of a game is what was committed, after public_delay_s.
 */
#ifndef CHESSD_WEB_H
#define CHESSD_WEB_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "position.h"

struct server;
struct tls;
struct game;
struct web;

/* Listens on the configured web ports (none when both are 0); NULL with a reason. */
struct web *web_new(struct server *srv, struct tls *tls, char *err, size_t errlen);
void web_free(struct web *w);

/* A game started, resumed, moved or took back: its state as the players see it. */
void web_game_changed(struct web *w, struct game *g);
/* A game ended (before it leaves the registry). */
void web_game_over(struct web *w, struct game *g, enum result r,
    enum game_termination termination, enum game_status status);
/* The end of a loop pass: what changed in it waits for commit `need`. */
void web_pass_end(struct web *w, uint64_t need, uint64_t durable);
/* Commits up to `durable` are on disk. */
void web_durable(struct web *w, uint64_t durable);

#endif
