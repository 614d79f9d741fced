/* Settings: set, iset, style, variables, ivariables, alias, unalias. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blkcmd.h"
#include "cmd.h"
#include "config.h"
#include "db.h"
#include "formula.h"
#include "number.h"
#include "offer.h"
#include "server.h"
#include "session.h"
#include "var.h"

/* lasker's sentence for a yes/no variable it names (variable.c's set_*). */
static const struct {
	enum var_id id;
	const char *on, *off;
} switch_texts[] = {
	{ VAR_SHOUT, "You will now hear shouts.", "You will not hear shouts." },
	{ VAR_CSHOUT, "You will now hear cshouts.", "You will not hear cshouts." },
	{ VAR_KIBITZ, "You will now hear kibitzes.", "You will not hear kibitzes." },
	{ VAR_TELL, "You will now hear tells from unregistered users.",
	    "You will not hear tells from unregistered users." },
	{ VAR_PIN, "You will now hear logins/logouts.", "You will not hear logins/logouts." },
	{ VAR_GIN, "You will now hear game results.", "You will not hear game results." },
	{ VAR_SEEK, "You will now hear ads.", "You will not hear ads." },
	{ VAR_OPEN, "You are now open to receive match requests.",
	    "You are no longer receiving match requests." },
	{ VAR_BELL, "Bell on.", "Bell off." },
	{ VAR_PRIVATE, "Your games will be private.", "Your games may not be private." },
	{ VAR_FLIP, "Flip on.", "Flip off." },
	{ VAR_MAILMESS, "Your messages will be mailed to you.",
	    "Your messages will not be mailed to you." },
};

/* lasker's piece names in "Promotion piece set to QUEEN." */
static const char *promote_name(const char *letter)
{
	switch (letter[0]) {
	case 'r':
		return "ROOK";
	case 'b':
		return "BISHOP";
	case 'n':
		return "KNIGHT";
	default:
		return "QUEEN";
	}
}

/* The confirmation lasker's set_* prints, else "X set to V." for what it lacks. */
static void confirm(struct session *s, enum var_id id)
{
	const struct var_def *d = var_def(id);
	char buf[32];
	int v = session_var(s, id);
	const char *text = var_values_text(session_vars(s), id, buf, sizeof buf);

	for (size_t i = 0; i < sizeof switch_texts / sizeof switch_texts[0]; i++)
		if (switch_texts[i].id == id) {
			session_printf(s, "%s\n", v ? switch_texts[i].on : switch_texts[i].off);
			return;
		}
	switch (id) {
	case VAR_STYLE:
		session_printf(s, "Style %d set.\n", v);
		return;
	case VAR_WIDTH:
		session_printf(s, "Width set to %d.\n", v);
		return;
	case VAR_HEIGHT:
		session_printf(s, "Height set to %d.\n", v);
		return;
	case VAR_TIME:
		session_printf(s, "Default time set to %d.\n", v);
		return;
	case VAR_INC:
		session_printf(s, "Default increment set to %d.\n", v);
		return;
	case VAR_KIBLEVEL:
		session_printf(s, "Kibitz level now set to: %d.\n", v);
		return;
	case VAR_HIGHLIGHT:
		if (v)
			session_printf(s, "Highlight is now style %d.\n", v);
		else
			session_printf(s, "Highlight is off.\n");
		return;
	case VAR_PROMOTE:
		session_printf(s, "Promotion piece set to %s.\n", promote_name(text));
		return;
	case VAR_LANG:
		session_printf(s, "Language set to %s.\n", text);
		return;
	case VAR_BUSY:
		if (*text)
			session_printf(s, "Your \"busy\" string was set to \" %s\"\n", text);
		else
			session_printf(s, "Your \"busy\" string was cleared.\n");
		return;
	case VAR_AVAILINFO:
		session_printf(s, "availinfo set to %d.\n%s\n", v, v ?
		    "You will receive info on who is available to play." :
		    "You are no longer receiving info on who is available to play.");
		return;
	case VAR_AVAILMIN:
	case VAR_AVAILMAX:
		if (id == VAR_AVAILMAX && !v)
			session_printf(s, "You will be notified of all available players.\n");
		else
			session_printf(s, "You will be notified of availability with blitz ratings "
			    "%d - %d.\n", session_var(s, VAR_AVAILMIN), session_var(s, VAR_AVAILMAX));
		return;
	case VAR_FORMULA:
		if (*var_str(session_vars(s), id))
			session_printf(s, "Formula set to %s.\n", var_str(session_vars(s), id));
		else
			session_printf(s, "Formula unset.\n");
		return;
	default:
		break;
	}
	session_printf(s, "%s set to %s.\n", d->name, text);
}

struct notes {
	char *lines[DB_FINGER_NOTES];
	int count;
};

static void keep_note(void *arg, int line, const char *text)
{
	struct notes *n = arg;

	(void)line;
	if (n->count < DB_FINGER_NOTES && (n->lines[n->count] = strdup(text)))
		n->count++;
}

