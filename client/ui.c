#include "ui.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <editline/readline.h>
#include <event2/event.h>

#include "board_view.h"
#include "game_view.h"
#include "input.h"
#include "listing.h"
#include "movelist.h"
#include "number.h"
#include "offer_text.h"
#include "term.h"

#define UI_SCREEN_MAX 65536
#define UI_PROMPT "> "

/* Commands whose replies the client reads: shown (who) or not (the rest). */
enum request_kind { REQUEST_WHO, REQUEST_WHO_QUIET, REQUEST_MOVES, REQUEST_STORED };

struct request {
	long id;
	enum request_kind kind;
};

/* The game being played when the connection was lost. */
struct lost_game {
	bool pending;			/* not yet continued, resumed or given up */
	int number;
	char opponent[STYLE12_NAME_MAX];
	bool continued;			/* the server sent "Continuing" for it */
	bool stored;			/* "stored" lists it as adjourned */
};

struct ui {
	struct event_base *base;
	struct ics *ics;
	struct ui_options opt;
	struct game_view *view;
	struct event *stdin_ev, *tick, *sigwinch, *sigint;
	struct event *redraw_ev;	/* one redraw after a batch of server lines */
	bool editing;			/* libedit owns the input line */
	bool accepted;			/* on_input is handling a line */
	bool confirm_resign;
	char premove[INPUT_LINE_MAX];
	char *messages[UI_MESSAGE_LINES];
	int message_count;		/* lines in the ring, newest last */
	char *names[UI_NAMES_MAX];
	int name_count;
	enum ics_exit code;
	bool screen;			/* the board is on screen */
	bool was_online;		/* logged in at least once */
	bool quitting;			/* the user said quit: a close is expected */
	bool replaced;			/* the server closed us for a newer login */
	bool offline;			/* the connection was lost: reconnecting */
	int tries;			/* reconnection attempts so far */
	struct event *reconnect;
	char name[STYLE12_NAME_MAX];	/* our name at the last login */
	struct lost_game lost;
	struct request requests[UI_REQUESTS_MAX];
	int request_count;
	struct movelist *movelist;	/* the reply to our "moves" being read */
	int moves_game;			/* the game whose moves we asked for... */
	char moves_white[STYLE12_NAME_MAX], moves_black[STYLE12_NAME_MAX];
	int fetch_moves_game;		/* ...and one announced as continued */
};

/* libedit's callback interface is global: so is the one interactive UI. */
static struct ui *the_ui;

