#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "number.h"
#include "var.h"

static const char *const promote_choices[] = { "q", "r", "b", "n", NULL };
static const char *const lang_choices[] = { "English", "Spanish", NULL };

#define BOOL(id, n, d) [id] = { n, VAR_KIND_BOOL, false, 0, 1, d, NULL }
#define INT(id, n, lo, hi, d) [id] = { n, VAR_KIND_INT, false, lo, hi, d, NULL }
#define STR(id, n, d) [id] = { n, VAR_KIND_STRING, false, 0, 0, d, NULL }
#define IBOOL(id, n) [id] = { n, VAR_KIND_BOOL, true, 0, 1, "0", NULL }

static const struct var_def defs[VAR_COUNT] = {
	BOOL(VAR_SHOUT, "shout", "1"),
	BOOL(VAR_CSHOUT, "cshout", "1"),
	BOOL(VAR_KIBITZ, "kibitz", "1"),
	BOOL(VAR_TELL, "tell", "1"),
	BOOL(VAR_CTELL, "ctell", "1"),
	BOOL(VAR_PIN, "pin", "0"),
	BOOL(VAR_GIN, "gin", "0"),
	BOOL(VAR_SEEK, "seek", "1"),
	BOOL(VAR_OPEN, "open", "1"),
	BOOL(VAR_ROPEN, "ropen", "1"),
	BOOL(VAR_RATED, "rated", "1"),
	BOOL(VAR_BELL, "bell", "0"),
	BOOL(VAR_HIGHLIGHT, "highlight", "0"),
	INT(VAR_STYLE, "style", 1, 12, "1"),
	INT(VAR_WIDTH, "width", 32, 240, "79"),
	INT(VAR_HEIGHT, "height", 5, 240, "24"),
	BOOL(VAR_AUTOFLAG, "autoflag", "1"),
	BOOL(VAR_PRIVATE, "private", "0"),
	BOOL(VAR_FLIP, "flip", "0"),
	INT(VAR_TIME, "time", 0, 1440, "5"),
	INT(VAR_INC, "inc", 0, 600, "0"),
	INT(VAR_UNOBSERVE, "unobserve", 0, 3, "0"),
	[VAR_PROMOTE] = { "promote", VAR_KIND_CHOICE, false, 0, 0, "q", promote_choices },
	STR(VAR_INTERFACE, "interface", ""),
	[VAR_LANG] = { "Lang", VAR_KIND_CHOICE, false, 0, 0, "English", lang_choices },
	STR(VAR_FORMULA, "formula", ""),
	STR(VAR_PROMPT, "prompt", "fics%"),
	BOOL(VAR_SILENCE, "silence", "0"),
	BOOL(VAR_ECHO, "echo", "0"),
	BOOL(VAR_SHOWOWNSEEK, "showownseek", "0"),
	BOOL(VAR_MINMOVETIME, "minmovetime", "0"),
	BOOL(VAR_NOTAKEBACK, "notakeback", "0"),
	BOOL(VAR_PROVSHOW, "provshow", "0"),
	BOOL(VAR_AVAILINFO, "availinfo", "0"),
	INT(VAR_AVAILMIN, "availmin", 0, 9999, "0"),
	INT(VAR_AVAILMAX, "availmax", 0, 9999, "0"),
	STR(VAR_TZONE, "tzone", "UTC"),
	STR(VAR_BUSY, "busy", ""),
	INT(VAR_KIBLEVEL, "kiblevel", 0, 9999, "0"),
	BOOL(VAR_NOESCAPE, "noescape", "0"),
	BOOL(VAR_MAILMESS, "mailmess", "0"),
	BOOL(VAR_SEEKREMOVE_SET, "seekremove", "0"),
	IBOOL(IVAR_COMPRESSMOVE, "compressmove"),
	IBOOL(IVAR_AUDIOCHAT, "audiochat"),
	IBOOL(IVAR_SEEKREMOVE, "seekremove"),
	IBOOL(IVAR_DEFPROMPT, "defprompt"),
	IBOOL(IVAR_LOCK, "lock"),
	IBOOL(IVAR_STARTPOS, "startpos"),
	IBOOL(IVAR_BLOCK, "block"),
	IBOOL(IVAR_GAMEINFO, "gameinfo"),
	IBOOL(IVAR_XDR, "xdr"),
	IBOOL(IVAR_PENDINFO, "pendinfo"),
	IBOOL(IVAR_GRAPH, "graph"),
	IBOOL(IVAR_SEEKINFO, "seekinfo"),
	IBOOL(IVAR_EXTASCII, "extascii"),
	IBOOL(IVAR_NOHIGHLIGHT, "nohighlight"),
	IBOOL(IVAR_VTHIGHLIGHT, "vthighlight"),
	IBOOL(IVAR_SHOWSERVER, "showserver"),
	IBOOL(IVAR_PIN, "pin"),
	IBOOL(IVAR_MS, "ms"),
	IBOOL(IVAR_PINGINFO, "pinginfo"),
	IBOOL(IVAR_BOARDINFO, "boardinfo"),
	IBOOL(IVAR_EXTUSERINFO, "extuserinfo"),
	IBOOL(IVAR_SEEKCA, "seekca"),
	IBOOL(IVAR_SHOWOWNSEEK, "showownseek"),
	IBOOL(IVAR_PREMOVE, "premove"),
	IBOOL(IVAR_SMARTMOVE, "smartmove"),
	IBOOL(IVAR_MOVECASE, "movecase"),
	IBOOL(IVAR_SUICIDE, "suicide"),
	IBOOL(IVAR_CRAZYHOUSE, "crazyhouse"),
	IBOOL(IVAR_LOSERS, "losers"),
	IBOOL(IVAR_WILDCASTLE, "wildcastle"),
	IBOOL(IVAR_FR, "fr"),
	IBOOL(IVAR_NOWRAP, "nowrap"),
	IBOOL(IVAR_ALLRESULTS, "allresults"),
	IBOOL(IVAR_OBSPING, "obsping"),
	IBOOL(IVAR_SINGLEBOARD, "singleboard"),
};

