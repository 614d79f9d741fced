/*
 * A client's session: the FICS login dialogue, then the logged-in user with
 * variables, channels and aliases, reading command lines from its conn.
 */
#ifndef CHESSD_SESSION_H
#define CHESSD_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkcmd.h"
#include "clock.h"
#include "var.h"

struct conn;
struct server;
struct session;

#define SESSION_NAME_MIN 3
#define SESSION_NAME_MAX 17
/* A guest's reconnect key: 128 random bits in hex. */
#define SESSION_KEY_LEN 32

struct session *session_new(struct server *srv, struct conn *conn);
/* Frees the session; it must be detached already (conn_free sees to it). */
void session_free(struct session *s);
/* The connection is ready (after any TLS handshake): banner and login prompt. */
void session_start(struct session *s);
/* The connection is closing: leave the online list, cancel pending work. */
void session_detach(struct session *s);
/* One cleaned line from the client. */
void session_line(struct session *s, char *line, size_t len);
/* A timer the session asked for (conn_wake_at) has fired. */
void session_wake(struct session *s);

/*
 * Timeseal.  The client's clock (ms, wrapping at TIMESEAL_CLOCK_WRAP_MS)
 * when it sent the line about to reach session_line, or -1 for a plain
 * session; conn sets it before each line.
 */
void session_set_client_ms(struct session *s, int64_t client_ms);
/* A ping came back: tag as given to conn_ping, client_ms when the client read the ping. */
void session_pong(struct session *s, int tag, int64_t client_ms);
/* The client's round trip (conn_rtt_ms); a timeseal client is pinged again for the next ask. */
int64_t session_rtt_ms(struct session *s, bool *from_timeseal);
/* A board putting s on move has just been queued: ping so the client stamps its arrival. */
void session_board_sent(struct session *s);
/*
 * The thinking time the client reports for the line being run: from the
 * arrival of the board that put it on move to the sending of this line,
 * or -1 when unknown (a plain session, or no stamp for that board).
 */
int64_t session_client_think_ms(const struct session *s);

/*
 * Block mode (iset block 1): the reply to a numbered command is framed as
 * \x15id\x16code\x16 ... \x17.  The command dispatcher names the command's
 * FICS code (the first code named wins); the header goes out with the
 * reply's first byte.  Outside block mode it is a no-op.
 */
void session_block_begin(struct session *s, int code);
/* The running command's reply goes on when its password job finishes: the
 * block stays open, the prompt and further input wait for it. */
void session_defer_reply(struct session *s);
/* A deferred reply that waited for something else (a game's verdict): say
 * (may be NULL) writes its rest inside the reply, then the block closes, the
 * prompt follows and input flows again.  With no reply deferred, say just runs. */
void session_reply_resume(struct session *s, void (*say)(struct session *s, void *arg), void *arg);
/* Closes the block-mode reply now (before a close, say); later calls do nothing. */
void session_block_end(struct session *s);

/* The block-mode codes the dispatcher itself sends (names in blkcmd.h). */
enum {
	BLOCK_MOVE = BLKCMD_GAME_MOVE,
	BLOCK_BAD_COMMAND = BLKCMD_ERROR_BADCOMMAND, BLOCK_BAD_PARAMS = BLKCMD_ERROR_BADPARAMS,
	BLOCK_AMBIGUOUS = BLKCMD_ERROR_AMBIGUOUS, BLOCK_RIGHTS = BLKCMD_ERROR_RIGHTS,
	BLOCK_NOT_PLAYING = BLKCMD_ERROR_NOTPLAYING, BLOCK_NO_SEQUENCE = BLKCMD_ERROR_NOSEQUENCE,
	BLOCK_LENGTH = BLKCMD_ERROR_LENGTH,
};

/* Output.  session_printf writes the reply to the current command;
 * session_notify sends unsolicited text on its own lines with a fresh prompt. */
