/* The terminal the interactive client draws on: its size and what it can show. */
#ifndef CHESS_CLIENT_TERM_H
#define CHESS_CLIENT_TERM_H
#include <stdbool.h>

#define TERM_DEFAULT_ROWS 24
#define TERM_DEFAULT_COLS 80

/* Rows and columns of standard output's terminal (defaults when unknown). */
void term_size(int *rows, int *cols);
/* Whether ANSI colours are worth sending ($TERM set and not "dumb", $NO_COLOR unset). */
bool term_has_color(void);
/* Clears the screen and homes the cursor. */
void term_clear(void);
/* Erases the line the cursor is on and returns to its start. */
void term_erase_line(void);
#endif
