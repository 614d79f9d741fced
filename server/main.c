/*
 * chessd: options and signals, then the server.  With a subcommand it
 * manages accounts instead (useradd, userdel, passwd), reading passwords
 * from standard input, one line each.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <openssl/crypto.h>

#include "config.h"
#include "db.h"
#include "limit.h"
#include "log.h"
#include "number.h"
#include "password.h"
#include "server.h"
#include "session.h"

static void usage(FILE *out)
{
	fprintf(out,
	    "usage: chessd [--data DIR] [--port N] [--tls-port N] [--bind ADDR] [--config FILE]\n"
	    "              [--http-port N] [--https-port N]\n"
	    "              [--cert FILE --key FILE] [--debug]\n"
	    "       chessd [--data DIR] useradd NAME [--admin]   (password on stdin)\n"
	    "       chessd [--data DIR] passwd NAME              (password on stdin)\n"
	    "       chessd [--data DIR] userdel NAME\n"
	    "       chessd [--data DIR] admin NAME on|off|LEVEL\n"
	    "       chessd [--data DIR] computer NAME on|off\n");
}

/* Reads one password line from stdin into buf; -1 on EOF or a bad password. */
static int read_password(char *buf, size_t len)
{
	char why[160];

	if (!fgets(buf, (int)len, stdin)) {
		fprintf(stderr, "chessd: no password on standard input\n");
		return -1;
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	if (!password_acceptable(buf, why, sizeof why)) {
		fprintf(stderr, "chessd: %s\n", why);
		return -1;
	}
	return 0;
}

static struct db *open_db(const struct config *cfg)
{
	char path[4096], err[512];

	if (mkdir(cfg->data_dir, 0700) < 0) {
		struct stat st;
		if (stat(cfg->data_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "chessd: cannot create %s\n", cfg->data_dir);
			return NULL;
		}
	}
	snprintf(path, sizeof path, "%s/chess.db", cfg->data_dir);
	struct db *db = db_open(path, err, sizeof err);
	if (!db)
		fprintf(stderr, "chessd: %s\n", err);
	return db;
}

/* Account management from the shell; exit 0 done, 1 failed, 2 usage. */
static int run_admin(const struct config *cfg, int argc, char **argv)
{
	const char *cmd = argv[0], *name = argc > 1 ? argv[1] : NULL;
	char why[160], password[PASSWORD_MAX_LEN + 2], hash[PASSWORD_HASH_MAX];
	int rc = 1;
	long level;

	if (!name) {
		usage(stderr);
		return 2;
	}
	bool admin = argc > 2 && !strcmp(argv[2], "--admin");
	if (!strcmp(cmd, "useradd") && argc > 2 + admin) {
		usage(stderr);
		return 2;
	}
	if (!session_valid_name(name, why, sizeof why)) {
		fprintf(stderr, "chessd: %s\n", why);
		return 2;
	}
	if (!strncasecmp(name, "guest", 5)) {
		fprintf(stderr, "chessd: names beginning with \"Guest\" are kept for guests\n");
		return 2;
	}
	struct db *db = open_db(cfg);
	if (!db)
		return 1;
	if (!strcmp(cmd, "useradd") || !strcmp(cmd, "passwd")) {
		struct db_user user;
		int found = db_user_find(db, name, &user);
		if (found < 0)
			goto done;
		if (!strcmp(cmd, "useradd") && found) {
			fprintf(stderr, "chessd: %s is registered already\n", user.name);
			goto done;
		}
		if (!strcmp(cmd, "passwd") && !found) {
			fprintf(stderr, "chessd: no user named %s\n", name);
			goto done;
		}
		if (read_password(password, sizeof password) < 0 ||
		    password_hash(password, hash, sizeof hash) < 0)
			goto done;
		OPENSSL_cleanse(password, sizeof password);
		if (!strcmp(cmd, "useradd") ? db_user_add(db, name, hash, admin) != 0 :
		    db_user_set_password(db, user.id, hash) < 0)
			goto done;
		if (db_commit(db) < 0)
			goto done;
		printf("%s %s\n", !strcmp(cmd, "useradd") ? "added" : "changed the password of", name);
		rc = 0;
	} else if (!strcmp(cmd, "userdel")) {
		/* A server running on this database ends the account's session within a second. */
		bool no_server = server_lock_free(cfg->data_dir);
		int removed = db_user_remove(db, name, no_server, NULL);
		if (removed == 0)
			fprintf(stderr, "chessd: no user named %s\n", name);
		if (removed == 1 && db_commit(db) == 0) {
			printf("removed %s\n", name);
			rc = 0;
		}
	} else if (!strcmp(cmd, "admin") && argc == 3 && number_parse(argv[2], 0, 1000000,
	    &level) == NUMBER_OK) {
		/* An admin acts only on accounts of a lower level; "on" is level 1. */
		int changed = db_user_set_admin_level(db, name, (int)level);
		if (changed == 0)
			fprintf(stderr, "chessd: no user named %s\n", name);
		if (changed == 1 && db_commit(db) == 0) {
			printf("%s has admin level %ld\n", name, level);
			rc = 0;
		}
	} else if ((!strcmp(cmd, "admin") || !strcmp(cmd, "computer")) && argc == 3 &&
	    (!strcmp(argv[2], "on") || !strcmp(argv[2], "off"))) {
		bool on = !strcmp(argv[2], "on"), admin_flag = !strcmp(cmd, "admin");
		int changed = admin_flag ? db_user_set_admin(db, name, on) :
		    db_user_set_computer(db, name, on);
		if (changed == 0)
			fprintf(stderr, "chessd: no user named %s\n", name);
		if (changed == 1 && db_commit(db) == 0) {
			printf("%s is %s %s\n", name, on ? "now" : "no longer",
			    admin_flag ? "an administrator" : "a computer account");
			rc = 0;
		}
	} else {
		usage(stderr);
		rc = 2;
	}
done:
	db_close(db);
	return rc;
}

/* The kernel's cap on a listen backlog, or -1 if it cannot be read. */
static long read_somaxconn(void)
{
	FILE *f = fopen("/proc/sys/net/core/somaxconn", "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

/* Every client is a descriptor: take all the hard limit allows. */
static void raise_descriptor_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * Says in one line what the system cannot hold of what is configured:
 * `clients` beyond the descriptor limit, a listen backlog beyond somaxconn.
 * The server runs either way (the README tells the operator how to raise
 * them); said once it has started, so a refused start stays one line.
 */
static void check_capacity(const struct config *cfg)
{
	char line[512] = "";
	size_t n = 0;
	struct rlimit rl;
	long need = (long)cfg->limits.clients + LIMIT_SPARE_DESCRIPTORS;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)need) {
		long fit = (long)rl.rlim_cur - LIMIT_SPARE_DESCRIPTORS;
		n += (size_t)snprintf(line, sizeof line,
		    "clients %d need about %ld descriptors but the limit is %llu (hard %llu), "
		    "so about %ld clients fit (raise LimitNOFILE= or ulimit -Hn)",
		    cfg->limits.clients, need, (unsigned long long)rl.rlim_cur,
		    (unsigned long long)rl.rlim_max, fit > 0 ? fit : 0);
	}
	long somaxconn = read_somaxconn();
	if (somaxconn >= 0 && somaxconn < cfg->limits.listen_backlog)
		snprintf(line + n, sizeof line - n,
		    "%slisten_backlog %d is cut to net.core.somaxconn %ld (raise it with sysctl)",
		    n ? "; " : "", cfg->limits.listen_backlog, somaxconn);
	if (line[0])
		log_warn("capacity: %s", line);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "data", required_argument, NULL, 'd' },
		{ "port", required_argument, NULL, 'p' },
		{ "tls-port", required_argument, NULL, 't' },
		{ "http-port", required_argument, NULL, 'w' },
		{ "https-port", required_argument, NULL, 'W' },
		{ "bind", required_argument, NULL, 'b' },
		{ "config", required_argument, NULL, 'c' },
		{ "cert", required_argument, NULL, 'C' },
		{ "key", required_argument, NULL, 'K' },
		{ "debug", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const keys[] = {
		['d'] = "data", ['p'] = "port", ['t'] = "tls_port", ['b'] = "bind",
		['C'] = "cert", ['K'] = "key", ['w'] = "http_port", ['W'] = "https_port",
	};
	struct config cfg;
	char err[512];
	int opt;

	config_defaults(&cfg);
	/* The config file first, so options given beside it win. */
	for (int i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--config") && config_load(&cfg, argv[i + 1], err, sizeof err) < 0) {
			fprintf(stderr, "chessd: %s\n", err);
			config_free(&cfg);
			return 2;
		}
	}
	while ((opt = getopt_long(argc, argv, "+", options, NULL)) != -1) {
		switch (opt) {
		case 'd': case 'p': case 't': case 'b': case 'C': case 'K':
		case 'w': case 'W':
			if (config_set(&cfg, keys[opt], optarg, err, sizeof err) < 0) {
				fprintf(stderr, "chessd: --%s: %s\n", keys[opt], err);
				config_free(&cfg);
				return 2;
			}
			break;
		case 'c':
			break;
		case 'D':
			log_set_level(LOG_DEBUG);
			break;
		case 'h':
			usage(stdout);
			config_free(&cfg);
			return 0;
		default:
			usage(stderr);
			config_free(&cfg);
			return 2;
		}
	}
	if ((cfg.cert_file != NULL) != (cfg.key_file != NULL)) {
		fprintf(stderr, "chessd: --cert and --key go together\n");
		config_free(&cfg);
		return 2;
	}
	if (optind < argc) {
		int rc = run_admin(&cfg, argc - optind, argv + optind);
		config_free(&cfg);
		return rc;
	}
	raise_descriptor_limit();
	struct server *srv = server_new(&cfg, err, sizeof err);
	if (!srv) {
		log_error("cannot start: %s", err);
		config_free(&cfg);
		return 1;
	}
	check_capacity(&cfg);
	int rc = server_run(srv);
	server_free(srv);
	config_free(&cfg);
	return rc;
}
