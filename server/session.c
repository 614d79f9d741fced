#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "audience.h"
#include "cmd.h"
#include "config.h"
#include "conn.h"
#include "db.h"
#include "examine.h"
#include "game.h"
#include "hasher.h"
#include "number.h"
#include "offer.h"
#include "limit.h"
#include "lists.h"
#include "log.h"
#include "moderation.h"
#include "password.h"
#include "rating.h"
#include "roster.h"
#include "server.h"
#include "session.h"
#include "timeseal.h"

static const unsigned char telnet_echo_off[] = { 255, 251, 1 };	/* IAC WILL ECHO */
static const unsigned char telnet_echo_on[] = { 255, 252, 1 };	/* IAC WONT ECHO */

/* Tags of timeseal pings: lag measurement only, or the stamp of a board (and up). */
enum { PING_LAG = 1, PING_BOARD = 2 };

enum session_state {
	S_NEW,		/* waiting for the connection (TLS handshake) */
	S_LOGIN,	/* "login: " */
	S_PASSWORD,	/* "password: " for a registered name */
	S_VERIFYING,	/* the hasher is checking the password */
	S_CONFIRM,	/* "Press return to enter the server as ..." */
	S_ONLINE,
	S_GONE,		/* the connection is closing */
};

struct alias {
	char *name, *value;
};

/* What only the login dialogue needs; freed when the user is in. */
struct login {
	int tries;			/* wrong passwords on this connection */
	bool checking;			/* server_login_begin() let a check start */
	bool trusted_check;		/* ... from the block the name last logged in from */
	char stored_hash[DB_PASSWORD_MAX];
	char held_password[PASSWORD_MAX_LEN + 1];	/* while it waits for its check */
	bool reclaiming;		/* the name is a lost guest's: "password" is its key */
};


struct session {
	struct server *srv;
	struct conn *conn;
	enum session_state state;
	char name[SESSION_NAME_MAX + 1];
	int64_t user_id;		/* 0 for guests */
	int64_t games_from;		/* a guest's: the first game id it may own */
	/* From state to registered, all that `who` reads: two cache lines a user. */
	struct game *game;		/* being played */
	int64_t active_ms;
	bool admin;
	int admin_level;		/* 0 unless an admin */
	bool computer;
	char ratings[CLOCK_CATEGORY_NB][8];	/* as shown: 1517P, ----, ++++ */
	bool registered;
	char reconnect_key[SESSION_KEY_LEN + 1];	/* a guest's, once it has sat down */
	bool in_command;		/* output now is a command's reply */
	bool reply_deferred;		/* the command's reply waits for its job */
	long block_id;			/* the numbered command running, or -1 */
	bool block_open;		/* its \x15 header has been written */
	int block_code;			/* the code it will carry, -1 until known */
	struct login *login;		/* only until logged in */
	struct hasher_job *job;
	void (*job_done)(struct session *s, int result, const char *hash);
	char job_note[SESSION_NAME_MAX + 1];
	int64_t job_account;		/* the account the job is about (asetpasswd), or 0 */
	int registrations;		/* accounts asked for from this connection */
	int64_t login_ms;
	struct var_values vars;
	uint8_t channels[(LIMIT_CHANNEL_MAX + 8) / 8];
	int channel_count;
	struct alias *aliases;
	int alias_count;
	char last_tell[SESSION_NAME_MAX + 1];
	int64_t last_tell_user;		/* as last_opponent_user and _conn */
	uint64_t last_tell_conn;
	char last_teller[SESSION_NAME_MAX + 1];
	int64_t last_teller_user;	/* as last_tell_user and _conn */
	uint64_t last_teller_conn;
	char last_opponent[SESSION_NAME_MAX + 1];
	int64_t last_opponent_user;	/* their account, or 0 for a guest ... */
	uint64_t last_opponent_conn;	/* ... known by its connection (ids never reused) */
	char following[SESSION_NAME_MAX + 1];
	int64_t following_identity;	/* whose followers this session is among */
	struct roster_node *follow_place;
	/* Places on the audiences (audience.h) while online. */
	struct roster_node *places[AUDIENCE_NB];
	struct channel_place *channel_places;	/* one per channel joined */
	int channel_place_cap;
	struct examine *examining;	/* the board examined, or NULL */
	struct match_terms last_terms;
	struct game **observed;		/* allocated on the first observe */
	int observed_count;
	void (*secret)(struct session *s, char *line);	/* takes the next line, unechoed */
	int64_t client_ms;		/* timeseal: client clock at the current line, -1 if none */
	int64_t board_client_ms;	/* timeseal: client clock when the board putting us on move arrived */
	int board_ping;			/* tag of the ping sent after that board */
	int ping_due;			/* a ping to send after the current command's reply (0: none) */
	struct list_set *lists;		/* personal lists, while online (lists.c) */
};

/* A session's place among one channel's members. */
struct channel_place {
	int channel;
	struct roster_node *node;
};

static void login_free(struct session *s)
{
	if (s->login) {
		OPENSSL_cleanse(s->login, sizeof *s->login);
		free(s->login);
		s->login = NULL;
	}
}

struct session *session_new(struct server *srv, struct conn *conn)
{
	struct session *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->srv = srv;
	s->conn = conn;
	s->state = S_NEW;
	s->block_id = -1;
	s->block_code = -1;
	s->client_ms = s->board_client_ms = -1;
	if (!(s->login = calloc(1, sizeof *s->login))) {
		free(s);
		return NULL;
	}
	var_values_init(&s->vars);
	return s;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	session_detach(s);
	var_values_free(&s->vars);
	for (int i = 0; i < s->alias_count; i++) {
		free(s->aliases[i].name);
		free(s->aliases[i].value);
	}
	free(s->aliases);
	free(s->observed);
	free(s->channel_places);
	login_free(s);
	free(s);
}

/* --- audiences --- */

/* Whether s's variables ask for k's news. */
static bool hears(const struct session *s, enum audience_kind k)
{
	switch (k) {
	case AUDIENCE_PRESENCE:
		return session_var(s, IVAR_PIN) || session_var(s, VAR_PIN);
	case AUDIENCE_GAME_START:
		return session_var(s, VAR_GIN);
	case AUDIENCE_GAME_END:
		return session_var(s, IVAR_ALLRESULTS) || session_var(s, VAR_GIN);
	case AUDIENCE_SEEK:
		return session_var(s, IVAR_SEEKINFO) || session_var(s, VAR_SEEK);
	case AUDIENCE_SEEK_REMOVE:
		return session_var(s, IVAR_SEEKINFO) && session_var(s, IVAR_SEEKREMOVE);
	case AUDIENCE_SHOUT:
		return session_var(s, VAR_SHOUT);
	case AUDIENCE_CSHOUT:
		return session_var(s, VAR_CSHOUT);
	case AUDIENCE_NB:
		break;
	}
	return false;
}

