/*
 * A UCI engine process (Stockfish or any other) driven over a socket pair:
 * "uci", options, "isready", then per move "position ..." and
 * "go wtime btime winc binc"; "bestmove" comes back through a callback with
 * the last "info score" kept as the engine's evaluation.
 */
#ifndef CHESS_CLIENT_ENGINE_H
#define CHESS_CLIENT_ENGINE_H
#include <stdbool.h>
#include <stddef.h>

#define ENGINE_LINE_MAX 8192
#define ENGINE_MATE_CP 100000	/* a mate in n scores this less n */
#define ENGINE_QUIT_WAIT_MS 1000	/* after "quit", then SIGKILL */

struct event_base;
struct engine;

struct engine_callbacks {
	void (*bestmove)(void *arg, const char *uci);
	void (*died)(void *arg, const char *why);
};

/* Starts path with options "NAME=VALUE"; NULL and why on failure. */
struct engine *engine_new(struct event_base *base, const char *path, const char *const *options,
    int option_count, const struct engine_callbacks *cb, void *arg, char *why, size_t why_len);
void engine_new_game(struct engine *e);
/* position: "startpos moves e2e4 ..." or "fen FEN moves ..."; clocks in ms. */
void engine_go(struct engine *e, const char *position, long long wtime_ms, long long btime_ms,
    long long winc_ms, long long binc_ms);
/* The last score in centipawns, from the side to move of the last search. */
bool engine_score_cp(const struct engine *e, int *cp);
/* Sends "quit", waits a moment, kills if need be; safe on NULL. */
void engine_free(struct engine *e);
#endif
