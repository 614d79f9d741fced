#include "listing.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "number.h"

#define LISTING_NAME_MIN 3
#define LISTING_NAME_MAX 17	/* FICS names are 3 to 17 letters */

static bool is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* One entry: a 4-character rating, an optional P/E, a status mark or a space, a name, flags. */
static const char *who_entry(const char *p, char *name)
{
	for (int i = 0; i < 4; i++, p++)
		if (!strchr("0123456789+-", *p) || !*p)
			return NULL;
	if (*p == 'P' || *p == 'E')
		p++;
	if (*p && strchr(" .^:~&#", *p))
		p++;
	size_t n = 0;
	while (is_letter(p[n]))
		n++;
	if (n < LISTING_NAME_MIN || n > LISTING_NAME_MAX)
		return NULL;
	memcpy(name, p, n);
	name[n] = '\0';
	p += n;
	while (*p == '(') {
		const char *close = strchr(p, ')');
		if (!close)
			return NULL;
		p = close + 1;
	}
	return *p == ' ' || !*p ? p : NULL;
}

int listing_who_names(const char *line, char names[][STYLE12_NAME_MAX], int max)
{
	int count = 0;
	const char *p = line;

	while (*p == ' ')
		p++;
	while (*p) {
		char name[STYLE12_NAME_MAX];
		if (!(p = who_entry(p, name)))
			return 0;
		if (count < max)
			memcpy(names[count++], name, sizeof name);
		while (*p == ' ')
			p++;
	}
	return count;
}

int listing_stored_game(const char *line, char *opponent, size_t opponent_len, char *color)
{
	char name[STYLE12_NAME_MAX], c, online;
	int index, n = 0;

	if (sscanf(line, NUMBER_SCAN_INT ": %c %31[A-Za-z] %c %n", &index, &c, name, &online,
	    &n) != 4 || !n || (c != 'W' && c != 'B') || (online != 'Y' && online != 'N') ||
	    line[n] != '[')
		return -1;
	snprintf(opponent, opponent_len, "%s", name);
	*color = c;
	return 0;
}
