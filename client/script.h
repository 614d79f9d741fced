/*
 * Non-interactive mode: commands in (a file, or standard input when it is
 * not a terminal), server lines out on standard output, one per line.  Each
 * command waits for its reply before the next goes.  Two directives help
 * scripts: "#wait TEXT" waits for a server line containing TEXT (exit 4
 * after SCRIPT_WAIT_SECONDS), "#sleep SECONDS" pauses; other "#" lines are
 * comments.  At the end of the input the client says "quit".
 */
#ifndef CHESS_CLIENT_SCRIPT_H
#define CHESS_CLIENT_SCRIPT_H
#include "ics.h"
#include "san.h"

#define SCRIPT_WAIT_SECONDS 60
#define SCRIPT_BACKLOG_LINES 2000	/* lines kept for a #wait that starts late */

struct script;

/* path NULL reads standard input; NULL and why on failure. */
struct script *script_new(struct event_base *base, const char *path, enum san_lang lang,
    char *why, size_t why_len);
const struct ics_handler *script_handler(void);
void script_attach(struct script *s, struct ics *c);
/* The exit code once the loop is over. */
enum ics_exit script_exit_code(const struct script *s);
void script_free(struct script *s);
#endif
