#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "limit.h"
#include "number.h"
#include "session.h"

/* Examine mode (cmd_examine.c). */
extern const struct cmd_entry cmd_backward_entry, cmd_bname_entry, cmd_bsetup_entry,
    cmd_clrsquare_entry, cmd_commit_entry, cmd_examine_entry, cmd_forward_entry,
    cmd_mexamine_entry, cmd_revert_entry, cmd_tomove_entry, cmd_unexamine_entry,
    cmd_wname_entry;
extern const struct cmd_entry cmd_abort_entry, cmd_accept_entry, cmd_adjourn_entry,
    cmd_allobservers_entry, cmd_decline_entry, cmd_draw_entry, cmd_flag_entry, cmd_follow_entry,
    cmd_games_entry, cmd_history_entry, cmd_journal_entry, cmd_kibitz_entry, cmd_match_entry,
    cmd_moves_entry, cmd_observe_entry, cmd_oldmoves_entry, cmd_pending_entry, cmd_pgn_entry,
    cmd_play_entry, cmd_refresh_entry, cmd_rematch_entry, cmd_resign_entry, cmd_resume_entry,
    cmd_seek_entry, cmd_smoves_entry, cmd_sought_entry, cmd_stored_entry, cmd_takeback_entry,
    cmd_unobserve_entry, cmd_unseek_entry, cmd_whisper_entry, cmd_withdraw_entry,
    cmd_gameend_entry, cmd_adjudicate_entry, cmd_remplayer_entry;
extern const struct cmd_entry cmd_moretime_entry, cmd_pause_entry, cmd_switch_entry,
    cmd_time_entry, cmd_unpause_entry;
extern const struct cmd_entry cmd_addcomment_entry, cmd_adminlog_entry, cmd_announce_entry,
    cmd_asetpasswd_entry, cmd_assess_entry, cmd_banaddress_entry, cmd_clearmessages_entry,
    cmd_lag_entry, cmd_message_entry, cmd_messages_entry, cmd_nuke_entry, cmd_ping_entry,
    cmd_showcomment_entry, cmd_shutdown_entry, cmd_unbanaddress_entry, cmd_whenshut_entry;
extern const struct cmd_entry cmd_tourney_entry;
extern const struct cmd_entry cmd_cshout_entry, cmd_it_entry;
extern const struct cmd_entry cmd_best_entry, cmd_hbest_entry, cmd_rank_entry, cmd_hrank_entry;
extern const struct cmd_entry cmd_next_entry;
extern const struct cmd_entry cmd_handles_entry, cmd_limits_entry, cmd_password_entry,
    cmd_reply_entry;
extern const struct cmd_entry cmd_addlist_entry, cmd_sublist_entry, cmd_znotify_entry;
extern const struct cmd_entry cmd_addnews_entry, cmd_alias_entry, cmd_date_entry,
    cmd_finger_entry, cmd_help_entry, cmd_iset_entry, cmd_inchannel_entry,
    cmd_ivariables_entry, cmd_join_entry, cmd_leave_entry, cmd_mychannels_entry,
    cmd_news_entry, cmd_passwd_entry, cmd_quit_entry, cmd_register_entry, cmd_say_entry,
    cmd_set_entry, cmd_shout_entry, cmd_showlist_entry, cmd_style_entry, cmd_tell_entry,
    cmd_unalias_entry, cmd_uptime_entry, cmd_variables_entry, cmd_who_entry,
    cmd_xtell_entry;

