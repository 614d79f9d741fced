#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "formula.h"
#include "limit.h"
#include "number.h"

static char *dup_or_die(const char *s)
{
	char *copy = strdup(s);

	if (!copy) {
		fputs("chessd: out of memory\n", stderr);
		exit(1);
	}
	return copy;
}

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof *c);
	c->data_dir = dup_or_die("./chessd-data");
	c->port = 5000;
	c->tls_port = 5001;
	c->http_port = 8080;
	c->https_port = 8443;
	c->registration_open = true;
	c->server_name = dup_or_die("chessd");
	c->limits = (struct limits){
		.line_bytes = LIMIT_LINE_BYTES,
		.clients = LIMIT_CLIENTS,
		.clients_per_address = LIMIT_CLIENTS_PER_ADDRESS,
		.handshake_ms = LIMIT_HANDSHAKE_MS,
		.login_ms = LIMIT_LOGIN_MS,
		.unauth_idle_ms = LIMIT_UNAUTH_IDLE_MS,
		.commands_per_sec = LIMIT_COMMANDS_PER_SEC,
		.command_burst = LIMIT_COMMAND_BURST,
		.output_soft_bytes = LIMIT_OUTPUT_SOFT_BYTES,
		.output_hard_bytes = LIMIT_OUTPUT_HARD_BYTES,
		.output_total_bytes = LIMIT_OUTPUT_TOTAL_BYTES,
		.login_free_failures = LIMIT_LOGIN_FREE_FAILURES,
		.login_delay_base_ms = LIMIT_LOGIN_DELAY_BASE_MS,
		.login_delay_max_ms = LIMIT_LOGIN_DELAY_MAX_MS,
		.login_tries_per_conn = LIMIT_LOGIN_TRIES_PER_CONN,
		.accept_pause_ms = LIMIT_ACCEPT_PAUSE_MS,
		.reconnect_grace_ms = LIMIT_RECONNECT_GRACE_MS,
		.moretime_max_s = LIMIT_MORETIME_MAX_S,
		.tourney_forfeit_ms = LIMIT_TOURNEY_FORFEIT_MS,
		.wal_checkpoint_pages = LIMIT_WAL_CHECKPOINT_PAGES,
		.offers_per_user = LIMIT_OFFERS_PER_USER,
		.offers_total = LIMIT_OFFERS_TOTAL,
		.lines_per_pass = LIMIT_LINES_PER_PASS,
		.games_per_minute = LIMIT_GAMES_PER_MINUTE,
		.games_per_minute_per_address = LIMIT_GAMES_PER_MINUTE_PER_ADDRESS,
		.examined_games = LIMIT_EXAMINED_GAMES,
		.examine_plies = LIMIT_EXAMINE_PLIES,
		.tourney_aborts = LIMIT_TOURNEY_ABORTS,
		.tourney_name_chars = LIMIT_TOURNEY_NAME_CHARS,
		.registrations_per_conn = LIMIT_REGISTRATIONS_PER_CONN,
		.registrations_per_address_hour = LIMIT_REGISTRATIONS_PER_ADDRESS_HOUR,
		.messages_per_user = LIMIT_MESSAGES_PER_USER,
		.address_bans = LIMIT_ADDRESS_BANS,
		.hasher_threads = LIMIT_HASHER_THREADS,
		.unwinnable_nodes = LIMIT_UNWINNABLE_NODES,
		.verdict_threads = LIMIT_VERDICT_THREADS,
		.verdict_queue = LIMIT_VERDICT_QUEUE,
		.hasher_queue = LIMIT_HASHER_QUEUE,
		.seeks_per_user = LIMIT_SEEKS_PER_USER,
		.formula_chars = LIMIT_FORMULA_CHARS,
		.formula_depth = LIMIT_FORMULA_DEPTH,
		.http_request_line_bytes = LIMIT_HTTP_REQUEST_LINE_BYTES,
		.http_header_bytes = LIMIT_HTTP_HEADER_BYTES,
		.http_request_ms = LIMIT_HTTP_REQUEST_MS,
		.web_streams_per_address = LIMIT_WEB_STREAMS_PER_ADDRESS,
		.web_streams = LIMIT_WEB_STREAMS,
		.web_heartbeat_ms = LIMIT_WEB_HEARTBEAT_MS,
		.web_games_per_request = LIMIT_WEB_GAMES_PER_REQUEST,
		.tourney_delay_max_s = LIMIT_TOURNEY_DELAY_MAX_S,
		.list_entries = LIMIT_LIST_ENTRIES,
		.listen_backlog = LIMIT_LISTEN_BACKLOG,
		.rank_lines = LIMIT_RANK_LINES,
		.handles_shown = LIMIT_HANDLES_SHOWN,
	};
}

