/* Server settings: defaults, then an optional `key = value` file, then options. */
#ifndef CHESSD_CONFIG_H
#define CHESSD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct limits {
	int line_bytes;
	int clients;
	int clients_per_address;
	int handshake_ms;
	int login_ms;
	int unauth_idle_ms;
	int commands_per_sec;
	int command_burst;
	int output_soft_bytes;
	int output_hard_bytes;
	int output_total_bytes;
	int login_free_failures;
	int login_delay_base_ms;
	int login_delay_max_ms;
	int login_tries_per_conn;
	int accept_pause_ms;
	int reconnect_grace_ms;
	int moretime_max_s;
	int tourney_forfeit_ms;
	int wal_checkpoint_pages;
	int offers_per_user;
	int offers_total;
	int lines_per_pass;
	int games_per_minute;
	int games_per_minute_per_address;
	int examined_games;
	int examine_plies;
	int tourney_aborts;
	int tourney_name_chars;
	int registrations_per_conn;
	int registrations_per_address_hour;
	int messages_per_user;
	int address_bans;
	int hasher_threads;
	int unwinnable_nodes;
	int verdict_threads;
	int verdict_queue;
	int hasher_queue;
	int seeks_per_user;
	int formula_chars;
	int formula_depth;
	int http_request_line_bytes;
	int http_header_bytes;
	int http_request_ms;
	int web_streams_per_address;
	int web_streams;
	int web_heartbeat_ms;
	int web_games_per_request;
	int tourney_delay_max_s;
	int list_entries;
	int listen_backlog;
	int rank_lines;
	int handles_shown;
};

struct config {
	char *data_dir;
	char *bind;		/* NULL: all addresses */
	int port;		/* 0: no plain listener */
	int tls_port;		/* 0: no TLS listener */
	int http_port;		/* 0: no plain web listener */
	int https_port;		/* 0: no HTTPS listener */
	int public_delay_s;	/* live moves reach the web this much later */
	char *cert_file, *key_file;
	bool registration_open;
	char *server_name;	/* in the banner */
	char *ban_addresses;	/* address ranges refused, separated by commas or blanks */
	struct limits limits;
};

void config_defaults(struct config *c);
/* Reads FILE; unknown keys and bad values are errors naming the line. */
int config_load(struct config *c, const char *path, char *err, size_t errlen);
/* Sets one key from text, as in the file. */
int config_set(struct config *c, const char *key, const char *value, char *err, size_t errlen);
void config_free(struct config *c);

#endif