/* The one command table; "help" lists it in name order (cmd_each sorts it). */
static const struct cmd_entry *const table[] = {
	/* examine mode */
	&cmd_backward_entry, &cmd_bname_entry, &cmd_bsetup_entry, &cmd_clrsquare_entry,
	&cmd_commit_entry, &cmd_examine_entry, &cmd_forward_entry, &cmd_mexamine_entry,
	&cmd_revert_entry, &cmd_tomove_entry, &cmd_unexamine_entry, &cmd_wname_entry,
	&cmd_join_entry, &cmd_leave_entry, &cmd_mychannels_entry,
	&cmd_abort_entry, &cmd_accept_entry, &cmd_addlist_entry, &cmd_addnews_entry,
	&cmd_adjourn_entry,
	&cmd_adjudicate_entry,
	&cmd_alias_entry, &cmd_allobservers_entry, &cmd_date_entry, &cmd_decline_entry,
	&cmd_draw_entry, &cmd_finger_entry, &cmd_flag_entry, &cmd_follow_entry, &cmd_gameend_entry,
	&cmd_games_entry,
	/* messages, finger and ratings, moderation */
	&cmd_addcomment_entry, &cmd_adminlog_entry, &cmd_announce_entry, &cmd_asetpasswd_entry,
	&cmd_assess_entry, &cmd_banaddress_entry, &cmd_clearmessages_entry, &cmd_lag_entry,
	&cmd_message_entry, &cmd_messages_entry, &cmd_nuke_entry, &cmd_ping_entry,
	&cmd_showcomment_entry, &cmd_shutdown_entry, &cmd_unbanaddress_entry, &cmd_whenshut_entry,
	&cmd_help_entry, &cmd_history_entry, &cmd_inchannel_entry, &cmd_iset_entry,
	&cmd_ivariables_entry, &cmd_journal_entry, &cmd_kibitz_entry, &cmd_match_entry,
	&cmd_moves_entry, &cmd_news_entry, &cmd_observe_entry, &cmd_oldmoves_entry,
	&cmd_passwd_entry, &cmd_pending_entry, &cmd_pgn_entry, &cmd_play_entry, &cmd_quit_entry,
	&cmd_refresh_entry, &cmd_register_entry, &cmd_rematch_entry, &cmd_remplayer_entry, &cmd_resign_entry,
	&cmd_resume_entry, &cmd_say_entry, &cmd_seek_entry, &cmd_set_entry, &cmd_shout_entry,
	&cmd_showlist_entry, &cmd_smoves_entry, &cmd_sought_entry, &cmd_stored_entry,
	&cmd_style_entry, &cmd_sublist_entry,
	&cmd_takeback_entry, &cmd_tell_entry, &cmd_tourney_entry, &cmd_unalias_entry,
	&cmd_unobserve_entry, &cmd_unseek_entry, &cmd_uptime_entry, &cmd_variables_entry,
	&cmd_whisper_entry, &cmd_who_entry, &cmd_withdraw_entry, &cmd_xtell_entry,
	&cmd_znotify_entry,
	&cmd_cshout_entry, &cmd_it_entry,
	&cmd_moretime_entry, &cmd_pause_entry, &cmd_switch_entry, &cmd_time_entry,
	&cmd_unpause_entry,
	&cmd_best_entry, &cmd_hbest_entry, &cmd_rank_entry, &cmd_hrank_entry,
	&cmd_handles_entry, &cmd_limits_entry, &cmd_password_entry, &cmd_reply_entry,
	&cmd_next_entry,
};

#define TABLE_SIZE (sizeof table / sizeof table[0])

/* FICS's built-in one-word abbreviations, tried before prefix matching. */
static const struct {
	const char *alias, *command;
} builtin_aliases[] = {
	{ "t", "tell" }, { "w", "who" }, { "f", "finger" }, { "vars", "variables" },
	{ "ivars", "ivariables" }, { "o", "observe" }, { "m", "match" }, { "a", "accept" },
	{ "g", "games" }, { "h", "history" }, { "k", "kibitz" }, { "r", "refresh" },
	{ "i", "it" },
	/* lasker's alias_list. */
	{ "exit", "quit" }, { "logout", "quit" }, { "bye", "quit" }, { "znotl", "znotify" },
	{ "more", "next" }, { "n", "next" },
};

/* Matches exactly, then by unique prefix. *ambiguous is set when several match. */
static const struct cmd_entry *lookup(const char *name, int *matches)
{
	size_t len = strlen(name);
	const struct cmd_entry *found = NULL;

	*matches = 0;
	for (size_t i = 0; i < TABLE_SIZE; i++) {
		if (!strcasecmp(table[i]->name, name)) {
			*matches = 1;
			return table[i];
		}
	}
	for (size_t i = 0; i < TABLE_SIZE; i++) {
		if (!strncasecmp(table[i]->name, name, len) && !(table[i]->flags & CMD_HIDDEN)) {
			found = table[i];
			(*matches)++;
		}
	}
	return *matches == 1 ? found : NULL;
}