/*
 * "set N TEXT" (N from 1 to 10): finger note N, as on FICS: a number past
 * the last note adds one at the end; no text clears the note and the ones
 * below move up.
 */
static void set_note(struct session *s, int which, const char *text)
{
	struct db *db = server_db(session_server(s));
	struct notes n = { { 0 }, 0 };

	if (!session_registered(s)) {
		session_printf(s, "Only registered players can have finger notes.\n");
		return;
	}
	db_notes_each(db, session_user_id(s), keep_note, &n);
	bool clear = !*text;
	if (which > n.count)
		which = n.count + 1;
	if (clear && which > n.count) {
		session_printf(s, "Plan variable %d cleared.\n", which);
		goto done;
	}
	char *copy = clear ? NULL : strdup(text);
	if (!clear && !copy)
		goto done;
	if (which > n.count)
		n.lines[n.count++] = copy;
	else if (!clear) {
		free(n.lines[which - 1]);
		n.lines[which - 1] = copy;
	} else {
		free(n.lines[which - 1]);
		memmove(&n.lines[which - 1], &n.lines[which], (size_t)(n.count - which) * sizeof n.lines[0]);
		n.lines[--n.count] = NULL;
	}
	if (db_notes_put(db, session_user_id(s), (const char *const *)n.lines, n.count) < 0 ||
	    db_commit_now(db) < 0) {
		session_printf(s, "Your notes could not be saved.\n");
		goto done;
	}
	if (clear)
		session_printf(s, "Plan variable %d cleared.\n", which);
	else
		session_printf(s, "Plan variable %d changed to '%s'.\n", which, text);
done:
	for (int i = 0; i < n.count; i++)
		free(n.lines[i]);
}

/* A formula is read through once when set, so that a bad one is refused and never stored. */
static bool valid_formula(struct session *s, const char *text)
{
	const struct limits *lim = &server_config(session_server(s))->limits;
	const struct formula_limits bounds = { lim->formula_chars, lim->formula_depth };
	char why[160];

	if (formula_check(text, &bounds, why, sizeof why) < 0) {
		session_printf(s, "%s\n", why);
		return false;
	}
	return true;
}

static void cmd_set(struct session *s, const struct cmd_args *a)
{
	int id = var_find(a->argv[0], false);
	char why[160];
	long note;

	if (number_parse(a->argv[0], 1, DB_FINGER_NOTES, &note) == NUMBER_OK) {
		set_note(s, (int)note, a->argc > 1 ? a->argv[1] : "");
		return;
	}

	if (id == -2) {
		session_printf(s, "Ambiguous variable name %s.\n", a->argv[0]);
		return;
	}
	if (id < 0) {
		session_printf(s, "No such variable name %s.\n", a->argv[0]);
		return;
	}
	/* As lasker's set_rated and set_mailmess: a guest has neither to change. */
	if (!session_registered(s) && (id == VAR_RATED || id == VAR_MAILMESS)) {
		session_printf(s, id == VAR_RATED ? "You cannot change your rated status.\n" :
		    "Unregistered players may not receive messages.\n");
		return;
	}
	const char *value = a->argc > 1 ? a->argv[1] : "";
	/* "set shout" with no value flips a yes/no variable, as on FICS. */
	if (!*value && var_def((enum var_id)id)->kind == VAR_KIND_BOOL)
		value = session_var(s, (enum var_id)id) ? "0" : "1";
	if (id == VAR_FORMULA && !valid_formula(s, value))
		return;
	if (session_set_var(s, (enum var_id)id, value, why, sizeof why) < 0) {
		session_printf(s, "%s\n", why);
		return;
	}
	confirm(s, (enum var_id)id);
}

static void cmd_iset(struct session *s, const struct cmd_args *a)
{
	int id = var_find(a->argv[0], true);
	char why[160];

	if (id < 0 || strcasecmp(var_def((enum var_id)id)->name, a->argv[0])) {
		session_printf(s, "No such ivariable \"%s\".\n", a->argv[0]);
		return;
	}
	/* xboard sets "iset lock 1" so nothing later changes what it parses. */
	if (session_var(s, IVAR_LOCK)) {
		session_printf(s, "Cannot alter: Interface setting locked.\n");
		return;
	}
	if (session_set_var(s, (enum var_id)id, a->argv[1], why, sizeof why) < 0) {
		session_printf(s, "%s\n", why);
		return;
	}
	session_printf(s, "%s %s.\n", var_def((enum var_id)id)->name,
	    session_var(s, (enum var_id)id) ? "set" : "unset");
	/* A client that starts listening to seeks gets <sc> and the current ones. */
	if (id == IVAR_SEEKINFO && session_var(s, IVAR_SEEKINFO))
		offers_send_all_seeks(server_offers(session_server(s)), s);
}

static void cmd_style(struct session *s, const struct cmd_args *a)
{
	char why[160];

	if (session_set_var(s, VAR_STYLE, a->argv[0], why, sizeof why) < 0) {
		session_printf(s, "%s\n", why);
		return;
	}
	confirm(s, VAR_STYLE);
}