/* Joins or leaves each audience as s's variables now say (none when offline). */
static void audiences_sync(struct session *s)
{
	struct audience *a = server_audience(s->srv);

	for (int k = 0; k < AUDIENCE_NB; k++) {
		bool want = s->state == S_ONLINE && hears(s, (enum audience_kind)k);
		if (want && !s->places[k]) {
			if (!(s->places[k] = roster_add(audience_of(a, (enum audience_kind)k), s)))
				log_error("out of memory: %s misses some news", s->name);
		} else if (!want && s->places[k]) {
			roster_remove(audience_of(a, (enum audience_kind)k), s->places[k]);
			s->places[k] = NULL;
		}
	}
}

/* Takes s's place among a channel's members. */
static void channel_place_add(struct session *s, int channel)
{
	int n = 0;

	while (n < s->channel_place_cap && s->channel_places[n].node)
		n++;
	if (n == s->channel_place_cap) {
		int cap = s->channel_place_cap ? s->channel_place_cap * 2 : 4;
		struct channel_place *p = realloc(s->channel_places, (size_t)cap * sizeof *p);
		if (!p) {
			log_error("out of memory: %s misses channel %d", s->name, channel);
			return;
		}
		for (int i = s->channel_place_cap; i < cap; i++)
			p[i].node = NULL;
		s->channel_places = p;
		s->channel_place_cap = cap;
	}
	s->channel_places[n].channel = channel;
	if (!(s->channel_places[n].node = roster_add(audience_channel(server_audience(s->srv),
	    channel), s)))
		log_error("out of memory: %s misses channel %d", s->name, channel);
}

static void channel_place_drop(struct session *s, int channel)
{
	for (int i = 0; i < s->channel_place_cap; i++)
		if (s->channel_places[i].node && s->channel_places[i].channel == channel) {
			roster_remove(audience_channel(server_audience(s->srv), channel),
			    s->channel_places[i].node);
			s->channel_places[i].node = NULL;
			return;
		}
}

/* Stops following (the identity's roster goes when its last follower does). */
static void follow_drop(struct session *s)
{
	struct audience *a = server_audience(s->srv);

	if (!s->follow_place)
		return;
	roster_remove(audience_followers(a, s->following_identity, false), s->follow_place);
	s->follow_place = NULL;
	audience_followers_settle(a, s->following_identity);
}

/* An account, or for a guest its session (connection ids are never reused). */
static int64_t identity_of(const struct session *s)
{
	return s->user_id ? s->user_id : -(int64_t)conn_id(s->conn);
}

/* Online: every audience s asked for; offline (or now leaving): none. */
static void audiences_enter(struct session *s)
{
	audiences_sync(s);
	for (int c = 0; c <= LIMIT_CHANNEL_MAX; c++)
		if (session_in_channel(s, c))
			channel_place_add(s, c);
}

static void audiences_leave(struct session *s)
{
	audiences_sync(s);
	for (int i = 0; i < s->channel_place_cap; i++)
		if (s->channel_places[i].node)
			channel_place_drop(s, s->channel_places[i].channel);
	follow_drop(s);
}

struct follower_walk {
	void (*fn)(struct session *s, void *arg);
	void *arg;
};

static void visit_follower(void *item, void *arg)
{
	struct follower_walk *w = arg;

	if (session_online(item))
		w->fn(item, w->arg);
}

void session_each_follower(struct session *followed, void (*fn)(struct session *s, void *arg),
    void *arg)
{
	struct audience *a = server_audience(followed->srv);
	int64_t identity = identity_of(followed);
	struct roster *r = audience_followers(a, identity, false);
	struct follower_walk w = { fn, arg };

	if (!r)
		return;
	roster_each(r, visit_follower, &w);
	audience_followers_settle(a, identity);
}

/* "iset pin 1" clients get <wa>/<wd> lines; "set pin 1" users a sentence. */
static void tell_presence(struct session *to, const struct session *who, bool arrived)
{
	if (to == who)
		return;
	if (session_var(to, IVAR_PIN))
		session_notify(to, "<w%c> %s", arrived ? 'a' : 'd', who->name);
	else if (session_var(to, VAR_PIN))
		session_notify(to, "[%s has %s.]", who->name, arrived ? "connected" : "disconnected");
}

static void tell_arrival(struct session *to, void *arg)
{
	tell_presence(to, arg, true);
}

static void tell_departure(struct session *to, void *arg)
{
	tell_presence(to, arg, false);
}

/* The password check this connection was allowed to start is over. */
static void login_check_end(struct session *s, bool passed)
{
	if (s->login && s->login->checking) {
		s->login->checking = false;
		server_login_end(s->srv, s->name, conn_address(s->conn), s->login->trusted_check,
		    passed);
	}
}

void session_detach(struct session *s)
{
	if (!s || s->state == S_GONE)
		return;
	if (s->job) {
		hasher_cancel(server_hasher(s->srv), s->job);
		s->job = NULL;
	}
	login_check_end(s, false);
	if (s->state == S_ONLINE) {
		if (s->game)
			game_player_left(s->game, s);
		if (s->examining)
			examine_drop(s->examining, s);
		while (s->observed_count)
			session_unobserve(s, s->observed[s->observed_count - 1]);
		lists_logout(s);
		server_unregister_session(s->srv, s);
		s->state = S_GONE;
		audiences_leave(s);
		audience_each(s->srv, AUDIENCE_PRESENCE, tell_departure, s);
		log_info("%s logged out", s->name);
	}
	s->state = S_GONE;
	offers_drop_session(server_offers(s->srv), s);
}

/* --- output --- */

static void block_header(struct session *s);

static void prompt(struct session *s)
{
	const char *p = var_str(&s->vars, VAR_PROMPT);

	if (session_var(s, IVAR_DEFPROMPT) || !*p)
		p = "fics%";
	/* After every board a player or observer is sent: no printf. */
	conn_write(s->conn, p, strlen(p));
	conn_write_raw(s->conn, " ", 1);
}

void session_printf(struct session *s, const char *fmt, ...)
{
	va_list ap;

	block_header(s);
	va_start(ap, fmt);
	conn_vprintf(s->conn, fmt, ap);
	va_end(ap);
}