const struct var_def *var_def(enum var_id id)
{
	return &defs[id];
}

int var_find(const char *name, bool ivar)
{
	size_t len = strlen(name);
	int found = -1;

	if (!len)
		return -1;
	for (int i = 0; i < VAR_COUNT; i++) {
		if (defs[i].ivar != ivar)
			continue;
		if (!strcasecmp(defs[i].name, name))
			return i;
		if (!strncasecmp(defs[i].name, name, len))
			found = found == -1 ? i : -2;
	}
	return found;
}

void var_values_init(struct var_values *v)
{
	char why[64];

	memset(v, 0, sizeof *v);
	for (int i = 0; i < VAR_COUNT; i++)
		if (defs[i].kind != VAR_KIND_STRING)
			var_values_set(v, (enum var_id)i, defs[i].def, why, sizeof why);
}

void var_values_free(struct var_values *v)
{
	for (int i = 0; i < v->string_count; i++)
		free(v->strings[i].text);
	free(v->strings);
	memset(v, 0, sizeof *v);
}

const char *var_str(const struct var_values *v, enum var_id id)
{
	for (int i = 0; i < v->string_count; i++)
		if (v->strings[i].id == id)
			return v->strings[i].text;
	return defs[id].def;
}

/* Stores a string value, replacing an earlier one. */
static int set_string(struct var_values *v, enum var_id id, const char *text)
{
	char *copy = strdup(text);

	if (!copy)
		return -1;
	for (int i = 0; i < v->string_count; i++) {
		if (v->strings[i].id == id) {
			free(v->strings[i].text);
			v->strings[i].text = copy;
			return 0;
		}
	}
	struct var_string *grown = realloc(v->strings, (v->string_count + 1u) * sizeof *grown);
	if (!grown) {
		free(copy);
		return -1;
	}
	v->strings = grown;
	v->strings[v->string_count++] = (struct var_string){ (uint8_t)id, copy };
	return 0;
}

/* Booleans accept what FICS users type: 1/0, on/off, true/false, yes/no. */
static int parse_bool(const char *text)
{
	static const char *const yes[] = { "1", "on", "true", "yes" };
	static const char *const no[] = { "0", "off", "false", "no" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(text, yes[i]))
			return 1;
		if (!strcasecmp(text, no[i]))
			return 0;
	}
	return -1;
}

int var_values_set(struct var_values *v, enum var_id id, const char *text, char *why, size_t len)
{
	const struct var_def *d = &defs[id];

	switch (d->kind) {
	case VAR_KIND_BOOL: {
		int b = parse_bool(text);
		if (b < 0) {
			snprintf(why, len, "Bad value given for variable %s.", d->name);
			return -1;
		}
		v->num[id] = (int16_t)b;
		return 0;
	}
	case VAR_KIND_INT: {
		long n;
		if (number_parse(text, d->min, d->max, &n) != NUMBER_OK) {
			snprintf(why, len, "Bad value given for variable %s (%d to %d).", d->name,
			    d->min, d->max);
			return -1;
		}
		v->num[id] = (int16_t)n;
		return 0;
	}
	case VAR_KIND_CHOICE:
		for (int i = 0; d->choices[i]; i++) {
			if (!strcasecmp(text, d->choices[i])) {
				v->num[id] = (int16_t)i;
				return 0;
			}
		}
		snprintf(why, len, "Bad value given for variable %s.", d->name);
		return -1;
	case VAR_KIND_STRING:
		if (strlen(text) > VAR_STRING_MAX) {
			snprintf(why, len, "Value for %s is too long (at most %d characters).",
			    d->name, VAR_STRING_MAX);
			return -1;
		}
		if (set_string(v, id, text) < 0) {
			snprintf(why, len, "Out of memory.");
			return -1;
		}
		return 0;
	}
	return -1;
}

const char *var_values_text(const struct var_values *v, enum var_id id, char *buf, size_t len)
{
	const struct var_def *d = &defs[id];

	switch (d->kind) {
	case VAR_KIND_STRING:
		return var_str(v, id);
	case VAR_KIND_CHOICE:
		return d->choices[v->num[id]];
	default:
		snprintf(buf, len, "%d", v->num[id]);
		return buf;
	}
}
