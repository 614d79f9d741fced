/*
 * Commands: one table of entries (name, arguments, flags, handler, usage).
 * Matching, argument checks and permission checks happen here, before any
 * handler runs, so every handler has one signature and trusts its input.
 */
#ifndef CHESSD_CMD_H
#define CHESSD_CMD_H

#include <stdbool.h>

struct db;
struct db_game;
struct game;
struct server;
struct session;

#define CMD_ARGS_MAX 8

enum cmd_flags {
	CMD_REGISTERED = 1,	/* registered players only */
	CMD_ADMIN = 2,		/* admins only (others see "Command not found") */
	CMD_HIDDEN = 4,		/* not listed by help */
	/* The game is resolved before the handler and handed to it in cmd_args: */
	CMD_PLAYING = 8,	/* the user's own game; refused when not playing */
	CMD_GAME_ARG = 16,	/* argv[0] names a game (number or player); none: one's own
				 * or the one observed */
	CMD_ADMIN_TOLD = 32,	/* admins only; others are told so in one line */
};

/*
 * Argument letters, FICS style: w a word, o an optional word, i an integer,
 * n an optional integer, S the rest of the line (required), T the rest of
 * the line (optional).  An i or n argument is a whole number from 0 to
 * INT_MAX, checked before the handler runs and given in number[].
 */
struct cmd_args {
	int argc;
	const char *argv[CMD_ARGS_MAX];
	int number[CMD_ARGS_MAX];	/* the value of argv[k] when its letter is i or n */
	const char *rest;	/* the text after the command word */
	struct game *game;	/* with CMD_PLAYING or CMD_GAME_ARG: never NULL */
};

struct cmd_entry {
	const char *name;
	const char *args;
	int flags;
	int code;		/* FICS block-mode command code */
	void (*exec)(struct session *s, const struct cmd_args *a);
	const char *usage;
	const char *summary;	/* one line for "help" */
};

/* Runs one line typed by a logged-in user. */
void cmd_execute(struct session *s, char *line);
/* Looks a command up by exact name or unique prefix; NULL if none or ambiguous. */
const struct cmd_entry *cmd_find(const char *name);
/* Calls fn for each command the session may use, in table order. */
void cmd_each(const struct session *s, void (*fn)(const struct cmd_entry *e, void *arg), void *arg);

/* Plays line as a move when it looks like one; false when it is not a move. */
bool cmd_try_move(struct session *s, const char *line);
/* A game named by number or player (NULL: the user's own); NULL after an error line. */
struct game *cmd_find_game(struct session *s, const char *which);

/* The game number a record command was given (NULL: DB_RECORD_LATEST); false after an error line. */
bool cmd_record_number(struct session *s, const char *text, int *number);
/* The game NAME has adjourned with OPPONENT, as stored lists it (into found). */
bool cmd_find_adjourned(struct server *srv, const char *name, const char *opponent,
    struct db_game *found);
/* "match NAME" with no terms resumes an adjourned game with NAME, as in FICS:
 * true if there was one (and the request was made or answered). */
bool cmd_resume_adjourned(struct session *s, const char *opponent);

/* What a user is told on logging in after the motd (stored messages). */
void cmd_login_notices(struct session *s);

/* "help channel_list": the channels that have a purpose. */
void cmd_help_channels(struct session *s);
/* "help tourney": the tournament subcommands (cmd_tourney.c). */
void cmd_help_tourney(struct session *s);

#endif