const struct cmd_entry *cmd_find(const char *name)
{
	int matches;

	return lookup(name, &matches);
}

static bool allowed(const struct session *s, const struct cmd_entry *e)
{
	return !(e->flags & (CMD_ADMIN | CMD_ADMIN_TOLD)) || session_admin(s);
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct cmd_entry *const *)a)->name,
	    (*(const struct cmd_entry *const *)b)->name);
}

void cmd_each(const struct session *s, void (*fn)(const struct cmd_entry *e, void *arg), void *arg)
{
	/* In name order, whatever the table's order: built once. */
	static const struct cmd_entry *sorted[TABLE_SIZE];
	static bool ready;

	if (!ready) {
		memcpy(sorted, table, sizeof sorted);
		qsort(sorted, TABLE_SIZE, sizeof sorted[0], by_name);
		ready = true;
	}
	for (size_t i = 0; i < TABLE_SIZE; i++)
		if (allowed(s, sorted[i]) && !(sorted[i]->flags & CMD_HIDDEN))
			fn(sorted[i], arg);
}

static char *skip_blanks(char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

enum parse_result { PARSE_OK, PARSE_USAGE, PARSE_RANGE };

/* Splits the arguments by the entry's letters; *bad is a number out of range. */
static enum parse_result parse_args(const struct cmd_entry *e, char *p, struct cmd_args *a,
    const char **bad)
{
	a->argc = 0;
	a->rest = p;
	memset(a->number, 0, sizeof a->number);
	for (const char *spec = e->args; *spec; spec++) {
		p = skip_blanks(p);
		bool optional = *spec == 'o' || *spec == 'n' || *spec == 'T';
		if (!*p) {
			if (!optional)
				return PARSE_USAGE;
			continue;
		}
		if (*spec == 'S' || *spec == 'T') {
			a->argv[a->argc++] = p;
			p += strlen(p);
			continue;
		}
		char *word = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
		if (*spec == 'i' || *spec == 'n') {
			long v;
			switch (number_parse(word, 0, INT_MAX, &v)) {
			case NUMBER_OK:
				a->number[a->argc] = (int)v;
				break;
			case NUMBER_RANGE:
				*bad = word;
				return PARSE_RANGE;
			case NUMBER_JUNK:
				return PARSE_USAGE;
			}
		}
		a->argv[a->argc++] = word;
	}
	return *skip_blanks(p) ? PARSE_USAGE : PARSE_OK;
}

/* Applies a user alias: "@" in its value stands for the rest of the line. */
static void expand_alias(const char *value, const char *rest, char *out, size_t len)
{
	size_t n = 0;
	bool used = false;

	for (const char *v = value; *v && n + 1 < len; v++) {
		if (*v == '@') {
			used = true;
			for (const char *r = rest; *r && n + 1 < len; r++)
				out[n++] = *r;
		} else {
			out[n++] = *v;
		}
	}
	if (!used && *rest && n + 2 < len) {
		out[n++] = ' ';
		for (const char *r = rest; *r && n + 1 < len; r++)
			out[n++] = *r;
	}
	out[n] = '\0';
}

/* The game an entry's flags ask for, into a->game; false after an error line. */
static bool resolve_game(struct session *s, const struct cmd_entry *e, struct cmd_args *a)
{
	a->game = NULL;
	if (e->flags & CMD_PLAYING) {
		if (!(a->game = session_game(s)))
			session_printf(s, "You are not playing a game.\n");
	} else if (e->flags & CMD_GAME_ARG) {
		a->game = cmd_find_game(s, a->argc ? a->argv[0] : NULL);
	} else {
		return true;
	}
	return a->game != NULL;
}

void cmd_execute(struct session *s, char *line)
{
	char expanded[LIMIT_LINE_BYTES * 2 + 2];
	char word[64];
	bool literal = false;

	line = skip_blanks(line);
	/* "$" asks for no alias expansion (xboard and pychess prefix their commands). */
	while (*line == '$') {
		literal = true;
		line++;
	}
	line = skip_blanks(line);
	if (!*line)
		return;
	if (strlen(line) > LIMIT_LINE_BYTES) {
		session_block_begin(s, BLOCK_LENGTH);
		session_printf(s, "Command too long.\n");
		return;
	}

	/* One-character commands that need no space: "!hi", ".hi". */
	if (!literal && (line[0] == '!' || line[0] == '.') && line[1] != ' ' && line[1]) {
		snprintf(expanded, sizeof expanded, "%s %s", line[0] == '!' ? "shout" : "tell .",
		    line + 1);
		line = expanded;
	}

	size_t wlen = strcspn(line, " ");
	if (wlen >= sizeof word) {
		session_block_begin(s, BLOCK_BAD_COMMAND);
		session_printf(s, "%.*s: Command not found.\n", 40, line);
		return;
	}
	memcpy(word, line, wlen);
	word[wlen] = '\0';
	char *rest = skip_blanks(line + wlen);

	if (!literal) {
		const char *alias = session_alias(s, word);
		if (alias) {
			char again[sizeof expanded];
			expand_alias(alias, rest, again, sizeof again);
			snprintf(expanded, sizeof expanded, "%s", again);
			line = skip_blanks(expanded);
			wlen = strcspn(line, " ");
			if (wlen >= sizeof word || !wlen)
				return;
			memcpy(word, line, wlen);
			word[wlen] = '\0';
			rest = skip_blanks(line + wlen);
		}
		if (word[0] == '!' && !word[1])
			snprintf(word, sizeof word, "shout");
		for (size_t i = 0; i < sizeof builtin_aliases / sizeof builtin_aliases[0]; i++)
			if (!strcasecmp(word, builtin_aliases[i].alias))
				snprintf(word, sizeof word, "%s", builtin_aliases[i].command);
	}

	/*
	 * "+notify alice", "-censor bob", "=gnotify": FICS's list shorthands
	 * (the channel ones are commands of their own).
	 */
	char listed[sizeof expanded];
	int unused;
	if ((word[0] == '+' || word[0] == '-' || word[0] == '=') && word[1] &&
	    !lookup(word, &unused)) {
		static const char *const verbs[] = { "addlist", "sublist", "showlist" };
		const char *verb = verbs[word[0] == '+' ? 0 : word[0] == '-' ? 1 : 2];
		snprintf(listed, sizeof listed, "%s%s%s", word + 1, *rest ? " " : "", rest);
		snprintf(word, sizeof word, "%s", verb);
		rest = listed;
	}

	/* A move is the most common line of all; FICS tries it first. */
	if (cmd_try_move(s, line))
		return;
	int matches;
	const struct cmd_entry *e = lookup(word, &matches);
	if (e && (e->flags & CMD_ADMIN_TOLD) && !session_admin(s)) {
		session_block_begin(s, BLOCK_RIGHTS);
		session_printf(s, "Only administrators can use the %s command.\n", e->name);
		return;
	}
	if (e && !allowed(s, e))
		e = NULL, matches = 0;
	if (!e) {
		session_block_begin(s, matches > 1 ? BLOCK_AMBIGUOUS : BLOCK_BAD_COMMAND);
		if (matches > 1) {
			session_printf(s, "Ambiguous command \"%s\". Matches:", word);
			for (size_t i = 0; i < TABLE_SIZE; i++)
				if (!strncasecmp(table[i]->name, word, strlen(word)) && allowed(s, table[i]) &&
				    !(table[i]->flags & CMD_HIDDEN))
					session_printf(s, " %s", table[i]->name);
			session_printf(s, "\n");
		} else {
			session_printf(s, "%s: Command not found.\n", word);
		}
		return;
	}
	if ((e->flags & CMD_REGISTERED) && !session_registered(s)) {
		session_block_begin(s, BLOCK_RIGHTS);
		session_printf(s, "Only registered players can use the %s command.\n", e->name);
		return;
	}
	struct cmd_args a;
	const char *bad = NULL;
	switch (parse_args(e, rest, &a, &bad)) {
	case PARSE_OK:
		break;
	case PARSE_RANGE:
		session_block_begin(s, BLOCK_BAD_PARAMS);
		session_printf(s, "%s: %.40s is not a number from 0 to %d.\n", e->name, bad, INT_MAX);
		return;
	case PARSE_USAGE:
		session_block_begin(s, BLOCK_BAD_PARAMS);
		session_printf(s, "Usage: %s\n", e->usage);
		return;
	}
	session_block_begin(s, e->code);
	if (!resolve_game(s, e, &a))
		return;
	e->exec(s, &a);
}
