#include "ics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "known_hosts.h"
#include "net.h"
#include "proto.h"

#define ICS_NAME_MAX 32
/* The server's reconnect key for a guest's seat: 128 bits in hex. */
#define ICS_KEY_LEN 32
#define ICS_KEY_LINE "Your reconnect key is "

enum ics_state { ICS_CONNECTING, ICS_LOGIN, ICS_SETUP, ICS_ONLINE, ICS_DONE };

/* What the client turns on after login, each answered by "X set." */
static const char *const setup_commands[] = {
	"iset defprompt 1", "iset ms 1", "iset nowrap 1", "style 12",
};
/* ...and for a program: seeks and offers as <s>/<pf> lines, not in words. */
static const char *const machine_commands[] = {
	"iset seekinfo 1", "iset seekremove 1", "iset pendinfo 1",
};

struct ics {
	struct event_base *base;
	struct net_options net_options;
	char host[256];
	char known_hosts[4096];
	struct net *net;
	struct proto *proto;
	struct ics_handler h;
	void *arg;
	enum ics_state state;
	bool human;			/* a person reads the lines (and may type a login) */
	bool ask_name;			/* the next login prompt asks the person for a name */
	bool name_asked;		/* the name is one the person typed */
	bool password_given;		/* the password came with the options */
	bool bad_password;		/* the server refused the password asked for */
	bool was_online;		/* logged in once: a reconnection asks nothing */
	char user[ICS_NAME_MAX];
	char *password;
	char name[ICS_NAME_MAX];
	bool sent_name, sent_password, block_mode;
	/* An unregistered player in a game keeps its name and the seat's key to come back with. */
	char key[ICS_KEY_LEN + 1];
	bool using_key;			/* this login offers the key */
	long next_id, last_setup_id;
};

static void ics_end(struct ics *c, enum ics_exit code, const char *why)
{
	if (c->state == ICS_DONE)
		return;
	c->state = ICS_DONE;
	c->h.ended(c->arg, code, why);
}

/*
 * Reads one line from the terminal after prompt, with echo off when secret;
 * NULL when there is no terminal or it ended.
 */
static char *ask_line(const char *prompt, bool secret)
{
	char buf[256];
	struct termios old, quiet;
	FILE *tty = fopen("/dev/tty", "r+");

	if (!tty)
		return NULL;
	fputs(prompt, tty);
	fflush(tty);
	bool echo_off = secret && tcgetattr(fileno(tty), &old) == 0;
	if (echo_off) {
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		tcsetattr(fileno(tty), TCSAFLUSH, &quiet);
	}
	char *got = fgets(buf, sizeof buf, tty);
	if (echo_off) {
		tcsetattr(fileno(tty), TCSAFLUSH, &old);
		fputs("\n", tty);
	}
	fclose(tty);
	if (!got)
		return NULL;
	buf[strcspn(buf, "\r\n")] = '\0';
	char *copy = strdup(buf);
	OPENSSL_cleanse(buf, sizeof buf);
	return copy;
}

/*
 * Asks the person for a login name: Return or "guest" is a guest (no user);
 * -1 when the terminal gave nothing.
 */
static int ask_name(struct ics *c)
{
	char *line = ask_line("login: ", false);

	if (!line)
		return -1;
	char *name = line + strspn(line, " \t");
	name[strcspn(name, " \t")] = '\0';
	snprintf(c->user, sizeof c->user, "%s", strcasecmp(name, "guest") ? name : "");
	free(line);
	c->ask_name = false;
	return 0;
}

static void forget_password(struct ics *c)
{
	if (!c->password)
		return;
	OPENSSL_cleanse(c->password, strlen(c->password));
	free(c->password);
	c->password = NULL;
}

/* The server asks for a name again: a person may try once more, a program not. */
static void login_again(struct ics *c)
{
	bool retry = c->human && !c->was_online && (c->bad_password ? !c->password_given :
	    c->name_asked);

	if (!retry) {
		ics_end(c, EXIT_LOGIN, c->sent_password ? "login failed: invalid password" :
		    "login failed: the server did not accept the name");
		return;
	}
	/* A name typed here may be the mistake; one given on the command line is not. */
	if (c->name_asked)
		c->ask_name = true;
	c->bad_password = c->sent_password = false;
	c->sent_name = false;
}

