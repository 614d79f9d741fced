#include "script.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "game_view.h"
#include "input.h"

struct script {
	struct event_base *base;
	struct ics *ics;
	enum san_lang lang;
	struct evbuffer *queue;		/* script lines not yet run */
	struct bufferevent *in;		/* standard input, when it is a pipe or tty */
	bool input_done;
	bool online, quitting;
	long waiting_id;		/* command whose reply we wait for */
	char wait_text[INPUT_LINE_MAX];	/* #wait in progress */
	struct event *timer;		/* #sleep end, or #wait timeout */
	bool sleeping;
	char **backlog;			/* lines since the last #wait matched */
	int backlog_count;
	struct game_view *view;
	enum ics_exit code;
};

static void advance(struct script *s);

static void backlog_clear(struct script *s)
{
	for (int i = 0; i < s->backlog_count; i++)
		free(s->backlog[i]);
	s->backlog_count = 0;
}

static void backlog_add(struct script *s, const char *line)
{
	if (s->backlog_count == SCRIPT_BACKLOG_LINES) {
		free(s->backlog[0]);
		memmove(s->backlog, s->backlog + 1, (SCRIPT_BACKLOG_LINES - 1) * sizeof *s->backlog);
		s->backlog_count--;
	}
	char *copy = strdup(line);
	if (copy)
		s->backlog[s->backlog_count++] = copy;
}

static void timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct script *s = arg;

	(void)fd;
	(void)what;
	if (s->sleeping) {
		s->sleeping = false;
		advance(s);
		return;
	}
	if (s->wait_text[0]) {
		fprintf(stderr, "chess: timed out waiting for \"%s\"\n", s->wait_text);
		s->code = EXIT_SCRIPT_TIMEOUT;
		event_base_loopexit(s->base, NULL);
	}
}

static void start_timer(struct script *s, double seconds)
{
	struct timeval tv = { (time_t)seconds, (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6) };

	evtimer_add(s->timer, &tv);
}

/* Whether a command line is "quit", the server's command that logs out. */
static bool is_quit(const char *line)
{
	size_t n = strcspn(line, " \t");

	return n == 4 && !strncasecmp(line, "quit", 4) && !line[n + strspn(line + n, " \t")];
}

/* Runs script lines until one has to wait (a reply, a #wait, a #sleep). */
static void advance(struct script *s)
{
	char out[INPUT_LINE_MAX];

	while (s->online && !s->quitting && !s->waiting_id && !s->wait_text[0] && !s->sleeping) {
		size_t len;
		char *line = evbuffer_readln(s->queue, &len, EVBUFFER_EOL_ANY);
		if (!line) {
			if (s->input_done && evbuffer_get_length(s->queue) == 0) {
				s->quitting = true;
				ics_command(s->ics, "quit");
			} else if (s->input_done) {
				/* A last line without a newline. */
				evbuffer_add(s->queue, "\n", 1);
				continue;
			}
			return;
		}
		char *text = line;
		while (*text == ' ' || *text == '\t')
			text++;
		if (!strncmp(text, "#wait ", 6)) {
			snprintf(s->wait_text, sizeof s->wait_text, "%s", text + 6);
			for (int i = 0; i < s->backlog_count; i++)
				if (strstr(s->backlog[i], s->wait_text)) {
					s->wait_text[0] = '\0';
					break;
				}
			backlog_clear(s);
			if (s->wait_text[0])
				start_timer(s, SCRIPT_WAIT_SECONDS);
		} else if (!strncmp(text, "#sleep ", 7)) {
			s->sleeping = true;
			start_timer(s, atof(text + 7));
		} else if (*text && *text != '#') {
			enum input_kind k = input_read(s->view, s->lang, text, out, sizeof out);
			if (k == INPUT_BAD_MOVE) {
				printf("%s\n", out);
			} else if (is_quit(out)) {
				/* The script's own way out: the server's close is then the end. */
				s->quitting = true;
				ics_command(s->ics, "quit");
			} else {
				s->waiting_id = ics_command(s->ics, out);
			}
		}
		free(line);
	}
}

static void on_online(void *arg)
{
	struct script *s = arg;

	s->online = true;
	advance(s);
}