static const char *const command_names[] = {
	"abort", "accept", "addnews", "adjourn", "alias", "allobservers", "date", "decline",
	"draw", "finger", "flag", "follow", "games", "help", "history", "iset", "inchannel",
	"journal", "kibitz", "match", "moves", "news", "observe", "oldmoves", "pending", "pgn",
	"play", "quit", "rematch", "refresh", "register", "resign", "resume", "say", "seek",
	"set", "shout", "showlist", "smoves", "sought", "stored", "style", "takeback", "tell",
	"unalias", "unobserve", "unseek", "uptime", "variables", "whisper", "who", "withdraw",
	"xtell", NULL,
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void remember_name(struct ui *u, const char *name)
{
	size_t n = strlen(name);

	if (n < 3 || n >= STYLE12_NAME_MAX)
		return;
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z')))
			return;
	for (int i = 0; i < u->name_count; i++)
		if (!strcasecmp(u->names[i], name))
			return;
	if (u->name_count < UI_NAMES_MAX && (u->names[u->name_count] = strdup(name)))
		u->name_count++;
}

/* Names from lines that carry them: who, seeks, tells, games. */
static void learn_names(struct ui *u, const char *line)
{
	char name[STYLE12_NAME_MAX];
	const char *w = strstr(line, " w=");

	if (w && sscanf(w + 3, "%31[A-Za-z]", name) == 1)
		remember_name(u, name);
	if (sscanf(line, "%31[A-Za-z](", name) == 1 || sscanf(line, "%31[A-Za-z] tells", name) == 1)
		remember_name(u, name);
	if (sscanf(line, " %*[0-9.+-] %31[A-Za-z]", name) == 1)
		remember_name(u, name);
}

static void add_message(struct ui *u, const char *line)
{
	if (u->message_count == UI_MESSAGE_LINES) {
		free(u->messages[0]);
		memmove(u->messages, u->messages + 1, (UI_MESSAGE_LINES - 1) * sizeof *u->messages);
		u->message_count--;
	}
	char *copy = strdup(line);
	if (copy)
		u->messages[u->message_count++] = copy;
}

static struct request *find_request(struct ui *u, long id)
{
	for (int i = 0; i < u->request_count; i++)
		if (u->requests[i].id == id)
			return &u->requests[i];
	return NULL;
}

static void drop_request(struct ui *u, struct request *r)
{
	*r = u->requests[--u->request_count];
}

/* Sends a command whose reply the client reads; false when it could not go. */
static bool send_request(struct ui *u, const char *command, enum request_kind kind)
{
	if (u->request_count == UI_REQUESTS_MAX)
		return false;
	long id = ics_command(u->ics, command);
	if (id <= 0)
		return false;
	u->requests[u->request_count++] = (struct request){ id, kind };
	return true;
}

/* Puts the input line back after output went over it. */
static void restore_input(struct ui *u)
{
	/*
	 * While a line is being accepted libedit still holds it, and would draw
	 * it again; the prompt comes back fresh once the handler is reinstalled.
	 */
	if (u->editing && !u->accepted)
		rl_forced_update_display();
	fflush(stdout);
}

/* Bytes of s that take at most cols characters: a cut never splits a UTF-8 character. */
static int fit_columns(const char *s, int cols)
{
	int n = 0;

	for (int used = 0; s[n] && used < cols; used++)
		for (n++; ((unsigned char)s[n] & 0xc0) == 0x80; n++)
			;
	return n;
}

/* Screen rows a message takes when wrapped at cols characters. */
static int message_rows(const char *s, int cols)
{
	int rows = 0;

	do {
		s += fit_columns(s, cols);
		rows++;
	} while (*s);
	return rows;
}

/*
 * The newest messages below the board, each wrapped at the screen's width
 * (cut, a long tell or the reconnect key's instructions would be lost); the
 * oldest one shown loses its first rows when it does not fit whole.
 */
static void draw_messages(const struct ui *u, int room, int cols)
{
	int first = u->message_count, skip = 0;

	while (first > 0 && room > 0) {
		int n = message_rows(u->messages[--first], cols);
		skip = n > room ? n - room : 0;
		room -= n - skip;
	}
	for (int i = first; i < u->message_count; i++) {
		const char *s = u->messages[i];
		do {
			int n = fit_columns(s, cols);
			if (skip > 0)
				skip--;
			else
				printf("%.*s\033[K\r\n", n, s);
			s += n;
		} while (*s);
	}
}

/* Whole-screen redraw: board, then the newest messages, then the input line. */
static void redraw(struct ui *u)
{
	static char buf[UI_SCREEN_MAX];
	int rows, cols;

	if (!game_view_has_position(u->view))
		return;
	term_size(&rows, &cols);
	struct board_view_options o = { u->opt.unicode, term_has_color(), u->opt.lang,
	    cols < BOARD_VIEW_MIN_WIDTH ? BOARD_VIEW_MIN_WIDTH : cols, board_view_bottom(u->view) };
	int lines = board_view_render(u->view, &o, now_ms(), buf, sizeof buf);
	term_clear();
	for (char *p = buf, *nl; *p && (nl = strchr(p, '\n')); p = nl + 1)
		printf("%.*s\033[K\r\n", (int)(nl - p), p);
	draw_messages(u, rows - lines - 1, cols);
	u->screen = true;
	restore_input(u);
}

/*
 * Redraws once the lines read so far are handled: a flood of lines costs a
 * redraw per read, not one per line.
 */
static void redraw_soon(struct ui *u)
{
	event_active(u->redraw_ev, EV_TIMEOUT, 0);
}

static void redraw_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	redraw(arg);
}

static void show_line(struct ui *u, const char *line)
{
	add_message(u, line);
	if (u->screen) {
		redraw_soon(u);
		return;
	}
	if (u->editing)
		term_erase_line();
	printf("%s\r\n", line);
	restore_input(u);
}