static void on_prompt(void *arg, enum proto_prompt kind)
{
	struct ics *c = arg;

	switch (kind) {
	case PROMPT_LOGIN:
		if (c->state != ICS_LOGIN)
			return;
		if (c->sent_name && c->using_key) {
			/* The seat is gone (or the key refused): come back as a new guest. */
			OPENSSL_cleanse(c->key, sizeof c->key);
			c->using_key = c->sent_password = false;
			net_printf(c->net, "%s\n", c->user[0] ? c->user : "guest");
			return;
		}
		if (c->sent_name) {
			login_again(c);
			if (c->state == ICS_DONE)
				return;
		}
		if (c->ask_name && ask_name(c) < 0) {
			ics_end(c, EXIT_LOGIN, "login failed: no name given");
			return;
		}
		c->sent_name = true;
		net_printf(c->net, "%s\n", c->using_key ? c->name : c->user[0] ? c->user : "guest");
		return;
	case PROMPT_PASSWORD:
		if (c->state != ICS_LOGIN || c->sent_password)
			return;
		if (c->using_key) {
			c->sent_password = true;
			net_printf(c->net, "%s\n", c->key);
			return;
		}
		if (!c->password && !(c->password = ask_line("password: ", true))) {
			ics_end(c, EXIT_LOGIN, "a password is needed: use --password-file or CHESS_PASSWORD");
			return;
		}
		c->sent_password = true;
		net_printf(c->net, "%s\n", c->password);
		return;
	case PROMPT_COMMAND:
		return;
	}
}

static void start_setup(struct ics *c, const char *line)
{
	const char *name = line + strlen("**** Starting FICS session as ");
	size_t n = strcspn(name, "( *");

	snprintf(c->name, sizeof c->name, "%.*s", (int)(n < ICS_NAME_MAX ? n : ICS_NAME_MAX - 1), name);
	c->state = ICS_SETUP;
	net_printf(c->net, "iset block 1\n");
	c->block_mode = true;
	for (size_t i = 0; i < sizeof setup_commands / sizeof setup_commands[0]; i++)
		c->last_setup_id = ics_command(c, setup_commands[i]);
	for (size_t i = 0; !c->human && i < sizeof machine_commands / sizeof machine_commands[0]; i++)
		c->last_setup_id = ics_command(c, machine_commands[i]);
}

/* "Your reconnect key is HEX: ..." keeps HEX for the next login of this guest. */
static void keep_key(struct ics *c, const char *text)
{
	size_t n = strspn(text, "0123456789abcdef");

	if (n == ICS_KEY_LEN && text[n] == ':')
		snprintf(c->key, sizeof c->key, "%.*s", (int)n, text);
}

static void on_line(void *arg, const char *line, long block)
{
	struct ics *c = arg;

	if (c->state == ICS_DONE)
		return;
	if (c->state == ICS_LOGIN) {
		if (!strncmp(line, "Press return to enter the server as ", 36)) {
			net_printf(c->net, "\n");
		} else if (!strncmp(line, "**** Starting FICS session as ", 30)) {
			c->h.line(c->arg, line, -1);
			start_setup(c, line);
			return;
		} else if (!strcmp(line, "**** Invalid password! ****")) {
			if (!c->human || c->password_given || c->was_online) {
				ics_end(c, EXIT_LOGIN, "login failed: invalid password");
				return;
			}
			/* Shown, and the password asked again at the next login prompt. */
			c->bad_password = true;
			forget_password(c);
		}
	}
	if (!strncmp(line, ICS_KEY_LINE, strlen(ICS_KEY_LINE)))
		keep_key(c, line + strlen(ICS_KEY_LINE));
	if (block > 0 && block <= c->last_setup_id)
		return;				/* the replies to our own set-up */
	if (c->state == ICS_SETUP && block < 0 && !strcmp(line, "block set."))
		return;
	c->h.line(c->arg, line, block);
}

static void on_block_end(void *arg, long id, int code)
{
	struct ics *c = arg;

	(void)code;
	if (c->state == ICS_SETUP && id == c->last_setup_id) {
		c->state = ICS_ONLINE;
		c->was_online = true;
		c->h.online(c->arg);
		return;
	}
	if (c->state == ICS_ONLINE && id > c->last_setup_id)
		c->h.block_end(c->arg, id);
}

static void on_connected(void *arg)
{
	struct ics *c = arg;

	c->state = ICS_LOGIN;
}

