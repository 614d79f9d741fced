/*
 * An engine account: logs in as a computer player, keeps a seek posted (and
 * accepts challenges from a list of names), plays each game with its own
 * UCI engine process, answers draw offers by the engine's evaluation, and
 * seeks again when a game ends.  Server lines are echoed on standard output.
 */
#ifndef CHESS_CLIENT_BOT_H
#define CHESS_CLIENT_BOT_H
#include "ics.h"

#define BOT_OPTIONS_MAX 32
#define BOT_GAMES_MAX 16
/* A draw offer is accepted when the engine thinks the side it plays is no better than this. */
#define BOT_DRAW_ACCEPT_CP (-25)

struct bot_options {
	const char *engine;
	const char *options[BOT_OPTIONS_MAX];
	int option_count;
	const char *seek;		/* "MIN INC", or NULL for none */
	int max_games;
	const char *accept_from[BOT_OPTIONS_MAX];
	int accept_count;
};

struct bot;

struct bot *bot_new(struct event_base *base, const struct bot_options *o, char *why, size_t why_len);
const struct ics_handler *bot_handler(void);
void bot_attach(struct bot *b, struct ics *c);
enum ics_exit bot_exit_code(const struct bot *b);
void bot_free(struct bot *b);
#endif