/*
 * The line just typed: the terminal shows it already where it was typed,
 * but a board redraw wipes that, so the board screen lists it with the
 * messages.
 */
static void echo_command(struct ui *u, const char *text)
{
	char shown[INPUT_LINE_MAX + sizeof UI_PROMPT];

	if (!u->screen)
		return;
	snprintf(shown, sizeof shown, "%s%s", UI_PROMPT, text);
	show_line(u, shown);
}

static void send_command(struct ui *u, const char *text)
{
	char out[INPUT_LINE_MAX];

	switch (input_read(u->view, u->opt.lang, text, out, sizeof out)) {
	case INPUT_BAD_MOVE:
		show_line(u, out);
		return;
	case INPUT_COMMAND: {
		/* A move typed before our turn is kept as a premove. */
		const struct style12 *s = game_view_style12(u->view);
		if (game_view_has_position(u->view) && !game_view_over(u->view) &&
		    s->relation == REL_PLAYING_THEIR_MOVE && !strchr(text, ' ') &&
		    san_looks_like_move(text, u->opt.lang)) {
			snprintf(u->premove, sizeof u->premove, "%s", text);
			show_line(u, "(premove kept until your turn)");
			return;
		}
		break;
	}
	case INPUT_MOVE:
		break;
	}
	char word[16] = "";
	sscanf(out, "%15s", word);
	if (!strcasecmp(word, "quit"))
		u->quitting = true;
	long id = ics_command(u->ics, out);
	if (!strcasecmp(word, "who") && id > 0 && u->request_count < UI_REQUESTS_MAX)
		u->requests[u->request_count++] = (struct request){ id, REQUEST_WHO };
}

/* Ends the program from the loop: the connection is gone for good (why: NULL says nothing). */
static void give_up(struct ui *u, enum ics_exit code, const char *why)
{
	if (u->editing) {
		term_erase_line();
		fflush(stdout);		/* before stderr's line, not over it */
	}
	if (why)
		fprintf(stderr, "%s%s\r\n", code == EXIT_OK ? "" : "chess: ", why);
	u->code = code;
	event_base_loopexit(u->base, NULL);
}

static void on_input(char *line)
{
	struct ui *u = the_ui;

	if (!line) {			/* Ctrl-D */
		u->quitting = true;
		if (u->offline)
			give_up(u, EXIT_OK, "Not reconnecting.");
		else
			ics_command(u->ics, "quit");
		return;
	}
	char *text = line;
	while (*text == ' ')
		text++;
	if (*text)
		add_history(text);
	u->accepted = true;
	if (u->offline && *text) {
		if (!strcasecmp(text, "quit"))
			give_up(u, EXIT_OK, "Not reconnecting.");
		else
			show_line(u, "(not connected: reconnecting; Ctrl-C or \"quit\" gives up)");
	} else if (u->confirm_resign) {
		u->confirm_resign = false;
		if (!strcasecmp(text, "y") || !strcasecmp(text, "yes"))
			ics_command(u->ics, "resign");
		else
			show_line(u, "Not resigned.");
	} else if (*text) {
		echo_command(u, text);
		send_command(u, text);
	}
	free(line);
}

static char *name_generator(const char *text, int state)
{
	static int index;
	static bool commands;
	struct ui *u = the_ui;
	size_t n = strlen(text);

	if (!state) {
		index = 0;
		commands = rl_point == (int)n || !memchr(rl_line_buffer, ' ', (size_t)(rl_point - (int)n));
	}
	if (commands) {
		while (command_names[index])
			if (!strncasecmp(command_names[index++], text, n))
				return strdup(command_names[index - 1]);
		return NULL;
	}
	while (index < u->name_count)
		if (!strncasecmp(u->names[index++], text, n))
			return strdup(u->names[index - 1]);
	return NULL;
}

static char **complete(const char *text, int start, int end)
{
	(void)start;
	(void)end;
	return rl_completion_matches(text, name_generator);
}

