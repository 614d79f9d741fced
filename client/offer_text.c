#include "offer_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "number.h"

#define FIELD_MAX 32

/* The value of " key=" in a <s> line, up to the next space; "" when absent. */
static void field(const char *line, const char *key, char *out, size_t len)
{
	char pattern[16];
	const char *at;

	snprintf(pattern, sizeof pattern, " %s=", key);
	out[0] = '\0';
	if (!(at = strstr(line, pattern)))
		return;
	at += strlen(pattern);
	size_t n = strcspn(at, " ");
	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), at);
}

/* "<s> 10 w=alice ti=00 rt=1500  t=3 i=0 r=r tp=blitz c=? ...": "Seek 10: alice (1500) 3 0 rated blitz". */
static enum offer_text seek_text(const char *line, char *out, size_t len)
{
	char who[FIELD_MAX], rating[FIELD_MAX], minutes[FIELD_MAX], inc[FIELD_MAX];
	char rated[FIELD_MAX], type[FIELD_MAX], color[FIELD_MAX];
	int id;

	if (sscanf(line, "<s> " NUMBER_SCAN_INT, &id) != 1)
		return OFFER_TEXT_NONE;
	field(line, "w", who, sizeof who);
	field(line, "rt", rating, sizeof rating);
	field(line, "t", minutes, sizeof minutes);
	field(line, "i", inc, sizeof inc);
	field(line, "r", rated, sizeof rated);
	field(line, "tp", type, sizeof type);
	field(line, "c", color, sizeof color);
	if (!who[0] || !minutes[0] || !inc[0])
		return OFFER_TEXT_NONE;
	size_t digits = strspn(rating, "0123456789");
	bool unrated_player = digits == 0 || (digits == 1 && rating[0] == '0');
	snprintf(out, len, "Seek %d: %s (%.*s) %s %s %s %s%s", id, who,
	    unrated_player ? 4 : (int)digits, unrated_player ? "----" : rating, minutes, inc,
	    !strcmp(rated, "r") ? "rated" : "unrated", type[0] ? type : "game",
	    !strcmp(color, "W") ? " [white]" : !strcmp(color, "B") ? " [black]" : "");
	return OFFER_TEXT_SAID;
}

/* "<sr> 10 11" or "<pr> 7": the numbers removed. */
static enum offer_text removed_text(const char *what, const char *ids, char *out, size_t len)
{
	ids += strspn(ids, " ");
	if (!*ids || strspn(ids, "0123456789 ") != strlen(ids))
		return OFFER_TEXT_NONE;
	snprintf(out, len, "%s%s %s removed.", what, strchr(ids, ' ') ? "s" : "", ids);
	return OFFER_TEXT_SAID;
}

/* "<pf> 7 w=bob t=match p=bob (1612) alice (1500) rated blitz 5 0": "Offer 7 from bob: match ...". */
static enum offer_text pending_text(const char *line, const char *direction, char *out,
    size_t len)
{
	char who[FIELD_MAX], type[FIELD_MAX];
	const char *params = strstr(line, " p=");
	int id;

	if (sscanf(line + 5, NUMBER_SCAN_INT, &id) != 1)
		return OFFER_TEXT_NONE;
	field(line, "w", who, sizeof who);
	field(line, "t", type, sizeof type);
	if (!who[0] || !type[0])
		return OFFER_TEXT_NONE;
	snprintf(out, len, "Offer %d %s %s: %s%s%s", id, direction, who, type,
	    params ? " " : "", params ? params + 3 : "");
	return OFFER_TEXT_SAID;
}

enum offer_text offer_text_render(const char *line, char *out, size_t len)
{
	if (!len)
		return OFFER_TEXT_NONE;
	out[0] = '\0';
	if (!strcmp(line, "<sc>"))
		return OFFER_TEXT_QUIET;
	if (!strncmp(line, "<s> ", 4))
		return seek_text(line, out, len);
	if (!strncmp(line, "<sr> ", 5))
		return removed_text("Seek", line + 5, out, len);
	if (!strncmp(line, "<pr> ", 5))
		return removed_text("Offer", line + 5, out, len);
	if (!strncmp(line, "<pf> ", 5))
		return pending_text(line, "from", out, len);
	if (!strncmp(line, "<pt> ", 5))
		return pending_text(line, "to", out, len);
	return OFFER_TEXT_NONE;
}