void config_free(struct config *c)
{
	free(c->data_dir);
	free(c->bind);
	free(c->cert_file);
	free(c->key_file);
	free(c->server_name);
	free(c->ban_addresses);
	memset(c, 0, sizeof *c);
}

/* The integer settings: name, where it lives, smallest and largest value. */
static const struct int_key {
	const char *name;
	size_t offset;
	long min, max;
} int_keys[] = {
#define LIMIT_KEY(field, lo, hi) \
	{ #field, offsetof(struct config, limits) + offsetof(struct limits, field), lo, hi }
	{ "port", offsetof(struct config, port), 0, 65535 },
	{ "tls_port", offsetof(struct config, tls_port), 0, 65535 },
	{ "http_port", offsetof(struct config, http_port), 0, 65535 },
	{ "https_port", offsetof(struct config, https_port), 0, 65535 },
	{ "public_delay_s", offsetof(struct config, public_delay_s), 0, 86400 },
	LIMIT_KEY(line_bytes, 16, 65536),
	LIMIT_KEY(clients, 1, 1000000),
	LIMIT_KEY(clients_per_address, 1, 1000000),
	LIMIT_KEY(handshake_ms, 10, 600000),
	LIMIT_KEY(login_ms, 10, 3600000),
	LIMIT_KEY(unauth_idle_ms, 10, 3600000),
	LIMIT_KEY(commands_per_sec, 1, 100000),
	LIMIT_KEY(command_burst, 1, 100000),
	LIMIT_KEY(output_soft_bytes, 1024, 1 << 30),
	LIMIT_KEY(output_hard_bytes, 1024, 1 << 30),
	LIMIT_KEY(output_total_bytes, 1024, INT_MAX),
	LIMIT_KEY(login_free_failures, 0, 1000),
	LIMIT_KEY(login_delay_base_ms, 0, 600000),
	LIMIT_KEY(login_delay_max_ms, 0, 3600000),
	LIMIT_KEY(login_tries_per_conn, 1, 1000),
	LIMIT_KEY(accept_pause_ms, 1, 600000),
	LIMIT_KEY(reconnect_grace_ms, 0, 3600000),
	LIMIT_KEY(moretime_max_s, 1, 86400),
	LIMIT_KEY(tourney_forfeit_ms, 0, 86400000),
	LIMIT_KEY(wal_checkpoint_pages, 1, 1000000),
	LIMIT_KEY(offers_per_user, 1, 10000),
	LIMIT_KEY(offers_total, 1, 50000),	/* well inside the 99999 numbers */
	LIMIT_KEY(lines_per_pass, 1, 100000),
	LIMIT_KEY(games_per_minute, 1, 100000),
	LIMIT_KEY(games_per_minute_per_address, 1, 1000000),
	LIMIT_KEY(examined_games, 1, LIMIT_GAMES),
	LIMIT_KEY(examine_plies, 1, 100000),
	LIMIT_KEY(tourney_aborts, 1, 1000),
	LIMIT_KEY(tourney_name_chars, 1, 63),	/* TOURNEY_NAME_MAX - 1 */
	LIMIT_KEY(registrations_per_conn, 0, 1000),
	LIMIT_KEY(registrations_per_address_hour, 0, 1000000),
	LIMIT_KEY(messages_per_user, 1, 100000),
	LIMIT_KEY(address_bans, 1, 1000000),
	LIMIT_KEY(hasher_threads, 0, 64),
	LIMIT_KEY(unwinnable_nodes, 1, 10000000),
	LIMIT_KEY(verdict_threads, 1, 16),
	LIMIT_KEY(verdict_queue, 1, 10000),
	LIMIT_KEY(hasher_queue, 1, 100000),
	LIMIT_KEY(seeks_per_user, 1, 1000),
	LIMIT_KEY(formula_chars, 1, 64),	/* VAR_STRING_MAX */
	LIMIT_KEY(formula_depth, 1, FORMULA_DEPTH_CAP),
	LIMIT_KEY(http_request_line_bytes, 64, 65536),
	LIMIT_KEY(http_header_bytes, 256, 1 << 20),
	LIMIT_KEY(http_request_ms, 1000, 3600000),
	LIMIT_KEY(web_streams_per_address, 1, 1000000),
	LIMIT_KEY(web_streams, 1, 1000000),
	LIMIT_KEY(web_heartbeat_ms, 100, 3600000),
	LIMIT_KEY(web_games_per_request, 1, 1000000),
	LIMIT_KEY(tourney_delay_max_s, 0, 86400),
	LIMIT_KEY(list_entries, 1, 10000),
	LIMIT_KEY(listen_backlog, 1, 65535),
	LIMIT_KEY(rank_lines, 1, 10000),
	LIMIT_KEY(handles_shown, 1, 100000),
#undef LIMIT_KEY
};

static const struct string_key {
	const char *name;
	size_t offset;
} string_keys[] = {
	{ "data", offsetof(struct config, data_dir) },
	{ "bind", offsetof(struct config, bind) },
	{ "cert", offsetof(struct config, cert_file) },
	{ "key", offsetof(struct config, key_file) },
	{ "server_name", offsetof(struct config, server_name) },
	{ "ban_addresses", offsetof(struct config, ban_addresses) },
};

int config_set(struct config *c, const char *key, const char *value, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof int_keys / sizeof int_keys[0]; i++) {
		if (strcmp(key, int_keys[i].name))
			continue;
		long v;
		if (number_parse(value, int_keys[i].min, int_keys[i].max, &v) != NUMBER_OK) {
			snprintf(err, errlen, "%s must be a whole number from %ld to %ld", key,
			    int_keys[i].min, int_keys[i].max);
			return -1;
		}
		*(int *)((char *)c + int_keys[i].offset) = (int)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof string_keys / sizeof string_keys[0]; i++) {
		if (strcmp(key, string_keys[i].name))
			continue;
		char **slot = (char **)((char *)c + string_keys[i].offset);
		free(*slot);
		*slot = dup_or_die(value);
		return 0;
	}
	if (!strcmp(key, "registration")) {
		if (strcmp(value, "open") && strcmp(value, "closed")) {
			snprintf(err, errlen, "registration must be open or closed");
			return -1;
		}
		c->registration_open = !strcmp(value, "open");
		return 0;
	}
	snprintf(err, errlen, "unknown setting '%s'", key);
	return -1;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

int config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[1024], why[256];
	int n = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		n++;
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errlen, "%s:%d: expected key = value", path, n);
			fclose(f);
			return -1;
		}
		*eq = '\0';
		if (config_set(c, trim(s), trim(eq + 1), why, sizeof why) < 0) {
			snprintf(err, errlen, "%s:%d: %s", path, n, why);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (c->limits.output_soft_bytes > c->limits.output_hard_bytes) {
		snprintf(err, errlen, "%s: output_soft_bytes exceeds output_hard_bytes", path);
		return -1;
	}
	return 0;
}