bool session_offer_chat(struct session *s)
{
	if (!conn_backlogged(s->conn))
		return true;
	conn_skip_chat(s->conn);
	return false;
}

/* An unsolicited line goes on a line of its own and gets its own prompt;
 * inside a command it is part of the command's block.  False if the session
 * takes none. */
static bool notice_begin(struct session *s)
{
	if (s->state != S_ONLINE)
		return false;
	if (!s->in_command)
		conn_puts(s->conn, "\n");
	else
		block_header(s);
	return true;
}

static void notice_end(struct session *s)
{
	conn_puts(s->conn, "\n");
	if (!s->in_command)
		prompt(s);
}

void session_notify(struct session *s, const char *fmt, ...)
{
	va_list ap;

	if (!notice_begin(s))
		return;
	va_start(ap, fmt);
	conn_vprintf(s->conn, fmt, ap);
	va_end(ap);
	notice_end(s);
}

void session_write(struct session *s, const char *text, size_t len)
{
	block_header(s);
	conn_write(s->conn, text, len);
}

void session_notify_text(struct session *s, const char *text, size_t len)
{
	if (!notice_begin(s))
		return;
	conn_write(s->conn, text, len);
	notice_end(s);
}

void session_error(struct session *s, const char *fmt, ...)
{
	va_list ap;

	if (s->state == S_GONE)
		return;
	bool unsolicited = s->state == S_ONLINE && !s->in_command;
	if (unsolicited)
		conn_puts(s->conn, "\n");
	else
		block_header(s);
	va_start(ap, fmt);
	conn_vprintf(s->conn, fmt, ap);
	va_end(ap);
	conn_puts(s->conn, "\n");
	if (unsolicited)
		prompt(s);
	else if (s->state == S_LOGIN)
		conn_puts(s->conn, "login: ");
	else if (s->state == S_PASSWORD)
		conn_puts(s->conn, "password: ");
}

/* --- games --- */

struct game *session_game(const struct session *s) { return s->game; }
struct examine *session_examining(const struct session *s) { return s->examining; }
void session_set_examining(struct session *s, struct examine *ex) { s->examining = ex; }
int session_observed_count(const struct session *s) { return s->observed_count; }
struct game *session_observed_at(const struct session *s, int i) { return s->observed[i]; }
const char *session_following(const struct session *s) { return s->following; }
const char *session_last_opponent(const struct session *s) { return s->last_opponent; }

/* Who s last played: the name to show, and the identity behind it. */
static void set_last_opponent(struct session *s, const struct session *o, const char *name)
{
	snprintf(s->last_opponent, sizeof s->last_opponent, "%s", name);
	s->last_opponent_user = o ? o->user_id : 0;
	s->last_opponent_conn = o && !o->user_id ? conn_id(o->conn) : 0;
}

void session_set_game(struct session *s, struct game *g)
{
	if (g) {
		int c = game_color_of(g, s);
		if (c >= 0)
			set_last_opponent(s, game_player(g, color_other((enum color)c)),
			    game_player_name(g, color_other((enum color)c)));
	}
	s->game = g;
}

const struct match_terms *session_last_terms(const struct session *s)
{
	return &s->last_terms;
}

void session_set_last_terms(struct session *s, const struct match_terms *t)
{
	s->last_terms = *t;
	s->last_terms.valid = true;
}

void session_set_following(struct session *s, struct session *who)
{
	struct roster *r;

	follow_drop(s);
	snprintf(s->following, sizeof s->following, "%s", who ? who->name : "");
	if (!who || s->state != S_ONLINE)
		return;
	s->following_identity = identity_of(who);
	r = audience_followers(server_audience(s->srv), s->following_identity, true);
	if (!r || !(s->follow_place = roster_add(r, s))) {
		log_error("out of memory: %s cannot follow %s", s->name, who->name);
		audience_followers_settle(server_audience(s->srv), s->following_identity);
	}
}

/* The session online under name if it is the identity kept (an account, or a guest's conn). */
static struct session *same_identity(struct server *srv, const char *name, int64_t user_id,
    uint64_t conn)
{
	struct session *o = *name ? server_find_session(srv, name) : NULL;

	/* The name alone could now be someone else's (a guest name given again). */
	if (!o || (user_id ? o->user_id != user_id : conn_id(o->conn) != conn))
		return NULL;
	return o;
}

struct session *session_last_opponent_online(struct session *s)
{
	return same_identity(s->srv, s->last_opponent, s->last_opponent_user,
	    s->last_opponent_conn);
}

struct session *session_last_tell_online(struct session *s)
{
	return same_identity(s->srv, s->last_tell, s->last_tell_user, s->last_tell_conn);
}

struct session *session_last_teller_online(struct session *s)
{
	return same_identity(s->srv, s->last_teller, s->last_teller_user, s->last_teller_conn);
}

bool session_observing(const struct session *s, const struct game *g)
{
	for (int i = 0; i < s->observed_count; i++)
		if (s->observed[i] == g)
			return true;
	return false;
}

int session_observe(struct session *s, struct game *g)
{
	if (session_observing(s, g))
		return 1;
	if (s->observed_count >= LIMIT_OBSERVE_PER_USER)
		return -1;
	if (!s->observed && !(s->observed = calloc(LIMIT_OBSERVE_PER_USER, sizeof *s->observed)))
		return -1;
	if (game_observe(g, s) < 0)
		return -1;
	s->observed[s->observed_count++] = g;
	return 0;
}

void session_unobserved(struct session *s, struct game *g)
{
	for (int i = 0; i < s->observed_count; i++) {
		if (s->observed[i] == g) {
			s->observed[i] = s->observed[--s->observed_count];
			return;
		}
	}
}

void session_unobserve(struct session *s, struct game *g)
{
	game_unobserve(g, s);
	session_unobserved(s, g);
}

/* --- accessors --- */

const char *session_name(const struct session *s) { return s->name; }
bool session_online(const struct session *s) { return s->state == S_ONLINE; }
bool session_registered(const struct session *s) { return s->registered; }
bool session_admin(const struct session *s) { return s->admin; }
/* An admin whose level was never set (made one while online) counts as level 1. */
int session_admin_level(const struct session *s)
{
	return !s->admin ? 0 : s->admin_level > 0 ? s->admin_level : 1;
}
int64_t session_user_id(const struct session *s) { return s->user_id; }
int64_t session_games_from(const struct session *s) { return s->games_from; }
struct conn *session_conn(const struct session *s) { return s->conn; }
struct server *session_server(const struct session *s) { return s->srv; }
int64_t session_login_ms(const struct session *s) { return s->login_ms; }
struct var_values *session_vars(struct session *s) { return &s->vars; }
int session_var(const struct session *s, enum var_id id) { return var_num(&s->vars, id); }
const char *session_last_tell(const struct session *s) { return s->last_tell; }
const char *session_last_teller(const struct session *s) { return s->last_teller; }
int session_channel_count(const struct session *s) { return s->channel_count; }

