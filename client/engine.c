#include "engine.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "number.h"

struct engine {
	struct bufferevent *bev;
	pid_t pid;
	struct engine_callbacks cb;
	void *arg;
	bool have_score, dead;
	int score_cp;
};

static void read_cb(struct bufferevent *bev, void *arg)
{
	struct engine *e = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	char *line;
	size_t len;

	while ((line = evbuffer_readln(in, &len, EVBUFFER_EOL_ANY))) {
		char *score = strstr(line, " score ");
		int v;
		if (!strncmp(line, "info ", 5) && score && !strstr(line, "lowerbound") &&
		    !strstr(line, "upperbound")) {
			if (sscanf(score, " score cp " NUMBER_SCAN_INT, &v) == 1) {
				e->score_cp = v;
				e->have_score = true;
			} else if (sscanf(score, " score mate " NUMBER_SCAN_INT, &v) == 1) {
				e->score_cp = v > 0 ? ENGINE_MATE_CP - v : -ENGINE_MATE_CP - v;
				e->have_score = true;
			}
		} else if (!strncmp(line, "bestmove ", 9)) {
			char move[16] = "";
			sscanf(line + 9, "%15s", move);
			free(line);
			e->cb.bestmove(e->arg, move);
			continue;
		}
		free(line);
	}
	if (evbuffer_get_length(in) > ENGINE_LINE_MAX)
		evbuffer_drain(in, evbuffer_get_length(in));
}

static void event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct engine *e = arg;

	(void)bev;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
		e->dead = true;
		bufferevent_disable(e->bev, EV_READ | EV_WRITE);
		e->cb.died(e->arg, "the engine exited");
	}
}

static void send_line(struct engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void send_line(struct engine *e, const char *fmt, ...)
{
	va_list ap;

	if (e->dead)
		return;
	va_start(ap, fmt);
	evbuffer_add_vprintf(bufferevent_get_output(e->bev), fmt, ap);
	va_end(ap);
	bufferevent_write(e->bev, "\n", 1);
}

struct engine *engine_new(struct event_base *base, const char *path, const char *const *options,
    int option_count, const struct engine_callbacks *cb, void *arg, char *why, size_t why_len)
{
	int sv[2];
	struct engine *e = calloc(1, sizeof *e);

	if (!e) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	if (access(path, X_OK) < 0) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		free(e);
		return NULL;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(why, why_len, "socketpair: %s", strerror(errno));
		free(e);
		return NULL;
	}
	e->pid = fork();
	if (e->pid < 0) {
		snprintf(why, why_len, "fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		free(e);
		return NULL;
	}
	if (e->pid == 0) {
		dup2(sv[1], STDIN_FILENO);
		dup2(sv[1], STDOUT_FILENO);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	evutil_make_socket_nonblocking(sv[0]);
	e->cb = *cb;
	e->arg = arg;
	if (!(e->bev = bufferevent_socket_new(base, sv[0], BEV_OPT_CLOSE_ON_FREE))) {
		close(sv[0]);
		engine_free(e);
		snprintf(why, why_len, "cannot watch the engine");
		return NULL;
	}
	bufferevent_setcb(e->bev, read_cb, NULL, event_cb, e);
	bufferevent_enable(e->bev, EV_READ | EV_WRITE);
	/* UCI engines read commands in order: no need to wait for uciok first. */
	send_line(e, "uci");
	for (int i = 0; i < option_count; i++) {
		const char *eq = strchr(options[i], '=');
		send_line(e, "setoption name %.*s value %s", (int)(eq - options[i]), options[i], eq + 1);
	}
	send_line(e, "isready");
	return e;
}

void engine_new_game(struct engine *e)
{
	send_line(e, "ucinewgame");
	send_line(e, "isready");
	e->have_score = false;
}

void engine_go(struct engine *e, const char *position, long long wtime_ms, long long btime_ms,
    long long winc_ms, long long binc_ms)
{
	send_line(e, "position %s", position);
	send_line(e, "go wtime %lld btime %lld winc %lld binc %lld", wtime_ms > 0 ? wtime_ms : 1,
	    btime_ms > 0 ? btime_ms : 1, winc_ms, binc_ms);
}

bool engine_score_cp(const struct engine *e, int *cp)
{
	*cp = e->score_cp;
	return e->have_score;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	if (e->bev) {
		if (!e->dead) {
			send_line(e, "quit");
			evbuffer_write(bufferevent_get_output(e->bev), bufferevent_getfd(e->bev));
		}
		bufferevent_free(e->bev);
	}
	if (e->pid > 0) {
		int status;
		for (int waited = 0; waitpid(e->pid, &status, WNOHANG) == 0; waited += 10) {
			if (waited >= ENGINE_QUIT_WAIT_MS) {
				kill(e->pid, SIGKILL);
				waitpid(e->pid, &status, 0);
				break;
			}
			nanosleep(&(struct timespec){ 0, 10 * 1000000 }, NULL);
		}
	}
	free(e);
}
