/* The account: quit, register, password (and its old name passwd). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>

#include "blkcmd.h"
#include "cmd.h"
#include "config.h"
#include "conn.h"
#include "db.h"
#include "game.h"
#include "password.h"
#include "server.h"
#include "session.h"
#include "signup.h"

static void cmd_quit(struct session *s, const struct cmd_args *a)
{
	(void)a;
	session_printf(s, "Logging you out.\n\nThank you for using %s.\n",
	    server_config(session_server(s))->server_name);
	session_block_end(s);
	conn_close(session_conn(s), "quit");
}

/* Whether another session is online as name, or holds a seat under it. */
static bool name_in_use(struct session *s, const char *name)
{
	struct server *srv = session_server(s);
	struct session *other = server_find_session(srv, name);

	return (other && other != s) || games_name_held(server_games(srv), name);
}

static void register_done(struct session *s, int result, const char *hash)
{
	char name[SESSION_NAME_MAX + 1];

	snprintf(name, sizeof name, "%s", session_job_note(s));
	if (result != 0 || !hash) {
		session_notify(s, "Registration failed: server error.  Please try again.");
		return;
	}
	/* Someone may have logged in under the name while it was hashed. */
	if (name_in_use(s, name)) {
		session_notify(s, "Sorry, \"%s\" is in use by someone online.", name);
		return;
	}
	/* Stored before the reply says so. */
	struct db *db = server_db(session_server(s));
	db_commit_earlier(db);
	int rc = db_user_add(db, name, hash, false);
	if (rc != 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		if (rc == 0)
			rc = -1;
	}
	if (rc == 1)
		session_notify(s, "Sorry, \"%s\" was registered by someone else meanwhile.", name);
	else if (rc < 0)
		session_notify(s, "Registration failed: server error.  Please try again.");
	else
		session_notify(s, "You are now registered as %s.  Log out and log in again as %s "
		    "to use your account.", name, name);
}

static void cmd_register(struct session *s, const struct cmd_args *a)
{
	const char *name = a->argv[0], *password = a->argv[1];
	char why[160];
	struct db_user user;

	if (!server_config(session_server(s))->registration_open) {
		session_printf(s, "Registration is closed on this server; ask an administrator.\n");
		return;
	}
	if (session_registered(s)) {
		session_printf(s, "You are registered already.\n");
		return;
	}
	if (!session_valid_name(name, why, sizeof why)) {
		session_printf(s, "%s\n", why);
		return;
	}
	if (!strncasecmp(name, "guest", 5)) {
		session_printf(s, "Names beginning with \"Guest\" are kept for guests.\n");
		return;
	}
	if (!password_acceptable(password, why, sizeof why)) {
		session_printf(s, "%s\n", why);
		return;
	}
	if (db_user_find(server_db(session_server(s)), name, &user) != 0) {
		session_printf(s, "Sorry, \"%s\" is registered already.\n", name);
		return;
	}
	if (name_in_use(s, name)) {
		session_printf(s, "Sorry, \"%s\" is in use by someone online.\n", name);
		return;
	}
	/* Each request counts, made or not: a flood is bounded before it reaches the hasher. */
	struct server *srv = session_server(s);
	const struct limits *lim = &server_config(srv)->limits;
	const char *addr = conn_address(session_conn(s));
	if (session_registrations(s) >= lim->registrations_per_conn) {
		session_printf(s, "Sorry, one connection may register at most %d name%s.\n",
		    lim->registrations_per_conn, lim->registrations_per_conn == 1 ? "" : "s");
		return;
	}
	if (!signups_allowed(server_signups(srv), addr, server_now_ms(srv),
	    lim->registrations_per_address_hour)) {
		session_printf(s, "Sorry, too many names were registered from your address in the "
		    "last hour; try again later.\n");
		return;
	}
	/* The session's one job slot keeps a second request from racing the first. */
	if (session_password_job(s, password, NULL, NULL, register_done) < 0) {
		session_printf(s, "The server is busy; please try again in a moment.\n");
		return;
	}
	session_count_registration(s);
	signups_count(server_signups(srv), addr, server_now_ms(srv));
	session_set_job_note(s, name);
	session_defer_reply(s);
}

static void passwd_done(struct session *s, int result, const char *hash)
{
	if (result == 0) {
		session_notify(s, "Incorrect password, password not changed!");
		return;
	}
	if (result != 1 || !hash) {
		session_notify(s, "Password not changed: server error.");
		return;
	}
	/* Stored before the reply says so. */
	struct db *db = server_db(session_server(s));
	db_commit_earlier(db);
	if (db_user_set_password(db, session_user_id(s), hash) < 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		session_notify(s, "Password not changed: server error.");
		return;
	}
	session_notify(s, "Password changed.");
}

/*
 * lasker's com_password, with its texts, but for the last: lasker shows the
 * new password back, which a client's log would then keep; we do not.
 */
static void cmd_password(struct session *s, const struct cmd_args *a)
{
	const char *old = a->argv[0], *new = a->argv[1];
	char why[160];
	struct db_user user;

	if (!session_registered(s)) {
		session_printf(s, "Setting a password is only for registered players.\n");
		return;
	}
	if (!password_acceptable(new, why, sizeof why)) {
		session_printf(s, "%s\n", why);
		return;
	}
	/* One longer than any accepted password cannot be the stored one: not hashed. */
	if (strnlen(old, PASSWORD_MAX_LEN + 1) > PASSWORD_MAX_LEN) {
		session_printf(s, "Incorrect password, password not changed!\n");
		return;
	}
	/* By id: the name alone could be an account registered anew under it. */
	if (db_user_find(server_db(session_server(s)), session_name(s), &user) <= 0 ||
	    user.id != session_user_id(s)) {
		session_printf(s, "Password not changed: your account is gone.\n");
		return;
	}
	int rc = session_password_job(s, old, user.password, new, passwd_done);
	OPENSSL_cleanse(user.password, sizeof user.password);
	if (rc < 0)
		session_printf(s, "The server is busy; please try again in a moment.\n");
}

const struct cmd_entry cmd_quit_entry = {
	.name = "quit",
	.args = "",
	.code = BLKCMD_QUIT,
	.exec = cmd_quit,
	.usage = "quit",
	.summary = "Log out",
};
const struct cmd_entry cmd_register_entry = {
	.name = "register",
	.args = "wS",
	.code = BLKCMD_NULL,
	.exec = cmd_register,
	.usage = "register <name> <password>",
	.summary = "Register a name of your own (guests)",
};
const struct cmd_entry cmd_password_entry = {
	.name = "password",
	.args = "ww",
	.code = BLKCMD_PASSWORD,
	.exec = cmd_password,
	.usage = "password <oldpassword> <newpassword>",
	.summary = "Change your password",
};
/* The name chessd had before "password"; exact only, so "pass" stays unique. */
const struct cmd_entry cmd_passwd_entry = {
	.name = "passwd",
	.args = "ww",
	.flags = CMD_HIDDEN,
	.code = BLKCMD_PASSWORD,
	.exec = cmd_password,
	.usage = "password <oldpassword> <newpassword>",
	.summary = "Change your password",
};
