/* Examining: examine, unexamine, forward, backward, revert, mexamine,
 * bsetup (with tomove, clrsquare), wname, bname. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "account.h"
#include "blkcmd.h"
#include "cmd.h"
#include "db.h"
#include "examine.h"
#include "server.h"
#include "session.h"

/* The board s examines; NULL after saying there is none. */
static struct examine *examining(struct session *s)
{
	struct examine *ex = session_examining(s);

	if (!ex)
		session_printf(s, "You are not examining any games.\n");
	return ex;
}

/* Whether s may start examining; says why not. */
static bool free_to_examine(struct session *s)
{
	if (session_examining(s)) {
		session_printf(s, "You are already examining a game.\n");
		return false;
	}
	if (session_game(s)) {
		session_printf(s, "You are playing a game.\n");
		return false;
	}
	return true;
}

/* examine [setup | NAME [N | OPPONENT]]: a scratch board, a game from
 * NAME's history by number, or an adjourned game (which stays adjourned). */
static void cmd_examine(struct session *s, const struct cmd_args *a)
{
	struct db *db = server_db(session_server(s));
	struct db_game row;
	int number;

	if (!free_to_examine(s))
		return;
	if (!a->argc || (a->argc == 1 && !strcasecmp(a->argv[0], "setup"))) {
		examine_start_scratch(s, a->argc == 1);
		return;
	}
	const char *name = a->argv[0], *which = a->argc > 1 ? a->argv[1] : NULL;
	if (which && which[0] == '%') {
		session_printf(s, "Journal games cannot be examined on this server.\n");
		return;
	}
	if (!which || isalpha((unsigned char)which[0])) {
		const char *other = which ? which : session_name(s);
		if (!cmd_find_adjourned(session_server(s), name, other, &row)) {
			session_printf(s, "There is no adjourned game between %s and %s.\n", name, other);
			return;
		}
	} else if (!cmd_record_number(s, which, &number)) {
		return;
	} else if (db_record_find(db, name, account_games_owner(session_server(s), name), number,
	    &row) <= 0) {
		session_printf(s, "%s has no such game.\n", name);
		return;
	}
	examine_start_stored(s, &row);
}

static void cmd_unexamine(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = examining(s);

	(void)a;
	if (ex)
		examine_leave(ex, s);
}

static void cmd_forward(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = examining(s);

	if (ex)
		examine_forward(ex, s, a->argc ? a->number[0] : 1);
}

static void cmd_backward(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = examining(s);

	if (ex)
		examine_backward(ex, s, a->argc ? a->number[0] : 1);
}

static void cmd_revert(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = examining(s);

	(void)a;
	if (ex)
		examine_revert(ex, s);
}

static void cmd_commit(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = examining(s);

	(void)a;
	if (ex)
		examine_commit(ex, s);
}

static void cmd_mexamine(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = examining(s);

	if (!ex)
		return;
	struct session *who = server_find_session(session_server(s), a->argv[0]);
	if (!who) {
		session_printf(s, "No user named \"%s\" is logged in.\n", a->argv[0]);
		return;
	}
	examine_add_examiner(ex, s, who);
}

/* bsetup with nothing to examine opens a board to set up, as "examine setup". */
static void cmd_bsetup(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = session_examining(s);

	if (!ex) {
		if (a->argc) {
			session_printf(s, "You are not setting up a position.\n");
			return;
		}
		if (free_to_examine(s))
			examine_start_scratch(s, true);
		return;
	}
	examine_setup(ex, s, a->argc ? a->argv[0] : NULL);
}

static void cmd_tomove(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = examining(s);
	char args[64];

	if (!ex)
		return;
	snprintf(args, sizeof args, "tomove %s", a->argv[0]);
	examine_setup(ex, s, args);
}

static void cmd_clrsquare(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = examining(s);
	char args[64];

	if (!ex)
		return;
	snprintf(args, sizeof args, "x@%.8s", a->argv[0]);
	examine_setup(ex, s, args);
}

static void cmd_wname(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = examining(s);

	if (ex)
		examine_set_name(ex, s, WHITE, a->argc ? a->argv[0] : NULL);
}

static void cmd_bname(struct session *s, const struct cmd_args *a)
{
	struct examine *ex = examining(s);

	if (ex)
		examine_set_name(ex, s, BLACK, a->argc ? a->argv[0] : NULL);
}

const struct cmd_entry cmd_examine_entry = {
	.name = "examine",
	.args = "oo",
	.code = BLKCMD_EXAMINE,
	.exec = cmd_examine,
	.usage = "examine [setup | name [n | opponent]]",
	.summary = "Examine a game, or a board of your own",
};
const struct cmd_entry cmd_unexamine_entry = {
	.name = "unexamine",
	.args = "",
	.code = BLKCMD_UNEXAMINE,
	.exec = cmd_unexamine,
	.usage = "unexamine",
	.summary = "Stop examining",
};
const struct cmd_entry cmd_forward_entry = {
	.name = "forward",
	.args = "n",
	.code = BLKCMD_FORWARD,
	.exec = cmd_forward,
	.usage = "forward [n]",
	.summary = "Step forward through the examined game",
};
const struct cmd_entry cmd_backward_entry = {
	.name = "backward",
	.args = "n",
	.code = BLKCMD_BACKWARD,
	.exec = cmd_backward,
	.usage = "backward [n]",
	.summary = "Step back through the examined game",
};
const struct cmd_entry cmd_revert_entry = {
	.name = "revert",
	.args = "",
	.code = BLKCMD_REVERT,
	.exec = cmd_revert,
	.usage = "revert",
	.summary = "Return the examined board to its main line",
};
/* xboard sends it after uploading a game to examine. */
const struct cmd_entry cmd_commit_entry = {
	.name = "commit",
	.args = "",
	.code = BLKCMD_NULL,
	.exec = cmd_commit,
	.usage = "commit",
	.summary = "Make the examined line the main line",
};
const struct cmd_entry cmd_mexamine_entry = {
	.name = "mexamine",
	.args = "w",
	.code = BLKCMD_MEXAMINE,
	.exec = cmd_mexamine,
	.usage = "mexamine <name>",
	.summary = "Make an observer an examiner too",
};
const struct cmd_entry cmd_bsetup_entry = {
	.name = "bsetup",
	.args = "T",
	.code = BLKCMD_BSETUP,
	.exec = cmd_bsetup,
	.usage = "bsetup [fen F | clear | start | tomove C | wcastle R | bcastle R | eppos F | done]",
	.summary = "Set up a position on the examined board",
};
const struct cmd_entry cmd_tomove_entry = {
	.name = "tomove",
	.args = "w",
	.code = BLKCMD_TOMOVE,
	.exec = cmd_tomove,
	.usage = "tomove white|black",
	.summary = "Say who moves in the position set up",
};
const struct cmd_entry cmd_clrsquare_entry = {
	.name = "clrsquare",
	.args = "w",
	.code = BLKCMD_CLRSQUARE,
	.exec = cmd_clrsquare,
	.usage = "clrsquare <square>",
	.summary = "Empty a square of the position set up",
};
const struct cmd_entry cmd_wname_entry = {
	.name = "wname",
	.args = "o",
	.code = BLKCMD_WNAME,
	.exec = cmd_wname,
	.usage = "wname [name]",
	.summary = "Name White on the examined board",
};
const struct cmd_entry cmd_bname_entry = {
	.name = "bname",
	.args = "o",
	.code = BLKCMD_BNAME,
	.exec = cmd_bname,
	.usage = "bname [name]",
	.summary = "Name Black on the examined board",
};
