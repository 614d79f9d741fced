/*
 * Lists, FICS style.  Personal lists (notify, gnotify, censor, noplay) are
 * each session's own, loaded at login (a registered user's from the
 * database, a guest's kept for the session only), and a server-wide
 * reverse index finds who lists a player, so an arrival or a game start
 * costs its listeners, not every session.  Public lists (admin, computer,
 * td, muzzle, cmuzzle, ban) live in the database and are read there, so a
 * change applies at once to sessions already online.  An entry is an
 * identity: an account id, or for a guest its connection (never reused).
 */
#ifndef CHESSD_LISTS_H
#define CHESSD_LISTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct server;
struct session;
struct lists;
struct list_set;

enum list_kind {
	LIST_NOTIFY, LIST_GNOTIFY, LIST_CENSOR, LIST_NOPLAY,
	LIST_PERSONAL_COUNT,
	LIST_CHANNEL = LIST_PERSONAL_COUNT,	/* personal, kept by session.c */
	LIST_ADMIN, LIST_BAN, LIST_MUZZLE, LIST_CMUZZLE, LIST_COMPUTER, LIST_TD,
	LIST_KIND_COUNT
};

/* The server's reverse index. */
struct lists *lists_new(void);
void lists_free(struct lists *l);

/* The list a name or unique prefix names: a kind, -1 none, -2 several. */
int lists_find(const char *prefix);
const char *lists_name(enum list_kind kind);
bool lists_personal(enum list_kind kind);
/* Calls fn for each list, in the order showlist names them. */
void lists_each_kind(void (*fn)(void *arg, enum list_kind kind), void *arg);

/* Who a session is to a list: its account id, or minus its connection's id. */
int64_t lists_identity(const struct session *s);

/* Session hooks: s has just logged in (load, index, tell its listeners and
 * show who is here) / is leaving (tell its listeners, unindex, free). */
void lists_login(struct session *s);
void lists_logout(struct session *s);

/* Personal lists.  Add: 0 added, 1 already there, 2 full, -1 not stored. */
int lists_add(struct session *owner, enum list_kind kind, int64_t id, const char *name);
/* Remove: 0 removed, 1 not there, -1 not stored. */
int lists_remove(struct session *owner, enum list_kind kind, int64_t id);
bool lists_has(const struct session *owner, enum list_kind kind, int64_t id);
/* The entry with this name (any case), or 0; stored gets its name as the list keeps it. */
int64_t lists_find_named(const struct session *owner, enum list_kind kind, const char *name,
    char *stored, size_t len);
int lists_count(const struct session *owner, enum list_kind kind);
void lists_each(const struct session *owner, enum list_kind kind,
    void (*fn)(void *arg, int64_t id, const char *name), void *arg);
/* Calls fn for each online session with id on its personal list of this kind. */
void lists_each_owner(struct server *srv, enum list_kind kind, int64_t id,
    void (*fn)(struct session *owner, void *arg), void *arg);

/* Whether to has from on its censor list (nothing from `from` reaches `to`). */
bool lists_censors(const struct session *to, const struct session *from);
/* Whether s may play other (match, play, accept, rematch); false after the line saying why. */
bool lists_may_play(struct session *s, const struct session *other);
/*
 * Whether account owner_id has account member_id on a personal list, online
 * or not (for what reaches an account offline, as a message does).
 */
bool lists_account_has(struct server *srv, int64_t owner_id, enum list_kind kind,
    int64_t member_id);
/* Whether a registered session is on a public list (muzzle, cmuzzle, td, ban). */
bool lists_on_public(const struct session *s, enum list_kind kind);
/* Whether an account is banned. */
bool lists_banned(struct server *srv, int64_t user_id);
/* A game between white and black started: "Game notification: TEXT" to their gnotify listeners. */
void lists_game_started(struct session *white, struct session *black, const char *text);
/* An account was deleted: online lists drop it. */
void lists_forget(struct server *srv, int64_t user_id);

#endif
