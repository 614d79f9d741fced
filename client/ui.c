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
#include "term.h"

#define UI_SCREEN_MAX 65536
#define UI_PROMPT "> "

struct ui {
	struct event_base *base;
	struct ics *ics;
	struct ui_options opt;
	struct game_view *view;
	struct event *stdin_ev, *tick, *sigwinch, *sigint;
	bool editing;			/* libedit owns the input line */
	bool confirm_resign;
	char premove[INPUT_LINE_MAX];
	char *messages[UI_MESSAGE_LINES];
	int message_count;		/* lines in the ring, newest last */
	char *names[UI_NAMES_MAX];
	int name_count;
	enum ics_exit code;
	bool screen;			/* the board is on screen */
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

/* Puts the input line back after output went over it. */
static void restore_input(struct ui *u)
{
	if (u->editing)
		rl_forced_update_display();
	fflush(stdout);
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
	int room = rows - lines - 1;
	int first = u->message_count > room ? u->message_count - room : 0;
	for (int i = first; room > 0 && i < u->message_count; i++)
		printf("%.*s\033[K\r\n", cols, u->messages[i]);
	u->screen = true;
	restore_input(u);
}

static void show_line(struct ui *u, const char *line)
{
	add_message(u, line);
	if (u->screen) {
		redraw(u);
		return;
	}
	if (u->editing)
		term_erase_line();
	printf("%s\r\n", line);
	restore_input(u);
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
	ics_command(u->ics, out);
}

static void on_input(char *line)
{
	struct ui *u = the_ui;

	if (!line) {			/* Ctrl-D */
		ics_command(u->ics, "quit");
		return;
	}
	char *text = line;
	while (*text == ' ')
		text++;
	if (*text)
		add_history(text);
	if (u->confirm_resign) {
		u->confirm_resign = false;
		if (!strcasecmp(text, "y") || !strcasecmp(text, "yes"))
			ics_command(u->ics, "resign");
		else
			show_line(u, "Not resigned.");
	} else if (*text) {
		show_line(u, text);
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
	rl_callback_read_char();
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
	if (game_view_has_position(u->view) && !game_view_over(u->view) &&
	    style12_playing(game_view_style12(u->view))) {
		u->confirm_resign = true;
		show_line(u, "Resign this game? Type y to resign, anything else to go on.");
		return;
	}
	u->code = EXIT_OK;
	event_base_loopexit(u->base, NULL);
}

static void on_online(void *arg)
{
	struct ui *u = arg;

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

static void on_line(void *arg, const char *line, long block)
{
	struct ui *u = arg;
	struct style12 s;
	char reason[GAME_VIEW_RESULT_MAX], result[16];
	int game;

	(void)block;
	if (!style12_parse(line, &s)) {
		/* A game we play wins the screen over one we watch. */
		const struct style12 *cur = game_view_style12(u->view);
		if (style12_playing(&s) || !game_view_has_position(u->view) ||
		    game_view_over(u->view) || !style12_playing(cur) || cur->game == s.game) {
			game_view_update(u->view, &s, now_ms());
			remember_name(u, s.white);
			remember_name(u, s.black);
			play_premove(u);
			redraw(u);
		}
		return;
	}
	if (!game_view_parse_end(line, &game, reason, sizeof reason, result, sizeof result) &&
	    game == game_view_number(u->view)) {
		game_view_end(u->view, reason, result);
		u->premove[0] = '\0';
	}
	if (!*line)
		return;
	learn_names(u, line);
	show_line(u, line);
}

static void on_block_end(void *arg, long id)
{
	(void)arg;
	(void)id;
}

static void on_ended(void *arg, enum ics_exit code, const char *why)
{
	struct ui *u = arg;

	if (u->editing)
		term_erase_line();
	fprintf(stderr, "%s%s\r\n", code == EXIT_OK ? "" : "chess: ", why);
	u->code = code;
	event_base_loopexit(u->base, NULL);
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
	    !(u->sigint = evsignal_new(base, SIGINT, sigint_cb, u))) {
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
	for (int i = 0; i < u->message_count; i++)
		free(u->messages[i]);
	for (int i = 0; i < u->name_count; i++)
		free(u->names[i]);
	game_view_free(u->view);
	if (the_ui == u)
		the_ui = NULL;
	free(u);
}