static void on_line(void *arg, const char *line, long block)
{
	struct script *s = arg;
	struct style12 s12;
	char reason[GAME_VIEW_RESULT_MAX], result[16];
	int game;

	(void)block;
	if (!*line)
		return;
	printf("%s\n", line);
	fflush(stdout);
	if (!style12_parse(line, &s12))
		game_view_update(s->view, &s12, 0);
	else if (!game_view_parse_end(line, &game, reason, sizeof reason, result, sizeof result) &&
	    game == game_view_number(s->view))
		game_view_end(s->view, reason, result);
	if (s->wait_text[0] && strstr(line, s->wait_text)) {
		s->wait_text[0] = '\0';
		evtimer_del(s->timer);
		backlog_clear(s);
		advance(s);
	} else {
		backlog_add(s, line);
	}
}

static void on_block_end(void *arg, long id)
{
	struct script *s = arg;

	if (id == s->waiting_id) {
		s->waiting_id = 0;
		advance(s);
	}
}

static void on_ended(void *arg, enum ics_exit code, const char *why)
{
	struct script *s = arg;

	if (code != EXIT_OK || !s->quitting)
		fprintf(stderr, "chess: %s\n", why);
	s->code = code == EXIT_OK && !s->quitting ? EXIT_FAILURE_RUNTIME : code;
	if (code == EXIT_OK && !s->quitting && !s->online)
		s->code = EXIT_FAILURE_RUNTIME;
	event_base_loopexit(s->base, NULL);
}

const struct ics_handler *script_handler(void)
{
	static const struct ics_handler h = { on_online, on_line, on_block_end, on_ended };
	return &h;
}

static void stdin_read(struct bufferevent *bev, void *arg)
{
	struct script *s = arg;

	evbuffer_add_buffer(s->queue, bufferevent_get_input(bev));
	advance(s);
}

static void stdin_event(struct bufferevent *bev, short what, void *arg)
{
	struct script *s = arg;

	(void)what;
	evbuffer_add_buffer(s->queue, bufferevent_get_input(bev));
	bufferevent_disable(bev, EV_READ);
	s->input_done = true;
	advance(s);
}

struct script *script_new(struct event_base *base, const char *path, enum san_lang lang,
    char *why, size_t why_len)
{
	struct script *s = calloc(1, sizeof *s);
	struct stat st;

	if (!s || !(s->queue = evbuffer_new()) || !(s->view = game_view_new(lang)) ||
	    !(s->timer = evtimer_new(base, timer_cb, s)) ||
	    !(s->backlog = calloc(SCRIPT_BACKLOG_LINES, sizeof *s->backlog))) {
		snprintf(why, why_len, "out of memory");
		script_free(s);
		return NULL;
	}
	s->base = base;
	s->lang = lang;
	s->code = EXIT_OK;
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(why, why_len, "%s: %s", path ? path : "standard input", strerror(errno));
		script_free(s);
		return NULL;
	}
	if (S_ISREG(st.st_mode)) {
		/* epoll cannot wait on a regular file: read it all now. */
		while (evbuffer_read(s->queue, fd, 65536) > 0)
			;
		s->input_done = true;
		if (path)
			close(fd);
	} else {
		evutil_make_socket_nonblocking(fd);
		s->in = bufferevent_socket_new(base, fd, path ? BEV_OPT_CLOSE_ON_FREE : 0);
		if (!s->in) {
			snprintf(why, why_len, "cannot read the script");
			script_free(s);
			return NULL;
		}
		bufferevent_setcb(s->in, stdin_read, NULL, stdin_event, s);
		bufferevent_enable(s->in, EV_READ);
	}
	return s;
}

void script_attach(struct script *s, struct ics *c)
{
	s->ics = c;
}

enum ics_exit script_exit_code(const struct script *s)
{
	return s->code;
}

void script_free(struct script *s)
{
	if (!s)
		return;
	if (s->in)
		bufferevent_free(s->in);
	if (s->timer)
		event_free(s->timer);
	if (s->backlog) {
		backlog_clear(s);
		free(s->backlog);
	}
	if (s->queue)
		evbuffer_free(s->queue);
	game_view_free(s->view);
	free(s);
}