void session_printf(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void session_notify(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* session_printf and session_notify of text already formatted (a line shared by many). */
void session_write(struct session *s, const char *text, size_t len);
void session_notify_text(struct session *s, const char *text, size_t len);
/*
 * Whether chat (channel tells, shouts, kibitzes) may be queued for s now:
 * false for a reader already too far behind, whose skipped line is counted.
 */
bool session_offer_chat(struct session *s);
/* A one-line error: as a reply during a command, else as a notification. */
void session_error(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

const char *session_name(const struct session *s);
/* FICS name suffix: "(U)" for unregistered, "(*)" for admins, "" otherwise. */
const char *session_flags(const struct session *s);
bool session_computer(const struct session *s);
/* An admin changed the admin or computer list: the session shows it at once. */
void session_set_admin(struct session *s, bool admin);
void session_set_computer(struct session *s, bool computer);
/* The session's personal lists (lists.c owns them; NULL while not online). */
struct list_set;
struct list_set *session_list_set(const struct session *s);
void session_set_list_set(struct session *s, struct list_set *set);
/* The user's rating in a category as shown (kept current after rated games). */
const char *session_rating_text(const struct session *s, enum clock_category c);
void session_set_rating_text(struct session *s, enum clock_category c, const char *text);
bool session_online(const struct session *s);
bool session_registered(const struct session *s);
bool session_admin(const struct session *s);
/* An admin's level (0 for everyone else); an admin acts only on lower levels. */
int session_admin_level(const struct session *s);
int64_t session_user_id(const struct session *s);
/* A guest's games are the id-less ones from this id on, played in its session (<= 0: none). */
int64_t session_games_from(const struct session *s);
/*
 * The key that lets an unregistered player back into a seat after losing
 * contact (made on first use; "" if no randomness was to be had), and
 * whether a seat's key is this session's.
 */
const char *session_reconnect_key(struct session *s);
bool session_key_matches(const struct session *s, const char *key);
struct conn *session_conn(const struct session *s);
struct server *session_server(const struct session *s);
int64_t session_login_ms(const struct session *s);
int64_t session_idle_ms(const struct session *s);
/* When it last sent a command (server_now_ms() time). */
int64_t session_active_ms(const struct session *s);

struct var_values *session_vars(struct session *s);
int session_var(const struct session *s, enum var_id id);
/* Sets a variable, stored (committed) for registered users before it returns;
 * -1 with why on bad input or when the database refuses it (the old value stays). */
int session_set_var(struct session *s, enum var_id id, const char *value, char *why, size_t len);

bool session_in_channel(const struct session *s, int channel);
/* Joins or leaves; committed for registered users before it returns.  -1 if
 * over the limit, -2 when the database refuses it (nothing changes). */
int session_set_channel(struct session *s, int channel, bool member);
int session_channel_count(const struct session *s);

/* The last user this session told, for "tell .": the name as shown, and
 * that same account or guest session if it is online (else NULL). */
const char *session_last_tell(const struct session *s);
struct session *session_last_tell_online(struct session *s);
void session_set_last_tell(struct session *s, const struct session *to);
/* The last user who told this session, for "reply": the same, kept by account
 * or guest session, never by the name alone. */
const char *session_last_teller(const struct session *s);
struct session *session_last_teller_online(struct session *s);
void session_set_last_teller(struct session *s, const struct session *from);

/* Aliases: the value for name, or NULL; set NULL to remove (committed for
 * registered users).  -1 when full, -2 when the database refuses it. */
const char *session_alias(const struct session *s, const char *name);
int session_set_alias(struct session *s, const char *name, const char *value);
void session_each_alias(const struct session *s, void (*fn)(void *arg, const char *name,
    const char *value), void *arg);

/*
 * Runs a password job (see hasher_submit) for this session; done is called
 * with the session unless it goes away first.  -1 if busy or the queue is full.
 */
int session_password_job(struct session *s, const char *password, const char *stored,
    const char *new_password, void (*done)(struct session *s, int result, const char *hash));
/* Accounts registered from this connection (register counts each request). */
int session_registrations(const struct session *s);
void session_count_registration(struct session *s);
/* A name the current or last password job is about (e.g. the one being registered). */
void session_set_job_note(struct session *s, const char *note);
const char *session_job_note(const struct session *s);
/* The account (by id) the job is about, when it is someone else's. */
void session_set_job_account(struct session *s, int64_t user_id);
int64_t session_job_account(const struct session *s);

/*
 * The next line the user types is a secret (a password): it is not echoed
 * (telnet), never run as a command nor logged, and goes to take, then is
 * wiped.  prompt_text is printed as part of the current reply.
 */
void session_read_secret(struct session *s, const char *prompt_text,
    void (*take)(struct session *s, char *line));

/* The game this session plays, or NULL. */
struct game *session_game(const struct session *s);
void session_set_game(struct session *s, struct game *g);
/* The board this session examines (examine.c), or NULL. */
struct examine *session_examining(const struct session *s);
void session_set_examining(struct session *s, struct examine *ex);
/* Games this session observes. */
int session_observe(struct session *s, struct game *g);
void session_unobserve(struct session *s, struct game *g);
/* The game dropped this observer (it ended): forget it without telling the game. */
void session_unobserved(struct session *s, struct game *g);
bool session_observing(const struct session *s, const struct game *g);
int session_observed_count(const struct session *s);
struct game *session_observed_at(const struct session *s, int i);
/*
 * The player this session follows (their games are observed as they start):
 * the name as shown, the identity (account, or a guest's session) as kept.
 */
const char *session_following(const struct session *s);
void session_set_following(struct session *s, struct session *who);
/* Calls fn for each online session following this player, in the order they began to. */
void session_each_follower(struct session *followed, void (*fn)(struct session *s, void *arg),
    void *arg);
/* The opponent of this session's last game, for "say" after it ended. */
const char *session_last_opponent(const struct session *s);
/* The session of the last opponent if that same account or guest session is online. */
struct session *session_last_opponent_online(struct session *s);

/* The terms of this session's last game, for "rematch". */
struct match_terms {
	struct clock_control tc;
	bool rated;
	int color;		/* the colour this session had */
	bool valid;
};
const struct match_terms *session_last_terms(const struct session *s);
void session_set_last_terms(struct session *s, const struct match_terms *t);

/* Valid FICS handle: 3 to 17 letters. On failure, why gets FICS's sentence. */
bool session_valid_name(const char *name, char *why, size_t len);

#endif
