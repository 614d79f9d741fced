/*
 * chess: the terminal client.  Connects to a chessd (FICS) server over TLS
 * by default, then runs one of three front ends on the connection: the
 * interactive board (ui.c), the non-interactive script runner (script.c) or
 * an engine account (bot.c).
 */
#include <getopt.h>
#include <locale.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <openssl/crypto.h>

#include "bot.h"
#include "ics.h"
#include "number.h"
#include "script.h"
#include "ui.h"

#define DEFAULT_TLS_PORT 5001
#define DEFAULT_PLAIN_PORT 5000
#define PASSWORD_MAX 256

static void usage(FILE *f)
{
	fprintf(f,
	    "usage: chess [--plain] [--port N] [--user NAME] [--password-file FILE]\n"
	    "             [--ascii] [--lang en|es] [--resume] [--accept-new] [--script FILE] HOST\n"
	    "       chess --engine PATH [--engine-option NAME=VALUE]... [--seek \"MIN INC\"]\n"
	    "             [--max-games N] [--accept-from NAME]... --user NAME HOST\n"
	    "The password comes from --password-file, else $CHESS_PASSWORD, else the terminal.\n"
	    "Without --user the terminal asks for a name (Return: a guest), and asks again\n"
	    "after a wrong password it asked for.\n"
	    "A lost connection is re-established; --resume then also resumes the game that\n"
	    "was being played if the server adjourned it meanwhile.\n"
	    "A certificate no authority signed is pinned when first seen, once confirmed on\n"
	    "the terminal (--accept-new: without asking); a changed one is refused.\n");
}

static char *read_password_file(const char *path)
{
	char buf[PASSWORD_MAX];
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof buf, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	char *copy = strdup(buf);
	OPENSSL_cleanse(buf, sizeof buf);
	return copy;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "plain", no_argument, NULL, 'P' }, { "port", required_argument, NULL, 'p' },
		{ "user", required_argument, NULL, 'u' },
		{ "password-file", required_argument, NULL, 'w' },
		{ "ascii", no_argument, NULL, 'a' }, { "lang", required_argument, NULL, 'l' },
		{ "script", required_argument, NULL, 's' }, { "engine", required_argument, NULL, 'e' },
		{ "engine-option", required_argument, NULL, 'o' }, { "seek", required_argument, NULL, 'k' },
		{ "max-games", required_argument, NULL, 'm' },
		{ "accept-from", required_argument, NULL, 'f' }, { "help", no_argument, NULL, 'h' },
		{ "resume", no_argument, NULL, 'r' }, { "accept-new", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct ics_options io = { .tls = true };
	struct bot_options bo = { .seek = NULL, .max_games = 1 };
	const char *password_file = NULL, *script_path = NULL;
	bool ascii = false, resume = false;
	enum san_lang lang = SAN_ENGLISH;
	long port = 0, max_games = 1;
	int opt;
	char why[1024];

	setlocale(LC_ALL, "");
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'P': io.tls = false; break;
		case 'p':
			if (number_parse(optarg, 1, 65535, &port) != NUMBER_OK) {
				fprintf(stderr, "chess: --port takes a number from 1 to 65535\n");
				return EXIT_USAGE;
			}
			break;
		case 'u': io.user = optarg; break;
		case 'w': password_file = optarg; break;
		case 'a': ascii = true; break;
		case 'r': resume = true; break;
		case 'n': io.accept_new = true; break;
		case 'l':
			if (!strcmp(optarg, "es"))
				lang = SAN_SPANISH;
			else if (strcmp(optarg, "en")) {
				fprintf(stderr, "chess: --lang takes en or es\n");
				return EXIT_USAGE;
			}
			break;
		case 's': script_path = optarg; break;
		case 'e': bo.engine = optarg; break;
		case 'o':
			if (bo.option_count == BOT_OPTIONS_MAX || !strchr(optarg, '=')) {
				fprintf(stderr, "chess: --engine-option takes NAME=VALUE (at most %d)\n",
				    BOT_OPTIONS_MAX);
				return EXIT_USAGE;
			}
			bo.options[bo.option_count++] = optarg;
			break;
		case 'k': bo.seek = optarg; break;
		case 'm':
			if (number_parse(optarg, 1, BOT_GAMES_MAX, &max_games) != NUMBER_OK) {
				fprintf(stderr, "chess: --max-games takes a number from 1 to %d\n",
				    BOT_GAMES_MAX);
				return EXIT_USAGE;
			}
			bo.max_games = (int)max_games;
			break;
		case 'f':
			if (bo.accept_count == BOT_OPTIONS_MAX) {
				fprintf(stderr, "chess: too many --accept-from\n");
				return EXIT_USAGE;
			}
			bo.accept_from[bo.accept_count++] = optarg;
			break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (bo.engine && !io.user) {
		fprintf(stderr, "chess: an engine account needs --user\n");
		return EXIT_USAGE;
	}
	io.host = argv[optind];
	io.port = port ? (int)port : io.tls ? DEFAULT_TLS_PORT : DEFAULT_PLAIN_PORT;
	char *password = NULL;
	if (password_file && !(password = read_password_file(password_file))) {
		fprintf(stderr, "chess: cannot read %s\n", password_file);
		return EXIT_USAGE;
	}
	if (!password && getenv("CHESS_PASSWORD"))
		password = strdup(getenv("CHESS_PASSWORD"));
	io.password = password;
	signal(SIGPIPE, SIG_IGN);

	struct event_base *base = event_base_new();
	struct script *script = NULL;
	struct bot *bot = NULL;
	struct ui *ui = NULL;
	struct ics *ics = NULL;
	const struct ics_handler *handler;
	void *arg;
	int code = EXIT_FAILURE_RUNTIME;

	if (!base) {
		fprintf(stderr, "chess: cannot start the event loop\n");
		return EXIT_FAILURE_RUNTIME;
	}
	const char *codeset = nl_langinfo(CODESET);
	bool unicode = !ascii && codeset && !strcmp(codeset, "UTF-8");
	if (bo.engine) {
		bot = bot_new(base, &bo, why, sizeof why);
		handler = bot_handler();
		arg = bot;
	} else if (script_path || !isatty(STDIN_FILENO)) {
		script = script_new(base, script_path, lang, why, sizeof why);
		handler = script_handler();
		arg = script;
	} else {
		struct ui_options uo = { .unicode = unicode, .lang = lang, .auto_resume = resume };
		io.human = true;
		ui = ui_new(base, &uo, why, sizeof why);
		handler = ui_handler();
		arg = ui;
	}
	if (!arg) {
		fprintf(stderr, "chess: %s\n", why);
		goto out;
	}
	if (!(ics = ics_new(base, &io, handler, arg, why, sizeof why))) {
		fprintf(stderr, "chess: %s\n", why);
		goto out;
	}
	if (script)
		script_attach(script, ics);
	if (bot)
		bot_attach(bot, ics);
	if (ui)
		ui_attach(ui, ics);
	event_base_dispatch(base);
	code = script ? script_exit_code(script) : bot ? bot_exit_code(bot) : ui_exit_code(ui);
out:
	/* The front end first: it may still hold terminal state or engine processes. */
	ui_free(ui);
	script_free(script);
	bot_free(bot);
	ics_free(ics);
	event_base_free(base);
	if (password) {
		OPENSSL_cleanse(password, strlen(password));
		free(password);
	}
	return code;
}