/* Lists set or iset variables of a player, four to a line. */
static void list_vars(struct session *s, const struct cmd_args *a, bool ivars)
{
	struct session *who = s;
	char buf[32], cell[96];
	int col = 0;

	if (a->argc) {
		who = server_find_session(session_server(s), a->argv[0]);
		if (!who) {
			session_printf(s, "No user named \"%s\" is logged in.\n", a->argv[0]);
			return;
		}
	}
	session_printf(s, "%s settings of %s:\n\n", ivars ? "Interface variable" : "Variable",
	    session_name(who));
	for (int i = 0; i < VAR_COUNT; i++) {
		const struct var_def *d = var_def((enum var_id)i);
		if (d->ivar != ivars)
			continue;
		snprintf(cell, sizeof cell, "%s=%s", d->name,
		    var_values_text(session_vars(who), (enum var_id)i, buf, sizeof buf));
		session_printf(s, "%-19s%s", cell, ++col % 4 ? "" : "\n");
	}
	if (col % 4)
		session_printf(s, "\n");
}

static void cmd_variables(struct session *s, const struct cmd_args *a)
{
	list_vars(s, a, false);
}

static void cmd_ivariables(struct session *s, const struct cmd_args *a)
{
	list_vars(s, a, true);
}

static void show_alias(void *arg, const char *name, const char *value)
{
	session_printf(arg, "%s -> %s\n", name, value);
}

static void cmd_alias(struct session *s, const struct cmd_args *a)
{
	if (a->argc == 0) {
		session_printf(s, "Aliases:\n");
		session_each_alias(s, show_alias, s);
		return;
	}
	const char *name = a->argv[0];
	if (a->argc == 1) {
		const char *value = session_alias(s, name);
		if (value)
			session_printf(s, "%s -> %s\n", name, value);
		else
			session_printf(s, "You have no alias named \"%s\".\n", name);
		return;
	}
	if (!strcasecmp(name, "alias") || !strcasecmp(name, "unalias") || !strcasecmp(name, "quit")) {
		session_printf(s, "You cannot alias \"%s\".\n", name);
		return;
	}
	if (strlen(name) > 32 || strlen(a->argv[1]) > VAR_STRING_MAX * 4) {
		session_printf(s, "That alias is too long.\n");
		return;
	}
	bool existed = session_alias(s, name) != NULL;
	int rc = session_set_alias(s, name, a->argv[1]);
	if (rc == -2) {
		session_printf(s, "The server could not save the alias \"%s\"; it was not %s.\n", name,
		    existed ? "changed" : "set");
		return;
	}
	if (rc < 0) {
		session_printf(s, "You have too many aliases; remove one with \"unalias\".\n");
		return;
	}
	session_printf(s, "Alias \"%s\" %s.\n", name, existed ? "changed" : "set");
}

static void cmd_unalias(struct session *s, const struct cmd_args *a)
{
	if (!session_alias(s, a->argv[0])) {
		session_printf(s, "You have no alias named \"%s\".\n", a->argv[0]);
		return;
	}
	if (session_set_alias(s, a->argv[0], NULL) < 0) {
		session_printf(s, "The server could not save the removal of alias \"%s\"; it stays.\n",
		    a->argv[0]);
		return;
	}
	session_printf(s, "Alias \"%s\" unset.\n", a->argv[0]);
}

const struct cmd_entry cmd_set_entry = {
	.name = "set",
	.args = "wT",
	.code = BLKCMD_SET,
	.exec = cmd_set,
	.usage = "set <variable> [value]",
	.summary = "Change a setting",
};
const struct cmd_entry cmd_iset_entry = {
	.name = "iset",
	.args = "ww",
	.code = BLKCMD_ISET,
	.exec = cmd_iset,
	.usage = "iset <ivariable> <0|1>",
	.summary = "Change an interface setting (for client programs)",
};
const struct cmd_entry cmd_style_entry = {
	.name = "style",
	.args = "i",
	.code = BLKCMD_STYLE,
	.exec = cmd_style,
	.usage = "style <1-12>",
	.summary = "Board style (12 for clients)",
};
const struct cmd_entry cmd_variables_entry = {
	.name = "variables",
	.args = "o",
	.code = BLKCMD_VARIABLES,
	.exec = cmd_variables,
	.usage = "variables [name]",
	.summary = "Show settings",
};
const struct cmd_entry cmd_ivariables_entry = {
	.name = "ivariables",
	.args = "o",
	.code = BLKCMD_IVARIABLES,
	.exec = cmd_ivariables,
	.usage = "ivariables [name]",
	.summary = "Show interface settings",
};
const struct cmd_entry cmd_alias_entry = {
	.name = "alias",
	.args = "oT",
	.code = BLKCMD_ALIAS,
	.exec = cmd_alias,
	.usage = "alias [name [value]]",
	.summary = "Shortcuts; @ in the value stands for what follows",
};
const struct cmd_entry cmd_unalias_entry = {
	.name = "unalias",
	.args = "w",
	.code = BLKCMD_UNALIAS,
	.exec = cmd_unalias,
	.usage = "unalias <name>",
	.summary = "Remove a shortcut",
};