static void stdin_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	the_ui->accepted = false;
	rl_callback_read_char();
	/*
	 * libedit keeps an accepted line in its buffer and, by its own idea of
	 * the screen, prints it again with the next one: starting the handler
	 * afresh empties both, as at the first prompt.
	 */
	if (the_ui->accepted && the_ui->editing) {
		rl_callback_handler_remove();
		rl_callback_handler_install(UI_PROMPT, on_input);
		the_ui->accepted = false;
	}
}

static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ui *u = arg;

	(void)fd;
	(void)what;
	if (u->screen && game_view_style12(u->view)->ticking && !game_view_over(u->view))
		redraw(u);
}

static void sigwinch_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ui *u = arg;

	(void)fd;
	(void)what;
	if (u->editing)
		rl_resize_terminal();
	redraw(u);
}

static void sigint_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ui *u = arg;

	(void)fd;
	(void)what;
	if (u->offline) {
		give_up(u, EXIT_FAILURE_RUNTIME, "connection lost; not reconnecting");
		return;
	}
	if (game_view_has_position(u->view) && !game_view_over(u->view) &&
	    style12_playing(game_view_style12(u->view))) {
		u->confirm_resign = true;
		show_line(u, "Resign this game? Type y to resign, anything else to go on.");
		return;
	}
	u->code = EXIT_OK;
	event_base_loopexit(u->base, NULL);
}

/* Back online after a lost connection: what became of the game we played. */
static void after_reconnect(struct ui *u)
{
	char text[256];
	const char *name = ics_name(u->ics);

	snprintf(text, sizeof text, "Reconnected as %s.", name);
	show_line(u, text);
	u->offline = false;
	u->tries = 0;
	if (!u->lost.pending)
		return;
	if (u->lost.continued) {
		snprintf(text, sizeof text, "Your game with %s continues.", u->lost.opponent);
		show_line(u, text);
		u->lost.pending = false;
	} else if (ics_guest(u->ics)) {
		snprintf(text, sizeof text, "The game with %s is over or lost: you are now %s%s.",
		    u->lost.opponent, name, ics_reclaiming(u->ics) ? "" : ", a new guest");
		show_line(u, text);
		u->lost.pending = false;
	} else if (!send_request(u, "stored", REQUEST_STORED)) {
		u->lost.pending = false;
	}
}

static void on_online(void *arg)
{
	struct ui *u = arg;

	if (u->was_online) {
		after_reconnect(u);
		snprintf(u->name, sizeof u->name, "%s", ics_name(u->ics));
		send_request(u, "who", REQUEST_WHO_QUIET);
		return;
	}
	u->was_online = true;
	snprintf(u->name, sizeof u->name, "%s", ics_name(u->ics));
	/* Player names for completion, without showing the list. */
	send_request(u, "who", REQUEST_WHO_QUIET);
	rl_attempted_completion_function = complete;
	rl_callback_handler_install(UI_PROMPT, on_input);
	u->editing = true;
	event_add(u->stdin_ev, NULL);
	struct timeval tick = { UI_TICK_MS / 1000, (UI_TICK_MS % 1000) * 1000 };
	evtimer_add(u->tick, &tick);
	fflush(stdout);
}

static void play_premove(struct ui *u)
{
	char out[INPUT_LINE_MAX];

	if (!u->premove[0] || game_view_style12(u->view)->relation != REL_PLAYING_MY_MOVE)
		return;
	if (input_read(u->view, u->opt.lang, u->premove, out, sizeof out) == INPUT_MOVE)
		ics_command(u->ics, out);
	else
		add_message(u, "(premove dropped: not legal now)");
	u->premove[0] = '\0';
}

static void learn_who(struct ui *u, const char *line)
{
	char names[LISTING_WHO_PER_LINE][STYLE12_NAME_MAX];
	int n = listing_who_names(line, names, LISTING_WHO_PER_LINE);

	for (int i = 0; i < n; i++)
		remember_name(u, names[i]);
}