int64_t session_active_ms(const struct session *s) { return s->active_ms; }

int64_t session_idle_ms(const struct session *s)
{
	return server_now_ms(s->srv) - s->active_ms;
}

const char *session_reconnect_key(struct session *s)
{
	unsigned char raw[SESSION_KEY_LEN / 2];

	if (!s->reconnect_key[0] && RAND_bytes(raw, sizeof raw) == 1) {
		for (size_t i = 0; i < sizeof raw; i++)
			snprintf(s->reconnect_key + 2 * i, 3, "%02x", raw[i]);
		OPENSSL_cleanse(raw, sizeof raw);
	}
	return s->reconnect_key;
}

bool session_key_matches(const struct session *s, const char *key)
{
	return strlen(s->reconnect_key) == SESSION_KEY_LEN && strlen(key) == SESSION_KEY_LEN &&
	    CRYPTO_memcmp(s->reconnect_key, key, SESSION_KEY_LEN) == 0;
}

const char *session_flags(const struct session *s)
{
	if (!s->registered)
		return "(U)";
	if (s->computer)
		return s->admin ? "(*)(C)" : "(C)";
	return s->admin ? "(*)" : "";
}

bool session_computer(const struct session *s)
{
	return s->computer;
}

void session_set_admin(struct session *s, bool admin) { s->admin = admin; }
void session_set_computer(struct session *s, bool computer) { s->computer = computer; }
struct list_set *session_list_set(const struct session *s) { return s->lists; }
void session_set_list_set(struct session *s, struct list_set *set) { s->lists = set; }

const char *session_rating_text(const struct session *s, enum clock_category c)
{
	return s->registered ? s->ratings[c] : "++++";
}

void session_set_rating_text(struct session *s, enum clock_category c, const char *text)
{
	snprintf(s->ratings[c], sizeof s->ratings[c], "%s", text);
}

void session_set_last_tell(struct session *s, const struct session *to)
{
	snprintf(s->last_tell, sizeof s->last_tell, "%s", to->name);
	s->last_tell_user = to->user_id;
	s->last_tell_conn = to->user_id ? 0 : conn_id(to->conn);
}

void session_set_last_teller(struct session *s, const struct session *from)
{
	snprintf(s->last_teller, sizeof s->last_teller, "%s", from->name);
	s->last_teller_user = from->user_id;
	s->last_teller_conn = from->user_id ? 0 : conn_id(from->conn);
}

/*
 * Commits a setting's write at once, with what the pass wrote before it in
 * a commit of their own, so that the reply that it is set never goes out
 * for a setting that is not stored: 0, or -1 with the write rolled back.
 */
static int store_setting(struct db *db, int written)
{
	if (written < 0 || db_commit_now(db) < 0) {
		db_rollback(db);
		log_error("could not save a user's setting; it keeps its old value");
		return -1;
	}
	return 0;
}

int session_set_var(struct session *s, enum var_id id, const char *value, char *why, size_t len)
{
	char buf[32], old[VAR_STRING_MAX + 1], scratch[32];
	struct db *db = server_db(s->srv);
	bool stored = s->registered && !var_def(id)->ivar;

	snprintf(old, sizeof old, "%s", var_values_text(&s->vars, id, scratch, sizeof scratch));
	if (var_values_set(&s->vars, id, value, why, len) < 0)
		return -1;
	if (stored) {
		db_commit_earlier(db);
		if (store_setting(db, db_var_set(db, s->user_id, var_def(id)->name,
		    var_values_text(&s->vars, id, buf, sizeof buf))) < 0) {
			var_values_set(&s->vars, id, old, scratch, sizeof scratch);
			snprintf(why, len, "The server could not save %s; it keeps its old value.",
			    var_def(id)->name);
			return -1;
		}
	}
	audiences_sync(s);
	return 0;
}

bool session_in_channel(const struct session *s, int channel)
{
	return channel >= 0 && channel <= LIMIT_CHANNEL_MAX &&
	    (s->channels[channel / 8] >> (channel % 8) & 1);
}

int session_set_channel(struct session *s, int channel, bool member)
{
	if (channel < 0 || channel > LIMIT_CHANNEL_MAX)
		return -1;
	if (session_in_channel(s, channel) == member)
		return 0;
	if (member && s->channel_count >= LIMIT_CHANNELS_PER_USER)
		return -1;
	if (s->registered) {
		struct db *db = server_db(s->srv);
		db_commit_earlier(db);
		if (store_setting(db, db_channel_set(db, s->user_id, channel, member)) < 0)
			return -2;
	}
	s->channels[channel / 8] ^= (uint8_t)(1u << (channel % 8));
	s->channel_count += member ? 1 : -1;
	if (s->state == S_ONLINE) {
		if (member)
			channel_place_add(s, channel);
		else
			channel_place_drop(s, channel);
	}
	return 0;
}

const char *session_alias(const struct session *s, const char *name)
{
	for (int i = 0; i < s->alias_count; i++)
		if (!strcasecmp(s->aliases[i].name, name))
			return s->aliases[i].value;
	return NULL;
}

/* Sets an alias in memory only (loading from the database uses this too). */
static int store_alias(struct session *s, const char *name, const char *value)
{
	for (int i = 0; i < s->alias_count; i++) {
		if (strcasecmp(s->aliases[i].name, name))
			continue;
		if (!value) {
			free(s->aliases[i].name);
			free(s->aliases[i].value);
			s->aliases[i] = s->aliases[--s->alias_count];
			return 0;
		}
		char *v = strdup(value);
		if (!v)
			return -1;
		free(s->aliases[i].value);
		s->aliases[i].value = v;
		return 0;
	}
	if (!value)
		return 0;
	if (s->alias_count >= LIMIT_ALIASES)
		return -1;
	if (!s->aliases && !(s->aliases = calloc(LIMIT_ALIASES, sizeof *s->aliases)))
		return -1;
	char *n = strdup(name), *v = strdup(value);
	if (!n || !v) {
		free(n);
		free(v);
		return -1;
	}
	s->aliases[s->alias_count++] = (struct alias){ n, v };
	return 0;
}

