/*
 * FICS variables (`set`, kept for registered users) and interface variables
 * (`iset`, per session): names, kinds, defaults and validation.
 */
#ifndef CHESSD_VAR_H
#define CHESSD_VAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum var_id {
	/* set */
	VAR_SHOUT, VAR_CSHOUT, VAR_KIBITZ, VAR_TELL, VAR_CTELL, VAR_PIN, VAR_GIN,
	VAR_SEEK, VAR_OPEN, VAR_ROPEN, VAR_RATED, VAR_BELL, VAR_HIGHLIGHT, VAR_STYLE,
	VAR_WIDTH, VAR_HEIGHT, VAR_AUTOFLAG, VAR_PRIVATE, VAR_FLIP, VAR_TIME, VAR_INC,
	VAR_UNOBSERVE, VAR_PROMOTE, VAR_INTERFACE, VAR_LANG, VAR_FORMULA, VAR_PROMPT,
	VAR_SILENCE, VAR_ECHO, VAR_SHOWOWNSEEK, VAR_MINMOVETIME, VAR_NOTAKEBACK,
	VAR_PROVSHOW, VAR_AVAILINFO, VAR_AVAILMIN, VAR_AVAILMAX, VAR_TZONE, VAR_BUSY,
	VAR_KIBLEVEL, VAR_NOESCAPE, VAR_MAILMESS, VAR_SEEKREMOVE_SET,
	/* iset */
	IVAR_COMPRESSMOVE, IVAR_AUDIOCHAT, IVAR_SEEKREMOVE, IVAR_DEFPROMPT, IVAR_LOCK,
	IVAR_STARTPOS, IVAR_BLOCK, IVAR_GAMEINFO, IVAR_XDR, IVAR_PENDINFO, IVAR_GRAPH,
	IVAR_SEEKINFO, IVAR_EXTASCII, IVAR_NOHIGHLIGHT, IVAR_VTHIGHLIGHT, IVAR_SHOWSERVER,
	IVAR_PIN, IVAR_MS, IVAR_PINGINFO, IVAR_BOARDINFO, IVAR_EXTUSERINFO, IVAR_SEEKCA,
	IVAR_SHOWOWNSEEK, IVAR_PREMOVE, IVAR_SMARTMOVE, IVAR_MOVECASE, IVAR_SUICIDE,
	IVAR_CRAZYHOUSE, IVAR_LOSERS, IVAR_WILDCASTLE, IVAR_FR, IVAR_NOWRAP,
	IVAR_ALLRESULTS, IVAR_OBSPING, IVAR_SINGLEBOARD,
	VAR_COUNT
};

#define VAR_STRING_MAX 64	/* longest string value accepted */

enum var_kind { VAR_KIND_BOOL, VAR_KIND_INT, VAR_KIND_STRING, VAR_KIND_CHOICE };

struct var_def {
	const char *name;
	enum var_kind kind;
	bool ivar;
	int min, max;			/* ints */
	const char *def;		/* default, as text */
	const char *const *choices;	/* choice values, NULL-terminated */
};

/*
 * Per-session values: numbers for bools/ints/choices (every value fits 16
 * bits); the few string values a session has set, in a small list, and the
 * default text for the others.  Kept small: every connection has one.
 */
struct var_string {
	uint8_t id;
	char *text;
};

struct var_values {
	int16_t num[VAR_COUNT];
	uint8_t string_count;
	struct var_string *strings;
};

const struct var_def *var_def(enum var_id id);
/* Looks a name up among set (ivar false) or iset (ivar true) names: exact
 * match first, then a unique prefix.  -1 unknown, -2 ambiguous. */
int var_find(const char *name, bool ivar);

void var_values_init(struct var_values *v);
void var_values_free(struct var_values *v);
/* Validates and stores text; on error returns -1 with a one-line reason. */
int var_values_set(struct var_values *v, enum var_id id, const char *text, char *why, size_t len);
/* The value as text (for listing and persisting) into buf. */
const char *var_values_text(const struct var_values *v, enum var_id id, char *buf, size_t len);
static inline int var_num(const struct var_values *v, enum var_id id) { return v->num[id]; }
/* A string variable's value (its default until set). */
const char *var_str(const struct var_values *v, enum var_id id);

#endif
