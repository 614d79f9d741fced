#include "term.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

void term_size(int *rows, int *cols)
{
	struct winsize ws;

	*rows = TERM_DEFAULT_ROWS;
	*cols = TERM_DEFAULT_COLS;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

bool term_has_color(void)
{
	const char *t = getenv("TERM");

	return t && *t && strcmp(t, "dumb") && !getenv("NO_COLOR") && isatty(STDOUT_FILENO);
}

void term_clear(void)
{
	fputs("\033[H\033[2J", stdout);
}

void term_erase_line(void)
{
	fputs("\r\033[K", stdout);
}