int session_set_alias(struct session *s, const char *name, const char *value)
{
	/* Room first, so that a stored alias always fits in memory too. */
	if (value && !session_alias(s, name) && s->alias_count >= LIMIT_ALIASES)
		return -1;
	if (s->registered) {
		struct db *db = server_db(s->srv);
		db_commit_earlier(db);
		if (store_setting(db, db_alias_set(db, s->user_id, name, value)) < 0)
			return -2;
	}
	return store_alias(s, name, value) < 0 ? -1 : 0;
}

void session_each_alias(const struct session *s, void (*fn)(void *arg, const char *name,
    const char *value), void *arg)
{
	for (int i = 0; i < s->alias_count; i++)
		fn(arg, s->aliases[i].name, s->aliases[i].value);
}

bool session_valid_name(const char *name, char *why, size_t len)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < n; i++) {
		if (!isalpha((unsigned char)name[i]) || (unsigned char)name[i] >= 0x80) {
			snprintf(why, len, "Sorry, names can only consist of lower and upper case letters.  Try again.");
			return false;
		}
	}
	if (n < SESSION_NAME_MIN) {
		snprintf(why, len, "Sorry, names must be at least %d characters long.  Try again.",
		    SESSION_NAME_MIN);
		return false;
	}
	if (n > SESSION_NAME_MAX) {
		snprintf(why, len, "Sorry, names may be at most %d characters long.  Try again.",
		    SESSION_NAME_MAX);
		return false;
	}
	return true;
}

/* --- login --- */

static void login_prompt(struct session *s)
{
	s->state = S_LOGIN;
	conn_puts(s->conn, "login: ");
}

void session_start(struct session *s)
{
	const struct config *cfg = server_config(s->srv);

	if (s->state != S_NEW)
		return;
	conn_printf(s->conn,
	    "\n"
	    "     %s -- a FICS-protocol chess server\n"
	    "\n"
	    "     Log in as \"guest\" to play unrated games, or with your account.\n",
	    cfg->server_name);
	/* Said on the plain port only, so that no one there reads it as
	 * saying that their own connection is encrypted. */
	if (cfg->tls_port && !conn_is_tls(s->conn))
		conn_printf(s->conn, "     This connection is not encrypted; port %d takes TLS.\n",
		    cfg->tls_port);
	conn_puts(s->conn, "\n");
	login_prompt(s);
}

/*
 * "Guest" + four capitals, as pychess expects (letters only).  Names come
 * from a counter scrambled by a bijection on 26^4, so two guests logging in
 * at once never draw the same name; a name still in use is skipped.
 */
static void guest_name(struct session *s, char *out, size_t len)
{
	for (int attempt = 0; attempt < 1000; attempt++) {
		uint32_t x = (uint32_t)((server_next_guest(s->srv) * 7919u + 12345u) % 456976u);
		snprintf(out, len, "Guest%c%c%c%c", 'A' + x / 17576 % 26, 'A' + x / 676 % 26,
		    'A' + x / 26 % 26, 'A' + x % 26);
		if (!server_find_session(s->srv, out) && !games_name_held(server_games(s->srv), out))
			return;
	}
}

static void load_var(void *arg, const char *name, const char *value)
{
	struct session *s = arg;
	char why[128];
	int id = var_find(name, false);

	if (id >= 0 && !strcasecmp(var_def((enum var_id)id)->name, name))
		var_values_set(&s->vars, (enum var_id)id, value, why, sizeof why);
}

static void load_channel(void *arg, int channel)
{
	struct session *s = arg;

	if (channel >= 0 && channel <= LIMIT_CHANNEL_MAX && !session_in_channel(s, channel) &&
	    s->channel_count < LIMIT_CHANNELS_PER_USER) {
		s->channels[channel / 8] |= (uint8_t)(1u << (channel % 8));
		s->channel_count++;
	}
}

static void load_alias(void *arg, const char *name, const char *value)
{
	store_alias(arg, name, value);
}