/* A line of a reply the client reads for itself. */
static void request_line(struct ui *u, struct request *r, const char *line)
{
	char opponent[STYLE12_NAME_MAX], color;

	switch (r->kind) {
	case REQUEST_WHO:
	case REQUEST_WHO_QUIET:
		learn_who(u, line);
		return;
	case REQUEST_MOVES:
		if (u->movelist)
			movelist_feed(u->movelist, line);
		return;
	case REQUEST_STORED:
		if (u->lost.pending && !listing_stored_game(line, opponent, sizeof opponent, &color) &&
		    !strcasecmp(opponent, u->lost.opponent))
			u->lost.stored = true;
		return;
	}
}

/* Asks for the moves of the game on screen when it was joined after its start. */
static void fetch_moves(struct ui *u)
{
	const struct style12 *s = game_view_style12(u->view);
	char command[32];

	bool continued = u->fetch_moves_game == s->game;
	bool known = u->moves_game == s->game && !strcmp(u->moves_white, s->white) &&
	    !strcmp(u->moves_black, s->black);
	if (u->movelist || (!continued && (known || game_view_first_ply(u->view) == 0 ||
	    game_view_move_count(u->view) > 0)))
		return;
	if (s->relation != REL_OBSERVING && !style12_playing(s))
		return;				/* examined positions have no server move list */
	if (!(u->movelist = malloc(sizeof *u->movelist)))
		return;
	movelist_init(u->movelist);
	snprintf(command, sizeof command, "moves %d", s->game);
	if (!send_request(u, command, REQUEST_MOVES)) {
		free(u->movelist);
		u->movelist = NULL;
		return;
	}
	u->fetch_moves_game = 0;
	u->moves_game = s->game;
	snprintf(u->moves_white, sizeof u->moves_white, "%s", s->white);
	snprintf(u->moves_black, sizeof u->moves_black, "%s", s->black);
}

/* "{Game 7 (alice vs. bob) Creating ...}" / "Continuing": a game of ours (re)starts. */
static void game_announced(struct ui *u, const char *line)
{
	char white[STYLE12_NAME_MAX], black[STYLE12_NAME_MAX], verb[16];
	int game;

	if (sscanf(line, "{Game " NUMBER_SCAN_INT " (%31[A-Za-z] vs. %31[A-Za-z]) %15s", &game,
	    white, black, verb) != 4 || (strcmp(verb, "Creating") && strcmp(verb, "Continuing")))
		return;
	if (game == game_view_number(u->view))
		game_view_begin(u->view);
	if (strcmp(verb, "Continuing"))
		return;
	u->fetch_moves_game = game;
	const char *other = !strcasecmp(white, u->name) ? black : !strcasecmp(black, u->name) ?
	    white : NULL;
	if (u->lost.pending && other && !strcasecmp(other, u->lost.opponent))
		u->lost.continued = true;
}

static void on_line(void *arg, const char *line, long block)
{
	struct ui *u = arg;
	struct style12 s;
	char reason[GAME_VIEW_RESULT_MAX], result[16];
	int game;

	struct request *r = block > 0 ? find_request(u, block) : NULL;
	if (r) {
		request_line(u, r, line);
		if (r->kind != REQUEST_WHO)
			return;
	}
	/* A newer login of ours took over (lasker's text): no reconnecting to fight it. */
	if (!strncmp(line, "**** ", 5) && strstr(line, " has arrived - you can't both be logged in."))
		u->replaced = true;
	if (!strncmp(line, "{Game ", 6))
		game_announced(u, line);
	if (!strncmp(line, "<12> ", 5) && style12_parse(line, &s) < 0) {
		show_line(u, "(the server sent a position the client cannot show: ignored)");
		return;
	}
	if (!style12_parse(line, &s)) {
		/* A game we play wins the screen over one we watch. */
		const struct style12 *cur = game_view_style12(u->view);
		if (style12_playing(&s) || !game_view_has_position(u->view) ||
		    game_view_over(u->view) || !style12_playing(cur) || cur->game == s.game) {
			game_view_update(u->view, &s, now_ms());
			remember_name(u, s.white);
			remember_name(u, s.black);
			play_premove(u);
			redraw_soon(u);
			fetch_moves(u);
		}
		return;
	}
	if (!game_view_parse_end(line, &game, reason, sizeof reason, result, sizeof result) &&
	    game == game_view_number(u->view)) {
		/* The last position came before the end: its clock ran until now. */
		game_view_stop_clocks(u->view, now_ms());
		game_view_end(u->view, reason, result);
		u->premove[0] = '\0';
	}
	if (!*line)
		return;
	learn_names(u, line);
	/* Seek and offer lines for programs (if the user turned them on) in words. */
	char said[512];
	switch (offer_text_render(line, said, sizeof said)) {
	case OFFER_TEXT_NONE:
		show_line(u, line);
		return;
	case OFFER_TEXT_SAID:
		show_line(u, said);
		return;
	case OFFER_TEXT_QUIET:
		return;
	}
}

