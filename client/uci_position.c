#include "uci_position.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"

#define UCI_MOVE_CHARS 5		/* "e7e8q" */
#define HEAD_MAX (sizeof "fen " - 1 + FEN_MAX + sizeof " moves" - 1)

/* Room for the longest text is taken once: the bound makes it small enough. */
struct uci_position {
	int plies;
	size_t len;
	char text[HEAD_MAX + (size_t)UCI_POSITION_PLIES_MAX * (1 + UCI_MOVE_CHARS) + 1];
};

struct uci_position *uci_position_new(void)
{
	return calloc(1, sizeof(struct uci_position));
}

void uci_position_free(struct uci_position *p)
{
	free(p);
}

void uci_position_reset(struct uci_position *p, const struct board *b)
{
	char fen[FEN_MAX];

	fen_format(b, fen);
	if (!strcmp(fen, FEN_START))
		p->len = (size_t)snprintf(p->text, sizeof p->text, "startpos moves");
	else
		p->len = (size_t)snprintf(p->text, sizeof p->text, "fen %s moves", fen);
	p->plies = 0;
}

int uci_position_add(struct uci_position *p, move m)
{
	char uci[MOVE_TEXT_MAX];

	move_format_uci(m, uci);
	size_t n = strlen(uci);
	if (p->plies >= UCI_POSITION_PLIES_MAX || n > UCI_MOVE_CHARS || !p->len)
		return -1;
	p->text[p->len++] = ' ';
	memcpy(p->text + p->len, uci, n + 1);
	p->len += n;
	p->plies++;
	return 0;
}

int uci_position_plies(const struct uci_position *p)
{
	return p->plies;
}

const char *uci_position_text(const struct uci_position *p)
{
	return p->text;
}