static void on_read(void *arg, const char *data, size_t len)
{
	struct ics *c = arg;

	/* A plain connection can be read before its "connected" timer has run. */
	if (c->state == ICS_CONNECTING)
		c->state = ICS_LOGIN;
	proto_feed(c->proto, data, len);
}

static void on_net_ended(void *arg, enum net_end how, const char *why)
{
	struct ics *c = arg;

	switch (how) {
	case NET_END_CERT_CHANGED:
		ics_end(c, EXIT_CERT_CHANGED, why);
		break;
	case NET_END_CERT_UNTRUSTED:
		ics_end(c, EXIT_CERT_UNTRUSTED, why);
		break;
	case NET_END_CLOSED:
		if (c->state == ICS_LOGIN && c->bad_password)
			ics_end(c, EXIT_LOGIN, "login failed: invalid password");
		else
			ics_end(c, c->state == ICS_ONLINE ? EXIT_OK : EXIT_FAILURE_RUNTIME, why);
		break;
	case NET_END_ERROR:
		ics_end(c, EXIT_FAILURE_RUNTIME, why);
		break;
	}
}

static const struct proto_callbacks proto_callbacks = { on_line, on_prompt, on_block_end };
static const struct net_callbacks net_callbacks = { on_connected, on_read, on_net_ended };

struct ics *ics_new(struct event_base *base, const struct ics_options *o,
    const struct ics_handler *h, void *arg, char *why, size_t why_len)
{
	struct ics *c = calloc(1, sizeof *c);

	if (!c || !(c->proto = proto_new(&proto_callbacks, c))) {
		snprintf(why, why_len, "out of memory");
		ics_free(c);
		return NULL;
	}
	c->h = *h;
	c->arg = arg;
	c->next_id = 1;
	c->human = o->human;
	c->ask_name = c->name_asked = o->human && !o->user;
	c->password_given = o->password != NULL;
	/* "--user guest" is a guest, as at the login prompt. */
	snprintf(c->user, sizeof c->user, "%s", o->user && strcasecmp(o->user, "guest") ? o->user : "");
	if (o->password && !(c->password = strdup(o->password))) {
		snprintf(why, why_len, "out of memory");
		ics_free(c);
		return NULL;
	}
	c->base = base;
	snprintf(c->host, sizeof c->host, "%s", o->host);
	c->net_options = (struct net_options){ .host = c->host, .port = o->port, .tls = o->tls,
	    .known_hosts = known_hosts_path(c->known_hosts, sizeof c->known_hosts) == 0 ?
	    c->known_hosts : NULL, .accept_new = o->accept_new };
	if (!(c->net = net_connect(base, &c->net_options, &net_callbacks, c, why, why_len))) {
		ics_free(c);
		return NULL;
	}
	return c;
}

int ics_reconnect(struct ics *c, char *why, size_t why_len)
{
	struct proto *fresh = proto_new(&proto_callbacks, c);

	if (!fresh) {
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	net_free(c->net);
	proto_free(c->proto);
	c->proto = fresh;
	c->state = ICS_CONNECTING;
	c->sent_name = c->sent_password = c->block_mode = false;
	/* An unregistered player with a seat's key asks for its own name back. */
	c->using_key = c->key[0] && c->name[0];
	/* Ids go on from where they were: a late reply can never pass for a new one. */
	if (!(c->net = net_connect(c->base, &c->net_options, &net_callbacks, c, why, why_len))) {
		c->state = ICS_DONE;
		return -1;
	}
	return 0;
}

bool ics_guest(const struct ics *c)
{
	return !c->user[0];
}

bool ics_reclaiming(const struct ics *c)
{
	return c->using_key;
}

long ics_command(struct ics *c, const char *command)
{
	if (c->state == ICS_DONE || c->state == ICS_CONNECTING)
		return 0;
	if (!c->block_mode) {
		net_printf(c->net, "%s\n", command);
		return 0;
	}
	long id = c->next_id++;
	net_printf(c->net, "%ld %s\n", id, command);
	return id;
}

const char *ics_name(const struct ics *c)
{
	return c->name;
}

bool ics_online(const struct ics *c)
{
	return c->state == ICS_ONLINE;
}

void ics_free(struct ics *c)
{
	if (!c)
		return;
	net_free(c->net);
	proto_free(c->proto);
	forget_password(c);
	OPENSSL_cleanse(c->key, sizeof c->key);
	free(c);
}