/* The list of our adjourned games came: offer (or do) the resumption. */
static void stored_read(struct ui *u)
{
	char text[320];

	if (!u->lost.pending)
		return;
	u->lost.pending = false;
	if (u->lost.continued)
		return;
	if (!u->lost.stored) {
		snprintf(text, sizeof text, "Your game with %s is no longer in progress "
		    "(\"history\" shows how it ended).", u->lost.opponent);
		show_line(u, text);
		return;
	}
	snprintf(text, sizeof text, "Your game with %s was adjourned. Type \"resume %s\" to "
	    "continue it (%s has to type \"resume\" or \"accept\" too).", u->lost.opponent,
	    u->lost.opponent, u->lost.opponent);
	show_line(u, text);
	if (u->opt.auto_resume) {
		snprintf(text, sizeof text, "resume %s", u->lost.opponent);
		show_line(u, text);
		ics_command(u->ics, text);
	}
}

/*
 * The reply to our "moves" came: the earlier moves join the list on screen,
 * or one line says why they cannot.
 */
static void moves_read(struct ui *u, const struct movelist *ml)
{
	char text[160];

	if (movelist_complete(ml)) {
		if (!game_view_set_history(u->view, ml->game, ml->white, ml->black, ml->first_ply,
		    (const char (*)[MOVE_TEXT_MAX])ml->san, ml->count))
			redraw_soon(u);
		return;
	}
	if (ml->too_long)
		snprintf(text, sizeof text, "(earlier moves of game %d not shown: the server's list "
		    "has more than %d half-moves)", u->moves_game, MOVELIST_PLIES_MAX);
	else
		snprintf(text, sizeof text, "(earlier moves of game %d not shown: the server's list "
		    "could not be read)", u->moves_game);
	show_line(u, text);
}

static void on_block_end(void *arg, long id)
{
	struct ui *u = arg;
	struct request *r = find_request(u, id);

	if (!r)
		return;
	enum request_kind kind = r->kind;
	drop_request(u, r);
	switch (kind) {
	case REQUEST_WHO:
	case REQUEST_WHO_QUIET:
		return;
	case REQUEST_MOVES:
		if (u->movelist)
			moves_read(u, u->movelist);
		free(u->movelist);
		u->movelist = NULL;
		return;
	case REQUEST_STORED:
		stored_read(u);
		return;
	}
}

static void schedule_reconnect(struct ui *u)
{
	char text[160];

	if (u->tries >= UI_RECONNECT_TRIES) {
		snprintf(text, sizeof text, "could not reconnect after %d tries", u->tries);
		give_up(u, EXIT_FAILURE_RUNTIME, text);
		return;
	}
	long long delay_ms = (long long)UI_RECONNECT_FIRST_MS << u->tries;
	if (delay_ms > UI_RECONNECT_MAX_MS)
		delay_ms = UI_RECONNECT_MAX_MS;
	snprintf(text, sizeof text, "Reconnecting in %lld s (try %d of %d; Ctrl-C gives up)...",
	    delay_ms / 1000, u->tries + 1, UI_RECONNECT_TRIES);
	show_line(u, text);
	struct timeval tv = { (time_t)(delay_ms / 1000), (suseconds_t)(delay_ms % 1000) * 1000 };
	evtimer_add(u->reconnect, &tv);
}

static void reconnect_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ui *u = arg;
	char why[1024], text[1100];

	(void)fd;
	(void)what;
	u->tries++;
	if (ics_reconnect(u->ics, why, sizeof why) < 0) {
		snprintf(text, sizeof text, "Reconnection failed: %s", why);
		show_line(u, text);
		schedule_reconnect(u);
	}
}