static void print_motd(struct session *s)
{
	char path[4096], line[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/motd.txt", server_config(s->srv)->data_dir);
	if ((f = fopen(path, "r"))) {
		while (fgets(line, sizeof line, f))
			conn_puts(s->conn, line);
		fclose(f);
		return;
	}
	conn_puts(s->conn,
	    "Welcome.  Type \"help\" for the commands, \"who\" to see who is here.\n");
}

/* Back to "login:" with a reason, the identity tried so far forgotten. */
static void login_refuse(struct session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void login_refuse(struct session *s, const char *fmt, ...)
{
	va_list ap;

	conn_puts(s->conn, "\n");
	va_start(ap, fmt);
	conn_vprintf(s->conn, fmt, ap);
	va_end(ap);
	conn_puts(s->conn, "\n\n");
	s->user_id = 0;
	s->registered = s->admin = s->computer = false;
	s->admin_level = 0;
	s->login->reclaiming = false;
	OPENSSL_cleanse(s->reconnect_key, sizeof s->reconnect_key);
	login_prompt(s);
}

/* The name is settled: enter the server (FICS's "Starting FICS session"). */
static void login_complete(struct session *s)
{
	struct session *old = server_find_session(s->srv, s->name);
	struct db_user user;

	/* A range banned after this connection was made. */
	if (moderation_address_banned(server_moderation(s->srv), conn_address(s->conn))) {
		conn_puts(s->conn, "\n**** Your address is banned from this server. ****\n");
		conn_close(s->conn, "address banned");
		return;
	}
	/* The account may have been deleted while its password was checked. */
	if (s->user_id && (db_user_find(server_db(s->srv), s->name, &user) != 1 ||
	    user.id != s->user_id)) {
		login_refuse(s, "Sorry, the account %s no longer exists.", s->name);
		return;
	}
	OPENSSL_cleanse(&user, sizeof user);
	/* Or banned meanwhile. */
	if (s->user_id && lists_banned(s->srv, s->user_id)) {
		conn_printf(s->conn, "\nPlayer \"%s\" is banned.\n", s->name);
		conn_close(s->conn, "banned");
		return;
	}

	if (old) {
		/* Only the same account logging in again replaces a session. */
		if (!s->user_id || session_user_id(old) != s->user_id) {
			login_refuse(s, "Sorry, %s is already logged in.  Try another name.", s->name);
			return;
		}
		/* lasker's texts: pychess reads the old session's line as a logout, not a lost link. */
		conn_printf(s->conn, "\n **** %s is already logged in - kicking them out. ****\n",
		    s->name);
		session_notify(old, "**** %s has arrived - you can't both be logged in. ****", s->name);
		conn_close(session_conn(old), "replaced by a new login");
	}
	if (server_register_session(s->srv, s) < 0) {
		conn_puts(s->conn, "**** Server error; please try again later. ****\n");
		conn_close(s->conn, "cannot register session");
		return;
	}
	s->state = S_ONLINE;
	login_free(s);
	s->login_ms = s->active_ms = server_now_ms(s->srv);
	if (!s->user_id)
		s->games_from = db_games_next_id(server_db(s->srv));
	if (s->registered) {
		struct db *db = server_db(s->srv);
		db_var_each(db, s->user_id, load_var, s);
		db_channel_each(db, s->user_id, load_channel, s);
		db_alias_each(db, s->user_id, load_alias, s);
		db_user_touch(db, s->user_id, (int64_t)time(NULL));
		for (int c = 0; c < CLOCK_CATEGORY_NB; c++) {
			struct rating r;
			rating_load(db, s->user_id, (enum clock_category)c, &r);
			rating_text(&r, s->user_id, s->ratings[c], sizeof s->ratings[c]);
		}
	}
	conn_logged_in(s->conn);
	if (conn_timeseal(s->conn)) {
		conn_ping(s->conn, PING_LAG);
		conn_wake_at(s->conn, s->login_ms + LIMIT_TIMESEAL_PING_MS);
	}
	server_login_succeeded(s->srv, s->name, conn_address(s->conn));
	audiences_enter(s);
	audience_each(s->srv, AUDIENCE_PRESENCE, tell_arrival, s);
	log_info("%s%s logged in from %s%s", s->name, session_flags(s), conn_address(s->conn),
	    conn_is_tls(s->conn) ? " (TLS)" : "");
	conn_printf(s->conn, "**** Starting FICS session as %s%s ****\n\n", s->name, session_flags(s));
	print_motd(s);
	lists_login(s);
	cmd_login_notices(s);
	conn_puts(s->conn, "\n");
	prompt(s);
	/* A game that waited for this player goes on. */
	struct game *g = games_find_absent(server_games(s->srv), s);
	if (g && !s->user_id && game_id(g) > 0 && game_id(g) < s->games_from)
		s->games_from = game_id(g);	/* the guest's own game, from its last session */
	if (g)
		game_player_back(g, s);
}

/* An unregistered name: what it may do (first line), then return to enter. */
static void confirm_unregistered(struct session *s, const char *first_line)
{
	s->registered = false;
	conn_printf(s->conn, "\n%s\n"
	    "(After logging in, do \"help register\" for more info on how to register.)\n\n"
	    "Press return to enter the server as \"%s\":\n", first_line, s->name);
	s->state = S_CONFIRM;
}

static void login_name(struct session *s, char *line)
{
	char name[64], why[160];
	struct db_user user;

	if (sscanf(line, "%63s", name) != 1) {
		login_prompt(s);
		return;
	}
	if (!strcasecmp(name, "guest") || !strcasecmp(name, "g")) {
		guest_name(s, s->name, sizeof s->name);
		snprintf(why, sizeof why, "Logging you in as \"%s\"; you may use this name to play "
		    "unrated games.", s->name);
		confirm_unregistered(s, why);
		return;
	}
	if (!session_valid_name(name, why, sizeof why)) {
		conn_printf(s->conn, "\n%s\n\n", why);
		login_prompt(s);
		return;
	}
	int found = db_user_find(server_db(s->srv), name, &user);
	if (found < 0) {
		conn_puts(s->conn, "\n**** Server error; please try again later. ****\n\n");
		login_prompt(s);
		return;
	}
	/* As FICS, at the name: a banned account is not asked for its password. */
	if (found && lists_banned(s->srv, user.id)) {
		conn_printf(s->conn, "\nPlayer \"%s\" is banned.\n", user.name);
		OPENSSL_cleanse(&user, sizeof user);
		conn_close(s->conn, "banned");
		return;
	}
	if (found) {
		snprintf(s->name, sizeof s->name, "%s", user.name);
		snprintf(s->login->stored_hash, sizeof s->login->stored_hash, "%s", user.password);
		s->user_id = user.id;
		s->admin = user.admin;
		s->admin_level = user.admin_level;
		s->computer = user.computer;
		conn_printf(s->conn,
		    "\n\"%s\" is a registered name.  If it is yours, type the password.\n"
		    "If not, just hit return to try another name.\n\n", s->name);
		conn_write_raw(s->conn, telnet_echo_off, sizeof telnet_echo_off);
		conn_puts(s->conn, "password: ");
		s->state = S_PASSWORD;
		return;
	}
	if (server_find_session(s->srv, name)) {
		conn_printf(s->conn, "\nSorry, %s is already logged in.  Try another name.\n\n", name);
		login_prompt(s);
		return;
	}
	/* session_valid_name() bounded it to SESSION_NAME_MAX letters. */
	memcpy(s->name, name, strlen(name) + 1);
	if (games_name_held(server_games(s->srv), name)) {
		/* Only the reconnect key given to that player at the game's start lets it in. */
		s->login->reclaiming = true;
		conn_printf(s->conn,
		    "\n\"%s\" is held for a player who lost contact during a game.  If it is you, "
		    "type your reconnect key.\nIf not, just hit return to try another name.\n\n",
		    s->name);
		conn_write_raw(s->conn, telnet_echo_off, sizeof telnet_echo_off);
		conn_puts(s->conn, "password: ");
		s->state = S_PASSWORD;
		return;
	}
	snprintf(why, sizeof why, "\"%s\" is not a registered name.  You may play unrated games "
	    "as a guest.", s->name);
	confirm_unregistered(s, why);
}

/* A deferred reply is complete: close its block, prompt once, send the ping
 * that waited for it, and read the session's input again. */
static void finish_reply(struct session *s)
{
	s->in_command = false;
	s->reply_deferred = false;
	session_block_end(s);
	if (s->state == S_ONLINE)
		prompt(s);
	if (s->ping_due) {
		conn_ping(s->conn, s->ping_due);
		s->ping_due = 0;
	}
	conn_hold_input(s->conn, false);
}

static void job_finished(void *arg, int result, const char *hash)
{
	struct session *s = arg;

	s->job = NULL;
	if (!s->reply_deferred) {
		s->job_done(s, result, hash);
		return;
	}
	/* The rest of the command's reply: inside its block, then one prompt. */
	s->in_command = true;
	s->job_done(s, result, hash);
	finish_reply(s);
}

void session_defer_reply(struct session *s)
{
	s->reply_deferred = true;
	conn_hold_input(s->conn, true);
}

void session_reply_resume(struct session *s, void (*say)(struct session *s, void *arg), void *arg)
{
	if (!s->reply_deferred || s->job) {
		if (say)
			say(s, arg);	/* still inside the command, or unsolicited */
		return;
	}
	s->in_command = true;
	if (say)
		say(s, arg);
	finish_reply(s);
}

int session_password_job(struct session *s, const char *password, const char *stored,
    const char *new_password, void (*done)(struct session *s, int result, const char *hash))
{
	if (s->job)
		return -1;
	s->job = hasher_submit(server_hasher(s->srv), password, stored, new_password,
	    job_finished, s);
	if (!s->job)
		return -1;
	s->job_done = done;
	return 0;
}

int session_registrations(const struct session *s)
{
	return s->registrations;
}

void session_count_registration(struct session *s)
{
	s->registrations++;
}

void session_set_job_note(struct session *s, const char *note)
{
	snprintf(s->job_note, sizeof s->job_note, "%s", note);
}

const char *session_job_note(const struct session *s)
{
	return s->job_note;
}

void session_set_job_account(struct session *s, int64_t user_id) { s->job_account = user_id; }
int64_t session_job_account(const struct session *s) { return s->job_account; }

static void verify_done(struct session *s, int result, const char *hash);

/* No check for this password now: the user may try again, and is read again. */
static void login_busy(struct session *s, bool parked)
{
	OPENSSL_cleanse(s->login->held_password, sizeof s->login->held_password);
	conn_puts(s->conn, "\n**** The server is busy; please try again in a moment. ****\n\n");
	login_prompt(s);
	if (parked)
		conn_hold_input(s->conn, false);
}

/*
 * Whether the account's password changed since it was read: at the name,
 * and a "password" command may have changed it since.  With refresh, the
 * one stored now replaces it.  An account gone (or come back under the name
 * as another) is not this: login_complete() refuses it in its own words.
 */
static bool login_hash_changed(struct session *s, bool refresh)
{
	struct db_user user;
	bool same = db_user_find(server_db(s->srv), s->name, &user) > 0 &&
	    user.id == s->user_id;

	if (same && refresh)
		snprintf(s->login->stored_hash, sizeof s->login->stored_hash, "%s", user.password);
	bool changed = same && strcmp(user.password, s->login->stored_hash);
	OPENSSL_cleanse(&user, sizeof user);
	return changed;
}

/*
 * Hands the password to the hasher once the name and address may have
 * another check (one at a time per name, none while a delay is owed);
 * until then the password waits here.  Input waits until the answer comes.
 * A full queue is told before anything is counted: a check that never runs
 * guesses nothing, and "try again in a moment" must not earn a delay.
 */
static void login_verify(struct session *s, const char *password)
{
	bool parked = s->state == S_VERIFYING;

	if (hasher_full(server_hasher(s->srv))) {
		login_busy(s, parked);
		return;
	}
	int owed = server_login_begin(s->srv, s->name, conn_address(s->conn),
	    &s->login->trusted_check);

	if (owed > 0) {
		if (!parked)
			snprintf(s->login->held_password, sizeof s->login->held_password, "%s", password);
		s->state = S_VERIFYING;
		conn_hold_input(s->conn, true);
		conn_wake_at(s->conn, server_now_ms(s->srv) + owed);
		return;
	}
	s->login->checking = true;
	login_hash_changed(s, true);
	if (session_password_job(s, password, s->login->stored_hash, NULL, verify_done) < 0) {
		login_check_end(s, false);
		login_busy(s, parked);
		return;
	}
	s->state = S_VERIFYING;
	conn_hold_input(s->conn, true);
	OPENSSL_cleanse(s->login->held_password, sizeof s->login->held_password);
}

/* A held guest name: the key given to the seat's owner, or refusal. */
static void login_reclaim(struct session *s, const char *key)
{
	if (!*key) {
		login_refuse(s, "Sorry, %s is held for a player who lost contact.  Try another name.",
		    s->name);
		return;
	}
	snprintf(s->reconnect_key, sizeof s->reconnect_key, "%s", key);
	if (strlen(key) == SESSION_KEY_LEN && games_find_absent(server_games(s->srv), s)) {
		s->login->reclaiming = false;
		s->registered = false;
		login_complete(s);
		return;
	}
	log_info("wrong reconnect key for %s from %s", s->name, conn_address(s->conn));
	if (++s->login->tries >= server_config(s->srv)->limits.login_tries_per_conn) {
		conn_puts(s->conn, "\n**** Invalid reconnect key! ****\n"
		    "**** Too many failed logins; goodbye. ****\n");
		conn_close(s->conn, "too many failed logins");
		return;
	}
	login_refuse(s, "**** Invalid reconnect key! ****\n"
	    "Sorry, %s is held for a player who lost contact.  Try another name.", s->name);
}

static void login_password(struct session *s, char *line)
{
	conn_write_raw(s->conn, telnet_echo_on, sizeof telnet_echo_on);
	conn_puts(s->conn, "\n");
	if (s->login->reclaiming) {
		login_reclaim(s, line);
		return;
	}
	if (!*line) {
		login_prompt(s);
		return;
	}
	login_verify(s, line);
}

static void verify_done(struct session *s, int result, const char *hash)
{
	(void)hash;
	/* Changed while it was hashed: the old password no longer opens the account. */
	if (result == 1 && login_hash_changed(s, false))
		result = 0;
	OPENSSL_cleanse(s->login->stored_hash, sizeof s->login->stored_hash);
	login_check_end(s, result == 1);
	if (result == 1) {
		s->registered = true;
		/* Lines a login script sent behind the password wait for the session. */
		login_complete(s);
		conn_hold_input(s->conn, false);
		return;
	}
	if (result < 0)
		log_warn("stored password of %s is malformed", s->name);
	log_info("failed login for %s from %s", s->name, conn_address(s->conn));
	conn_puts(s->conn, "\n**** Invalid password! ****\n\n");
	if (++s->login->tries >= server_config(s->srv)->limits.login_tries_per_conn) {
		conn_puts(s->conn, "**** Too many failed logins; goodbye. ****\n");
		conn_close(s->conn, "too many failed logins");
		return;
	}
	s->user_id = 0;
	s->admin = false;
	s->admin_level = 0;
	s->computer = false;
	login_prompt(s);
	conn_hold_input(s->conn, false);
}

/*
 * Return pressed for an unregistered name: things may have changed since
 * the name was typed (someone took it, registered it, or lost contact in a
 * game under it).
 */
static void login_confirmed(struct session *s)
{
	struct db_user user;
	bool taken = strncasecmp(s->name, "guest", 5) &&
	    db_user_find(server_db(s->srv), s->name, &user) != 0;

	OPENSSL_cleanse(&user, sizeof user);
	if (server_find_session(s->srv, s->name))
		login_refuse(s, "Sorry, %s is already logged in.  Try another name.", s->name);
	else if (games_name_held(server_games(s->srv), s->name))
		login_refuse(s, "Sorry, %s is held for a player who lost contact.  Try another name.",
		    s->name);
	else if (taken)
		login_refuse(s, "Sorry, %s is a registered name now.  Try again.", s->name);
	else
		login_complete(s);
}

/* Sends a ping now, or once the reply to the running command is out: never inside a block. */
static void send_ping(struct session *s, int tag)
{
	if (s->in_command) {
		if (s->ping_due < tag)
			s->ping_due = tag;
		return;
	}
	conn_ping(s->conn, tag);
}

void session_set_client_ms(struct session *s, int64_t client_ms)
{
	s->client_ms = client_ms;
}

void session_pong(struct session *s, int tag, int64_t client_ms)
{
	if (tag >= PING_BOARD && tag == s->board_ping)
		s->board_client_ms = client_ms;
}

int64_t session_rtt_ms(struct session *s, bool *from_timeseal)
{
	int64_t rtt = conn_rtt_ms(s->conn, from_timeseal);

	if (*from_timeseal)
		send_ping(s, PING_LAG);		/* so that the next answer is fresh */
	return rtt;
}

void session_board_sent(struct session *s)
{
	if (s->state != S_ONLINE || !conn_timeseal(s->conn))
		return;
	s->board_client_ms = -1;
	s->board_ping = s->board_ping >= PING_BOARD && s->board_ping < INT_MAX ? s->board_ping + 1 :
	    PING_BOARD;
	send_ping(s, s->board_ping);
}

int64_t session_client_think_ms(const struct session *s)
{
	return timeseal_elapsed_ms(s->board_client_ms, s->client_ms);
}

void session_wake(struct session *s)
{
	if (s->state == S_ONLINE) {
		/* The timeseal lag ping, while playing. */
		if (s->game)
			send_ping(s, PING_LAG);
		conn_wake_at(s->conn, server_now_ms(s->srv) + LIMIT_TIMESEAL_PING_MS);
		return;
	}
	if (s->state == S_VERIFYING && !s->job && s->login && s->login->held_password[0]) {
		/* Nobody waits for this answer: do not spend a check of the name on it. */
		if (conn_hung_up(s->conn))
			conn_abort(s->conn, "disconnected while its login waited");
		else
			login_verify(s, s->login->held_password);
	}
}

/*
 * The first code named wins; the header goes out with the reply's first
 * byte, so that a reply that waits (session_defer_reply) has not opened its
 * block while unsolicited lines go out in between.
 */
void session_block_begin(struct session *s, int code)
{
	if (s->block_id >= 0 && !s->block_open && s->block_code < 0)
		s->block_code = code;
}

static void block_header(struct session *s)
{
	char header[48];

	if (s->block_id < 0 || s->block_open)
		return;
	int n = snprintf(header, sizeof header, "\x15%ld\x16%d\x16", s->block_id,
	    s->block_code < 0 ? BLKCMD_NULL : s->block_code);
	conn_write_raw(s->conn, header, (size_t)n);
	s->block_open = true;
}

/* Block mode: "27 e2e4" runs e2e4 with its reply framed as block 27. */
static void run_numbered(struct session *s, char *line)
{
	char word[16];
	long id = -1;

	while (*line == ' ')
		line++;
	size_t wlen = strcspn(line, " ");
	char *end = line + wlen;
	if (wlen < sizeof word) {
		memcpy(word, line, wlen);
		word[wlen] = '\0';
		if (number_parse(word, 0, INT_MAX, &id) != NUMBER_OK)
			id = -1;
	}
	if (id < 0) {
		s->block_id = 0;
		session_block_begin(s, BLOCK_NO_SEQUENCE);
		session_printf(s, "Block mode needs a command number first.\n");
	} else {
		s->block_id = id;
		s->block_open = false;
		s->block_code = -1;
		cmd_execute(s, end);
	}
	if (!s->reply_deferred)
		session_block_end(s);
}

void session_block_end(struct session *s)
{
	if (s->block_id < 0)
		return;
	block_header(s);	/* a command that said nothing still has its block */
	conn_write_raw(s->conn, "\x17\n\r", 3);
	s->block_id = -1;
	s->block_open = false;
	s->block_code = -1;
}

void session_read_secret(struct session *s, const char *prompt_text,
    void (*take)(struct session *s, char *line))
{
	s->secret = take;
	conn_write_raw(s->conn, telnet_echo_off, sizeof telnet_echo_off);
	session_printf(s, "%s", prompt_text);
}

void session_line(struct session *s, char *line, size_t len)
{
	(void)len;
	switch (s->state) {
	case S_LOGIN:
		login_name(s, line);
		break;
	case S_PASSWORD:
		login_password(s, line);
		OPENSSL_cleanse(line, len);
		break;
	case S_CONFIRM:
		login_confirmed(s);
		break;
	case S_ONLINE:
		s->active_ms = server_now_ms(s->srv);
		if (s->secret) {
			void (*take)(struct session *s, char *line) = s->secret;
			s->secret = NULL;
			conn_write_raw(s->conn, telnet_echo_on, sizeof telnet_echo_on);
			conn_puts(s->conn, "\n");
			s->in_command = true;
			take(s, line);
			s->in_command = false;
			OPENSSL_cleanse(line, len);
			if (s->state == S_ONLINE && !s->reply_deferred)
				prompt(s);
			break;
		}
		s->in_command = true;
		if (session_var(s, IVAR_BLOCK))
			run_numbered(s, line);
		else
			cmd_execute(s, line);
		s->in_command = false;
		if (s->reply_deferred)
			break;		/* job_finished ends the reply */
		if (s->ping_due) {
			conn_ping(s->conn, s->ping_due);
			s->ping_due = 0;
		}
		if (s->state == S_ONLINE && !s->secret)	/* a secret's prompt was the reply */
			prompt(s);
		break;
	default:
		break;
	}
}