/* The connection dropped unexpectedly: remember our game and start reconnecting. */
static void connection_lost(struct ui *u, const char *why)
{
	char text[600];
	const struct style12 *s = game_view_style12(u->view);

	u->offline = true;
	u->tries = 0;
	u->request_count = 0;
	free(u->movelist);
	u->movelist = NULL;
	u->premove[0] = '\0';
	u->confirm_resign = false;
	game_view_stop_clocks(u->view, now_ms());
	if (game_view_has_position(u->view) && !game_view_over(u->view) && style12_playing(s)) {
		u->lost = (struct lost_game){ .pending = true, .number = s->game };
		snprintf(u->lost.opponent, sizeof u->lost.opponent, "%s",
		    style12_my_color(s) == WHITE ? s->black : s->white);
	}
	snprintf(text, sizeof text, "Connection to the server lost (%s).", why);
	show_line(u, text);
	schedule_reconnect(u);
}

static void on_ended(void *arg, enum ics_exit code, const char *why)
{
	struct ui *u = arg;
	char text[600];

	bool fatal = code == EXIT_LOGIN || code == EXIT_CERT_CHANGED;
	if (u->offline) {		/* a reconnection attempt failed */
		if (fatal) {
			give_up(u, code, why);
			return;
		}
		snprintf(text, sizeof text, "Reconnection failed: %s", why);
		show_line(u, text);
		schedule_reconnect(u);
		return;
	}
	if (u->was_online && !u->quitting && !u->replaced && !fatal) {
		connection_lost(u, why);
		return;
	}
	/* After "quit" the server's goodbye was the last word: its close needs none. */
	give_up(u, code, u->quitting && code == EXIT_OK ? NULL : why);
}

const struct ics_handler *ui_handler(void)
{
	static const struct ics_handler h = { on_online, on_line, on_block_end, on_ended };
	return &h;
}

struct ui *ui_new(struct event_base *base, const struct ui_options *o, char *why, size_t why_len)
{
	struct ui *u = calloc(1, sizeof *u);

	if (!u || !(u->view = game_view_new(o->lang)) ||
	    !(u->stdin_ev = event_new(base, STDIN_FILENO, EV_READ | EV_PERSIST, stdin_cb, u)) ||
	    !(u->tick = event_new(base, -1, EV_PERSIST, tick_cb, u)) ||
	    !(u->sigwinch = evsignal_new(base, SIGWINCH, sigwinch_cb, u)) ||
	    !(u->sigint = evsignal_new(base, SIGINT, sigint_cb, u)) ||
	    !(u->redraw_ev = event_new(base, -1, 0, redraw_cb, u)) ||
	    !(u->reconnect = evtimer_new(base, reconnect_cb, u))) {
		snprintf(why, why_len, "cannot set up the terminal");
		ui_free(u);
		return NULL;
	}
	u->base = base;
	u->opt = *o;
	evsignal_add(u->sigwinch, NULL);
	evsignal_add(u->sigint, NULL);
	rl_catch_signals = 0;
	the_ui = u;
	return u;
}

void ui_attach(struct ui *u, struct ics *c)
{
	u->ics = c;
}

enum ics_exit ui_exit_code(const struct ui *u)
{
	return u->code;
}

void ui_free(struct ui *u)
{
	if (!u)
		return;
	if (u->editing) {
		rl_callback_handler_remove();
		fputs("\r\n", stdout);
		fflush(stdout);
	}
	if (u->stdin_ev)
		event_free(u->stdin_ev);
	if (u->tick)
		event_free(u->tick);
	if (u->sigwinch)
		event_free(u->sigwinch);
	if (u->sigint)
		event_free(u->sigint);
	if (u->redraw_ev)
		event_free(u->redraw_ev);
	if (u->reconnect)
		event_free(u->reconnect);
	free(u->movelist);
	for (int i = 0; i < u->message_count; i++)
		free(u->messages[i]);
	for (int i = 0; i < u->name_count; i++)
		free(u->names[i]);
	game_view_free(u->view);
	if (the_ui == u)
		the_ui = NULL;
	free(u);
}
